"""The batch twins of the rules give, deal by deal, what the rules give one state at a time.

For every shipped rule file: states reached by seeded random play are packed into one batch
state, and every rule that has a batch twin is evaluated both ways — for seat 0, seat 1 and
each state's current seat — and must agree wherever the scalar rule has a value.
"""

from __future__ import annotations

import pytest

from rulelang.batch.vectorize import BatchUnsupported

np = pytest.importorskip("numpy")

from helpers import random_states  # noqa: E402
from rulelang.batch.state import from_states  # noqa: E402
from rulelang.batch.vectorize import BatchCode, BatchUnsupported  # noqa: E402
from rulelang.loader import load_game, shipped_games  # noqa: E402

GAMES = sorted(str(path) for path in shipped_games())


def scalar_values(rule, states, seats) -> list:
    """The rule's value in each state for its seat; None where the rule has none there (an error)."""
    values = []
    for state, seat in zip(states, seats):
        try:
            values.append(rule.fn(state, seat))
        except Exception:  # noqa: BLE001 - a rule asked out of its context; not compared
            values.append(None)
    return values


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_batch_rules_agree_with_the_rules(path):
    game = load_game(path)
    code = BatchCode(game.definition.code)
    states = random_states(game, 7, 48)
    try:
        batch = from_states(game, states, code.strings)
    except BatchUnsupported as why:
        pytest.skip(f"not covered by the batch engine: {why}")
    compared = 0
    current = np.array([max(state.current, 0) for state in states])
    for rule in game.definition.code.pending:
        try:
            fn = code.fn(rule)
        except BatchUnsupported:
            continue
        for seat in (0, 1, current):
            seats = list(current) if np.ndim(seat) else [seat] * len(states)
            want = scalar_values(rule, states, [int(s) for s in seats])
            try:
                got = np.broadcast_to(fn(batch, seat), (len(states),))
            except BatchUnsupported:
                break
            for value, found in zip(want, got):
                if value is not None:
                    assert batch.code(value) == int(found), f"{rule.text}: {value} != {found}"
                    compared += 1
    assert compared > 200


def test_a_rule_without_a_twin_is_named(monkeypatch):
    from rulelang.batch import runtime
    monkeypatch.delitem(runtime.HELPERS, "_tricks_worth")
    game = load_game("doppelkopf")
    code = BatchCode(game.definition.code)
    index, reason = next(iter(code.reasons.items()))
    assert reason == "the helper `_tricks_worth` (no batch twin yet)"
    rule = game.definition.code.pending[index]
    with pytest.raises(BatchUnsupported, match="doppelkopf.rules:") as raised:
        code.fn(rule)
    assert reason in str(raised.value)


def test_every_rule_of_the_shipped_files_has_a_batch_twin():
    for path in GAMES:
        if any(name in path for name in ("french-tarot", "preferans", "schnapsen", "twenty-nine", "barbu", "belote", "klaverjas", "jass", "pinochle", "five-hundred")):
            continue           # 78 cards: the batch engine holds up to 64; decided(); said_by(), said_in(); melded(); beats() in a set (refused games)
        assert BatchCode(load_game(path).definition.code).reasons == {}, path


def test_the_batch_module_is_built_from_ast_and_reads_as_python():
    code = BatchCode(load_game("zwanzig-ab").definition.code)
    source = code.source()
    assert "def rule_9(bs, pl):" in source
    assert "_b_where" in source or "_b_returned" in source
    assert "eval(" not in source and "exec(" not in source
