"""The Lark grammar of rule files and expressions, and the one parser built from it.

Building the LALR tables takes much of a command's start-up, so the built parser is cached
with Lark's ``cache=`` option in the private folder of :mod:`rulelang.read.cache`; without one
the parser is built every time. Lark keys the cache on the grammar text and options, and the
file name carries the Lark and Python versions, so a changed grammar or an upgrade never
reads a stale table.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark

from rulelang.read.cache import cache_folder

GRAMMAR_PATH = Path(__file__).with_name("rulelang.lark")


def cache_file(grammar: str) -> str | bool:
    """The cache path for this grammar, Lark and Python; ``False`` (no cache) without a folder."""
    folder = cache_folder()
    if folder is None:
        return False
    key = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    python = "%d%d" % sys.version_info[:2]
    return str(folder / f"grammar-{key}-lark{lark.__version__}-py{python}.cache")


@lru_cache(maxsize=None)
def parser() -> Lark:
    """The LALR parser for both start symbols: ``start`` (a rule file) and ``expr``."""
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
        cache=cache_file(grammar),
    )
