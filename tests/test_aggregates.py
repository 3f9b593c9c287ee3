"""Quantifiers and aggregates over finite domains, checked against Python working the same thing out.

Each expression is compiled into a shipped game's scope and worked out in states reached by seeded
random play; an oracle computes the same value from the state by hand. Over seats, suits, ranks and
constant card sets the aggregate is written out (and has a batch twin); over a set of cards known only
in play it is a generator.
"""

from __future__ import annotations

import pytest

from helpers import random_states
from rulelang.compile.compiler import GameCompiler
from rulelang.compile.exprcompile import Binding, PLAYER_CODE, compile_expr
from rulelang.compile.ir import Rule
from rulelang.compile.values import SEAT
from rulelang.diagnostics import RuleError
from rulelang.interpreter import Game
from rulelang.loader import load_game
from rulelang.read.expr import parse_expr, to_text
from rulelang.read.files import open_document
from rulelang.loader import resolve_document
from rulelang.validators.report import diagnostics_of_text


def compiled(game_name: str, text: str):
    """A function (state, seat) -> value of ``text`` in the scope of a rule about one seat of ``game_name``."""
    compiler = GameCompiler(resolve_document(open_document(game_name)))
    compiler.run()
    scope = compiler.scope.child(player=Binding(SEAT, PLAYER_CODE))
    result = compile_expr(parse_expr(text), scope, None)
    rule = Rule(None, text, None)
    scope.module.function(result.code, rule)
    scope.module.link()
    return rule.fn


def states(game_name: str, count: int = 30, seed: int = 5) -> list:
    """States of a shipped game up to 60 random moves into a match: auctions and exchanges among them."""
    return random_states(load_game(game_name), seed, count, moves=(0, 60))


def cards_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def from_forehand(state) -> list[int]:
    n = state.game.num_players
    return [(state.forehand + i) % n for i in range(n)]


ORACLES = {
    "sum(tricks(s) for s in seats)": lambda st, p: sum(st.tricks.taken),
    "sum(tricks(s) for s in active if s != dealer)":
        lambda st, p: sum(st.tricks.taken[s] for s in range(4) if st.active >> s & 1 and s != st.dealer),
    "count(count(hand(s) & hearts) > 2 for s in seats)":
        lambda st, p: sum(1 for s in range(4) if len([c for c in cards_of(st.hands[s]) if st.game.card_suits[c] == 2]) > 2),
    "any(count(hand(player) & s) == 0 for s in suits)":
        lambda st, p: any(not any(st.game.card_suits[c] == s for c in cards_of(st.hands[p])) for s in range(4)),
    "all(count(dealt(s)) == 5 for s in seats)": lambda st, p: all(bin(st.dealt[s]).count("1") == 5 for s in range(4)),
    "max(count(hand(s)) for s in seats)": lambda st, p: max(bin(h).count("1") for h in st.hands),
    "min(count(hand(s)) for s in active)":
        lambda st, p: min([bin(st.hands[s]).count("1") for s in range(4) if st.active >> s & 1] or [0]),
    "argmax(count(hand(s)) for s in seats)":
        lambda st, p: max(from_forehand(st), key=lambda s: (bin(st.hands[s]).count("1"), -from_forehand(st).index(s))),
    "argmin(count(hand(s) & hearts) for s in seats)":
        lambda st, p: min(from_forehand(st), key=lambda s: (sum(1 for c in cards_of(st.hands[s])
                                                                 if st.game.card_suits[c] == 2),
                                                             from_forehand(st).index(s))),
    "count(hand(player))": lambda st, p: bin(st.hands[p]).count("1"),
    "sum(card_points({c}) for c in hand(player))":
        lambda st, p: sum(st.game.definition.deck.cards[c].points for c in cards_of(st.hands[p])),
    "count({c for c in hand(player) if suit(c) == hearts})":
        lambda st, p: sum(1 for c in cards_of(st.hands[p]) if st.game.card_suits[c] == 2),
    "count({s for s in seats if count(hand(s)) > 0})": lambda st, p: sum(1 for h in st.hands if h),
    "argmax(card_points({c}) for c in hand(player))":
        lambda st, p: max(cards_of(st.hands[p]), key=lambda c: (st.game.definition.deck.cards[c].points, -c),
                          default=-1),
    "sum(n for n in numbers(1, tricks_played))": lambda st, p: sum(range(1, len(st.tricks.trick_winners) + 1)),
    "max(n for n in ranks if n < 4)": lambda st, p: 3,
    "sum(count(hand(player) & s) * 10 for s in suits)": lambda st, p: 10 * bin(st.hands[p]).count("1"),
    "any(c in hand(player) for c in hearts)":
        lambda st, p: any(st.game.card_suits[c] == 2 for c in cards_of(st.hands[p])),
    "sum(sum(1 for c in hand(s)) for s in seats)": lambda st, p: sum(bin(h).count("1") for h in st.hands),
}


