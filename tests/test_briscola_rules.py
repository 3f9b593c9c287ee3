"""Briscola (games/briscola.yaml) in card names, and drawing from the stock during trick play (``draw``).

Each rule of the game in a scripted deal: nobody has to follow, a trump beats the suit led, a card of
another suit never wins, the winner draws first, a drawn card is seen by its drawer alone, the turned
Briscola is the last card drawn and is known to be in its drawer's hand; and 300 random deals against an
independent scorer that follows the cards itself.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from helpers import Table, seat, logged_random_match
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_game
from rulelang.render.explain import explain_game

BRISCOLA = Path(__file__).resolve().parents[1] / "games" / "briscola.yaml"
RANKS = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}


@pytest.fixture(scope="module")
def game():
    return load_game("briscola", max_deals=1)


def table(game, p1: str, p2: str, talon: str) -> Table:
    """A deal with P2 dealing, so P1 leads; ``talon`` the turned card first, then the stock top first."""
    return Table(game, {"P1": p1, "P2": p2}, talon=talon, dealer="P2")


STOCK = "5D 7S 2C " + " ".join(f"{r}{s}" for s in "CHS" for r in RANKS if f"{r}{s}" not in
                               {"AS", "3S", "2H", "KH", "7C", "4C", "7S", "2C"})


def test_the_turned_card_makes_trumps_and_nobody_has_to_follow(game):
    deal = table(game, "AS 2H 7C", "3S KH 4C", STOCK)
    assert game.deck.suits[deal.state.vars["trump"]].name == "diamonds"
    assert deal.state.observation(0)["turned_up"] == ["5♦"]
    deal.do("P1 7♣")
    assert set(deal.legal()) == {"3♠", "K♥", "4♣"}, "P2 may play any card, though he holds a club"


def test_a_card_of_another_suit_never_wins_however_high(game):
    deal = table(game, "AS 2H 7C", "3S KH 4C", STOCK)
    deal.do("P1 7♣", "P2 K♥")
    assert deal.state.tricks.trick_winners[-1][0] == seat("P1"), "the King of hearts does not beat the led club"
    assert deal.to_act() == "P1"


def test_a_trump_beats_the_ace_of_the_suit_led(game):
    deal = table(game, "AS 2H 7C", "3S KH 2D", "5D 7S 2C " + STOCK.split(" ", 3)[3].replace("2D ", ""))
    deal.do("P1 A♠", "P2 2♦")
    assert deal.state.tricks.trick_winners[-1][0] == seat("P2")
    assert deal.to_act() == "P2", "the trick's winner leads the next"


def test_the_winner_draws_first_and_sees_only_his_own_card(game):
    deal = table(game, "AS 2H 7C", "3S KH 4C", STOCK)
    deal.do("P1 A♠", "P2 3♠")
    assert deal.hand("P1") == {"2♥", "7♣", "7♠"}, "the winner, P1, takes the top card of the stock"
    assert deal.hand("P2") == {"K♥", "4♣", "2♣"}, "then P2 the next"
    state = deal.state
    assert state.observation(0)["stock"] == 40 - 6 - 2, "32 left to draw: 31 in the stock and the turned card"
    assert "7♠" not in state.information_state_string(1), "P2 never sees the card P1 drew"
    assert "2♣" in state.information_state_string(1) and "2♣" not in state.information_state_string(0)


def test_two_deals_that_differ_only_in_the_cards_p2_drew_look_the_same_to_p1(game):
    cards = STOCK.split()
    swapped = cards.copy()
    six = swapped.index("6C")
    swapped[2], swapped[six] = swapped[six], swapped[2]          # P2 draws the 6♣ instead of the 2♣
    one = table(game, "AS 2H 7C", "3S KH 4C", STOCK)
    two = table(game, "AS 2H 7C", "3S KH 4C", " ".join(swapped))
    for deal in (one, two):
        deal.do("P1 A♠", "P2 3♠")
    assert one.hand("P2") != two.hand("P2")
    assert one.state.observation(0) == two.state.observation(0)
    assert one.state.information_state_string(0) == two.state.information_state_string(0)


def play_random(game, seed: int):
    """A whole deal played at random; the state and what each step was: (actor, action, phase kind)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        kind = state.step.kind if state.step is not None and state.sub != "first_dealer" else "lot"
        steps.append((state.current_player(), action, kind))
        state.apply_action(action)
    return state, steps


