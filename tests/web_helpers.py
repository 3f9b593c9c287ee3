"""Driving the web server in tests: a table made through the API, people's moves, every message a seat gets."""

from __future__ import annotations

import json
import random
import threading
import time

from rulelang.loader import load_game

WAIT = 60.0


def make_table(client, game: str, seats: list[str], deals: int | None = 1, seed: int = 1) -> dict:
    """Create a table, its cards shuffled from ``seed``; ``{"id", "tokens": {seat index: token}, "reply"}``."""
    reply = client.post("/api/tables", json={"game": game, "seats": seats, "deals": deals, "seed": seed})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    tokens = {s: row["link"].split("#", 1)[1] for s, row in enumerate(data["seats"]) if row["link"]}
    return {"id": data["table"], "tokens": tokens, "reply": data}


def view(client, table: dict, seat: int) -> dict:
    """The seat's view now."""
    reply = client.get(f"/api/tables/{table['id']}/view", headers={"x-seat-token": table["tokens"][seat]})
    assert reply.status_code == 200, reply.text
    return reply.json()


def move(client, table: dict, seat: int, text: str):
    """Send a seat's move; the raw reply."""
    return client.post(f"/api/tables/{table['id']}/move", json={"move": text},
                       headers={"x-seat-token": table["tokens"][seat]})


def whose_turn(client, table: dict) -> tuple[int | None, dict]:
    """Wait until a person is to act (their seat and view) or the match is over (None and a view)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for seat in table["tokens"]:
            seen = view(client, table, seat)
            if seen["result"] is not None:
                return None, seen
            if seen["your_turn"]:
                return seat, seen
        time.sleep(0.01)
    raise AssertionError("no person came to act and the match did not end")


def whose_turn_or_failure(client, table: dict):
    """A person to act and their view, or (None, the view) of a table a failing rule stopped."""
    for _ in range(2000):                      # a hang guard: a person comes to act or the table stops
        seen = view(client, table, 0)
        if seen["failure"]:
            return None, seen
        for seat in table["tokens"]:
            seen = view(client, table, seat)
            if seen["your_turn"]:
                return seat, seen
        time.sleep(0.01)
    raise AssertionError("nobody came to act")


def play_until_failure(client, table: dict, moves: int = 200) -> dict | None:
    """Play each person's first move until a rule stops the table: the view showing the failure, or None."""
    for _ in range(moves):
        seat, seen = whose_turn_or_failure(client, table)
        if seen["failure"]:
            return seen
        choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
        move(client, table, seat, choices[0])
    return None


def play_people(client, table: dict, seed: int, on_view=None) -> dict:
    """The people play random legal moves from their views until the match ends; the last view."""
    rng = random.Random(seed)
    while True:
        seat, seen = whose_turn(client, table)
        if seat is None:
            return seen
        if on_view is not None:
            on_view(seat, seen)
        choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
        reply = move(client, table, seat, rng.choice(choices))
        assert reply.status_code == 200, reply.text


class Listener:
    """Every message the server sends one seat over its WebSocket, collected in a thread."""

    def __init__(self, client, table: dict, seat: int):
        self.messages: list[dict] = []
        self.socket = client.websocket_connect(f"/ws/{table['id']}").__enter__()
        self.socket.send_text(json.dumps({"token": table["tokens"][seat]}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(self.socket.receive_text()))
        except Exception:   # the socket closed: the test is over
            return

    def close(self) -> None:
        """Stop listening: the session ends, and the reading thread with it."""
        self.socket.__exit__(None, None, None)
        self.thread.join(timeout=5)


def hidden_cards_by_step(game_ref: str, history: list[int], seat: int, deals: int | None = 1) -> list[set[str]]:
    """For each step of ``history``: the names of the cards other seats hold then, hidden from ``seat``.

    A card called for a partner was said aloud: its name is no secret from then on, even after a
    higher bid cancels the call."""
    game = load_game(game_ref, max_deals=deals)
    state = game.new_initial_state()
    found, said = [], set()
    for action in [*history, None]:
        hidden = set()
        public = set()
        for construct in game.parts:
            for mask in (construct.public_holdings(state) or {}).values():
                public |= {game.deck.cards[c].name for c in range(game.num_cards) if mask >> c & 1}
        if state.called is not None and state.called >= 0:
            said.add(game.deck.cards[state.called].name)
        for other in range(game.num_players):
            if other != seat:
                hidden |= {game.deck.cards[c].name for c in state.hand_cards(other)}
        hidden -= public | said
        found.append(hidden)
        if action is not None:
            state.apply_action(action)
    return found


def names_in(value) -> set[str]:
    """Every string in a JSON value, and every word of every string (card names appear in sentences)."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= names_in(key) | names_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= names_in(item)
    elif isinstance(value, str):
        found.add(value)
        found |= {word.strip(",.;:()[]") for word in value.split()}
    return found