@pytest.mark.parametrize("text", list(ORACLES), ids=lambda t: t[:40])
def test_an_aggregate_gives_what_python_works_out(text):
    fn, oracle = compiled("zwanzig-ab", text), ORACLES[text]
    for state in states("zwanzig-ab"):
        for seat in range(4):
            got, want = fn(state, seat), oracle(state, seat)
            assert (got if not isinstance(want, bool) else bool(got)) == want, (text, seat)


@pytest.mark.parametrize("text", [
    "sum(tricks(s) for s in seats)", "{c for c in hand(player) & trump if c in hearts}",
    "argmax(tricks(s) for s in active if s != dealer)", "count(x > 1 for x in numbers(1, 3))",
    "all(count(hand(s) & t) > 0 for t in suits)"])
def test_an_aggregate_prints_back_as_written(text):
    assert to_text(parse_expr(text)) == text


def test_a_seat_aggregate_is_written_out_with_each_seat_a_constant():
    compiler = GameCompiler(resolve_document(open_document("zwanzig-ab")))
    compiler.run()
    result = compile_expr(parse_expr("sum(tricks(s) for s in seats)"), compiler.scope, None)
    import ast
    text = ast.unparse(result.code)
    assert text == "st.tricks.taken[0] + st.tricks.taken[1] + st.tricks.taken[2] + st.tricks.taken[3]"


def test_ties_go_to_the_first_seat_from_forehand():
    fn = compiled("zwanzig-ab", "argmax(0 for s in seats)")
    for state in states("zwanzig-ab", 8):
        assert fn(state, 0) == state.forehand


def test_an_empty_domain_gives_zero_or_none():
    assert compiled("zwanzig-ab", "max(1 for s in seats - seats)")(states("zwanzig-ab", 1)[0], 0) == 0
    assert compiled("zwanzig-ab", "argmax(1 for c in hand(player) - hand(player))")(states("zwanzig-ab", 1)[0], 0) == -1


def errors_of(expression: str) -> list:
    text = "extends: zwanzig-ab\nphases:\n  8:\n    score: {each: active, add: \"%s\"}\n" % expression
    return [d for d in diagnostics_of_text(text, "g.yaml") if d.is_error]


@pytest.mark.parametrize("expression, code, words", [
    ("sum(s for s in seats)", "N210", "needs a whole number, but this is a seat"),
    ("sum(1 for s in 3)", "N210", "`for … in` needs seats, cards, suits or numbers"),
    ("median(1 for s in seats)", "N203", "'median' does not take `for`"),
    ("count({s for s in 1})", "N210", "`for … in` needs"),
    ("count(numbers(1, 5000))", "N239", "more than 1,000 numbers"),
    ("sum(player for s in seats)", "N210", "needs a whole number"),
])
def test_a_wrong_aggregate_is_reported_where_it_is_written(expression, code, words):
    found = errors_of(expression)
    assert found and found[0].code == code and words in found[0].message, [str(d) for d in found]


def test_the_variable_of_an_aggregate_is_not_seen_by_a_definition():
    text = ("extends: zwanzig-ab\ndefine:\n  mine: \"tricks(s)\"\nphases:\n  8:\n    score: {each: active, add: "
            "\"sum(mine for s in seats)\"}\n")
    found = [d for d in diagnostics_of_text(text, "g.yaml") if d.is_error]
    assert [d.code for d in found] == ["N201"] and "'s'" in found[0].message