def independent_deal(game, steps):
    """The deal followed from its actions alone, by the rules as pagat gives them: hands, trumps, each trick's
    winner by its own ranking, the draws (winner first, the turned card last) and each seat's card points."""
    n = game.num_players
    names = [card.name for card in game.deck.cards]
    dealer = next(action for _, action, kind in steps if kind == "lot") - game.seat_base
    moves = [(actor, names[action], kind) for actor, action, kind in steps if kind not in ("lot", "set")]
    dealt = [card for _, card, kind in moves if kind == "deal"]
    hands = {(dealer + 1 + i) % n: set(dealt[3 * i:3 * i + 3]) for i in range(n)}
    turned = next(card for _, card, kind in moves if kind == "turn_up")
    play = [(actor, card) for actor, card, kind in moves if kind == "tricks"]
    trump, points, leader = turned[-1], [0] * n, (dealer + 1) % n
    left, index, last_drawn = 40 - 3 * n, 0, None

    def strength(card, led):
        rank = len(RANKS) - RANKS.index(card[:-1])
        return 100 + rank if card[-1] == trump else rank if card[-1] == led else 0
    while index < len(play):
        trick = play[index:index + n]
        assert [who for who, _ in trick] == [(leader + k) % n for k in range(n)], "in turn from the leader"
        for who, card in trick:
            assert card in hands[who], "a card played is in the hand the scorer follows"
            hands[who].discard(card)
        led = trick[0][1][-1]
        winner = max(trick, key=lambda played: strength(played[1], led))[0]
        points[winner] += sum(POINTS.get(card[:-1], 0) for _, card in trick)
        index += n
        if left:
            for k, (drawer, card) in enumerate(play[index:index + n]):
                assert drawer == -1, "after a trick with cards left, chance draws for everyone"
                hands[(winner + k) % n].add(card)
                last_drawn = ((winner + k) % n, card)
            left -= n
            index += n
        leader = winner
    return points, turned, last_drawn


def side_of(game, who: int) -> list[int]:
    """The seats of ``who``'s partnership (itself alone in the two-player game)."""
    return [who, (who + 2) % 4] if game.num_players == 4 else [who]


@pytest.mark.parametrize("name", ["briscola", "briscola-four"])
def test_300_random_deals_agree_with_an_independent_scorer(name):
    game = load_game(name, max_deals=1)
    for seed in range(300):
        state, steps = play_random(game, seed)
        points, turned, last_drawn = independent_deal(game, steps)
        assert sum(points) == 120
        assert last_drawn is not None and last_drawn[1] == turned, f"seed {seed}: the turned card is drawn last"
        result = state.deal_results[-1]
        assert sum(result["tricks"]) == 40 // game.num_players
        for s in range(game.num_players):
            side = sum(points[p] for p in side_of(game, s))
            assert result["delta"][s] == (1 if side > 60 else 0), f"seed {seed}: seat {s}'s side has {side}"


def test_the_turned_card_is_known_to_be_in_its_drawers_hand_until_played(game):
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        if not state.stock and not state.turn_up.cards:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    turned = state.vars["briscola"]
    holder = next(s for s in (0, 1) if state.hands[s] >> turned & 1)
    name = game.action_to_string(turned)
    for viewer in (0, 1):
        assert state.observation(viewer)["drawn_face_up"] == {game.seat_name(holder): [name]}
    for seed in range(10):
        world = determinize(state, 1 - holder, random.Random(seed))
        assert world.hands[holder] >> turned & 1, "no world moves the Briscola out of the hand that drew it"


def test_a_logged_deal_replays_and_an_explicit_deal_needs_no_line_for_the_turned_card(game, tmp_path):
    record, state, outcome = logged_random_match(game, 11, tmp_path)
    assert outcome.ok
    deal = record.deals[0]
    assert len(deal["talon"]) == 1 + 34, "the turned card, then every card drawn in the order drawn"
    hands = {seat(s): cards for s, cards in deal["dealt"].items()}
    scripted = ScriptedDeal(game, {s: hands[s][:3] for s in hands}, deal["talon"][:-1],
                            dealer=seat(deal["dealer"]))
    again = game.new_initial_state()
    plays = iter(a["action"] for a in record.actions if a["seat"] != "chance")
    while not again.is_terminal():
        if again.is_chance_node():
            again.apply_action(scripted.step(again))
        else:
            again.apply_checked(game.string_to_action(next(plays)))
    assert again.scores == state.scores


def test_explain_says_how_the_stock_is_drawn(game):
    text = "\n".join(explain_game(yaml.safe_load(BRISCOLA.read_text(encoding="utf-8"))))
    assert "each player draws a card from the stock, the winner first" in text
    assert "turned up for trumps is the stock's last card" in text
