"""A win rule's own order of ranks (issue 40): ``{highest: trump, order: [J, "9", A, "10", K, Q, "8", "7"]}`` —
the trump suit of Belote, Klaverjas and Jass ranks Jack, Nine, Ace, Ten …, the plain suits Ace, Ten, King ….
``beats`` and ``winning_now`` follow the win rules, so "must over-trump" is written with them."""

from __future__ import annotations

import pytest

from helpers import Table, write_game
from rulelang.diagnostics import RuleError
from rulelang.loader import load_game

BELOTE_ORDER = '''
  - tricks:
      among: seats
      lead: forehand
      follow: [led_suit, "{c for c in trump if beats(c, winning_now)}", trump, any]
      win:
        - {highest: trump, order: [J, "9", A, "10", K, Q, "8", "7"]}
        - {highest: led_suit, order: [A, "10", K, Q, J, "9", "8", "7"]}
'''


def ordered_game(tmp_path):
    """The fixture base with no exchange or decide, its tricks won by Belote's orders."""
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8")
    head, _, tail = text.partition("  - exchange:")
    _, _, score = tail.partition("  - score:")
    path.write_text(head + BELOTE_ORDER.lstrip("\n") + "  - score:" + score, encoding="utf-8")
    return load_game(str(path))


HANDS = {"P1": "7H 9S JS 10C AD", "P2": "8H AS 9C KC QD", "P3": "9H 7S 10S JC KD",
         "P4": "10H 8S QS QC 7D"}


def test_the_nine_of_trumps_beats_the_ace_and_the_ten_beats_the_king_in_a_plain_suit(tmp_path):
    table = Table(ordered_game(tmp_path), HANDS, dealer="P4")
    table.do("P1 spades")
    table.do("P1 9S", "P2 AS", "P3 10S", "P4 QS")           # trumps: the Nine is above the Ace and Ten
    assert table.to_act() == "P1"
    table.do("P1 10C", "P2 KC")
    assert table.cards() == {"J♣"}                         # P3 must follow clubs
    table.do("P3 JC", "P4 QC")
    assert table.to_act() == "P1", "the Ten of clubs beats the King in a plain suit"


def test_must_over_trump_reads_the_trump_order(tmp_path):
    hands = {"P1": "7H 8H AD KD QD", "P2": "AS 8S 9C KC 7D", "P3": "9S 10S JC QC 8D", "P4": "JS QS KS 7S 10D"}
    table = Table(ordered_game(tmp_path), hands, dealer="P4")
    table.do("P1 spades", "P1 7H")
    assert table.cards() == {"A♠", "8♠"}                   # void in hearts: any trump beats a heart
    table.do("P2 8S")
    assert table.cards() == {"9♠", "10♠"}                  # both rank above the Eight in trumps
    table.do("P3 9S")
    assert table.cards() == {"J♠"}                         # only the Jack beats the Nine; K Q 7 do not
    table.do("P4 JS")
    assert table.to_act() == "P4"


def test_an_order_naming_a_rank_the_deck_lacks_is_an_error(tmp_path):
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8").replace("        - highest: trump\n",
                                                    '        - {highest: trump, order: [J, "9", A, "2"]}\n')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as raised:
        load_game(str(path))
    assert [d.code for d in raised.value.diagnostics] == ["R383"]
    assert "'2'" in raised.value.diagnostics[0].message


def test_the_batch_engine_plays_the_order_as_the_interpreter(tmp_path):
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    from rulelang.interpreter import Game
    from rulelang.loader import load_definition
    path = tmp_path / "plain.yaml"
    ordered_game(tmp_path)
    text = (tmp_path / "game.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace('"{c for c in trump if beats(c, winning_now)}", ', ""), encoding="utf-8")
    game = Game(load_definition(str(path)), max_deals=1)
    check_replays(game, BatchRun(game, 120, seed=3, record=True).play())
