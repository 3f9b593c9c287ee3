"""Calls during trick play (the ``calls`` of a ``tricks`` phase): words a seat may say on its turn.

YAML ``calls: {re: {side: declarers, allow: "count(hand(player)) >= 11"}, kontra: {side:
defenders, allow: "count(hand(player)) >= 11"}}``. On its turn, before it plays a card, a seat
may say each word of its own side once a deal, while ``allow`` holds (``player`` bound to the
seat): a party's word "until its second card", or "no 90" once that word is said
(``allow: "announced(re) and count(hand(player)) >= 10"``). A call is public; it tells every
seat the caller's party, and rules read it as ``announced(WORD)``.

A call may also be said by any seat (``side: any``; it tells nothing of a party), again in a later trick
(``once: trick``: at most once a trick), and carry a value (``value: suits``, ``seats``, ``cards`` or ``[LOW, HIGH]``:
the call's actions are ``WORD VALUE``, e.g. ``marriage hearts``; ``allow`` reads the value offered as
``value``, and the value said is stored in the deal variable ``var``). Rules read who said it last
(``said_by(WORD)``), in which trick (``said_in(WORD)``, from 1; 0 if never) and how often a set of seats said
it (``times_said(WORD, SEATS)``). Three effects: ``ends: true`` ends trick play at once (a claim: the cards still
held are not played), ``shows_aside: true`` shows the cards a ``lay_aside`` laid face down (a hidden
trump card, asked for by a player who cannot follow), and ``swap_turned: CARD`` gives the caller the card
turned up for trumps in exchange for that card of his hand, which lies face up in its place (robbing the
turned trump with the lowest trump).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from rulelang.constructs.base import symbol
from rulelang.constructs.lay_aside import show_aside
from rulelang.constructs.trick_draw import every_call, show_held
from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.codegen import part_attr
from rulelang.compile.exprcompile import BOOL, CARD, INT, SEAT, SUIT, Binding
from rulelang.compile.ir import Rule
from rulelang.validators.registry import check

SIDES = ("declarers", "defenders", "any")
ONCE = ("deal", "trick")

SCHEMA = {'description': 'Words a seat may say on its turn before it plays (announcements, claims, signals during '
                         'play).',
          'type': 'object',
          'propertyNames': {'$ref': '#/$defs/name'},
          'additionalProperties': {'title': 'a mapping like {side: declarers, allow: ...}',
                                   'description': 'One call: who says it, when, how often, with what value and '
                                                  'what it does.',
                                   'type': 'object',
                                   'additionalProperties': False,
                                   'required': ['side'],
                                   'properties': {'side': {'description': 'Who may say it: a seat of the '
                                                                          'declarers, of the defenders, or any '
                                                                          'seat.',
                                                           'enum': list(SIDES)},
                                                  'allow': {'description': 'When it may be said (player bound '
                                                                           'to the seat, value to the value '
                                                                           'offered); default always.',
                                                            '$ref': '#/$defs/boolExpr'},
                                                  'once': {'description': 'deal (default): once a deal; trick: '
                                                                          'at most once a trick.',
                                                           'enum': list(ONCE)},
                                                  'value': {'description': 'What the call names: suits, seats, '
                                                                           'cards, or numbers [LOW, HIGH].',
                                                            'anyOf': [{'enum': ['suits', 'seats', 'cards']},
                                                                      {'type': 'array', 'minItems': 2,
                                                                       'maxItems': 2,
                                                                       'items': {'type': 'integer'}}]},
                                                  'var': {'description': 'The deal variable that holds the value '
                                                                         'last said.',
                                                          '$ref': '#/$defs/name'},
                                                  'ends': {'description': 'true: trick play ends at once when '
                                                                          'it is said (a claim).',
                                                           'type': 'boolean'},
                                                  'shows_aside': {'description': 'true: the cards laid aside '
                                                                                 'face down (lay_aside) are shown '
                                                                                 'and go back to their seat\'s '
                                                                                 'hand.',
                                                                  'type': 'boolean'},
                                                  'swap_turned': {'description': 'A card of the caller\'s hand he '
                                                                                 'exchanges for the card turned '
                                                                                 'up for trumps.',
                                                                  '$ref': '#/$defs/expr'}},
                                   'dependentRequired': {'value': ['var'], 'var': ['value']}}}

MAX_CALL_VALUES = 64
"""The most values a call may offer (``value: [LOW, HIGH]``): each is an action of the game."""


@dataclass
class TrickCall:
    """One word of ``calls``: said by a seat of the declarers (``for_declarers``), the defenders or any seat
    (``side``), while ``allow`` holds; once a deal or once a trick (``per_trick``); with ``values`` ((name,
    value) pairs, stored in the deal variable ``var``); ending trick play (``ends``) or swapping the turned
    card (``swap``)."""

    word: str
    for_declarers: bool
    allow: Rule | None
    span: object = None
    side: str = "declarers"
    per_trick: bool = False
    values: tuple = ()
    var: str | None = None
    ends: bool = False
    swap: Rule | None = None
    shows_aside: bool = False


def call_words(body: dict) -> list[str]:
    """The words of a tricks body's ``calls`` (names rules may use as constants)."""
    calls = body.get("calls")
    return [str(word) for word in calls] if isinstance(calls, dict) else []


