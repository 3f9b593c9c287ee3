"""Batch kernels of the phases before and after trick play: deal, talon, choose, set, exchange,
decide and score, each doing for every deal in its phase what the construct's runtime does for one.

A kernel is a :class:`Kernel`: ``check(run, phase)`` raises BatchUnsupported for what it does
not cover (before any deal is played), ``run(run, phase, live)`` plays the phase in the deals
where ``live`` holds, with uniformly random choices, noting each action in the run's log.
Each construct names its kernel (``Construct.batch_kernel``, e.g. ``"rulelang.batch.kernels:DEAL"``);
the engine gathers them (:func:`rulelang.batch.engine.phase_kernels`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from rulelang.batch.engine import option_sets, pick_bit, turn_order, uniform_pick
from rulelang.batch.runtime import across, flat_cells, flat_view, joined, popcount, unsigned
from rulelang.batch.state import INT
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.compile.values import EvalError


@dataclass(frozen=True)
class Kernel:
    """How the batch engine runs one phase kind."""

    check: Callable
    run: Callable


def no_check(run, phase) -> None:
    """A kernel that covers every form of its phase."""


def needs(*fields: str) -> Callable:
    """The check of a kernel that covers every form of its phase whose rules (the phase's ``fields``,
    any of them absent) have batch twins."""
    def check(run, phase) -> None:
        """Raise BatchUnsupported for the first of the phase's rules without a batch twin."""
        for name in fields:
            rule = getattr(phase, name)
            if rule is not None:
                run.fn(rule)
    return check


def per_deal(values, n: int) -> np.ndarray:
    """A rule's value as one int per deal (a constant broadcast), read-only: it may be a field of the
    state itself, so a kernel that changes it copies it first (a write to it raises)."""
    return np.broadcast_to(np.asarray(values, dtype=INT), (n,))


def draw(run, rows, population, count: int) -> np.ndarray:
    """For each deal of ``rows``, ``count`` cards drawn in order, uniformly without replacement, from its mask:
    (count, deals), the i-th card drawn of every deal in row i.

    Each deal's pack is shuffled once, as far as its draws reach (:class:`~rulelang.batch.engine.PackOrder`);
    a draw from exactly the cards not yet drawn — the stock, then the talon it becomes — takes the next
    cards of that order, which draws them as uniformly as a fresh sample would. A draw from another set of cards samples afresh, and that
    deal's later draws do too."""
    population = np.asarray(population, dtype=INT)
    chosen = slice(None) if len(rows) == run.n else rows       # every deal: a slice, cheaper than an index
    if (population == run.undrawn[chosen]).all():
        first = run.next_card[chosen]
        if len(rows) and (first == first[0]).all():
            cards = run.shuffled.cards(int(first[0]), count)[:, chosen]
        else:
            run.shuffled.settle(int(first.max(initial=0)) + count)
            cards = run.shuffled.order[first + np.arange(count)[:, None], rows].astype(INT)
        run.next_card[chosen] += count
        run.undrawn[chosen] ^= joined(np.left_shift(INT(1), cards))
        return cards
    run.undrawn[rows] = 0
    width = run.game.num_cards
    keys = run.rng.random((len(rows), width))
    keys[~((np.right_shift(population[:, None], np.arange(width)) & 1) == 1)] = 2.0
    return np.ascontiguousarray(np.argsort(keys, axis=1)[:, :count].T)


# ---------------------------------------------------------------------- deal, talon, set
def run_deal(run, phase, live) -> None:
    """Every seat from forehand gets ``each`` cards in turn, drawn from the stock."""
    bs, players, step = run.state, run.game.num_players, run.game.definition.step
    rows = np.flatnonzero(live)
    count = phase.each * players
    if (popcount(bs.stock[rows]) < count).any():
        raise EvalError(f"the deal needs {count} cards but fewer are left", phase.span)
    cards = draw(run, rows, bs.stock[rows], count)
    bits = np.left_shift(INT(1), cards)
    chosen = slice(None) if len(rows) == run.n else rows
    for turn in range(players):
        packet = joined(bits[turn * phase.each:(turn + 1) * phase.each])
        cells = flat_cells(bs.hands, rows, (bs.forehand[chosen] + turn * step) % players)
        flat_view(bs.hands)[cells] |= packet
        flat_view(bs.dealt)[cells] |= packet
        bs.stock[chosen] ^= packet
    for slot in range(count):
        run.note(rows, cards[slot])


