"""examples/: every script runs (small sizes) and every rule file validates and plays."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT

from rulelang.cli.validate import diagnostics_of
from rulelang.loader import load_game

EXAMPLES = ROOT / "examples"
SCRIPTS = {
    "play_match.py": (["--seed", "2", "--deals", "3"], "totals:"),
    "compare_house_rule.py": (["--deals", "100"], "house rule"),
    "openspiel_ismcts.py": (["--episodes", "1", "--sims", "5"], "mean return"),
    "pettingzoo_loop.py": (["--episodes", "2"], "total rewards"),
    "ray_simulation.py": (["--deals", "40"], "deals on Ray"),
}


def test_every_script_of_examples_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(SCRIPTS)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_the_example_script_runs(script, tmp_path):
    args, expected = SCRIPTS[script]
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout


@pytest.mark.parametrize("path", sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".rules", ".yaml")),
                         ids=lambda p: p.name)
def test_the_example_rule_file_validates_and_plays(path):
    assert [d for d in diagnostics_of(str(path)) if d.is_error] == []
    state = load_game(str(path), max_deals=1).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.deal_number == 1