def call_values(spec, deck, players: int) -> list[tuple[str, int]]:
    """The (name, value) pairs a call's ``value`` offers: suits by name, seats P1…, cards by name (a card with
    copies once, its first copy), or numbers."""
    value = spec.get("value") if isinstance(spec, dict) else None
    if value == "suits":
        return [(suit.name, index) for index, suit in enumerate(deck.suits)]
    if value == "seats":
        return [(f"P{seat + 1}", seat) for seat in range(players)]
    if value == "cards":
        return list({card.name: index for index, card in reversed(list(enumerate(deck.cards)))}.items())[::-1]
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return [(str(n), n) for n in range(value[0], min(value[1], value[0] + MAX_CALL_VALUES - 1) + 1)]
    return []


def call_symbols(body: dict, deck, players: int) -> list[str]:
    """The decision names of a tricks body's calls: the word, or ``WORD VALUE`` for each value it offers."""
    names = []
    for word in call_words(body):
        values = call_values(body["calls"][word], deck, players)
        names += [f"{word} {name}" for name, _ in values] if values else [word]
    return names


def call_var_types(body: dict) -> dict[str, str]:
    """The deal variables the calls' values are stored in, with their types."""
    found = {}
    for word in call_words(body):
        spec = body["calls"][word]
        if isinstance(spec, dict) and spec.get("var") is not None:
            value = spec.get("value")
            found[str(spec["var"])] = _value_type(value)
    return found


def _value_type(value) -> str:
    """The type of the values a call's ``value`` offers."""
    return {"suits": SUIT, "seats": SEAT, "cards": CARD}.get(value, INT) if isinstance(value, str) else INT


def compile_calls(c, path: tuple, body: dict, scope) -> tuple[TrickCall, ...]:
    """The compiled ``calls`` of a tricks body."""
    calls = []
    players = int(c.data.get("players", 4))
    for word in call_words(body):
        spec = body["calls"][word] if isinstance(body["calls"][word], dict) else {}
        values = tuple(call_values(spec, c.deck, players))
        here = path + ("calls", word)
        kind = _value_type(spec.get("value"))
        asked = scope.child(value=Binding(kind, part_attr("tricks", "offered"))) if values else scope
        allow = c.optional_rule(here + ("allow",), BOOL, asked)
        swap = c.optional_rule(here + ("swap_turned",), CARD, scope) if "swap_turned" in spec else None
        side = str(spec.get("side", "declarers"))
        calls.append(TrickCall(word, side == "declarers", allow, c.doc.span_of(here), side,
                               spec.get("once") == "trick", values, spec.get("var"), bool(spec.get("ends")), swap,
                               bool(spec.get("shows_aside"))))
    return tuple(calls)


def _may_say(st, call: TrickCall, seat: int) -> bool:
    """Whether ``seat`` is of the call's side and may say it again now (before its value and ``allow``)."""
    if call.side != "any" and call.for_declarers != bool(st.side_mask >> seat & 1):
        return False
    part = st.tricks
    if call.per_trick:
        return part.said_in.get(call.word) != len(part.trick_winners) + 1
    return call.word not in part.calls


def open_calls(st, calls: tuple) -> list[int]:
    """The call actions the seat to play may make now, ascending."""
    seat, ids, part, found = st.current, st.game.symbol_ids, st.tricks, []
    for call in calls:
        if not _may_say(st, call, seat):
            continue
        if not call.values:
            if call.allow is None or call.allow.fn(st, seat):
                found.append(ids[call.word])
            continue
        for name, value in call.values:
            part.offered = value
            if call.allow is None or call.allow.fn(st, seat):
                found.append(ids[f"{call.word} {name}"])
        part.offered = -1
    return sorted(found)


