"""``rulelang simulate GAME --deals N``: agents (heuristic players unless told) play many deals; statistics.

Everything is computed from what the engine exposes for any game: the deal variables
(``deal_results[-1]["vars"]``), the decisions players make (every action outside dealing,
exchanging and trick play, plus the decisions the engine takes for a player with one
option left), the cards exchanged, each seat's score change and how it is distributed,
each seat's advantage (its return against the table's mean, with a 95 % interval), the
tricks taken by the seats still in, the contract and how often its declarers made it, the
items scored and announced, and — from whole matches — how many deals a match lasts.
Every count is a counter, so memory does not grow with the number of deals.
Single deals are played as one-deal matches (``max_deals=1``) from seeds ``seed + i``, so
``--compare`` runs two games on the same seeds.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from rulelang.cli import output
from rulelang.constructs import construct

MATCH_CAP = 500          # deals after which a random match counts as unfinished
AUTO_MATCHES = 100       # at most this many whole matches unless --matches says otherwise
DEFAULT_AGENTS = "heuristic"
Z95 = 1.959964


@dataclass
class Tally:
    """Counts over many single deals and whole matches of one game."""

    game: str
    seats: list[str]
    deals: int = 0
    vars: dict = field(default_factory=lambda: defaultdict(Counter))
    decisions: dict = field(default_factory=lambda: defaultdict(Counter))
    exchanged: Counter = field(default_factory=Counter)
    delta: Counter = field(default_factory=Counter)
    no_trick: int = 0
    contracts: Counter = field(default_factory=Counter)
    made: Counter = field(default_factory=Counter)
    declared: Counter = field(default_factory=Counter)
    titles: dict = field(default_factory=dict)
    items: Counter = field(default_factory=Counter)
    announced: Counter = field(default_factory=Counter)
    changes: dict = field(default_factory=lambda: defaultdict(Counter))
    advantage: dict = field(default_factory=lambda: defaultdict(Counter))
    lengths: list = field(default_factory=list)
    unfinished: int = 0

    def to_json(self) -> dict:
        """The statistics as shares and means (JSON-ready)."""
        n = max(self.deals, 1)
        return {
            "game": self.game, "deals": self.deals,
            "vars": {var: _shares(counts, n) for var, counts in self.vars.items()},
            "decisions": {f"{phase} {action}": {s: round(counts[s] / n, 4) for s in self.seats}
                          for (phase, action), counts in sorted(self.decisions.items())},
            "cards_exchanged": {s: round(self.exchanged[s] / n, 4) for s in self.seats} if self.exchanged else {},
            "score_change": {s: round(self.delta[s] / n, 4) for s in self.seats},
            "no_trick_share": round(self.no_trick / n, 4),
            "contracts": _shares(self.contracts, n),
            "contracts_made": {str(c): round(self.made[c] / k, 4) for c, k in sorted(self.declared.items(), key=str)},
            "contract_titles": dict(sorted(self.titles.items())),
            "items": {str(name): {"scored": round(k / n, 4), "announced": round(self.announced[name] / n, 4)}
                      for name, k in sorted(self.items.items(), key=lambda kv: (-kv[1], str(kv[0])))},
            "seat_advantage": {s: _mean_interval(self.advantage[s], self.deals) for s in self.seats},
            "score_distribution": {s: {str(v): k for v, k in sorted(self.changes[s].items())} for s in self.seats},
            "match_length": self.match_length(),
            "match_lengths": {str(k): v for k, v in sorted(Counter(self.lengths).items())},
        }

    def merge(self, other: "Tally") -> None:
        """Add the counts of ``other`` (the same game, other deals) to these."""
        self.deals += other.deals
        for mine, theirs in ((self.vars, other.vars), (self.decisions, other.decisions),
                             (self.changes, other.changes), (self.advantage, other.advantage)):
            for key, counts in theirs.items():
                mine[key].update(counts)
        for mine, theirs in ((self.exchanged, other.exchanged), (self.delta, other.delta),
                             (self.contracts, other.contracts), (self.made, other.made),
                             (self.declared, other.declared), (self.items, other.items),
                             (self.announced, other.announced)):
            mine.update(theirs)
        self.titles.update(other.titles)
        self.no_trick += other.no_trick
        self.lengths.extend(other.lengths)
        self.unfinished += other.unfinished

    def match_length(self) -> dict:
        """Deals per finished match: count, mean, median, min, max; and how many hit the cap."""
        lengths = self.lengths
        if not lengths:
            return {"matches": self.unfinished, "unfinished": self.unfinished}
        return {"matches": len(lengths) + self.unfinished, "mean": round(statistics.fmean(lengths), 2),
                "median": statistics.median(lengths), "min": min(lengths), "max": max(lengths),
                "unfinished": self.unfinished}


def _shares(counts: Counter, n: int) -> dict:
    return {str(k): round(v / n, 4) for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))}


def _mean_interval(values: Counter, n: int) -> dict:
    """The mean of ``n`` values counted in ``values`` and its 95 % interval (normal approximation)."""
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0]}
    mean = sum(v * k for v, k in values.items()) / n
    spread = sum(k * (v - mean) ** 2 for v, k in values.items()) / max(n - 1, 1)
    half = Z95 * math.sqrt(spread / n)
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def contract_made(result: dict) -> bool:
    """Whether the declarers of the deal's contract won its game item (in a game without items,
    which scores in a `score` phase: whether the declarer gained)."""
    items = result.get("items")
    if items:
        return any(item.get("game") and item["side"] == "declarers" for item in items)
    return result["delta"][result["declarer"]] > 0


# ---------------------------------------------------------------------- playing
def play_deal(game, seed: int, tally: Tally, agents: str | None = None) -> None:
    """Play one single-deal match of ``game`` from ``seed`` with the ``agents`` (default random); add it to ``tally``."""
    from rulelang.interpreter.agents import SeededChance
    from rulelang.interpreter.runner import make_agents
    from rulelang.interpreter.state import CHANCE
    state = game.new_initial_state()
    players, chance = make_agents(game, agents, seed), SeededChance(seed)
    asked = []
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            chance.play(state)
            continue
        action = players[actor].step(state)
        asked.append((actor, state.phase.kind, action))
        state.apply_action(action)
    if state.deal_results:
        count_deal(game, state.deal_results[-1], asked, tally)


def count_deal(game, result: dict, asked: list, tally: Tally) -> None:
    """Add one finished deal to ``tally``."""
    seat = game.seat_name
    tally.deals += 1
    for var, value in result["vars"].items():
        tally.vars[var][value] += 1
    for actor, kind, action in asked:
        if kind == "exchange" and action < game.num_cards:
            tally.exchanged[seat(actor)] += 1
        elif construct(kind).tallied:
            tally.decisions[(kind, game.action_to_string(action))][seat(actor)] += 1
    for actor, text in result["decisions"].items():
        if str(text).endswith(" (forced)"):
            tally.decisions[("decide", str(text)[:-9])][seat(actor)] += 1
    _count_scores(game, result["delta"], tally)
    active, tricks = result["active"], result["tricks"]
    if any(active >> s & 1 and tricks[s] == 0 for s in range(game.num_players)):
        tally.no_trick += 1
    _count_contract(result, tally)
    if result.get("contract") is not None:
        from rulelang.interpreter.words import contract_title
        tally.titles[result["contract"]] = contract_title(game, result["contract"])


def _count_scores(game, delta: list, tally: Tally) -> None:
    """Each seat's score change, and its return against the mean return of the table."""
    sign = -1 if game.definition.match.winner == "lowest" else 1
    mean = sum(delta) / len(delta)
    for s, value in enumerate(delta):
        name = game.seat_name(s)
        tally.delta[name] += value
        tally.changes[name][value] += 1
        tally.advantage[name][round(sign * (value - mean), 6)] += 1


