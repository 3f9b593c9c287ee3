"""Test-wide setup: every test, and every command it starts, uses a cache folder of its own run (one for all
the run's xdist workers, so a fit one worker learned is not learned again by the other)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory):
    """Point ``RULELANG_CACHE_DIR`` at a fresh folder of this run, so a user's cache never changes a result."""
    root = tmp_path_factory.getbasetemp()
    folder = (root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root) / "rulelang-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    folder.chmod(0o700)
    saved = os.environ.get("RULELANG_CACHE_DIR")
    os.environ["RULELANG_CACHE_DIR"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("RULELANG_CACHE_DIR", None)
    else:
        os.environ["RULELANG_CACHE_DIR"] = saved


# No Hypothesis test has a wall-clock deadline: a busy machine must not break the suite (issue 37).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("rulelang", deadline=None)
_hypothesis_settings.load_profile("rulelang")
