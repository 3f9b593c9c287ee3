"""The semantic, graph and usage checks, and the pieces they are built from.

Each check has its broken example in ``tests/invalid`` (see test_diagnostics_catalogue);
these tests pin what the examples cannot show: that the checks stay quiet on good games,
find problems for every player count, follow every course of a deal, and see through
variants.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang.validators.report import diagnostics_of, diagnostics_of_text
from rulelang.read.document import Document
from rulelang.compile.ir import Rule
from rulelang.loader import check_document, load_definition, open_document
from rulelang.validators.catalogue import parse_catalogue
from rulelang.validators.checks import CHECKS, run_checks
from rulelang.validators.exprs import expression_sites, names_read
from rulelang.validators.graph import END, OVER, START, flow_graph
from rulelang.validators.logs import log_diagnostics
from rulelang.validators.paths import deal_paths, describe
from rulelang.validators.probe import NOT_CONSTANT, constant, is_constant
from rulelang.validators.simulate import play_deal, simulate
from helpers import copy_fixtures, write_variant

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "invalid" / "fixtures"
BASE = FIXTURES / "base.yaml"
AUCTION = FIXTURES / "auction.yaml"


def codes(found) -> list[str]:
    """The codes of some diagnostics, in order."""
    return [d.code for d in found]


def variant(tmp_path: Path, text: str, base: Path = BASE, name: str = "variant.yaml") -> str:
    """A variant of a fixture game written to a temporary file; its path."""
    return str(write_variant(tmp_path, text, base, name))


# ---------------------------------------------------------------------- the registry
def test_every_check_is_a_documented_function_in_the_registry():
    run_checks(*_compiled("zwanzig-ab"))
    assert len(CHECKS) >= 20
    for entry in CHECKS.values():
        assert entry.fn.__doc__, entry.name


def _compiled(ref: str):
    doc = open_document(ref)
    definition, report = check_document(doc)
    return doc, definition


def test_the_fixture_games_are_valid_and_quiet():
    for path in sorted(p for p in FIXTURES.iterdir() if p.is_file()):
        assert diagnostics_of(str(path), simulate=5) == [], path.name


# ---------------------------------------------------------------------- expressions and probes
def test_expression_sites_are_found_through_the_schema_in_phases_contracts_items_and_match():
    doc = open_document("zwanzigerrufen")
    sites = dict(expression_sites(doc))
    assert sites[("contracts", "call", "allow")] == "player == forehand and not callable in hand(player)"
    assert ("contracts", "suit_solo", "tricks", "win", 1, "highest") in sites
    assert ("items", "game", "achieved") in sites and ("match", "end") in sites
    assert ("phases", 1, "deal", "when") in sites
    assert all(isinstance(text, str) for text in sites.values())


def test_names_read_collects_names_but_not_functions():
    doc = Document({"match": {"end": "count(hand(dealer) & trull) >= limit"}})
    assert sorted(names_read(doc)) == ["dealer", "limit", "trull"]


def test_a_rule_that_reads_nothing_of_the_game_is_constant():
    assert constant(Rule(lambda st, pl: 3, "3", None)) == 3
    assert constant(Rule(lambda st, pl: st.dealer == 1, "dealer == 1", None)) is NOT_CONSTANT
    assert constant(Rule(lambda st, pl: pl == 2, "player == 2", None)) is NOT_CONSTANT
    assert constant(None) is NOT_CONSTANT


def test_constant_true_is_not_mistaken_for_the_number_one():
    assert is_constant(Rule(lambda st, pl: True, "1 == 1", None), True)
    assert not is_constant(Rule(lambda st, pl: 1, "1", None), True)


def test_compiled_conditions_are_probed_as_written():
    definition = load_definition("zwanzig-ab")
    forbid = definition.phases[5].forbid["pass"]
    assert constant(forbid) is NOT_CONSTANT
    assert constant(definition.match.end) is NOT_CONSTANT


# ---------------------------------------------------------------------- courses of a deal
def test_a_deal_follows_each_value_a_choice_can_take():
    definition = load_definition("zwanzigerrufen")
    kinds = sorted({tuple(step.phase.kind for step in path.steps) for path in deal_paths(definition)})
    assert kinds == [("choose", "deal", "deal", "throw_in", "auction", "tricks", "settle"),
                     ("choose", "piles", "throw_in", "auction", "tricks", "settle")]


def test_a_deal_follows_each_contract_an_auction_can_end_in_and_the_auction_passed_out():
    definition = load_definition("koenigrufen")
    talons = {}
    for path in deal_paths(definition):
        taken = [step.index for step in path.steps if step.phase.kind == "take_talon"]
        talons.setdefault(describe(definition, path.final_vars), set()).add(tuple(taken))
    assert talons["a seat declares, the contract is rufer"] == {(5,)}
    assert talons["a seat declares, the contract is sechserdreier"] == {(6,)}
    assert talons["a seat declares, the contract is solodreier"] == {()}
    assert any(course.startswith("nobody declares") for course in talons)


def test_a_set_phase_stores_its_value_on_the_course_where_it_runs():
    definition = load_definition("zwanzig-ab-kartenspiele")
    finals = {describe(definition, path.final_vars) for path in deal_paths(definition)}
    assert "mode = blind, trump = hearts" in finals
    assert len(finals) == 5


# ---------------------------------------------------------------------- deal arithmetic for any player count
@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 12), each=st.integers(1, 9))
def test_the_deal_needs_no_more_cards_than_the_deck_for_any_player_count(tmp_path_factory, players, each):
    path = variant(tmp_path_factory.mktemp("deal"), f"players: {players}\nphases:\n  1:\n    deal: {{each: {each}}}\n")
    found = codes(diagnostics_of(path))
    assert ("R320" in found) == (players * each > 32)
    if players * each <= 32:
        talon = 32 - players * each
        assert ("R321" in found) == (talon == 0)
        assert ("W601" in found) == (0 < talon < 2 * players)


@pytest.mark.parametrize("count, expected", [(4, []), (2, ["R325"]), (5, ["R324", "R325"])])
def test_piles_must_divide_the_stock_and_match_the_players(tmp_path, count, expected):
    path = variant(tmp_path, "phases:\n  - piles: {count: %d, from: forehand}\n"
                             "  - tricks: {among: seats, lead: forehand, follow: [led_suit, any], "
                             "win: [{highest: led_suit}]}\n  - score: {each: seats, add: 1}\n" % count)
    assert [c for c in codes(diagnostics_of(path)) if c.startswith("R")] == expected


def test_checks_that_read_the_document_run_even_when_the_compiler_stops(tmp_path):
    path = variant(tmp_path, 'deck:\n  remove: [7C]\nmatch:\n  end: "min(score) <= zero"\n')
    assert sorted(codes(diagnostics_of(path))) == ["N201", "N220"]


# ---------------------------------------------------------------------- rules
def test_a_contracts_own_win_rules_are_checked_where_they_are_written(tmp_path):
    path = variant(tmp_path, "contracts:\n  solo:\n    tricks:\n      win: [{highest: hearts}]\n", AUCTION)
    (found,) = [d for d in diagnostics_of(path) if d.code == "R360"]
    assert found.span.path == path and found.span.line == 5


def test_a_forbid_that_never_meets_the_others_leaves_an_option(tmp_path):
    path = variant(tmp_path, 'phases:\n  5:\n    decide:\n      options: [play, pass]\n      from: forehand\n'
                             '      forbid: {pass: "player == forehand", play: "player != forehand"}\n')
    assert "R340" not in codes(diagnostics_of(path))


def test_no_shipped_game_has_a_trick_without_a_winner_or_a_stuck_decision():
    for game in ("zwanzig-ab", "zwanzigerrufen", "fuenf-dazu", "zwanzig-ab-helpster"):
        assert not {"R340", "R341", "R360"} & set(codes(diagnostics_of(game))), game


# ---------------------------------------------------------------------- graphs
def test_the_flow_graph_has_redeal_and_auction_loops_and_ends_in_over():
    graph = flow_graph(load_definition("zwanzigerrufen"))
    assert graph.has_edge(4, START) and graph.has_edge(5, 5)
    assert graph.has_edge(START, 0) and graph.has_edge(0, 1) and graph.has_edge(0, 3)
    assert graph.has_edge(7, END) and graph.has_edge(END, OVER) and graph.has_edge(END, START)


def test_a_ladder_with_distinct_ranks_is_ordered():
    assert "G410" not in codes(diagnostics_of("zwanzigerrufen"))


# ---------------------------------------------------------------------- warnings and variants
def test_a_variant_that_changes_its_values_is_not_warned_about(tmp_path):
    path = variant(tmp_path, "players: 3\nmatch:\n  start: 12\n")
    assert "W608" not in codes(diagnostics_of(path))


def test_restating_a_base_phase_and_removing_a_missing_key_change_nothing(tmp_path):
    path = variant(tmp_path, "params: null\nphases:\n  3:\n    talon: rest\n")
    found = [d for d in diagnostics_of(path) if d.code == "W608"]
    assert [d.span.line for d in found] == [2, 4]


def test_a_param_named_like_a_built_in_name_is_hidden_by_it(tmp_path):
    path = variant(tmp_path, 'params:\n  dealer: 2\nmatch:\n  end: "score(dealer) <= 0"\n')
    (found,) = [d for d in diagnostics_of(path) if d.code == "W609"]
    assert "param 'dealer' is hidden by the built-in name 'dealer'" in found.message


def test_a_param_that_switches_an_exchange_off_is_not_warned_about(tmp_path):
    path = variant(tmp_path, 'params:\n  most: 0\nphases:\n  4:\n    exchange: {from: forehand, max: most}\n')
    assert "W611" not in codes(diagnostics_of(path))


def test_text_from_an_editor_is_checked_like_a_file():
    text = BASE.read_text(encoding="utf-8").replace("players: 4", "players: 4\nparams: {unused: 1}")
    assert codes(diagnostics_of_text(text, str(BASE))) == ["W602"]


# ---------------------------------------------------------------------- simulation and logs
def test_random_deals_of_the_shipped_games_show_no_problem():
    for game in ("zwanzig-ab", "zwanzigerrufen", "zwanziger-rufen-fi"):
        assert simulate(load_definition(game), 4) == [], game


def test_one_random_deal_is_reproducible_from_its_seed():
    from rulelang.interpreter.game import Game
    game = Game(load_definition(str(FIXTURES / "base.yaml")), max_deals=1)
    assert play_deal(game, 7) is None and play_deal(game, 7) is None


def test_a_log_replayed_to_its_end_has_no_diagnostics(tmp_path):
    lines = (ROOT / "tests" / "invalid" / "E510-move-after-the-end.jsonl").read_text(encoding="utf-8").splitlines()
    copy_fixtures(tmp_path)
    log = tmp_path / "good.jsonl"
    log.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    assert log_diagnostics(str(log)) == []


# ---------------------------------------------------------------------- the catalogue
def test_the_catalogue_reads_titles_and_explanations_up_to_the_example():
    text = "# D\n\n### N201 — unknown name\n\nA name\nnobody defined.\n\nMore.\n\nExample, `x`:\n\n```yaml\na\n```\n"
    (entry,) = parse_catalogue(text).values()
    assert (entry.code, entry.title, entry.text) == ("N201", "unknown name", "A name nobody defined.\n\nMore.")


def test_a_boolean_written_as_a_condition_is_that_constant(tmp_path):
    path = variant(tmp_path, "phases:\n  4:\n    exchange: {from: forehand, max: 2, when: false}\n")
    assert codes(diagnostics_of(path)) == ["W606"]


def test_a_when_on_params_alone_is_a_switch_and_not_reported_as_constant(tmp_path):
    off = variant(tmp_path, "params: {exchanging: false}\nphases:\n  4:\n    exchange: {from: forehand, max: 2, "
                            "when: exchanging}\n", name="off.yaml")
    on = variant(tmp_path, "params: {exchanging: true}\nphases:\n  4:\n    exchange: {from: forehand, max: 2, "
                           "when: exchanging}\n", name="on.yaml")
    assert codes(diagnostics_of(off)) == [] and codes(diagnostics_of(on)) == []
    constant_text = variant(tmp_path, "phases:\n  4:\n    exchange: {from: forehand, max: 2, when: \"1 == 2\"}\n")
    assert codes(diagnostics_of(constant_text)) == ["W606"]
