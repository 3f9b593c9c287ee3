"""Doppelkopf (games/doppelkopf.rules), rule by rule in card names, after the DDV's tournament rules.

The Vorbehalt (forehand opens, each player speaks once, a solo outranks a Hochzeit, of two
solos the earlier stands); the trump order (Dullen, Queens, Jacks, diamonds) and the first
of two equal cards winning; Re = the holders of a Q♣, secret until shown; the Hochzeit's
partner found by the first foreign trick of three; the solos' own trumps; Re, Kontra and
the Absagen during play with their windows; the scoring table, checked against a scorer
written here from the DDV's text over many random deals. ``tests/logs/doppelkopf-re-keine-90.jsonl``
is one whole deal that replays to its scores.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from helpers import LOGS, Table, play_deal, seat
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game, load_text

LOG = LOGS / "doppelkopf-re-keine-90.jsonl"

# P1 and P2 hold one Q♣ each (Re); dealer P4, so P1 is forehand.
NORMAL = {"P1": "Q♣ 10♥ Q♠ J♣ A♦ 10♦ K♦ A♣ 10♣ K♣ A♠ A♥",
          "P2": "Q♣ Q♥ J♠ J♥ 9♦ 9♦ A♣ 9♣ 10♠ K♠ K♥ 9♥",
          "P3": "10♥ Q♠ Q♥ Q♦ J♣ J♦ A♦ 10♣ 9♣ A♠ A♥ K♥",
          "P4": "Q♦ J♠ J♥ J♦ 10♦ K♦ K♣ 10♠ K♠ 9♠ 9♠ 9♥"}
# P3 holds both Q♣ (a Hochzeit).
MARRIAGE = {"P1": "Q♠ 10♥ Q♠ J♣ A♦ 10♦ K♦ A♣ 10♣ K♣ A♠ A♥",
            "P2": "Q♦ Q♥ J♠ J♥ 9♦ 9♦ A♣ 9♣ 10♠ K♠ K♥ 9♥",
            "P3": "10♥ Q♣ Q♥ Q♣ J♣ J♦ A♦ 10♣ 9♣ A♠ A♥ K♥",
            "P4": NORMAL["P4"]}
SOLOS = ["damen", "buben", "fleischlos", "kreuz", "pik", "herz", "karo"]


@lru_cache(maxsize=None)
def game(name: str = "doppelkopf"):
    return load_game(name, max_deals=1)


@lru_cache(maxsize=None)
def second_dulle_game():
    return load_text("extends: doppelkopf\nparams:\n  second_dulle_wins: true\n", "yaml", max_deals=1)


def table(hands=NORMAL, *moves: str, rules=None) -> Table:
    t = Table(rules or game(), hands, dealer="P4")
    t.do(*moves)
    return t


def normal_game(hands=NORMAL, rules=None) -> Table:
    return table(hands, "P1 normal", "P2 gesund", "P3 gesund", "P4 gesund", rules=rules)


def cards_only(t: Table) -> list[str]:
    return [t.game.action_to_string(a) for a in t.state.legal_actions() if a < t.game.num_cards]


def winner_of_last_trick(t: Table) -> str:
    return t.game.seat_name(t.state.tricks.trick_winners[-1][0])


def parties_seen_by(t: Table, who: str) -> dict:
    return t.state.observation(seat(who)).get("parties", {})


# ---------------------------------------------------------------------- the Vorbehalt
def test_forehand_opens_the_vorbehalt_with_the_normal_game_or_a_solo_and_a_hochzeit_needs_both_queens_of_clubs():
    t = table()
    assert t.to_act() == "P1" and sorted(t.legal()) == sorted(["normal"] + SOLOS)
    t.do("P1 normal")
    assert sorted(t.legal()) == sorted(["gesund"] + SOLOS)
    assert "hochzeit" in table(MARRIAGE, "P1 normal", "P2 gesund").legal()


def test_every_player_speaks_once_and_then_forehand_leads_the_normal_game():
    t = normal_game()
    assert t.state.contract == "normal" and t.to_act() == "P1" and t.state.step.kind == "tricks"


def test_of_two_solos_the_earlier_player_plays_and_a_solo_outranks_a_hochzeit():
    t = table(MARRIAGE, "P1 normal", "P2 damen")
    assert t.legal() == ["gesund"]                               # P3 may not take over with his Hochzeit
    t.do("P3 gesund", "P4 gesund")
    assert t.state.contract == "damen" and t.state.declarer == seat("P2")
    assert t.to_act() == "P2"                                    # the soloist leads


# ---------------------------------------------------------------------- trumps and following
def test_the_dulle_is_no_heart_when_following_a_heart_lead():
    t = normal_game()
    t.do("P1 A♥", "P2 K♥")
    assert "10♥" not in t.legal() and {"A♥", "K♥"} <= set(t.legal())


def test_of_two_equal_cards_the_first_played_wins():
    t = normal_game()
    t.do("P1 A♥", "P2 K♥", "P3 A♥", "P4 9♥")
    assert winner_of_last_trick(t) == "P1"
    t.do("P1 Q♣", "P2 Q♣", "P3 Q♦", "P4 J♠")
    assert winner_of_last_trick(t) == "P1"


def test_a_trump_lead_must_be_followed_with_trumps_and_the_dulle_beats_the_queen_of_clubs():
    t = normal_game()
    t.do("P1 A♥", "P2 K♥", "P3 A♥", "P4 9♥", "P1 Q♣")
    assert set(cards_only(t)) == {"Q♣", "Q♥", "J♠", "J♥", "9♦"}
    t.do("P2 Q♥", "P3 10♥", "P4 J♦")
    assert winner_of_last_trick(t) == "P3"


def test_the_second_dulle_beats_the_first_when_the_parameter_says_so():
    moves = ["P1 A♥", "P2 K♥", "P3 A♥", "P4 9♥", "P1 10♥", "P2 Q♥", "P3 10♥", "P4 J♥"]
    assert winner_of_last_trick(table(NORMAL, "P1 normal", "P2 gesund", "P3 gesund", "P4 gesund", *moves)) == "P1"
    late = table(NORMAL, "P1 normal", "P2 gesund", "P3 gesund", "P4 gesund", *moves, rules=second_dulle_game())
    assert winner_of_last_trick(late) == "P3"


def test_a_diamond_jack_beats_the_ace_of_diamonds_and_any_trump_beats_a_plain_ace():
    t = normal_game()
    t.do("P1 A♦", "P2 9♦", "P3 J♦", "P4 K♦")
    assert winner_of_last_trick(t) == "P3"
    t.do("P3 10♣", "P4 K♣", "P1 A♣", "P2 A♣")
    assert winner_of_last_trick(t) == "P1"
    t.do("P1 10♣", "P2 9♣", "P3 9♣")
    assert set(cards_only(t)) == t.hand("P4")                     # P4 has no club left: any card
    t.do("P4 J♠")
    assert winner_of_last_trick(t) == "P4"


# ---------------------------------------------------------------------- the parties
def test_the_re_party_is_secret_until_a_queen_of_clubs_falls():
    t = normal_game()
    assert parties_seen_by(t, "P3") == {"P3": "defenders"}
    assert parties_seen_by(t, "P1") == {"P1": "declarers"}
    t.do("P1 A♥", "P2 K♥", "P3 A♥", "P4 9♥", "P1 Q♣")
    assert parties_seen_by(t, "P3") == {"P1": "declarers", "P3": "defenders"}
    t.do("P2 Q♣")
    assert parties_seen_by(t, "P4") == {"P1": "declarers", "P2": "declarers", "P3": "defenders", "P4": "defenders"}


def test_re_said_shows_the_party_of_who_said_it():
    t = normal_game()
    t.do("P1 A♥", "P2 re")
    assert parties_seen_by(t, "P4") == {"P2": "declarers", "P4": "defenders"}


# ---------------------------------------------------------------------- announcements
def test_re_and_kontra_are_said_by_their_own_party_while_the_player_still_holds_eleven_cards():
    t = normal_game()
    assert "re" in t.legal() and "kontra" not in t.legal()
    t.do("P1 A♥")
    assert "re" in t.legal()
    t.do("P2 K♥")
    assert "kontra" in t.legal() and "re" not in t.legal()
    t.do("P3 A♥", "P4 9♥")
    assert "re" in t.legal()                                      # P1 holds 11 cards
    t.do("P1 Q♣", "P2 Q♣", "P3 Q♦", "P4 J♠")
    assert "re" not in t.legal()                                  # P1 holds 10


def test_keine_90_follows_its_partys_re_and_each_absage_has_a_card_less_of_time():
    t = normal_game()
    assert "re_keine_90" not in t.legal()
    t.do("P1 re")
    assert "re_keine_90" in t.legal() and "re_keine_60" not in t.legal()
    t.do("P1 re_keine_90", "P1 re_keine_60", "P1 re_keine_30", "P1 re_schwarz")
    assert t.state.tricks.calls == {"re": 0, "re_keine_90": 0, "re_keine_60": 0, "re_keine_30": 0, "re_schwarz": 0}


def test_an_announcement_of_the_other_party_is_refused_with_the_reason():
    t = normal_game()
    with pytest.raises(IllegalActionError) as error:
        t.do("P1 kontra")
    assert "only the defenders say it" in error.value.diagnostic.message


# ---------------------------------------------------------------------- the Hochzeit
def marriage(*moves: str) -> Table:
    return table(MARRIAGE, "P1 normal", "P2 gesund", "P3 hochzeit", "P4 gesund", *moves)


def test_the_bride_is_known_to_all_and_the_first_foreign_trick_finds_the_partner():
    t = marriage()
    assert t.state.contract == "hochzeit" and t.to_act() == "P1"
    assert parties_seen_by(t, "P2") == {"P3": "declarers"} and "kontra" not in t.legal()
    t.do("P1 A♠", "P2 10♠", "P3 A♠", "P4 9♠")                     # P1 takes the first trick
    assert parties_seen_by(t, "P4") == {"P1": "declarers", "P2": "defenders", "P3": "declarers",
                                        "P4": "defenders"}
    assert t.state.side_mask == 1 << seat("P1") | 1 << seat("P3")


def test_announcements_in_a_hochzeit_wait_for_the_partner_and_then_run_one_trick_later():
    t = marriage()
    assert "re" not in t.legal()
    t.do("P1 A♠", "P2 10♠", "P3 A♠", "P4 9♠")
    t.do("P1 A♥", "P2 K♥", "P3 K♥", "P4 9♥", "P1 K♣")
    assert t.to_act() == "P2" and "kontra" in t.legal()           # P2 holds 10 cards: 10 + 1 >= 11
    t.do("P2 A♣", "P3 10♣", "P4 K♣")
    assert t.to_act() == "P2" and "kontra" not in t.legal()       # 9 cards now


def test_a_bride_who_takes_the_first_three_tricks_plays_alone():
    t = marriage("P1 J♣", "P2 J♠", "P3 Q♣", "P4 J♦", "P3 10♥", "P4 Q♦", "P1 10♥", "P2 Q♥")
    assert t.state.side_mask == 1 << seat("P3")
    assert parties_seen_by(t, "P1") == {"P3": "declarers"} and "re" not in t.legal()
    t.do("P3 Q♣", "P4 J♥", "P1 Q♠", "P2 Q♦")
    assert winner_of_last_trick(t) == "P3" and t.state.side_mask == 1 << seat("P3")
    assert parties_seen_by(t, "P1") == {"P1": "defenders", "P2": "defenders", "P3": "declarers", "P4": "defenders"}
    assert "re" in t.legal()                                      # 9 cards and three tricks late: 9 + 3 >= 11


def test_the_heuristic_player_plays_a_hochzeit_to_the_end_knowing_its_party_only_once_it_is_found():
    from rulelang.interpreter.agents.heuristic import HeuristicAgent, side_of
    t = marriage()
    assert side_of(t.state, seat("P1")) == {seat("P1")}
    agents = [HeuristicAgent(seed=s) for s in range(4)]
    while not t.state.is_terminal():
        t.state.apply_checked(agents[t.state.current_player()].step(t.state))
    assert sum(t.state.scores) == 0


# ---------------------------------------------------------------------- solos
def solo(name: str, hands=NORMAL) -> Table:
    return table(hands, f"P1 {name}", "P2 gesund", "P3 gesund", "P4 gesund")


def test_in_a_damensolo_only_the_queens_are_trumps_and_jacks_and_dullen_follow_their_suits():
    t = solo("damen")
    assert t.state.side_mask == 1 << seat("P1") and t.to_act() == "P1"
    t.do("P1 A♣", "P2 9♣")
    assert set(cards_only(t)) == {"J♣", "10♣", "9♣"}
    t.do("P3 J♣", "P4 K♣", "P1 A♥", "P2 9♥")
    assert set(cards_only(t)) == {"10♥", "A♥", "K♥"}


def test_in_a_bubensolo_only_the_jacks_are_trumps():
    t = solo("buben")
    t.do("P1 J♣", "P2 J♥")
    assert set(cards_only(t)) == {"J♣", "J♦"}
    t.do("P3 J♦", "P4 J♠")
    assert winner_of_last_trick(t) == "P1"


def test_in_a_fleischloser_nothing_is_trump():
    t = solo("fleischlos")
    t.do("P1 K♦", "P2 9♦", "P3 A♦", "P4 Q♦")
    assert winner_of_last_trick(t) == "P3"


def test_in_a_kreuzsolo_the_clubs_replace_the_diamonds_below_dullen_queens_and_jacks():
    t = solo("kreuz")
    t.do("P1 A♣")
    assert set(cards_only(t)) == {"Q♣", "Q♥", "J♠", "J♥", "A♣", "9♣"}
    t.do("P2 A♣", "P3 9♣", "P4 K♣")
    assert winner_of_last_trick(t) == "P1"
    t.do("P1 A♦", "P2 9♦", "P3 A♦", "P4 K♦")                       # diamonds are a plain suit
    assert winner_of_last_trick(t) == "P1"


def test_a_solo_is_paid_three_times_by_the_soloist_or_to_him():
    t = solo("fleischlos")
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    delta = t.state.deal_results[-1]["delta"]
    assert delta[0] == -3 * delta[1] and delta[1] == delta[2] == delta[3] != 0


# ---------------------------------------------------------------------- scoring
def ddv_re_value(result: dict) -> int:
    """The Re party's score of a finished deal, by the DDV's table (written here independently of the rules)."""
    re_points, re_tricks, kontra_tricks, said, solo = (result[k] for k in ("re_points", "re_tricks",
                                                                           "kontra_tricks", "said", "solo"))
    kontra_points = 240 - re_points
    steps = ["keine_90", "keine_60", "keine_30", "schwarz"]
    level = {party: max([i + 1 for i, step in enumerate(steps) if f"{party}_{step}" in said], default=0)
             for party in ("re", "kontra")}
    own_need = {1: 151, 2: 181, 3: 211}
    broken_with = {1: 90, 2: 60, 3: 30}

    def wins(party: str, points: int, own_tricks: int, other_tricks: int) -> bool:
        other = "kontra" if party == "re" else "re"
        if level[party]:
            return other_tricks == 0 if level[party] == 4 else points >= own_need[level[party]]
        if level[other]:
            return own_tricks > 0 if level[other] == 4 else points >= broken_with[level[other]]
        only_kontra = "kontra" in said and "re" not in said
        return points >= ((121 if only_kontra else 120) if party == "kontra" else (120 if only_kontra else 121))

    re_won = wins("re", re_points, re_tricks, kontra_tricks)
    kontra_won = wins("kontra", kontra_points, kontra_tricks, re_tricks)
    assert not (re_won and kontra_won)

    def against(points: int, other_level: int) -> int:
        return sum(1 for step, need in zip(range(1, 5), (120, 90, 60, 30)) if other_level >= step and points >= need)

    if re_won or kontra_won:
        loser_points, loser_tricks = (kontra_points, kontra_tricks) if re_won else (re_points, re_tricks)
        value = 1 + sum(1 for line in (90, 60, 30) if loser_points < line) + (loser_tricks == 0)
        value += 2 * ("re" in said) + 2 * ("kontra" in said) + level["re"] + level["kontra"]
        value += against(re_points, level["kontra"]) if re_won else against(kontra_points, level["re"])
        value = value if re_won else -value
    else:
        value = against(re_points, level["kontra"]) - against(kontra_points, level["re"])
    if not solo:
        value += result["extras"] - (1 if kontra_won else 0)
    return value


def deal_facts(state) -> dict:
    """What the DDV table needs of a finished deal, read off the tricks."""
    g, part = state.game, state.tricks
    re = state.side_mask
    points = [0] + [sum(g.deck.cards[card].points for _, card in plays) for plays in part.finished]
    extras = 0
    for number, (winner, card) in enumerate(part.trick_winners, start=1):
        sign = 1 if re >> winner & 1 else -1
        extras += sign if points[number] >= 40 else 0
        for fox_player in (seat for seat, c in part.finished[number - 1] if g.deck.cards[c].name == "A♦"):
            extras += sign if (re >> fox_player & 1) != (re >> winner & 1) else 0
        if number == 12 and g.deck.cards[card].name == "J♣":
            extras += sign
    re_points = sum(points[n] for n, (w, _) in enumerate(part.trick_winners, start=1) if re >> w & 1)
    re_tricks = sum(1 for w, _ in part.trick_winners if re >> w & 1)
    return {"re_points": re_points, "re_tricks": re_tricks, "kontra_tricks": 12 - re_tricks,
            "said": set(part.calls), "solo": bin(re).count("1") == 1, "extras": extras}


def biased_choice(state, legal: list[int], rng: random.Random) -> int:
    """A random move, with the normal game and the Hochzeit more likely than random bids make them."""
    names = {state.action_to_string(a): a for a in legal}
    preferred = [names[n] for n in ("hochzeit", "normal", "gesund") if n in names]
    calls = [a for a in legal if a >= state.game.num_cards]
    if preferred and rng.random() < 0.85:
        return preferred[0]
    if calls and state.step.kind == "tricks" and rng.random() < 0.3:
        return rng.choice(calls)
    return rng.choice(legal)


def random_deal(seed: int):
    """A deal played at random with :func:`biased_choice`."""
    return play_deal(game(), seed, biased_choice)


def test_every_deal_scores_as_the_ddv_table_says():
    contracts = set()
    for seed in range(400):
        state = random_deal(seed)
        facts = deal_facts(state)
        value = ddv_re_value(facts)
        re = state.side_mask
        expected = [value * (3 if facts["solo"] else 1) if re >> s & 1 else -value for s in range(4)]
        assert state.deal_results[-1]["delta"] == expected, (seed, facts)
        contracts.add(state.contract)
    assert {"normal", "hochzeit"} <= contracts and len(contracts) >= 6


def test_re_with_121_wins_one_point_and_kontra_with_120_two_against_the_elders():
    assert ddv_re_value({"re_points": 121, "re_tricks": 6, "kontra_tricks": 6, "said": set(), "solo": False,
                         "extras": 0}) == 1
    assert ddv_re_value({"re_points": 120, "re_tricks": 6, "kontra_tricks": 6, "said": set(), "solo": False,
                         "extras": 0}) == -2
    assert ddv_re_value({"re_points": 120, "re_tricks": 6, "kontra_tricks": 6, "said": {"kontra"},
                         "solo": False, "extras": 0}) == 1 + 2                              # only Kontra said
    assert ddv_re_value({"re_points": 150, "re_tricks": 8, "kontra_tricks": 4, "said": {"re", "re_keine_90"},
                         "solo": False, "extras": 0}) == -(1 + 2 + 1) - 1                   # 90 against keine 90


# ---------------------------------------------------------------------- the log
def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [-5, -5, 5, 5]      # Re makes 122 but said keine 90: Kontra wins 1 + 2 + 1, +1 against the elders
