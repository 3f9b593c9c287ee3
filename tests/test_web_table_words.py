"""The web table speaks to people (issue 41): a refused card in plain words with the rule behind "why", names
the people gave everywhere, the winner and the final standings, the deal panel after the last deal, what a
phase's buttons do, and uploads private to their uploader until published."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from rulelang.web.app import create_app  # noqa: E402
from web_helpers import move, view, whose_turn  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
VARIANT = "game: my-zwanzig\ntitle: Hearts count four\nextends: zwanzig-ab\nparams:\n  hearts_factor: 4\n"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "store"), bot_delay=0)) as test_client:
        yield test_client


def named_table(client, game: str, seats: list[str], names: list[str], seed: int = 1) -> dict:
    reply = client.post("/api/tables", json={"game": game, "seats": seats, "names": names, "deals": 1, "seed": seed})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    return {"id": data["table"], "tokens": {s: row["link"].split("#", 1)[1] for s, row in enumerate(data["seats"])
                                            if row["link"]}}


def test_a_refused_card_is_told_in_plain_words_with_the_rule_behind_why(client):
    table = named_table(client, "zwanzig-ab", ["person"] * 4, ["Anna", "Bert", "Cleo", "Dana"], seed=4)
    rng = random.Random(1)
    for _ in range(200):
        seat, seen = whose_turn(client, table)
        assert seat is not None, "no refusal came up in a whole deal"
        hand, legal = [c["card"] for c in seen["hand"]], seen["moves"]["cards"]
        if seen["trick"] and legal and set(hand) - set(legal):
            refused = move(client, table, seat, sorted(set(hand) - set(legal))[0])
            assert refused.status_code == 409
            data = refused.json()
            assert data["plain"].startswith(("You must follow suit", "You cannot follow suit")), data["plain"]
            assert all(card in data["plain"] for card in legal[:8])
            assert "error[E50" in data["error"], "the rule and its place stay behind the why toggle"
            assert view(client, table, seat)["hand"] == seen["hand"]
            return
        choices = legal + [d["move"] for d in seen["moves"]["decisions"]]
        assert move(client, table, seat, rng.choice(choices)).status_code == 200
    raise AssertionError("no refusal came up")


def test_a_move_out_of_turn_names_the_person_to_wait_for(client):
    table = named_table(client, "zwanzig-ab", ["person"] * 4, ["Anna", "Bert", "Cleo", "Dana"])
    seat, seen = whose_turn(client, table)
    other = (seat + 1) % 4
    refused = move(client, table, other, seen["moves"]["cards"][0] if seen["moves"]["cards"] else "play")
    assert refused.json()["plain"] == f"Please wait: it is {['Anna', 'Bert', 'Cleo', 'Dana'][seat]}'s turn."
    assert view(client, table, other)["waiting_for"] == ["Anna", "Bert", "Cleo", "Dana"][seat]


def test_the_end_names_the_winner_with_the_standings_and_the_deal_panel_stays_on_the_last_deal(client):
    table = named_table(client, "zwanzig-ab", ["person", "random", "random", "random"], ["Anna", "", "", ""], seed=2)
    rng = random.Random(2)
    while True:
        seat, seen = whose_turn(client, table)
        if seat is None:
            break
        choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
        assert move(client, table, seat, rng.choice(choices)).status_code == 200
    over = view(client, table, 0)
    result = over["result"]
    assert over["deal"] == 1, "a one-deal match ends on deal 1, not deal 2"
    places = [row["place"] for row in result["standings"]]
    assert places == sorted(places) and places[0] == 1
    assert [row["winner"] for row in result["standings"]].count(True) == len(result["winners"])
    assert {row["name"] for row in result["standings"]} == {"Anna", "P2", "P3", "P4"}
    winners = [row["name"] for row in result["standings"] if row["winner"]]
    assert result["headline"].startswith(winners[0]) and "the match" in result["headline"]
    assert over["names"] == {"P1": "Anna", "P2": "P2", "P3": "P3", "P4": "P4"}


def test_a_seat_to_decide_is_told_what_the_phase_does(client):
    table = named_table(client, "zwanzigerrufen", ["person"] * 4, ["Anna", "Bert", "Cleo", "Dana"], seed=5)
    seat, seen = whose_turn(client, table)
    assert seen["moves"]["decisions"] and seen["phase_help"], seen
    assert "chooses dealing" in seen["phase_help"]
    assert view(client, table, (seat + 1) % 4)["phase_help"] is None, "said to the seat that decides"


def test_an_upload_is_private_to_its_uploader_until_published(client):
    anna, bert = {"x-owner-token": "anna-browser-secret-1"}, {"x-owner-token": "bert-browser-secret-2"}
    ref = client.post("/api/rules", json={"name": "my-zwanzig.yaml", "text": VARIANT}, headers=anna).json()["ref"]
    listed = lambda who: {u["ref"]: u for u in client.get("/api/games", headers=who).json()["uploads"]}  # noqa: E731
    assert listed(anna)[ref]["mine"] and not listed(anna)[ref]["published"]
    assert ref not in listed(bert) and ref not in listed({}), "nobody else sees it"
    body = {"game": ref, "seats": ["person", "random", "random", "random"], "deals": 1}
    assert client.post("/api/tables", json=body, headers=bert).status_code == 400
    assert client.post("/api/tables", json=body, headers=anna).status_code == 201
    assert client.post("/api/rules/publish", json={"ref": ref}, headers=bert).status_code == 404
    assert client.post("/api/rules/publish", json={"ref": ref}, headers=anna).status_code == 200
    assert listed(bert)[ref]["published"] and not listed(bert)[ref]["mine"]
    assert client.post("/api/tables", json=body, headers=bert).status_code == 201


def test_the_newest_upload_is_nobodys_default_game(client):
    client.post("/api/rules", json={"name": "my-zwanzig.yaml", "text": VARIANT},
                headers={"x-owner-token": "anna-browser-secret-1"})
    page = client.get("/static/lobby.js").text
    assert "games = data.games.concat(uploaded)" in page, "shipped games come first; an upload is chosen only by its uploader"


def test_a_german_pack_is_drawn_with_its_pips_and_a_french_one_with_its_symbols(client):
    german = named_table(client, "schafkopf", ["person", "random", "random", "random"], ["Anna", "", "", ""])
    faces = view(client, german, 0)["hand"]
    assert faces and {face["pip"] for face in faces} <= {"acorns", "leaves", "hearts", "bells"}
    assert all(face["pip"] for face in faces), "every card of a German pack has its picture"
    french = named_table(client, "zwanzig-ab", ["person", "random", "random", "random"], ["Anna", "", "", ""])
    assert all(face["pip"] is None and face["symbol"] in "♣♠♥♦" for face in view(client, french, 0)["hand"])


def test_an_upload_without_an_owner_and_those_of_an_older_store_are_everyones(client, tmp_path):
    ref = client.post("/api/rules", json={"name": "my-zwanzig.yaml", "text": VARIANT}).json()["ref"]
    seen = {u["ref"]: u for u in client.get("/api/games", headers={"x-owner-token": "someone-else-entirely"})
            .json()["uploads"]}
    assert seen[ref]["published"], "a client that names no owner uploads for everyone, as the API always did"
    import sqlite3
    from rulelang.web.store import DATABASE, Store
    folder = tmp_path / "old-store"
    store = Store(folder)
    path = store.upload_path(VARIANT, ".yaml")
    path.write_text(VARIANT, encoding="utf-8")
    old_ref = store.save_upload(path, ("old.yaml", "Old", 4), 1.0, owner="its-first-owner-token")
    store.close()
    db = sqlite3.connect(folder / DATABASE)
    db.executescript("drop table published; drop table upload_owners;")       # as a store of before was
    db.close()
    reopened = Store(folder)
    try:
        assert reopened.may_use(old_ref, "") and reopened.uploads("")[0]["published"]
    finally:
        reopened.close()
