"""How the heuristic judges a decision by rollouts (interpreter/agents/heuristic.py): a rollout's seat answers
a doubling (a Retour to a Kontra) when its side comes out ahead, so that a doubling judged on rollouts pays
only when the doubling side is clearly ahead (the auction's ``answers``); many options are screened first; an
option clearly behind passing is weighed no further. Zwanzigerrufen in card names; P4 deals, P1 is forehand."""

from __future__ import annotations

import math
import random

import pytest

from zr_helpers import VALAT, Table, game
from rulelang.constructs.auction import Auction
from rulelang.interpreter.agents.heuristic import _quick_move
from rulelang.interpreter.agents.worth import trick_worth

# P1 calls the XX, which P3 holds; between them they have the XX and the low tarocks, P2 and P4 the high ones
HOPELESS = {"P1": "VIII VII VI V IV A♥ A♦ 10♠ J♣ 10♣", "P2": "Sküs XXI XIX XVIII XVII K♥ Q♥ K♦ Q♦ C♦",
            "P3": "XX I XII XI X C♥ J♥ J♦ J♠ C♣", "P4": "IX XVI XV XIV XIII K♠ Q♠ C♠ K♣ Q♣"}


def answer(hands: dict) -> str:
    """What P3, the called partner, says in a rollout after P1 calls and P2 says Kontra on the game."""
    t = Table(game("zwanzigerrufen"), hands)
    t.do("P1 call", "P2 kontra_game")
    state = t.state
    move = _quick_move(state, state.legal_actions(), trick_worth(state.game), random.Random(0))
    return state.action_to_string(move)


def test_only_a_doubling_of_what_the_other_side_doubled_is_an_answer():
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")
    state = t.state
    assert Auction.answers(state, state.step, state.legal_actions()) == []      # a first Kontra answers nothing
    t.do("P2 kontra_game")
    answers = Auction.answers(t.state, t.state.step, t.state.legal_actions())
    assert [t.state.action_to_string(a) for a in answers] == ["retour_game"]


def test_a_partner_whose_side_takes_every_trick_answers_the_kontra_with_retour():
    assert answer(VALAT) == "retour_game"


def test_a_partner_whose_side_holds_only_the_low_tarocks_lets_the_kontra_stand():
    assert answer(HOPELESS) == "weiter"


def test_many_options_are_screened_and_the_best_weighed_on_the_rest_of_the_budget(monkeypatch):
    import rulelang.interpreter.agents.heuristic as heuristic
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")
    state = t.state                                                  # P2: Weiter, Kontra, the announcements
    legal = state.legal_actions()
    assert len(legal) >= heuristic.SCREEN_FROM
    best, passing = legal[-1], state.game.symbol_ids["weiter"]
    calls: dict[int, int] = {}

    def gain(state, seat, action, seed, *rest):
        calls[action] = calls.get(action, 0) + 1
        return 10.0 + seed % 3 if action == best else float(seed % 3)   # the best beats every other by 10

    monkeypatch.setattr(heuristic, "rollout_gain", gain)
    chosen = heuristic.judge(state, 1, legal, random.Random(1), budget=64, screen=False)
    assert chosen == best
    kept = {a for a in legal if calls[a] > heuristic.SCREEN_WORLDS}
    assert {best, passing} <= kept and len(kept) <= heuristic.KEPT + 1
    assert all(calls[a] == heuristic.SCREEN_WORLDS for a in legal if a not in kept)
    assert len({calls[a] for a in kept}) == 1                          # the kept ones on the same worlds


