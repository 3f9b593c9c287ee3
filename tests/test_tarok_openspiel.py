"""Tarok against OpenSpiel's ``tarok`` (extra ``crosscheck``), move by move.

OpenSpiel deals (its chance node is one action, the deal by seed); the same hands and talon, in
OpenSpiel's talon order, are dealt to rulelang's ``tarok`` by an explicit deal. Then every bid, king
call, talon set, discard and card is picked at random among OpenSpiel's legal actions and applied to
both. At every decision both must agree on the seat to act and on its legal actions by name (the
bids, the four Kings, the talon sets, the discards, the cards of every trick); at the end on every
seat's return. The talon cards Klop gives to the winners of its first six tricks, and the rest of the
talon the declarer gathers with a called King found there, come to rulelang as chance draws in
OpenSpiel's order. A planted change in the rule file makes the comparison fail.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.interpreter.agents.basic import DealError
from rulelang.loader import load_game, load_text

pyspiel = pytest.importorskip("pyspiel")

TAROKS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI",
          "XVII", "XVIII", "XIX", "XX", "XXI", "Škis"]
RED, BLACK = ["4", "3", "2", "1", "J", "C", "Q", "K"], ["7", "8", "9", "10", "J", "C", "Q", "K"]
CARDS = TAROKS + [rank + suit for suit, ranks in (("♥", RED), ("♦", RED), ("♠", BLACK), ("♣", BLACK))
                  for rank in ranks]
"""OpenSpiel's card actions 0 … 53 by name: the taroks from the Pagat up, then each suit from its lowest card."""
BIDS = {"Pass": "pass", "Klop": "klop", "Three": "three", "Two": "two", "One": "one", "Solo three": "solo_three",
        "Solo two": "solo_two", "Solo one": "solo_one", "Beggar": "beggar", "Solo without": "solo_without",
        "Open beggar": "open_beggar", "Colour valat without": "colour_valat_without",
        "Valat without": "valat_without"}


@pytest.fixture(scope="module")
def spiel_game():
    """OpenSpiel's tarok with a fixed seed for its deals (its game object deals each new state from its own
    generator), so that a failure names a deal that comes back."""
    return pyspiel.load_game("tarok", {"players": 4, "rng_seed": 1})


@pytest.fixture(scope="module")
def ours():
    return load_game("tarok", max_deals=1)


def their_names(theirs) -> dict[str, int]:
    """OpenSpiel's legal actions now, by the name rulelang gives the same move."""
    phase = theirs.current_game_phase()
    names = {}
    for action in theirs.legal_actions():
        if phase == pyspiel.TarokGamePhase.BIDDING:
            names[BIDS[theirs.action_to_string(action)]] = action
        elif phase == pyspiel.TarokGamePhase.TALON_EXCHANGE and len(theirs.talon()) == 6:
            names[f"set{action + 1}"] = action
        else:
            names[CARDS[action]] = action
    return names


def our_names(state) -> dict[str, int]:
    return {state.action_to_string(action): action for action in state.legal_actions()}


def feed_chance(state, deal: ScriptedDeal, talon: list[str]) -> None:
    """Chance in rulelang: the talon laid out in sets and Klop's gifts from the explicit deal's talon (OpenSpiel's
    order); once that is used up, the rest of the talon gathered with a called King, in any order."""
    while state.is_chance_node():
        try:
            deal.play(state)
        except DealError:
            state.apply_action(state.legal_actions()[0])


def lock_step(spiel_game, game, seed: int) -> tuple[list[float], list[int], str]:
    """One random deal of OpenSpiel's tarok replayed in rulelang, compared at every decision; both returns and the
    contract."""
    rng = random.Random(seed)
    theirs = spiel_game.new_initial_state()
    theirs.apply_action(theirs.legal_actions()[0])
    talon = [CARDS[a] for a in theirs.talon()]
    seats = range(game.num_players)
    deal = ScriptedDeal(game, {p: [CARDS[a] for a in theirs.player_cards(p)] for p in seats}, talon=talon)
    state = game.new_initial_state()
    while state.is_chance_node():
        deal.play(state)
    step, eager = 0, rng.random() ** 3                  # how readily this table bids: mostly low
    while not theirs.is_terminal():
        feed_chance(state, deal, talon)
        where = f"seed {seed}, step {step} ({theirs.current_game_phase()}, rulelang {state.phase.kind})"
        assert state.current_player() == theirs.current_player(), f"{where}: a different seat acts"
        names = their_names(theirs)
        mine = our_names(state)
        assert set(mine) == set(names), f"{where}: rulelang {sorted(mine)}, OpenSpiel {sorted(names)}"
        bids = sorted(n for n in names if n != "pass")
        bidding = theirs.current_game_phase() == pyspiel.TarokGamePhase.BIDDING
        name = "pass" if bidding and "pass" in names and (rng.random() > eager or not bids) else \
            min(bids, key=lambda n: game.definition.contracts[n].rank) if bidding and rng.random() < 0.7 else \
            rng.choice(sorted(names))
        theirs.apply_action(names[name])
        state.apply_action(mine[name])
        step += 1
    feed_chance(state, deal, talon)
    assert state.is_terminal(), f"seed {seed}: rulelang goes on after OpenSpiel's deal ended ({state.phase.kind})"
    return theirs.returns(), state.deal_results[-1]["delta"], state.deal_results[-1]["contract"]


def test_tarok_plays_as_openspiel_move_by_move_and_scores_alike(spiel_game, ours):
    contracts = {}
    for seed in range(1200):
        theirs, mine, contract = lock_step(spiel_game, ours, seed)
        assert [int(v) for v in theirs] == mine, f"seed {seed} ({contract}): OpenSpiel {theirs}, rulelang {mine}"
        contracts[contract] = contracts.get(contract, 0) + 1
    assert set(contracts) == set(ours.definition.contracts), contracts       # every contract was played


def test_the_three_handed_table_plays_as_openspiel_too():
    spiel_three = pyspiel.load_game("tarok", {"players": 3, "rng_seed": 1})
    game = load_game("tarok-three", max_deals=1)
    contracts = {}
    for seed in range(600):
        theirs, mine, contract = lock_step(spiel_three, game, seed)
        assert [int(v) for v in theirs] == mine, f"seed {seed} ({contract}): OpenSpiel {theirs}, rulelang {mine}"
        contracts[contract] = contracts.get(contract, 0) + 1
    assert set(contracts) == set(game.definition.contracts), contracts


RULES = (Path(__file__).resolve().parent.parent / "games" / "tarok.yaml").read_text(encoding="utf-8")
PLANTED = {
    "no hold": ("hold: senior, ", ""),
    "no Klop gift": ("if contract == klop and tricks_played <= 6 then 1 else ", "if false then 1 else "),
    "no emperor trick": ("{card: \"'I'\", when: \"{'I', 'Mond', 'Škis'} in trick and (not colour_valat", "{card: \"'I'\", when: \"false and (not colour_valat"),
    "Mond penalty 21": ("then -20 else 0) + (if with_talon", "then -21 else 0) + (if with_talon"),
    "kings bonus by the rules": ("count(team_pile) == 4 then 10", "count(team_pile & kings) == 4 then 10"),
}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_the_differential_catches_a_planted_change(spiel_game, planted):
    old, new = PLANTED[planted]
    assert RULES.count(old) == 1, planted
    game = load_text(RULES.replace(old, new), "yaml", max_deals=1)
    with pytest.raises(AssertionError):
        for seed in range(1200):
            theirs, mine, _ = lock_step(spiel_game, game, seed)
            assert [int(v) for v in theirs] == mine
