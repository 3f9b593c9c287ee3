"""Printers for ``rulelang fmt``: a rule document as DSL text or as YAML.

:func:`to_rules` writes the readable statements wherever a part of the document fits
them and the generic ``key = value`` / ``key { … }`` form everywhere else, so that
``load_dsl(to_rules(d)).data == d`` for every document. :func:`to_yaml` writes the
document out directly.

>>> print(to_rules({"game": "demo", "players": 4, "match": {"end": "max(score) >= 10"}}))
game demo
<BLANKLINE>
players 4
<BLANKLINE>
match {
  end when max(score) >= 10
}
<BLANKLINE>
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from typing import Any, Callable

import yaml
from lark.exceptions import LarkError
from lark.lexer import PatternStr

from rulelang.constructs import construct
from rulelang.read.dsl import literal_or_text, scalar_value, tree_depth
from rulelang.read.expr import MAX_EXPR_DEPTH, MAX_EXPR_LENGTH, from_tree
from rulelang.render.fmt_comments import HEAD, TAIL, Comments, with_comments
from rulelang.read.grammar import parser

INDENT = "  "
LINE_WIDTH = 100

Lines = list[str]
Printer = Callable[[Any, str, dict], "Lines | None"]


class _SafeDumper(yaml.SafeDumper):
    """PyYAML's safe dumper, except that strings holding a NEL (U+0085) are double-quoted:
    in single quotes PyYAML folds that line break into a space."""


def _represent_str(dumper: yaml.SafeDumper, text: str):
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if "\x85" in text else None)


_SafeDumper.add_representer(str, _represent_str)


def to_yaml(data: dict, comments: Comments | None = None) -> str:
    """The document as YAML (the safe dumper), keys in document order; ``comments`` before their keys."""
    if comments is None:
        return yaml.dump(data, Dumper=_SafeDumper, sort_keys=False, allow_unicode=True, width=LINE_WIDTH)
    chunks = [(key, yaml.dump({key: value}, Dumper=_SafeDumper, sort_keys=False, allow_unicode=True,
                              width=LINE_WIDTH).rstrip("\n").split("\n")) for key, value in data.items()]
    return "\n".join(line for _, lines in with_comments(chunks, comments, [""]) for line in lines) + "\n"


def to_rules(data: dict, comments: Comments | None = None) -> str:
    """The document as DSL text in canonical layout (2-space indent); ``comments`` before their keys."""
    printed = [(key, _top_statement(key, value, data)) for key, value in data.items()]
    chunks = with_comments([(key, lines) for key, lines in printed if lines], comments)
    out: Lines = []
    for index, (key, lines) in enumerate(chunks):
        if index and not (_is_setting(key, lines) and _is_setting(*chunks[index - 1])):
            out.append("")
        out.extend(lines)
    return "\n".join(out) + "\n"


def _is_setting(key, lines: Lines) -> bool:
    return len(lines) == 1 and key not in ("game", "title", "params", HEAD, TAIL)


# ---------------------------------------------------------------- words, values, expressions
@lru_cache(maxsize=None)
def keywords() -> frozenset[str]:
    """Every keyword of the grammar: a bare word equal to one of them must be quoted."""
    return frozenset(t.pattern.value for t in parser().terminals
                     if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier())


@lru_cache(maxsize=None)
def field_keywords() -> frozenset[str]:
    """The keywords the grammar also takes as keys inside a generic mapping (rule ``keyword``)."""
    names = {symbol.name for rule in parser().rules if rule.origin.name == "keyword" for symbol in rule.expansion}
    return frozenset(parser().get_terminal(name).pattern.value for name in names)


@lru_cache(maxsize=None)
def _word_pattern():
    return re.compile(parser().get_terminal("WORD").pattern.to_regexp())


def is_bare(text: str, field: bool = False) -> bool:
    """True if ``text`` can be written without quotes and reads back as the same string.

    Keywords need quotes, except as keys inside a generic mapping (``field``).
    """
    if not _word_pattern().fullmatch(text) or not isinstance(scalar_value(text), str):
        return False
    return text not in keywords() or (field and text in field_keywords())


def quote(text: str) -> str:
    """``text`` in double quotes, escaped as in JSON."""
    return json.dumps(text, ensure_ascii=False)


def scalar_text(value: Any, bare: bool = True) -> str | None:
    """A scalar as the DSL writes it (strings bare where possible), or None if it is no scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        return text if math.isfinite(value) and scalar_value(text.lstrip("-")) == abs(value) else None
    if isinstance(value, str):
        return value if bare and is_bare(value) else quote(value)
    return None


