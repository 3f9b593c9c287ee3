"""A readable record of a match as it is played: per deal the cards dealt, every decision,
every trick and the score changes. The narration, ``--json`` output and logs are made from it.
"""

from __future__ import annotations

from rulelang.constructs import construct
from rulelang.interpreter.state import CHANCE
from rulelang.interpreter.words import winner_name, contract_title


class MatchRecord:
    """Collects what happens in a match, one action at a time (``before`` and ``after`` each action)."""

    def __init__(self, game):
        self.game = game
        self.deals: list[dict] = []
        self.actions: list[dict] = []
        self._deal: dict | None = None
        self._finished = 0
        self._trick_seen = None

    def _current(self, state) -> dict:
        if self._deal is None or self._deal["number"] != state.deal_number + 1:
            self._deal = {
                "number": state.deal_number + 1, "dealer": self.game.seat_name(state.dealer),
                "forehand": self.game.seat_name(state.forehand),
                "dealt": {self.game.seat_name(s): [] for s in range(self.game.num_players)},
                "talon": [], "decisions": [], "tricks": [], "delta": {}, "scores": {},
            }
            self.deals.append(self._deal)
        return self._deal

    def before(self, state, actor: int, action: int) -> None:
        """Note ``action`` about to be applied by ``actor`` in ``state``."""
        name = self.game.action_to_string(action)
        seat = "chance" if actor == CHANCE else self.game.seat_name(actor)
        phase = state.step.kind if state.step is not None and state.sub != "first_dealer" else "lot"
        entry = {"deal": state.deal_number + 1, "seat": seat, "phase": phase, "action": name,
                 "legal": len(state.legal_actions())}
        self.actions.append(entry)
        if phase == "lot":
            return
        construct(state.step.kind).record(state, state.step, actor, action, name, seat, self._current(state))

    def after(self, state) -> None:
        """Note what the last action changed: forced decisions, finished tricks, a finished deal."""
        if len(state.deal_results) > self._finished:
            self._finished += 1
            self._finish_deal(state.deal_results[-1])
        elif state.sub != "first_dealer" and not state.is_terminal():
            deal = self._current(state)
            self._note_trick(state.tricks.last_trick, deal)
            self._note_forced(state.decisions, deal)

    def _note_trick(self, last, deal: dict) -> None:
        if last is not None and last is not self._trick_seen:
            self._trick_seen = last
            cards, winner = last
            deal["tricks"].append({"cards": [[self.game.seat_name(s), self.game.action_to_string(c)] for s, c in cards],
                                   "winner": self.game.seat_name(winner)})

    def _note_forced(self, decisions: dict, deal: dict) -> None:
        for seat, text in decisions.items():
            if str(text).endswith(" (forced)"):
                entry = {"seat": self.game.seat_name(seat), "phase": "decide", "action": text[:-9], "forced": True}
                if entry not in deal["decisions"]:
                    deal["decisions"].append(entry)

    def _finish_deal(self, result: dict) -> None:
        deal = self._deal
        seat = self.game.seat_name
        self._note_trick(result["last_trick"], deal)
        if result.get("melds"):
            deal["melds"] = result["melds"]
        for trick, found in zip(deal["tricks"], result.get("trick_melds") or ()):
            if found:
                trick["melds"] = found
        self._note_forced(result["decisions"], deal)
        deal["delta"] = {seat(s): v for s, v in enumerate(result["delta"])}
        deal["scores"] = {seat(s): v for s, v in enumerate(result["scores"])}
        deal["tricks_won"] = {seat(s): v for s, v in enumerate(result["tricks"])}
        deal["vars"] = dict(result["vars"])
        deal["set_vars"] = sorted({phase.var for phase in self.game.definition.phases
                                   if phase.kind == "set" and phase.var in result["vars"]})
        deal["active"] = [seat(s) for s in range(self.game.num_players) if result["active"] >> s & 1]
        deal["dealt"] = {seat(s): self.game.deck.names(mask) for s, mask in enumerate(result["dealt"])}
        deal["items"] = result["items"]
        deal["multiplier"] = result["multiplier"]
        if result["contract"] is not None:
            deal["contract"] = {
                "name": result["contract"], "title": contract_title(self.game, result["contract"]),
                "declarer": seat(result["declarer"]) if result["declarer"] >= 0 else None,
                "side": [seat(s) for s in range(self.game.num_players) if result["side"] >> s & 1],
                "called": self.game.action_to_string(result["called"]) if result["called"] >= 0 else None}
            found = self.game.definition.contracts.get(result["contract"])
            if found is not None and found.sides == "parties":
                deal["contract"]["sides"] = "parties"         # the sides are the parties, not the bidder's
            if self._team_mates(result["declarer"]):
                deal["contract"]["team"] = self._team_mates(result["declarer"])
        self._trick_seen = None

    def _team_mates(self, declarer: int) -> list[str]:
        """The declarer's partners in the fixed teams (``teams``); none without teams or declarer."""
        teams = self.game.definition.teams
        if not teams or declarer < 0:
            return []
        return [self.game.seat_name(s) for s in range(self.game.num_players)
                if teams[declarer] >> s & 1 and s != declarer]

    def summary(self, state) -> dict:
        """The whole match as one JSON-ready object: deals, totals, winner."""
        seat = self.game.seat_name
        return {
            "game": self.game.name, "deals": self.deals,
            "totals": {seat(s): v for s, v in enumerate(state.scores)},
            "winner": winner_name(state), "winners": [seat(s) for s in state.winners],
            "finished": state.match_ended,
        }
