"""The trick on the table as values, in card names: its cards in play order and who played each, the card and
seat now winning it, whether one card beats another under the win rules in force, and a card's rank.

The rules are Spades (spades trump) with one house rule written in a line: a player who cannot follow
suit must play a spade that beats the card now winning, when they hold one — the over-trump of French
Tarot and Tarok, said once with a set builder instead of a chain of definitions per card.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from helpers import Table
from rulelang.loader import load_text
from rulelang.validators.report import diagnostics_of_text

OVER_TRUMP = """
game: spades-over
extends: spades
define:
  "over(p)": "{c for c in hand(p) & spades if beats(c, winning_now)}"
phases:
  3:
    tricks:
      among: seats
      lead: forehand
      lead_from: ["if count(played & spades) > 0 then any else any - spades", any]
      follow: [led_suit, "over(player)", any]
      win: [{highest: spades}, {highest: led_suit}]
"""

HANDS = {"P1": "2♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥",
         "P2": "9♠ 8♠ 7♠ A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣",
         "P3": "6♠ 5♠ 4♠ 4♣ 3♣ 2♣ A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦",
         "P4": "A♠ K♠ Q♠ J♠ 10♠ 3♠ 2♥ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦"}
BIDS = ("P1 1", "P2 5", "P3 2", "P4 2")


@lru_cache(maxsize=None)
def game():
    return load_text(OVER_TRUMP, "yaml", max_deals=1)


def table(*moves) -> Table:
    t = Table(game(), HANDS, dealer="P4")
    t.do(*BIDS, *moves)
    return t


def value(t: Table, text: str, seat: int = 0):
    """``text`` worked out now, in the scope of a rule about one seat."""
    from rulelang.compile.compiler import GameCompiler
    from rulelang.compile.exprcompile import PLAYER_CODE, Binding, compile_expr
    from rulelang.compile.ir import Rule
    from rulelang.compile.values import SEAT
    from rulelang.loader import parse_text, resolve_document
    from rulelang.read.expr import parse_expr
    compiler = GameCompiler(resolve_document(parse_text(OVER_TRUMP, "over.yaml")))
    compiler.run()
    scope = compiler.scope.child(player=Binding(SEAT, PLAYER_CODE))
    rule = Rule(None, text, None)
    scope.module.function(compile_expr(parse_expr(text), scope, None).code, rule)
    scope.module.link()
    result = rule.fn(t.state, seat)
    return result


def name(t: Table, card: int) -> str | None:
    return t.game.action_to_string(card) if card >= 0 else None


def test_a_seat_void_in_the_led_suit_must_play_a_spade_that_beats_the_winning_card():
    t = table("P1 A♥")
    assert t.cards() == {"9♠", "8♠", "7♠"}                  # any spade beats the ace of hearts


def test_a_seat_that_cannot_beat_the_winning_spade_may_play_anything():
    t = table("P1 A♥", "P2 9♠")                             # P3, void in hearts too, holds only lower spades
    assert t.cards() == t.hand("P3")


def test_a_seat_that_must_follow_suit_follows_it_before_over_trumping():
    t = table("P1 A♥", "P2 9♠", "P3 4♣")
    assert t.cards() == {"2♥"}                              # P4 holds a heart: follow suit first


def test_over_trumping_follows_the_card_now_winning_from_trick_to_trick():
    t = table("P1 A♥", "P2 7♠", "P3 4♣", "P4 2♥", "P2 A♣", "P3 3♣")
    assert t.cards() == {"A♠", "K♠", "Q♠", "J♠", "10♠", "3♠"}   # every spade beats the ace of clubs
    t.do("P4 3♠")
    assert t.cards() == t.hand("P1")                        # the two of spades does not beat the three


def test_the_trick_on_the_table_in_play_order_with_who_played_each():
    t = table("P1 A♥", "P2 9♠")
    assert [name(t, value(t, f"trick_card({n})")) for n in (1, 2, 3)] == ["A♥", "9♠", None]
    assert [value(t, f"trick_seat({n})") for n in (1, 2, 3)] == [0, 1, -1]
    assert value(t, "played_by('9♠')") == 1 and value(t, "position('9♠')") == 2
    assert value(t, "trick_of('9♠')") == 1 and value(t, "taken_by('9♠')") == -1   # its trick is not finished
    assert value(t, "count(played)") == 0 and value(t, "count(cards_played(seats))") == 2


def test_the_card_and_seat_now_winning_follow_the_win_rules_in_force():
    t = table("P1 A♥")
    assert name(t, value(t, "winning_now")) == "A♥" and value(t, "winner_now") == 0
    t.do("P2 9♠")
    assert name(t, value(t, "winning_now")) == "9♠" and value(t, "winner_now") == 1


def test_no_trick_on_the_table_means_no_winning_card():
    t = table()
    assert value(t, "winning_now") == -1 and value(t, "winner_now") == -1


@pytest.mark.parametrize("a, b, wins", [("'2♠'", "'A♥'", True), ("'A♥'", "'2♠'", False), ("'K♥'", "'A♥'", False),
                                        ("'A♥'", "'K♥'", True), ("'A♣'", "'2♥'", False), ("'A♠'", "none", True),
                                        ("'A♠'", "'A♠'", False)])
def test_beats_asks_the_win_rules_about_the_two_cards(a, b, wins):
    t = table("P1 A♥")                                      # hearts led: a club cannot beat a heart
    assert bool(value(t, f"beats({a}, {b})")) is wins


def test_ranks_count_from_the_lowest_card_in_the_decks_order_of_strength():
    t = table()
    assert value(t, "rank('2♠')") == 1 and value(t, "rank('A♠')") == 13 and value(t, "rank('10♥')") == 9
    assert value(t, "rank_in('Q♠', spades)") == 11 and value(t, "rank_in('Q♠', hearts)") == 0
    assert value(t, "rank_in('A♠', {'A♠', '2♠', 'K♥'})") == 2 or value(t, "rank_in('A♠', {'A♠', '2♠', 'K♥'})") == 3


@pytest.mark.parametrize("name_", ["winning_now", "winner_now", "beats('A♠', '2♠')"])
def test_the_win_rules_may_not_ask_who_wins(name_):
    text = OVER_TRUMP.replace("win: [{highest: spades}, {highest: led_suit}]",
                              "win: [{card: \"highest(trick)\", when: \"%s != none\"}, {highest: spades}, "
                              "{highest: led_suit}]" % name_ if "beats" not in name_ else
                              "win: [{card: \"highest(trick)\", when: \"%s\"}, {highest: spades}, {highest: led_suit}]"
                              % name_)
    found = [d for d in diagnostics_of_text(text, "over.yaml") if d.is_error]
    assert [d.code for d in found] == ["N201"] and "known only in trick rules other than `win`" in found[0].message


def test_a_definition_read_in_the_win_rules_may_not_ask_who_wins_either():
    text = OVER_TRUMP.replace("win: [{highest: spades}, {highest: led_suit}]",
                              "win: [{highest: \"over(player)\"}, {highest: spades}, {highest: led_suit}]")
    found = [d for d in diagnostics_of_text(text, "over.yaml") if d.is_error]
    assert [d.code for d in found] == ["N201"] and found[0].span.line == 5       # at the definition
