"""The web server's store (issue 37): one writer per store, a step stored once, damaged or
foreign files refused with a message that names the file, and stores of the earlier format
(every table's actions as one JSON list) read as they are."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from rulelang.web.app import create_app
from rulelang.web.store import DATABASE, StaleTable, Store, StoreError
from web_helpers import make_table, move, view, whose_turn


def test_a_second_server_on_the_same_store_is_refused_while_the_first_runs(tmp_path):
    first = Store(tmp_path)
    with pytest.raises(StoreError, match=r"another rulelang server .*is using the store .*--store DIR"):
        Store(tmp_path)
    first.close()
    Store(tmp_path).close()                    # once the first has stopped, the store is free


def test_rulelang_serve_on_a_store_in_use_says_so_and_exits_2(tmp_path):
    holder = Store(tmp_path)
    try:
        done = subprocess.run([sys.executable, "-m", "rulelang", "serve", "--port", "0", "--store", str(tmp_path)],
                              capture_output=True, text=True, timeout=120)
    finally:
        holder.close()
    assert done.returncode == 2
    assert "another rulelang server" in done.stderr and "Traceback" not in done.stderr


class _Table:
    def __init__(self, table_id: str, history: list[int]):
        self.id, self.ref, self.kinds, self.tokens, self.seed, self.deals = table_id, "hearts", ["person"], ["t"], 1, 1
        self.history, self.names = history, [""]


def test_a_step_is_stored_once_and_a_stale_writer_is_refused(tmp_path):
    store = Store(tmp_path)
    table = _Table("t1", [5, 6])
    store.add_table(table, 0.0)
    table.history.append(7)
    store.save_history(table)
    assert store.table_row("t1")["history"] == [5, 6, 7]
    stale = _Table("t1", [5, 6, 9])            # another copy, made before step 2 was stored
    store.saved["t1"] = 2
    with pytest.raises(StaleTable):
        store.save_history(stale)
    assert store.table_row("t1")["history"] == [5, 6, 7]
    store.close()


def test_a_move_on_a_stale_copy_of_a_table_is_refused_with_409_and_nothing_is_lost(tmp_path):
    with TestClient(create_app(str(tmp_path), bot_delay=0)) as client:
        table = make_table(client, "hearts", ["person"] * 4)
        seat, seen = whose_turn(client, table)
        server = client.app.state.server
        stored = server.store.table_row(table["id"])["history"]
        with server.store.db:                   # another writer stores the next step first
            server.store.db.execute("insert into steps values (?, ?, ?)", (table["id"], len(stored), 0))
        choices = seen["moves"]["cards"] + [d["move"] for d in seen["moves"]["decisions"]]
        reply = move(client, table, seat, choices[0])
        assert reply.status_code == 409 and "reload the page" in reply.json()["error"]
        assert table["id"] not in server.tables         # the stale copy is dropped
        assert server.store.table_row(table["id"])["history"][:len(stored)] == stored


@pytest.mark.parametrize("content,words", [
    (b"", "is empty (0 bytes)"),
    (b"this is not a database at all, just some text that happens to be long enough" * 20, "damaged or not"),
])
def test_a_damaged_store_file_is_named_with_what_to_do(tmp_path, content, words):
    (tmp_path / DATABASE).write_bytes(content)
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    message = str(refused.value)
    assert words in message and str(tmp_path / DATABASE) in message and "backup" in message
    # the lock was let go: once the file is moved away, a new store opens
    (tmp_path / DATABASE).unlink()
    Store(tmp_path).close()


def test_a_foreign_sqlite_file_is_refused(tmp_path):
    db = sqlite3.connect(tmp_path / DATABASE)
    db.execute("create table recipes (name text)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another program .*recipes"):
        Store(tmp_path)


def test_a_store_of_the_earlier_format_is_read_and_its_histories_moved_to_steps(tmp_path):
    db = sqlite3.connect(tmp_path / DATABASE)
    db.executescript("""
        create table tables (id text primary key, ref text not null, kinds text not null, tokens text not null,
            seed integer not null, deals integer, history text not null, created real not null,
            names text not null default '[]', next_id text);
        create table uploads (ref text primary key, name text not null, title text not null, players integer,
            created real not null);""")
    db.execute("insert into tables values ('old', 'hearts', '[\"person\"]', '[\"t\"]', 1, 1, '[3, 1, 4]', 0, '[]', null)")
    db.commit()
    db.close()
    store = Store(tmp_path)
    assert store.table_row("old")["history"] == [3, 1, 4]
    store.close()
    store = Store(tmp_path)                     # opened again: moved once, not twice
    assert store.table_row("old")["history"] == [3, 1, 4]
    store.close()


def test_a_table_of_the_earlier_format_plays_on_at_a_new_server(tmp_path):
    with TestClient(create_app(str(tmp_path), bot_delay=0)) as client:
        table = make_table(client, "zwanzig-ab", ["person"] * 4)
        seat, before = whose_turn(client, table)
    db = sqlite3.connect(tmp_path / DATABASE)      # write it back in the earlier form
    steps = [a for (a,) in db.execute("select action from steps where table_id = ? order by n", (table["id"],))]
    db.execute("delete from steps")
    db.execute("update tables set history = ? where id = ?", (json.dumps(steps), table["id"]))
    db.commit()
    db.close()
    with TestClient(create_app(str(tmp_path), bot_delay=0)) as client:
        after = view(client, table, seat)
        assert (after["step"], after["hand"], after["talk"]) == (before["step"], before["hand"], before["talk"])