def test_a_definition_with_a_parameter_reads_the_element_it_is_given():
    text = ("extends: zwanzig-ab\ndefine:\n  \"mine(s)\": \"tricks(s) * 0\"\nphases:\n  8:\n    score: {each: active, "
            "add: \"sum(mine(s) for s in seats) - tricks(player) * (if trump == hearts then hearts_factor else 1)\"}\n")
    from rulelang.loader import load_text
    from rulelang.interpreter.runner import play_match
    game = load_text(text, "yaml", max_deals=1)
    state, _ = play_match(game, seed=2)
    assert state.is_terminal() or state.deal_number >= 1


def test_seat_aggregates_have_batch_twins_and_card_generators_do_not():
    pytest.importorskip("numpy")
    from rulelang.batch.vectorize import BatchCode, BatchUnsupported
    from rulelang.loader import load_text
    text = ("extends: zwanzig-ab\nphases:\n  8:\n    score: {each: active, add: \"tricks(argmax(tricks(s) for s in seats)) + "
            "sum(tricks(s) for s in active) + count({c for c in hearts if c in hand(player)})\"}\n")
    game = load_text(text, "yaml")
    code = BatchCode(game.definition.code)
    assert code.reasons == {}
    generator = text.replace("c in hearts if", "c in hand(player) if")
    code = BatchCode(load_text(generator, "yaml").definition.code)
    assert any("for" in why for why in code.reasons.values())
    with pytest.raises(BatchUnsupported):
        code.fn(next(r for r in code.module.pending if "hand(player) if" in r.text))


def test_an_aggregate_over_cards_known_only_in_play_counts_its_cost_for_every_card():
    lines = ["extends: zwanzig-ab", "define:", '  "f0(n)": "n + tricks(player)"']
    lines += [f'  "f{i}(n)": "f{i - 1}(n + 1) + f{i - 1}(n + 2)"' for i in range(1, 12)]
    lines.append('phases:\n  8:\n    score: {each: active, add: "sum(f11(c) for c in ranks) + '
                 'count({c for c in hand(player) if f11(1) > 0})"}')
    found = [d for d in diagnostics_of_text("\n".join(lines), "g.yaml") if d.is_error]
    assert [d.code for d in found] == ["N238"]


def test_a_syntax_error_in_an_aggregate_is_located():
    with pytest.raises(RuleError) as raised:
        parse_expr("sum(1 for in seats)")
    assert raised.value.diagnostics[0].code.startswith("S1")
    assert Game  # the engine is importable alongside the compiler


WRITTEN_OUT = ["argmax(count(hand(s)) for s in seats)", "argmin(tricks(s) for s in active if s != dealer)",
               "max(count(hand(s) & hearts) for s in seats)", "min(count(hand(s)) for s in active)",
               "count(any(c in hand(s) for c in hearts) for s in seats)", "sum(count(hand(player) & t) for t in suits)",
               "count({s for s in seats if count(hand(s)) > 4})", "all(count(dealt(s)) > 0 for s in seats)"]


@pytest.mark.parametrize("text", WRITTEN_OUT, ids=lambda t: t[:40])
def test_a_written_out_aggregate_gives_the_same_in_the_batch_engine(text):
    np = pytest.importorskip("numpy")
    from rulelang.batch.state import from_states
    from rulelang.batch.vectorize import BatchCode
    from rulelang.loader import load_text
    wrapped = f"if {text} then 1 else 0" if text.startswith(("all", "any")) else \
        f"tricks({text})" if text.startswith("arg") else text
    game = load_text("extends: zwanzig-ab\nphases:\n  8:\n    score: {each: active, add: \"%s\"}\n" % wrapped, "yaml")
    code = BatchCode(game.definition.code)
    rule = next(r for r in game.definition.code.pending if r.text == wrapped)
    found = states("zwanzig-ab", 40, seed=11)
    batch = from_states(game, found, code.strings)
    for seat in range(4):
        got = np.broadcast_to(code.fn(rule)(batch, seat), (len(found),))
        assert [int(v) for v in got] == [int(rule.fn(s, seat)) for s in found], (text, seat)
