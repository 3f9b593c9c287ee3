"""How far a long command has got: on a terminal a rich progress bar (deals a second, time left), which goes
away when the work is done; otherwise a plain line on standard error at every tenth of the work, so that a
log or a pipe shows the run is alive. ``simulate`` (and its ``--compare``) and ``arena`` use it."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager


@contextmanager
def progress(description: str, total: int, stream=None, unit: str = "deals"):
    """Yield ``advance(k)``, to be called each time ``k`` more of the ``total`` pieces of work are done."""
    stream = sys.stderr if stream is None else stream
    if total <= 0:
        yield lambda k=1: None
        return
    if stream.isatty():
        with _bar(description, total, stream, unit) as advance:
            yield advance
        return
    yield _plain(description, total, stream, unit)


@contextmanager
def _bar(description: str, total: int, stream, unit: str):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
    start = time.monotonic()
    with Progress(*columns, console=Console(file=stream), transient=True) as bar:
        task = bar.add_task(description, total=total, rate="")

        def advance(k: int = 1) -> None:
            bar.advance(task, k)
            done = bar.tasks[0].completed
            bar.update(task, rate=f"{done / max(time.monotonic() - start, 1e-9):,.0f} {unit}/s")
        yield advance


def _plain(description: str, total: int, stream, unit: str):
    start, state = time.monotonic(), {"done": 0, "told": 0}

    def advance(k: int = 1) -> None:
        state["done"] += k
        done = state["done"]
        tenth = done * 10 // total
        if tenth <= state["told"] and done < total:
            return
        state["told"] = tenth
        spent = max(time.monotonic() - start, 1e-9)
        left = (total - done) * spent / done if done else 0.0
        stream.write(f"{description}: {done}/{total} {unit}, {done / spent:,.0f} a second, "
                     f"{'done' if done >= total else f'about {left:,.0f} s left'}\n")
        stream.flush()
    return advance
