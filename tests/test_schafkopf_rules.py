"""Schafkopf (games/schafkopf.yaml), rule by rule in card names.

One round of bids from forehand, where a higher game outranks a lower one and of equal games
the earlier stands; the Sauspiel's called Ace (played when its suit is led, never thrown
away, its suit led only with it unless its holder runs away with four); the trump order of
Obers, Unters and Hearts, the Wenz's Unters alone and the Farbsolo's suit; Kontra and Re;
the Ramsch when nobody plays; the 10/50 tariff with Schneider, Schwarz and Laufende, checked
against a scorer written here over many random deals. ``tests/logs/schafkopf-sauspiel.jsonl``
is one whole deal that replays to its scores.
"""

from __future__ import annotations

import random
from functools import lru_cache

from helpers import LOGS, Table, play_deal, seat
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game

LOG = LOGS / "schafkopf-sauspiel.jsonl"

# P2 holds the Ace of Acorns and one other acorn; P3 may call it (10A 8A, no AA).
SHORT = {"P1": "OA UB AH 10H KA 9A 8L 7B", "P2": "AA 7A OL UL KH 10L 9L KB",
         "P3": "OH UA 9H 8H 10A 8A AL AB", "P4": "OB UH 7H KL 7L 10B 9B 8B"}
# P2 holds four acorns with the Ace and no bells.
LONG = {"P1": "OA UB AH 10H 9L 8L 7B KB", "P2": "AA KA 9A 7A OL UL KH 10L",
        "P3": "OH UA 9H 8H 10A 8A AL AB", "P4": "OB UH 7H KL 7L 10B 9B 8B"}


@lru_cache(maxsize=None)
def game():
    return load_game("schafkopf", max_deals=1)


def table(hands, dealer: str, *moves: str) -> Table:
    t = Table(game(), hands, dealer=dealer)
    t.do(*moves)
    return t


def winner_of_last_trick(t: Table) -> str:
    return t.game.seat_name(t.state.tricks.trick_winners[-1][0])


def p3_calls_acorns(hands) -> Table:
    return table(hands, "P1", "P2 ramsch", "P3 sauspiel_acorns", "P4 weiter", "P1 weiter")


# ---------------------------------------------------------------------- the bidding
def test_a_sauspiel_calls_an_ace_of_a_suit_the_caller_holds_but_not_the_ace_nor_hearts():
    t = table(SHORT, "P4")
    assert {"sauspiel_acorns", "sauspiel_leaves", "sauspiel_bells", "ramsch"} <= set(t.legal())
    t.do("P1 ramsch", "P2 weiter")
    assert "sauspiel_acorns" in t.legal() and "sauspiel_leaves" not in t.legal()      # P3 holds AL and AB
    assert "sauspiel_bells" not in t.legal()


def test_a_higher_game_outranks_and_of_equal_games_the_earlier_stands():
    t = table(SHORT, "P4", "P1 sauspiel_acorns", "P2 wenz")
    assert "sauspiel_bells" not in t.legal() and "wenz" not in t.legal() and "solo_hearts" in t.legal()
    t.do("P3 solo_hearts", "P4 weiter")
    assert t.state.contract == "solo_hearts" and t.state.declarer == seat("P3")
    assert t.to_act() == "P1"                                     # forehand leads, whoever plays


def test_when_nobody_plays_a_ramsch_is_played_each_for_himself():
    t = table(SHORT, "P4", "P1 ramsch", "P2 weiter", "P3 weiter", "P4 weiter")
    assert t.state.contract == "ramsch" and "kontra" not in t.legal()


# ---------------------------------------------------------------------- the called Ace
def test_the_called_ace_must_be_played_when_its_suit_is_led():
    t = table(SHORT, "P4", "P1 sauspiel_acorns", "P2 weiter", "P3 weiter", "P4 weiter", "P1 9A")
    assert t.cards() == {"AA"}


def test_the_holder_may_lead_the_called_suit_only_with_the_ace():
    t = p3_calls_acorns(SHORT)
    assert t.to_act() == "P2" and "7A" not in t.cards() and "AA" in t.cards()


def test_with_four_of_the_suit_the_holder_may_run_away():
    t = p3_calls_acorns(LONG)
    assert {"7A", "9A", "KA", "AA"} <= t.cards()


def test_the_called_ace_may_not_be_thrown_away_on_another_suit():
    t = p3_calls_acorns(LONG)
    t.do("P2 OL", "P3 OH", "P4 7H", "P1 OA")
    assert winner_of_last_trick(t) == "P1"
    t.do("P1 7B")
    assert "AA" not in t.cards() and "KA" in t.cards()      # P2 has no bells


def test_the_partner_is_known_when_the_called_ace_falls():
    t = table(SHORT, "P4", "P1 sauspiel_acorns", "P2 weiter", "P3 weiter", "P4 weiter")
    assert t.state.side_mask == 1 << seat("P1") | 1 << seat("P2") and not t.state.revealed
    t.do("P1 9A", "P2 AA")
    assert t.state.revealed


# ---------------------------------------------------------------------- trumps
def test_obers_then_unters_then_hearts_are_trumps_in_the_sauspiel():
    t = table(SHORT, "P4", "P1 sauspiel_bells", "P2 weiter", "P3 weiter", "P4 weiter")
    t.do("P1 AH", "P2 KH", "P3 UA", "P4 OB")
    assert winner_of_last_trick(t) == "P4"


def test_in_a_wenz_only_the_unters_are_trumps_and_an_ober_follows_its_suit():
    t = table(SHORT, "P4", "P1 wenz", "P2 weiter", "P3 weiter", "P4 weiter", "P1 9A")
    assert t.cards() == {"AA", "7A"}
    t.do("P2 AA", "P3 10A", "P4 UH")                              # P4 has no acorns: he trumps with an Unter
    assert winner_of_last_trick(t) == "P4"


