"""Warnings (W6xx) about definitions nothing uses, names that hide each other, and conditions
whose value never changes.

Names read are found by parsing every expression of the document
(:func:`rulelang.validators.exprs.names_read`). W602 a param never read, W603 a tag never
used, W604 a deal variable never read, W605 an item no contract counts, W606 a phase whose
``when`` never holds, W607 a ``forbid`` that never holds, W609 a name hidden by another of
the same name, W610 a ``when`` that always holds (a ``when`` on params alone is a switch
and neither), W613 a deal variable read before any phase
sets it, W614 a match that always ends after its first deal.
"""

from __future__ import annotations

import difflib
from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic, RuleError
from rulelang.read.expr import parse_expr
from rulelang.read.document import Document
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import check
from rulelang.validators.exprs import expr_names, names_read
from rulelang.validators.probe import is_constant
from rulelang.validators.semantic_deck import phase_bodies

BUILT_IN = ("dealer", "forehand", "active", "seats", "players", "score", "deal_number", "declarer", "declarers",
            "defenders", "contract", "called", "tricks_played", "played", "player", "led_suit", "led_card", "trick", "any",
              "side")


def _warning(code: str, message: str, span, hint: str, notes=None) -> Diagnostic:
    return Diagnostic(code, message, span, hint, severity=WARNING, notes=notes or [])


def _mapping(doc: Document, *path) -> dict:
    value = doc.get(path)
    return value if isinstance(value, dict) else {}


