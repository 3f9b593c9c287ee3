"""Replaying a log: every action checked for legality, the first divergence reported with its line."""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.exprcompile import EvalError
from rulelang.interpreter.agents import DealError, ScriptedDeal
from rulelang.diagnostics import IllegalActionError
from rulelang.interpreter.log import LogFile, at, shown_value
from rulelang.interpreter.record import MatchRecord
from rulelang.interpreter.state import CHANCE


@dataclass
class ReplayOutcome:
    """What a replay did: the final state, its record, how far it got and why it stopped."""

    state: object
    record: MatchRecord
    applied: int
    problem: Diagnostic | None = None
    notes: list | None = None

    @property
    def ok(self) -> bool:
        """True when every logged action was legal and the logged result was reproduced."""
        return self.problem is None


class _Stop(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def replay(log: LogFile, game) -> ReplayOutcome:
    """Replay ``log`` under ``game``; stops at the first illegal or divergent step."""
    runner = _Replayer(log, game)
    notes = []
    if log.header.get("digest") and log.header.get("digest") != game.definition.digest:
        notes.append(Diagnostic("W650", "the log was written under different rules than the ones replaying it",
                                at(log, 1, "digest"), "expected with --rules; otherwise the rule file has changed",
                                severity=WARNING))
    try:
        runner.run()
        problem = runner.check_result()
    except _Stop as stop:
        problem = stop.diagnostic
    return ReplayOutcome(runner.state, runner.record, runner.applied, problem, notes)


class _Replayer:
    def __init__(self, log: LogFile, game):
        self.log, self.game = log, game
        self.state = game.new_initial_state()
        self.record = MatchRecord(game)
        self.entries = list(log.entries)
        self.index = 0
        self.scripted: ScriptedDeal | None = None
        self.applied = 0
        self.last_line = 1

    def peek(self):
        return self.entries[self.index] if self.index < len(self.entries) else (None, None)

    def run(self) -> None:
        while not self.state.is_terminal():
            number, entry = self.peek()
            if self.state.current_player() == CHANCE:
                if not self.chance_step(number, entry):
                    return
            elif entry is None:
                return
            else:
                self.player_step(number, entry)
        number, entry = self.peek()
        if entry is not None:
            raise _Stop(Diagnostic("E536", "the log goes on after the match is over",
                                   at(self.log, number, "type"), "remove the lines after the last move"))

    def chance_step(self, number, entry) -> bool:
        if entry is not None and entry["type"] == "deal":
            self.scripted = self.make_deal(number, entry)
            self.index += 1
            return True
        if entry is not None and entry.get("seat") == "chance":
            self.index += 1
            self.apply(number, self.parse(number, entry), entry)
            return True
        if self.scripted is None:
            if entry is None:
                return False
            raise _Stop(Diagnostic("E537", f"cards must be dealt here (deal {self.state.deal_number + 1}), but the "
                                   "log gives neither a deal line nor the chance events", at(self.log, number, "type"),
                                   'put a {"type": "deal", "hands": …} line before this one'))
        try:
            action = self.scripted.step(self.state)
        except DealError as exc:
            raise _Stop(self.at_deal(exc.diagnostic)) from None
        self.apply(self.last_line, action, None)
        return True

    def make_deal(self, number: int, entry: dict) -> ScriptedDeal:
        self.last_line = number
        seats = {self.game.seat_name(s): s for s in range(self.game.num_players)}
        hands = {}
        given = entry.get("hands") or {}
        talon = entry.get("talon") or []
        if not isinstance(given, dict) or not all(isinstance(c, list) for c in given.values()) \
                or not isinstance(talon, list):
            raise _Stop(Diagnostic("E538", "a deal line's hands must map seats to lists of cards, and its talon be "
                                   "a list", at(self.log, number, "hands"),
                                   '"hands": {"P1": ["A♣", "10♣", …], …}, "talon": ["7♥", …]'))
        dealer = entry.get("dealer")
        if dealer is not None and (not isinstance(dealer, str) or dealer not in seats):
            raise _Stop(Diagnostic("E538", f"a deal line's dealer must be a seat of this game, not {shown_value(dealer)}",
                                   at(self.log, number, "dealer"), f"seats are {', '.join(seats)}"))
        for name, cards in given.items():
            if name not in seats:
                raise _Stop(Diagnostic("E534", f"the deal names a seat '{name}' this game does not have",
                                       at(self.log, number, "hands"), f"seats are {', '.join(seats)}"))
            hands[seats[name]] = list(cards)
        dealer = seats[dealer] if dealer is not None else None
        turned = entry.get("turned_from_hand")
        try:
            return ScriptedDeal(self.game, hands, talon, dealer, turned if isinstance(turned, list) else None)
        except DealError as exc:
            raise _Stop(self.at_deal(exc.diagnostic)) from None

    def at_deal(self, diagnostic: Diagnostic) -> Diagnostic:
        diagnostic.span = at(self.log, self.last_line, "hands")
        return diagnostic

    def player_step(self, number: int, entry: dict) -> None:
        if entry["type"] == "deal":
            raise _Stop(Diagnostic("E535", "a new deal starts in the log, but this deal is not over",
                                   at(self.log, number, "type"), f"it is {self.whose()}'s turn"))
        seat = self.game.seat_name(self.state.current_player())
        if entry.get("seat") != seat:
            raise _Stop(Diagnostic("E532", f"the log has {entry.get('seat')} act here, but it is {seat}'s turn",
                                   at(self.log, number, "seat"), "the moves before this one decide whose turn it is"))
        self.index += 1
        self.apply(number, self.parse(number, entry), entry)

    def whose(self) -> str:
        return self.game.seat_name(self.state.current_player())

    def parse(self, number: int, entry: dict) -> int:
        action = self.game.string_to_action(str(entry.get("action", "")))
        if action is None:
            raise _Stop(Diagnostic("E533", f"'{entry.get('action')}' is not a card or decision of this game",
                                   at(self.log, number), "cards are written like 10♥ or 10H; decisions by name"))
        return action

    def apply(self, number: int, action: int, entry) -> None:
        state = self.state
        actor = state.current_player()
        action = state.legal_copy(action)
        try:
            if action not in state.legal_actions():
                raise IllegalActionError(state.explain_illegal(action))
        except IllegalActionError as exc:
            raise _Stop(self.illegal(number, exc.diagnostic, entry)) from None
        self.record.before(state, actor, action)
        try:
            state.apply_action(action)
        except EvalError as exc:
            raise _Stop(Diagnostic("E553", f"a rule failed after this move: {exc}", at(self.log, number),
                                   "the rule cannot be worked out in this situation",
                                   notes=[("the rule", exc.span)])) from None
        self.record.after(state)
        self.applied += 1

    def illegal(self, number: int, reason: Diagnostic, entry) -> Diagnostic:
        message = f"illegal move in deal {self.state.deal_number + 1}: {reason.message}" if entry \
            else f"the explicit deal cannot be dealt: {reason.message}"
        notes = [("the rule that forbids it", reason.span)] if reason.span else []
        return Diagnostic("E530", message, at(self.log, number), reason.hint, notes=notes)

    def check_result(self) -> Diagnostic | None:
        if self.log.result is None:
            return None
        number, result = self.log.result
        seat = self.game.seat_name
        scores = {seat(s): v for s, v in enumerate(self.state.scores)}
        logged = result.get("scores")
        if logged is not None and logged != scores:
            return Diagnostic("E531", f"the replay ends with scores {scores}, the log says {logged}",
                              at(self.log, number, "scores"), "the log and the rules disagree")
        return None
