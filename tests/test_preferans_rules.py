"""Preferans (games/preferans.yaml), the Sochi rules, in card names, and 300 random deals scored by an independent
reading of them (English Wikipedia's 'Preferans': contract values, whist obligations, remise and consolation,
misère, raspasy, pool, mountain and whists settled in whists)."""

from __future__ import annotations

import random

import pytest

from helpers import legal_names as legal, named_deal, play_deal, say, sparing_bidder
from rulelang.loader import load_game

LAYOUT = {0: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♥ K♥",
          1: "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ Q♥ J♥",
          2: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 10♥ 9♥"}
TALON = "8♥ 7♥"
"""P1 the spades, P2 the clubs, P3 the diamonds, two hearts each; P3 deals, so P1 bids and leads first."""


@pytest.fixture(scope="module")
def game():
    return load_game("preferans", max_deals=1)


def deal(game, hands=LAYOUT, talon=TALON):
    return named_deal(game, hands, 10, talon=talon, dealer=2)


def delta(state) -> list[int]:
    return state.deal_results[-1]["delta"]


def play_out(state, rng=None):
    rng = rng or random.Random(0)
    while not state.deal_results:
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_cards_rank_ace_king_queen_jack_ten_down_to_seven(game):
    hands = {0: "K♠ 7♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥", 1: "10♠ 9♠ A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣",
             2: "J♠ 8♠ A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦"}
    state = deal(game, hands, talon="A♠ Q♠")
    say(state, "pass", "pass", "pass", "K♠", "10♠", "J♠")           # raspasy: P1 leads
    assert state.tricks.trick_winners[-1][0] == 0, "the King beats the Jack and the ten"
    assert len(game.deck.cards) == 32


# ---------------------------------------------------------------------- the auction
def test_a_pass_is_final_and_the_last_bidder_left_wins(game):
    state = deal(game)
    say(state, "6spades", "7clubs", "pass", "7diamonds")
    assert state.current_player() == 1, "P3 passed: P2 is asked, not P3"
    say(state, "pass")
    assert state.declarer == 0 and state.phase.kind == "take_talon"


def test_misere_ranks_between_eight_no_trumps_and_nine_spades(game):
    state = deal(game)
    assert "misere" in legal(state)
    say(state, "8notrump")
    assert "misere" in legal(state) and "9spades" in legal(state)
    say(state, "misere")
    assert "misere" not in legal(state) and "9spades" in legal(state)


def test_misere_is_only_a_first_bid_and_its_bidder_bids_nothing_after(game):
    state = deal(game)
    say(state, "6spades", "7spades", "pass")
    assert "misere" not in legal(state) and "8spades" in legal(state), "P1 has bid: misère is no longer his"
    state = deal(game)
    say(state, "misere", "9spades", "pass")
    assert legal(state) == {"pass"}, "after misère P1 bids nothing more"


def test_when_all_three_pass_raspasy_is_played_and_each_trick_costs(game):
    state = deal(game)
    say(state, "pass", "pass", "pass")
    assert state.contract == "raspasy" and state.declarer == -1 and state.phase.kind == "tricks"
    play_out(state)
    taken = [sum(1 for winner, _ in state.tricks.trick_winners if winner == seat) for seat in range(3)]
    net = [t - (1 if t == 0 else 0) for t in taken]
    assert delta(state) == [10 * (sum(net) - 3 * n) for n in net]


# ---------------------------------------------------------------------- the talon and the declaration
def test_the_winner_takes_the_shown_talon_then_names_his_bid_or_higher(game):
    state = deal(game)
    say(state, "7spades", "pass", "pass")
    assert set(game.deck.names(state.take_talon.shown)) == {"8♥", "7♥"}
    say(state, "8♥", "7♥")
    assert state.phase.kind == "declare"
    assert {"7spades", "7notrump", "10notrump"} <= legal(state) and "6notrump" not in legal(state)
    assert "misere" not in legal(state)
    say(state, "8spades")
    assert state.vars["level"] == 8 and state.phase.kind == "decide"


def test_a_misere_won_is_played_as_bid_with_the_defenders_hands_open_from_the_first_card(game):
    state = deal(game)
    say(state, "misere", "pass", "pass", "A♠", "K♠")
    assert state.contract == "misere" and state.phase.kind == "tricks"
    hands = {name: set(game.deck.names(state.hands[seat])) for seat, name in ((1, "P2"), (2, "P3"))}
    assert all("open_cards" not in state.observation(seat) for seat in range(3)), "not before the first card"
    assert "| open" not in state.information_state_string(0)
    leader = state.current_player()
    card = state.legal_actions()[0]
    state.apply_action(card)
    if leader in (1, 2):                                    # a defender led: his hand is shown without that card
        hands[f"P{leader + 1}"].discard(game.deck.names(1 << card)[0])
    for seat in range(3):                                   # both defenders' hands, seen by everyone
        seen = state.observation(seat)
        assert {name: set(cards) for name, cards in seen["open_hands"].items()} == hands, seat
    infostate = state.information_state_string(0)
    assert "| open P2:" in infostate and "| open P3:" in infostate
    assert "| open P3:" in state.information_state_string(1) and "| open P2:" not in state.information_state_string(1)


# ---------------------------------------------------------------------- whist and pass
def test_when_both_defenders_pass_the_contract_is_scored_unplayed(game):
    state = deal(game)
    say(state, "6spades", "pass", "pass", "8♥", "7♥", "6spades", "pass", "pass")
    assert state.deal_results, "no card is played"
    assert delta(state) == [40, -20, -20]         # 2 in P1's pool: ten whists a point, shared by three, in thirds


def test_a_lone_whister_may_play_light_and_plays_his_partners_cards(game):
    state = deal(game)
    say(state, "6spades", "pass", "pass", "8♥", "7♥", "6spades", "whist", "pass", "light")
    assert state.phase.kind == "tricks" and state.current_player() == 0
    say(state, "A♠")
    assert state.current_player() == 1
    say(state, "Q♥")
    assert state.current_player() == 1, "P2 plays P3's cards"
    seen = state.observation(0)
    assert set(seen.get("dummy_hand", [])) == set(LAYOUT[2].split()) - {"10♥"} or "dummy_hand" in seen


# ---------------------------------------------------------------------- an independent reading of the scores
VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
STRAINS = ("spades", "clubs", "diamonds", "hearts", "notrump")


def expected(game, state) -> list[int]:
    """The deal's score per seat in thirds of a whist, from pool, mountain and whists as the Sochi rules write
    them: 10 whists a point of mountain (pool counting against it) shared among the three, plus the whists."""
    taken = [sum(1 for winner, _ in state.tricks.trick_winners if winner == seat) for seat in range(3)]
    pool, mountain, whists = [0, 0, 0], [0, 0, 0], [[0] * 3 for _ in range(3)]   # whists[a][b]: a on b
    calls = [c for c in state.strain_auction.calls if c != "pass"]
    if not calls:                                                   # raspasy
        for seat in range(3):
            mountain[seat] += taken[seat]
            pool[seat] += 1 if taken[seat] == 0 else 0
    else:
        declarer = state.declarer
        defenders = [s for s in range(3) if s != declarer]
        if calls[-1] == "misere":
            if taken[declarer] == 0:
                pool[declarer] += 10
            else:
                mountain[declarer] += 10 * taken[declarer]
        else:
            named = getattr(state.strain_auction, "declared", None) or calls[-1]
            level = int(named[:-len(next(s for s in STRAINS if named.endswith(s)))])
            assert level == state.vars["level"]
            value = VALUE[level]
            whisting = [s for s in defenders if state.decide.chosen[s] == "whist"]
            if not whisting:
                assert not state.tricks.trick_winners
                pool[declarer] += value
            else:
                defended = sum(taken[s] for s in defenders)
                short = level - taken[declarer]
                if short <= 0:
                    pool[declarer] += value
                else:
                    mountain[declarer] += value * short
                    for s in defenders:
                        whists[s][declarer] += value * short
                for s in whisting:
                    whists[s][declarer] += value * (defended if len(whisting) == 1 else taken[s])
                if defended < OBLIGATION[level]:
                    for s in whisting:
                        if len(whisting) == 1:
                            mountain[s] += value * (OBLIGATION[level] - defended)
                        else:
                            mountain[s] += value * max(0, OBLIGATION[level] - 2 * taken[s]) // 2
    net = [mountain[s] - pool[s] for s in range(3)]
    return [10 * (sum(net) - 3 * net[s]) + 3 * (sum(whists[s]) - sum(w[s] for w in whists)) for s in range(3)]


def test_three_hundred_random_deals_score_as_an_independent_reading_of_the_rules(game):
    seen = set()
    for seed in range(300):
        state = play_deal(game, seed, sparing_bidder(0.6, 5))
        assert delta(state) == expected(game, state), f"seed {seed}"
        assert sum(delta(state)) == 0
        seen.add(state.contract or ("unplayed" if not state.tricks.trick_winners else state.vars.get("style")
                                    or "dark"))
    assert {"raspasy", "misere", "unplayed", "light", "dark"} <= seen, seen
