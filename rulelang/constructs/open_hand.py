"""``open_hand``: a seat lays its hand open for everyone to see, and goes on playing it itself.

YAML ``- open_hand: {seat: declarer, when: "contract == null_open"}``; DSL ``open_hand declarer
when contract == null_open``. From the phase on, for the rest of the deal, every seat sees the
open hand (the observation's ``open_hand`` and ``open_cards``, every information state), as in
contracts a declarer plays with his cards face up; unlike a ``dummy`` the seat chooses its own
cards. Placed before the trick play it is shown for. Several ``open_hand`` phases lay several hands
open (both defenders of a contract); the observation then also holds ``open_hands``, every open seat's
name with its cards, and ``open_hand``/``open_cards`` stay the first one's. ``after: lead`` shows the hand
only from the first card of trick play on: ``- open_hand: {seat: next(declarer), after: lead}``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.compile.exprcompile import SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class OpenHandPhase(PhaseBase):
    """``seat``'s hand is shown to everyone from here on."""

    seat: Rule | None = None
    after_lead: bool = False
    kind: str = "open_hand"


class OpenHandState(DealPart):
    """The hands laid open this deal: ``entries`` holds each open seat with the cards it held when its phase came
    and whether it is shown only from the first card of trick play on (``after: lead``)."""

    def __init__(self, game) -> None:
        self.entries: tuple[tuple[int, int, bool], ...] = ()

    @property
    def seat(self) -> int:
        """The first seat laid open this deal (-1: none), as the batch engine keeps it."""
        return self.entries[0][0] if self.entries else -1

    @property
    def cards(self) -> int:
        """The cards the first open seat held when it was laid open (0: none)."""
        return self.entries[0][1] if self.entries else 0

    def shown(self, st) -> list[tuple[int, int]]:
        """Every seat whose hand lies open now, with the cards it held when it was laid open (a seat shown after
        the lead that led the first card no longer holds it), in the order they were laid open."""
        led = _first_card(st) if any(late for _, _, late in self.entries) else None
        found = []
        for seat, cards, late in self.entries:
            if late:
                if led is None:
                    continue
                if led[0] == seat:
                    cards &= ~(1 << led[1])
            found.append((seat, cards))
        return found


def _first_card(st) -> tuple[int, int] | None:
    """The seat and card that opened the deal's trick play, None before it."""
    part = st.tricks
    if part.finished:
        return part.finished[0][0]
    return part.trick[0] if part.trick else None


def _dsl(b, meta, children):
    """``open_hand SEAT [when COND]``."""
    seat, when = children
    return b.phase("open_hand", meta, [("seat", seat), ("when", when)])


def later_trick_play(c, path: tuple) -> bool:
    """Whether a ``tricks`` phase follows the top-level phase at ``path`` (``("phases", index, kind)``; True when
    that cannot be told, as inside a ``turns`` phase)."""
    phases = c.data.get("phases")
    if len(path) != 3 or path[0] != "phases" or not isinstance(phases, list) or not isinstance(path[1], int):
        return True
    return any(isinstance(entry, dict) and "tricks" in entry for entry in phases[path[1] + 1:])


class OpenHand(Construct):
    """A seat's hand laid open to everyone for the rest of the deal, still played by that seat."""

    kind = "open_hand"
    batch_kernel = "rulelang.batch.kernels_more:OPEN_HAND"
    keeps_hands = True
    order = 63
    summary = "a hand laid open to everyone for the rest of the deal, played by its own seat"
    example = {"seat": "declarer"}
    schema = {'entry': "A hand laid open to everyone for the rest of the deal, played by its own seat.",
              'defs': {'open_handPhase': {'title': 'a mapping like {seat: declarer}',
                                          'description': "From this phase on, this seat's hand is seen by everyone; "
                                                         "the seat still plays its own cards.",
                                          'type': 'object',
                                          'additionalProperties': False,
                                          'required': ['seat'],
                                          'properties': {'seat': {'description': 'The seat that lays its hand open, '
                                                                                 'e.g. declarer.',
                                                                  '$ref': '#/$defs/seatExpr'},
                                                         'after': {'description': 'lead: the hand is shown from '
                                                                                  'the first card of trick play on, '
                                                                                  'not at once.',
                                                                   'enum': ['lead']},
                                                         'when': WHEN}}}}
    codes = ("R369",)
    tallied = False
    dsl = {"open_hand": _dsl}
    part = OpenHandState

    @staticmethod
    def compile(c, path, body):
        if not later_trick_play(c, path):
            c.error("R369", "the hand is laid open after the last trick play, when no card is left to show", path,
                    "put `open_hand` before the `tricks` phase it is shown for")
        return OpenHandPhase(c.rule(path + ("seat",), SEAT), after_lead=body.get("after") == "lead")

    @staticmethod
    def dump(phase) -> str:
        return f" `{phase.seat.text}`" + (" after the lead" if phase.after_lead else "")

    @staticmethod
    def enter(st, phase) -> bool:
        seat = phase.seat.fn(st, None)
        if seat < 0:
            raise EvalError("the seat that lays its hand open is none", phase.span)
        part = st.open_hand
        if all(seat != open_seat for open_seat, _, _ in part.entries):
            part.entries = (*part.entries, (seat, st.hands[seat], phase.after_lead))
        return False

    @staticmethod
    def observe(st, player: int) -> dict:
        shown = st.open_hand.shown(st)
        if not shown:
            return {}
        game = st.game
        first = shown[0][0]
        seen = {"open_hand": game.seat_name(first), "open_cards": game.deck.names(st.hands[first])}
        if len(shown) > 1:
            seen["open_hands"] = {game.seat_name(seat): game.deck.names(st.hands[seat]) for seat, _ in shown}
        return seen

    @staticmethod
    def informs(st, player: int) -> str:
        names = st.game.deck.names
        return "".join(f" | open {st.game.seat_name(seat)}: {' '.join(names(cards))}"
                       for seat, cards in st.open_hand.shown(st) if seat != player)

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return {seat: st.hands[seat] for seat, _ in st.open_hand.shown(st)}

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        when = " once the first card of trick play is led" if body.get("after") == "lead" else ""
        return [f"{ctx.say(body.get('seat'))} lays his hand open{when}: for the rest of the deal everyone sees it, "
                "and he plays it himself"] + rest(body, {"seat", "after", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or set(value) - {"seat", "when"} or "seat" not in value:
            return None
        seat = expr_text(value["seat"])
        text, used = head_parts(value, [WHEN_PART])
        return [f"{pad}open_hand {seat}{text}"] if seat is not None and used == set(value) - {"seat"} else None


CONSTRUCT = OpenHand
