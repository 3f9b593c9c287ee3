"""``rulelang play``: a person at the terminal in one seat, bots (heuristic by default) in the others.

Every action at the table is told as it happens, in the game's words, as far as the
person's seat may see it (:class:`~rulelang.interpreter.table.SeatNarrator`). At the
prompt the person types a card or a decision, or one of the commands: ``help``,
``hint`` (the search agent's move; ``--hint`` shows it before every move), ``hand`` (what the seat sees now), ``undo`` (take
back the last own move and the bots' moves after it), ``quit`` (save the match to a log and stop). ``rulelang play --resume
LOG`` continues a saved match. Bad input is answered with the reason and asked again.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from rulelang.cli.args import UsageError, open_output
from rulelang.interpreter.agents import SeededChance
from rulelang.interpreter.state import CHANCE

HINT_AGENT = "search:ms=500"      # who answers `hint`: determinized search, half a second a move

COMMANDS = {
    "help": "this list, and the moves you may make now",
    "hint": "the move the search agent would make in your seat (about half a second)",
    "hand": "your hand and what lies on the table",
    "undo": "take back your last move and the bots' moves after it",
    "quit": "save the match to a log and stop; `rulelang play --resume LOG` goes on from there",
}


@dataclass
class Table:
    """One match with a person in ``seat``: the state, its record, the bots and what the person is told."""

    game: object
    seat: int
    seed: int | None
    save_path: str
    tell: object
    ask: object
    state: object = None
    record: object = None
    narrator: object = None
    agents: list = field(default_factory=list)
    chance: object = None
    bots: str = "heuristic"
    hints: bool = False

    def start(self, history: list[int] = ()) -> None:
        """Set the table up at the start of the match, or after the moves of ``history``."""
        from rulelang.interpreter.record import MatchRecord
        from rulelang.interpreter.runner import make_agents
        from rulelang.interpreter.table import SeatNarrator
        self.state, self.record = self.game.new_initial_state(), MatchRecord(self.game)
        for action in history:
            self._apply(self.state.current_player(), action)
        salt = None if self.seed is None else self.seed + len(history)
        self.agents, self.chance = make_agents(self.game, self.bots, salt), SeededChance(salt)
        self.narrator = SeatNarrator(self.game, self.seat, self.record)
        if history:
            self.narrator.sync(self.state)

    def _apply(self, actor: int, action: int) -> None:
        self.record.before(self.state, actor, action)
        self.state.apply_action(action)
        self.record.after(self.state)

    def play(self) -> bool:
        """Play until the match is over (True) or the person quits (False)."""
        while not self.state.is_terminal():
            actor = self.state.current_player()
            if actor == self.seat:
                action = self.prompt()
                if action is None:
                    return False
            else:
                action = (self.chance if actor == CHANCE else self.agents[actor]).step(self.state)
            self.say(self.narrator.before(self.state, actor, action))
            self._apply(actor, action)
            self.say(self.narrator.after(self.state))
        return True

    def say(self, lines: list[str]) -> None:
        """Show lines to the person."""
        for line in lines:
            self.tell(line)

    def prompt(self) -> int | None:
        """Read the person's move; commands are carried out on the way. None when the person quits."""
        from rulelang.interpreter.agents import describe_view
        self.tell(describe_view(self.state, self.seat))
        if self.hints and len(self.state.legal_actions()) > 1:
            self.tell(self.hint())
        while True:
            legal = self.state.legal_actions()
            names = [self.state.action_to_string(a) for a in legal]
            try:
                text = self.ask(f"{self.game.seat_name(self.seat)}, your move ({', '.join(names)}): ").strip()
            except EOFError:
                self.save()
                return None
            command = text.casefold()
            if command in ("help", "?"):
                self.tell(self.help_text(legal, names))
            elif command == "hand":
                self.tell(describe_view(self.state, self.seat))
            elif command == "hint":
                self.tell(self.hint())
            elif command == "undo":
                self.undo()
                if self.state.current_player() != self.seat:
                    return self.prompt()
            elif command == "quit":
                if self.save():
                    return None
            else:
                action = self.parse(text, legal, names)
                if action is not None:
                    return action

    def hint(self) -> str:
        """What the search agent would do in the person's seat, in the game's words (it sees what the seat sees)."""
        from rulelang.interpreter.agents import make_agent
        from rulelang.interpreter.words import action_words
        action = make_agent(HINT_AGENT, len(self.state.history)).step(self.state)
        words = action_words(self.state, self.seat, action)
        name = self.state.action_to_string(action)
        return f"hint: {name}" + (f" ({words})" if words and name not in words.split() else "")

    def help_text(self, legal: list[int], names: list[str]) -> str:
        """The commands, then each move allowed now with what it means in the game's words."""
        from rulelang.interpreter.words import action_words
        lines = [f"  {name:5} {what}" for name, what in COMMANDS.items()]
        lines.append("  or type a move:")
        for action, name in zip(legal, names):
            words = action_words(self.state, self.seat, action)
            lines.append(f"    {name}" + (f"  ({words})" if words and name not in words.split() else ""))
        return "\n".join(lines)

    def parse(self, text: str, legal: list[int], names: list[str]) -> int | None:
        """The legal action ``text`` names, or None after telling the person why it is not one."""
        if not text:
            self.tell("type a move, or help")
            return None
        action = self.state.string_to_action(text)
        if action is None:
            self.tell(f"'{text}' is no card or decision of this game; type one of: {', '.join(names)}, or help")
        elif action not in legal:
            self.tell(self.state.explain_illegal(action).render())
        else:
            return action
        return None

    def undo(self) -> None:
        """Take back the person's last move and every move after it."""
        mine = self.game.seat_name(self.seat)
        moves = [i for i, entry in enumerate(self.record.actions) if entry["seat"] == mine]
        if not moves:
            self.tell("nothing to undo: you have not moved yet")
            return
        last = moves[-1]
        taken = self.record.actions[last]["action"]
        others = len(self.record.actions) - last - 1
        self.start(self.state.history[:last])
        self.tell(f"took back your {taken}" + (f" and the {others} move(s) after it" if others else ""))

    def save(self) -> bool:
        """Write the match so far as a log that ``play --resume`` continues; False (and why) if it cannot be."""
        from rulelang.interpreter.log import header, write_lines
        first = header(self.game, self.seed, self.save_path)
        first["play"] = {"seat": self.game.seat_name(self.seat)}
        lines = [first, *({"type": "action", **entry} for entry in self.record.actions)]
        try:
            with open_output(self.save_path) as out:
                write_lines(out, lines)
        except UsageError as exc:
            self.tell(f"{exc}; the match goes on (start again with --save FILE to save elsewhere)")
            return False
        self.tell(f"saved to {self.save_path}; go on with: rulelang play --resume {self.save_path}")
        return True


