"""The subcommands: list, validate, run, replay, dump, fmt, schema."""

from __future__ import annotations

import argparse
import json
import sys

from rulelang.cli import output


def at_least(minimum: int):
    """An argparse type: a whole number of at least ``minimum``."""
    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    return whole_number


positive = at_least(1)
non_negative = at_least(0)


def register(sub) -> None:
    """Add every subcommand to the argparse subparsers ``sub``."""
    p = sub.add_parser("list", help="shipped games and variants")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("validate", help="check rule files; exit 1 on errors")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print diagnostics as JSON (same as --format json)")
    p.add_argument("--format", choices=["human", "json", "sarif"], default="human",
                   help="human (coloured on a terminal), json, or SARIF 2.1.0 for code-scanning viewers")
    p.add_argument("--all", action="store_true", help="show every diagnostic, not just the first few per file")
    p.add_argument("--simulate", type=int, default=0, metavar="N",
                   help="also play N seeded random deals and report what only running shows")
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("run", help="bots play a game; the run is narrated")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.add_argument("--seed", type=int, default=None)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--deals", type=positive, default=None, metavar="K", help="play K deals")
    group.add_argument("--match", action="store_true", help="play until the match ends (the default)")
    p.add_argument("--log", metavar="FILE", help="write a JSON-lines log")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the narration")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("play", help="you at the table, bots in the other seats")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--seat", type=int, default=1, help="your seat, 1..n (default 1)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--deals", type=positive, default=None, metavar="K")
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("replay", help="replay a log, checking every move")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--rules", metavar="OTHER", help="replay under another game or variant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("dump", help="print a stage of the pipeline")
    p.add_argument("--stage", choices=["document", "ir", "tables"], default="document")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(handler=cmd_dump)

    p = sub.add_parser("fmt", help="convert a rule file between the DSL and YAML")
    p.add_argument("--to", choices=["yaml", "rules"], required=True)
    p.add_argument("file", metavar="FILE")
    p.set_defaults(handler=cmd_fmt)

    p = sub.add_parser("schema", help="print the JSON Schema of the YAML form")
    p.set_defaults(handler=cmd_schema)

    register_variant_tools(sub)


def register_variant_tools(sub) -> None:
    """Add ``diff``, ``explain`` and ``simulate``."""
    p = sub.add_parser("diff", help="what game B changes against game A, in rule terms")
    p.add_argument("a", metavar="A", help="a shipped game's name or a rule file")
    p.add_argument("b", metavar="B", help="a shipped game's name or a rule file")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    p.set_defaults(handler=cmd_diff)

    p = sub.add_parser("explain", help="the rules of a game in plain English")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.set_defaults(handler=cmd_explain)

    p = sub.add_parser("simulate", help="random agents play many deals; statistics per deal and match")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.add_argument("--deals", type=positive, default=1000, metavar="N", help="single deals to play (default 1000)")
    p.add_argument("--matches", type=non_negative, default=None, metavar="M",
                   help="whole matches for the match length (default N/10, at most 100)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal i is played from seed S + i")
    p.add_argument("--compare", metavar="GAME2", help="run GAME2 on the same seeds, side by side")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.set_defaults(handler=cmd_simulate)


def cmd_list(args) -> int:
    """Print the shipped games with their titles, once per game (the first syntax found is read)."""
    from rulelang.loader import read_document, shipped_games
    forms: dict[str, list] = {}
    for path in shipped_games():
        forms.setdefault(path.stem, []).append(path)
    for name, paths in sorted(forms.items()):
        doc = read_document(paths[0])
        base = doc.data.get("extends")
        notes = [f"variant of {base}"] if base else []
        if len(paths) > 1:
            notes.append("also as " + ", ".join(p.suffix for p in paths[1:]))
        suffix = f"  ({'; '.join(notes)})" if notes else ""
        sys.stdout.write(f"{name:32} {doc.data.get('title', '')}{suffix}\n")
    return 0


def cmd_validate(args) -> int:
    """Validate files; print all diagnostics; exit 1 if any is an error."""
    from rulelang.cli.validate import validate_files
    return validate_files(args.files, as_json=args.json, fmt=args.format, show_all=args.all,
                          simulate=max(args.simulate, 0))


def cmd_run(args) -> int:
    """Bots play GAME; narrate it or print JSON; optionally write a log."""
    from rulelang.interpreter.log import log_lines, write_log
    from rulelang.interpreter.narrate import narrate_match
    from rulelang.interpreter.runner import play_match
    from rulelang.loader import load_game
    game = load_game(args.game, max_deals=args.deals)
    state, record = play_match(game, seed=args.seed)
    if args.log:
        write_log(args.log, log_lines(game, args.seed, record, state))
    summary = record.summary(state)
    if args.json:
        output.print_json(summary)
    else:
        title = f"{game.definition.title} — seed {args.seed}" if args.seed is not None else game.definition.title
        output.print_lines(narrate_match(summary, title))
    return 0


def cmd_play(args) -> int:
    """A person plays one seat at the terminal."""
    from rulelang.cli.play import play_command
    return play_command(args.game, args.seat, args.seed, args.deals)


def cmd_replay(args) -> int:
    """Replay a log; exit 1 at the first illegal or divergent step."""
    from rulelang.cli.replay import replay_command
    return replay_command(args.log, args.rules, args.json)


def cmd_dump(args) -> int:
    """Print the document, the IR or the tables of a rule file."""
    from rulelang.cli.dump import dump
    output.print_lines(dump(args.file, args.stage))
    return 0


def cmd_fmt(args) -> int:
    """Print a rule file converted to YAML or to the DSL."""
    from rulelang.fmt import to_rules, to_yaml
    from rulelang.loader import find_game, read_document
    from rulelang.diagnostics import Diagnostic, RuleError
    path = find_game(args.file)
    if path is None:
        raise RuleError([Diagnostic("R313", f"no rule file called '{args.file}'", None, "give a path")])
    data = read_document(path).data
    sys.stdout.write(to_yaml(data) if args.to == "yaml" else to_rules(data))
    return 0


def cmd_schema(args) -> int:
    """Print the JSON Schema of rule documents."""
    from rulelang.validators.schema import schema
    sys.stdout.write(json.dumps(schema(), indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_diff(args) -> int:
    """Print what game B changes against game A."""
    from rulelang.cli.diffcmd import diff_command
    return diff_command(args.a, args.b, args.json)


def cmd_explain(args) -> int:
    """Print the rules of a game in plain English."""
    from rulelang.cli.explaincmd import explain_command
    return explain_command(args.game)


def cmd_simulate(args) -> int:
    """Random agents play many deals; print the statistics."""
    from rulelang.cli.simulate import simulate_command
    return simulate_command(args.game, args.deals, args.seed, args.json, args.compare, args.matches)
