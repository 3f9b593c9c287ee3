"""An exchange whose talon is refilled from the discards (issue 48): ``exchange: {…, refill: discards}``.

Bourré and Rams let every player exchange more cards than the talon holds: "if the pack runs out, the
discards are shuffled and used". Here Zwanzig ab lets each player exchange all five cards: the twelve-card
talon serves P2 and P3, then P4 draws from the ten cards they laid away, shuffled in.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from helpers import Table, logged_random_match, names_of, seat
from rulelang.interpreter.narrate import narrate_deal
from rulelang.loader import load_game
from rulelang.render.explain import explain_game

HANDS = {"P1": "7C 8C 9C 10C JC", "P2": "AH KH QH JH 10H", "P3": "AS KS QS JS 10S", "P4": "AD KD QD JD 10D"}
TALON = "9H 8H 7H 9S 8S 7S 9D 8D 7D QC KC AC"


def exchange_game(tmp_path: Path, refill: bool):
    """Zwanzig ab with exchanges of up to five cards, the talon refilled from the discards or not."""
    extra = ", refill: discards" if refill else ""
    path = tmp_path / f"refill-{refill}.yaml"
    path.write_text(f"extends: zwanzig-ab\nphases:\n  5:\n    exchange: {{from: forehand, max: 5{extra}}}\n",
                    encoding="utf-8")
    return load_game(str(path))


def to_p4_exchange(table: Table) -> None:
    """P2 names hearts; P2 and P3 lay away their whole hands and draw ten of the twelve talon cards."""
    table.do("P2 hearts")
    table.do(*[f"P2 {c}" for c in "AH KH QH JH 10H".split()])
    table.do(*[f"P3 {c}" for c in "AS KS QS JS 10S".split()])


def test_without_refill_the_last_players_exchange_only_what_is_left(tmp_path):
    table = Table(exchange_game(tmp_path, refill=False), HANDS, TALON)
    to_p4_exchange(table)
    table.do("P4 AD", "P4 KD")
    assert table.state.phase.kind == "decide", "two cards were left: P4 exchanged them, P1 had none to draw"
    assert table.hand("P4") == {"Q♦", "J♦", "10♦", "A♣", "K♣"}


def test_with_refill_the_discards_are_shuffled_into_the_talon_when_it_runs_short(tmp_path):
    game = exchange_game(tmp_path, refill=True)
    talon = TALON + " AH KS"                 # P4's draws: the two talon cards left, then two of the discards
    table = Table(game, HANDS, talon)
    to_p4_exchange(table)
    assert table.hand("P2") == {"9♥", "8♥", "7♥", "9♠", "8♠"}
    table.do("P4 AD", "P4 KD", "P4 QD", "P4 JD", "P4 done")
    assert table.hand("P4") == {"10♦", "K♣", "A♣", "A♥", "K♠"}
    state = table.state
    assert names_of(game, state.discards[seat("P2")]) == set() and names_of(game, state.discards[seat("P3")]) == set()
    assert names_of(game, state.discards[seat("P4")]) == {"A♦", "K♦", "Q♦", "J♦"}
    assert names_of(game, state.talon) == {"K♥", "Q♥", "J♥", "10♥", "A♠", "Q♠", "J♠", "10♠"}
    assert state.observation(seat("P2"))["my_discards"] == []
    table.chance.talon.extend(game.deck.lookup[c.casefold()] for c in "QH JH 10H AS QS".split())
    table.do("P1 7C", "P1 8C", "P1 9C", "P1 10C", "P1 JC")
    assert len(table.hand("P1")) == 5 and not table.hand("P1") & {"7♣", "8♣", "9♣", "10♣", "J♣"}


def test_the_limit_counts_the_cards_a_refill_would_bring(tmp_path):
    table = Table(exchange_game(tmp_path, refill=True), HANDS, TALON + " AH KH QH")
    to_p4_exchange(table)
    table.do("P4 AD", "P4 KD", "P4 QD", "P4 JD", "P4 10D")     # two in the talon, ten laid away
    assert table.hand("P4") == {"K♣", "A♣", "A♥", "K♥", "Q♥"}
    assert table.to_act() == "P1" and "done" in table.legal()   # five cards left: P1 may exchange them all


def test_the_narration_says_the_talon_was_refilled_and_explain_says_the_rule(tmp_path):
    game = exchange_game(tmp_path, refill=True)
    record, _, replayed = logged_random_match(game, 3, tmp_path)
    assert replayed
    lines = [line for deal in record.deals for line in narrate_deal(deal)]
    assert any("laid away are shuffled into the talon" in line for line in lines)
    data = yaml.safe_load(Path("games/zwanzig-ab.yaml").read_text(encoding="utf-8"))
    data["phases"][4] = {"exchange": {"from": "forehand", "max": 5, "refill": "discards"}}
    text = "\n".join(explain_game(data))
    assert "When the talon runs short, the cards the earlier players laid away are shuffled into it" in text


def test_the_batch_engine_names_the_refill_before_playing(tmp_path):
    import pytest
    from rulelang.batch.engine import BatchRun
    from rulelang.batch.vectorize import BatchUnsupported
    with pytest.raises(BatchUnsupported, match="refilled from the discards"):
        BatchRun(exchange_game(tmp_path, refill=True), 10, seed=0)
    BatchRun(exchange_game(tmp_path, refill=False), 10, seed=0)
