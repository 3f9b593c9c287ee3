"""What a word said beside the contract (an announcement, a doubling) brings against passing, learned per rule
file and used to drop hopeless words before any rollout (interpreter/agents/bids.py); and a rollout that ends
as a quiet playout already played it is not played again (heuristic._quiet_end). Zwanzigerrufen in card names:
P4 deals, P1 is forehand."""

from __future__ import annotations

import random

import pytest

from zr_helpers import Table, game
from test_judging_decisions import HOPELESS
import rulelang.interpreter.agents.heuristic as heuristic
import rulelang.interpreter.agents.rollouts as rollouts
from rulelang.interpreter.agents.bids import BidModels, bid_features, bid_models, from_json, to_json
from rulelang.interpreter.agents.worth import trick_worth
from rulelang.loader import load_game


def words_weighed(t: Table) -> list[str]:
    """The options the seat to act in ``t`` weighs by rollouts after the models' screen."""
    state = t.state
    legal = heuristic.candidates(state, state.legal_actions())
    quiet = heuristic._quiet_option(state, legal)
    kept = bid_models(state.game, heuristic._KIT).worth_weighing(state, state.current_player(), legal, quiet,
                                                                 {a: 1.0 for a in legal})
    return [state.action_to_string(a) for a in kept]


def test_models_are_learned_for_the_words_said_beside_the_contract_only():
    g = game("zwanzigerrufen")
    words = {word for _, word in bid_models(g, heuristic._KIT).fits}
    assert {"kontra_game", "valat_dagegen", "pagat_ultimo_dazu"} <= words
    assert not words & set(g.definition.contracts)                   # a bid is always weighed by rollouts


def test_a_rule_file_without_announcements_learns_no_model():
    assert bid_models(load_game("skat", max_deals=1), heuristic._KIT).fits == {}


def test_a_partner_holding_only_low_tarocks_does_not_weigh_announcing_valat():
    t = Table(game("zwanzigerrufen"), HOPELESS)
    t.do("P1 call", "P2 weiter")                     # P3 holds the XX P1 called, and the low tarocks
    weighed = words_weighed(t)
    assert "valat_dazu" not in weighed
    assert "weiter" in weighed and "solo" in weighed                  # passing and the bids stay


def test_the_words_dropped_are_never_played_out(monkeypatch):
    t = Table(game("zwanzigerrufen"), HOPELESS)
    t.do("P1 call", "P2 weiter")
    dropped = {t.state.string_to_action(w) for w in ("valat_dazu",)}
    played = set()
    real = heuristic.rollout_gain
    monkeypatch.setattr(heuristic, "rollout_gain",
                        lambda state, seat, action, *rest: played.add(action) or real(state, seat, action, *rest))
    heuristic.HeuristicAgent(1).step(t.state)
    assert played and not played & dropped


def model_of(g, phase: int, word: str, intercept: float, spread: float) -> BidModels:
    width = len(bid_features(g.new_initial_state(), 0))
    return BidModels(g, {(phase, word): (intercept, [0.0] * width, spread)})


@pytest.mark.parametrize("intercept, kept", [(-5.0, False), (0.0, False), (3.0, True)])
def test_a_word_is_dropped_when_its_estimate_falls_short_of_its_bar(intercept, kept):
    """A Kontra (evidence two) is weighed only if its estimate, taken as a 16-world mean (spread 8: a standard
    error of 8 / √16 = 2), is within one standard error of beating passing by two: 2 or more."""
    t = Table(game("zwanzigerrufen"), HOPELESS)
    t.do("P1 call")
    state = t.state
    kontra, passing = state.string_to_action("kontra_game"), state.string_to_action("weiter")
    models = model_of(state.game, state.phase_index, "kontra_game", intercept, 8.0)
    found = models.worth_weighing(state, 1, [kontra, passing], passing, {kontra: 2.0})
    assert found == ([kontra, passing] if kept else [passing])


def test_the_models_survive_the_cache_and_refuse_another_shape():
    g = game("zwanzigerrufen")
    models = bid_models(g, heuristic._KIT)
    again = from_json(g, to_json(models))
    assert again.fits == models.fits
    data = to_json(models)
    data["fits"][0][3] = data["fits"][0][3][:-1]                      # one weight short: another game's
    with pytest.raises(ValueError):
        from_json(g, data)
    data = to_json(models)
    data["fits"][0][2] = "many"
    with pytest.raises(TypeError):
        from_json(g, data)


def test_a_rollout_that_ends_as_a_quiet_playout_did_ends_with_its_returns(monkeypatch):
    """After P2's Kontra, P3 asks a quiet playout whether to say Retour; when everyone then passes the rollout's
    own card play is that playout's, so its returns are taken, not played again — the same returns."""
    def played_out(reuse: bool) -> tuple[list[float], int]:
        ends = []
        real = rollouts._quiet_end
        monkeypatch.setattr(rollouts, "_quiet_end",
                            lambda w, p: (lambda found: ends.append(found) or found)(real(w, p) if reuse else None))
        t = Table(game("zwanzigerrufen"), HOPELESS)
        t.do("P1 call", "P2 kontra_game")
        world = t.state.clone()
        returns = rollouts.rollout(world, world.deal_number, random.Random(3))
        return list(returns), sum(found is not None for found in ends)
    with_reuse, reused = played_out(True)
    without, _ = played_out(False)
    assert with_reuse == without and reused == 1