def key_text(key: Any, field: bool = False) -> str | None:
    """A mapping key as the DSL writes it, or None (negative numbers cannot be keys)."""
    if isinstance(key, int) and not isinstance(key, bool) and key < 0:
        return None
    if isinstance(key, float) and math.copysign(1, key) < 0:
        return None
    if isinstance(key, str):
        return key if is_bare(key, field) else quote(key)
    return scalar_text(key)


def expr_text(value: Any) -> str | None:
    """An expression field: inline canonical text, an int/bool literal, or a quoted string."""
    if isinstance(value, (bool, int)):
        return scalar_text(value)
    if isinstance(value, str):
        return value if is_canonical(value) else quote(value)
    return None


@lru_cache(maxsize=4096)
def is_canonical(text: str) -> bool:
    """True if ``text`` is an expression's canonical text that the DSL would read back as ``text``."""
    if len(text) > MAX_EXPR_LENGTH:
        return False
    try:
        tree = parser().parse(text, start="expr")
    except LarkError:
        return False
    return tree_depth(tree) <= MAX_EXPR_DEPTH and literal_or_text(from_tree(tree)) == text


def scalars(value: Any) -> list[str] | None:
    """A non-empty list of scalars as their texts, or None."""
    if not isinstance(value, list) or not value:
        return None
    texts = [scalar_text(item) for item in value]
    return None if None in texts else texts


def exprs(value: Any) -> list[str] | None:
    """A non-empty list of expression fields as their texts, or None."""
    if not isinstance(value, list) or not value:
        return None
    texts = [expr_text(item) for item in value]
    return None if None in texts else texts


def _keyed(value: Any, text_of: Callable[[Any], str | None]) -> list[tuple[str, str]] | None:
    """A non-empty mapping as (key text, value text) pairs, or None if some part does not fit."""
    if not isinstance(value, dict) or not value:
        return None
    pairs = [(key_text(k), text_of(v)) for k, v in value.items()]
    return None if any(k is None or v is None for k, v in pairs) else pairs


# ---------------------------------------------------------------- the generic form
def entry(key: Any, value: Any, pad: str, field: bool = False) -> Lines:
    """``key = value`` or ``key { … }``: the form every key and value can be written in.

    ``field`` tells that the entry is inside a generic mapping, where keywords need no quotes.
    """
    text = key_text(key, field)
    if text is None:
        raise ValueError(f"the key {key!r} cannot be written in the DSL")
    if isinstance(value, dict):
        return block(pad, text, entries(value, pad + INDENT))
    return value_lines(f"{text} = ", value, pad)


def entries(mapping: dict, pad: str) -> Lines:
    """Every key of a generic mapping."""
    return [line for key, value in mapping.items() for line in entry(key, value, pad, field=True)]


def block(pad: str, head: str, body: Lines) -> Lines:
    """``head { body }`` over several lines, or ``head {}`` when the body is empty."""
    opening = f"{head} {{" if head else "{"
    if not body:
        return [f"{pad}{opening}}}"]
    return [f"{pad}{opening}", *body, f"{pad}}}"]


def value_lines(prefix: str, value: Any, pad: str) -> Lines:
    """A generic value after ``prefix``: strings quoted, lists in brackets, mappings in braces."""
    if isinstance(value, dict):
        return block(pad, prefix.rstrip(), entries(value, pad + INDENT))
    if isinstance(value, list):
        return _list_lines(prefix, value, pad)
    text = scalar_text(value, bare=False)
    if text is None:
        raise ValueError(f"the value {value!r} cannot be written in the DSL")
    return [f"{pad}{prefix}{text}"]


def _list_lines(prefix: str, items: list, pad: str) -> Lines:
    line = f"{pad}{prefix}{inline(items)}" if inline(items) is not None else None
    if line is not None and len(line) <= LINE_WIDTH:
        return [line]
    lines = [f"{pad}{prefix}["]
    for item in items:
        text = inline(item)
        fits = text is not None and len(pad) + len(INDENT) + len(text) < LINE_WIDTH
        item_lines = [f"{pad}{INDENT}{text}"] if fits else value_lines("", item, pad + INDENT)
        item_lines[-1] += ","
        lines.extend(item_lines)
    return lines + [f"{pad}]"]


