"""``BatchState``: many deals of one game held as numpy arrays, one entry per deal.

The fields carry the names of :class:`~rulelang.interpreter.state.State`'s, so that the batch
twins of the rules (:mod:`rulelang.batch.vectorize`) read them as the rules read a state: a seat
or a card set is an ``int64`` per deal (a card set a bitmask), a per-seat list an array of shape
(deals, seats), a deal variable or a counter an array in a dict by name, a string (an option, a
contract) its code. A construct's slice is a :class:`Part` under the construct's kind; the trick
slice holds the trick on the table by its length (``trick``), its first card (``led_card``) and
its mask, and the finished tricks by their number (``trick_winners``). A field the batch state
does not hold raises :class:`BatchUnsupported` naming it.
"""

from __future__ import annotations

import numpy as np

from rulelang.batch.runtime import signed
from rulelang.batch.vectorize import BatchUnsupported

INT = np.int64
NONE = -1
ABSENT = -(1 << 62)
"""How None is held (an unset contract or option): unlike -1 (no seat, suit or card), equal to no value."""


class Part:
    """A construct's slice of the batch state: plain arrays as attributes."""

    def __init__(self, kind: str, **fields):
        self.__dict__["_kind"] = kind
        self.__dict__.update(fields)

    def __getattr__(self, name: str):
        raise BatchUnsupported(f"the batch engine does not hold `{self._kind}.{name}` yet")


class BatchState:
    """``n`` deals of ``game`` in lock-step, as arrays (see the module's docstring)."""

    def __init__(self, game, n: int, strings: dict, trick_history: bool = True):
        players, rules = game.num_players, game.definition
        if game.num_cards > 64:
            raise BatchUnsupported(f"a pack of {game.num_cards} cards (the batch engine holds up to 64)")
        self.game, self.n, self.players, self.strings = game, n, players, strings
        self.trick_history = trick_history
        self.rows = np.arange(n)
        self.scores = np.full((n, players), rules.match.start, dtype=INT)
        self.deal_number = np.zeros(n, dtype=INT)
        if any(isinstance(v, tuple) for v in rules.match.counters.values()):
            raise BatchUnsupported("a match counter kept per seat or team (`counters: {NAME: {each: seats}}`)")
        self.counters = {name: np.full(n, self.code(v), dtype=INT) for name, v in rules.match.counters.items()}
        self.dealer = np.zeros(n, dtype=INT)
        self.forehand = np.zeros(n, dtype=INT)
        self.current = np.full(n, NONE, dtype=INT)
        self.only_seat = np.full(n, NONE, dtype=INT)
        self.reset_deal()

    def reset_deal(self) -> None:
        """The fields a new deal starts afresh, as :meth:`State._reset_deal` sets them."""
        self.__dict__.update(self._deal_fields(self.n))
        self.redeal = np.zeros(self.n, dtype=bool)
        self.redeals = np.zeros(self.n, dtype=INT)

    def reset_rows(self, rows) -> None:
        """:meth:`reset_deal` for the deals ``rows`` only (a deal thrown in and dealt again)."""
        for name, fresh in self._deal_fields(len(rows)).items():
            held = getattr(self, name)
            if isinstance(fresh, dict):
                for key, values in fresh.items():
                    held[key][rows] = values
            elif isinstance(fresh, Part):
                for key, values in fresh.__dict__.items():
                    if isinstance(values, dict):
                        for item, kept in getattr(held, key).items():
                            kept[rows] = values[item] if item in values else 0
                    elif key != "_kind":
                        getattr(held, key)[rows] = values
            else:
                held[rows] = fresh

    def take_rows(self, rows) -> "BatchState":
        """A batch of the deals ``rows`` alone, each field's entries copied (a narrower batch to play on)."""
        other = object.__new__(BatchState)
        other.__dict__.update({name: value for name, value in self.__dict__.items() if name in _NOT_DEALS})
        other.__dict__.update(_take_rows(self.__dict__, rows))
        other.n, other.rows = len(rows), np.arange(len(rows))
        return other

    def put_rows(self, rows, other: "BatchState") -> None:
        """Set the deals ``rows`` to the deals of ``other`` (a batch of as many deals of the same game)."""
        _put_rows(self.__dict__, rows, other.__dict__, self.n)

    def _deal_fields(self, n: int) -> dict:
        """The deal's fields for ``n`` deals as a new deal starts."""
        players, game = self.players, self.game
        seats = lambda: np.zeros((n, players), dtype=INT)  # noqa: E731 - a fresh per-seat array
        return {
            "hands": seats(), "won": seats(), "discards": seats(), "deal_delta": seats(), "dealt": seats(),
            "stock": np.full(n, signed(game.deck.full_mask), dtype=INT), "talon": np.zeros(n, dtype=INT),
            "out": np.zeros(n, dtype=INT), "active": np.full(n, (1 << players) - 1, dtype=INT),
            "vars": {name: np.full(n, NONE if kind in ("suit", "card") else ABSENT, dtype=INT)
                     for name, kind in game.definition.deal_vars.items()},
            "declarer": np.full(n, NONE, dtype=INT), "contract": np.full(n, ABSENT, dtype=INT),
            "side_mask": np.zeros(n, dtype=INT), "called": np.full(n, NONE, dtype=INT),
            "tricks": tricks_part(n, players, game.num_cards, self.trick_history),
            "choose": Part("choose", value=np.full(n, ABSENT, dtype=INT)),
            "passing": Part("passing", received=seats(), passed=seats()),
            "bids": Part("bids", said=np.full((n, players), NONE, dtype=INT), number=np.zeros(n, dtype=INT)),
            "turn_up": Part("turn_up", cards=np.zeros(n, dtype=INT)),
            "pick": Part("pick", value=np.full(n, ABSENT, dtype=INT)),
            "take_up": Part("take_up", seat=np.full(n, NONE, dtype=INT), taken=np.zeros(n, dtype=INT)),
            "auction": Part("auction", announced={name: np.full(n, NONE, dtype=INT) for name in game.definition.items},
                            levels={name: np.zeros(n, dtype=INT) for name in game.definition.items}),
            "settle": Part("settle", scored={}, announced={}),
            "call": Part("call", card=np.full(n, NONE, dtype=INT)),
            "dummy": Part("dummy", seat=np.full(n, NONE, dtype=INT), by=np.full(n, NONE, dtype=INT)),
            "parties": Part("parties", cards=np.zeros(n, dtype=INT), join=np.zeros(n, dtype=INT)),
            "open_hand": Part("open_hand", seat=np.full(n, NONE, dtype=INT), cards=np.zeros(n, dtype=INT)),
            "show": Part("show", shown=seats()),
            "take_talon": Part("take_talon", seat=np.full(n, NONE, dtype=INT), taken=np.zeros(n, dtype=INT),
                               card=np.full(n, NONE, dtype=INT), shown=np.zeros(n, dtype=INT)),
        }

    def __getattr__(self, name: str):
        raise BatchUnsupported(f"the batch engine does not hold `{name}` yet")

    def code(self, value) -> int:
        """The int a value is held as: a string by its code, None as :data:`ABSENT`, a number (or a card
        set) as the int64 of its bits."""
        if value is None:
            return ABSENT
        if isinstance(value, str):
            return self.strings.setdefault(value, len(self.strings))
        return signed(int(value))


