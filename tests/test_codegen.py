"""The game's rules compiled to one Python module, built from ``ast`` nodes only."""

from __future__ import annotations

import ast

import pytest

from rulelang.compile.codegen import CodeModule
from rulelang.compile.coderuntime import HELPERS
from rulelang.compile.exprcompile import INT, NAME, Binding, EvalError, Scope, compile_expr, const
from rulelang.compile.codegen import state_item
from rulelang.read.expr import parse_expr
from rulelang.compile.ir import Rule
from rulelang.constructs import constructs
from rulelang.loader import load_definition, shipped_games
from rulelang.read.source import Span

GAMES = sorted({p.stem for p in shipped_games()})
OWN_NAMES = {"st", "pl", "_hand", "_allowed", "_free", "_mask", "_card", "_within", "_declarers", "_defenders", "_game_value", "_rows", "_level",
             "_owner", "len", "min", "max", "abs", "bool", "sum", "any", "all", *HELPERS}


def own_name(identifier: str) -> bool:
    """Whether a name in generated code is one the compiler makes."""
    return identifier in OWN_NAMES or any(
        identifier.startswith(prefix) and identifier[len(prefix):].isdigit() for prefix in ("rule_", "_let", "_k", "_once", "def_", "_p", "_c", "_h", "_q")) \
        or identifier.startswith("_part_") and identifier[len("_part_"):] in constructs()


@pytest.mark.parametrize("game_name", GAMES)
def test_every_name_in_a_games_module_is_the_compilers_own(game_name):
    module = load_definition(game_name).code.module()
    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            assert own_name(node.id), node.id
        elif isinstance(node, ast.FunctionDef):
            assert own_name(node.name)
        elif isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_"), node.attr
        assert not isinstance(node, (ast.Import, ast.ImportFrom, ast.Lambda, ast.Global, ast.ClassDef))


def compiled_rule(text: str, scope: Scope, line: int = 3, column: int = 7):
    """One expression compiled into ``scope``'s module and linked: its rule."""
    origin = Span("game.rules", line, column)
    compiled = compile_expr(parse_expr(text, origin), scope, origin)
    rule = Rule(None, text, origin)
    scope.module.function(compiled.code, rule)
    scope.module.link()
    return rule


def test_a_hostile_string_reaches_the_code_only_as_a_constant():
    hostile = "x'); __import__('os').system('echo owned'); ('"
    scope = Scope(names={"mode": const(NAME, hostile), "chosen": Binding(NAME, state_item("vars", hostile))},
                  module=CodeModule("game.rules"))
    rule = compiled_rule("chosen == mode", scope)

    class Seen:
        vars = {hostile: hostile}
    assert rule.fn(Seen, None) is True
    constants = [n.value for n in ast.walk(scope.module.module()) if isinstance(n, ast.Constant)]
    assert constants.count(hostile) == 2
    assert "__import__" not in {n.id for n in ast.walk(scope.module.module()) if isinstance(n, ast.Name)}


def test_constants_are_folded_and_a_division_by_zero_points_at_its_rule():
    scope = Scope(names={"factor": const(INT, 3), "zero": Binding(INT, state_item("vars", "zero"))},
                  module=CodeModule("game.rules"))
    folded = compile_expr(parse_expr("factor * 2 + 1", None), scope, None)
    assert folded.is_const and folded.value == 7
    rule = compiled_rule("10 / zero", scope, line=5, column=9)

    class State:
        vars = {"zero": 0}
    with pytest.raises(EvalError) as caught:
        rule.fn(State, None)
    assert (caught.value.span.line, caught.value.span.column) == (5, 9)
    assert "division by zero" in str(caught.value)


def rules_in(value, seen=None):
    """Every :class:`Rule` reachable from a compiled definition."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (str, int, float, bool)) or value is None:
        return
    seen.add(id(value))
    if isinstance(value, Rule):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from rules_in(item, seen)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from rules_in(item, seen)
    elif hasattr(value, "__dataclass_fields__"):
        for field in value.__dataclass_fields__:
            if field not in ("document", "code", "deck"):
                yield from rules_in(getattr(value, field), seen)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_rule_runs_as_a_function_of_the_games_module(game_name):
    definition = load_definition(game_name)
    rules = list(rules_in(definition))
    assert len(rules) >= 5
    generated = {f"rule_{i}" for i in range(len(definition.code.functions))}
    for rule in rules:
        assert rule.fn.__name__ in generated or rule.fn.__name__ == "_always", rule.text
        assert rule.fn.__code__.co_filename.startswith("<rules of") or rule.fn.__name__ == "_always"
