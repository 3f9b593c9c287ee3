"""benchmarks/bench_definitions.py compares like with like: its two Hearts variants are one game."""

from __future__ import annotations

from helpers import load_benchmark
from rulelang.loader import load_text


def test_the_definitions_variant_and_the_written_out_one_play_the_same_deals():
    bench = load_benchmark("bench_definitions")
    defined = load_text(bench.text_of("defined"), "yaml", max_deals=1)
    by_hand = load_text(bench.text_of("by_hand"), "yaml", max_deals=1)
    assert "define:" in bench.text_of("defined") and "define:" not in bench.text_of("by_hand")
    assert len(bench.DEFINITIONS) >= 40
    for seed in range(4):
        assert bench.playout(defined, seed) == bench.playout(by_hand, seed)
