"""``rulelang play`` end to end through a pseudo-terminal: narration as it happens, commands, save and resume.

Each test starts the real command in a child process whose standard input and output are
a pseudo-terminal, reads up to each prompt and types at it, as a person would.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game

PROMPT = re.compile(r"P\d, your move \(([^)]*)\): ")
TIMEOUT = 30


class Terminal:
    """A child ``rulelang`` process on a pseudo-terminal: ``expect`` reads up to a pattern, ``send`` types a line."""

    def __init__(self, *args: str, cwd: Path):
        master, slave = pty.openpty()
        env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "rulelang", *args], stdin=slave, stdout=slave,
                                        stderr=slave, cwd=cwd, env=env, close_fds=True)
        os.close(slave)
        self.master, self.text, self.seen = master, "", 0

    def expect(self, pattern: re.Pattern | str) -> re.Match:
        """Read until ``pattern`` appears after what was already matched; the match."""
        pattern = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = pattern.search(self.text, self.seen)
            if found:
                self.seen = found.end()
                return found
            if time.monotonic() > deadline or not self._read(deadline):
                raise AssertionError(f"never saw {pattern.pattern!r}; the screen ends:\n{self.text[-1500:]}")

    def _read(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            return False
        self.text += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return bool(chunk)

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, (line + "\n").encode("utf-8"))

    def finish(self) -> int:
        """Read what is left and wait for the process; its exit status."""
        deadline = time.monotonic() + TIMEOUT
        while self._read(deadline):
            pass
        code = self.process.wait(timeout=TIMEOUT)
        os.close(self.master)
        return code


@pytest.fixture
def terminals():
    """Terminals started by a test; any still running at its end is killed."""
    started: list[Terminal] = []
    yield started
    for terminal in started:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()


def start(terminals, tmp_path, *args) -> Terminal:
    terminal = Terminal("play", *args, cwd=tmp_path)
    terminals.append(terminal)
    return terminal


def first_legal(terminal: Terminal) -> str:
    """The first move offered at the next prompt."""
    return terminal.expect(PROMPT).group(1).split(", ")[0]


def test_the_bots_moves_are_told_as_they_happen_in_the_games_words(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzigerrufen", "--seed", "5", "--seat", "1", "--deals", "1", "--agents", "random")
    t.expect("Zwanzigerrufen: you are P1.")
    t.expect("Deal 1: P3 deals, P4 leads off")
    t.expect("P4 bids Call (normal game)")
    t.expect("contract: Call (normal game) by P4, calling XX")
    before_prompt = t.text[:t.expect(PROMPT).start()]
    assert not re.search(r"\b(call|suit_solo|\w+_dazu|\w+_dagegen|kontra_\w+)\b", before_prompt)
    assert "['P" not in before_prompt
    t.send("weiter")
    t.expect("P1 (you) passes (weiter)")
    t.expect("P3 announces Pagat Ultimo against the declarers (dagegen)")
    t.send("quit")
    t.expect("saved to zwanzigerrufen-seat1.jsonl")
    assert t.finish() == 0


def test_nothing_of_another_seats_hand_is_shown_before_it_is_played(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "11", "--seat", "3", "--save", "g.jsonl")
    t.expect(PROMPT)
    t.send("quit")
    t.expect("saved to g.jsonl")
    assert t.finish() == 0
    log = read_log(str(tmp_path / "g.jsonl"))
    state = replay(log, load_game("zwanzig-ab")).state
    others = {card for seat in (0, 1, 3) for card in state.game.deck.names(state.hands[seat])}
    shown = set(re.findall(r"(?<!\S)(?:10|[AKQJ987])[♣♠♥♦](?!\S)", t.text))
    assert others and not shown & others


def test_bad_input_is_answered_with_a_reason_and_asked_again(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "2", "--seat", "2")
    offered = t.expect(PROMPT).group(1).split(", ")
    t.send("banana")
    t.expect("'banana' is no card or decision of this game; type one of:")
    t.expect(PROMPT)
    t.send("")
    t.expect("type a move, or help")
    t.send("help")
    t.expect("undo  take back your last move")
    assert t.expect(PROMPT).group(1).split(", ") == offered
    t.send("quit")
    assert t.finish() == 0


def test_undo_takes_back_the_last_own_move(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "4", "--seat", "1", "--save", "u.jsonl")
    t.send("undo")
    t.expect("nothing to undo: you have not moved yet")
    move = first_legal(t)
    t.send(move)
    t.expect(PROMPT)
    t.send("undo")
    t.expect(f"took back your {move}")
    assert first_legal(t) == move
    t.send("quit")
    assert t.finish() == 0


def test_quit_saves_a_log_that_resume_continues_from_the_same_place(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "8", "--seat", "2", "--save", "s.jsonl")
    first_legal(t)
    t.send("done")
    offered = t.expect(PROMPT).group(1)
    t.send("quit")
    assert t.finish() == 0
    header = json.loads((tmp_path / "s.jsonl").read_text(encoding="utf-8").split("\n")[0])
    assert header["play"] == {"seat": "P2"} and header["seed"] == 8
    again = start(terminals, tmp_path, "--resume", "s.jsonl")
    again.expect("Zwanzig ab: you are P2.")
    assert again.expect(PROMPT).group(1) == offered
    again.send("quit")
    assert again.finish() == 0


def test_a_whole_deal_played_to_the_end_tells_the_items_and_the_score(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "6", "--seat", "4", "--deals", "1")
    while True:
        found = t.expect(re.compile(PROMPT.pattern + "|Stopped after 1 deal"))
        if found.group(0).startswith("Stopped"):
            break
        t.send(found.group(1).split(", ")[0])
    assert "Deal 1 is over." in t.text and "  score: " in t.text and "takes trick 1" in t.text
    assert t.finish() == 0


@pytest.mark.parametrize("option, value, message", [
    ("--seat", "5", "--seat 5: Zwanzig ab has seats 1 to 4"),
    ("--agents", "clever", "no agent called 'clever'; the agents are random, heuristic, search"),
])
def test_a_seat_outside_the_table_or_an_unknown_agent_is_a_usage_error(terminals, tmp_path, option, value, message):
    t = start(terminals, tmp_path, "zwanzig-ab", option, value)
    t.expect(message)
    assert t.finish() == 2


def test_the_bots_are_heuristic_players_and_hint_says_what_the_search_agent_would_do(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "9", "--seat", "1")
    offered = t.expect(PROMPT).group(1).split(", ")
    t.send("hint")
    hinted = t.expect(re.compile(r"hint: (\S+)")).group(1)
    assert hinted in offered
    t.send("quit")
    assert t.finish() == 0


def test_play_hint_shows_the_search_agents_move_before_each_of_the_persons_moves(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "9", "--seat", "1", "--hint")
    for _ in range(2):
        hinted = t.expect(re.compile(r"hint: (\S+)")).group(1)
        offered = t.expect(PROMPT).group(1).split(", ")
        assert hinted in offered
        t.send(hinted)
    t.send("quit")
    assert t.finish() == 0




def test_quit_to_an_unwritable_place_says_so_and_the_match_goes_on(terminals, tmp_path):
    t = start(terminals, tmp_path, "zwanzig-ab", "--seed", "3", "--save", str(tmp_path / "no" / "such" / "s.jsonl"))
    offered = t.expect(PROMPT).group(1)
    t.send("quit")
    t.expect("cannot write")
    t.expect("the match goes on")
    assert t.expect(PROMPT).group(1) == offered
    t.send("undo")
    t.expect("nothing to undo")
    t.process.kill()
