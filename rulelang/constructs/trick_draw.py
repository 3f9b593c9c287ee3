"""Drawing from the stock during trick play (``draw`` of trick rules): trick-and-draw games.

YAML ``tricks: {…, draw: {each: 1, last: turned}}``. Once a trick is given, every seat that plays
draws ``each`` cards (a number, asked once a trick; 0 draws nothing) from the stock — the cards no
deal gave out — one at a time, the trick's winner first and then in the order of play; a drawn card
is seen by its drawer alone. Drawing goes on while the stock has cards: when it runs out in the middle
of a round, the seats after the last card draw nothing.

``last: turned``: the card turned up for trumps (``turn_up``) lies face up under the stock and is its
last card: the seat that draws after the stock is empty takes it, and everyone knows he holds it until
he plays it (with two players: the loser of the trick that empties the stock).

``shown: top``: the stock's top card lies face up, a prize for the trick: the card a ``turn_up`` turned for trumps
is the first (else chance turns one up before the first trick), and chance turns the next after each round
of drawing; the trick's winner takes it, the others draw face down.

A state that is drawing is chance's (``drawers`` lists the seats still to draw this round, -1 for the
top card to turn up); the log records each drawn card in the history, as any chance card.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Iterator

from rulelang.compile.exprcompile import INT
from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.validators.registry import check
from rulelang.compile.ir import Rule
from rulelang.constructs.base import CHANCE, bits, seats_from

TURN_TOP = -1
"""An entry of ``drawers``: chance turns up the stock's top card (``shown: top``)."""

SCHEMA = {'title': 'a mapping like {each: 1, last: turned}',
          'description': 'After each trick every seat that plays draws cards from the stock, the winner first.',
          'type': 'object',
          'additionalProperties': False,
          'properties': {'each': {'description': 'How many cards each seat draws after a trick (asked once a '
                                                 'trick; 0: none), e.g. 1 or "if closed then 0 else 1"; '
                                                 'default 1.',
                                  '$ref': '#/$defs/intExpr'},
                         'last': {'description': 'turned: the card turned up for trumps is the last card of the '
                                                 'stock, drawn face up.',
                                  'enum': ['turned']},
                         'shown': {'description': "top: the stock's top card lies face up and the trick's "
                                                  'winner takes it (games/german-whist.yaml).',
                                   'enum': ['top']}}}
"""The schema of the ``draw`` key of trick rules."""


@dataclass
class DrawRule:
    """``draw`` of trick rules: ``each`` cards a seat after each trick; the turned card drawn last
    (``turned_last``); the stock's top card face up (``top_shown``)."""

    each: Rule | None
    turned_last: bool = False
    top_shown: bool = False
    span: object = None


def compile_draw(c, path: tuple, body: dict) -> DrawRule | None:
    """The compiled ``draw`` of a tricks body, or None."""
    spec = body.get("draw")
    if not isinstance(spec, dict):
        return None
    each = c.rule(path + ("draw", "each"), INT) if "each" in spec else None
    return DrawRule(each, spec.get("last") == "turned", spec.get("shown") == "top", c.doc.span_of(path + ("draw",)))


def turned_card(st) -> int:
    """The card turned up for trumps still lying under the stock (a mask; 0 when it is drawn or none)."""
    part = getattr(st, "turn_up", None)
    return part.cards if part is not None else 0


def stock_left(st, rule: DrawRule) -> int:
    """How many cards can still be drawn: the stock, the face-up top card, the turned card drawn last."""
    count = bin(st.stock).count("1") + (st.tricks.top >= 0)
    return count + (bin(turned_card(st)).count("1") if rule.turned_last else 0)


def start_top(st, part, rule: DrawRule) -> bool:
    """Before the first trick, when the rules show the stock's top card: the card a ``turn_up`` turned is it
    (the card that made trumps), else chance turns one up; whether chance does."""
    if rule is None or not rule.top_shown:
        return False
    turned = turned_card(st)
    if turned and not rule.turned_last:
        card = turned.bit_length() - 1
        st.turn_up.cards ^= 1 << card
        part.top = card
        return False
    if not st.stock:
        return False
    part.drawers = (TURN_TOP,)
    st.current = CHANCE
    return True


def start_round(st, part, rule: DrawRule, winner: int) -> bool:
    """Once a trick is given: the round of drawing, the winner first; whether anyone draws."""
    each = 1 if rule.each is None else max(0, int(rule.each.fn(st, None)))
    order = seats_from(st, winner, part.among)
    queue = tuple(order) * each
    queue = queue[:stock_left(st, rule)]
    if not queue:
        return False
    part.drawers = queue
    st.current = CHANCE
    return True


