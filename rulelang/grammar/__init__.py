"""The Lark grammar of rule files and expressions, and the one parser built from it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark

GRAMMAR_PATH = Path(__file__).with_name("rulelang.lark")


@lru_cache(maxsize=None)
def parser() -> Lark:
    """The LALR parser for both start symbols: ``start`` (a rule file) and ``expr``."""
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
    )
