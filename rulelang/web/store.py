"""The server's storage directory: uploaded rule files and every table, in SQLite, so a restart resumes them.

The directory holds ``tables.sqlite`` (tables: game, seats, tokens, seed, action history, the people's names;
uploads: their name and title) and ``rules/`` with each accepted upload as a rule file,
named by the digest of its text so that an upload can never name or overwrite another file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

SCHEMA = """
create table if not exists tables (
    id text primary key, ref text not null, kinds text not null, tokens text not null,
    seed integer not null, deals integer, history text not null, created real not null, names text not null default '[]', next_id text
);
create table if not exists uploads (
    ref text primary key, name text not null, title text not null, players integer, created real not null
);
"""


class Store:
    """Tables and uploads kept in ``folder`` (made if missing)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.rules = self.folder / "rules"
        self.rules.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.folder / "tables.sqlite", check_same_thread=False)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    # ------------------------------------------------------------------ uploads
    def upload_path(self, text: str, suffix: str) -> Path:
        """Where an uploaded rule text is kept: ``rules/upload-<digest><suffix>``."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        return self.rules / f"upload-{digest}{suffix}"

    def save_upload(self, path: Path, about: tuple[str, str, int | None], now: float) -> str:
        """Note the upload kept at ``path`` (``about``: the name it came with, its title and player count); its
        reference ``upload:<file name>``."""
        ref = f"upload:{path.name}"
        with self.lock, self.db:
            self.db.execute("insert or replace into uploads values (?, ?, ?, ?, ?)", (ref, *about, now))
        return ref

    def uploads(self) -> list[dict]:
        """Every accepted upload, newest first."""
        with self.lock:
            rows = self.db.execute("select ref, name, title, players from uploads order by created desc").fetchall()
        return [{"ref": ref, "name": name, "title": title, "players": players} for ref, name, title, players in rows]

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
        """Keep a new table."""
        with self.lock, self.db:
            self.db.execute("insert into tables values (?, ?, ?, ?, ?, ?, ?, ?, ?, null)",
                            (table.id, table.ref, json.dumps(table.kinds), json.dumps(table.tokens), table.seed,
                             table.deals, json.dumps(table.history), now, json.dumps(table.names, ensure_ascii=False)))

    def set_next(self, table_id: str, next_id: str) -> None:
        """Note the table where the people of ``table_id`` play again."""
        with self.lock, self.db:
            self.db.execute("update tables set next_id = ? where id = ?", (next_id, table_id))

    def save_history(self, table) -> None:
        """Keep a table's action history as it is now."""
        with self.lock, self.db:
            self.db.execute("update tables set history = ? where id = ?", (json.dumps(table.history), table.id))

    def table_row(self, table_id: str) -> dict | None:
        """A stored table's fields, or None."""
        with self.lock:
            row = self.db.execute("select ref, kinds, tokens, seed, deals, history, names, next_id from tables where id = ?",
                                  (table_id,)).fetchone()
        if row is None:
            return None
        ref, kinds, tokens, seed, deals, history, names, next_id = row
        return {"id": table_id, "ref": ref, "kinds": json.loads(kinds), "tokens": json.loads(tokens), "seed": seed,
                "deals": deals, "history": json.loads(history), "names": json.loads(names),
                "next_id": next_id}
