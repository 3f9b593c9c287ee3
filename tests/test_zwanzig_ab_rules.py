"""Zwanzig ab as shipped: the base game of zwanzig-ab.md §1 with the recommended readings of §3.

Every test fixes the cards with a scripted deal (dealer P1, so forehand is P2; each seat
gets 5 cards, the first two being its first packet; the talon holds the other 12, top
first) and plays the moves by name. Each test runs against every shipped file of the
game (the YAML and the DSL form).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from helpers import Table, names_of, seat
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, shipped_games

FILES = [p for p in shipped_games() if p.stem == "zwanzig-ab"]

NO_EXCHANGE = ("P2 done", "P3 done", "P4 done", "P1 done")


@lru_cache(maxsize=None)
def game_of(path, max_deals=None):
    return load_game(str(path), max_deals=max_deals)


@pytest.fixture(params=FILES, ids=[p.name for p in FILES])
def path(request):
    return request.param


@pytest.fixture
def one_deal(path):
    """The game stopped after one deal, so the final state still shows that deal."""
    return game_of(path, max_deals=1)


@pytest.fixture
def match(path):
    """The whole match, ended only by its own rules."""
    return game_of(path)


def begin(t: Table, trump: str, passing=()) -> None:
    """P2 names trumps, nobody exchanges, then P3, P4, P1 say play or pass (P2 must play)."""
    t.do(f"P2 {trump}", *NO_EXCHANGE)
    if trump != "diamonds":
        t.do(*(f"{s} {'pass' if s in passing else 'play'}" for s in ("P3", "P4", "P1")))


# Ranking and following: clubs are trumps.
DEAL_A = {"P1": "7♠ A♥ 8♥ 9♥ Q♥", "P2": "K♠ 7♥ A♦ K♦ Q♦", "P3": "10♠ 10♥ J♦ 9♦ 8♦", "P4": "9♠ K♥ A♣ 7♦ 10♦"}
# Voids: P3 and P4 have no spades, P1 has neither hearts nor clubs.
DEAL_B = {"P1": "10♠ K♠ Q♠ J♠ 7♦", "P2": "A♠ 9♠ K♦ Q♦ J♦", "P3": "8♣ 8♥ 9♥ 10♥ A♦", "P4": "A♣ 7♣ 10♦ 9♦ 8♦"}
# Trick winners: off-suit aces and a low trump.
DEAL_C = {"P1": "K♥ 7♠ 8♦ 9♦ 10♦", "P2": "9♥ 7♣ A♦ K♦ Q♦", "P3": "A♠ 10♠ J♦ 7♦ Q♠", "P4": "8♥ 8♠ A♣ 10♣ K♣"}
# A whole deal with neither hearts nor clubs in play among P1, P2, P3; P4 holds them and passes.
# Play: P2 takes three spade tricks, P3 two diamond tricks, P1 none.
DEAL_D = {"P1": "Q♠ J♠ K♦ Q♦ J♦", "P2": "A♠ 10♠ K♠ 7♦ 8♦", "P3": "A♦ 10♦ 7♠ 8♠ 9♠", "P4": "A♥ 10♥ A♣ 10♣ K♣"}
DEAL_D_TRICKS = ("P2 A♠", "P3 7♠", "P1 J♠",
                 "P2 10♠", "P3 8♠", "P1 Q♠",
                 "P2 K♠", "P3 9♠", "P1 K♦",
                 "P2 7♦", "P3 A♦", "P1 J♦",
                 "P3 10♦", "P1 Q♦", "P2 8♦")
# P2 holds the five top hearts; nobody else holds a heart.
DEAL_SLAM = {"P1": "A♦ 10♦ K♦ Q♦ J♦", "P2": "A♥ 10♥ K♥ Q♥ J♥", "P3": "A♠ 10♠ K♠ Q♠ J♠", "P4": "A♣ 10♣ K♣ Q♣ J♣"}


def deltas(state) -> dict[str, int]:
    """The score changes of the last finished deal, by seat name."""
    return {f"P{s + 1}": v for s, v in enumerate(state.deal_results[-1]["delta"])}


# ---------------------------------------------------------------------- deal and seating
def test_four_players_get_two_cards_then_three_and_twelve_go_to_the_talon(one_deal):
    t = Table(one_deal, DEAL_A)
    assert t.to_act() == "P2"                                    # forehand names trumps ...
    assert [len(t.hand(s)) for s in ("P1", "P2", "P3", "P4")] == [2, 2, 2, 2]   # ... after two cards
    assert t.hand("P2") == {"K♠", "7♥"}
    assert t.legal() == ["clubs", "spades", "hearts", "diamonds"]
    t.do("P2 hearts")
    assert [len(t.hand(s)) for s in ("P1", "P2", "P3", "P4")] == [5, 5, 5, 5]
    assert len(names_of(one_deal, t.state.talon)) == 12
    assert t.state.var_text("trump") == "hearts"


def test_the_first_dealer_is_drawn_by_lot_with_equal_chances(match):
    state = match.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [match.action_to_string(a) for a, _ in outcomes] == ["P1", "P2", "P3", "P4"]
    assert {p for _, p in outcomes} == {0.25}


def test_forehand_is_the_dealers_left_and_the_deal_passes_to_the_left(match):
    t = Table(match, DEAL_D)
    assert (t.state.dealer, t.state.forehand) == (seat("P1"), seat("P2"))
    begin(t, "clubs", passing=("P3", "P4", "P1"))              # a quick deal: everyone passes
    assert t.state.deal_number == 1
    assert (t.state.dealer, t.state.forehand) == (seat("P2"), seat("P3"))
    _, record = play_match(match, seed=5)
    for deal, following in zip(record.deals, record.deals[1:]):
        assert seat(following["dealer"]) == (seat(deal["dealer"]) + 1) % 4
        assert seat(deal["forehand"]) == (seat(deal["dealer"]) + 1) % 4


def test_exchanges_begin_with_forehand_and_go_clockwise_then_decisions_begin_left_of_forehand(one_deal):
    t = Table(one_deal, DEAL_A)
    t.do("P2 clubs")
    turns = []
    for _ in range(4):
        turns.append(t.to_act())
        t.do(f"{t.to_act()} done")
    for _ in range(3):
        turns.append(t.to_act())
        t.do(f"{t.to_act()} play")
    assert turns == ["P2", "P3", "P4", "P1", "P3", "P4", "P1"]
    assert t.to_act() == "P2"                                    # forehand leads to the first trick
    assert t.state.phase.kind == "tricks"


# ---------------------------------------------------------------------- exchange
def test_a_player_discards_up_to_three_cards_which_leave_play_and_draws_as_many_from_the_talon_top(one_deal):
    talon = "7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♠ Q♠ J♠ 8♠ J♥"
    t = Table(one_deal, DEAL_A, talon=talon)
    t.do("P2 clubs", "P2 A♦", "P2 K♦")
    assert t.to_act() == "P2" and "done" in t.legal()
    t.state.apply_checked(one_deal.string_to_action("Q♦"))      # the third discard ends the turn at once
    assert t.state.is_chance_node()
    t.settle()
    assert t.hand("P2") == {"K♠", "7♥", "7♣", "8♣", "9♣"}       # drawn from the top, in order
    assert t.to_act() == "P3"
    t.do("P3 J♦", "P3 done")                                     # one card: the fourth from the top
    assert t.hand("P3") == {"10♠", "10♥", "9♦", "8♦", "10♣"}
    t.do("P4 done", "P1 8♥", "P1 9♥", "P1 done")
    assert t.hand("P1") == {"7♠", "A♥", "Q♥", "J♣", "Q♣"}
    discarded = {"A♦", "K♦", "Q♦", "J♦", "8♥", "9♥"}
    assert names_of(one_deal, t.state.out) == discarded
    assert names_of(one_deal, t.state.talon) == {"K♣", "A♠", "Q♠", "J♠", "8♠", "J♥"}
    assert not discarded & set().union(*(t.hand(s) for s in ("P1", "P2", "P3", "P4")))
    assert names_of(one_deal, t.state.discards[seat("P2")]) == {"A♦", "K♦", "Q♦"}
    assert t.to_act() == "P3" and t.legal() == ["play", "pass"]


def test_a_player_who_keeps_his_cards_draws_nothing(one_deal):
    t = Table(one_deal, DEAL_A)
    t.do("P2 clubs")
    dealt = {s: t.hand(s) for s in ("P1", "P2", "P3", "P4")}
    t.do(*NO_EXCHANGE)
    assert {s: t.hand(s) for s in ("P1", "P2", "P3", "P4")} == dealt
    assert t.state.out == 0 and len(names_of(one_deal, t.state.talon)) == 12


# ---------------------------------------------------------------------- play or pass
def test_forehand_may_never_pass_his_play_is_taken_automatically(one_deal):
    t = Table(one_deal, DEAL_D)
    t.do("P2 clubs", *NO_EXCHANGE, "P3 pass", "P4 play", "P1 pass")
    assert t.state.decisions[seat("P2")] == "play (forced)"
    assert t.to_act() == "P2" and t.state.phase.kind == "tricks"


def test_nobody_may_pass_when_diamonds_are_trumps(one_deal):
    t = Table(one_deal, DEAL_A)
    t.do("P2 diamonds", *NO_EXCHANGE)
    assert t.state.phase.kind == "tricks" and t.to_act() == "P2"
    assert all(t.state.decisions[s] == "play (forced)" for s in range(4))
    assert t.state.active == 0b1111


def test_a_player_who_passes_takes_no_part_in_the_tricks_and_his_score_does_not_change(one_deal):
    t = Table(one_deal, DEAL_D)
    begin(t, "clubs", passing=("P4",))
    t.do(*DEAL_D_TRICKS)                                         # P4 is never asked for a card
    assert t.hand("P4") == {"A♥", "10♥", "A♣", "10♣", "K♣"}
    assert t.state.is_terminal()
    assert deltas(t.state)["P4"] == 0 and t.state.scores[seat("P4")] == 20


def test_when_everyone_else_passes_forehand_is_credited_with_five_tricks_for_minus_five(one_deal):
    t = Table(one_deal, DEAL_D)
    begin(t, "clubs", passing=("P3", "P4", "P1"))
    assert t.state.is_terminal()
    assert t.state.tricks.taken == [0, 5, 0, 0]
    assert deltas(t.state) == {"P1": 0, "P2": -5, "P3": 0, "P4": 0}
    assert one_deal.action_to_string(t.state.history[-1]) == "pass"   # no card was played


def test_when_everyone_else_passes_with_hearts_trumps_forehand_gets_minus_ten(one_deal):
    t = Table(one_deal, DEAL_D)
    begin(t, "hearts", passing=("P3", "P4", "P1"))
    assert deltas(t.state) == {"P1": 0, "P2": -10, "P3": 0, "P4": 0}


# ---------------------------------------------------------------------- trick play
def test_ace_ten_ranking_ten_beats_king_and_ace_beats_ten(one_deal):
    t = Table(one_deal, DEAL_A)
    begin(t, "clubs")
    t.do("P2 K♠", "P3 10♠", "P4 9♠", "P1 7♠")
    assert t.state.tricks.taken[seat("P3")] == 1 and t.to_act() == "P3"   # 10 beats K; the winner leads
    t.do("P3 10♥", "P4 K♥", "P1 A♥", "P2 7♥")
    assert t.state.tricks.taken[seat("P1")] == 1 and t.to_act() == "P1"   # A beats 10


def test_the_lead_is_free_even_with_trumps_in_hand(one_deal):
    t = Table(one_deal, DEAL_C)
    begin(t, "clubs")
    assert t.to_act() == "P2" and set(t.legal()) == t.hand("P2")


def test_a_player_must_follow_suit(one_deal):
    t = Table(one_deal, DEAL_A)
    begin(t, "clubs")
    t.do("P2 K♠")
    assert t.legal() == ["10♠"]
    with pytest.raises(IllegalActionError):
        t.do("P3 10♥")


def test_a_player_void_in_the_led_suit_must_trump_but_need_not_overtrump(one_deal):
    t = Table(one_deal, DEAL_B)
    begin(t, "clubs")
    t.do("P2 A♠")
    assert t.legal() == ["8♣"]                                   # void in spades: must trump
    t.do("P3 8♣")
    assert t.legal() == ["A♣", "7♣"]                             # may trump low under P3's 8♣
    t.do("P4 7♣")
    assert t.legal() == ["10♠", "K♠", "Q♠", "J♠"]
    t.do("P1 10♠")
    assert t.state.tricks.taken[seat("P3")] == 1                       # the highest trump wins


def test_a_player_void_in_the_led_suit_and_in_trumps_may_play_any_card(one_deal):
    t = Table(one_deal, DEAL_B)
    begin(t, "clubs")
    t.do("P2 A♠", "P3 8♣", "P4 7♣", "P1 10♠", "P3 9♥")
    assert t.legal() == ["A♣"]
    t.do("P4 A♣")
    assert set(t.legal()) == t.hand("P1") == {"K♠", "Q♠", "J♠", "7♦"}
    t.do("P1 7♦")
    assert set(t.legal()) == t.hand("P2") == {"9♠", "K♦", "Q♦", "J♦"}


def test_without_trumps_in_the_trick_the_highest_card_of_the_led_suit_wins(one_deal):
    t = Table(one_deal, DEAL_C)
    begin(t, "clubs")
    t.do("P2 9♥", "P3 A♠", "P4 8♥", "P1 K♥")                    # an off-suit ace does not win
    assert t.state.tricks.taken[seat("P1")] == 1 and t.to_act() == "P1"


def test_the_lowest_trump_beats_the_highest_card_of_the_led_suit(one_deal):
    t = Table(one_deal, DEAL_C)
    begin(t, "clubs")
    t.do("P2 9♥", "P3 A♠", "P4 8♥", "P1 K♥", "P1 7♠")
    assert t.legal() == ["7♣"]
    t.do("P2 7♣", "P3 10♠", "P4 8♠")
    assert t.state.tricks.taken[seat("P2")] == 1 and t.to_act() == "P2"


def test_an_illegal_card_is_refused_naming_the_follow_rule_and_where_it_is_written(path, one_deal):
    t = Table(one_deal, DEAL_A)
    begin(t, "clubs")
    t.do("P2 K♠")
    with pytest.raises(IllegalActionError) as caught:
        t.state.apply_checked(one_deal.string_to_action("10h"))
    line, column = locate(path, "follow", "led_suit")
    text = str(caught.value).splitlines()
    assert text[0] == (f"{path}:{line}:{column}: error[E504]: P3 may not play 10♥: "
                       "the follow rule `led_suit` requires one of 10♠")
    assert text[-1] == "hint: play one of 10♠"
    assert caught.value.diagnostic.code == "E504"
    assert t.to_act() == "P3" and t.hand("P3") == {"10♠", "10♥", "J♦", "9♦", "8♦"}   # nothing changed


def test_a_card_the_player_does_not_hold_is_refused(one_deal):
    t = Table(one_deal, DEAL_A)
    begin(t, "clubs")
    t.do("P2 K♠")
    with pytest.raises(IllegalActionError) as caught:
        t.state.apply_checked(one_deal.string_to_action("A♣"))
    assert caught.value.diagnostic.code == "E503"
    assert caught.value.diagnostic.message == "P3 does not hold 'A♣'"


def locate(path, *words: str) -> tuple[int, int]:
    """Line and column of the last word on the first line of ``path`` holding all the words."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if all(w in line for w in words):
            return number, line.index(words[-1]) + 1
    raise AssertionError(f"{path} has no line with {words}")


