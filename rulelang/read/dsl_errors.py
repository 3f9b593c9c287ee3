"""Syntax errors of the DSL: Lark's parse errors turned into located S1xx diagnostics.

As in Lark's own grammar loader, errors are labelled by example: :data:`EXAMPLES` lists
small bad inputs per mistake, and :meth:`lark.exceptions.UnexpectedInput.match_examples`
finds the one that failed in the same parser state. States it does not know are labelled
from what the parser expected. No Lark class or terminal name reaches the message.

Codes: S104 a word written twice in a row, S110 missing closing bracket, S111 unexpected closing brace, S112 missing value,
S113 unknown statement here, S114 unterminated string, S115 stray character, S117 ``=``
missing, S119 any other unexpected token.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

from lark import Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from rulelang.diagnostics import Diagnostic
from rulelang.read.expr import line_and_column, repeated_word
from rulelang.read.grammar import parser
from rulelang.read.source import Span

# The statements each block knows; any other key is written `key = value` or `key { … }`.
BLOCK_STATEMENTS = {
    "file": ["game", "about", "param", "players", "direction", "deck", "seating", "phases", "match"],
    "about": ["source", "summary", "deviations"],
    "deck": ["pack", "suit", "ranks", "points", "alias", "tag", "remove"],
    "seating": ["first_dealer", "next_dealer", "forehand"],
    "phases": [],                       # the constructs' statements: _phase_statements()
    "decide": ["forbid"],
    "tricks": ["lead", "follow", "win", "alone"],
    "score": ["let", "each", "add"],
    "match": ["start", "end", "winner", "tie"],
}

_OPENERS = ["about {", "deck {", "seating {", "phases {", "match {", "phases { tricks {",
            "phases { score {", "phases { decide a {", "x {", "x = {", "x = [{"]

# Small bad inputs, one list per mistake; general labels first, so that an exact token
# match of a later label wins over a mere state match of an earlier one.
EXAMPLES = {
    "S113": ["x 1", "x }", "= 1", "x = 1 = 2", *[f"{o} = }}" for o in _OPENERS]],
    "S110": [*_OPENERS, *[f"{o} x = 1" for o in _OPENERS], "x = [", "x = [1"],
    "S111": ["}", "x = 1 }", "game g }"],
    "S112": ["players", "players }", "game }", "x =", "x = }", "param x =", "seating { first_dealer }",
             "phases { deal each }", "phases { tricks { lead } }", "match { end when }", "match { start }"],
    "S117": ["param x 1", "param x }", "phases { score { let x 1 } }", "phases { score { let x } }",
             "deck { alias x y }", "deck { tag x y }", "deck { points a 1 }"],
}

_BRACKET_PAIRS = {"LBRACE": "}", "LSQB": "]", "LPAR": ")"}
_HEAD_TOKENS = {"FROM", "LEAVE", "AMONG", "BY", "MAX", "EACH", "VBAR"}
_FRIENDLY = {"WORD": "a name or number", "STRING": "a quoted string", "NAME": "a name", "INT": "a number",
             "CARD": "a card in quotes", "COMP_OP": "a comparison", "ADD_OP": "`+`, `-` or `|`",
             "MUL_OP": "`*`, `/`, `%` or `&`", "$END": "the end of the file"}
_VALUE_STARTS = {"WORD", "STRING", "MINUS", "LSQB", "NAME", "INT", "CARD", "LPAR", "IF", "NOT", "TRUE",
                 "FALSE", "NONE"}


class _TopState(int):
    """A parser state compared by its position only, so examples match at any nesting depth.

    It is an int (the position) because Lark formats states with ``%d`` in debug messages.
    """

    def __eq__(self, other) -> bool:
        position = other if isinstance(other, int) else getattr(other, "position", None)
        return position == int(self)

    __hash__ = int.__hash__


def syntax_diagnostic(exc: LarkError, text: str, path: str) -> Diagnostic:
    """The diagnostic for a Lark parse error in the rule file ``path``."""
    if isinstance(exc, UnexpectedCharacters):
        return _characters(exc, text, path)
    if not isinstance(exc, UnexpectedToken) or getattr(exc.state, "value_stack", None) is None:
        return Diagnostic("S119", "the file could not be parsed", Span(path, 1, 1), "check the syntax")
    twice = repeated_word(text, exc.token.start_pos, _keywords(), _statement_start(exc, text))
    if twice is not None:
        at, word = twice
        line, column = line_and_column(text, at)
        return Diagnostic("S104", f"`{word}` is written twice", Span(path, line, column, line, column + len(word)),
                          "remove one of them")
    label = label_of(exc)
    return _BUILDERS[label](exc, path)


def _statement_start(exc: UnexpectedToken, text: str) -> int:
    """The offset where the line of the last token the parser took begins (the statement it was reading)."""
    previous = _previous_token(exc.state.value_stack)
    at = previous.start_pos if previous is not None and previous.start_pos is not None else exc.token.start_pos
    return text.rfind("\n", 0, at or 0) + 1


@lru_cache(maxsize=1)
def _keywords() -> frozenset[str]:
    """The words of the grammar: statement names and the expression language's keywords."""
    words = (t.pattern.value for t in parser().terminals if isinstance(t.pattern, PatternStr))
    return frozenset(w for w in words if w.isidentifier() and w != "not")