def drawable(st, rule: DrawRule) -> int:
    """The cards the next draw may give (a mask): the face-up top card to the round's first drawer, the
    stock, or the turned card once the stock is empty."""
    part = st.tricks
    if part.drawers[0] == TURN_TOP:
        return st.stock
    if part.top >= 0:                      # only ever there at a round's first draw: the winner's
        return 1 << part.top
    if st.stock:
        return st.stock
    return turned_card(st) if rule.turned_last else 0


def legal_draws(st, rule: DrawRule) -> list[int]:
    """The cards chance may give next."""
    return bits(drawable(st, rule))


def drawer_sees(st, card: int) -> int:
    """Who sees ``card`` as it is drawn: everyone for the top card turned up or taken face up and the turned
    card, else its drawer alone."""
    part = st.tricks
    seat = part.drawers[0]
    if seat == TURN_TOP or card == part.top or turned_card(st) >> card & 1:
        return -1
    return seat


def draw_card(st, part, rule: DrawRule, card: int) -> bool:
    """Give ``card`` to the next drawer (or turn it up); whether the round of drawing is over."""
    seat, bit = part.drawers[0], 1 << card
    part.drawers = part.drawers[1:]
    if seat == TURN_TOP:
        st.stock ^= bit
        part.top = card
        return not part.drawers
    if card == part.top:
        part.top = -1
        show_held(part, seat, bit)
    elif st.stock >> card & 1:
        st.stock ^= bit
    else:
        st.turn_up.cards ^= bit
        show_held(part, seat, bit)
    st.hands[seat] |= bit
    if part.drawers:
        return False
    if rule.top_shown and st.stock and part.top < 0:
        part.drawers = (TURN_TOP,)
        return False
    return True


def show_held(part, seat: int, cards: int) -> None:
    """Note that everyone saw ``seat`` take ``cards`` into its hand (known to all until played): ``part`` is the
    trick play's slice."""
    shown = list(part.open_drawn)
    shown[seat] |= cards
    part.open_drawn = tuple(shown)


def open_holdings(st) -> dict[int, int]:
    """Per seat, the drawn cards everyone saw it take that it still holds."""
    return {seat: cards & st.hands[seat] for seat, cards in enumerate(st.tricks.open_drawn)
            if cards & st.hands[seat]}


def count_drawn(table, rule: DrawRule, index: int) -> None:
    """Deal arithmetic: the stock (and the turned card drawn last) is drawn in play, a card a seat each round;
    R380 when it does not share out evenly, which would leave one seat a card more than the others."""
    drawn_turned = rule.turned_last or rule.top_shown
    drawn = table.stock + (table.turned if drawn_turned else 0)
    if drawn % table.players:
        table.report("R380", f"a stock of {drawn} cards cannot be drawn evenly by {table.players} players: the last "
                     "round of drawing would leave some hands a card short", index,
                     "deal so that the cards left (with the turned card drawn last) are a multiple of the players, "
                     "or `remove` cards", field=("draw",))
    table.stock = 0
    if drawn_turned:
        table.turned = 0


def trick_rule_sets(game) -> Iterator:
    """Every set of trick rules of the game: each ``tricks`` phase's, and its contracts' own."""
    for phase in game.phases:
        if getattr(phase, "kind", None) == "tricks":
            yield from (phase.rules, *phase.by_contract.values())


def every_call(game) -> Iterator:
    """Every call of trick play the game's trick rules give."""
    for rules in trick_rule_sets(game):
        yield from rules.calls


@check("turned_card_to_draw_or_swap")
def turned_card_to_draw_or_swap(doc, game) -> Iterator[Diagnostic]:
    """``draw: {last: turned}`` or a call's ``swap_turned`` in a game where no ``turn_up`` lays a card under the
    stock (W624): there is never a turned card to draw or to take."""
    if any(getattr(phase, "kind", None) == "turn_up" and phase.seat is None for phase in game.phases):
        return
    for rules in trick_rule_sets(game):
        if rules.draw is not None and rules.draw.turned_last:
            yield Diagnostic("W624", "`draw: {last: turned}` draws the card turned up for trumps last, but no "
                             "`turn_up` turns one up from the stock", rules.draw.span,
                             "add `- turn_up: {var: turned}` after the deal, or leave `last: turned` out",
                             severity=WARNING)
    for call in every_call(game):
        if call.swap is not None:
            yield Diagnostic("W624", f"the call '{call.word}' swaps a card for the card turned up for trumps, but no "
                             "`turn_up` turns one up from the stock", call.span,
                             "add `- turn_up: {var: turned}` after the deal, or leave `swap_turned` out",
                             severity=WARNING)