def play_command(ref: str | None, seat_number: int | None, seed: int | None, deals: int | None,
                 resume: str | None = None, save: str | None = None, agents: str | None = None,
                 hints: bool = False) -> int:
    """Play ``ref`` (or the match saved in ``resume``) at the terminal; 0 when the match ends or is saved.
    With ``hints`` the search agent's move is shown before each of the person's moves."""
    from rulelang.interpreter.narrate import narrate_match
    game, history, seat_number, seed = _setup(ref, seat_number, seed, deals, resume)
    if not 1 <= seat_number <= game.num_players:
        raise UsageError(f"--seat {seat_number}: {game.definition.title} has seats 1 to {game.num_players}")
    table = Table(game, seat_number - 1, seed, save or resume or f"{game.name}-seat{seat_number}.jsonl",
                  _tell, _ask, bots=agents or "heuristic", hints=hints)
    table.start(history)
    _tell(f"{game.definition.title}: you are {game.seat_name(table.seat)}. Type help for the commands.")
    if not table.play():
        return 0
    summary = table.record.summary(table.state)
    _tell(narrate_match(summary, "")[-1])
    if table.state.stopped is not None:
        sys.stderr.write(table.state.stopped.render() + "\n")
        return 1
    return 0


def _setup(ref, seat_number, seed, deals, resume):
    """The game, the moves made so far, the person's seat number and the seed: new, or from a saved log."""
    from rulelang.loader import load_game
    if resume is None:
        if ref is None:
            raise UsageError("name a GAME to play, or --resume LOG")
        return load_game(ref, max_deals=deals), [], seat_number or 1, seed
    from rulelang.interpreter.log import game_for_log, read_log
    from rulelang.interpreter.replay import replay
    log = read_log(resume)
    game = game_for_log(log, ref)
    outcome = replay(log, game)
    if outcome.problem is not None:
        from rulelang.diagnostics import RuleError
        raise RuleError([outcome.problem])
    if outcome.state.is_terminal():
        raise UsageError(f"the match saved in {resume} is over")
    saved_seat = (log.header.get("play") or {}).get("seat") if isinstance(log.header.get("play"), dict) else None
    number = seat_number or (int(saved_seat[1:]) if isinstance(saved_seat, str) and saved_seat[1:].isdigit() else 1)
    saved_seed = log.header.get("seed")
    return game, list(outcome.state.history), number, seed if seed is not None else \
        (saved_seed if isinstance(saved_seed, int) and not isinstance(saved_seed, bool) else None)


def _tell(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _ask(prompt: str) -> str:
    return input(prompt)
