"""The subcommands: list, validate, run, replay, dump, fmt, schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulelang.cli import output
from rulelang.cli.args import add_backend, non_negative, open_output, positive


def register(sub) -> None:
    """Add every subcommand to the argparse subparsers ``sub``."""
    p = sub.add_parser("list", help="shipped games and variants")
    p.add_argument("--json", action="store_true", help="print the games as JSON")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("validate", help="check rule files; exit 1 on errors")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print diagnostics as JSON (same as --format json)")
    p.add_argument("--format", choices=["human", "json", "sarif"], default="human",
                   help="human (coloured on a terminal), json, or SARIF 2.1.0 for code-scanning viewers")
    p.add_argument("--all", action="store_true", help="show every diagnostic, not just the first few per file")
    p.add_argument("--simulate", type=int, default=0, metavar="N",
                   help="also play N seeded random deals and report what only running shows")
    p.add_argument("--agents", metavar="A[,B,…]", default=None,
                   help="who plays the --simulate deals (random, heuristic, search; default random)")
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("run", help="bots play a game; the run is narrated")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.add_argument("--seed", type=int, default=None)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--deals", type=positive, default=None, metavar="K",
                       help="play at most K deals (fewer when the match ends sooner)")
    group.add_argument("--match", action="store_true", help="play until the match ends (the default)")
    p.add_argument("--log", metavar="FILE", help="write a JSON-lines log")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the narration")
    p.add_argument("--agents", metavar="A[,B,…]", default=None,
                   help="who plays: one agent for every seat or one per seat (random, heuristic, search; default "
                        "random). The same --seed plays the same game, except with a time budget (search:ms=B, the "
                        "search's default); search:playouts=N is reproducible")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("play", help="you at the table, bots in the other seats")
    p.add_argument("game", metavar="GAME", nargs="?", help="a shipped game's name or a rule file")
    p.add_argument("--seat", type=positive, default=None, help="your seat, 1..n (default 1, or the saved one)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--deals", type=positive, default=None, metavar="K",
                   help="play at most K deals (fewer when the match ends sooner)")
    p.add_argument("--resume", metavar="LOG", help="go on with a match saved by `quit`")
    p.add_argument("--save", metavar="FILE", help="where `quit` saves the match (default GAME-seatN.jsonl)")
    p.add_argument("--agents", metavar="A[,B,…]", default=None,
                   help="the bots: one agent for every seat or one per seat, yours ignored (default heuristic)")
    p.add_argument("--hint", action="store_true",
                   help="before each of your moves, show the move the search agent would make")
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("replay", help="replay a log, checking every move")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--rules", metavar="OTHER", help="replay under another game or variant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("dump", help="print a stage of the pipeline")
    p.add_argument("--stage", choices=["document", "ir", "tables", "code"], default="document",
                   help="document (resolved JSON), ir (compiled rules), tables (cards, actions), "
                        "code (the Python module the rules compile to)")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(handler=cmd_dump)

    p = sub.add_parser("fmt", help="print a rule file in canonical layout, or converted between the DSL and YAML")
    p.add_argument("--to", choices=["yaml", "rules"], default=None,
                   help="the syntax to print (default: the file's own)")
    p.add_argument("file", metavar="FILE")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="print nothing; exit 1 if the file is not formatted")
    mode.add_argument("--in-place", action="store_true", help="rewrite the file in canonical layout")
    p.add_argument("--upgrade", action="store_true",
                   help="rename the file's names the language has taken since (W621); with --in-place, in the file")
    p.set_defaults(handler=cmd_fmt)

    p = sub.add_parser("schema", help="print the JSON Schema of the YAML form (whole games and variants)")
    p.set_defaults(handler=cmd_schema)

    register_variant_tools(sub)
    from rulelang.cli.serve import register_serve
    register_serve(sub)


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

    p = sub.add_parser("simulate", help="agents (heuristic players by default) play many deals; statistics")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.add_argument("--deals", type=positive, default=1000, metavar="N", help="single deals to play (default 1000)")
    p.add_argument("--matches", type=non_negative, default=None, metavar="M",
                   help="whole matches for the match length (default N/10, at most 100)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal i is played from seed S + i")
    p.add_argument("--compare", metavar="GAME2", help="run GAME2 on the same seeds, side by side")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.add_argument("--agents", metavar="A[,B,…]", default=None,
                   help="who plays: one agent for every seat or one per seat (random, heuristic, search; "
                        "default heuristic). The same --seed gives the same numbers, except with a time budget "
                        "(search:ms=B, the search's default); search:playouts=N is reproducible")
    p.add_argument("--jobs", type=positive, default=1, metavar="K",
                   help="processes to share the deals (default 1); the numbers do not depend on K")
    p.add_argument("--report", metavar="FILE.html",
                   help="also write a self-contained HTML report with plots (extra rulelang[report])")
    p.add_argument("--engine", choices=("scalar", "batch"), default="scalar",
                   help="batch: random single deals in lock-step as numpy arrays, many times faster (extra "
                        "rulelang[batch]); a game it cannot run yet falls back to scalar, with a note")
    add_backend(p)
    p.set_defaults(handler=cmd_simulate)

    p = sub.add_parser("arena", help="agents compared on duplicate deals, with 95%% intervals")
    p.add_argument("game", metavar="GAME", help="a shipped game's name or a rule file")
    p.add_argument("--agents", required=True, metavar="A,B[,…]",
                   help="the agents to compare, e.g. heuristic,random. The same --seed gives the same numbers, "
                        "except with a time budget (search:ms=B, the search's default); search:playouts=N is "
                        "reproducible")
    p.add_argument("--deals", type=positive, default=200, metavar="N", help="duplicate deals to play (default 200)")
    p.add_argument("--matches", type=non_negative, default=0, metavar="M",
                   help="also play M duplicate whole matches: mean return per match and share of wins")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal i is dealt from seed S + i")
    p.add_argument("--jobs", type=positive, default=1, metavar="K", help="processes to share the deals (default 1)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    add_backend(p)
    p.set_defaults(handler=cmd_arena)


def cmd_list(args) -> int:
    """Print the shipped games with their titles, once per game (the first syntax found is read)."""
    from rulelang.read.files import shipped_list
    games = shipped_list()
    if args.json:
        output.print_json(games)
        return 0
    for game in games:
        notes = [f"variant of {game['extends']}"] if game["extends"] else []
        if len(game["files"]) > 1:
            notes.append("also as " + ", ".join(Path(f).suffix for f in game["files"][1:]))
        suffix = f"  ({'; '.join(notes)})" if notes else ""
        sys.stdout.write(f"{game['name']:32} {game['title']}{suffix}\n")
    return 0


def cmd_validate(args) -> int:
    """Validate files; print all diagnostics; exit 1 if any is an error."""
    from rulelang.cli.validate import validate_files
    return validate_files(args.files, as_json=args.json, fmt=args.format, show_all=args.all,
                          simulate=max(args.simulate, 0), agents=args.agents)


def cmd_run(args) -> int:
    """Bots play GAME; narrate it or print JSON; optionally write a log (opened before play starts)."""
    from rulelang.interpreter.log import log_lines, write_lines
    from rulelang.interpreter.narrate import match_end_lines, narrate_deal
    from rulelang.interpreter.runner import make_agents, play_match
    from rulelang.loader import load_game
    game = load_game(args.game, max_deals=args.deals)
    agents = make_agents(game, args.agents, args.seed)
    log_out = open_output(args.log) if args.log else None
    told = []

    def tell(deal: dict) -> None:                  # each deal as soon as it is scored: no silent minutes
        output.print_lines(["", *narrate_deal(deal)])
        told.append(deal)
    if not args.json:
        output.print_lines([f"{game.definition.title} — seed {args.seed}" if args.seed is not None
                            else game.definition.title])
    state, record = play_match(game, agents=agents, seed=args.seed, on_deal=None if args.json else tell)
    if log_out is not None:
        with log_out:
            write_lines(log_out, log_lines(game, args.seed, record, state, args.log))
    summary = record.summary(state)
    if args.json:
        output.print_json(summary)
    else:
        for deal in summary["deals"][len(told):]:  # a deal the engine stopped before it was scored
            tell(deal)
        output.print_lines(match_end_lines(summary))
    return report_stop(state)


def report_stop(state) -> int:
    """1 after writing why the engine stopped a match its rules did not end (E554), else 0."""
    if state.stopped is None:
        return 0
    sys.stderr.write(state.stopped.render() + "\n")
    return 1


def cmd_play(args) -> int:
    """A person plays one seat at the terminal."""
    from rulelang.cli.play import play_command
    return play_command(args.game, args.seat, args.seed, args.deals, args.resume, args.save, args.agents,
                        args.hint)


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
    """Print a rule file in canonical layout (its comments kept), check it, or rewrite it in place."""
    from rulelang.cli.fmtcmd import fmt_command
    return fmt_command(args.file, args.to, args.check, args.in_place, args.upgrade)


def cmd_schema(args) -> int:
    """Print the JSON Schema of rule files as written: whole games, and variants under ``extends``."""
    from rulelang.validators.schema_export import editor_schema
    sys.stdout.write(json.dumps(editor_schema(), indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_diff(args) -> int:
    """Print what game B changes against game A."""
    from rulelang.cli.diffcmd import diff_command
    return diff_command(args.a, args.b, args.json)


def cmd_explain(args) -> int:
    """Print the rules of a game in plain English."""
    from rulelang.cli.explaincmd import explain_command
    return explain_command(args.game)


def cmd_arena(args) -> int:
    """Agents play the same deals in every seat; print their results with confidence intervals."""
    from rulelang.cli.arena import arena_command
    return arena_command(args.game, args.agents, args.deals, args.seed, args.jobs, args.json, args.backend,
                         args.address, args.matches)


def cmd_simulate(args) -> int:
    """Agents play many deals; print the statistics (and with ``--report``, write the HTML report)."""
    from rulelang.cli.simulate import simulate_command
    return simulate_command(args.game, args.deals, args.seed, args.json, args.compare, args.matches, args.agents,
                            args.jobs, args.backend, args.address, args.report, args.engine)
