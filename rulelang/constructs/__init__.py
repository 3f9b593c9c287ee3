"""The rule constructs: one module per phase kind, each holding everything about that kind.

Every module of this package that defines ``CONSTRUCT`` (a subclass of
:class:`~rulelang.constructs.base.Construct`) is registered; the stages — schema,
DSL, compiler, checks, interpreter, ``explain``, ``fmt``, narration — iterate over
:func:`constructs` and never name a kind; :func:`batch_kernels` says which kinds the batch engine
covers. docs/architecture.md says how to add one.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from rulelang.constructs.base import Construct, DealPart


@lru_cache(maxsize=1)
def constructs() -> dict[str, type[Construct]]:
    """Every registered construct by its kind, in the order the documentation lists them."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        construct = getattr(module, "CONSTRUCT", None)
        if construct is not None:
            found.append(construct)
    found.sort(key=lambda c: (c.order, c.kind))
    return {c.kind: c for c in found}


def construct(kind: str) -> type[Construct] | None:
    """The construct of a phase kind, or None for an unknown kind."""
    return constructs().get(kind)


@lru_cache(maxsize=1)
def with_parts() -> tuple[type[Construct], ...]:
    """The constructs that keep a slice of deal state."""
    return tuple(c for c in constructs().values() if c.part is not None)


def batch_kernels() -> dict[str, str]:
    """The kinds the batch engine covers, each with the kernel its construct names (``module:NAME``)."""
    return {kind: c.batch_kernel for kind, c in constructs().items() if c.batch_kernel}


def receiver_of(st) -> int:
    """The seat the pending chance card goes to (-1: to no seat), by the construct of the current step."""
    step = st.step
    if step is None or st.sub == "first_dealer":
        return -1
    return construct(step.kind).receiver(st, step)


__all__ = ["Construct", "DealPart", "batch_kernels", "construct", "constructs", "receiver_of", "with_parts"]