def label_of(exc: UnexpectedToken) -> str:
    """The S-code of a parse error: by example first, else from what the parser expected."""
    state = exc.state
    exc.state = _TopState(state.position)
    try:
        label = exc.match_examples(_raise_example, EXAMPLES, token_type_match_fallback=True)
    finally:
        exc.state = state
    return label or _guess(exc)


def _raise_example(text: str):
    raise _example_error(text)


@lru_cache(maxsize=None)
def _example_error(text: str) -> UnexpectedInput:
    try:
        parser().parse(text, start="start")
    except UnexpectedInput as exc:
        return exc
    raise AssertionError(f"syntax error example parses: {text!r}")


def _guess(exc: UnexpectedToken) -> str:
    stack, kind = exc.state.value_stack, exc.token.type
    expected = _accepted(exc)
    if expected == {"EQUAL"}:
        return "S117"
    if expected == {"EQUAL", "LBRACE"}:
        return "S113"
    if expected and expected <= _VALUE_STARTS | {"LBRACE"} and expected & _VALUE_STARTS:
        return "S112"
    if kind == "$END" and _open_bracket(stack) is not None:
        return "S110"
    if kind == "RBRACE" and _open_bracket(stack) is None:
        return "S111"
    if {"WORD", "STRING"} <= expected:
        return "S113"
    return "S119"


def _accepted(exc: UnexpectedToken) -> set[str]:
    """The terminals that would have let the parser go on (more precise than ``expected``)."""
    return set(exc.accepts or exc.expected)


# ---------------------------------------------------------------- messages
def _at(exc: UnexpectedToken, path: str) -> Span:
    token = exc.token
    if token.type == "$END" or not getattr(token, "line", None):
        line, column = _end_position(exc)
        return Span(path, line, column)
    return Span(path, token.line, token.column, token.end_line, token.end_column)


def _end_position(exc: UnexpectedToken) -> tuple[int, int]:
    last = _previous_token(exc.state.value_stack)
    if last is None or last.end_line is None:
        return 1, 1
    return last.end_line, last.end_column


def _token_span(token: Token, path: str) -> Span:
    return Span(path, token.line, token.column, token.end_line, token.end_column)


def _missing_bracket(exc: UnexpectedToken, path: str) -> Diagnostic:
    stack = exc.state.value_stack
    index = _open_bracket(stack)
    if index is None:
        return _unexpected(exc, path)
    opener = stack[index]
    closer = _BRACKET_PAIRS[opener.type]
    name = _block_name(stack, index)
    what = f"the block `{name}`" if opener.type == "LBRACE" else f"this `{opener}`"
    return Diagnostic("S110", f"missing `{closer}`: {what} is never closed", _token_span(opener, path),
                      f"add `{closer}` after its last entry; every `{opener}` needs a matching `{closer}`")


def _unexpected_brace(exc: UnexpectedToken, path: str) -> Diagnostic:
    if _open_bracket(exc.state.value_stack) is not None and exc.token.type == "RBRACE":
        return _unexpected(exc, path)
    return Diagnostic("S111", "unexpected `}`: there is no open block to close here", _at(exc, path),
                      "remove it, or look above for a block that is closed twice")


def _missing_value(exc: UnexpectedToken, path: str) -> Diagnostic:
    previous = _previous_token(exc.state.value_stack)
    after = f" after `{previous}`" if previous is not None else ""
    expression = bool(_accepted(exc) & {"NAME", "INT"})
    hint = ("write an expression here, e.g. `forehand` or `tricks(player) > 0`" if expression
            else 'write a value here: a name, a number, or text in quotes ("…")')
    return Diagnostic("S112", f"missing value{after}", _at(exc, path), hint)


def _phase_statements() -> list[str]:
    """The phase kinds that have a statement of their own in the grammar (the others are written generically)."""
    from rulelang.constructs import constructs
    return [kind for kind, c in constructs().items() if any(r == kind or r.startswith(kind + "_") for r in c.dsl or {})]


