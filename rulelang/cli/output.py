"""Writing command output to the terminal."""

from __future__ import annotations

import json
import sys


def print_lines(lines) -> None:
    """Write lines of text to standard output, at once (a long run is read as it goes)."""
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()


def print_json(data) -> None:
    """Write ``data`` as indented JSON to standard output."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