def inline(value: Any) -> str | None:
    """A generic value on one line, or None for a mapping of more than one key."""
    if isinstance(value, list):
        texts = [inline(item) for item in value]
        return None if None in texts else f"[{', '.join(texts)}]"
    if isinstance(value, dict):
        if len(value) > 1:
            return None
        if not value:
            return "{}"
        (key, item), = value.items()
        key, item = key_text(key, field=True), inline(item)
        return None if key is None or item is None else f"{{ {key} = {item} }}"
    return scalar_text(value, bare=False)


def body(mapping: dict, table: dict[str, Printer], pad: str) -> Lines:
    """The statements of a block: readable where ``table`` has a printer that fits, else generic."""
    lines: Lines = []
    for key, value in mapping.items():
        printer = table.get(key) if isinstance(key, str) else None
        got = printer(value, pad, mapping) if printer else None
        lines.extend(got if got is not None else entry(key, value, pad))
    return lines


# ---------------------------------------------------------------- statement printers
def scalar_statement(keyword: str) -> Printer:
    """``keyword VALUE`` for a scalar value."""
    def printer(value, pad, mapping):
        text = scalar_text(value)
        return None if text is None else [f"{pad}{keyword} {text}"]
    return printer


def expr_statement(keyword: str) -> Printer:
    """``keyword EXPR`` for an expression field."""
    def printer(value, pad, mapping):
        text = expr_text(value)
        return None if text is None else [f"{pad}{keyword} {text}"]
    return printer


def list_statement(keyword: str, texts_of: Callable[[Any], list[str] | None]) -> Printer:
    """``keyword A, B, …`` for a non-empty list."""
    def printer(value, pad, mapping):
        texts = texts_of(value)
        return None if texts is None else [f"{pad}{keyword} {', '.join(texts)}"]
    return printer


def grouped_statement(template: str, text_of: Callable[[Any], str | None]) -> Printer:
    """One line per entry of a mapping, e.g. ``param {k} = {v}``."""
    def printer(value, pad, mapping):
        pairs = _keyed(value, text_of)
        return None if pairs is None else [pad + template.format(k=k, v=v) for k, v in pairs]
    return printer


def _definitions(value, pad, mapping) -> Lines | None:
    """``define NAME = EXPR`` and ``define NAME(A, B) = EXPR``: a key with parameters written as its head."""
    from rulelang.read.expr import definition_head
    if not isinstance(value, dict) or not value:
        return None
    lines = []
    for key, text in value.items():
        head, body = definition_head(key), expr_text(text)
        if head is None or body is None or any(key_text(word) != word for word in (head[0], *head[1])):
            return None
        shown = f"{head[0]}({', '.join(head[1])})" if head[1] else key_text(key)
        lines.append(f"{pad}define {shown} = {body}")
    return lines


def _points(value, pad, mapping) -> Lines | None:
    pairs = _keyed(value, scalar_text)
    return None if pairs is None else [f"{pad}points " + ", ".join(f"{k} = {v}" for k, v in pairs)]


def _tags(value, pad, mapping) -> Lines | None:
    pairs = _keyed(value, lambda v: ", ".join(scalars(v)) if scalars(v) else None)
    return None if pairs is None else [f"{pad}tag {k} = {v}" for k, v in pairs]


def _params(value, pad, mapping) -> Lines | None:
    if not isinstance(value, dict) or not value or any(key_text(k) is None for k in value):
        return None
    lines: Lines = []
    for key, item in value.items():
        text = scalar_text(item)
        prefix = f"param {key_text(key)} = "
        lines.extend([f"{pad}{prefix}{text}"] if text is not None else value_lines(prefix, item, pad))
    return lines


