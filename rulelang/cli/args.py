"""What the subcommands share about their arguments: the usage error (exit status 2), number types,
``--jobs`` and ``--backend``, and an output file opened for writing."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """A command line that names something that cannot be used; exit status 2."""


def at_least(minimum: int):
    """An argparse type: a whole number of at least ``minimum``."""
    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    return whole_number


positive = at_least(1)
non_negative = at_least(0)
MAX_JOBS = 64


def add_backend(p) -> None:
    """``--backend local|ray`` and ``--address``, for the commands that share out deals."""
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where the deals are played: local processes (--jobs) or Ray (extra rulelang[ray])")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="the Ray cluster for --backend ray (default: a local Ray started for the run)")


def check_jobs(jobs: int) -> None:
    """Refuse a ``--jobs`` beyond :data:`MAX_JOBS` processes (a usage error)."""
    if jobs > MAX_JOBS:
        raise UsageError(f"--jobs {jobs}: at most {MAX_JOBS} processes")


def open_output(path: str):
    """``path`` opened for writing as UTF-8 text; a usage error (exit 2) when it cannot be."""
    try:
        return open(path, "w", encoding="utf-8", newline="\n")
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None