def test_when_every_option_is_clearly_behind_passing_the_decision_ends_early(monkeypatch):
    import rulelang.interpreter.agents.heuristic as heuristic
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")
    state = t.state
    legal = state.legal_actions()
    passing = state.game.symbol_ids["weiter"]
    calls: dict[int, int] = {}

    def gain(state, seat, action, seed, *rest):
        calls[action] = calls.get(action, 0) + 1
        return float(seed % 7) - (0.0 if action == passing else 50.0 + seed % 5)

    monkeypatch.setattr(heuristic, "rollout_gain", gain)
    assert heuristic.judge(state, 1, legal, random.Random(1), budget=64, screen=False) == passing
    assert calls[passing] == heuristic.EARLY_AFTER                    # far behind: gone after three worlds
    assert sum(calls.values()) < 64


def test_an_option_only_somewhat_behind_is_weighed_until_the_spread_is_known(monkeypatch):
    """Four standard errors on three worlds drop only what is far behind; an option a few points behind passing,
    whose worlds spread widely, is weighed on six worlds before it goes."""
    import rulelang.interpreter.agents.heuristic as heuristic
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")
    state = t.state
    passing = state.game.symbol_ids["weiter"]
    legal = [state.game.symbol_ids["valat_dagegen"], passing]           # a word of the lowest evidence
    calls: dict[int, int] = {}

    behind = [1.0, 9.0, 2.0, 8.0, 0.0, 10.0] * 10                      # five points on average, widely spread

    def gain(state, seat, action, seed, *rest):
        calls[action] = calls.get(action, 0) + 1
        return 0.0 if action == passing else -behind[calls[action] - 1]

    monkeypatch.setattr(heuristic, "rollout_gain", gain)
    assert heuristic.judge(state, 1, legal, random.Random(1), budget=64, screen=False) == passing
    assert calls[passing] == heuristic.SETTLED_AFTER


def test_once_one_option_is_clearly_the_choice_the_decision_ends(monkeypatch):
    """A word far ahead of passing and of every other word is said after six worlds, not the whole budget; two
    words close to each other are weighed on."""
    import rulelang.interpreter.agents.heuristic as heuristic
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")
    state = t.state
    passing, valat, absolut = (state.game.symbol_ids[w] for w in ("weiter", "valat_dagegen", "absolut_dagegen"))
    calls: dict[int, int] = {}

    def gain(state, seat, action, seed, *rest):
        calls[action] = calls.get(action, 0) + 1
        return float(seed % 7) + {passing: 0.0, valat: 40.0, absolut: 20.0}[action]

    monkeypatch.setattr(heuristic, "rollout_gain", gain)
    assert heuristic.judge(state, 1, [valat, absolut, passing], random.Random(1), budget=60, screen=False) == valat
    assert calls[passing] == heuristic.DECIDED_AFTER
    calls.clear()

    def close(state, seat, action, seed, *rest):
        calls[action] = calls.get(action, 0) + 1
        return {passing: 0.0, valat: 40.0 + seed % 7, absolut: 46.0 - seed % 7}[action]    # level on average

    monkeypatch.setattr(heuristic, "rollout_gain", close)
    heuristic.judge(state, 1, [valat, absolut, passing], random.Random(1), budget=60, screen=False)
    assert calls[passing] == 20                                        # the whole budget: 60 over three


def test_a_doubling_needs_two_units_of_evidence_and_one_more_for_each_step_before_it():
    """A Kontra must beat passing by two paired standard errors, a Retour by three: with one unit a Kontra came in
    a quarter of the heuristic's deals and a Resupra in more than one in a hundred (benchmarks/RESULTS.md)."""
    t = Table(game("zwanzigerrufen"), VALAT)
    t.do("P1 call")

    def evidence(name: str) -> float:
        return Auction.evidence(t.state, t.state.step, t.state.string_to_action(name))

    assert evidence("weiter") == 1.0 and evidence("kontra_game") == 2.0
    t.do("P2 kontra_game")
    assert evidence("retour_game") == 3.0


