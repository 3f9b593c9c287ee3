"""A call of trick play is narrated in the trick where it was said, before its player's card.

Calls (Doppelkopf's re and kontra) were printed with the decisions before trick 1, wherever in the
deal they were said.
"""

from __future__ import annotations

from rulelang.interpreter.narrate import narrate_deal
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game


def test_a_call_is_printed_in_its_trick_before_the_card_of_its_player():
    deal = {"number": 1, "dealer": "P4", "forehand": "P1", "decisions": [
                {"seat": "P1", "phase": "decide", "action": "healthy"},
                {"seat": "P3", "phase": "tricks", "action": "re", "trick": 2, "on_table": 2}],
            "tricks": [{"cards": [["P1", "A♣"], ["P2", "10♣"], ["P3", "K♣"], ["P4", "9♣"]], "winner": "P1"},
                       {"cards": [["P1", "A♠"], ["P2", "10♠"], ["P3", "Q♣"], ["P4", "9♠"]], "winner": "P3"}]}
    lines = narrate_deal(deal)
    assert "  trick 2: P1 A♠  P2 10♠  P3 says re, plays Q♣  P4 9♠  → P3" in lines
    assert not any("says re" in line for line in lines if not line.startswith("  trick 2"))


def test_the_record_notes_the_trick_and_the_place_of_each_call():
    game = load_game("doppelkopf", max_deals=1)
    for seed in range(1, 12):
        state, record = play_match(game, seed=seed)
        deal = record.deals[-1]
        calls = [d for d in deal["decisions"] if d.get("phase") == "tricks"]
        if calls:
            break
    assert calls, "no call of trick play in eleven deals"
    for call in calls:
        trick = deal["tricks"][call["trick"] - 1]
        assert trick["cards"][call["on_table"]][0] == call["seat"]       # said on the caller's own turn
        line = next(x for x in narrate_deal(deal) if x.startswith(f"  trick {call['trick']}:"))
        said = line.split(f"{call['seat']} says ", 1)[1].split(", plays", 1)[0].split(", ")
        assert call["action"] in said
