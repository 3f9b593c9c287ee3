"""The batch engine's driver: many single deals of one game, phase by phase, in lock-step.

``BatchRun(game, n, seed).play()`` plays ``n`` one-deal matches of ``game`` with uniformly
random players — the distribution of :class:`~rulelang.interpreter.agents.RandomAgent` with
chance sampled uniformly — every deal a row of a :class:`~rulelang.batch.state.BatchState`.
Each phase is run for all the deals in it by the kernel its construct names (``batch_kernel``,
gathered by :func:`phase_kernels`); a phase's ``when`` is worked
out per deal, and a deal that skips a phase is left alone by its kernel. A phase kind without a
kernel, a rule without a batch twin or a construct's feature the kernels do not cover raises
:class:`~rulelang.batch.vectorize.BatchUnsupported` before any deal is played, naming it.

With ``record=True`` every action is also kept per deal with the legal actions of a decision
(:class:`ActionLog`), so that a test can replay the deals through the scalar engine.
"""

from __future__ import annotations

import importlib
from collections import Counter
from functools import lru_cache

import numpy as np

from rulelang.batch.runtime import across, popcount, signed, unsigned
from rulelang.batch.state import ABSENT, INT, BatchState
from rulelang.batch.vectorize import BatchUnsupported, batch_code
from rulelang.compile.values import NAME


class ActionLog:
    """Per deal, each action taken with the legal actions as a set of action ids (None at chance)."""

    def __init__(self, n: int):
        self.steps: list[list[tuple[int, int | None]]] = [[] for _ in range(n)]

    def add(self, rows, actions, legal=None) -> None:
        """Note ``actions[i]`` for deal ``rows[i]``, with ``legal[i]`` (a mask of action ids) for a decision."""
        legal_list = [None] * len(rows) if legal is None else [unsigned(x) if x < 0 else int(x) for x in legal]
        for row, action, allowed in zip(rows.tolist(), np.asarray(actions).tolist(), legal_list):
            self.steps[row].append((action, allowed))


def uniform_pick(rng, choices: np.ndarray) -> np.ndarray:
    """For each row of the boolean matrix ``choices``, the column of one of its True entries, uniformly
    (the k-th for a random k; column 0 for a row without any)."""
    choices = np.asarray(choices)
    present = _present(choices)
    counts = np.zeros(len(choices), dtype=INT)
    for column in present:
        counts += choices[:, column]
    return np.maximum(kth_column(choices, below(rng, np.maximum(counts, 1)), present), 0)


def _present(choices: np.ndarray) -> list[int]:
    """The columns of a boolean matrix that some row holds."""
    return np.flatnonzero(np.logical_or.reduce(choices, axis=0)).tolist()


def kth_column(choices: np.ndarray, wanted, present: list[int] | None = None) -> np.ndarray:
    """Per row of the boolean matrix ``choices``, the column of its ``wanted``-th (from 0) True entry; -1
    where it has no such entry (``wanted`` -1: none wanted). ``present``: the columns some row holds."""
    picked = np.full(len(choices), -1, dtype=INT)
    seen = np.zeros(len(choices), dtype=INT)
    for column in _present(choices) if present is None else present:
        picked = np.where(choices[:, column] & (seen == wanted), column, picked)
        seen += choices[:, column]
    return picked


