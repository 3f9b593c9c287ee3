"""Trick play that ends early (``ends_when``): OpenSpiel's Tarok ends a Beggar at the first trick the
declarer takes and a Valat at the first trick he loses; the cards still held are never played.

Scenarios in card names on a 52-card stand-in of the Tarok bidding file (tests/bidding/), the
batch engine replayed through the scalar one, and the words ``explain`` gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.diagnostics import RuleError
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text
from rulelang.validators.report import diagnostics_of_text

BASE = (Path(__file__).parent / "bidding" / "tarok-bidding.yaml").read_text(encoding="utf-8")
HANDS = {0: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠".split(),
         1: "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥".split(),
         2: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦".split(),
         3: "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣".split()}
"""Each seat one suit: the leader of a suit wins every trick he leads, so who takes the first trick is the
first leader."""


def game_with(contracts: dict[str, str], **tricks) -> object:
    """The stand-in with ``ends_when`` set per contract (``contracts``) and keys added to the tricks phase."""
    text = BASE
    for name, condition in contracts.items():
        line = next(line for line in text.splitlines() if line.startswith(f"  {name}: {{"))
        text = text.replace(line, line[:-1] + f", tricks: {{ends_when: \"{condition}\"}}}}")
    for key, value in tricks.items():
        text = text.replace("      win: [{highest: led_suit}]\n", f"      win: [{{highest: led_suit}}]\n      {key}: {value}\n")
    return load_text(text, "yaml", max_deals=1)


def bid(game, *words):
    state = game.new_initial_state()
    ScriptedDeal(game, {seat: list(cards) for seat, cards in HANDS.items()}).play(state)
    for word in words:
        state.apply_action(game.symbol_ids[word])
    return state


def play_out(state) -> None:
    """Each seat plays its highest card, trick after trick, until trick play ends."""
    while state.phase is not None and state.phase.kind == "tricks":
        state.apply_action(max(state.legal_actions(), key=lambda card: -card))


def cards_left(state) -> list[int]:
    return [bin(hand).count("1") for hand in state.hands]


def test_a_beggar_ends_at_the_first_trick_its_declarer_takes():
    game = game_with({"beggar": "tricks(declarers) > 0"})
    state = bid(game, "pass", "pass", "pass", "beggar")              # P1 must bid: a Beggar; he leads spades
    play_out(state)
    assert state.is_terminal()
    assert state.deal_results[-1]["tricks"] == [1, 0, 0, 0]          # P1 took the first trick: it is over
    assert cards_left(state) == [12, 12, 12, 12]


def test_a_beggar_whose_declarer_takes_nothing_is_played_to_the_last_trick():
    game = game_with({"beggar": "tricks(declarers) > 0"})
    state = bid(game, "beggar", "pass", "pass", "pass", "beggar")      # P2 declares; P1 takes every trick
    play_out(state)
    assert state.deal_results[-1]["tricks"] == [13, 0, 0, 0] and cards_left(state) == [0, 0, 0, 0]


def test_a_valat_ends_at_the_first_trick_its_declarer_loses():
    game = game_with({"valat_without": "tricks(defenders) > 0"})
    state = bid(game, "valat_without", "pass", "pass", "pass", "valat_without")     # P2 declares
    play_out(state)
    assert state.deal_results[-1]["tricks"] == [1, 0, 0, 0] and cards_left(state) == [12, 12, 12, 12]


def test_a_contract_without_its_own_end_plays_every_trick():
    game = game_with({"valat_without": "tricks(defenders) > 0"})
    state = bid(game, "two", "pass", "pass", "pass", "two")
    play_out(state)
    assert sum(state.deal_results[-1]["tricks"]) == 13


def test_the_phase_may_end_every_contract_early():
    game = game_with({}, ends_when='"tricks_played >= 3"')
    state = bid(game, "two", "pass", "pass", "pass", "two")
    play_out(state)
    assert state.deal_results[-1]["tricks"] == [3, 0, 0, 0] and cards_left(state) == [10, 10, 10, 10]


def test_explain_says_when_trick_play_ends():
    import yaml
    from rulelang.render.explain import explain_game
    text = BASE.replace("      win: [{highest: led_suit}]\n", "      win: [{highest: led_suit}]\n      ends_when: \"tricks_played >= 3\"\n")
    text = text.replace("  beggar: {rank: 8, value: 70, sides: alone}",
                        "  beggar: {rank: 8, value: 70, sides: alone, tricks: {ends_when: \"tricks(declarers) > 0\"}}")
    lines = "\n".join(explain_game(yaml.safe_load(text)))
    assert "Trick play ends early, after the first trick at which " in lines
    assert "Trick play ends early, after the first trick at which the declaring side took a trick" in lines


def test_an_end_that_always_holds_is_a_warning():
    text = BASE.replace("      win: [{highest: led_suit}]\n", "      win: [{highest: led_suit}]\n      ends_when: \"1 == 1\"\n")
    found = [d for d in diagnostics_of_text(text, "early.yaml") if d.code == "W623"]
    assert found and "after the first trick" in found[0].message


def test_an_end_that_is_not_a_condition_is_an_error_at_its_line():
    text = BASE.replace("      win: [{highest: led_suit}]\n", "      win: [{highest: led_suit}]\n      ends_when: \"declarer\"\n")
    with pytest.raises(RuleError) as error:
        load_text(text, "yaml")
    assert any(d.span is not None and d.span.line == text.splitlines().index('      ends_when: "declarer"') + 1
               for d in error.value.diagnostics)


def test_batch_deals_that_end_early_replay_through_the_scalar_engine():
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    game = game_with({"beggar": "tricks(declarers) > 0", "valat_without": "tricks(defenders) > 0",
                      "open_beggar": "tricks(declarers) > 0"})
    run = BatchRun(game, 300, seed=7, record=True).play()
    check_replays(game, run)
    assert (run.state.tricks.played != 0).all()


# ---------------------------------------------------------------------- cards kept by their players
def test_a_kept_card_goes_to_the_pile_of_its_player_and_the_trick_still_counts_for_the_winner():
    game = game_with({}, kept="\"{'2♣'}\"")
    state = bid(game, "two", "pass", "pass", "pass", "two")
    for card in ("A♠", "A♥", "A♦", "2♣"):                 # P1 leads, P4 throws his 2♣ on P1's trick
        state.apply_action(game.deck.lookup[card.casefold()])
    assert state.tricks.taken == [1, 0, 0, 0]
    assert game.deck.names(state.won[0]) == ["A♠", "A♥", "A♦"] or \
        sorted(game.deck.names(state.won[0])) == sorted(["A♠", "A♥", "A♦"])
    assert game.deck.names(state.won[3]) == ["2♣"]


def test_the_excuse_rule_keeps_a_card_from_every_trick_but_the_one_it_names():
    game = game_with({}, kept="\"if tricks_played < 12 then {'2♣'} else none\"")
    state = bid(game, "two", "pass", "pass", "pass", "two")
    play_out(state)                                       # the highest card each time: 2♣ falls last
    assert "2♣" in game.deck.names(state.won[0])          # in the last trick it goes to the winner


def test_kept_cards_in_the_batch_engine_replay_through_the_scalar_engine():
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    text = BASE.replace("      win: [{highest: led_suit}]\n",
                        "      win: [{highest: led_suit}]\n      kept: \"{'2♣', '2♦'}\"\n")
    text = text.replace("  - settle: {pattern: declarers_share}\n",
                        "  - score:\n      each: seats\n      add: \"count(won({player})) + 10 * count(won({player}) & {'2♣'})\"\n")
    text = text.replace("items:\n  game:\n    game: true\n    achieved: \"tricks(side) >= 7\"\n", "")
    game = load_text(text, "yaml", max_deals=1)
    check_replays(game, BatchRun(game, 300, seed=9, record=True).play())


# ---------------------------------------------------------------------- cards given from the talon
KLOP_GIFT = '"if tricks_played <= 6 then 1 else 0"'


def gift_game(**tricks):
    """The stand-in with a talon of four (twelve cards each) and ``tricks`` keys added to its trick rules."""
    text = BASE.replace("  - deal: {each: 13}\n", "  - deal: {each: 12}\n  - talon: rest\n")
    for key, value in tricks.items():
        text = text.replace("      win: [{highest: led_suit}]\n", f"      win: [{{highest: led_suit}}]\n      {key}: {value}\n")
    return load_text(text, "yaml", max_deals=1)


GIFT_HANDS = {seat: cards[:12] for seat, cards in HANDS.items()}
TALON = ["2♠", "2♥", "2♦", "2♣"]


def gift_deal(game):
    state = game.new_initial_state()
    ScriptedDeal(game, {seat: list(cards) for seat, cards in GIFT_HANDS.items()}, talon=TALON).play(state)
    for word in ("two", "pass", "pass", "pass", "two"):
        state.apply_action(game.symbol_ids[word])
    return state


def test_the_winner_of_each_early_trick_receives_a_talon_card_seen_by_everyone():
    game = gift_game(gift=KLOP_GIFT)
    state = gift_deal(game)
    for card in ("A♠", "A♥", "A♦", "A♣"):
        state.apply_action(game.deck.lookup[card.casefold()])
    assert state.is_chance_node()
    ScriptedDeal(game, {}, talon=TALON).play(state)                  # the talon's first card: 2♠
    assert game.deck.names(state.won[0]) == ["A♠", "A♥", "A♦", "A♣", "2♠"] or \
        sorted(game.deck.names(state.won[0])) == sorted(["A♠", "A♥", "A♦", "A♣", "2♠"])
    assert state.current_player() == 0 and "2♠" not in game.deck.names(state.talon)
    assert all("2♠" in state.information_state_string(seat) for seat in range(4))


def test_gifts_stop_when_the_rule_says_or_the_talon_is_empty():
    import random
    game = gift_game(gift=KLOP_GIFT)
    state = gift_deal(game)
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            state.apply_action(state.legal_actions()[0])
    assert state.talon == 0 and sum(bin(pile).count("1") for pile in state.won) == 52


def test_gifts_in_the_batch_engine_replay_through_the_scalar_engine():
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    from helpers import replay_batch_deal
    game = gift_game(gift='"if tricks_played <= 2 then 2 else if tricks_played == 5 then 1 else 0"')
    run = BatchRun(game, 300, seed=13, record=True).play()
    check_replays(game, run)
    for row in range(0, 300, 7):
        state = replay_batch_deal(game, run, row)
        assert [pile & ((1 << 52) - 1) for pile in run.state.won[row].tolist()] == state.won
        assert sum(bin(pile).count("1") for pile in state.won) == 52 and state.talon == 0
