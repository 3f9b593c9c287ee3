"""Calls during trick play (the ``calls`` of a ``tricks`` phase): words a seat may say on its turn.

YAML ``calls: {re: {side: declarers, allow: "count(hand(player)) >= 11"}, kontra: {side:
defenders, allow: "count(hand(player)) >= 11"}}``. On its turn, before it plays a card, a seat
may say each word of its own side once a deal, while ``allow`` holds (``player`` bound to the
seat): a party's word "until its second card", or "no 90" once that word is said
(``allow: "announced(re) and count(hand(player)) >= 10"``). A call is public; it tells every
seat the caller's party, and rules read it as ``announced(WORD)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import symbol
from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.exprcompile import BOOL
from rulelang.compile.ir import Rule
from rulelang.validators.registry import check

SIDES = ("declarers", "defenders")

SCHEMA = {'description': 'Words a seat of the given side may say on its turn before it plays, each once a deal '
                         'while allow holds (announcements during play).',
          'type': 'object',
          'propertyNames': {'$ref': '#/$defs/name'},
          'additionalProperties': {'title': 'a mapping like {side: declarers, allow: ...}',
                                   'description': 'One call: whose side says it and when it may be said.',
                                   'type': 'object',
                                   'additionalProperties': False,
                                   'required': ['side'],
                                   'properties': {'side': {'description': 'Who may say it: a seat of the '
                                                                          'declarers or of the defenders.',
                                                           'enum': list(SIDES)},
                                                  'allow': {'description': 'When it may be said (player bound '
                                                                           'to the seat); default always.',
                                                            '$ref': '#/$defs/boolExpr'}}}}


@dataclass
class TrickCall:
    """One word of ``calls``: said by a seat of the declarers (``for_declarers``) or the defenders, while
    ``allow`` holds."""

    word: str
    for_declarers: bool
    allow: Rule | None
    span: object = None


def call_words(body: dict) -> list[str]:
    """The words of a tricks body's ``calls`` (decision symbols of the game)."""
    calls = body.get("calls")
    return [str(word) for word in calls] if isinstance(calls, dict) else []


def compile_calls(c, path: tuple, body: dict, scope) -> tuple[TrickCall, ...]:
    """The compiled ``calls`` of a tricks body."""
    calls = []
    for word in call_words(body):
        spec = body["calls"][word] if isinstance(body["calls"][word], dict) else {}
        allow = c.optional_rule(path + ("calls", word, "allow"), BOOL, scope)
        calls.append(TrickCall(word, spec.get("side") != "defenders", allow, c.doc.span_of(path + ("calls", word))))
    return tuple(calls)


def open_calls(st, calls: tuple) -> list[int]:
    """The call actions the seat to play may make now, ascending."""
    seat, said = st.current, st.tricks.calls
    declarer = bool(st.side_mask >> seat & 1)
    ids = st.game.symbol_ids
    return sorted(ids[call.word] for call in calls if call.word not in said and call.for_declarers == declarer
                  and (call.allow is None or call.allow.fn(st, seat)))


def say(st, action: int) -> bool:
    """Record the call ``action`` by the seat to play; its turn goes on (it still has to play a card)."""
    st.tricks.calls = {**st.tricks.calls, symbol(st, action): st.current}
    return False


def called_sides(st) -> dict[int, bool]:
    """Per seat that has made a call this deal: True when the call was the declarers'."""
    sides = {call.word: call.for_declarers for call in st.tricks.rules.calls} if st.tricks.rules else {}
    return {seat: sides[word] for word, seat in st.tricks.calls.items() if word in sides}


def explain_call(st, phase, action: int) -> Diagnostic:
    """Why a call may not be made now (E513)."""
    word, who = symbol(st, action), st.game.seat_name(st.current)
    call = next((c for c in st.tricks.rules.calls if c.word == word), None)
    if call is None:
        return Diagnostic("E513", f"'{word}' is not a call of this trick play", phase.span,
                          "play a card, or one of the calls the rules give")
    if word in st.tricks.calls:
        reason = f"'{word}' has been said already this deal, by {st.game.seat_name(st.tricks.calls[word])}"
        span = call.span
    elif call.for_declarers != bool(st.side_mask >> st.current & 1):
        side = "declarers" if call.for_declarers else "defenders"
        reason, span = f"{who} may not say '{word}': only the {side} say it, and {who} is not one of them", call.span
    else:
        reason, span = f"{who} may not say '{word}' now: {call.allow.text}", call.allow.span
    return Diagnostic("E513", reason, span, "play a card")


@check("calls_have_a_speaker")
def calls_have_a_speaker(doc, game):
    """A call for the declarers in a game where no phase says who they are is never offered to anyone (W620)."""
    from rulelang.constructs import construct
    if any(construct(phase.kind).forms_sides for phase in game.phases if getattr(phase, "kind", None)):
        return
    for phase in game.phases:
        if getattr(phase, "kind", None) != "tricks":
            continue
        for rules in (phase.rules, *phase.by_contract.values()):
            for call in rules.calls:
                if call.for_declarers:
                    yield Diagnostic("W620", f"nobody can ever say '{call.word}': it is for the declarers, and no "
                                     "phase of this game says who the declarers are", call.span,
                                     "give the call `side: defenders` (every seat is a defender here), or add a "
                                     "phase that forms the sides (auction, call, pick, parties)", severity=WARNING)