def run_talon(run, phase, live) -> None:
    """What is left of the stock becomes the talon."""
    bs = run.state
    bs.talon = np.where(live, bs.talon | bs.stock, bs.talon)
    bs.stock = np.where(live, 0, bs.stock)


def run_set(run, phase, live) -> None:
    """The deal variable takes the rule's value."""
    bs = run.state
    value = per_deal(run.fn(phase.value)(bs, None), run.n)
    bs.vars = {**bs.vars, phase.var: np.where(live, value, bs.vars[phase.var])}


# ---------------------------------------------------------------------- choose
def _option_codes(run, phase) -> np.ndarray:
    return np.array([run.state.code(value) for value in phase.values], dtype=INT)


def weighed(run, rule, part, field: str, values, seats) -> np.ndarray:
    """(deals, values) booleans: the values ``rule`` does not forbid for each deal's seat, the construct's
    slice ``part`` holding each value in turn at ``field`` (as the scalar runtime weighs ``forbid``);
    every value where there is no rule."""
    allowed = np.ones((run.n, len(values)), dtype=bool)
    if rule is None:
        return allowed
    forbid, kept = run.fn(rule), getattr(part, field)
    for index, value in enumerate(values):
        setattr(part, field, np.full(run.n, value, dtype=INT))
        allowed[:, index] = ~np.broadcast_to(forbid(run.state, seats) != 0, (run.n,))
    setattr(part, field, kept)
    return allowed


def run_choose(run, phase, live) -> None:
    """A seat (or chance) chooses one value; a single allowed value is taken without asking."""
    bs, ids = run.state, run.game.symbol_ids
    seats = per_deal(run.fn(phase.by)(bs, None), run.n) if phase.by is not None else None
    allowed = weighed(run, phase.forbid, bs.choose, "value", _option_codes(run, phase).tolist(),
                      seats if seats is not None else 0)
    if (live & ~across(np.logical_or, allowed)).any():
        raise EvalError(f"nothing left to choose for {phase.var}: `{phase.forbid.text}` forbids every value",
                        phase.forbid.span)
    chosen = uniform_pick(run.rng, allowed)
    asked = live & (across(np.add, allowed) > 1)
    rows = np.flatnonzero(asked)
    actions = np.array([ids[o] for o in phase.options], dtype=INT)
    run.note(rows, actions[chosen[rows]], None if phase.by is None else option_sets(actions, allowed[rows]))
    codes = _option_codes(run, phase)
    bs.vars = {**bs.vars, phase.var: np.where(live, codes[chosen], bs.vars[phase.var])}
    if phase.by is not None:
        run.tally_decisions("choose", phase.options, rows, chosen[rows], seats[rows])


# ---------------------------------------------------------------------- exchange
def check_exchange(run, phase) -> None:
    """The exchange's ``start`` has a batch twin, and the game has a ``done`` action to stop discarding."""
    run.fn(phase.start)
    if getattr(phase, "refill", False):
        raise BatchUnsupported("an exchange whose talon is refilled from the discards (`refill: discards`)")
    if run.game.done_action is None:
        raise BatchUnsupported("an exchange without a `done` action")


