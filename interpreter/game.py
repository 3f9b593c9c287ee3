"""``Game``: the immutable, compiled game a :class:`~rulelang.interpreter.state.State` runs."""

from __future__ import annotations

from rulelang.constructs import Construct, construct, constructs, with_parts
from rulelang.diagnostics import Diagnostic, IllegalActionError  # IllegalActionError: named here too
from rulelang.compile.endless import why_endless
from rulelang.compile.ir import GameDef

MAX_MATCH_DEALS = 10_000
"""No match runs longer: a match whose rules do not end it by then is stopped with a diagnostic (E554)."""


class Game:
    """A compiled game: action numbering, names and a factory for initial states.

    Actions are ints: ``0..N-1`` are the cards of the deck (play or discard that card),
    then one id per decision symbol (``play``, ``pass``, a suit name, ``done``), then one
    id per seat (used when the first dealer is drawn by lot).

    ``parts`` are the constructs of this game's phases that keep deal state (a slice made
    anew each deal and copied by ``clone``); ``idle_parts`` holds one never-changed slice
    for every other construct, shared by all states, so that a construct may read another's
    slice in any game; ``live_parts[i + 1]`` the kinds whose slices phase ``i`` or a later one
    may still change, and the State's shared containers they write in place (``clone`` copies
    those, and shares the slices of finished phases, which nothing changes again this deal);
    ``observers``, ``recorders`` and ``placers`` are the constructs that
    add to observations, deal records, card places and information states, ``trick_watchers``
    those that react to a finished trick.
    """

    def __init__(self, definition: GameDef, max_deals: int | None = None):
        self.definition = definition
        self.deck = definition.deck
        self.num_players = definition.players
        self.num_cards = len(self.deck.cards)
        self.symbols = definition.symbols
        self.symbol_base = self.num_cards
        self.seat_base = self.num_cards + len(self.symbols)
        self.symbol_ids = {name: self.symbol_base + i for i, name in enumerate(self.symbols)}
        self.done_action = self.symbol_ids.get("done")
        self.max_deals = max_deals
        self.deal_cap = min(max_deals, MAX_MATCH_DEALS) if max_deals is not None else MAX_MATCH_DEALS
        self.endless = why_endless(definition)       # how its scores never reach `end`, or None
        self.seat_orders: dict[tuple[int, int], list[int]] = {}
        self.phase_tables: dict[int, object] = {}        # what a construct works out once per phase
        self.card_suit_masks = [self.deck.suit_masks[card.suit] for card in self.deck.cards]
        self.card_suits = [card.suit for card in self.deck.cards]
        kinds = _kinds(definition.phases)
        self.parts = tuple(c for c in with_parts() if c.kind in kinds)
        self.part_kinds = tuple(c.kind for c in self.parts)
        self.live_parts = _live_parts(definition.phases, self.part_kinds)
        self.idle_parts = {c.kind: c.part(self) for c in with_parts() if c.kind not in kinds}
        self.observers = tuple(c for c in constructs().values() if c.observe is not Construct.observe)
        self.recorders = tuple(c for c in constructs().values() if c.deal_result is not Construct.deal_result)
        self.placers = tuple(c for c in constructs().values() if c.places is not Construct.places)
        self.informers = tuple(c for c in constructs().values() if c.informs is not Construct.informs)
        self.deputies = tuple(c for c in self.parts if c.acts_for is not Construct.acts_for)
        self.trick_watchers = tuple(c for c in constructs().values()
                                    if c.kind in kinds and c.after_trick is not Construct.after_trick)
        self.handlers = _handlers(self.deck)
        self._initial = None

    @property
    def name(self) -> str:
        """The game's id, as written in its rule file."""
        return self.definition.name

    def num_distinct_actions(self) -> int:
        """Size of the action space."""
        return self.seat_base + self.num_players

    def new_initial_state(self):
        """A state at the start of a match, before the first chance event: a copy of one made on first use
        that shares no container with it (making every slice anew costs several times a copy)."""
        initial = self._initial
        if initial is None:
            from rulelang.interpreter.state import State
            initial = self._initial = State(self)
        return initial.detached()

    def seat_name(self, seat: int) -> str:
        """Display name of a seat: P1..Pn."""
        return f"P{seat + 1}"

    def action_to_string(self, action: int) -> str:
        """The name of an action: a card, a decision symbol, or a seat."""
        if 0 <= action < self.num_cards:
            return self.deck.cards[action].name
        if self.symbol_base <= action < self.seat_base:
            return self.symbols[action - self.symbol_base]
        if self.seat_base <= action < self.num_distinct_actions():
            return self.seat_name(action - self.seat_base)
        return f"<action {action}>"

    def string_to_action(self, text: str) -> int | None:
        """The action a name stands for (card names, letters and aliases accepted), or None. In a pack with
        copies a card's name gives its first copy; ``State.apply_checked`` plays whichever copy is legal."""
        key = text.strip().casefold()
        card = self.deck.lookup.get(key)
        if card is not None:
            return card
        for name, action in self.symbol_ids.items():
            if name.casefold() == key:
                return action
        for seat in range(self.num_players):
            if self.seat_name(seat).casefold() == key:
                return self.seat_base + seat
        return None


def _handlers(deck) -> dict[str, type[Construct]]:
    """The construct that runs each phase kind. In a pack with copies, each is wrapped so that a player's
    legal moves offer a card name once (its lowest copy in the hand): two copies of a card are one move."""
    found = dict(constructs())
    if deck.copies == 1:
        return found
    return {kind: _one_move_per_name(c, deck) for kind, c in found.items()}


def _one_move_per_name(c: type[Construct], deck) -> type[Construct]:
    """``c`` with its legal moves thinned to one copy per card name (copies of a name are numbered together)."""
    legal, cards = c.legal, len(deck.cards)
    first = [card - deck.cards[card].copy for card in range(cards)]

    def legal_once(st, phase) -> list[int]:
        if st.current < 0:                      # chance draws every copy, each as likely
            return legal(st, phase)
        moves, last = [], -1
        for action in legal(st, phase):
            if action < cards:
                if first[action] == last:
                    continue
                last = first[action]
            moves.append(action)
        return moves
    return type(c.__name__, (c,), {"legal": staticmethod(legal_once), "__doc__": c.__doc__})


def _live_parts(phases, part_kinds: tuple) -> list[tuple[str, ...]]:
    """Per phase index + 1 (0: before the first phase), what that phase or a later one may change in
    place: the kinds of their slices (but of later phases that renew their slice on entering), and the
    State's shared containers their constructs write (``writes``)."""
    live = []
    for i in range(len(phases) + 1):
        rest = phases[max(i - 1, 0):]
        changed = _kinds(rest[:1]) | {kind for kind in _kinds(rest[1:]) if not construct(kind).renews_part}
        written = sorted({name for kind in _kinds(rest) for name in construct(kind).writes})
        live.append(tuple(kind for kind in part_kinds if kind in changed) + tuple(written))
    return live + [()]


def _kinds(phases) -> set[str]:
    """The kinds of ``phases`` and of the steps they run."""
    kinds = set()
    for phase in phases:
        kinds.add(phase.kind)
        kinds |= _kinds(construct(phase.kind).inner_phases(phase))
    return kinds
