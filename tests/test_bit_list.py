"""``bit_list`` and ``card_points``: the set bits of a card mask, whatever the size of the pack, and their points."""

from hypothesis import given
from hypothesis import strategies as st

from rulelang.deck import bit_list


@given(st.sets(st.integers(min_value=0, max_value=199)))
def test_bit_list_gives_every_set_bit_in_order_for_any_pack_size(cards):
    assert bit_list(sum(1 << card for card in cards)) == sorted(cards)


@given(st.integers(min_value=0, max_value=63))
def test_bit_list_is_exact_at_the_edges_of_its_written_out_sizes(card):
    for mask in (1 << card, (1 << card) - 1, (1 << 32) - 1, (1 << 64) - 1, 1 << 64 | 1 << card, 1 << 32 | 1 << card):
        assert bit_list(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]


@given(st.lists(st.integers(min_value=-30, max_value=30), min_size=1, max_size=64), st.data())
def test_card_points_sums_the_points_of_the_cards_whatever_the_table(points, data):
    from rulelang.coderuntime import card_points
    table = tuple(points)
    cards = data.draw(st.sets(st.integers(min_value=0, max_value=len(table) - 1)))
    assert card_points(table, sum(1 << c for c in cards)) == sum(table[c] for c in cards)
