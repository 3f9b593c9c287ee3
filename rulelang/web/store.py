"""The server's storage directory: uploaded rule files and every table, in SQLite, so a restart resumes them.

The directory holds ``tables.sqlite`` and ``rules/`` with each accepted upload as a rule file,
named by the digest of its text so that an upload can never name or overwrite another file.
The database has three tables: ``tables`` (game, seats, tokens, seed, the people's names),
``steps`` (each action of a table, chance included, numbered from 0) and ``uploads`` (their name
and title). Stores written before steps had their own table kept a table's actions as one JSON
list in ``tables.history``; they are read as they are and moved to ``steps`` when opened.

Durability, as SQLite promises it: every write is a transaction committed with
``synchronous=FULL`` before the server shows anyone its result, so an acknowledged move — and
every card dealt that a seat was shown — survives ``kill -9`` and a power cut. A step is stored
under its number, so two writers cannot both store step *n* of a table: the second is refused
(:class:`StaleTable`). One server at a time uses a store: :class:`Store` holds an exclusive lock
on ``server.lock`` in the folder while it is open, and a second server is refused with
:class:`StoreError` naming the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:         # not POSIX: the steps' numbers still refuse a second writer's moves
    fcntl = None

SCHEMA = """
create table if not exists tables (
    id text primary key, ref text not null, kinds text not null, tokens text not null,
    seed integer not null, deals integer, history text not null, created real not null, names text not null default '[]', next_id text
);
create table if not exists steps (
    table_id text not null, n integer not null, action integer not null, primary key (table_id, n)
) without rowid;
create table if not exists uploads (
    ref text primary key, name text not null, title text not null, players integer, created real not null
);
create table if not exists upload_owners (ref text not null, owner text not null, primary key (ref, owner)) without rowid;
create table if not exists published (ref text primary key) without rowid;
"""
OURS = {"tables", "steps", "uploads", "upload_owners", "published"}
DATABASE = "tables.sqlite"
LOCK = "server.lock"


def _digest(owner: str) -> str:
    """What the store keeps of an owner's secret ("" for none, which owns nothing)."""
    return hashlib.sha256(owner.encode("utf-8")).hexdigest() if owner else "-"


class StoreError(Exception):
    """The store cannot be used: the message names the file and what to do."""


class StaleTable(Exception):
    """A step of a table was stored by another writer first: this copy of the table is out of date."""


class Store:
    """Tables and uploads kept in ``folder`` (made if missing), used by this server alone while open."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.rules = self.folder / "rules"
        try:
            self.rules.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot use {self.folder} as the store: {exc.strerror}; "
                             "give --store a folder this server may write") from None
        self.lock = threading.Lock()
        self._lock_file = _lock(self.folder)
        try:
            self.db = _open(self.folder / DATABASE)
        except StoreError:
            self._release()
            raise
        self.saved: dict[str, int] = {}

    def close(self) -> None:
        """Close the database and let another server use the store."""
        self.db.close()
        self._release()

    def _release(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

    # ------------------------------------------------------------------ uploads
    def upload_path(self, text: str, suffix: str) -> Path:
        """Where an uploaded rule text is kept: ``rules/upload-<digest><suffix>``."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        return self.rules / f"upload-{digest}{suffix}"

    def save_upload(self, path: Path, about: tuple[str, str, int | None], now: float, owner: str = "") -> str:
        """Note the upload kept at ``path`` (``about``: the name it came with, its title and player count) as
        ``owner``'s (a secret the uploader's browser keeps; only its digest is stored), or as everyone's without
        an owner; its reference ``upload:<file name>``."""
        ref = f"upload:{path.name}"
        with self.lock, self.db:
            self.db.execute("insert or replace into uploads values (?, ?, ?, ?, ?)", (ref, *about, now))
            if owner:
                self.db.execute("insert or ignore into upload_owners values (?, ?)", (ref, _digest(owner)))
            else:                       # a client that names no owner (the API as it was): shown to everyone
                self.db.execute("insert or ignore into published values (?)", (ref,))
        return ref

    def uploads(self, owner: str = "") -> list[dict]:
        """The uploads ``owner`` may see, newest first: the published ones and their own (``mine``)."""
        with self.lock:
            rows = self.db.execute(
                "select u.ref, u.name, u.title, u.players, p.ref is not null, o.ref is not null from uploads u "
                "left join published p on p.ref = u.ref left join upload_owners o on o.ref = u.ref and o.owner = ? "
                "where p.ref is not null or o.ref is not null order by u.created desc", (_digest(owner),)).fetchall()
        return [{"ref": ref, "name": name, "title": title, "players": players, "published": bool(public),
                 "mine": bool(mine)} for ref, name, title, players, public, mine in rows]

    def may_use(self, ref: str, owner: str = "") -> bool:
        """Whether a table may be made for upload ``ref`` by ``owner``: it is published, or theirs."""
        with self.lock:
            return self.db.execute(
                "select 1 from uploads u where u.ref = ? and (exists (select 1 from published p where p.ref = u.ref) "
                "or exists (select 1 from upload_owners o where o.ref = u.ref and o.owner = ?))",
                (ref, _digest(owner))).fetchone() is not None

    def publish(self, ref: str, owner: str) -> bool:
        """Make ``owner``'s upload ``ref`` seen by everyone; False when it is not theirs."""
        with self.lock, self.db:
            if self.db.execute("select 1 from upload_owners where ref = ? and owner = ?",
                               (ref, _digest(owner))).fetchone() is None:
                return False
            self.db.execute("insert or ignore into published values (?)", (ref,))
        return True

    def upload_name(self, ref: str) -> str:
        """The file name upload ``ref`` came with."""
        with self.lock:
            row = self.db.execute("select name from uploads where ref = ?", (ref,)).fetchone()
        return row[0] if row else ref

    def upload_file(self, ref: str) -> Path | None:
        """The rule file of upload ``ref``, or None when there is no such upload."""
        with self.lock:
            known = self.db.execute("select 1 from uploads where ref = ?", (ref,)).fetchone()
        if known is None:
            return None
        path = self.rules / ref.removeprefix("upload:")
        return path if path.parent == self.rules and path.is_file() else None

    # ------------------------------------------------------------------ tables
    def add_table(self, table, now: float) -> None:
        """Keep a new table (and the steps it has made, if any)."""
        with self.lock, self.db:
            self.db.execute("insert into tables values (?, ?, ?, ?, ?, ?, '[]', ?, ?, null)",
                            (table.id, table.ref, json.dumps(table.kinds), json.dumps(table.tokens), table.seed,
                             table.deals, now, json.dumps(table.names, ensure_ascii=False)))
            self._append(table.id, 0, table.history)
        self.saved[table.id] = len(table.history)

    def set_next(self, table_id: str, next_id: str) -> None:
        """Note the table where the people of ``table_id`` play again."""
        with self.lock, self.db:
            self.db.execute("update tables set next_id = ? where id = ?", (next_id, table_id))

    def save_history(self, table) -> None:
        """Store the steps ``table`` has made since it was last stored, in one transaction.

        Raises :class:`StaleTable` when another writer stored a step of the same number first."""
        start = self.saved.get(table.id, 0)
        if start >= len(table.history):
            return
        with self.lock, self.db:
            self._append(table.id, start, table.history[start:])
        self.saved[table.id] = len(table.history)

    def _append(self, table_id: str, start: int, actions: list[int]) -> None:
        try:
            self.db.executemany("insert into steps values (?, ?, ?)",
                                [(table_id, start + i, int(a)) for i, a in enumerate(actions)])
        except sqlite3.IntegrityError:
            raise StaleTable(table_id) from None

    def table_row(self, table_id: str) -> dict | None:
        """A stored table's fields, its steps as ``history``; or None."""
        with self.lock:
            row = self.db.execute("select ref, kinds, tokens, seed, deals, names, next_id from tables where id = ?",
                                  (table_id,)).fetchone()
            steps = self.db.execute("select action from steps where table_id = ? order by n", (table_id,)).fetchall()
        if row is None:
            return None
        ref, kinds, tokens, seed, deals, names, next_id = row
        history = [action for (action,) in steps]
        self.saved[table_id] = len(history)
        return {"id": table_id, "ref": ref, "kinds": json.loads(kinds), "tokens": json.loads(tokens), "seed": seed,
                "deals": deals, "history": history, "names": json.loads(names), "next_id": next_id}