# ---------------------------------------------------------------------- scoring
def test_each_trick_costs_a_point_and_staying_in_without_a_trick_gains_five(one_deal):
    t = Table(one_deal, DEAL_D)
    begin(t, "clubs", passing=("P4",))
    t.do(*DEAL_D_TRICKS)
    assert t.state.tricks.taken == [0, 3, 2, 0]
    assert deltas(t.state) == {"P1": 5, "P2": -3, "P3": -2, "P4": 0}
    assert t.state.scores == [25, 17, 18, 20]


def test_hearts_as_trumps_double_everything(one_deal):
    t = Table(one_deal, DEAL_D)
    begin(t, "hearts", passing=("P4",))
    t.do(*DEAL_D_TRICKS)
    assert t.state.tricks.taken == [0, 3, 2, 0]
    assert deltas(t.state) == {"P1": 10, "P2": -6, "P3": -4, "P4": 0}


def test_taking_all_five_tricks_earns_no_slam_bonus(one_deal):
    t = Table(one_deal, DEAL_SLAM)
    begin(t, "hearts")
    for lead, others in zip(("A♥", "10♥", "K♥", "Q♥", "J♥"), ("A", "10", "K", "Q", "J")):
        t.do(f"P2 {lead}", f"P3 {others}♠", f"P4 {others}♣", f"P1 {others}♦")
    assert t.state.tricks.taken == [0, 5, 0, 0]
    assert deltas(t.state) == {"P1": 10, "P2": -10, "P3": 10, "P4": 10}


