"""The ladder of a ``strain_auction``: the level-and-strain bids in order, with named contracts slotted in.

A level bid is a level and a strain (``6spades``: six tricks, spades trumps); the bids run from the
lowest level to the highest, each level through the strains from low to high. A named contract
(Five Hundred's misère) takes its place in the ladder right after the call named by its ``after``,
and with ``over`` may be bid only over that call or a higher one — never as the opening bid:

.. code-block:: yaml

    contracts:
      misere: {after: 8spades, over: 7spades}     # between 8♠ and 8♣, once someone has bid seven
      open_misere: {after: 10diamonds}            # between 10♦ and 10♥, any time

``first: true`` lets a seat bid it only as its first bid, and ``last: true`` makes it the seat's last:
after it the seat can only pass: ``{after: 8notrump, first: true, last: true}``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Call:
    """One rung of the ladder: its name, level and strain index (0 and -1 for a named contract), the
    named contract or None, the lowest standing rung it may be bid over (-1: any time), and whether it
    may only be a seat's first bid and must be its last."""

    name: str
    level: int
    strain: int
    contract: str | None = None
    over: int = -1
    first: bool = False
    last: bool = False


def level_range(levels) -> tuple[int, int]:
    """The lowest and highest level of ``levels``: N (1 to N) or [low, high]."""
    if isinstance(levels, list):
        return int(levels[0]), int(levels[-1])
    return 1, int(levels)


def level_bids(low: int, high: int, strains: list) -> list[str]:
    """The names of the level bids from the lowest to the highest: ``1clubs`` … ``7notrump``."""
    return [f"{level}{strain}" for level in range(low, high + 1) for strain in strains]


def build(low: int, high: int, strains: list, contracts: dict) -> tuple[list[Call], list[tuple]]:
    """The ladder, and what is wrong with the contracts' ``after`` and ``over``: (contract, key, message).

    ``contracts`` maps a name to ``{"after": CALL, "over": CALL}``, in the document's order: a
    contract may be slotted after one named before it."""
    ladder = [Call(f"{level}{strain}", level, index)
              for level in range(low, high + 1) for index, strain in enumerate(strains)]
    problems = []
    for name, row in contracts.items():
        after = str((row or {}).get("after", ""))
        names = [call.name for call in ladder]
        if after not in names:
            problems.append((name, "after", f"the contract '{name}' is slotted after '{after}', which is no call "
                             "of the ladder"))
            continue
        ladder.insert(names.index(after) + 1, Call(str(name), 0, -1, str(name), first=bool((row or {}).get("first")),
                                                   last=bool((row or {}).get("last"))))
    rung = {call.name: i for i, call in enumerate(ladder)}
    for i, call in enumerate(ladder):
        over = (contracts.get(call.contract) or {}).get("over") if call.contract else None
        if over is None:
            continue
        if str(over) not in rung or rung[str(over)] >= i:
            problems.append((call.name, "over", f"the contract '{call.name}' may be bid over '{over}', which is "
                             "no call below it in the ladder"))
            continue
        ladder[i] = Call(call.name, 0, -1, call.contract, rung[str(over)], call.first, call.last)
    return ladder, problems