def _count_contract(result: dict, tally: Tally) -> None:
    """The contract, whether its declarers made it, and the items scored and announced."""
    contract = result.get("contract")
    if contract is not None:
        tally.contracts[contract] += 1
        if result.get("declarer") is not None and result["declarer"] >= 0:
            tally.declared[contract] += 1
            tally.made[contract] += contract_made(result)
    for name in {item["item"] for item in result.get("items") or ()}:
        tally.items[name] += 1
    for name in {item["item"] for item in result.get("items") or () if item.get("announced")}:
        tally.announced[name] += 1


def play_whole_match(game, seed: int, tally: Tally, agents: str | None = None) -> None:
    """Play one whole match (up to :data:`MATCH_CAP` deals) and note its length."""
    from rulelang.interpreter.runner import make_agents, play_match
    state, _ = play_match(game, agents=make_agents(game, agents, seed), seed=seed)
    ended = state.game.definition.match.end.fn(state, None)
    if state.deal_number >= MATCH_CAP and not ended:
        tally.unfinished += 1
    else:
        tally.lengths.append(state.deal_number)


def simulate(ref: str, deals: int, matches: int, seed: int, progress=None, agents: str = DEFAULT_AGENTS,
             jobs: int = 1, backend: str = "local", address: str | None = None, engine: str = "scalar") -> Tally:
    """Statistics of ``deals`` single deals and ``matches`` whole matches of game ``ref``, played by ``agents``.

    With ``jobs`` > 1 (or ``backend="ray"``) the deals and matches are shared out in chunks
    to other processes (see :mod:`rulelang.cli.backend`); deal ``i`` is always played from
    seed ``seed + i``, so the numbers do not depend on where they were played.
    ``progress(k)`` is told each time ``k`` more deals or matches are done. With ``engine="batch"``
    the single deals are played at random by the batch engine (:mod:`rulelang.batch.tally`; it
    raises BatchUnsupported for a game it cannot run) and the whole matches by the scalar engine.
    """
    from rulelang.cli.backend import run_tasks
    games = _load(ref)
    tally = Tally(games[0].name, [games[0].seat_name(s) for s in range(games[0].num_players)])
    spread = backend != "local" or jobs > 1
    if engine == "batch":
        _simulate_batch(ref, games[0], deals, seed, tally, progress, (jobs, backend, address))
        deals = 0
    chunks = _chunks(deals, matches, max(jobs, 2) if spread else 1)
    if spread:
        results = run_tasks(_chunk_task, [(ref, chunk, seed, agents) for chunk in chunks], jobs, backend, address)
    else:
        results = (play_chunk(games, chunk, seed, agents) for chunk in chunks)
    for chunk, result in zip(chunks, results):
        tally.merge(result)
        if progress:
            progress(chunk[2] - chunk[1])
    return tally