def tricks_part(n: int, players: int, cards: int, history: bool = True) -> Part:
    """The trick slice of ``n`` deals before play: the trick on the table (its length, mask, led suit and
    card, its cards in the order played: ``table_cards``), tricks taken per seat, and with ``history``
    per card its finished trick's number and who played it, per trick its winner and winning card, per
    seat the cards it played to finished tricks."""
    part = Part("tricks", trick=np.zeros(n, dtype=INT), trick_mask=np.zeros(n, dtype=INT),
                led_suit=np.full(n, NONE, dtype=INT), led_card=np.full(n, NONE, dtype=INT),
                taken=np.zeros((n, players), dtype=INT), played=np.zeros(n, dtype=INT),
                trick_winners=np.zeros(n, dtype=INT), among=np.zeros(n, dtype=INT),
                table_cards=np.full((n, players), NONE, dtype=INT), table_seats=np.full((n, players), NONE, dtype=INT),
                calls={})
    if history:
        part.trick_of_card, part.played_by_card = np.zeros((n, cards), dtype=INT), np.full((n, cards), NONE, dtype=INT)
        part.winners, part.winning_cards = np.full((n, cards), NONE, dtype=INT), np.full((n, cards), NONE, dtype=INT)
        part.trick_masks = np.zeros((n, cards), dtype=INT)
        part.seat_played = np.zeros((n, players), dtype=INT)
    return part


def _ints(values) -> np.ndarray:
    """Python ints (card sets of up to 64 cards, nested per seat) as an int64 array of the same bits."""
    if isinstance(values, (list, tuple)):
        return np.array([_ints(v) for v in values], dtype=INT)
    return signed(values)


