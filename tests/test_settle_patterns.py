"""``settle`` patterns: the declarers share what each defender pays (zero-sum), or score alone (declared not)."""

from __future__ import annotations

import pytest

from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, load_text
from rulelang.validators.simulate import play_deal

DECLARERS_SCORE = """
game: zr-declarers-score
title: Zwanzigerrufen, only the declarers' score written down
extends: zwanzigerrufen
phases:
  8:
    settle: {pattern: declarers_score, multiplier: "if double_deals > 0 then 2 else 1"}
"""


@pytest.mark.parametrize("seed", range(6))
def test_each_declarer_scores_the_net_and_the_defenders_nothing(seed):
    shared, shared_record = play_match(load_game("zwanzigerrufen", max_deals=1), seed=seed)
    alone, alone_record = play_match(load_text(DECLARERS_SCORE, "yaml", max_deals=1), seed=seed)
    assert shared.history == alone.history                      # the scoring changes no move
    deal = shared_record.deals[-1]
    if "contract" not in deal:                                  # thrown in: nobody scores
        assert alone.scores == shared.scores
        return
    side = {int(seat[1:]) - 1 for seat in deal["contract"]["side"]}
    start = shared.game.definition.match.start
    paid = next(start - shared.scores[s] for s in range(4) if s not in side)   # what each defender paid
    for seat in range(4):
        assert alone.scores[seat] - start == (paid if seat in side else 0)
    assert sum(s - start for s in shared.scores) == 0


def test_a_settlement_declared_not_zero_sum_is_not_reported_as_e552():
    game = load_text(DECLARERS_SCORE, "yaml", max_deals=1)
    assert all(play_deal(game, seed) is None for seed in range(20))


def test_explain_says_the_deal_does_not_sum_to_zero():
    from rulelang.render.explain import explain_game
    from rulelang.loader import parse_text, resolve_document
    text = "\n".join(explain_game(resolve_document(parse_text(DECLARERS_SCORE, "v.yaml")).data))
    assert "each declarer scores the net, won or lost, and the defenders score nothing" in text
