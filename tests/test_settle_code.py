"""A settlement's scoring compiled per contract gives the rows the settlement rules describe.

The reference below reads the rules item by item, as the settlement did before it was compiled:
the game for the declarers, an announced item for its owner (won or lost), any other item for each
side that achieved it or was caught. Random deals of every shipped game with a settlement are
scored both ways, at the moment the settlement begins.
"""

from __future__ import annotations

import random

import pytest

from rulelang.constructs.settle import Settle
from rulelang.loader import load_game, load_text

SETTLED = ("zwanzigerrufen", "koenigrufen", "zwanziger-rufen-fi")
SILENT_PAGAT_ADDS = """
game: zr-silent-pagat
extends: zwanzigerrufen
items:
  pagat_ultimo: {announce: false}
phases:
  8:
    settle: {pattern: declarers_share, doubling_adds: 3}
"""


def doubled(phase, value: int, level: int) -> int:
    """``value`` after ``level`` doubling steps."""
    if not level:
        return value
    return value + phase.doubling_adds * level if phase.doubling_adds else value * 2 ** level


def reference_rows(st, phase) -> list[tuple]:
    """The rows (item, won by the declarers or None, amount, level or seat, announced) of the rules as read."""
    definition = st.game.definition
    among = st.tricks.among or (1 << st.game.num_players) - 1
    declarers = st.side_mask & among
    defenders = among & ~declarers
    contract = definition.contracts.get(st.contract)
    listed = contract.items if contract is not None and contract.items is not None else definition.items
    rows = []
    for item in (definition.items[name] for name in listed if name in definition.items):
        factor = 1 if item.is_game or contract is None else contract.bonus_factor
        level = st.auction.levels.get(item.name, 0)
        if item.per_seat:
            for seat in range(st.game.num_players):
                if among >> seat & 1 and item.achieved.fn(st, 1 << seat):
                    rows.append((item.name, None, item.value.fn(st, None) * factor, seat, False))
        elif item.is_game:
            value = contract.value.fn(st, None) if contract is not None else 0
            rows.append((item.name, item.achieved.fn(st, declarers), doubled(phase, value, level), level, False))
        elif item.name in st.auction.announced:
            owner = st.auction.announced[item.name]
            value = item.announced_value.fn(st, None) if item.announced_value else 2 * item.value.fn(st, None)
            won = owner if item.achieved.fn(st, declarers if owner else defenders) else not owner
            rows.append((item.name, won, doubled(phase, value, level) * factor, level, True))
        else:
            for side, on_declarers in ((declarers, True), (defenders, False)):
                if item.achieved.fn(st, side):
                    rows.append((item.name, on_declarers, item.value.fn(st, None) * factor, level, False))
                elif item.caught is not None and item.caught.fn(st, side):
                    rows.append((item.name, not on_declarers, item.value.fn(st, None) * factor, level, False))
    return rows


def settled_rows(game, deals: int, seed: int, monkeypatch) -> list[tuple[str | None, list, list]]:
    """(contract, reference rows, rows the settlement scored) of random deals."""
    enter, seen = Settle.enter, []

    def compared(st, phase):
        expected = reference_rows(st, phase)
        result = enter(st, phase)
        seen.append((st.contract, expected, list(st.settle.results)))
        return result
    monkeypatch.setattr(Settle, "enter", staticmethod(compared))
    play_random_deals(game, deals, seed)
    return seen


def play_random_deals(game, deals: int, seed: int) -> None:
    """``deals`` one-deal playouts of random moves, chance in one step."""
    rng = random.Random(seed)
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", SETTLED)
def test_the_compiled_scoring_scores_as_the_rules_read(name, monkeypatch):
    game = load_game(name, max_deals=1)
    assert_scored_as_read(game, 300, monkeypatch)


def test_items_caught_and_doublings_that_add_score_as_the_rules_read(monkeypatch):
    seen = assert_scored_as_read(load_text(SILENT_PAGAT_ADDS, "yaml", max_deals=1), 1000, monkeypatch)
    rows = [row for *_, scored in seen for row in scored]
    assert any(row[0] == "pagat_ultimo" for row in rows)                 # achieved or caught, never announced
    assert any(row[3] and row[4] for row in rows)                       # an announced item doubled


def assert_scored_as_read(game, deals: int, monkeypatch) -> list:
    """Random deals of ``game`` score the rows the reference reads; what was seen."""
    exclusive = any(item.exclusive for item in game.definition.items.values())
    seen = settled_rows(game, deals, 5, monkeypatch)
    assert len(seen) > deals * 2 // 3
    for _, expected, scored in seen:
        if exclusive:
            assert set(scored) <= set(expected)
        else:
            assert scored == expected
    assert any(row[4] for *_, scored in seen for row in scored)            # announced items were scored
    assert any(row[1] is False for *_, scored in seen for row in scored)   # and items won by the defenders
    return seen


PER_SEAT_FIRST = """
game: zr-per-seat-first
extends: zwanzigerrufen
items:
  honours:
    title: Honours
    value: 1
    per_seat: true
    achieved: "holder(trull) in side"
contracts:
  call: {items: [honours, game, trull]}
  solo: {items: [honours, game, trull]}
"""


def test_rows_keep_the_order_of_the_contracts_items_when_one_is_scored_per_seat(monkeypatch):
    game = load_text(PER_SEAT_FIRST, "yaml", max_deals=1)
    seen = settled_rows(game, 200, 3, monkeypatch)
    for _, expected, scored in seen:
        assert scored == expected
    called = [scored for contract, _, scored in seen if contract in ("call", "solo") and "honours" in {row[0] for row in scored}]
    assert called and all(scored[0][0] == "honours" and scored[-1][0] != "honours" for scored in called)


def test_the_settlement_reads_in_the_code_dump_one_function_for_contracts_that_count_alike():
    source = load_game("zwanzigerrufen").definition.code.source()
    assert "the settlement's items in no contract, call" in source     # all items, bonuses once
    assert "the settlement's items in solo" in source                  # bonuses twice
    assert "_rows.append(('trull', True, 1, 0, False))" in source        # never doubled: level 0
    assert "_rows.append(('trull', True, 2, 0, False))" in source


GUARDED = """
game: zr-guarded-item
extends: zwanzigerrufen
items:
  guarded:
    title: Guarded
    value: 1
    achieved: "tricks(side) > 20 and 10 / (tricks_played - 10) > 0"
"""


def test_what_follows_an_and_is_not_computed_before_its_test():
    game = load_text(GUARDED, "yaml", max_deals=1)      # the division is by zero whenever it is reached
    play_random_deals(game, 30, 4)
    assert "_once" in game.definition.code.source()      # parts of other items are computed once


NESTED_PARTS = """
game: zr-nested-parts
extends: zwanzigerrufen
items:
  nested:
    title: Nested
    value: 1
    achieved: "tricks(side) + (tricks_played + 1) > tricks_played"
"""


def test_a_part_computed_once_reads_only_parts_computed_before_it(monkeypatch):
    game = load_text(NESTED_PARTS, "yaml", max_deals=1)   # `tricks_played + 1` first, then `tricks_played`
    seen = settled_rows(game, 40, 6, monkeypatch)
    assert all(scored == expected for _, expected, scored in seen)
    assert any(row[0] == "nested" for *_, scored in seen for row in scored)
