"""The examples in the docstrings run as written (``>>>`` lines), so the documentation cannot drift."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import rulelang
import rulelang.interpreter
import rulelang.validators


def modules_with_examples() -> list[str]:
    """Every module of the three packages whose source holds a ``>>>`` example."""
    found = []
    for package in (rulelang, rulelang.interpreter, rulelang.validators):
        root = Path(package.__path__[0])
        for path in sorted(root.rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                dotted = ".".join(path.relative_to(root).with_suffix("").parts)
                found.append(f"{package.__name__}.{dotted}".removesuffix(".__init__"))
    return found


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_docstring_examples_of_each_module_hold(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
