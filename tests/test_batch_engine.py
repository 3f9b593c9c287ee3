"""The batch engine plays the game's rules: its deals, replayed through the scalar engine from
their logs, meet the same legal actions at every decision and end with the same scores."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from rulelang.batch.engine import BatchRun  # noqa: E402
from rulelang.batch.vectorize import BatchUnsupported  # noqa: E402
from rulelang.interpreter import Game  # noqa: E402
from rulelang.loader import load_definition, shipped_games  # noqa: E402
from helpers import check_replays  # noqa: E402

GAMES = sorted(str(path) for path in shipped_games())


def one_deal_game(path: str) -> Game:
    return Game(load_definition(path), max_deals=1)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_batch_deals_replay_through_the_scalar_engine(path):
    game = one_deal_game(path)
    try:
        run = BatchRun(game, 120, seed=3, record=True).play()
    except BatchUnsupported as why:
        pytest.skip(f"not covered by the batch engine yet: {why}")
    check_replays(game, run)


NARROWING = ["zwanzigerrufen.yaml", "zwanziger-rufen-fi.yaml", "skat.yaml", "koenigrufen.yaml", "schafkopf.yaml",
             "doppelkopf.rules", "bridge.yaml", "zwanzig-ab.rules", "hearts.rules"]


@pytest.mark.parametrize("name", NARROWING)
def test_deals_played_on_in_a_narrowed_run_replay_through_the_scalar_engine(name, monkeypatch):
    """A phase whose deals end at different steps goes on with those still in it (BatchRun.narrowed) once
    they are fewer than half; here from 16 deals on, so that 120 deals narrow several times."""
    from rulelang.batch import engine
    monkeypatch.setattr(engine, "NARROW_FROM", 16)
    game = one_deal_game(next(path for path in GAMES if path.endswith("/" + name)))
    check_replays(game, BatchRun(game, 120, seed=4, record=True).play())


def test_every_shipped_rule_file_is_covered():
    covered = []
    for path in GAMES:
        try:
            BatchRun(one_deal_game(path), 1, seed=0)
        except BatchUnsupported:
            continue
        covered.append(path.rsplit("/", 1)[-1])
    assert {"zwanzig-ab.rules", "zwanzig-ab.yaml", "fuenf-dazu.rules", "zwanzig-ab-stichzwang.yaml", "hearts.rules",
            "oh-hell.yaml", "spades.yaml", "euchre.yaml", "zwanzig-ab-interleaved.yaml",
            "zwanzig-ab-wikibooks-doubled.yaml", "zwanzigerrufen.yaml", "zwanziger-rufen-fi.yaml",
            "zwanzigerrufen-ordered-maerchenstich.yaml", "koenigrufen.yaml", "skat.yaml", "skat-ramsch.yaml",
            "bridge.yaml", "schafkopf.yaml", "doppelkopf.rules"} <= set(covered)
    wide = [p for p in GAMES if p.rsplit("/", 1)[-1].startswith("french-tarot")]   # 78 cards: over 64
    ruled = [p for p in GAMES if p.rsplit("/", 1)[-1] in ("five-hundred.yaml", "preferans.yaml")]   # bidding rules
    drawing = [p for p in GAMES                                                   # drawing from the stock in play
               if p.rsplit("/", 1)[-1] in ("briscola.yaml", "briscola-four.yaml", "german-whist.yaml", "schnapsen.yaml")]
    aside = [p for p in GAMES if p.rsplit("/", 1)[-1] == "twenty-nine.yaml"]          # a card laid aside face down
    records = [p for p in GAMES if p.rsplit("/", 1)[-1] == "barbu.yaml"]     # dealt_with, picked: no batch twins
    melding = [p for p in GAMES if p.rsplit("/", 1)[-1] in ("belote.yaml",                # a deal per seat
                                                           "klaverjas.yaml", "klaverjas-amsterdam.yaml",  # beats()
                                                           "jass.yaml", "pinochle.yaml")]                  # meld
    assert len(covered) == len(GAMES) - len(wide) - len(ruled) - len(drawing) - len(aside) - len(records) - len(melding)


def test_the_same_seed_plays_the_same_deals():
    game = one_deal_game("zwanzig-ab")
    first, second = (BatchRun(game, 300, seed=11).play() for _ in range(2))
    assert (first.state.deal_delta == second.state.deal_delta).all()
    other = BatchRun(game, 300, seed=12).play()
    assert not (first.state.deal_delta == other.state.deal_delta).all()


def test_a_phase_kind_without_a_kernel_is_named_before_any_deal(monkeypatch):
    from rulelang.batch import engine
    monkeypatch.delitem(engine.phase_kernels(), "exchange")
    with pytest.raises(BatchUnsupported, match="the phase `exchange` \\(no batch kernel yet\\)"):
        BatchRun(one_deal_game("zwanzig-ab"), 10, seed=0)


def test_every_construct_names_a_batch_kernel_that_exists():
    from rulelang.batch.engine import phase_kernels
    from rulelang.batch.kernels import Kernel
    from rulelang.constructs import batch_kernels, constructs
    assert set(batch_kernels()) == set(constructs())
    assert all(isinstance(kernel, Kernel) for kernel in phase_kernels().values())
    assert set(phase_kernels()) == set(batch_kernels())


def test_a_construct_that_names_no_kernel_is_refused_by_name(monkeypatch):
    from rulelang.batch import engine
    from rulelang.constructs import construct
    monkeypatch.setattr(construct("exchange"), "batch_kernel", None)
    monkeypatch.setattr(engine, "phase_kernels", engine.phase_kernels.__wrapped__)
    with pytest.raises(BatchUnsupported, match="the phase `exchange` \\(no batch kernel yet\\)"):
        BatchRun(one_deal_game("zwanzig-ab"), 10, seed=0)


def test_random_play_matches_the_scalar_engine_in_distribution():
    """Forehand's mean score change over 4,000 batch deals lies within the scalar engine's 99 % interval."""
    import random
    from rulelang.interpreter.agents import RandomAgent
    game = one_deal_game("zwanzig-ab")
    run = BatchRun(game, 4000, seed=5).play()
    forehand = run.state.deal_delta[np.arange(run.n), run.state.forehand]
    scalar = []
    for seed in range(1500):
        state, rng = game.new_initial_state(), random.Random(seed)
        agent = RandomAgent(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
            else:
                state.apply_action(agent.step(state))
        scalar.append(state.deal_delta[state.forehand])
    mean, spread = np.mean(scalar), np.std(scalar) / np.sqrt(len(scalar))
    assert abs(forehand.mean() - mean) < 2.58 * np.hypot(spread, forehand.std() / np.sqrt(run.n))


def test_an_unset_deal_variable_reads_none_as_the_scalar_state_says_it():
    from rulelang.batch.state import ABSENT
    run = BatchRun(one_deal_game("skat"), 1, seed=0)
    state = one_deal_game("skat").new_initial_state()
    for name in ("trumps", "bid_value", "kind"):           # a card set, a number and a name, none set yet
        assert run.var_text(name, ABSENT) == state.var_text(name) == "none"


def test_each_deals_pack_is_shuffled_uniformly_as_far_as_it_is_drawn():
    """PackOrder settles places lazily: each deal's order stays a permutation, and every card is at every
    place equally often (within five standard errors), settled in one go or in draws of 2 and 3."""
    from rulelang.batch.engine import PackOrder
    n, width = 30_000, 6
    for draws in ((width,), (2, 3, 1)):
        order, first = PackOrder(np.random.default_rng(7), n, width), 0
        for count in draws:
            order.cards(first, count)
            first += count
        assert (np.sort(order.order, axis=0) == np.arange(width)[:, None]).all()
        counts = np.stack([(order.order == card).sum(axis=1) for card in range(width)])
        spread = np.sqrt(n * (1 / width) * (1 - 1 / width))
        assert (np.abs(counts - n / width) < 5 * spread).all(), counts


def test_a_random_bit_of_each_mask_is_uniform_over_its_bits_and_the_extra_choices():
    from rulelang.batch.engine import pick_bit
    from rulelang.batch.runtime import signed
    masks = np.array([0b1, 0b1011, signed(1 << 63 | 1 << 40 | 1 << 5), (1 << 13) - 1 << 39] * 20_000, dtype=np.int64)
    for extra in (0, 2):
        picked = pick_bit(np.random.default_rng(3), masks, extra=extra).reshape(-1, 4)
        for column, bits in enumerate(([0], [0, 1, 3], [5, 40, 63], list(range(39, 52)))):
            choices = bits + list(range(-extra, 0))
            got = picked[:, column]
            assert set(got.tolist()) == set(choices)
            share = 1 / len(choices)
            spread = np.sqrt(len(got) * share * (1 - share))
            for choice in choices:
                assert abs((got == choice).sum() - len(got) * share) <= 5 * spread, (column, choice)


def test_a_random_choice_of_each_row_is_uniform_over_its_allowed_columns():
    from rulelang.batch.engine import uniform_pick
    rows = [[True, False, True, True], [False, False, True, False], [False, True, True, False]]
    choices = np.array(rows * 20_000)
    picked = uniform_pick(np.random.default_rng(4), choices).reshape(-1, 3)
    for column, allowed in enumerate(rows):
        got, options = picked[:, column], [i for i, ok in enumerate(allowed) if ok]
        assert set(got.tolist()) == set(options)
        share = 1 / len(options)
        spread = np.sqrt(len(got) * share * (1 - share))
        for option in options:
            assert abs((got == option).sum() - len(got) * share) <= 5 * spread, (column, option)
