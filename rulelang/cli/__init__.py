"""The ``rulelang`` command line."""

from rulelang.cli.main import main

__all__ = ["main"]
