"""``simulate --engine batch``: the statistics of single deals played by the batch engine.

Deals are played in blocks of :data:`BLOCK`; block ``b`` of a run from seed ``S`` is played from
the seed sequence (S, b), so the numbers depend on the seed and the number of deals, never on
how many processes share the blocks. Each block's counts are merged into one
:class:`~rulelang.interpreter.tally.Tally` as it arrives, so memory stays flat however many deals.
"""

from __future__ import annotations

import numpy as np

from rulelang.batch.engine import BatchRun

BLOCK = 10_000           # deals per block: large enough for numpy, small enough for memory


def blocks(deals: int) -> list[tuple[int, int]]:
    """(block number, deals in it) for a run of ``deals`` deals."""
    return [(b, min(BLOCK, deals - b * BLOCK)) for b in range(-(-deals // BLOCK))]


def play_block(game, seed: int, block: int, size: int):
    """The tally of one block of ``size`` random deals of ``game`` (a one-deal :class:`Game`)."""
    run = BatchRun(game, size, seed=np.random.SeedSequence([seed, block])).play()
    return tally_of(run)


def tally_of(run: BatchRun):
    """A :class:`Tally` of the finished deals of ``run``, counted as ``simulate`` counts scalar deals."""
    from rulelang.interpreter.tally import Tally
    game, bs = run.game, run.state
    seat = game.seat_name
    tally = Tally(game.name, [seat(s) for s in range(game.num_players)])
    tally.deals = run.n
    for name, values in bs.vars.items():
        for code, count in zip(*np.unique(values, return_counts=True)):
            tally.vars[name][run.var_text(name, int(code))] += int(count)
    for (kind, option, by), count in run.decided.items():
        tally.decisions[(kind, option)][seat(by)] += count
        if option in game.definition.contracts:
            from rulelang.interpreter.words import contract_title
            tally.titles[option] = contract_title(game, option)
    for (option, by), count in run.forced.items():
        tally.decisions[("decide", option)][seat(by)] += count
    for kind, marks in run.asked.items():
        for s, count in enumerate(marks.sum(axis=0).tolist()):
            tally.asked[kind][seat(s)] += count
    for s, count in enumerate(run.exchanged.tolist()):
        if count:
            tally.exchanged[seat(s)] += count
    _count_scores(game, bs.deal_delta, tally)
    active = (np.right_shift(bs.active[:, None], np.arange(game.num_players)) & 1) == 1
    tally.no_trick = int((active & (bs.tricks.taken == 0)).any(axis=1).sum())
    _count_contracts(run, tally)
    for name, hit in bs.settle.scored.items():
        title = run.game.definition.items[name].title
        tally.items[title] += int(hit.sum())
        announced = bs.settle.announced.get(name)
        if announced is not None and announced.any():
            tally.announced[title] += int(announced.sum())
    return tally


def _count_scores(game, delta: np.ndarray, tally) -> None:
    """Each seat's score changes and its return against the table's mean, as the scalar tally counts them."""
    sign = -1 if game.definition.match.winner == "lowest" else 1
    mean = delta.sum(axis=1) / delta.shape[1]
    for s in range(delta.shape[1]):
        name = game.seat_name(s)
        tally.delta[name] += int(delta[:, s].sum())
        for value, count in zip(*np.unique(delta[:, s], return_counts=True)):
            tally.changes[name][int(value)] += int(count)
        for value, count in zip(*np.unique(sign * (delta[:, s] - mean), return_counts=True)):
            tally.advantage[name][round(float(value), 6)] += int(count)


def _count_contracts(run: BatchRun, tally) -> None:
    """The contracts played, and whether their declarers made them."""
    from rulelang.interpreter.words import contract_title
    bs = run.state
    names = {code: text for text, code in run.code.strings.items()}
    rows = np.arange(run.n)
    delta = bs.deal_delta[rows, np.maximum(bs.declarer, 0)]
    made = delta < 0 if run.game.definition.match.winner == "lowest" else delta > 0   # toward winning the match
    for code in np.unique(bs.contract).tolist():
        if code < 0:
            continue
        name, played = names[code], bs.contract == code
        tally.contracts[name] += int(played.sum())
        declared = played & (bs.declarer >= 0)
        if declared.any():
            tally.declared[name] += int(declared.sum())
            tally.made[name] += int((declared & made).sum())
        tally.titles[name] = contract_title(run.game, name)
