"""The compiled kernel search (rulelang.interpreter.fast_search, extra rulelang[fast]): the very search the
Python one runs — the same value for every card and the same count of positions, so a budget in positions
decides alike with or without numba — and the Python search wherever it cannot run."""

from __future__ import annotations

import pytest

from rulelang.interpreter import fast_search, solver
from rulelang.loader import load_game
from test_solver import trick_play_position

pytest.importorskip("numba")


@pytest.fixture
def restore_compiled():
    """Leave the compiled search as the test found it."""
    kept = fast_search._COMPILED[:]
    yield
    fast_search._COMPILED[:] = kept


def by_python(state, max_nodes: int = 200_000, points: bool = False):
    """:func:`solver.solve` with the compiled search turned off for the call."""
    kept = fast_search._COMPILED[:]
    fast_search.turn_off()
    try:
        return solver.solve(state, max_nodes, points)
    finally:
        fast_search._COMPILED[:] = kept


def positions(name: str, sizes, per_size: int):
    """Seeded trick-play positions of ``name`` with ``sizes`` cards left, ``per_size`` of each."""
    game = load_game(name, max_deals=1)
    for cards_left in sizes:
        found, seed = 0, 0
        while found < per_size and seed < 40 * per_size:
            state, seed = trick_play_position(game, seed, cards_left), seed + 1
            if state is not None:
                found += 1
                yield cards_left, seed - 1, state


def test_the_compiled_search_runs_here():
    assert fast_search.available()


@pytest.mark.parametrize("name", ["bridge", "skat", "spades"])
def test_every_card_and_every_position_counted_as_the_python_search_does(name, monkeypatch):
    compiled = []

    def counted(*args):
        found = fast_search.fast_search(*args)
        compiled.append(found is not None)
        return found
    monkeypatch.setattr(solver, "fast_search", counted)
    compared = 0
    for cards_left, seed, state in positions(name, (8, 13, 16, 20), 6):
        assert solver.solve(state) == by_python(state), f"{name}, seed {seed}, {cards_left} cards"
        compared += 1
    assert compared >= 20 and compiled.count(True) >= compared      # the Python search asks it too: 2 a position


def test_card_points_counted_as_the_python_search_counts_them():
    for cards_left, seed, state in positions("skat", (9, 12, 15, 18), 5):
        assert solver.solve(state, points=True) == by_python(state, points=True), f"seed {seed}, {cards_left}"


def test_a_search_past_its_bound_gives_up_after_the_same_positions():
    gave_up = 0
    for cards_left, seed, state in positions("bridge", (24,), 6):
        fast, slow = solver.solve(state, 300), by_python(state, 300)
        assert fast == slow, f"seed {seed}"
        gave_up += fast[0] is None
    assert gave_up >= 1


def test_the_state_is_left_as_it_was():
    for _, _, state in positions("bridge", (16,), 3):
        before = (list(state.hands), list(state.tricks.trick), state.current_player())
        solver.solve(state)
        assert (list(state.hands), list(state.tricks.trick), state.current_player()) == before


def test_a_compiled_search_that_fails_here_hands_over_to_python(restore_compiled, monkeypatch):
    code = fast_search.compiled()
    _, _, state = next(positions("bridge", (16,), 1))
    expected = by_python(state)

    def broken(*args):
        raise RuntimeError("cannot cache function: no locator available")
    monkeypatch.setattr(code, "_values", broken)
    assert solver.solve(state) == expected
    assert not fast_search.available()                   # and it is not tried again in this process


def test_the_environment_can_turn_it_off(restore_compiled, monkeypatch):
    monkeypatch.setenv("RULELANG_SOLVER", "python")
    fast_search._COMPILED[:] = []
    assert fast_search.compiled() is None
    _, _, state = next(positions("spades", (12,), 1))
    assert solver.solve(state) == by_python(state)


def test_a_kernel_with_a_special_winning_card_is_searched_in_python():
    _, _, state = next(positions("zwanzigerrufen", (12,), 1))       # the Pagat's special trick
    from rulelang.interpreter.trick_kernel import trick_kernel
    kernel = trick_kernel(state)
    assert kernel is not None and kernel.special
    assert fast_search.fast_search(kernel, list(state.hands), {0: [0, 1, 2, 3]}, [True] * 4, 100, None,
                                   (0, 0, -1, -1, -1, 0)) is None
    assert solver.solve(state) == by_python(state)