def _unknown_statement(exc: UnexpectedToken, path: str) -> Diagnostic:
    stack = exc.state.value_stack
    index = _open_bracket(stack)
    block = "file" if index is None else _block_name(stack, index)
    known = _phase_statements() if block == "phases" else BLOCK_STATEMENTS.get(block, [])
    where = "at the top of the file" if block == "file" else f"in `{block}`"
    listed = f"the statements {where} are {', '.join(known)}; any other key is written " if known \
        else "entries of a plain mapping are written "
    previous = _previous_token(stack)
    if _accepted(exc) == {"EQUAL", "LBRACE"} and previous is not None:
        close = difflib.get_close_matches(str(previous), known, n=1, cutoff=0.6)
        guess = f"did you mean `{close[0]}`? " if close else ""
        return Diagnostic("S113", f"unknown statement `{previous}` {where}", _token_span(previous, path),
                          f"{guess}{listed}`{previous} = VALUE` or `{previous} {{ … }}`")
    return Diagnostic("S113", f"unexpected {_describe(exc.token)}: a statement is expected {where}",
                      _at(exc, path), f"{listed}`key = VALUE` or `key {{ … }}`")


def _missing_equals(exc: UnexpectedToken, path: str) -> Diagnostic:
    stack = exc.state.value_stack
    key = _previous_token(stack)
    keyword = _statement_keyword(stack)
    shown = f"`{key}`" if key is not None else "the name"
    example = f"{keyword} {key} = VALUE".strip() if key is not None else "NAME = VALUE"
    return Diagnostic("S117", f"`=` is missing after {shown}", _at(exc, path), f"write `{example}`")


def _unexpected(exc: UnexpectedToken, path: str) -> Diagnostic:
    expected = sorted(_describe_terminal(name) for name in _accepted(exc))
    shown = ", ".join(expected[:12]) + (", …" if len(expected) > 12 else "")
    return Diagnostic("S119", f"unexpected {_describe(exc.token)}", _at(exc, path), f"expected {shown}")


def _characters(exc: UnexpectedCharacters, text: str, path: str) -> Diagnostic:
    char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
    span = Span(path, exc.line, exc.column, exc.line, exc.column + 1)
    if char == '"':
        return Diagnostic("S114", "unterminated string: the closing `\"` is missing on this line", span,
                          'a string ends on the line where it starts; write a quote inside it as \\"')
    if char == "'":
        return Diagnostic("S115", "stray `'`: cards in quotes belong in expressions", span,
                          'elsewhere write the card bare (A♣) or in double quotes ("A♣")')
    return Diagnostic("S115", f"stray character {char!r}", span,
                      'names, numbers and cards are written bare or in double quotes; `#` starts a comment')


_BUILDERS = {"S110": _missing_bracket, "S111": _unexpected_brace, "S112": _missing_value,
             "S113": _unknown_statement, "S117": _missing_equals, "S119": _unexpected}


# ---------------------------------------------------------------- the parser's stack
def _open_bracket(stack: list) -> int | None:
    """The index in the value stack of the innermost bracket not yet closed."""
    for index in range(len(stack) - 1, -1, -1):
        item = stack[index]
        if isinstance(item, Token) and item.type in _BRACKET_PAIRS:
            return index
    return None


def _block_name(stack: list, index: int) -> str:
    """The statement that opened the block whose ``{`` is at ``index`` (a key for generic blocks)."""
    before = stack[index - 1] if index > 0 else None
    for item in reversed(stack[:index]):
        if isinstance(item, Token) and item.type not in _HEAD_TOKENS:
            if item.type.lower() in BLOCK_STATEMENTS:
                return item.type.lower()
            break
    if isinstance(before, Token) and before.type == "EQUAL" and index > 1:
        before = stack[index - 2]
    key = _previous_token([before]) if isinstance(before, Tree) else None
    return str(key) if key is not None else "{"


def _statement_keyword(stack: list) -> str:
    """The keyword that starts the statement being parsed (``param``, ``let`` …), or ''."""
    for item in reversed(stack):
        if isinstance(item, Token) and item.type in {"PARAM", "LET", "ALIAS", "TAG", "POINTS"}:
            return str(item)
        if isinstance(item, Token) and item.type in {"LBRACE", "COMMA"}:
            break
    return ""


def _previous_token(stack: list) -> Token | None:
    """The last token the parser took, found at the right edge of the value stack."""
    items = list(stack)
    while items:
        item = items.pop()
        if isinstance(item, Token):
            return item
        if isinstance(item, Tree):
            items.extend(item.children)
    return None


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    return f"`{token}`"


def _describe_terminal(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    try:
        pattern = parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return f"`{pattern.value}`" if isinstance(pattern, PatternStr) else name.lower()