def from_states(game, states: list, strings: dict) -> BatchState:
    """A batch state holding each of ``states`` (scalar states of ``game``) as one deal."""
    batch = BatchState(game, len(states), strings)
    for field in ("deal_number", "dealer", "forehand", "current", "stock", "talon", "out", "active", "declarer",
                  "side_mask", "called"):
        setattr(batch, field, _ints([getattr(st, field) for st in states]))
    batch.contract = np.array([batch.code(st.contract) for st in states], dtype=INT)
    for field in ("scores", "hands", "won", "discards", "deal_delta", "dealt"):
        setattr(batch, field, _ints([getattr(st, field) for st in states]))
    batch.vars = {name: np.array([batch.code(st.vars[name]) for st in states], dtype=INT) for name in batch.vars}
    batch.counters = {name: np.array([batch.code(st.counters[name]) for st in states], dtype=INT)
                      for name in batch.counters}
    if hasattr(states[0], "tricks"):
        _pack_tricks(batch, [st.tricks for st in states])
    if hasattr(states[0], "bids"):
        batch.bids.said = np.array([st.bids.said for st in states], dtype=INT)
        batch.bids.number = np.array([st.bids.number for st in states], dtype=INT)
    for kind, field in (("turn_up", "cards"), ("pick", "value"), ("take_up", "seat"), ("take_up", "taken"),
                        ("call", "card"), ("open_hand", "seat"), ("open_hand", "cards"), ("take_talon", "seat"),
                        ("take_talon", "taken"), ("take_talon", "card"), ("take_talon", "shown")):
        if hasattr(states[0], kind):
            setattr(getattr(batch, kind), field,
                    np.array([batch.code(getattr(getattr(st, kind), field)) for st in states], dtype=INT))
    if hasattr(states[0], "passing"):
        batch.passing = Part("passing", received=np.array([st.passing.received for st in states], dtype=INT),
                             passed=np.array([st.passing.passed for st in states], dtype=INT))
    if hasattr(states[0], "show"):
        batch.show = Part("show", shown=_ints([st.show.shown for st in states]))
    if hasattr(states[0], "choose"):
        batch.choose = Part("choose", value=np.array([batch.code(st.choose.value) for st in states], dtype=INT))
    return batch


def _pack_tricks(batch: BatchState, parts: list) -> None:
    """The trick slices of scalar states, as the batch state holds them."""
    t = batch.tricks
    for row, part in enumerate(parts):
        t.trick[row], t.trick_mask[row], t.led_suit[row] = len(part.trick), signed(part.trick_mask), part.led_suit
        t.led_card[row] = part.trick[0][1] if part.trick else NONE
        for place, (seat, card) in enumerate(part.trick):
            t.table_cards[row, place], t.table_seats[row, place] = card, seat
        t.taken[row], t.played[row], t.among[row] = part.taken, signed(part.played), part.among
        t.trick_winners[row] = len(part.trick_winners)
        for word, seat in part.calls.items():
            t.calls.setdefault(word, np.full(batch.n, NONE, dtype=INT))[row] = seat
        for number, (plays, (winner, card)) in enumerate(zip(part.finished, part.trick_winners), start=1):
            t.winners[row, number - 1], t.winning_cards[row, number - 1] = winner, card
            t.trick_masks[row, number - 1] = signed(part.trick_masks[number - 1])
            for seat, played in plays:
                t.trick_of_card[row, played], t.played_by_card[row, played] = number, seat
                t.seat_played[row, seat] |= INT(signed(1 << played))


_NOT_DEALS = {"game", "n", "players", "strings", "trick_history", "rows", "_kind"}


def _take_rows(theirs: dict, rows) -> dict:
    """Every array of ``theirs`` (in dicts and slices too) at ``rows`` only, as new arrays."""
    mine = {}
    for name, values in theirs.items():
        if name in _NOT_DEALS:
            continue
        if isinstance(values, np.ndarray):
            mine[name] = values[rows]
        elif isinstance(values, Part):
            mine[name] = Part(values._kind, **_take_rows(values.__dict__, rows))
        elif isinstance(values, dict):
            mine[name] = {key: held[rows] for key, held in values.items()}
        else:
            mine[name] = values
    return mine


def _put_rows(mine: dict, rows, theirs: dict, n: int) -> None:
    """``mine[name][rows] = theirs[name]`` for every array, in dicts of arrays and in slices too; a dict
    entry only one side has starts as nothing said (-1, or False) on the other."""
    for name, values in theirs.items():
        if name in _NOT_DEALS:
            continue
        held = mine.get(name)
        if isinstance(values, np.ndarray):
            held[rows] = values
        elif isinstance(values, Part):
            _put_rows(held.__dict__, rows, values.__dict__, n)
        elif isinstance(values, dict):
            for key in set(held) | set(values):
                if key not in held:
                    sample = values[key]
                    held[key] = np.zeros((n,) + sample.shape[1:], dtype=sample.dtype) if sample.dtype == np.bool_ \
                        else np.full((n,) + sample.shape[1:], NONE, dtype=sample.dtype)
                if key in values:
                    held[key][rows] = values[key]
                else:
                    held[key][rows] = False if held[key].dtype == np.bool_ else NONE
