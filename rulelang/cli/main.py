"""Entry point of the ``rulelang`` command: argument parsing and dispatch to the subcommands."""

from __future__ import annotations

import argparse
import os
import sys

from rulelang.diagnostics import RuleError, render_all
from rulelang.compile.values import EvalError, failed_rule


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    from rulelang.cli import commands
    from rulelang import __version__
    parser = argparse.ArgumentParser(prog="rulelang", description="Rules of trick-taking card games as data.")
    parser.add_argument("--version", action="version", version=f"rulelang {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.register(sub)
    for name, command in sub.choices.items():
        if name not in ("list", "schema"):
            command.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                                 help="let `extends` and a log's `rules` name rule files under DIR too "
                                      "(by default only the referring file's own folder tree and shipped games)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 fine, 1 rule errors, 2 usage)."""
    from rulelang.cli.args import UsageError
    from rulelang.interpreter.agents import AgentSpecError
    from rulelang.loader import allow_paths
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        allow_paths(getattr(args, "allow_path", []))
        return int(args.handler(args) or 0)
    except (UsageError, AgentSpecError) as exc:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"rulelang {args.command}: error: {exc}\n")
        return 2
    except RuleError as exc:
        sys.stderr.write(render_all(exc.diagnostics) + "\n")
        return 1
    except EvalError as exc:
        sys.stderr.write(failed_rule(exc).render() + "\n")
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