def _lock(folder: Path):
    """The open lock file of ``folder``, locked for this server alone; StoreError when another server holds it."""
    if fcntl is None:
        return None
    handle = open(folder / LOCK, "a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()[:20]
        handle.close()
        raise StoreError(f"another rulelang server{f' (process {holder})' if holder.isdigit() else ''} is using "
                         f"the store {folder}; stop it first, or give this server a store of its own (--store DIR)") \
            from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def _open(path: Path) -> sqlite3.Connection:
    """The store's database, checked to be one this server wrote, its old steps moved to ``steps``."""
    what_to_do = (f"move {path.name} out of {path.parent} to start an empty store, or put back a copy from "
                  "a backup")
    if path.exists() and path.stat().st_size == 0:
        raise StoreError(f"{path} is empty (0 bytes): it is not a store this server wrote, and its tables are "
                         f"gone; {what_to_do}")
    try:
        db = sqlite3.connect(path, check_same_thread=False)
        db.execute("pragma synchronous = full")
        found = {name for (name,) in db.execute("select name from sqlite_master where type = 'table'")}
        if found and not found & OURS or found - OURS:
            db.close()
            raise StoreError(f"{path} is an SQLite database of another program (tables: {', '.join(sorted(found))});"
                             f" {what_to_do}")
        db.executescript(SCHEMA)
        _move_old_histories(db)
        if found and "published" not in found:
            _publish_old_uploads(db)
        verdict = db.execute("pragma quick_check").fetchone()
        if not verdict or verdict[0] != "ok":
            db.close()
            raise StoreError(f"{path} is damaged (SQLite's check says: {verdict[0] if verdict else 'nothing'}); "
                             f"{what_to_do}")
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is damaged or not a rulelang store (SQLite: {exc}); {what_to_do}") from None
    return db


def _publish_old_uploads(db: sqlite3.Connection) -> None:
    """Uploads kept before uploads had owners were shown to everyone: they stay so (once, on first opening)."""
    with db:
        db.execute("insert or ignore into published select ref from uploads")


def _move_old_histories(db: sqlite3.Connection) -> None:
    """Move the action lists of a store written before ``steps`` into ``steps`` (once)."""
    old = db.execute("select id, history from tables where history != '[]'").fetchall()
    with db:
        for table_id, history in old:
            db.executemany("insert or ignore into steps values (?, ?, ?)",
                           [(table_id, n, int(a)) for n, a in enumerate(json.loads(history))])
            db.execute("update tables set history = '[]' where id = ?", (table_id,))
