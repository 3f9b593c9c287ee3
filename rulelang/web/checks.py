"""Uploads are checked in a worker process with a time limit, so no rule file can hold the server.

A check (``rulelang validate`` of the uploaded text) runs in a process of its own
(``python -m rulelang.web.checks``, told the file on its standard input, which shares nothing with the server), at most
:data:`MAX_CHECKS` at a time. One that takes longer than :data:`CHECK_SECONDS` is killed and the
upload refused with a message; when the server stops, every running check is killed with it.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading

CHECK_SECONDS = 30.0
"""Wall-clock seconds a check of an upload may take (the bound of docs/web.md)."""
MAX_CHECKS = 2
"""Checks that may run at once; more uploads at the same moment are asked to try again."""


class CheckRefused(Exception):
    """An upload that could not be checked: too slow, too many at once, or the worker failed."""


def _check(path: str) -> tuple[list, tuple]:
    """In the worker: ((diagnostic, rendered text) pairs, (title, players)) of the rule file at ``path``."""
    from pathlib import Path as _Path
    from rulelang.web.lobby import about_text
    from rulelang.validators.report import diagnostics_of
    text = _Path(path).read_text(encoding="utf-8")
    found = diagnostics_of(path)
    about = (None, None) if any(d.is_error for d in found) else about_text(text, path)
    return [(d, d.render()) for d in found], about      # rendered here, where the source lines are read


class Checker:
    """Runs checks of uploads in worker processes, each within ``seconds``."""

    def __init__(self, seconds: float = CHECK_SECONDS, at_once: int = MAX_CHECKS):
        self.seconds = seconds
        self.slots = threading.BoundedSemaphore(at_once)
        self.running: set = set()
        self.lock = threading.Lock()

    def check(self, path: str, text: str) -> tuple[list, tuple]:
        """((diagnostic, its rendered text) pairs, (title, players)) of the rule file at ``path`` holding ``text``; CheckRefused if the
        check took too long, could not start, or its worker died."""
        if not self.slots.acquire(blocking=False):
            raise CheckRefused("the server is checking other uploads; try again in a moment")
        try:
            return self._run(path, text)
        finally:
            self.slots.release()

    def _run(self, path: str, text: str) -> tuple[list, tuple]:
        worker = subprocess.Popen([sys.executable, "-m", "rulelang.web.checks"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, stdin=subprocess.PIPE,
                                  env={k: v for k, v in os.environ.items() if len(v) < 32_768})  # no oversized value
        with self.lock:
            self.running.add(worker)
        try:
            out, _ = worker.communicate(str(path).encode("utf-8"), timeout=self.seconds)
        except subprocess.TimeoutExpired:
            raise CheckRefused(f"checking this file took longer than {self.seconds:g} seconds, the limit of "
                               "this server; simplify its definitions (see the limits in docs/language.md)") from None
        finally:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
            with self.lock:
                self.running.discard(worker)
        if worker.returncode != 0:
            raise CheckRefused("the check of this file stopped before it finished; try again")
        return pickle.loads(out)        # written by our own worker process, never by a client

    def stop(self) -> None:
        """Kill every running check (the server is stopping)."""
        with self.lock:
            for worker in list(self.running):
                if worker.poll() is None:
                    worker.kill()


if __name__ == "__main__":
    sys.stdout.buffer.write(pickle.dumps(_check(sys.stdin.buffer.read().decode("utf-8"))))
