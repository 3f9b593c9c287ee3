"""Typed values of the compiler: what a name means (:class:`Binding`) and what an expression compiles to
(:class:`Compiled`): a type, ``ast`` code, and the value when it is known before play."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from rulelang.compile.codegen import literal
from rulelang.compile.values import NONE


@dataclass
class Binding:
    """What one name means: its type and the ``ast`` code that reads it."""

    type: str
    code: ast.expr
    const: object = None
    is_const: bool = False
    lexical: bool = False       # a name of this expression alone (a parameter, a bound variable): no definition sees it


def const(type_: str, value) -> Binding:
    """A binding to a constant value."""
    return Binding(type_, literal(value), value, True)


@dataclass
class Compiled:
    """A typed, compiled expression: its ``ast`` code, and its value when known before play."""

    type: str
    code: ast.expr
    is_const: bool = False
    value: object = None


def constant(type_: str, value) -> Compiled:
    """A compiled constant."""
    return Compiled(type_, literal(value), True, value)


def none_code() -> Compiled:
    """The code of an expression that has no value (after an error, reported elsewhere)."""
    return Compiled(NONE, ast.Constant(None))


UNAVAILABLE = "unavailable"
PER_SEAT = "per-seat counter"
"""The type of a match counter kept per seat (``counters: {NAME: {each: seats}}``): read only as ``NAME(SEAT)``."""


def unavailable(where: str, instead: str) -> Binding:
    """A name (or function) a place may not read, with where it is known and what to write instead (N201): the
    win rules may not ask who wins the trick, which they decide."""
    return Binding(UNAVAILABLE, ast.Constant(None), (where, instead), True)