def test_in_a_farbsolo_the_chosen_suit_is_trump_below_obers_and_unters():
    t = table(SHORT, "P4", "P1 solo_bells", "P2 weiter", "P3 weiter", "P4 weiter", "P1 7B")
    assert t.cards() == {"OL", "UL", "KB"}                    # trumps: Obers, Unters, bells
    t.do("P2 KB", "P3 AB", "P4 10B")
    assert winner_of_last_trick(t) == "P3"


# ---------------------------------------------------------------------- Kontra and Re
def test_kontra_by_a_non_player_before_his_first_card_and_re_only_after_kontra():
    t = table(SHORT, "P4", "P1 ramsch", "P2 weiter", "P3 solo_hearts", "P4 weiter")
    assert "kontra" in t.legal() and "re" not in t.legal()
    t.do("P1 AH")
    assert "kontra" in t.legal()                                  # P2 has not played yet
    t.do("P2 kontra", "P2 KH")
    assert "re" in t.legal()                                      # the soloist answers before his first card
    t.do("P3 re", "P3 9H", "P4 7H")
    assert t.state.tricks.calls == {"kontra": 1, "re": 2}
    assert "kontra" not in t.legal()                              # P1 holds 7 cards now


# ---------------------------------------------------------------------- scoring
PLAIN_ORDER = ["OA", "OL", "OH", "OB", "UA", "UL", "UH", "UB"]
SUIT_LETTERS = {"acorns": "A", "leaves": "L", "hearts": "H", "bells": "B"}


def tariff(state) -> list[int]:
    """Each seat's score of a finished deal by the 10/50 tariff (written here independently of the rules)."""
    g, contract = state.game, state.contract
    names = [c.name for c in g.deck.cards]
    points = [sum(g.deck.cards[c].points for c in range(g.num_cards) if state.won[s] >> c & 1) for s in range(4)]
    if contract == "ramsch":
        most = max(points)
        losers = [s for s in range(4) if points[s] == most]
        return [-10 * (4 - len(losers)) if s in losers else 10 * len(losers) for s in range(4)]
    players = [s for s in range(4) if state.side_mask >> s & 1]
    own = sum(points[s] for s in players)
    tricks_of = [state.tricks.taken[s] for s in range(4)]
    player_tricks = sum(tricks_of[s] for s in players)
    wenz = contract.startswith("wenz")
    tout = "tout" in contract
    won = player_tricks == 8 if tout else own >= 61
    suit = next((letter for word, letter in SUIT_LETTERS.items() if contract.endswith(word)), "H")
    order = PLAIN_ORDER[4:] if wenz else PLAIN_ORDER + [rank + suit for rank in ("A", "10", "K", "9", "8", "7")]
    dealt_to = {names[c]: s for s in range(4) for c in range(g.num_cards) if state.dealt[s] >> c & 1}
    top_side = dealt_to[order[0]] in players
    run = 0
    for card in order:
        if (dealt_to[card] in players) != top_side:
            break
        run += 1
    laufende = 10 * run if run >= (2 if wenz else 3) else 0
    base = 10 if contract.startswith("sauspiel") else 50
    if tout:
        value = 2 * (base + laufende)
    else:
        other = 120 - own
        schneider = other < 30 if won else own <= 30
        schwarz = (player_tricks == 8) if won else player_tricks == 0
        value = base + laufende + 10 * schneider + 10 * schwarz
    value *= (2 if "kontra" in state.tricks.calls else 1) * (2 if "re" in state.tricks.calls else 1)
    sign = 1 if won else -1
    factor = 1 if len(players) == 2 else 3
    return [sign * value * factor if s in players else -sign * value for s in range(4)]


def biased_choice(state, legal: list[int], rng: random.Random) -> int:
    """A random move, with Sauspiele, the Ramsch and Wenz more likely than random bids make them."""
    names = [state.action_to_string(a) for a in legal]
    plain = [a for a, n in zip(legal, names) if n.startswith("sauspiel") or n in ("ramsch", "weiter", "wenz")]
    return rng.choice(plain) if plain and rng.random() < 0.9 else rng.choice(legal)


def random_deal(seed: int):
    """A deal played at random with :func:`biased_choice`."""
    return play_deal(game(), seed, biased_choice)


def test_every_deal_scores_as_the_tariff_says():
    contracts = set()
    for seed in range(300):
        state = random_deal(seed)
        assert state.deal_results[-1]["delta"] == tariff(state), (seed, state.contract)
        assert sum(state.deal_results[-1]["delta"]) == 0
        contracts.add(state.contract.split("_")[0])
    assert {"sauspiel", "ramsch", "wenz", "solo", "tout"} <= contracts


def test_laufende_run_on_past_the_unters_into_the_trump_suit():
    # the players hold all eight Obers and Unters and the Ace of Hearts: nine Laufende, 90
    hands = {"P1": "OA OL OH OB UA UL 9A 7B", "P2": "UH UB AH AA 7A 10L 9L KB",
             "P3": "10H KH 10A KA AL KL AB 10B", "P4": "9H 8H 7H 8A 8L 7L 9B 8B"}
    t = table(hands, "P4", "P1 sauspiel_acorns", "P2 weiter", "P3 weiter", "P4 weiter")
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    delta = t.state.deal_results[-1]["delta"]
    assert delta == tariff(t.state) and delta[0] == delta[1] >= 10 + 90


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [-20, -20, 20, 20]     # the players make 23: Schneider, 10 + 10 each
