"""Soak: the web table's crash test with the server killed at every step of the deal, not every eighth.

    python benchmarks/soak_web_durable.py

Runs tests/test_web_durable.py with ``RULELANG_KILL_EVERY=1`` (about 150 s on a 2-core machine;
the default test run kills the server at every eighth step). Exits with pytest's status.
"""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the crash test at every step; return pytest's exit status."""
    env = {**os.environ, "RULELANG_KILL_EVERY": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider",
               str(ROOT / "tests" / "test_web_durable.py")]
    return subprocess.call(command, env=env, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
