"""The kernel search compiled to machine code with numba, where the extra ``rulelang[fast]`` is installed.

:class:`~rulelang.interpreter.kernel_search.KernelSearch` plays tricks on bitmasks in Python; this module runs
the very same search — the same cards tried in the same order, the same transposition table, the same bounds,
so the same values and the same count of positions visited — as functions numba compiles once (:mod:`.fast_kernel`, kept in numba's
cache beside that module). The tables come from the rule file (:mod:`~rulelang.interpreter.trick_kernel`);
nothing here knows a game. Covered: kernels without a special winning card, packs of at most
``MAX_CARDS`` cards and tables of at most ``MAX_SEATS`` seats; everything else, and every machine without
numba, goes on through the Python search.

:func:`fast_search` builds a :class:`FastSearch` for a position, or returns None where it does not apply.
"""

from __future__ import annotations

import os
from collections import namedtuple

from rulelang.compile.deck import iter_bits

MAX_CARDS = 62
"""The largest pack searched here: a hand is one signed 64-bit word."""
MAX_SEATS = 7

_Context = namedtuple("_Context", "n trick_size head count_points seat_bits lead follow follow_len rank kind between "
                                   "stronger ladders ladder_len orders ours points")
"""The tables and the side of one search, as the compiled functions read them."""


_COMPILED: list = []
"""The compiled module once imported, or None where it cannot be (filled on first use)."""


def compiled():
    """The compiled functions (:mod:`.fast_kernel`), or None where numba is not installed, the environment
    says ``RULELANG_SOLVER=python``, or it failed here once: numba is imported only when first asked for."""
    if not _COMPILED:
        found = None
        if os.environ.get("RULELANG_SOLVER", "") != "python":
            try:
                from rulelang.interpreter import fast_kernel as found
            except ImportError:                 # pragma: no cover - depends on the machine
                found = None
        _COMPILED.append(found)
    return _COMPILED[0]


def available() -> bool:
    """Whether the compiled search can run here (numba installed and not turned off)."""
    return compiled() is not None


def turn_off() -> None:
    """Search through Python from now on in this process (tests compare the two; a failed compile calls it)."""
    _COMPILED[:] = [None]


class Unavailable(Exception):
    """The compiled search failed here (numba could not compile or keep it): search through Python instead."""


class FastSearch:
    """One compiled search of a position: :meth:`values` scores the seat to play's legal cards, ``nodes`` the
    positions visited so far, ``exhausted`` once their bound was passed."""

    def __init__(self, code, ctx, hands, stat, root: tuple) -> None:
        from numba.typed import Dict
        self.code, self.ctx, self.hands, self.stat, self.root = code, ctx, hands, stat, root
        self.table = Dict.empty(key_type=code.KEY, value_type=code.BOUNDS)
        self.history = code.np.zeros(ctx.n, dtype=code.np.int64)     # the cutoffs per card, as the Python search

    @property
    def nodes(self) -> int:
        """The positions at a trick's start visited so far (as the Python search counts them)."""
        return int(self.stat[0])

    @property
    def exhausted(self) -> bool:
        """Whether the search passed its bound on positions."""
        return bool(self.stat[2])

    def values(self, legal: list[int], size: int) -> list[int] | None:
        """Each legal card's value in ``0..size``, by windows of width one around the last card's
        (``solver.narrowed``); None where the bound on positions was passed. :class:`Unavailable` where the
        compiled code cannot run here."""
        np = self.code.np
        try:
            found = self.code._values(self.ctx, self.hands, self.table, self.stat, self.root,
                                      np.array(legal, dtype=np.int64), size, self.history)
        except Exception as exc:             # numba's errors have no common base: any failure turns it off
            turn_off()
            raise Unavailable(str(exc)) from exc
        return None if self.exhausted else [int(v) for v in found]


def fast_search(kernel, hands: list[int], orders: dict[int, list[int]], ours: list[bool], max_nodes: int,
                points: tuple[int, ...] | None, root: tuple) -> FastSearch | None:
    """A :class:`FastSearch` of the position (the arguments of ``KernelSearch``, and ``root``: the trick's
    leader, the place of the seat to play, the card led, the best strength so far, its seat and the cards on
    the table); None where numba is missing or the kernel is not covered (module docstring)."""
    n, seats = len(kernel.rank), len(hands)
    if kernel.special or n > MAX_CARDS or seats > MAX_SEATS or not orders:
        return None
    code = compiled()
    if code is None:
        return None
    np = code.np
    size = len(next(iter(orders.values())))
    order_rows = np.full((seats, size), -1, dtype=np.int64)
    for seat, order in orders.items():
        if len(order) != size:
            return None
        order_rows[seat] = order
    ladders = _ladder_tables(code, kernel.ladders if points is None else (), seats)
    if ladders is None:
        return None
    card_points = np.array(points if points is not None else [0] * n, dtype=np.int64)
    ctx = _Context(n, size, bool(kernel.head), points is not None, *ladders[2:], *_tables(np, kernel),
                   *ladders[:2], order_rows, np.array(ours, dtype=np.bool_), card_points)
    stat = np.array([0, max_nodes, 0], dtype=np.int64)
    leader, place, led, best, winner, table = root
    left = sum(points[card] for hand in hands for card in iter_bits(hand)) if points else 0
    return FastSearch(code, ctx, np.array(hands, dtype=np.int64), stat,
                      (leader, place, led, best, winner, table, left))


def _tables(np, kernel) -> tuple:
    """The kernel's tables as arrays (kept per kernel: a kernel never changes): the fallback sets a leader
    plays from, those after each card led and how many, the strengths, the kinds, the cards between two of a
    kind, and the cards stronger than each."""
    found = _TABLES.get(id(kernel))
    if found is not None and found[0] is kernel:
        return found[1]
    n = len(kernel.rank)
    width = max((len(sets) for sets in kernel.follow), default=0)
    follow = np.zeros((n, max(width, 1)), dtype=np.int64)
    for led, sets in enumerate(kernel.follow):
        follow[led, :len(sets)] = sets
    between = np.zeros((n, n), dtype=np.int64)
    for (a, b), gap in kernel.between.items():
        between[a, b] = gap
    tables = (np.array(kernel.lead, dtype=np.int64).reshape(-1), follow,
              np.array([len(sets) for sets in kernel.follow], dtype=np.int64),
              np.array(kernel.rank, dtype=np.int64), np.array(kernel.kind, dtype=np.int64), between,
              np.array(kernel.stronger, dtype=np.int64))
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(kernel)] = (kernel, tables)
    return tables


_TABLES: dict[int, tuple] = {}


def _ladder_tables(code, ladders: tuple, seats: int) -> tuple | None:
    """The kinds' ladders as a padded table, their lengths and the bits a seat takes in a key; None where the
    key would not fit in the compiled code's ``KEY_WORDS`` words."""
    np = code.np
    seat_bits = max(1, (seats - 1).bit_length())
    if not ladders:
        return np.zeros((0, 1), dtype=np.int64), np.zeros(0, dtype=np.int64), seat_bits
    cards = sum(len(ladder) for ladder in ladders)
    if cards * seat_bits + 6 * len(ladders) > (code.KEY_WORDS - 1) * (code.WORD_BITS - 6):   # 6: widest field
        return None
    table = np.full((len(ladders), max(len(ladder) for ladder in ladders)), -1, dtype=np.int64)
    for k, ladder in enumerate(ladders):
        table[k, :len(ladder)] = ladder
    return table, np.array([len(ladder) for ladder in ladders], dtype=np.int64), seat_bits
