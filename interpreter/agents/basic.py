"""The random agent, the chance policies (seeded draws, an explicit deal) and their errors."""

from __future__ import annotations

import random

from rulelang.constructs import receiver_of
from rulelang.diagnostics import Diagnostic


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        """A uniformly random legal action."""
        return self.rng.choice(state.legal_actions())


class SeededChance:
    """Draws chance events uniformly from a seeded generator."""

    def __init__(self, seed: int | None):
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        """A uniformly random chance outcome."""
        return self.rng.choice(state.legal_actions())

    def play(self, state, before=None, after=None) -> None:
        """Draw and apply every pending chance event at once (:meth:`State.apply_chance`)."""
        state.apply_chance(self.rng, before, after)


class DealError(Exception):
    """An explicit deal that does not fit the game (wrong cards or counts)."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.render())


class ScriptedDeal:
    """Chance events from an explicit deal: each seat's cards and the talon, by name.

    ``hands`` maps a seat index to its card names in the order they are dealt (any order
    of a seat's cards gives the same hand); ``talon`` lists the talon's cards top first:
    exchanges draw them in this order. ``dealer`` is the first dealer when drawn by lot. A
    ``turn_up`` from a seat's hand shows the next card of ``turned``, or else the last card
    listed for that seat (the last it was dealt). Cards drawn from the stock during trick play come from
    ``talon`` too, in the order they are drawn; a draw that can give one card only (the turned card drawn
    last) needs no entry.
    """

    def __init__(self, game, hands: dict[int, list[str]], talon: list[str] | None = None, dealer: int | None = None,
                 turned: list[str] | None = None):
        self.game = game
        self.queues = {seat: [self._card(n) for n in names] for seat, names in hands.items()}
        self.last = {seat: queue[-1] for seat, queue in self.queues.items() if queue}
        self.talon = [self._card(n) for n in talon or []]
        self.turned = [self._card(n) for n in turned or []]
        self.dealer = dealer

    def _card(self, name: str) -> int:
        card = self.game.deck.lookup.get(str(name).strip().casefold())
        if card is None:
            raise DealError(Diagnostic("E520", f"the deal names '{name}', which is not a card of this game", None,
                                       "write cards as rank and suit, e.g. 10H or A♣, or by alias"))
        return card

    def _other_copies(self, card: int) -> list[int]:
        """The other copies of ``card``'s name, in a pack with copies (a deal names cards, not copies)."""
        twins = self.game.deck.twins
        return [c for c in range(self.game.num_cards) if twins and twins[card] >> c & 1 and c != card]

    def play(self, state, before=None, after=None) -> None:
        """Apply the pending chance events the explicit deal prescribes, one by one."""
        while state.is_chance_node():
            action = self.step(state)
            if before is not None:
                before(action)
            state.apply_action(action)
            if after is not None:
                after()

    def step(self, state) -> int:
        """The chance action the explicit deal prescribes now."""
        legal = state.legal_actions()
        if state.sub == "first_dealer":
            return self.game.seat_base + (self.dealer or 0)
        if legal and legal[0] >= self.game.num_cards:
            names = ", ".join(self.game.action_to_string(a) for a in legal)
            raise DealError(Diagnostic("E523", f"the explicit deal cannot say what chance draws here ({names})",
                                       getattr(state.step, "span", None),
                                       "an explicit deal gives cards only; replay this game from its seed"))
        if state.phase is not None and state.phase.kind == "turn_up" and state.phase.seat is not None:
            return self._turned_in_hand(state, legal)
        queue = self._queue(state)
        if len(legal) == 1 and state.phase is not None and state.phase.kind == "tricks":
            if queue and legal[0] in (queue[0], *self._other_copies(queue[0])):
                queue.pop(0)
            return legal[0]                      # a card only one draw can give: the turned card, the face-up top
        while queue:
            card = queue.pop(0)
            for copy in (card, *self._other_copies(card)):
                if copy in legal:
                    return copy
            raise DealError(Diagnostic("E521", f"the deal gives {self.game.action_to_string(card)} twice or "
                                       "after it left the stock", None, "every card may appear only once"))
        raise DealError(Diagnostic("E522", "the explicit deal has run out of cards for "
                                   + self._who(state), None, "give every seat its full hand and list the talon"))

    def _turned_in_hand(self, state, legal: list[int]) -> int:
        """The card a ``turn_up`` from a seat shows: the next of ``turned``, else the last card listed for it."""
        seat = state.turn_up.holder
        card = self.turned.pop(0) if self.turned else self.last.get(seat, -1)
        if card not in legal:
            name = self.game.action_to_string(card) if card >= 0 else "no card"
            raise DealError(Diagnostic("E521", f"the deal turns up {name} from {self.game.seat_name(seat)}'s hand, "
                                       "which does not hold it", None, "turn up a card of the seat's hand"))
        return card

    def _queue(self, state) -> list[int]:
        if state.phase is not None and state.phase.kind == "deal":
            return self.queues.setdefault(receiver_of(state), [])
        return self.talon

    def _who(self, state) -> str:
        if state.phase is not None and state.phase.kind == "deal":
            return self.game.seat_name(receiver_of(state))
        return "the talon"
