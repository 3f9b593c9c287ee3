"""Entry point of the ``rulelang`` command: argument parsing and dispatch to the subcommands."""

from __future__ import annotations

import argparse
import os
import sys

from rulelang.diagnostics import RuleError, render_all


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    from rulelang.cli import commands
    parser = argparse.ArgumentParser(prog="rulelang", description="Rules of trick-taking card games as data.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 fine, 1 rule errors, 2 usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except RuleError as exc:
        sys.stderr.write(render_all(exc.diagnostics) + "\n")
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except Exception as exc:  # an internal bug: say so plainly, keep the traceback for debugging
        if os.environ.get("RULELANG_DEBUG"):
            raise
        sys.stderr.write(f"rulelang: internal error: {type(exc).__name__}: {exc}\n"
                         "set RULELANG_DEBUG=1 to see the traceback, and please report it\n")
        return 3


if __name__ == "__main__":
    sys.exit(main())
