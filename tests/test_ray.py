"""``--backend ray``: simulate and arena on a Ray instance give exactly the local numbers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ray = pytest.importorskip("ray", reason="the Ray backend needs ray (pip install -e '.[test]')")

from rulelang.cli.arena import arena  # noqa: E402
from rulelang.cli.main import main  # noqa: E402
from rulelang.cli.simulate import simulate  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray instance started by the test, and its address."""
    import logging
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def comparable(result: dict) -> dict:
    """An arena result without its timings (which differ from run to run)."""
    return {**result, "agents": [{k: v for k, v in a.items() if k != "ms_per_move"} for a in result["agents"]]}


def test_simulate_on_ray_gives_the_local_numbers(local_ray):
    local = simulate("zwanzigerrufen", 60, 2, 5, agents="random").to_json()
    assert simulate("zwanzigerrufen", 60, 2, 5, agents="random", jobs=2, backend="ray").to_json() == local


def test_arena_on_ray_gives_the_local_numbers(local_ray):
    local = arena("zwanzig-ab", ["heuristic", "random"], 10, 3)
    assert comparable(arena("zwanzig-ab", ["heuristic", "random"], 10, 3, jobs=2, backend="ray")) == comparable(local)


def test_the_command_line_reaches_a_cluster_by_its_address(local_ray, tmp_path):
    command = [sys.executable, "-m", "rulelang.cli.main", "simulate", "zwanzig-ab", "--deals", "40", "--matches",
               "0", "--seed", "2", "--json", "--agents", "random"]
    on_ray = subprocess.run(command + ["--backend", "ray", "--address", local_ray], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    local = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert on_ray.returncode == 0, on_ray.stderr
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)


def test_without_ray_installed_the_backend_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["simulate", "zwanzig-ab", "--deals", "5", "--backend", "ray"]) == 2
    assert "--backend ray needs Ray: pip install 'rulelang[ray]'" in capsys.readouterr().err