def _suit(suit: Any) -> str | None:
    if not isinstance(suit, dict) or not {"name", "letter"} <= set(suit) \
            or not set(suit) <= {"name", "symbol", "letter", "ranks", "naming"}:
        return None
    parts = [scalar_text(suit["name"])]
    if "symbol" in suit:
        parts.append(scalar_text(suit["symbol"]))
    parts += ["letter", scalar_text(suit["letter"])]
    if "naming" in suit:
        parts += ["naming", scalar_text(suit["naming"])]
    if "ranks" in suit:
        ranks = scalars(suit["ranks"])
        parts += ["with ranks", ", ".join(ranks) if ranks else None]
    return None if None in parts else "suit " + " ".join(parts)


def _suits(value, pad, mapping) -> Lines | None:
    if not isinstance(value, list) or not value:
        return None
    lines = [_suit(suit) for suit in value]
    return None if None in lines else [pad + line for line in lines]


ABOUT = {key: scalar_statement(key) for key in ("source", "summary", "deviations")}
SEATING = {key: scalar_statement(key) for key in ("first_dealer", "next_dealer", "forehand")}
MATCH = {"start": expr_statement("start"), "end": expr_statement("end when"),
         "winner": scalar_statement("winner"), "tie": scalar_statement("tie")}
DECK = {"pack": scalar_statement("pack"), "suits": _suits, "ranks": list_statement("ranks", scalars),
        "points": _points, "aliases": grouped_statement("alias {k} = {v}", scalar_text), "tags": _tags,
        "remove": list_statement("remove", scalars)}


# ---------------------------------------------------------------- phases
WHEN_PART = ("when", "when", expr_text)
"""The ``when COND`` part of a phase's head."""


def head_parts(mapping: dict, parts: list[tuple[str, str, Callable]]) -> tuple[str, set]:
    """The optional ``keyword VALUE`` parts of a statement head that fit, and the keys they print."""
    text, used = "", set()
    for key, keyword, text_of in parts:
        value = text_of(mapping[key]) if key in mapping else None
        if value is not None:
            text, used = f"{text} {keyword} {value}", used | {key}
    return text, used


def plain_head(kind: str, allowed: set, parts) -> Callable:
    """A printer of a phase written as its head alone (``kind`` and the ``parts`` it may have)."""
    def printer(value, pad) -> Lines | None:
        if not isinstance(value, dict) or not set(value) <= allowed:
            return None
        text, used = head_parts(value, parts)
        return [f"{pad}{kind}{text}"] if used == set(value) else None
    return printer


def _phases(value, pad, mapping) -> Lines | None:
    if not isinstance(value, list) or not all(isinstance(p, dict) and len(p) == 1 for p in value):
        return None
    lines: Lines = []
    for phase in value:
        (kind, spec), = phase.items()
        found = construct(kind) if isinstance(kind, str) else None
        got = found.fmt(spec, pad + INDENT) if found is not None else None
        lines.extend(got if got is not None else entry(kind, spec, pad + INDENT))
    return block(pad, "phases", lines)


# ---------------------------------------------------------------- the top level
def _game(value, pad, mapping) -> Lines | None:
    text = scalar_text(value)
    if text is None:
        return None
    title = mapping.get("title")
    return [f"game {text}" + (f" {quote(title)}" if isinstance(title, str) else "")]


def _title(value, pad, mapping) -> Lines | None:
    if not isinstance(value, str):
        return None
    return [] if "game" in mapping and scalar_text(mapping["game"]) is not None else [quote(value)]


def _deck(value, pad, mapping) -> Lines | None:
    if not isinstance(value, dict):
        return None
    if list(value) == ["pack"] and scalar_text(value["pack"]) is not None:
        return [f"deck {scalar_text(value['pack'])}"]
    return block(pad, "deck", body(value, DECK, pad + INDENT))


def _readable_block(keyword: str, table: dict) -> Printer:
    def printer(value, pad, mapping):
        return block(pad, keyword, body(value, table, pad + INDENT)) if isinstance(value, dict) else None
    return printer


TOP = {
    "game": _game, "title": _title, "params": _params, "define": _definitions,
    "players": scalar_statement("players"), "direction": scalar_statement("direction"),
    "about": _readable_block("about", ABOUT), "deck": _deck, "seating": _readable_block("seating", SEATING),
    "phases": _phases, "match": _readable_block("match", MATCH),
}


def _top_statement(key: Any, value: Any, data: dict) -> Lines:
    printer = TOP.get(key) if isinstance(key, str) else None
    got = printer(value, "", data) if printer else None
    return got if got is not None else entry(key, value, "")
