"""The web table (``rulelang serve``) through its HTTP and WebSocket API, in process.

People's seats are driven through the API as a browser would; agents move in the
server's background task. Hidden information: every message a seat gets over a whole
match is checked against the hands the other seats hold at that step.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from rulelang.read.files import shipped_list  # noqa: E402
from rulelang.interpreter.log import parse_line  # noqa: E402
from rulelang.web.app import create_app  # noqa: E402
from web_helpers import (Listener, hidden_cards_by_step, make_table, move, names_in, play_people,  # noqa: E402
                         play_until_failure, view, whose_turn)

WEB = Path(__file__).resolve().parent.parent / "rulelang" / "web"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "store"), bot_delay=0)) as test_client:
        test_client.headers["x-owner-token"] = "the-uploader-of-these-tests"     # whose uploads these are
        yield test_client


# ---------------------------------------------------------------------- the lobby
def test_lobby_lists_every_shipped_game_with_players_and_summary(client):
    games = client.get("/api/games").json()["games"]
    by_ref = {g["ref"]: g for g in games}
    assert set(by_ref) == {g["name"] for g in shipped_list()}
    assert by_ref["zwanzigerrufen"]["title"] == "Zwanzigerrufen" and by_ref["zwanzigerrufen"]["players"] == 4
    assert "tarocks" in by_ref["zwanzigerrufen"]["summary"]
    assert by_ref["zwanzig-ab-pagat"]["extends"] == "zwanzig-ab"
    page = client.get("/")
    assert page.status_code == 200 and "<h1>rulelang" in page.text


def test_upload_of_a_variant_is_checked_kept_and_playable(client):
    text = "game: my-zwanzig\ntitle: Hearts count four\nextends: zwanzig-ab\nparams:\n  hearts_factor: 4\n"
    reply = client.post("/api/rules", json={"name": "my-zwanzig.yaml", "text": text})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["ok"] and data["title"] == "Hearts count four" and data["players"] == 4
    assert data["ref"] in {u["ref"] for u in client.get("/api/games").json()["uploads"]}
    table = make_table(client, data["ref"], ["person", "random", "random", "random"])
    assert play_people(client, table, seed=3)["result"] is not None


def test_upload_with_errors_shows_line_column_caret_and_hint_under_its_own_name(client):
    text = "game: broken\ntitle: Broken\nextends: zwanzig-ab\nparams:\n  hearts_factr: 4\n"
    reply = client.post("/api/rules", json={"name": "broken.yaml", "text": text})
    assert reply.status_code == 422
    first = reply.json()["diagnostics"][0]
    assert (first["path"], first["line"]) == ("broken.yaml", 5) and first["column"] >= 3
    assert first["hint"] and "^" in first["text"] and "hearts_factr" in first["text"]
    assert "upload-" not in json.dumps(reply.json())
    assert reply.json()["ref"] is None
    assert client.get("/api/games").json()["uploads"] == []


@pytest.mark.parametrize("name, text, code", [
    ("big.yaml", "game: big\n" + "# padding\n" * 120_000, "S120"),
    ("bomb.yaml", "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(12)), "Y"),
    ("deep.yaml", "game: deep\nx: " + "[" * 5000 + "]" * 5000 + "\n", "Y"),
    ("reach.yaml", "game: reach\ntitle: Reach\nextends: /etc/passwd\n", "R31"),
])
def test_hostile_uploads_get_diagnostics_never_a_crash(client, name, text, code):
    reply = client.post("/api/rules", json={"name": name, "text": text})
    assert reply.status_code in (413, 422), reply.text
    if reply.status_code == 422:
        codes = [d["code"] for d in reply.json()["diagnostics"]]
        assert any(c.startswith(code) for c in codes), codes


@pytest.mark.parametrize("body, status, words", [
    ({"name": "../../etc/x.yaml", "text": "game: x"}, 400, "name the file"),
    ({"name": "x.py", "text": "game: x"}, 400, "name the file"),
    ({"text": "game: x"}, 400, "send the file"),
])
def test_bad_upload_requests_are_refused_in_words(client, body, status, words):
    reply = client.post("/api/rules", json=body)
    assert reply.status_code == status and words in reply.json()["error"]


def test_requests_that_are_not_json_or_too_large_are_refused(client):
    assert client.post("/api/tables", content=b"{not json").status_code == 400
    assert client.post("/api/tables", content=b"[1, 2]").status_code == 400
    assert client.post("/api/tables", content=b"x" * (3 << 20)).status_code == 413


@pytest.mark.parametrize("body, words", [
    ({"game": "no-such-game", "seats": ["person"] * 4}, "no shipped game"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 3}, "each of the 4 seats"),
    ({"game": "zwanzig-ab", "seats": ["random"] * 4}, "at least one seat must be a person"),
    ({"game": "zwanzig-ab", "seats": ["person", "openspiel-ismcts", "random", "random"]}, "a person or one of"),
    ({"game": "zwanzig-ab", "seats": ["person", "search:ms=0", "random", "random"]}, "not a valid ms"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "deals": 0}, "number of deals"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "seed": -1}, "the seed is"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "seed": "x"}, "the seed is"),
    ({"game": "upload:upload-x.yaml", "seats": ["person"] * 4}, "no uploaded rule file"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "names": ["Anna"]}, "one name for each"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "names": ["x" * 31, "", "", ""]}, "at most 30"),
    ({"game": "zwanzig-ab", "seats": ["person"] * 4, "names": ["a\u0007b", "", "", ""]}, "printable"),
])
def test_bad_new_table_requests_say_what_is_wrong(client, body, words):
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400 and words in reply.json()["error"], reply.text


# ---------------------------------------------------------------------- seats and moves
def test_a_seat_link_opens_its_own_seat_only(client):
    table = make_table(client, "zwanzig-ab", ["person", "heuristic", "person", "heuristic"])
    seat, seen = whose_turn(client, table)
    other = 2 if seat == 0 else 0
    before = view(client, table, seat)["step"]
    choice = (seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]])[0]
    reply = move(client, table, other, choice)
    assert reply.status_code == 409 and reply.json()["code"] == "E532"
    assert f"P{seat + 1}'s turn, not P{other + 1}'s" in reply.json()["error"]
    assert view(client, table, seat)["step"] == before
    forged = {"x-seat-token": table["tokens"][seat][:-2] + "xx"}
    assert client.get(f"/api/tables/{table['id']}/view", headers=forged).status_code == 403
    assert client.post(f"/api/tables/{table['id']}/move", json={"move": choice}, headers=forged).status_code == 403
    assert client.get(f"/api/tables/{table['id']}/view").status_code == 403
    assert client.get("/api/tables/nosuchtable/view", headers=forged).status_code == 404
    with client.websocket_connect(f"/ws/{table['id']}") as socket:
        socket.send_text(json.dumps({"token": "guess"}))
        with pytest.raises(Exception):
            socket.receive_text()


def test_people_are_named_and_shown_at_the_table_while_their_page_is_open(client):
    reply = client.post("/api/tables", json={"game": "zwanzig-ab", "seats": ["person", "random", "person", "random"],
                                             "names": ["  Anna   Maria ", "", "Bert", ""], "seed": 1})
    assert [s["name"] for s in reply.json()["seats"]] == ["Anna Maria", "", "Bert", ""]
    table = {"id": reply.json()["table"], "tokens": {s: row["link"].split("#")[1] for s, row in
                                                     enumerate(reply.json()["seats"]) if row["link"]}}
    rows = view(client, table, 0)["players"]
    assert [(r["name"], r["online"]) for r in rows] == [("Anna Maria", False), ("", False), ("Bert", False), ("", False)]
    listener = Listener(client, table, 2)
    try:
        for _ in range(200):
            if view(client, table, 0)["players"][2]["online"]:
                break
            import time
            time.sleep(0.01)
        assert view(client, table, 0)["players"][2]["online"]
    finally:
        listener.close()


def test_a_hint_is_a_legal_move_of_the_seat_to_act_only(client):
    table = make_table(client, "zwanzig-ab", ["person", "random", "person", "random"])
    seat, seen = whose_turn(client, table)
    other = 2 if seat == 0 else 0
    reply = client.get(f"/api/tables/{table['id']}/hint", headers={"x-seat-token": table["tokens"][seat]})
    choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
    assert reply.status_code == 200 and reply.json()["move"] in choices
    refused = client.get(f"/api/tables/{table['id']}/hint", headers={"x-seat-token": table["tokens"][other]})
    assert refused.status_code == 409 and "your turn" in refused.json()["error"]


def test_illegal_and_unknown_moves_get_the_engines_reason_and_change_nothing(client):
    table = make_table(client, "zwanzigerrufen", ["person", "random", "random", "random"])
    while True:
        seat, seen = whose_turn(client, table)
        assert seat is not None
        if seen["phase"] == "tricks" and len(seen["moves"]["cards"]) < len(seen["hand"]):
            break
        choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
        assert move(client, table, seat, choices[-1]).status_code == 200
    refused = next(c["card"] for c in seen["hand"] if c["card"] not in seen["moves"]["cards"])
    reply = move(client, table, seat, refused)
    assert reply.status_code == 409 and reply.json()["code"].startswith("E50")
    assert refused in reply.json()["error"] and "hint:" in reply.json()["error"]
    assert reply.json()["error"].startswith("zwanzigerrufen.yaml:") and reply.json()["path"] == "zwanzigerrufen.yaml"
    unknown = move(client, table, seat, "joker")
    assert unknown.status_code == 409 and unknown.json()["code"] == "E533"
    not_held = next(name for name in ("Sküs", "XXI", "I", "K♥") if name not in {c["card"] for c in seen["hand"]})
    assert move(client, table, seat, not_held).status_code == 409
    assert move(client, table, seat, "x" * 500).status_code == 400
    assert view(client, table, seat)["step"] == seen["step"]


def test_decisions_are_buttons_with_the_games_titles(client):
    table = make_table(client, "zwanzigerrufen", ["person"] * 4)
    labels = set()
    def note(seat, seen):
        labels.update(d["label"] for d in seen["moves"]["decisions"])
        assert all("_" not in d["label"] for d in seen["moves"]["decisions"])
    play_people(client, table, seed=5, on_view=note)
    assert {"Solo", "Kontra on Game"} <= labels or "Pagat Ultimo (dazu)" in labels, labels


def test_the_declarer_is_offered_the_exposed_dummys_cards_when_the_dummy_is_to_play(client):
    table = make_table(client, "bridge", ["person"] * 4)
    offered = []
    def note(seat, seen):
        own = {c["card"] for c in seen["hand"]}
        extra = {c["card"] for c in seen["played_for"]}
        assert extra == set(seen["moves"]["cards"]) - own
        if extra:
            offered.append(extra <= set(seen["observation"].get("dummy_hand", [])))
    play_people(client, table, seed=6, on_view=note)
    assert offered and all(offered)


# ---------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("game, seed", [("zwanzig-ab", 1), ("zwanzigerrufen", 2)])
def test_nothing_sent_to_a_seat_names_a_card_another_seat_holds(client, game, seed):
    table = make_table(client, game, ["person", "heuristic", "person", "random"])
    listeners = {seat: Listener(client, table, seat) for seat in table["tokens"]}
    replies = {seat: [] for seat in table["tokens"]}
    last = play_people(client, table, seed, on_view=lambda seat, seen: replies[seat].append(seen))
    history = client.app.state.server.tables[table["id"]].history
    for listener in listeners.values():
        listener.close()
    for seat, listener in listeners.items():
        hidden = hidden_cards_by_step(game, history, seat)
        sent = listener.messages + replies[seat]
        assert len(listener.messages) > 20
        for message in sent:
            leaked = names_in(message) & hidden[message["step"]]
            assert not leaked, f"step {message['step']}: P{seat + 1} was sent {leaked} in {message}"
    assert last["result"] is not None and last["deals"]


def test_the_finished_match_downloads_as_a_log_that_replays(client, tmp_path):
    from rulelang.interpreter.log import read_log
    from rulelang.interpreter.replay import replay
    from rulelang.loader import load_game
    table = make_table(client, "zwanzigerrufen", ["person", "heuristic", "random", "person"])
    early = client.get(f"/api/tables/{table['id']}/log", headers={"x-seat-token": table["tokens"][0]})
    assert early.status_code == 409
    play_people(client, table, seed=4)
    reply = client.get(f"/api/tables/{table['id']}/log", headers={"x-seat-token": table["tokens"][3]})
    assert reply.status_code == 200 and "attachment" in reply.headers["content-disposition"]
    lines = [parse_line(raw, "log", n) for n, raw in enumerate(reply.text.splitlines(), 1)]
    assert lines[0]["format"] == "rulelang-log/1" and lines[-1]["type"] == "result"
    path = tmp_path / "table.jsonl"
    path.write_text(reply.text, encoding="utf-8")
    outcome = replay(read_log(str(path)), load_game("zwanzigerrufen", max_deals=1))
    assert outcome.ok, outcome.problem


def test_after_the_match_the_same_people_play_again_at_a_new_table_with_new_links(client):
    reply = client.post("/api/tables", json={"game": "zwanzig-ab", "seats": ["person", "random", "person", "heuristic"],
                                             "names": ["Anna", "", "Bert", ""], "deals": 1, "seed": 4})
    table = {"id": reply.json()["table"], "tokens": {s: row["link"].split("#")[1] for s, row in
                                                     enumerate(reply.json()["seats"]) if row["link"]}}
    again = f"/api/tables/{table['id']}/again"
    assert client.post(again, headers={"x-seat-token": table["tokens"][0]}).status_code == 409
    play_people(client, table, seed=2)
    first = client.post(again, headers={"x-seat-token": table["tokens"][0]}).json()
    second = client.post(again, headers={"x-seat-token": table["tokens"][2]}).json()
    assert first["table"] == second["table"] != table["id"]
    new = {"id": first["table"], "tokens": {0: first["link"].split("#")[1], 2: second["link"].split("#")[1]}}
    assert set(new["tokens"].values()).isdisjoint(table["tokens"].values())
    rows = view(client, new, 2)["players"]
    assert [(r["kind"], r["name"]) for r in rows] == [("person", "Anna"), ("random", ""), ("person", "Bert"),
                                                      ("heuristic", "")]
    assert view(client, table, 0)["again"] is True
    old_token = {"x-seat-token": table["tokens"][0]}
    assert client.get(f"/api/tables/{new['id']}/view", headers=old_token).status_code == 403
    assert play_people(client, new, seed=3)["result"] is not None


# ---------------------------------------------------------------------- restart
def test_a_table_made_with_a_seed_deals_the_same_cards_and_its_log_says_so(client):
    first = make_table(client, "zwanzigerrufen", ["person", "random", "random", "random"], seed=77)
    second = make_table(client, "zwanzigerrufen", ["person", "random", "random", "random"], seed=77)
    _, one = whose_turn(client, first)
    _, two = whose_turn(client, second)
    assert one["hand"] == two["hand"] and one["step"] == two["step"]


def test_a_restarted_server_resumes_its_tables_where_they_stood(tmp_path):
    folder = str(tmp_path / "store")
    with TestClient(create_app(folder, bot_delay=0)) as first:
        table = make_table(first, "zwanzig-ab", ["person", "heuristic", "person", "heuristic"])
        for _ in range(3):
            seat, seen = whose_turn(first, table)
            choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
            assert move(first, table, seat, choices[0]).status_code == 200
        seat, before = whose_turn(first, table)
    with TestClient(create_app(folder, bot_delay=0)) as second:
        after = view(second, table, seat)
        assert (after["step"], after["hand"], after["talk"]) == (before["step"], before["hand"], before["talk"])
        assert after["your_turn"]
        assert play_people(second, table, seed=9)["result"] is not None


# ---------------------------------------------------------------------- any game
@pytest.mark.parametrize("game", [g["name"] for g in shipped_list()])
def test_every_shipped_game_plays_a_deal_at_the_table(client, game):
    players = next(g["players"] for g in shipped_list() if g["name"] == game)
    table = make_table(client, game, ["person"] + ["random"] * (players - 1))
    last = play_people(client, table, seed=1)
    assert last["result"] is not None and last["observation"]["seat"] == "P1"
    assert all(card["rank"] for card in last["hand"])


def test_no_game_is_named_in_the_web_code():
    text = "\n".join(p.read_text(encoding="utf-8").casefold() for p in WEB.rglob("*") if p.is_file()
                     and p.suffix in (".py", ".js", ".html", ".css"))
    names = {g["name"] for g in shipped_list()} | {g["title"].casefold() for g in shipped_list()}
    plain_words = {"three", "points", "omnibus", "broken", "exact", "german", "first", "strict", "called", "french",
                   "whist", "clockwise"}      # inside drawHistory; the direction of play
    suits = {"hearts", "spades"}   # suit names as well as games' names: the page colours suits by name
    words = {part for name in names for part in name.split("-") if len(part) > 4} - plain_words - suits
    found = sorted(word for word in words if word in text)
    assert not found, found


# ---------------------------------------------------------------------- the command
def test_rulelang_serve_prints_its_url_and_serves_the_lobby(tmp_path):
    import socket
    import subprocess
    import sys
    import urllib.request
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "rulelang", "serve", "--port", str(port), "--store", str(tmp_path / "s")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as reply:
                    assert len(json.loads(reply.read())["games"]) == len(shipped_list())
                break
            except OSError:
                import time
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        assert (tmp_path / "s" / "tables.sqlite").is_file()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_rule_that_fails_in_play_stops_the_table_with_its_diagnostic(client):
    base = (Path(__file__).parent / "invalid" / "fixtures" / "base.yaml").read_text(encoding="utf-8")
    text = base.replace('add: "0 - tricks(player)"', 'add: "10 / (tricks(player) - tricks(player))"')
    upload = client.post("/api/rules", json={"name": "fails.yaml", "text": text})
    assert upload.status_code == 200, upload.text
    table = make_table(client, upload.json()["ref"], ["person", "random", "random", "random"])
    failed = play_until_failure(client, table)
    assert failed is not None and failed["failure"].startswith("fails.yaml:") and "error[E553]" in failed["failure"]
    assert str(client.app.state.server.store.rules) not in failed["failure"]
    stopped = move(client, table, 0, "pass")
    assert stopped.status_code == 409 and stopped.json()["code"] == "E553"