def test_a_seat_asked_again_after_only_passes_answers_from_the_same_playout(monkeypatch):
    """P3 lets P2's Kontra stand after one quiet playout; P4 passes; P1, of the same side, is asked whether to
    say Retour between the same words, and answers from that playout, playing no second one."""
    import rulelang.interpreter.agents.rollouts as rollouts
    playouts = []
    real = rollouts.rollout
    monkeypatch.setattr(rollouts, "rollout", lambda *a, **k: playouts.append(1) or real(*a, **k))
    t = Table(game("zwanzigerrufen"), HOPELESS)
    t.do("P1 call", "P2 kontra_game")
    world, worth, rng = t.state, trick_worth(t.state.game), random.Random(0)
    for expected in ("weiter", "weiter", "weiter"):                   # P3, P4 (nothing to answer), P1
        move = _quick_move(world, world.legal_actions(), worth, rng)
        assert world.action_to_string(move) == expected
        world.apply_action(move)
    assert len(playouts) == 1


def _before_the_deal(seed: int):
    """Zwanzigerrufen at its first decision: the seat before the dealer chooses to cut or to knock, holding no card."""
    from rulelang.interpreter.state import CHANCE
    state = game("zwanzigerrufen").new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_chance(rng)
    assert state.step.kind == "choose" and not state.hands[state.current_player()]
    return state


def test_a_choice_taken_holding_no_card_is_the_same_for_every_agent_and_judged_once(monkeypatch):
    import rulelang.interpreter.agents.heuristic as heuristic
    from rulelang.interpreter.agents import make_agent
    monkeypatch.setattr(heuristic, "_BLIND", {})
    state = _before_the_deal(1)
    first = make_agent("heuristic", seed=1).step(state)
    playouts = []
    real = heuristic.rollout_gain
    monkeypatch.setattr(heuristic, "rollout_gain", lambda *a, **k: playouts.append(1) or real(*a, **k))
    assert {make_agent("heuristic", seed=s).step(state) for s in range(2, 6)} == {first}
    assert playouts == []                                     # judged once in the process
    monkeypatch.setattr(heuristic, "_BLIND", {})
    assert make_agent("heuristic", seed=9).step(state) == first   # judged again: the same worlds, the same choice
    assert playouts


def test_a_pile_is_taken_without_weighing_piles_nobody_has_seen(monkeypatch):
    import rulelang.interpreter.agents.heuristic as heuristic
    from rulelang.interpreter.agents import make_agent
    from rulelang.interpreter.state import CHANCE
    state = _before_the_deal(1)
    state.apply_action(state.string_to_action("knock"))
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply_chance(rng)
    assert state.step.kind == "piles" and len(state.legal_actions()) == 4
    monkeypatch.setattr(heuristic, "judge", lambda *a, **k: pytest.fail("piles weighed by playouts"))
    assert state.action_to_string(make_agent("heuristic", seed=1).step(state)) == "pile1"


def test_an_option_short_of_the_evidence_it_needs_is_weighed_no_further():
    """Half a point behind passing, give or take: more worlds might bring an option that needs only to beat
    passing level with it, but not a Kontra, which must beat it by two standard errors."""
    from rulelang.interpreter.agents.heuristic import _clearly_behind
    passing, kontra = [0.0] * 6, [0.5, -1.5] * 3
    assert not _clearly_behind(kontra, passing)
    assert _clearly_behind(kontra, passing, bar=2.0)


def test_a_contract_each_plays_for_himself_is_not_the_lowest_bid_the_evidence_counts_from():
    """Schafkopf's Ramsch (rank 0, every seat for himself) is where passing leads: a Sauspiel, the lowest game
    played by sides, needs one unit against passing, a Wenz (a step above it) two, a solo (two steps)
    1 + log2(3)."""
    from rulelang.interpreter.state import CHANCE
    from rulelang.loader import load_game
    state = load_game("schafkopf", max_deals=1).new_initial_state()
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        state.apply_chance(rng)
    weights = {state.action_to_string(a): Auction.evidence(state, state.step, a) for a in state.legal_actions()}
    assert weights["ramsch"] == 1.0 and weights["sauspiel_bells"] == 1.0
    assert weights["wenz"] == 2.0 and weights["solo_acorns"] == pytest.approx(1 + math.log2(3))