def _simulate_batch(ref: str, game, deals: int, seed: int, tally: Tally, progress, where: tuple) -> None:
    """Add ``deals`` random single deals played by the batch engine to ``tally``, block by block."""
    from rulelang.batch.engine import BatchRun
    from rulelang.batch.tally import blocks
    from rulelang.cli.backend import run_tasks
    BatchRun(game, 1, seed=0)                     # a game the batch engine cannot run fails before any deal
    jobs, backend, address = where
    tasks = [(ref, seed, block, size) for block, size in blocks(deals)]
    if jobs > 1 or backend != "local":
        results = run_tasks(_batch_task, tasks, jobs, backend, address)
    else:
        results = (_batch_task(*task) for task in tasks)
    for (_, _, _, size), result in zip(tasks, results):
        tally.merge(result)
        if progress:
            progress(size)


def _batch_task(ref: str, seed: int, block: int, size: int) -> Tally:
    """One block of batch deals, the game loaded once per process."""
    from rulelang.batch.tally import play_block
    if ref not in _WORKER_GAMES:
        _WORKER_GAMES[ref] = _load(ref)
    return play_block(_WORKER_GAMES[ref][0], seed, block, size)


CHUNK = 250              # at most this many deals (or matches) per chunk of work


def _chunks(deals: int, matches: int, jobs: int) -> list[tuple[str, int, int]]:
    """(kind, first, stop) pieces of the work: about four per process, so that they share out evenly."""
    size = 1 if jobs <= 1 else max(1, min(CHUNK, -(-(deals + matches) // (4 * jobs))))
    return ([("deal", i, min(i + size, deals)) for i in range(0, deals, size)]
            + [("match", i, min(i + size, matches)) for i in range(0, matches, size)])


def _load(ref: str) -> tuple:
    """The one-deal and the whole-match game ``ref``."""
    from rulelang.interpreter import Game
    from rulelang.loader import load_definition
    definition = load_definition(ref)
    return Game(definition, max_deals=1), Game(definition, max_deals=MATCH_CAP)


_WORKER_GAMES: dict = {}


def _chunk_task(ref: str, chunk: tuple[str, int, int], seed: int, agents: str | None) -> Tally:
    """A worker process's chunk, the game loaded once per process."""
    if ref not in _WORKER_GAMES:
        _WORKER_GAMES[ref] = _load(ref)
    return play_chunk(_WORKER_GAMES[ref], chunk, seed, agents)


def play_chunk(games: tuple, chunk: tuple[str, int, int], seed: int, agents: str | None) -> Tally:
    """The tally of one chunk: single deals (or whole matches) ``first`` … ``stop - 1`` of the run."""
    single, whole = games
    kind, first, stop = chunk
    tally = Tally(single.name, [single.seat_name(s) for s in range(single.num_players)])
    for i in range(first, stop):
        if kind == "deal":
            play_deal(single, seed + i, tally, agents)
        else:
            play_whole_match(whole, seed + i, tally, agents)
    return tally


# ---------------------------------------------------------------------- the table
def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _per_seat(values: dict, fmt) -> str:
    return "  ".join(f"{s} {fmt(v)}" for s, v in values.items())


def table_rows(stats: dict) -> list[tuple[str, str, str]]:
    """(section, statistic, value) rows of one game's statistics."""
    rows = [("", "deals played", str(stats["deals"]))]
    for var, shares in stats["vars"].items():
        rows += [("deal variables", f"{var} = {value}", _percent(share)) for value, share in shares.items()]
    for name, seats in stats["decisions"].items():
        rows.append(("decisions (share of deals)", name, _per_seat(seats, _percent)))
    if stats["cards_exchanged"]:
        rows.append(("exchange", "cards exchanged per deal", _per_seat(stats["cards_exchanged"], lambda v: f"{v:.2f}")))
    rows.append(("scores", "mean score change per deal", _per_seat(stats["score_change"], lambda v: f"{v:+.2f}")))
    rows.append(("tricks", "some seat still in takes no trick", _percent(stats["no_trick_share"])))
    rows.append(("scores", "seat advantage (return against the table, 95% interval)",
                 _per_seat(stats["seat_advantage"], _interval)))
    title = stats.get("contract_titles", {}).get
    rows += [("contracts", title(name, name), _percent(share)) for name, share in stats["contracts"].items()]
    rows += [("contracts made by their declarers", title(name, name), _percent(share))
             for name, share in stats["contracts_made"].items()]
    rows += [("items (share of deals)", name, f"scored {_percent(v['scored'])}, announced {_percent(v['announced'])}")
             for name, v in stats["items"].items()]
    rows += _match_rows(stats["match_length"])
    return rows


def _interval(value: dict) -> str:
    low, high = value["ci95"]
    return f"{value['mean']:+.2f} [{low:+.2f}, {high:+.2f}]"


def _match_rows(length: dict) -> list[tuple[str, str, str]]:
    if not length.get("matches"):
        return []
    rows = [("match length (deals)", "whole matches played", str(length["matches"]))]
    if "mean" in length:
        rows += [("match length (deals)", "mean", f"{length['mean']:.2f}"),
                 ("match length (deals)", "median", f"{length['median']:g}"),
                 ("match length (deals)", "shortest – longest", f"{length['min']} – {length['max']}")]
    rows.append(("match length (deals)", f"unfinished after {MATCH_CAP} deals", str(length["unfinished"])))
    return rows


def merged_rows(all_stats: list[dict]) -> list[tuple]:
    """Rows of several games side by side: (section, statistic, value per game); missing values blank."""
    keyed: dict[tuple, list[str]] = {}
    for index, stats in enumerate(all_stats):
        for section, name, value in table_rows(stats):
            keyed.setdefault((section, name), [""] * len(all_stats))[index] = value
    sections = list(dict.fromkeys(section for section, _ in keyed))
    rows = sorted(keyed.items(), key=lambda kv: sections.index(kv[0][0]))       # stable: a section's rows together
    return [(section, name, *values) for (section, name), values in rows]


def print_table(all_stats: list[dict], seed: int, agents: str = "random") -> None:
    """Print the statistics as a rich table, one value column per game; the title names the agents."""
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"rulelang simulate — seed {seed}, agents {agents}", show_lines=False)
    table.add_column("statistic")
    for stats in all_stats:
        table.add_column(stats["game"], overflow="fold")
    section = None
    for row in merged_rows(all_stats):
        if row[0] != section:
            section = row[0]
            if section:
                table.add_section()
                table.add_row(f"[bold]{section}[/bold]", *[""] * len(all_stats))
        table.add_row(f"  {row[1]}" if section else row[1], *row[2:])
    Console().print(table)


# ---------------------------------------------------------------------- the command
def simulate_command(ref: str, deals: int, seed: int | None, as_json: bool, compare: str | None,
                     matches: int | None, agents: str | None = None, jobs: int = 1, backend: str = "local",
                     address: str | None = None, report: str | None = None, engine: str = "scalar") -> int:
    """Run the simulation(s) and print the table or JSON; with ``report``, also write the HTML report there."""
    from rulelang.cli.commands import UsageError, check_jobs
    check_jobs(jobs)
    seed = random.randrange(1_000_000) if seed is None else seed
    if engine == "batch" and agents not in (None, "random"):
        raise UsageError(f"--engine batch plays random players only; leave out --agents {agents} "
                         "or use --engine scalar")
    agents = agents or ("random" if engine == "batch" else DEFAULT_AGENTS)
    if report:
        from rulelang.cli.report import check_report_target
        check_report_target(report)
    matches = min(AUTO_MATCHES, max(1, deals // 10)) if matches is None else matches
    refs = [ref] + ([compare] if compare else [])
    for r in refs[1:]:
        _load(r)                                  # a --compare game that does not load fails before any deal
    where = {"jobs": jobs, "backend": backend, "address": address, "engine": _engine(refs, engine)}
    results = _run_all(refs, deals, matches, seed, show=sys.stdout.isatty() and not as_json, agents=agents,
                       where=where)
    if as_json:
        payload = results[0] if len(results) == 1 else {"games": results}
        output.print_json({"seed": seed, "matches": matches, "agents": agents, "engine": where["engine"],
                           **payload})
    else:
        print_table(results, seed, agents)
    if report:
        from rulelang.cli.report import write_report
        write_report(report, results, {"seed": seed, "matches": matches, "agents": agents})
    return 0


def _engine(refs: list[str], engine: str) -> str:
    """``engine``, or ``scalar`` with a note on stderr when the batch engine cannot run one of the games."""
    if engine != "batch":
        return engine
    try:
        from rulelang.batch.engine import BatchRun
        from rulelang.batch.vectorize import BatchUnsupported
    except ImportError:
        from rulelang.cli.commands import UsageError
        raise UsageError("--engine batch needs numpy 2: pip install 'rulelang[batch]'") from None
    for ref in refs:
        try:
            BatchRun(_load(ref)[0], 1, seed=0)
        except BatchUnsupported as why:
            print(f"rulelang: the batch engine cannot run {ref} yet: {why}; the scalar engine plays its deals",
                  file=sys.stderr)
            return "scalar"
    return "batch"


def _run_all(refs: list[str], deals: int, matches: int, seed: int, show: bool, agents: str | None,
             where: dict) -> list[dict]:
    if not show:
        return [simulate(r, deals, matches, seed, agents=agents, **where).to_json() for r in refs]
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    results = []
    with Progress(*columns, transient=True) as bar:
        for r in refs:
            task = bar.add_task(f"simulating {r}", total=deals + matches)
            results.append(simulate(r, deals, matches, seed, lambda k, t=task: bar.advance(t, k), agents,
                                    **where).to_json())
    return results
