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

import random
import sys

from rulelang.cli import output
from rulelang.cli.progress import progress
from rulelang.cli.stats_table import merged_rows
from rulelang.constructs import construct
from rulelang.interpreter.tally import MATCH_CAP, Tally, contract_made

AUTO_MATCHES = 100       # at most this many whole matches unless --matches says otherwise
DEFAULT_AGENTS = "heuristic"


# ---------------------------------------------------------------------- playing
def play_deal(game, seed: int, tally: Tally, agents: str | None = None) -> None:
    """Play one single-deal match of ``game`` from ``seed`` with the ``agents`` (default random); add it to ``tally``."""
    from rulelang.interpreter.agents import SeededChance
    from rulelang.interpreter.runner import make_agents
    from rulelang.interpreter.state import CHANCE
    state = game.new_initial_state()
    players, chance = make_agents(game, agents, seed), SeededChance(seed)
    asked, heard = [], _HEARD.setdefault(id(game.definition), set())
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            chance.play(state)
            continue
        action = players[actor].step(state)
        asked.append((actor, state.phase.kind, action))
        if (state.phase_index, action) not in heard:
            heard.add((state.phase_index, action))
            _learn_words(state, actor, action, tally)
        state.apply_action(action)
    if state.deal_results:
        count_deal(game, state.deal_results[-1], asked, tally)


_HEARD: dict[int, set] = {}
"""Per game definition, the (phase, action) pairs whose words this run (or this worker's chunk) knows: each is
looked up once, in the first deal that makes it, and kept in that deal's tally (a run's tallies are merged)."""


def _learn_words(state, actor: int, action: int, tally: Tally) -> None:
    """Keep, once per decision, what the table sees said (``bids Call (normal game)``, ``passes (weiter)``)."""
    if state.phase is None or not construct(state.phase.kind).tallied:
        return
    kind = state.phase.kind
    key = f"{kind} {state.game.action_to_string(action)}"
    if key not in tally.words:
        from rulelang.interpreter.words import action_words
        tally.words[key] = action_words(state, actor, action) or key


def count_deal(game, result: dict, asked: list, tally: Tally) -> None:
    """Add one finished deal to ``tally``."""
    seat = game.seat_name
    tally.deals += 1
    for var, value in result["vars"].items():
        tally.vars[var][value] += 1
    deciders = set()
    for actor, kind, action in asked:
        if kind == "exchange" and action < game.num_cards:
            tally.exchanged[seat(actor)] += 1
        elif construct(kind).tallied:
            tally.decisions[(kind, game.action_to_string(action))][seat(actor)] += 1
            deciders.add((kind, seat(actor)))
    for actor, text in result["decisions"].items():
        if str(text).endswith(" (forced)"):
            tally.decisions[("decide", str(text)[:-9])][seat(actor)] += 1
            deciders.add(("decide", seat(actor)))
    for kind, name in deciders:
        tally.asked[kind][name] += 1
    _count_scores(game, result["delta"], tally)
    active, tricks = result["active"], result["tricks"]
    if any(active >> s & 1 and tricks[s] == 0 for s in range(game.num_players)):
        tally.no_trick += 1
    _count_contract(result, tally, game.definition.match.winner == "lowest")
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


def _count_contract(result: dict, tally: Tally, lowest_wins: bool) -> None:
    """The contract, whether its declarers made it, and the items scored and announced."""
    contract = result.get("contract")
    if contract is not None:
        tally.contracts[contract] += 1
        if result.get("declarer") is not None and result["declarer"] >= 0:
            tally.declared[contract] += 1
            tally.made[contract] += contract_made(result, lowest_wins)
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
    _HEARD.clear()                      # this run's tallies learn the words of its decisions afresh
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
    """(kind, first, stop) pieces of the work: about four per process, so that they share out evenly. The whole
    matches come first and in pieces of their own, four per process at least: a match is many deals, and one
    piece of a hundred matches left to the end kept one process busy while the others waited."""
    if jobs <= 1:
        return [("deal", i, i + 1) for i in range(deals)] + [("match", i, i + 1) for i in range(matches)]
    size = max(1, min(CHUNK, -(-(deals + matches) // (4 * jobs))))
    match_size = max(1, min(size, -(-matches // (4 * jobs))))
    return ([("match", i, min(i + match_size, matches)) for i in range(0, matches, match_size)]
            + [("deal", i, min(i + size, deals)) for i in range(0, deals, size)])


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
    _HEARD.clear()                      # a worker may serve several runs: each chunk's tally learns the words
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
    from rulelang.cli.args import UsageError, check_jobs
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
    results = _run_all(refs, deals, matches, seed, show=True, agents=agents,
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
        from rulelang.cli.args import UsageError
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
    """Each game's statistics; with ``show``, its progress on standard error (:mod:`rulelang.cli.progress`)."""
    results = []
    for r in refs:
        with progress(f"simulating {r}", deals + matches if show else 0) as advance:
            results.append(simulate(r, deals, matches, seed, advance if show else None, agents, **where).to_json())
    return results