@check("params_are_read", needs_definition=False)
def params_are_read(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A param no expression reads changes nothing (W602); in a variant, one its base lacks is a mistake (N230)."""
    read = names_read(doc)
    base_params = _base_params(doc)
    for name in _mapping(doc, "params"):
        if name in read:
            continue
        if base_params is not None and name not in base_params:
            yield _unknown_param(doc, name, base_params)
        else:
            yield _warning("W602", f"the param '{name}' is never read", doc.span_of(("params", name)),
                           "use it in an expression, or remove it")


def _base_params(doc: Document) -> dict | None:
    """The params of a variant's resolved base, or None if ``doc`` is no variant read from a file."""
    from rulelang.validators.variants import variant_and_base
    pair = variant_and_base(doc)
    if pair is None:
        return None
    params = pair[1].data.get("params")
    return params if isinstance(params, dict) else {}


def _unknown_param(doc: Document, name: str, base_params: dict) -> Diagnostic:
    """N230: a variant sets a param that its base does not have and nothing reads."""
    close = difflib.get_close_matches(str(name), [str(p) for p in base_params], n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else \
        ("the base's params are " + ", ".join(map(str, base_params)) if base_params else "the base has no params")
    return Diagnostic("N230", f"the base game has no param '{name}', and nothing here reads it, so setting it "
                      "changes nothing", doc.span_of(("params", name)), hint)


@check("tags_are_used", needs_definition=False)
def tags_are_used(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A tag no expression names is only decoration (W603)."""
    read = names_read(doc)
    for name in _mapping(doc, "deck", "tags"):
        if name not in read:
            yield _warning("W603", f"the tag '{name}' is never used", doc.span_of(("deck", "tags", name)),
                           "use it in an expression (e.g. `count(hand(player) & tag)`), or remove it")


def deal_variables(doc: Document) -> Iterator[tuple[str, int, str]]:
    """``(variable, phase index, kind)`` of every ``choose`` and ``set``."""
    for i, kind, body in phase_bodies(doc):
        if kind in ("choose", "set") and body.get("var") is not None:
            yield str(body["var"]), i, kind


@check("deal_variables_are_read", needs_definition=False)
def deal_variables_are_read(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A chosen value nothing reads makes players decide for nothing (W604)."""
    read = names_read(doc)
    reported = set()
    for var, i, kind in deal_variables(doc):
        if var not in read and var not in reported:
            reported.add(var)
            yield _warning("W604", f"the deal variable '{var}' is never read", doc.span_of(("phases", i, kind, "var")),
                           "read it in a condition or a score, or remove the phase")


@check("variables_set_before_read", needs_definition=False)
def variables_set_before_read(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A phase that reads a deal variable no earlier phase sets always sees it unset (W613)."""
    first_set: dict[str, int] = {}
    for var, i, _ in deal_variables(doc):
        first_set.setdefault(var, i)
    reported = set()
    for name, paths in names_read(doc).items():
        for path in paths:
            if name in first_set and path[0] == "phases" and path[1] < first_set[name] and name not in reported:
                reported.add(name)
                yield _warning("W613", f"'{name}' is read here, before any phase chooses it, so it is still unset",
                               doc.span_of(path), "move the phase that chooses it earlier",
                               [(f"'{name}' is first chosen here", doc.span_of(("phases", first_set[name])))])


@check("items_are_counted", needs_definition=False)
def items_are_counted(doc: Document, game=None) -> Iterator[Diagnostic]:
    """When every contract lists its items, an item none lists never scores (W605)."""
    contracts = _mapping(doc, "contracts")
    lists = [row.get("items") for row in contracts.values() if isinstance(row, dict)]
    if not contracts or any(not isinstance(items, list) for items in lists):
        return
    counted = {str(item) for items in lists for item in items}
    for name in _mapping(doc, "items"):
        if name not in counted:
            yield _warning("W605", f"the item '{name}' is counted by no contract, so it never scores",
                           doc.span_of(("items", name)), "add it to a contract's `items`, or remove it")


def _a_switch(text: str, game: GameDef) -> bool:
    """A condition on params alone (``when: pass_by_chance``): a switch that variants turn, not a slip."""
    try:
        names = expr_names(parse_expr(text))
    except RuleError:
        return False
    return bool(names) and names <= set(game.params)


def _forbids(phase) -> list:
    """(what it forbids, rule) of a phase's ``forbid``: one rule per option, or one rule for every value (bids, pick)."""
    forbid = getattr(phase, "forbid", None)
    if isinstance(forbid, dict):
        return [(f"'{option}'", rule) for option, rule in forbid.items()]
    return [] if forbid is None else [("the values", forbid)]


@check("constant_conditions")
def constant_conditions(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """``when`` and ``forbid`` conditions that never change (W606, W607, W610) and a match of one deal (W614)."""
    for i, phase in enumerate(game.phases):
        if phase.when is not None and _a_switch(phase.when.text, game):
            pass
        elif is_constant(phase.when, False):
            yield _warning("W606", f"phase {i + 1} ({phase.kind}) never runs: its `when` condition never holds",
                           phase.when.span, "remove the phase, or fix the condition")
        elif is_constant(phase.when, True):
            yield _warning("W610", f"the `when` of phase {i + 1} ({phase.kind}) always holds", phase.when.span,
                           "remove the `when`")
        for option, rule in _forbids(phase):
            if is_constant(rule, False):
                yield _warning("W607", f"the `forbid` condition of {option} never holds, so it forbids nothing",
                               rule.span, "remove it, or fix the condition")
    if is_constant(game.match.end, True):
        yield _warning("W614", "the match always ends after its first deal: its `end` condition always holds",
                       game.match.end.span or doc.span_of(("match",)), "write a condition on the scores or deals")


@check("names_do_not_hide_each_other")
def names_do_not_hide_each_other(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Two definitions with one name: expressions see only one of them (W609).

    Options, contracts and items are left out: they only stand for their own name, and
    an expression that reads one where another kind of value wins fails to type-check.
    """
    seen: dict[str, tuple[str, tuple]] = {}
    for kind, name, path, overrides in _definitions(doc, game):
        if name not in seen or seen[name][0] == kind:
            seen.setdefault(name, (kind, path))
            continue
        (old_kind, old_path) = seen[name]
        hidden, hider = ((old_kind, old_path), (kind, path)) if overrides else ((kind, path), (old_kind, old_path))
        if overrides:
            seen[name] = (kind, path)
        yield _warning("W609", f"the {hidden[0]} '{name}' is hidden by the {hider[0]} '{name}': expressions that "
                       f"say '{name}' mean the {hider[0]}", doc.span_of(hidden[1]), "rename one of them",
                       [(f"the {hider[0]} '{name}'" + (" is defined here" if hider[1] else " is built in"),
                         doc.span_of(hider[1]) if hider[1] else None)])


def _definitions(doc: Document, game: GameDef) -> Iterator[tuple[str, str, tuple, bool]]:
    """``(kind, name, path, overrides)`` in the order the compiler binds names."""
    for name in _mapping(doc, "params"):
        yield "param", name, ("params", name), True
    for i, suit in enumerate(game.deck.suits):
        yield "suit", suit.name, _suit_path(doc, i), True
    for alias in game.deck.suit_aliases:
        yield "suit alias", alias, ("deck", "suits"), False
    for name in _mapping(doc, "deck", "tags"):
        yield "tag", name, ("deck", "tags", name), True
    for var, i, kind in deal_variables(doc):
        yield "deal variable", var, ("phases", i, kind, "var"), True
    for name in _mapping(doc, "match", "counters"):
        yield "match counter", name, ("match", "counters", name), True
    for name in BUILT_IN:
        yield "built-in name", name, (), True


def _suit_path(doc: Document, index: int) -> tuple:
    suits = doc.get(("deck", "suits"))
    return ("deck", "suits", index) if isinstance(suits, list) and index < len(suits) else ("deck",)


@check("names_the_language_took_later")
def names_the_language_took_later(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """W621: a param or definition named like a name the language took since (``ranks``, ``beats``): the file
    keeps its own meaning, and ``rulelang fmt --upgrade`` renames it."""
    from rulelang.read.upgrade import LATER, taken_names
    for path, name in taken_names(doc.data):
        yield _warning("W621", f"'{name}' is now also the language's own name ({LATER[name]}); here it keeps this "
                       "file's meaning", doc.span_of(path),
                       f"`rulelang fmt --upgrade FILE` renames it to {name}_ wherever the file reads it")


@check("definitions_are_read", needs_definition=False)
def definitions_are_read(doc: Document, game=None) -> Iterator[Diagnostic]:
    """W622: a definition nothing else reads is never compiled, so a mistake in it would go unseen."""
    from rulelang.read.expr import definition_head
    from rulelang.validators.exprs import parsed_sites
    read: set[str] = set()
    for path, _, expr in parsed_sites(doc):
        own = definition_head(path[1]) if len(path) == 2 and path[0] == "define" else None
        read |= {str(n.value) for n in expr.walk() if n.op in ("name", "call") and (own is None or n.value != own[0])}
    for key in _mapping(doc, "define"):
        head = definition_head(key)
        if head is not None and head[0] not in read:
            yield _warning("W622", f"the definition '{head[0]}' is never read, so it is not checked either",
                           doc.span_of(("define", key)), "read it in a rule, or remove it")