def test_a_contract_s_evidence_grows_with_the_steps_of_the_ladder_below_it_not_with_its_rank_number():
    """Königrufen ranks ten contracts 1 … 11: its Bettel, five steps above the Rufer, needs 1 + log2(6) units of
    evidence (one unit a rank, as before, asked seven: a Bettel won nine times in ten was never bid), and the
    same ladder ranked 10, 20, 40 … asks the same of every contract."""
    from rulelang.constructs.auction import AuctionTable, ladder_steps
    from rulelang.loader import load_game
    game = load_game("koenigrufen", max_deals=1)
    phase = next(p for p in game.definition.phases if getattr(p, "kind", None) == "auction")
    table = AuctionTable(game, phase)
    assert table.steps["rufer"] == 0 and table.steps["bettel"] == 5 and table.steps["solodreier"] == 9
    assert ladder_steps({name: 10 * rank for name, rank in table.ranks.items()}, 10) == table.steps
    assert ladder_steps({"a": 0, "b": 1, "c": 2, "d": 4}, 1) == {"a": 0, "b": 0, "c": 1, "d": 2}


def test_the_plain_option_of_a_choice_among_names_is_its_quiet_option():
    """Skat's declarer picks up the Skat unless playing Hand beats it clearly (the rule file lists pick_up
    first); a trump suit has no plain option. With the best mean taken, 30 % of games were played Hand."""
    from rulelang.interpreter.agents.heuristic import _quiet_option
    from rulelang.interpreter.state import CHANCE
    from rulelang.loader import load_game
    game_ = load_game("skat", max_deals=1)
    quiet = {}
    for seed in range(40):
        state, rng = game_.new_initial_state(), random.Random(seed)
        while not state.is_terminal() and len(quiet) < 2:
            if state.current_player() == CHANCE:
                state.apply_chance(rng)
                continue
            legal = state.legal_actions()
            if state.step.kind == "choose" and state.step.var in ("skat_play", "trump"):
                found = _quiet_option(state, legal)
                quiet[state.step.var] = None if found is None else state.action_to_string(found)
            names = [state.action_to_string(a) for a in legal]
            state.apply_action(legal[names.index("hand")] if "hand" in names else rng.choice(legal))
        if len(quiet) == 2:
            break
    assert quiet == {"skat_play": "pick_up", "trump": None}


def test_the_heuristic_passes_the_card_whose_keeping_costs_most_without_rollouts(monkeypatch):
    """Hearts: P1 holds the Q♠ and the A♥; where tricks and points cost, the strong card with points goes
    first (the Q♠), then the A♥ — judged from the learned worth of tricks and points, not by rollouts (which
    took 40 ms a card and 99 % of a Hearts deal)."""
    import rulelang.interpreter.agents.heuristic as heuristic
    from helpers import Table
    from rulelang.interpreter.agents import make_agent
    from rulelang.loader import load_game
    hands = {"P1": "Q♠ A♥ 2♣ 3♣ 4♣ 5♣ 2♦ 3♦ 4♦ 5♦ 6♦ 2♠ 3♠", "P2": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ A♦ K♦ Q♦ J♦",
             "P3": "K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 10♦", "P4": "A♠ K♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 9♦ 8♦ 7♦"}
    t = Table(load_game("hearts", max_deals=1), hands)
    while t.to_act() != "P1":
        t.do(f"{t.to_act()} {t.state.action_to_string(t.state.legal_actions()[0])}")
    monkeypatch.setattr(heuristic, "judge", lambda *a, **k: pytest.fail("a pass weighed by rollouts"))
    agent = make_agent("heuristic", seed=1)
    passed = []
    for _ in range(2):
        card = agent.step(t.state)
        passed.append(t.state.action_to_string(card))
        t.state.apply_action(card)
    assert passed == ["Q♠", "A♥"]
