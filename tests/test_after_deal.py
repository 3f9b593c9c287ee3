"""What `match.after_deal` reads and in which order it runs, as docs/language.md (Match) says.

After each deal: `deal_number` becomes the number of deals played (so `deal_number - 1` is the
number of the deal just played); every `after_deal` rule is worked out, all at once; the counters
change; then `end` is checked. (`deal_number` has meant this in `after_deal` since it existed: rule
files written for it keep their meaning.)
"""

from __future__ import annotations

import pytest

from rulelang.loader import load_text
from rulelang.interpreter.runner import play_match

MATCH = """
game: counted
extends: zwanzig-ab
match:
  start: 20
  counters: {even: 0, odd: 0, a: 1, b: 2, deals_done: 0}
  after_deal:
    even: "even + (if (deal_number - 1) % 2 == 0 then 1 else 0)"
    odd: "odd + (if (deal_number - 1) % 2 == 1 then 1 else 0)"
    a: "b"
    b: "a"
    deals_done: "deals_done + 1"
  end: "deals_done >= 3"
  winner: lowest
  tie: share
"""


@pytest.fixture(scope="module")
def finished():
    game = load_text(MATCH, syntax="yaml")
    state, _ = play_match(game, seed=4)
    return state


def test_after_deal_reads_the_number_of_the_deal_just_played_as_deal_number_minus_one(finished):
    counters = [deal["counters"] for deal in finished.deal_results]
    assert [(c["even"], c["odd"]) for c in counters] == [(1, 0), (1, 1), (2, 1)]   # deals 0, 1, 2


def test_the_updates_are_worked_out_together(finished):
    counters = [deal["counters"] for deal in finished.deal_results]
    assert [(c["a"], c["b"]) for c in counters] == [(2, 1), (1, 2), (2, 1)]        # a swap, not a copy


def test_end_is_checked_after_the_updates_on_the_deals_played(finished):
    assert len(finished.deal_results) == 3 and finished.deal_number == 3 and finished.is_terminal()
