"""Entry point of the ``rulelang`` command: argument parsing and dispatch to the subcommands."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    return 0
