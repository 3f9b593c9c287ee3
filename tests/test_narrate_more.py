"""Narration of what the deal record holds beyond the decisions and tricks (issue 47):
deal variables the rules `set`, a contract played alone while fixed teams play, and the
simulate table's share of deals in which a seat made no decision of a phase."""

from __future__ import annotations

import pytest

from rulelang.cli.stats_table import table_rows
from rulelang.interpreter.narrate import narrate_deal
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game


def _deal(contract: dict) -> dict:
    return {"number": 1, "dealer": "P4", "forehand": "P1", "decisions": [], "tricks": [], "contract": contract}


def test_the_deal_variables_the_rules_set_are_narrated_before_the_tricks():
    state, record = play_match(load_game("oh-hell", max_deals=1), seed=1)
    deal = record.summary(state)["deals"][0]
    assert deal["set_vars"] == ["trump"]
    lines = narrate_deal(deal)
    said = lines.index(f"  by the rules: trump = {deal['vars']['trump']}")
    assert said < next(i for i, line in enumerate(lines) if line.startswith("  trick 1:"))


def test_a_contract_played_alone_while_teams_play_says_the_partner_plays_against():
    alone = {"name": "solo", "title": "solo", "declarer": "P1", "side": ["P1"], "called": None, "team": ["P3"]}
    assert "  contract: solo by P1, alone: P3, partner in the teams, plays against the declarer this deal" \
        in narrate_deal(_deal(alone))
    without_teams = dict(alone, team=[])
    assert "  contract: solo by P1, alone against the others" in narrate_deal(_deal(without_teams))


def test_the_team_of_the_declarer_is_recorded_from_the_fixed_teams():
    state, record = play_match(load_game("spades", max_deals=1), seed=1)
    assert record._team_mates(0) == ["P3"] and record._team_mates(-1) == []


def test_a_phase_share_table_adds_up_to_the_deals_with_the_seats_not_asked():
    stats = {"deals": 100, "vars": {}, "decisions": {"decide pass": {"P1": 0.25}, "decide play": {"P1": 0.70}},
             "undecided": {"decide": {"P1": 0.05}}, "cards_exchanged": {}, "score_change": {"P1": 0},
             "no_trick_share": 0, "seat_advantage": {"P1": {"mean": 0, "ci95": [0, 0]}}, "contracts": {},
             "contracts_made": {}, "items": {}, "match_length": {}}
    rows = [row for row in table_rows(stats) if row[0].startswith("decisions")]
    assert [name for _, name, _ in rows] == ["decide: pass", "decide: play", "decide: deals with no decision"]
    assert rows[-1][2] == "P1 5.0"


class _Gesund:
    """Says gesund (the normal game) in Doppelkopf's Vorbehalt, plays at random otherwise."""

    def __init__(self, seed: int):
        import random
        self.rng = random.Random(seed)

    def step(self, state):
        legal = state.legal_actions()
        if state.phase.kind == "auction":
            names = [state.game.action_to_string(a) for a in legal]
            for word in ("gesund", "normal"):
                if word in names:
                    return legal[names.index(word)]
        return self.rng.choice(legal)


@pytest.mark.parametrize("seed", range(4))
def test_a_normal_doppelkopf_names_the_parties_not_the_seat_that_opened(seed):
    from rulelang.interpreter import narrate
    from rulelang.interpreter.runner import play_match
    from rulelang.loader import load_game
    game = load_game("doppelkopf", max_deals=1)
    state, record = play_match(game, agents=[_Gesund(seed) for _ in range(4)], seed=seed)
    deal = record.summary(state)["deals"][0]
    re_party = sorted(seat for seat, cards in deal["dealt"].items() if "Q♣" in cards)
    (line,) = [line for line in narrate.narrate_deal(deal) if "contract:" in line]
    assert line.startswith("  contract: Normal game (gesund); parties: ")
    named = line.split("parties: ")[1].split(" against ")[0].replace(" alone", "").replace(",", " and ").split(" and ")
    assert sorted(n.strip() for n in named) == re_party and " by " not in line


def test_a_round_of_announcements_after_the_bidding_is_headed_so_its_words_do_not_read_as_more_bids():
    """Königrufen bids in one auction and announces in another (``bids: false``): the bidding's last pass and
    the announcements' first word, often by the same seat, read as two rounds."""
    state, record = play_match(load_game("koenigrufen", max_deals=1), seed=3)
    deal = record.summary(state)["deals"][0]
    lines = [line.strip() for line in narrate_deal(deal)]
    heading = lines.index(f"announcements on {deal['contract']['title']}:")
    said = [i for i, line in enumerate(lines) if " says " in line]
    assert said[0] < heading < said[-1]
    assert sum(1 for line in lines if line.startswith("announcements")) == 1


def test_a_called_card_no_other_player_holds_is_narrated_as_playing_alone():
    """The called card may be the declarer's own, in the talon or buried: the narration does not guess which."""
    called = {"name": "pick", "title": "pick", "declarer": "P1", "side": ["P1"], "called": "A♥"}
    assert "  contract: pick by P1, calling A♥: partner none (no other player holds it: he plays alone)" in \
        narrate_deal(_deal(called))