def run_exchange(run, phase, live) -> None:
    """Each active seat in turn from ``start`` discards up to ``max`` cards, then draws as many from the talon."""
    if phase.max <= 0:
        return
    bs = run.state
    order, count = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    for pos in range(run.game.num_players):
        turn = live & (pos < count) & (bs.talon != 0)
        rows = np.flatnonzero(turn)
        if not len(rows):
            continue
        seats = order[rows, pos]
        hand, thrown = bs.hands[rows, seats], np.zeros(len(rows), dtype=INT)
        discarded = np.zeros(len(rows), dtype=INT)
        limit = np.minimum(phase.max, popcount(bs.talon[rows]))
        going = np.ones(len(rows), dtype=bool)
        for _ in range(phase.max):
            asking = np.flatnonzero(going)
            if not len(asking):
                break
            offered = run.one_per_name(hand[asking])
            picked = pick_bit(run.rng, offered, extra=1)
            run.note(rows[asking], np.where(picked < 0, run.game.done_action, picked),
                     lambda offered=offered: [unsigned(h) | 1 << run.game.done_action for h in offered.tolist()])
            done = picked < 0
            bits = np.where(done, 0, np.left_shift(INT(1), np.maximum(picked, 0)))
            hand[asking] ^= bits
            thrown[asking] |= bits
            discarded[asking] += ~done
            going[asking] = ~done & (discarded[asking] < limit[asking])
        bs.hands[rows, seats] = hand
        bs.discards[rows, seats] |= thrown
        bs.out[rows] |= thrown
        run.exchanged += np.bincount(seats, weights=discarded, minlength=run.game.num_players).astype(INT)
        _draw_back(run, rows, seats, discarded)


def _draw_back(run, rows, seats, discarded) -> None:
    """Each seat draws as many cards from the talon as it discarded."""
    bs = run.state
    for size in np.unique(discarded[discarded > 0]).tolist():
        which = np.flatnonzero(discarded == size)
        drawn = draw(run, rows[which], bs.talon[rows[which]], size)
        bits = joined(np.left_shift(INT(1), drawn))
        bs.talon[rows[which]] ^= bits
        flat_view(bs.hands)[flat_cells(bs.hands, rows[which], seats[which])] |= bits
        for slot in range(size):
            run.note(rows[which], drawn[slot])


# ---------------------------------------------------------------------- decide
def check_decide(run, phase) -> None:
    """Every rule of the decision (its start, among, forbid and drop rules) has a batch twin."""
    for rule in [phase.start, phase.among, *phase.forbid.values(), *(phase.drop or {}).values()]:
        if rule is not None:
            run.fn(rule)


