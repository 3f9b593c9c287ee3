"""``rulelang arena GAME --agents A,B[,…] --deals N``: agents compared on duplicate deals.

Every deal is dealt from its own seed and played once per rotation of the agents over the
seats (seat ``s`` of rotation ``r`` is played by agent ``(s + r) mod k``), so no agent
profits from a lucky hand or seat. An agent's result for a deal is the mean of the
returns (OpenSpiel's ``returns()``: higher is better) of the seats it played in it, over
all rotations; its mean over deals comes with a 95 % confidence interval (normal
approximation over the independent deals). Also reported: the moves it made and the time
per move, and each contract it declared with how often the declaring side won the game.
Deals are shared out over ``--jobs`` processes and put back in order, so the numbers are
the same for the same seed whatever the number of jobs.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter, defaultdict

from rulelang.cli import output

Z95 = 1.959964


def play_duplicate(ref: str, specs: list[str], deal: int, seed: int) -> dict:
    """One deal played in every rotation: per agent its mean return, moves, seconds and contracts."""
    from rulelang.interpreter.agents import SeededChance, make_agent
    from rulelang.interpreter.state import CHANCE
    from rulelang.loader import load_game
    game = _game(ref, load_game)
    n, k = game.num_players, len(specs)
    returns, moves, seconds = defaultdict(list), Counter(), Counter()
    contracts = []
    for rotation in range(n):
        seats = [(s + rotation) % k for s in range(n)]
        agents = [make_agent(specs[a], (seed + deal) * 1009 + s + 1) for s, a in enumerate(seats)]
        state, chance = game.new_initial_state(), SeededChance(seed + deal)
        while not state.is_terminal():
            actor = state.current_player()
            if actor == CHANCE:
                chance.play(state)
                continue
            started = time.perf_counter()
            action = agents[actor].step(state)
            seconds[seats[actor]] += time.perf_counter() - started
            moves[seats[actor]] += 1
            state.apply_action(action)
        for s, value in enumerate(state.returns()):
            returns[seats[s]].append(value)
        contracts.extend(_declared(state, seats))
    return {"returns": {a: statistics.fmean(v) for a, v in returns.items()}, "moves": dict(moves),
            "seconds": dict(seconds), "contracts": contracts}


_GAMES: dict = {}


def _game(ref: str, load_game):
    """The one-deal game ``ref``, loaded once per process."""
    if ref not in _GAMES:
        _GAMES[ref] = load_game(ref, max_deals=1)
    return _GAMES[ref]


def _declared(state, seats: list[int]) -> list[tuple[int, str, bool]]:
    """(agent, contract, made) for the deal's contract, if any: made when the declarers won the game item
    (in a game without items, which scores in a `score` phase: when the declarer gained)."""
    if not state.deal_results:
        return []
    result = state.deal_results[-1]
    if result.get("contract") is None or result.get("declarer") is None or result["declarer"] < 0:
        return []
    from rulelang.cli.simulate import contract_made
    return [(seats[result["declarer"]], result["contract"], contract_made(result))]


def arena(ref: str, specs: list[str], deals: int, seed: int, jobs: int = 1, backend: str = "local",
          address: str | None = None) -> dict:
    """The comparison of ``specs`` on ``deals`` duplicate deals from ``seed``, as JSON-ready data.

    With ``jobs`` > 1 or ``backend="ray"`` the deals are played elsewhere (:mod:`rulelang.cli.backend`);
    each deal keeps its seed, so the returns are the same wherever they were played.
    """
    from rulelang.cli.backend import run_tasks
    tasks = [(ref, specs, first, min(first + DEALS_PER_TASK, deals), seed) for first in range(0, deals, DEALS_PER_TASK)]
    played = [deal for chunk in run_tasks(_play_task, tasks, jobs, backend, address) for deal in chunk]
    return summarize(ref, specs, played)


DEALS_PER_TASK = 4


def _play_task(ref: str, specs: list[str], first: int, stop: int, seed: int) -> list[dict]:
    return [play_duplicate(ref, specs, deal, seed) for deal in range(first, stop)]


def summarize(ref: str, specs: list[str], played: list[dict]) -> dict:
    """Per agent: mean return per deal with its 95 % interval, moves, ms per move, contracts declared and made."""
    agents = []
    for index, spec in enumerate(specs):
        values = [deal["returns"][index] for deal in played if index in deal["returns"]]
        mean = statistics.fmean(values) if values else 0.0
        half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
        moves = sum(deal["moves"].get(index, 0) for deal in played)
        seconds = sum(deal["seconds"].get(index, 0.0) for deal in played)
        agents.append({"name": spec, "mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
                       "moves": moves, "ms_per_move": round(1000 * seconds / moves, 3) if moves else 0.0,
                       "contracts": _contract_counts(played, index)})
    return {"game": ref, "deals": len(played), "agents": agents}


def _contract_counts(played: list[dict], index: int) -> dict:
    declared, made = Counter(), Counter()
    for deal in played:
        for agent, contract, won in deal["contracts"]:
            if agent == index:
                declared[contract] += 1
                made[contract] += won
    return {name: {"declared": count, "made": made[name]} for name, count in sorted(declared.items())}


def arena_command(ref: str, agents: str, deals: int, seed: int | None, jobs: int, as_json: bool,
                  backend: str = "local", address: str | None = None) -> int:
    """Check the agents, play the duplicate deals and print the comparison."""
    import random
    from rulelang.cli.commands import UsageError, check_jobs
    from rulelang.interpreter.agents import make_agent
    from rulelang.loader import load_game
    specs = [s.strip() for s in agents.split(",") if s.strip()]
    check_jobs(jobs)
    if len(specs) < 2:
        raise UsageError("--agents names the agents to compare: at least two, e.g. heuristic,random")
    for spec in specs:
        make_agent(spec)
    _game(ref, load_game)
    seed = random.randrange(1_000_000) if seed is None else seed
    result = arena(ref, specs, deals, seed, jobs, backend, address)
    if as_json:
        output.print_json({"seed": seed, **result})
    else:
        output.print_lines(arena_lines(result, seed))
    return 0


def arena_lines(result: dict, seed: int) -> list[str]:
    """The comparison as text: one line per agent, then the contracts each declared."""
    lines = [f"{result['game']}: {result['deals']} duplicate deals from seed {seed}; mean return per deal "
             "(higher is better) with its 95 % interval"]
    for agent in result["agents"]:
        low, high = agent["ci95"]
        lines.append(f"  {agent['name']:24} {agent['mean']:+10.3f}   [{low:+.3f}, {high:+.3f}]   "
                     f"{agent['moves']} moves, {agent['ms_per_move']:.2f} ms per move")
        for name, count in agent["contracts"].items():
            lines.append(f"      declared {name}: {count['declared']} times, made {count['made']}")
    return lines
