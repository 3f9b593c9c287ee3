"""The web table survives crashes exactly (issue 37): every step, chance included, is stored
before any seat is shown its result, and a restarted server resumes the state every seat saw.

A real server process is killed with SIGKILL during a deal of Zwanzigerrufen (a talon, and
knocking in the bidding): right after a seat was shown its view. The default run kills it at
every ``KILL_EVERY``-th step (8) and at the end (bidding, talon, exchange and tricks are each
reached); ``RULELANG_KILL_EVERY=1`` (benchmarks/soak_web_durable.py) kills it at every step. Then the store is
read as it was left: the table rebuilt from the steps stored up to the step that view showed
must show that seat exactly the same, and the restarted server must go on from there (what
the seat was told is kept, word for word).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from rulelang.web.lobby import load_for_table
from rulelang.web.store import DATABASE
from rulelang.web.tables import Table
from rulelang.web.views import seat_view

GAME = "zwanzigerrufen"
START_WAIT = 60.0        # a hang guard for the server to answer, not a speed check
CONNECTION = ("players",)  # who is online differs between two server processes
KILL_EVERY = int(os.environ.get("RULELANG_KILL_EVERY", "8"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """A ``rulelang serve`` process on a store folder."""

    def __init__(self, store: Path):
        self.store, self.port = store, free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulelang", "serve", "--port", str(self.port), "--store", str(store),
             "--bot-delay", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                self.call("GET", "/api/games")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {self.process.stderr.read()}") from None
                time.sleep(0.05)

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"content-type": "application/json",
                                                  **({"x-seat-token": token} if token else {})})
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process.stderr.close()


def without_connection(view: dict) -> dict:
    return {key: value for key, value in view.items() if key not in CONNECTION}


def stored_steps(store: Path, table_id: str) -> list[int]:
    """The steps of a table as the killed server left them in its store."""
    db = sqlite3.connect(store / DATABASE)
    try:
        return [a for (a,) in db.execute("select action from steps where table_id = ? order by n", (table_id,))]
    finally:
        db.close()


def rebuilt_view(store: Path, row: dict, steps: list[int], seat: int) -> dict:
    """What ``seat`` is shown by a table rebuilt from ``steps`` alone."""
    game = load_for_table(None, row["ref"], row["deals"])
    table = Table(row["id"], row["ref"], game, row["kinds"], row["tokens"], row["seed"], list(steps),
                  names=row["names"], deals=row["deals"])
    table.start()
    return json.loads(json.dumps(seat_view(table, seat), ensure_ascii=False))


def test_a_killed_server_resumes_every_step_of_a_deal_as_each_seat_saw_it(tmp_path):
    store = tmp_path / "store"
    server = Served(store)
    made = server.call("POST", "/api/tables", {"game": GAME, "seats": ["person"] * 4, "deals": 1, "seed": 5})
    table_id = made["table"]
    tokens = [row["link"].split("#", 1)[1] for row in made["seats"]]
    rng, steps_checked, kills = random.Random(3), 0, 0
    try:
        while True:
            seat = steps_checked % 4                     # a different seat looks each time
            shown = server.call("GET", f"/api/tables/{table_id}/view", token=tokens[seat])
            if steps_checked % KILL_EVERY == 0 or shown["result"] is not None:
                server = _kill_and_check(server, store, table_id, tokens[seat], seat, shown)
                kills += 1
            resumed = _quiet_view(server, table_id, tokens[seat])
            steps_checked += 1
            if resumed["result"] is not None:
                break
            actor = _actor(server, table_id, tokens)
            seen = server.call("GET", f"/api/tables/{table_id}/view", token=tokens[actor])
            choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
            server.call("POST", f"/api/tables/{table_id}/move", {"move": rng.choice(choices)}, token=tokens[actor])
    finally:
        if server.process.poll() is None:
            server.kill()
    assert steps_checked > 40 and kills >= steps_checked // KILL_EVERY


def _kill_and_check(server: Served, store: Path, table_id: str, token: str, seat: int, shown: dict) -> Served:
    """Kill the server right after ``seat`` was shown ``shown``; check the store and the restarted server."""
    server.kill()
    steps = stored_steps(store, table_id)
    assert len(steps) >= shown["step"], "a seat was shown a step that was not stored"
    row = _row(store, table_id, steps)
    again = rebuilt_view(store, row, steps[:shown["step"]], seat)
    assert without_connection(again) == without_connection(shown)
    server = Served(store)
    resumed = _quiet_view(server, table_id, token)
    assert _contains(resumed["talk"], shown["talk"][-20:]), "what the seat was told changed"
    return server


def _contains(lines: list[str], part: list[str]) -> bool:
    """Whether ``part`` is a run of consecutive lines of ``lines``."""
    return any(lines[i:i + len(part)] == part for i in range(len(lines) - len(part) + 1))


def _row(store: Path, table_id: str, steps: list[int]) -> dict:
    db = sqlite3.connect(store / DATABASE)
    try:
        ref, kinds, tokens, seed, deals, names = db.execute(
            "select ref, kinds, tokens, seed, deals, names from tables where id = ?", (table_id,)).fetchone()
    finally:
        db.close()
    return {"id": table_id, "ref": ref, "kinds": json.loads(kinds), "tokens": json.loads(tokens), "seed": seed,
            "deals": deals, "names": json.loads(names), "history": steps}


def _quiet_view(server: Served, table_id: str, token: str) -> dict:
    """The seat's view once chance has stopped moving (a person is to act, or the match is over)."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        seen = server.call("GET", f"/api/tables/{table_id}/view", token=token)
        if seen["result"] is not None or seen["waiting_for"] is not None or seen["your_turn"]:
            return seen
        time.sleep(0.02)
    raise AssertionError("chance did not stop moving")


def _actor(server: Served, table_id: str, tokens: list[str]) -> int:
    for seat, token in enumerate(tokens):
        if _quiet_view(server, table_id, token)["your_turn"]:
            return seat
    raise AssertionError("nobody is to act")
