"""A name used where it means nothing says where it does mean something (N201).

`player` in `exchange`'s `max` was "unknown name 'player'" with the hint "did you mean
'players'?", and `led_card` outside trick rules "unknown name": both point away from the fix.
"""

from __future__ import annotations

from rulelang.validators.report import diagnostics_of_text

EXCHANGE_MAX = """
extends = zwanzig-ab
phases {
  deal each 2
  choose trump by forehand from suits
  deal each 3
  talon rest
  exchange from forehand max "count(hand(player))"
  decide play | pass from next(forehand) leave pass
  tricks among active { lead forehand  follow led_suit, trump, any  win highest trump, highest led_suit }
  score { each active add "0 - tricks(player)" }
}
"""


def errors(text: str) -> list:
    return [d for d in diagnostics_of_text(text, "<names>.rules") if d.is_error]


def test_player_outside_the_rules_asked_about_one_seat_says_where_it_is_known():
    (found,) = errors(EXCHANGE_MAX)
    assert found.code == "N201"
    assert found.message == ("'player' is known only in rules asked about one seat at a time "
                             "(docs/language.md, Names, lists them), not here")
    assert "did you mean" not in found.hint and "name a seat" in found.hint


def test_led_card_outside_trick_rules_says_it_is_known_only_inside_them():
    text = EXCHANGE_MAX.replace('max "count(hand(player))"', "max 3").replace(
        'add "0 - tricks(player)"', 'add "if led_card == none then 0 else 1"')
    (found,) = errors(text)
    assert found.code == "N201" and found.message.startswith("'led_card' is known only inside trick rules")


def test_the_same_names_in_their_places_are_fine():
    assert errors(EXCHANGE_MAX.replace('max "count(hand(player))"', "max 3")) == []