def run_decide(run, phase, live) -> None:
    """Each seat in turn picks an option; a single allowed option is forced; ``leave`` drops the seat."""
    bs, ids, players = run.state, run.game.symbol_ids, run.game.num_players
    deciders = bs.active if phase.among is None else bs.active & per_deal(run.fn(phase.among)(bs, None), run.n)
    order, count = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), deciders)
    actions = np.array([ids[o] for o in phase.options], dtype=INT)
    for pos in range(players):
        turn = live & (pos < count)
        seats = order[:, pos]
        allowed = np.ones((run.n, len(phase.options)), dtype=bool)
        for index, option in enumerate(phase.options):
            if option in phase.forbid:
                allowed[:, index] = ~np.broadcast_to(run.fn(phase.forbid[option])(bs, seats) != 0, (run.n,))
        if (turn & ~across(np.logical_or, allowed)).any():
            raise EvalError("a seat has no option left: every option is forbidden", phase.span)
        chosen = uniform_pick(run.rng, allowed)
        asked = np.flatnonzero(turn & (across(np.add, allowed) > 1))
        run.note(asked, actions[chosen[asked]], option_sets(actions, allowed[asked]))
        run.tally_decisions("decide", phase.options, asked, chosen[asked], seats[asked])
        forced = np.flatnonzero(turn & (across(np.add, allowed) == 1))
        run.mark_asked("decide", forced, seats[forced])
        for key, number in zip(*np.unique(chosen[forced] * players + seats[forced], return_counts=True)):
            run.forced[(phase.options[key // players], key % players)] += int(number)
        _leave(run, phase, turn, chosen, seats)


def _leave(run, phase, turn, chosen, seats) -> None:
    """The seats that chose ``leave`` (or an option that drops seats) are no longer active."""
    bs = run.state
    for index, option in enumerate(phase.options):
        took = turn & (chosen == index)
        if option == phase.leave:
            bs.active = np.where(took, bs.active & ~np.left_shift(INT(1), seats), bs.active)
        if phase.drop and option in phase.drop:
            dropped = per_deal(run.fn(phase.drop[option])(bs, seats), run.n)
            bs.active = np.where(took, bs.active & ~dropped, bs.active)


# ---------------------------------------------------------------------- score
def run_score(run, phase, live) -> None:
    """Each seat of ``each`` adds the rule's amount to its score (not below an exact finish it would overshoot)."""
    bs = run.state
    seats = per_deal(run.fn(phase.each)(bs, None), run.n)
    add = run.fn(phase.add)
    deltas = np.zeros_like(bs.deal_delta)
    for seat in range(run.game.num_players):
        scored = live & (np.right_shift(seats, seat) & 1 == 1)
        deltas[:, seat] = np.where(scored, per_deal(add(bs, seat), run.n), 0)
    add_scores(run, deltas)


def add_scores(run, deltas) -> None:
    """Add the (deals, seats) ``deltas`` to the scores and the deal's payments; a change that would take a
    score past an exact finish is not made (``State.add_scores``)."""
    bs, exact = run.state, run.game.definition.match.exact
    if exact is not None:
        overshoot = (deltas != 0) & (bs.scores + deltas < exact) & (exact <= bs.scores)
        deltas = np.where(overshoot, 0, deltas)
    bs.deal_delta = bs.deal_delta + deltas
    bs.scores = bs.scores + deltas


# ---------------------------------------------------------------------- turns
def check_turns(run, phase) -> None:
    """Every step of the turn has a kernel, and its rules batch twins."""
    run.fn(phase.start)
    for step in phase.steps:
        kernel = run.kernels.get(step.kind)
        if kernel is None:
            raise BatchUnsupported(f"the step `{step.kind}` of `turns` (no batch kernel yet)")
        if step.when is not None:
            run.fn(step.when)
        kernel.check(run, step)


def run_turns(run, phase, live) -> None:
    """Each active seat in turn from ``start`` goes through every step before the next seat begins."""
    bs = run.state
    order, count = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    for pos in range(run.game.num_players):
        turn = live & (pos < count)
        if not turn.any():
            continue
        bs.only_seat = np.where(turn, order[:, pos], -1)
        for step in phase.steps:
            going = turn.copy()
            if step.when is not None:
                going &= np.broadcast_to(run.fn(step.when)(bs, None) != 0, (run.n,))
            if going.any():
                run.kernels[step.kind].run(run, step, going)
    bs.only_seat = np.full(run.n, -1, dtype=INT)


# ---------------------------------------------------------------------- the kernels named by constructs
def check_deal(run, phase) -> None:
    """The batch engine deals the same number to every seat."""
    if phase.per_seat is not None or phase.to is not None:
        raise BatchUnsupported("a deal whose count depends on the seat, or that deals to some seats only (`to`)")


DEAL = Kernel(check_deal, run_deal)
"""The batch kernel of ``deal`` phases (named by its construct's ``batch_kernel``)."""
TALON = Kernel(no_check, run_talon)
"""The batch kernel of ``talon`` phases (named by its construct's ``batch_kernel``)."""
SET = Kernel(needs("value"), run_set)
"""The batch kernel of ``set`` phases (named by its construct's ``batch_kernel``)."""
CHOOSE = Kernel(needs("by", "forbid"), run_choose)
"""The batch kernel of ``choose`` phases (named by its construct's ``batch_kernel``)."""
EXCHANGE = Kernel(check_exchange, run_exchange)
"""The batch kernel of ``exchange`` phases (named by its construct's ``batch_kernel``)."""
DECIDE = Kernel(check_decide, run_decide)
"""The batch kernel of ``decide`` phases (named by its construct's ``batch_kernel``)."""
SCORE = Kernel(needs("each", "add"), run_score)
"""The batch kernel of ``score`` phases (named by its construct's ``batch_kernel``)."""
TURNS = Kernel(check_turns, run_turns)
"""The batch kernel of ``turns`` phases (named by its construct's ``batch_kernel``)."""
