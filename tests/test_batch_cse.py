"""A batch rule computes each repeated subexpression once (rulelang.batch.cse), to the same value."""

from __future__ import annotations

import ast
import itertools

import pytest

pytest.importorskip("numpy")

from rulelang.batch.cse import hoisted, worth_hoisting  # noqa: E402
from rulelang.batch.vectorize import batch_code  # noqa: E402
from rulelang.loader import load_definition, shipped_games  # noqa: E402


def evaluate(statements: list[ast.stmt], namespace: dict):
    module = ast.fix_missing_locations(ast.Module(statements, []))
    exec(compile(module, "<test>", "exec"), namespace)  # noqa: S102 - compiled from ast
    return namespace["result"]


def test_a_repeated_subexpression_is_computed_once_to_the_same_value():
    calls = []

    def f(x):
        calls.append(x)
        return x * 3

    code = ast.parse("f(a + b) * f(a + b) + (a + b) - f(a - b)", mode="eval").body
    plain = evaluate([ast.Assign([ast.Name("result", ast.Store())], code)], {"f": f, "a": 5, "b": 2})
    assert len(calls) == 3
    calls.clear()
    assignments, shared = hoisted(ast.parse("f(a + b) * f(a + b) + (a + b) - f(a - b)", mode="eval").body,
                                  (f"_cse{i}" for i in itertools.count()))
    assert [ast.unparse(ast.fix_missing_locations(a)) for a in assignments] == ["_cse0 = a + b", "_cse1 = f(_cse0)"]
    assert ast.unparse(shared) == "_cse1 * _cse1 + _cse0 - f(a - b)"
    value = evaluate([*assignments, ast.Assign([ast.Name("result", ast.Store())], shared)],
                     {"f": f, "a": 5, "b": 2})
    assert value == plain == 21 * 21 + 7 - 9
    assert calls == [7, 3]


@pytest.mark.parametrize("path", sorted(str(p) for p in shipped_games()), ids=lambda p: p.rsplit("/", 1)[-1])
def test_no_statement_of_a_batch_rule_computes_a_subexpression_twice(path):
    source = ast.parse(batch_code(load_definition(path).code).source())
    for statement in ast.walk(source):
        if not isinstance(statement, ast.Assign):
            continue
        seen: set[str] = set()
        for node in ast.walk(statement.value):
            if worth_hoisting(node):
                text = ast.dump(node)
                assert text not in seen, f"{ast.unparse(statement)[:200]} computes {ast.unparse(node)} twice"
                seen.add(text)
