"""Telling one seat what happens at the table, as it happens, in the game's own words.

A :class:`SeatNarrator` is shown every action before and after it is applied (as
:class:`~rulelang.interpreter.record.MatchRecord` is) and returns lines of text for the
person in its seat: who bid, announced or doubled what (titles, not identifiers), who
exchanged how many cards, every card played and who took each trick, the called card and
the partner once that seat may know them, and each deal's items and payments. It tells
nothing that seat may not see: other seats' hands, discards and draws stay hidden.
"""

from __future__ import annotations

from rulelang.interpreter.narrate import deal_outcome_lines
from rulelang.constructs import construct
from rulelang.constructs import receiver_of
from rulelang.interpreter.state import CHANCE
from rulelang.interpreter.words import action_words, contract_title


class SeatNarrator:
    """What the person in ``seat`` is told; ``record`` is the match's record, updated before :meth:`after`."""

    def __init__(self, game, seat: int, record):
        self.game, self.seat, self.record = game, seat, record
        self.draws: dict[int, int] = {}
        self.discards: dict[int, int] = {}
        self.deal_told = 0
        self.tricks_told = 0
        self.results_told = 0
        self.contract_told: tuple | None = None
        self.partner_told = False

    def name(self, seat: int) -> str:
        """A seat's name, with "(you)" for the narrator's own."""
        return f"{self.game.seat_name(seat)} (you)" if seat == self.seat else self.game.seat_name(seat)

    def before(self, state, actor: int, action: int) -> list[str]:
        """Lines about ``action``, which ``actor`` is about to apply to ``state``."""
        receiver = receiver_of(state) if actor == CHANCE else -1
        drawing = receiver >= 0 and state.step.kind == "exchange"
        lines = [] if drawing else self._flush_draws()
        card = self.game.action_to_string(action)
        if drawing:
            self.draws[receiver] = self.draws.get(receiver, 0) + 1
            return [f"  you draw {card}"] if receiver == self.seat else []
        if actor == CHANCE:
            return lines
        if state.step is not None and state.step.kind == "exchange":
            return lines + self._exchange(state, actor, action, card)
        words = action_words(state, actor, action)
        if words:
            lines.append(f"{self.name(actor)} {words}")
        elif actor == self.seat:
            lines.extend(self._own(state, action, card))
        return lines

    def _own(self, state, action: int, card: str) -> list[str]:
        """What the narrator's own seat alone is told of its hidden action."""
        words = construct(state.step.kind).private_words(state, state.step, action, card)
        return [f"  {words}"] if words else []

    def _exchange(self, state, actor: int, action: int, card: str) -> list[str]:
        if action < self.game.num_cards:
            self.discards[actor] = self.discards.get(actor, 0) + 1
            return self._own(state, action, card) if actor == self.seat else []
        if not self.discards.get(actor):
            return [f"{self.name(actor)} keeps all cards"]
        return []

    def _flush_draws(self) -> list[str]:
        lines = [f"{self.name(s)} exchanges {n} card{'s' if n != 1 else ''} with the talon"
                 for s, n in self.draws.items()]
        self.draws.clear()
        return lines

    def after(self, state) -> list[str]:
        """Lines about what the last action changed: a trick taken, a partner revealed, a deal over, a new deal."""
        lines = self._tricks() + self._contract(state)
        finished = [d for d in self.record.deals if d.get("delta")]
        for deal in finished[self.results_told:]:
            lines.extend(self._flush_draws())
            lines.append(f"Deal {deal['number']} is over.")
            lines.extend(deal_outcome_lines(deal))
        self.results_told = len(finished)
        if not state.is_terminal() and state.sub != "first_dealer" and state.deal_number + 1 != self.deal_told:
            lines.extend(self._new_deal(state))
        return lines

    def _new_deal(self, state) -> list[str]:
        self.deal_told = state.deal_number + 1
        self.tricks_told, self.contract_told, self.partner_told = 0, None, False
        self.discards.clear()
        return ["", f"Deal {self.deal_told}: {self.name(state.dealer)} deals, {self.name(state.forehand)} leads off"]

    def _tricks(self) -> list[str]:
        deal = self.record.deals[-1] if self.record.deals else None
        if deal is None or deal["number"] != self.deal_told:
            return []
        tricks = deal["tricks"][self.tricks_told:]
        self.tricks_told += len(tricks)
        start = self.tricks_told - len(tricks) + 1
        return [f"  → {trick['winner']} takes trick {start + i}" for i, trick in enumerate(tricks)]

    def _contract(self, state) -> list[str]:
        view = state.observation(self.seat)
        if not view.get("contract"):
            return []
        lines = []
        key = (view["contract"], view["declarer"], view.get("called"))
        if key != self.contract_told and not state.is_terminal():
            self.contract_told = key
            called = f", calling {view['called']}" if view.get("called") else ""
            lines.append(f"  contract: {contract_title(self.game, view['contract'])} by {view['declarer']}{called}")
        partner = view.get("partner")
        if view.get("called") and partner != "unknown" and not self.partner_told:
            self.partner_told = True
            lines.append(self._partner_words(view["declarer"], partner))
        return lines

    def _partner_words(self, declarer: str, partners: list[str]) -> str:
        mine = self.game.seat_name(self.seat)
        if not partners:
            return f"  {declarer} holds the called card: {declarer} plays alone"
        if mine in partners:
            return f"  you are {declarer}'s partner"
        return f"  {', '.join(partners)} is {declarer}'s partner"

    def sync(self, state) -> None:
        """Count everything up to ``state`` as told (after an undo or a resumed match)."""
        self.draws.clear()
        self.deal_told = state.deal_number + 1
        deal = self.record.deals[-1] if self.record.deals else None
        self.tricks_told = len(deal["tricks"]) if deal and deal["number"] == self.deal_told else 0
        self.results_told = len([d for d in self.record.deals if d.get("delta")])
        view = state.observation(self.seat)
        self.contract_told = (view["contract"], view["declarer"], view.get("called")) if view.get("contract") else None
        self.partner_told = bool(view.get("called")) and view.get("partner") != "unknown"
