"""A table of the web server: one match, its seats (people with secret links, or agents) and what each seat is told.

A :class:`Table` holds the running state, the match record and one
:class:`~rulelang.interpreter.table.SeatNarrator` per seat. It is rebuilt from its action
history alone (a server restart replays the history, so every seat's narration comes back
word for word). A person's move is checked by the engine: a forged or illegal move gets
the engine's explanation and changes nothing. A rule that fails while the game is played (E553)
stops the table with that diagnostic (``failure``), which every seat is shown. Agents and chance move through
:meth:`Table.bot_step`, one action at a time, so the server can show each move live. The titles of the decisions made so
far are kept (``titles``), so a list of words in an observation can be shown in the game's words.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import EvalError
from rulelang.interpreter.state import CHANCE

PERSON = "person"
TOKEN_BYTES = 24


def new_token() -> str:
    """An unguessable seat token (``TOKEN_BYTES`` random bytes, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Table:
    """One match at the web server: game, seats, seed, the state and what each seat has been told."""

    id: str
    ref: str
    game: object
    kinds: list[str]
    tokens: list[str | None]
    seed: int
    history: list[int] = field(default_factory=list)
    state: object = None
    record: object = None
    narrators: list = field(default_factory=list)
    talk: list[list[str]] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    failure: Diagnostic | None = None
    renames: tuple[tuple[str, str], ...] = ()
    names: list[str] = field(default_factory=list)
    online: dict[int, int] = field(default_factory=dict)
    deals: int | None = None
    next_id: str | None = None
    agents: list = field(default_factory=list)
    chance: object = None

    def start(self) -> None:
        """Build the state from the start of the match through every action of ``history``."""
        from rulelang.interpreter.agents import SeededChance, make_agent
        from rulelang.interpreter.record import MatchRecord
        from rulelang.interpreter.table import SeatNarrator
        self.state, self.record = self.game.new_initial_state(), MatchRecord(self.game)
        seats = range(self.game.num_players)
        self.narrators = [SeatNarrator(self.game, s, self.record) for s in seats]
        self.talk = [[] for _ in seats]
        self.titles = {}
        for action in list(self.history):
            self._apply(self.state.current_player(), action, remember=False)
        salt = self.seed * 1009 + len(self.history)
        self.agents = [None if kind == PERSON else make_agent(kind, salt + s + 1) for s, kind in enumerate(self.kinds)]
        self.chance = SeededChance(salt)

    def _apply(self, actor: int, action: int, remember: bool = True) -> None:
        from rulelang.web.views import move_label
        if actor >= 0 and action >= self.game.num_cards:
            self.titles[self.game.action_to_string(action)] = move_label(self.state, actor, action)[0]
        for narrator, lines in zip(self.narrators, self.talk):
            lines.extend(narrator.before(self.state, actor, action))
        self.record.before(self.state, actor, action)
        try:
            self.state.apply_action(action)
        except EvalError as exc:
            from rulelang.compile.values import failed_rule
            self.failure = failed_rule(exc)
            return
        self.record.after(self.state)
        for narrator, lines in zip(self.narrators, self.talk):
            lines.extend(narrator.after(self.state))
        if remember:
            self.history.append(action)

    # ------------------------------------------------------------------ who sits where
    def seat_of(self, token: str) -> int | None:
        """The seat whose link carries ``token``, or None (compared in constant time)."""
        found = None
        for seat, own in enumerate(self.tokens):
            if own is not None and secrets.compare_digest(own.encode(), str(token).encode()):
                found = seat
        return found

    def link(self, seat: int) -> str | None:
        """The path of ``seat``'s link (None for an agent's seat)."""
        return f"/t/{self.id}#{self.tokens[seat]}" if self.tokens[seat] else None

    def people(self) -> list[int]:
        """The seats where a person sits."""
        return [s for s, kind in enumerate(self.kinds) if kind == PERSON]

    def bots_to_move(self) -> bool:
        """True when chance or an agent moves next."""
        if self.state.is_terminal() or self.failure is not None:
            return False
        actor = self.state.current_player()
        return actor == CHANCE or self.kinds[actor] != PERSON

    # ------------------------------------------------------------------ moves
    def bot_step(self) -> bool:
        """Let chance or the agent to act make one move; False when a person (or nobody) is to act."""
        if not self.bots_to_move():
            return False
        actor = self.state.current_player()
        mover = self.chance if actor == CHANCE else self.agents[actor]
        try:
            action = mover.step(self.state)
        except EvalError as exc:             # the rules left the seat stuck, or a rule failed as it chose
            from rulelang.compile.values import failed_rule
            self.failure = failed_rule(exc)
            return True
        self._apply(actor, action)
        return True

    def move(self, seat: int, text: str) -> Diagnostic | None:
        """Make ``seat``'s move named ``text``; the reason it cannot be made (nothing changes then), or None."""
        state = self.state
        if self.failure is not None:
            return self.failure
        if state.is_terminal():
            return Diagnostic("E510", "the match is over; no more moves can be made", None,
                              "download the log, or start a new table")
        actor = state.current_player()
        if actor != seat:
            whose = "chance's" if actor == CHANCE else f"{self.game.seat_name(actor)}'s"
            return Diagnostic("E532", f"it is {whose} turn, not {self.game.seat_name(seat)}'s", None,
                              "wait until your seat is to act")
        action = state.string_to_action(str(text))
        if action is None:
            return Diagnostic("E533", f"'{text}' is not a card or decision of this game", None,
                              "click one of the cards or buttons that are enabled")
        action = state.legal_copy(action)
        try:
            legal = state.legal_actions()
        except EvalError as exc:
            from rulelang.compile.values import failed_rule
            self.failure = failed_rule(exc)
            return self.failure
        if action not in legal:
            return state.explain_illegal(action)
        self._apply(seat, action)
        return None

    def person(self, seat: int) -> str:
        """How the table names a seat: the name its person gave, else the seat's name (``P2``)."""
        given = self.names[seat] if self.names and seat < len(self.names) else ""
        return given or self.game.seat_name(seat)

    def hint(self, seat: int) -> dict | None:
        """The move the heuristic player would make in ``seat`` now (it reads only what that seat may know),
        as ``{"move", "label"}``; None when the seat is not to act."""
        from rulelang.interpreter.agents import HeuristicAgent
        from rulelang.web.views import move_label
        state = self.state
        if state.is_terminal() or self.failure is not None or state.current_player() != seat:
            return None
        action = HeuristicAgent(len(state.history)).step(state)
        name = state.action_to_string(action)
        return {"move": name, "label": name if action < self.game.num_cards else move_label(state, seat, action)[0]}

    # ------------------------------------------------------------------ what the table shows
    def shown(self, diagnostic: Diagnostic) -> dict:
        """A diagnostic as :func:`~rulelang.web.lobby.diagnostic_view` shows it, with this table's ``renames``;
        its rendered text also as ``error``."""
        from rulelang.web.lobby import diagnostic_view
        seen = diagnostic_view(diagnostic, self.renames)
        return {"error": seen["text"], **seen}

    def last_trick(self, seat: int) -> dict | None:
        """The last trick taken in the current or just finished deal (everyone saw it), with its winner."""
        from rulelang.web.views import card_face
        if not self.record.deals or not self.record.deals[-1]["tricks"]:
            return None
        trick = self.record.deals[-1]["tricks"][-1]
        return {"winner": trick["winner"], "number": len(self.record.deals[-1]["tricks"]),
                "cards": [{"seat": s, **card_face(self.game, c)} for s, c in trick["cards"]]}

    def log_lines(self) -> list[dict]:
        """The match as ``rulelang-log/1`` lines: header, every action, and the result once the match is over."""
        from rulelang.interpreter.log import header, result_line
        lines = [header(self.game, self.seed), *({"type": "action", **entry} for entry in self.record.actions)]
        if self.state.is_terminal():
            lines.append(result_line(self.state))
        return lines
