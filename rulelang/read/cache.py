"""A private per-user cache folder, for the built parser and for the verdicts of past checks.

The folder is ``$RULELANG_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulelang``, else
``~/.cache/rulelang``; ``RULELANG_CACHE_DIR=`` (empty) turns caching off. It is used only
when it is ours and nobody else may write to it, because Lark reads its parser cache with
``pickle``; without such a folder (read-only home, foreign owner, group-writable) every
command simply does the work again.

A *verdict* records that one exact resolved document passed the schema and every semantic
and graph check without an error. Loading a game for ``run``, ``play`` or ``simulate`` then
skips those checks (and the import of jsonschema and networkx) the next time; ``validate``
always runs them, since it reports warnings too. A verdict is keyed on the document's
canonical JSON and on a digest of the package's source files (names, sizes, modification
times), so an edited file, an edited check or a new release checks again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import stat
from functools import lru_cache
from pathlib import Path

import rulelang
from rulelang.read.document import rekeyed

CACHE_ENV = "RULELANG_CACHE_DIR"


def cache_folder() -> Path | None:
    """The private cache folder, created if missing; ``None`` when caching is off or unsafe."""
    configured = os.environ.get(CACHE_ENV)
    if configured == "":
        return None
    if configured:
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "rulelang"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    return folder if is_private(info) else None


def learned_path(kind: str, name: str) -> Path | None:
    """Where fits learned for a rule file are kept: ``<cache folder>/<kind>/<name>``; None without a folder."""
    folder = cache_folder()
    return None if folder is None else folder / kind / name


def load_or_learn(path: Path | None, read, learn, write):
    """What the cache file ``path`` holds, read by ``read(data)`` (which raises TypeError, ValueError, KeyError,
    IndexError or AttributeError for data of another shape); else ``learn()``, written there as ``write(found)``
    when there is a cache folder."""
    if path is not None:
        try:
            return read(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            pass
    found = learn()
    if path is not None:
        save_json(path, write(found))
    return found


def save_json(path: Path, data) -> None:
    """Write ``data`` as JSON to ``path`` whole (a part file put in place), its folder private; a failure to
    write leaves the cache as it was."""
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass


def is_private(info: os.stat_result) -> bool:
    """Whether a folder is a folder owned by this user that no one else may write to."""
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of the version and of the name, size and time of every source file of the package."""
    digest = hashlib.sha256(rulelang.__version__.encode())
    for package in ("rulelang", "rulelang.validators", "rulelang.interpreter"):
        root = Path(importlib.util.find_spec(package).origin).resolve().parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".json", ".lark") and "__pycache__" not in path.parts:
                info = path.stat()
                digest.update(f"{path.relative_to(root)}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def _verdict_path(data: dict) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    try:
        canonical = json.dumps(rekeyed(data, _typed_key), sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    key = hashlib.sha256((code_fingerprint() + "\0" + canonical).encode("utf-8")).hexdigest()
    return folder / "verdicts" / key


def _typed_key(key) -> str:
    """A mapping key written with its type (``int:10``, ``str:A``): documents differing only there stay apart."""
    return f"{type(key).__name__}:{key}"


def passed_before(data: dict) -> bool:
    """Whether the document ``data`` passed every check with no error, by this very code."""
    path = _verdict_path(data)
    return path is not None and path.is_file()


def record_pass(data: dict) -> None:
    """Remember that ``data`` passed every check; silently nothing when the cache is unusable."""
    path = _verdict_path(data)
    if path is None:
        return
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        path.touch()
    except OSError:
        return