def below(rng, bounds) -> np.ndarray:
    """For each of ``bounds`` (positive, below 2**31), a random int from 0 up to it, uniformly.

    32 random bits per bound, scaled by a multiply and a shift (Lemire's method without its
    rejection step): each outcome's probability is within ``bound / 2**32`` of uniform, finer than a
    float's ``random() * bound`` and half the random bits."""
    bounds = np.asarray(bounds)
    raw = rng.bit_generator.random_raw((len(bounds) + 1) // 2).view(np.uint32)[:len(bounds)]
    return ((raw.astype(np.uint64) * bounds.astype(np.uint64)) >> np.uint64(32)).astype(INT)


def pick_bit(rng, masks, extra: int = 0) -> np.ndarray:
    """For each mask, one of its set bits (its index) or one of ``extra`` more choices (-1 … -extra),
    uniformly: the k-th of them for a random k (the k lowest bits cleared, then the lowest bit's index)."""
    masks = np.array(masks, dtype=INT)
    held = popcount(masks)
    chosen = below(rng, np.maximum(held + extra, 1))
    skips = chosen.copy()
    for _ in range(int(np.minimum(chosen, held - 1).max(initial=0))):
        clearing = skips > 0
        masks &= masks - clearing
        skips -= clearing
    low = popcount((masks & -masks) - 1)
    return low if not np.any(extra) else np.where(chosen < held, low, held - 1 - chosen)


def option_sets(actions, allowed):
    """For the log: a function giving, per row of the boolean matrix ``allowed``, the set of ``actions``
    (one action id per column) it allows, as a mask of action ids (a Python int: ids may pass 63)."""
    ids = [int(a) for a in actions]
    return lambda: [sum(1 << a for a, ok in zip(ids, row) if ok) for row in np.asarray(allowed).tolist()]


def seat_orders(players: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """For every start seat and seat mask, the seats of the mask in the direction of play from the start
    (padded with -1), and how many: the tables :func:`seats_from` looks up."""
    orders = np.full((players, 1 << players, players), -1, dtype=INT)
    counts = np.zeros((players, 1 << players), dtype=INT)
    for start in range(players):
        for mask in range(1 << players):
            seats = [seat for seat in ((start + i * step) % players for i in range(players)) if mask >> seat & 1]
            orders[start, mask, :len(seats)] = seats
            counts[start, mask] = len(seats)
    return orders, counts


def seats_from(run, start, mask) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, the seats of ``mask`` in the direction of play from ``start`` (padded), and how many."""
    players = run.game.num_players
    index = (np.asarray(start, dtype=INT) % players << players) + (np.asarray(mask, dtype=INT) & ((1 << players) - 1))
    index = np.broadcast_to(index, (run.n,))
    return run.orders.take(index, axis=0), run.order_counts.take(index)


def turn_order(run, start, mask) -> tuple[np.ndarray, np.ndarray]:
    """``seats_from``, narrowed to the seat whose turn it is where a phase runs as a step of ``turns``."""
    only = run.state.only_seat
    seat_bit = np.left_shift(INT(1), np.maximum(only, 0))
    return seats_from(run, start, np.where(only >= 0, np.asarray(mask, dtype=INT) & seat_bit, mask))


NARROW_FROM = 512
"""The fewest deals a run narrows from (see :meth:`BatchRun.narrowed`): below, a step costs about the same
for any number of deals."""


def narrowing_pays(run, going) -> bool:
    """Whether a phase should go on with the deals ``going`` alone: they are fewer than half the run's."""
    return run.n >= NARROW_FROM and 2 * int(np.count_nonzero(going)) < run.n


TRICK_HISTORY = {"_trick_of", "_taken_by", "_played_by", "_winning_card", "_first_trick_won", "_cards_played",
                 "_tricks_worth"}
"""The helpers that read the finished tricks one by one: the trick kernel keeps their record when a rule calls one."""


class PackOrder:
    """Each deal's pack in a random order, settled lazily from the front: ``cards(first, count)`` are
    the cards at places ``first`` … ``first + count - 1`` of every deal's order (``order``: a row per
    place, a column per deal).

    A Fisher–Yates shuffle of all the deals at once, one place a step (a random card of those not
    yet placed goes to the place), run only as far as a draw reaches: a deal of 22 cards from 52
    takes 22 steps, not a whole shuffle."""

    def __init__(self, rng, n: int, cards: int):
        self.rng, self.n, self.width = rng, n, cards
        self.order = np.repeat(np.arange(cards, dtype=np.int8)[:, None], n, axis=1)
        self.settled = 0

    def cards(self, first: int, count: int) -> np.ndarray:
        """(count, deals): the cards at places ``first`` … of every deal's order."""
        self.settle(first + count)
        return self.order[first:first + count].astype(INT)

    def take_rows(self, rows) -> "PackOrder":
        """The orders of the deals ``rows`` alone, settled as far as these are."""
        other = object.__new__(PackOrder)
        other.rng, other.n, other.width = self.rng, len(rows), self.width
        other.order, other.settled = self.order[:, rows], self.settled
        return other

    def put_rows(self, rows, other: "PackOrder") -> None:
        """Set the orders of the deals ``rows`` to ``other``'s, both settled as far as either is."""
        places = max(self.settled, other.settled)
        self.settle(places)
        other.settle(places)
        self.order[:, rows] = other.order

    def settle(self, places: int) -> None:
        """Make the first ``places`` places of every deal's order final."""
        places = min(places, self.width - 1)
        if places <= self.settled:
            return
        order, flat, deals = self.order, self.order.reshape(-1), np.arange(self.n, dtype=INT)
        keys = self.rng.random((places - self.settled, self.n))
        for step, place in enumerate(range(self.settled, places)):
            cells = (place + (keys[step] * (self.width - place)).astype(INT)) * self.n + deals
            held = order[place].copy()
            order[place] = flat.take(cells)
            flat[cells] = held
        self.settled = places


@lru_cache(maxsize=1)
def phase_kernels() -> dict:
    """The batch kernel of each phase kind whose construct names one (``Construct.batch_kernel``)."""
    from rulelang.constructs import batch_kernels
    table = {}
    for kind, where in batch_kernels().items():
        module, name = where.split(":")
        table[kind] = getattr(importlib.import_module(module), name)
    return table


class BatchRun:
    """``n`` one-deal matches of ``game`` played at random in lock-step (see the module's docstring)."""

    def __init__(self, game, n: int, seed: int, record: bool = False):
        self.game, self.n = game, n
        self.code = batch_code(game.definition.code)
        self.rng = np.random.default_rng(seed)
        self.state = BatchState(game, n, self.code.strings, trick_history=bool(self.code.helpers & TRICK_HISTORY))
        self.log = ActionLog(n) if record else None
        self.kernels = phase_kernels()
        self.decided: Counter = Counter()         # (kind, option, seat) → how many deals
        self.exchanged = np.zeros(game.num_players, dtype=INT)
        self.forced: Counter = Counter()          # (option, seat) → deals where it was forced
        self.asked: dict = {}                     # phase kind → (deal, seat) made a decision of it
        self.decisions = 0                        # decisions made (chance events not counted)
        orders, counts = seat_orders(game.num_players, game.definition.step)
        self.orders, self.order_counts = orders.reshape(-1, game.num_players), counts.reshape(-1)
        self.shuffled = PackOrder(self.rng, n, game.num_cards)   # per deal, the pack in a random order …
        self.next_card = np.zeros(n, dtype=INT)   # … how many of it are drawn …
        self.undrawn = np.full(n, signed(game.deck.full_mask), dtype=INT)   # … and the cards not yet drawn
        self.check()

    def check(self) -> None:
        """Raise BatchUnsupported for the first phase the batch engine cannot run."""
        rules = self.game.definition
        for phase in rules.phases:
            kernel = self.kernels.get(phase.kind)
            if kernel is None:
                raise BatchUnsupported(f"the phase `{phase.kind}` (no batch kernel yet)")
            if phase.when is not None:
                self.code.fn(phase.when)
            kernel.check(self, phase)
        for rule in rules.match.after_deal.values():
            self.code.fn(rule)

    def one_per_name(self, masks):
        """In a pack with copies, each card set thinned to its lowest copy of each name (a player's
        legal moves offer a name once, as the scalar engine offers them); else the sets as they are."""
        deck = self.game.deck
        if deck.copies == 1:
            return masks
        shadow = np.zeros_like(masks)
        for shift in range(1, deck.copies):
            later = sum(1 << c for c, card in enumerate(deck.cards) if card.copy >= shift)
            shadow |= np.left_shift(masks, shift) & INT(signed(later))
        return masks & ~shadow

    def fn(self, rule):
        """The batch function of ``rule``."""
        return self.code.fn(rule)

    def note(self, rows, actions, legal=None) -> None:
        """Log ``actions`` of deals ``rows`` when recording; ``legal`` (the legal actions as masks of action
        ids, or a function giving them) at a decision."""
        if legal is not None:
            self.decisions += len(rows)
        if self.log is not None and len(rows):
            self.log.add(rows, actions, legal() if callable(legal) else legal)

    def ask(self, kind: str, words: list[str], actions, rows, allowed, seats) -> np.ndarray:
        """The deals ``rows`` each choose uniformly among their ``allowed`` columns (column *i*: action
        ``actions[i]``, named ``words[i]``), noted with what was legal and tallied; the columns chosen."""
        chosen = uniform_pick(self.rng, allowed)
        self.note(rows, actions[chosen], option_sets(actions, allowed))
        self.tally_decisions(kind, words, rows, chosen, seats)
        return chosen

    def tally_decisions(self, kind: str, options: list[str], rows, chosen, seats) -> None:
        """Count the options chosen (indices into ``options``) by ``seats`` in deals ``rows``."""
        from rulelang.constructs import construct
        if not construct(kind).tallied or not len(rows):
            return
        players = self.game.num_players
        self.mark_asked(kind, rows, seats)
        counts = np.bincount(np.asarray(chosen) * players + np.asarray(seats), minlength=len(options) * players)
        for key, count in enumerate(counts.tolist()):
            if count:
                self.decided[(kind, options[key // players], key % players)] += count

    def mark_asked(self, kind: str, rows, seats) -> None:
        """Note that ``seats`` made a decision of phase ``kind`` in deals ``rows`` (once per deal counts)."""
        marks = self.asked.get(kind)
        if marks is None:
            marks = self.asked[kind] = np.zeros((self.n, self.game.num_players), dtype=bool)
        marks[np.asarray(rows, dtype=np.intp), np.asarray(seats, dtype=np.intp)] = True

    def play(self) -> "BatchRun":
        """Play every deal to its end."""
        bs, rules, game = self.state, self.game.definition, self.game
        rows = np.arange(self.n)
        if rules.first_dealer is None:
            bs.dealer = self.rng.integers(0, game.num_players, self.n)
            self.note(rows, bs.dealer + game.seat_base)
        else:
            bs.dealer = np.full(self.n, rules.first_dealer, dtype=INT)
        bs.forehand = (bs.dealer + rules.forehand_offset * rules.step) % game.num_players
        self.play_deal()
        bs.deal_number = bs.deal_number + 1
        bs.counters = {**bs.counters, **{name: np.broadcast_to(self.fn(rule)(bs, None), (self.n,)).astype(INT)
                                         for name, rule in rules.match.after_deal.items()}}
        return self

    def play_deal(self) -> None:
        """Every phase of the deal for every deal; the deals thrown in are dealt again, as a batch of their own."""
        bs = self.state
        for phase in self.game.definition.phases:
            live = ~bs.redeal
            if phase.when is not None:
                live &= np.broadcast_to(self.fn(phase.when)(bs, None) != 0, (self.n,))
            if live.any():
                self.kernels[phase.kind].run(self, phase, live)
        thrown = np.flatnonzero(bs.redeal)
        if len(thrown):
            self.deal_again(thrown)

    def deal_again(self, rows) -> None:
        """The deals ``rows`` were thrown in: the same dealer deals again and the deal does not count. They
        are played as a smaller batch (a few deals would otherwise cost a whole block's array operations)."""
        from rulelang.interpreter.state import MAX_REDEALS
        if (self.state.redeals[rows] + 1 > MAX_REDEALS).any():
            from rulelang.compile.values import EvalError
            raise EvalError(f"more than {MAX_REDEALS} redeals in a row", None)
        self.widen(rows, self._dealt_again(rows))

    def _dealt_again(self, rows) -> "BatchRun":
        """A run of the deals ``rows`` played from a new deal on: the match so far, nothing of the thrown-in
        deal, a fresh pack."""
        state = BatchState(self.game, len(rows), self.code.strings, trick_history=self.state.trick_history)
        for name in ("scores", "deal_number", "dealer", "forehand"):
            setattr(state, name, getattr(self.state, name)[rows].copy())
        state.counters = {name: values[rows].copy() for name, values in self.state.counters.items()}
        state.redeals = self.state.redeals[rows] + 1
        full = np.full(len(rows), signed(self.game.deck.full_mask), dtype=INT)
        again = self._run_of(state, PackOrder(self.rng, len(rows), self.game.num_cards), np.zeros(len(rows), dtype=INT),
                             full)
        again.play_deal()
        return again

    def narrowed(self, rows) -> "BatchRun":
        """A run of the deals ``rows`` alone, where they stand (their state, their packs; the same random
        generator), to play on while the other deals wait: :meth:`widen` takes them back. A phase whose
        deals end at different steps narrows to those still in it, so that its late steps do not cost a
        whole block's array operations."""
        return self._run_of(self.state.take_rows(rows), self.shuffled.take_rows(rows), self.next_card[rows],
                            self.undrawn[rows])

    def _run_of(self, state: BatchState, shuffled: PackOrder, next_card, undrawn) -> "BatchRun":
        """A run of this one's game, code and random generator over ``state``'s deals, with its own log and counts."""
        other = object.__new__(BatchRun)
        other.__dict__.update(self.__dict__)
        other.n, other.state = state.n, state
        other.log = ActionLog(other.n) if self.log is not None else None
        other.decided, other.forced, other.decisions, other.asked = Counter(), Counter(), 0, {}
        other.exchanged = np.zeros_like(self.exchanged)
        other.shuffled, other.next_card, other.undrawn = shuffled, next_card, undrawn
        return other

    def widen(self, rows, other: "BatchRun") -> None:
        """Take the deals of ``other`` (a run :meth:`narrowed` to ``rows``, or dealt again for them) back:
        their state, packs, log and counts."""
        self.state.put_rows(rows, other.state)
        self.shuffled.put_rows(rows, other.shuffled)
        self.next_card[rows], self.undrawn[rows] = other.next_card, other.undrawn
        if self.log is not None:
            for index, row in enumerate(rows.tolist()):
                self.log.steps[row].extend(other.log.steps[index])
        self.decided.update(other.decided)
        self.forced.update(other.forced)
        for kind, marks in other.asked.items():
            self.mark_asked(kind, [], [])
            self.asked[kind][rows] |= marks
        self.exchanged += other.exchanged
        self.decisions += other.decisions

    def var_text(self, name: str, code: int) -> str:
        """A deal variable's value held as ``code``, as :meth:`State.var_text` names it."""
        kind = self.game.definition.deal_vars.get(name)
        deck = self.game.deck
        if code == ABSENT:
            return "none"
        if kind == "cards":
            return "{" + " ".join(deck.names(unsigned(code))) + "}" if code else "none"
        if kind in ("suit", "card"):
            return (deck.suits if kind == "suit" else deck.cards)[code].name if code >= 0 else "none"
        if kind == "seat":
            return self.game.seat_name(code) if code >= 0 else "none"
        if kind != NAME:
            return str(code)
        if code < 0:
            return "none"
        return next(text for text, held in self.code.strings.items() if held == code)