def say(st, action: int) -> bool:
    """Record the call ``action`` by the seat to play, and do what it does; its turn goes on (it still has to
    play a card) unless the call ends trick play (True)."""
    part, seat = st.tricks, st.current
    name = symbol(st, action)
    word, _, value_name = name.partition(" ")
    call = next((c for c in part.rules.calls if c.word == word), None)
    part.calls = {**part.calls, word: seat}
    part.said_in = {**part.said_in, word: len(part.trick_winners) + 1}
    part.said = (*part.said, (word, seat, name))
    if call is None:
        return False
    if call.var is not None:
        st.put("vars", call.var, next(value for name, value in call.values if name == value_name))
    if call.swap is not None:
        swap_turned(st, seat, call.swap.fn(st, seat))
    if call.shows_aside:
        show_aside(st)
    return call.ends


def swap_turned(st, seat: int, card: int) -> None:
    """``seat`` gives ``card`` of its hand for the card turned up for trumps, which everyone then knows it holds;
    ``card`` lies face up in its place."""
    turned = st.turn_up.cards
    if card is None or card < 0 or not st.hands[seat] >> card & 1 or not turned:
        return
    taken = turned & -turned
    st.hands[seat] ^= (1 << card) | taken
    st.turn_up.cards = 1 << card
    show_held(st.tricks, seat, taken)


def called_sides(st) -> dict[int, bool]:
    """Per seat that has made a call this deal: True when the call was the declarers'."""
    sides = {call.word: call.for_declarers for call in st.tricks.rules.calls if call.side != "any"} \
        if st.tricks.rules else {}
    return {seat: sides[word] for word, seat in st.tricks.calls.items() if word in sides}


def explain_call(st, phase, action: int) -> Diagnostic:
    """Why a call may not be made now (E513)."""
    said, who = symbol(st, action), st.game.seat_name(st.current)
    word = said.partition(" ")[0]
    call = next((c for c in st.tricks.rules.calls if c.word == word), None)
    if call is None:
        return Diagnostic("E513", f"'{said}' is not a call of this trick play", phase.span,
                          "play a card, or one of the calls the rules give")
    part = st.tricks
    if not call.per_trick and word in part.calls:
        reason = f"'{word}' has been said already this deal, by {st.game.seat_name(part.calls[word])}"
        span = call.span
    elif call.per_trick and part.said_in.get(word) == len(part.trick_winners) + 1:
        reason, span = f"'{word}' has been said already in this trick", call.span
    elif call.side != "any" and call.for_declarers != bool(st.side_mask >> st.current & 1):
        side = "declarers" if call.for_declarers else "defenders"
        reason, span = f"{who} may not say '{word}': only the {side} say it, and {who} is not one of them", call.span
    elif call.allow is not None:
        reason, span = f"{who} may not say '{said}' now: {call.allow.text}", call.allow.span
    else:
        reason, span = f"{who} may not say '{said}' now", call.span
    return Diagnostic("E513", reason, span, "play a card")


@check("calls_have_a_speaker")
def calls_have_a_speaker(doc, game):
    """A call for the declarers in a game where no phase says who they are is never offered to anyone (W620)."""
    from rulelang.constructs import construct
    if any(construct(phase.kind).forms_sides for phase in game.phases if getattr(phase, "kind", None)):
        return
    for call in every_call(game):
        if call.for_declarers:
            yield Diagnostic("W620", f"nobody can ever say '{call.word}': it is for the declarers, and no phase of "
                             "this game says who the declarers are", call.span,
                             "give the call `side: defenders` (every seat is a defender here), or add a phase that "
                             "forms the sides (auction, call, pick, parties)", severity=WARNING)


@check("aside_to_show")
def aside_to_show(doc, game) -> Iterator[Diagnostic]:
    """A call that shows the cards laid aside in a game where no ``lay_aside`` lays any (W625)."""
    if any(getattr(phase, "kind", None) == "lay_aside" for phase in game.phases):
        return
    for call in every_call(game):
        if call.shows_aside:
            yield Diagnostic("W625", f"the call '{call.word}' shows the cards laid aside face down, but no "
                             "`lay_aside` lays any: saying it shows nothing", call.span,
                             "add a `lay_aside` phase before trick play, or leave `shows_aside` out", severity=WARNING)
