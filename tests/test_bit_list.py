"""``bit_list`` and ``card_points``: the set bits of a card mask, whatever the size of the pack, and their points."""

from hypothesis import given
from hypothesis import strategies as st

from rulelang.compile.deck import bit_list


@given(st.sets(st.integers(min_value=0, max_value=199)))
def test_bit_list_gives_every_set_bit_in_order_for_any_pack_size(cards):
    assert bit_list(sum(1 << card for card in cards)) == sorted(cards)


@given(st.integers(min_value=0, max_value=63))
def test_bit_list_is_exact_at_the_edges_of_its_written_out_sizes(card):
    for mask in (1 << card, (1 << card) - 1, (1 << 32) - 1, (1 << 64) - 1, 1 << 64 | 1 << card, 1 << 32 | 1 << card):
        assert bit_list(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]


@given(st.lists(st.integers(min_value=-30, max_value=30), min_size=1, max_size=64), st.data())
def test_card_points_sums_the_points_of_the_cards_whatever_the_table(points, data):
    from rulelang.compile.coderuntime import card_points
    table = tuple(points)
    cards = data.draw(st.sets(st.integers(min_value=0, max_value=len(table) - 1)))
    assert card_points(table, sum(1 << c for c in cards)) == sum(table[c] for c in cards)


@given(st.sets(st.integers(min_value=0, max_value=119)), st.integers(min_value=0, max_value=2**32), st.data())
def test_sample_bits_draws_the_cards_random_sample_draws_from_the_same_seed(cards, seed, data):
    """A seed deals the same cards as before ``sample_bits`` wrote ``Random.sample`` out (pool and set branches),
    and leaves the generator where ``sample`` leaves it."""
    import random

    from rulelang.compile.deck import sample_bits
    mask = sum(1 << card for card in cards)
    count = data.draw(st.integers(min_value=0, max_value=len(cards)))
    ours, theirs = random.Random(seed), random.Random(seed)
    assert sample_bits(ours, mask, count) == theirs.sample(sorted(cards), count)
    assert ours.getrandbits(64) == theirs.getrandbits(64)


def test_sample_bits_asks_any_other_generator_for_sample():
    import random

    import pytest

    from rulelang.compile.deck import sample_bits

    class Recorded(random.Random):
        def sample(self, population, k, **_):
            self.asked = (list(population), k)
            return super().sample(population, k)
    rng = Recorded(3)
    assert sorted(sample_bits(rng, 0b1011, 2)) in ([0, 1], [0, 3], [1, 3]) and rng.asked == ([0, 1, 3], 2)
    with pytest.raises(ValueError):
        sample_bits(random.Random(1), 0b11, 3)
