"""Reading untrusted files: regular files only, and never more bytes than a limit.

Rule files and logs come from people who may mean harm. A size check that trusts
``st_size`` lets ``/dev/zero`` or ``/proc/self/environ`` (which report 0 bytes) grow
without bound, and opening a FIFO blocks forever. :func:`read_limited` opens without
blocking, refuses anything that is not a regular file, and counts the bytes it reads.
"""

from __future__ import annotations

import os
import stat

CHUNK = 1 << 16

TOO_LARGE = "too large"
NOT_REGULAR = "not a regular file"
NOT_UTF8 = "not UTF-8"
UNREADABLE = "unreadable"


class ReadRefused(Exception):
    """A file was not read: ``reason`` is one of the module's constants, ``detail`` says more."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def read_limited(path: str | os.PathLike, limit: int) -> str:
    """The UTF-8 text of the regular file ``path``; :class:`ReadRefused` past ``limit`` bytes or otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ReadRefused(UNREADABLE, exc.strerror or str(exc)) from None
    except ValueError as exc:
        raise ReadRefused(UNREADABLE, str(exc)) from None
    try:
        data = _read_regular(fd, limit)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReadRefused(NOT_UTF8, "the file is not UTF-8 text") from None


def _read_regular(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes of the open file ``fd``, which must be a regular file."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise ReadRefused(NOT_REGULAR, f"it is {file_kind(info.st_mode)}")
    if info.st_size > limit:
        raise ReadRefused(TOO_LARGE, f"the file is {info.st_size} bytes")
    chunks, total = [], 0
    while True:
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - total))
        except OSError as exc:
            raise ReadRefused(UNREADABLE, exc.strerror or str(exc)) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise ReadRefused(TOO_LARGE, f"the file has more than {limit} bytes")


def file_kind(mode: int) -> str:
    """What kind of file ``mode`` describes, in words (``a directory``, ``a FIFO`` …)."""
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket")]
    return next((name for test, name in kinds if test(mode)), "not a regular file")