# ---------------------------------------------------------------------- end of the match
def test_reaching_exactly_zero_wins_the_match(match):
    t = Table(match, DEAL_D, scores=[20, 5, 20, 20])
    begin(t, "clubs", passing=("P3", "P4", "P1"))
    assert t.state.is_terminal() and t.state.winner == seat("P2")
    assert t.state.scores == [20, 0, 20, 20]
    assert t.state.returns() == [0.0, 20.0, 0.0, 0.0]


def test_a_score_above_zero_does_not_end_the_match(match):
    t = Table(match, DEAL_D, scores=[20, 6, 20, 20])
    begin(t, "clubs", passing=("P3", "P4", "P1"))
    assert not t.state.is_terminal() and t.state.winner is None
    assert t.state.scores == [20, 1, 20, 20] and t.state.deal_number == 1
    assert t.state.is_chance_node()                              # the next deal is being dealt


def test_when_two_players_reach_zero_or_below_the_lowest_score_wins(match):
    t = Table(match, DEAL_D, scores=[20, 2, 2, 20])
    begin(t, "clubs", passing=("P4",))
    t.do(*DEAL_D_TRICKS)
    assert t.state.scores == [25, -1, 0, 20]
    assert t.state.is_terminal() and t.state.winner == seat("P2")


def test_equal_lowest_scores_at_or_below_zero_mean_play_continues_until_one_is_alone(match):
    t = Table(match, DEAL_D, scores=[20, 3, 2, 20])
    begin(t, "clubs", passing=("P4",))
    t.do(*DEAL_D_TRICKS)
    assert t.state.scores == [25, 0, 0, 20]
    assert not t.state.is_terminal() and t.state.winner is None
    # deal 2: dealer P2, forehand P3; everyone else passes and P3 is credited with five tricks
    t.deal({"P3": "A♠ 10♠ K♠ Q♠ J♠", "P4": "A♥ 10♥ K♥ Q♥ J♥", "P1": "A♣ 10♣ K♣ Q♣ J♣", "P2": "A♦ 10♦ K♦ Q♦ J♦"})
    assert t.to_act() == "P3"
    t.do("P3 spades", "P3 done", "P4 done", "P1 done", "P2 done", "P4 pass", "P1 pass", "P2 pass")
    assert t.state.scores == [25, 0, -5, 20]
    assert t.state.is_terminal() and t.state.winner == seat("P3")


def test_a_random_match_ends_after_the_first_deal_with_a_single_lowest_score_at_or_below_zero(match):
    for seed in range(30):
        state, _ = play_match(match, seed=seed)
        results = state.deal_results
        for result in results[:-1]:
            low = min(result["scores"])
            assert low > 0 or result["scores"].count(low) > 1
        final = results[-1]["scores"]
        low = min(final)
        assert low <= 0 and final.count(low) == 1
        assert state.winner == final.index(low)


def test_the_yaml_and_the_dsl_file_are_the_same_game():
    games = [game_of(p) for p in FILES]
    assert len({g.definition.digest for g in games}) == 1
