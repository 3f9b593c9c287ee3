"""``rulelang arena GAME --agents A,B[,…] --deals N``: agents compared on duplicate deals.

Every deal is dealt from its own seed and played once per rotation of the agents over the
seats (seat ``s`` of rotation ``r`` is played by agent ``(s + r) mod k``), so no agent
profits from a lucky hand or seat. An agent's result for a deal is the mean of the
returns (OpenSpiel's ``returns()``: higher is better) of the seats it played in it, over
all rotations; its mean over deals comes with a 95 % confidence interval (normal
approximation over the independent deals). Also reported: the moves it made and the time
per move, and each contract it declared with how often the declaring side won the game.
With ``--matches M`` it also plays M duplicate whole matches the same way — deal *k* of match
*m* dealt from the same seed in every rotation, however the play before it went — and
reports each agent's mean return per match with its interval and its share of the matches
won (a shared first place shared). Where a decision before the cards are dealt changes how
they are dealt (a choice between cutting and knocking, say), rotations that decide
differently get different hands: duplicate play can only be as exact as the rules allow. Deals are shared out over ``--jobs`` processes and put
back in order, so the numbers are the same for the same seed whatever the number of jobs.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter, defaultdict

from rulelang.cli import output

Z95 = 1.959964


MATCH_CAP = 500          # deals after which a match of the arena is stopped and scored as it stands


def play_duplicate(ref: str, specs: list[str], deal: int, seed: int, whole_match: bool = False) -> dict:
    """One deal (or with ``whole_match`` one match) played in every rotation: per agent its mean return,
    moves, seconds and contracts; for a match also its share of the wins."""
    from rulelang.interpreter.agents import make_agent
    from rulelang.loader import load_game
    game = _game(ref, load_game, whole_match)
    n, k = game.num_players, len(specs)
    returns, wins, moves, seconds = defaultdict(list), Counter(), Counter(), Counter()
    contracts = []
    for rotation in range(n):
        seats = [(s + rotation) % k for s in range(n)]
        agents = [make_agent(specs[a], (seed + deal) * 1009 + s + 1) for s, a in enumerate(seats)]
        state = _play(game, agents, seats, _DealChance(seed + deal, whole_match), moves, seconds, contracts)
        final = state.returns()
        best = [s for s, value in enumerate(final) if value == max(final)]
        for s, value in enumerate(final):
            returns[seats[s]].append(value)
            wins[seats[s]] += (s in best) / len(best) / n
    result = {"returns": {a: statistics.fmean(v) for a, v in returns.items()}, "moves": dict(moves),
              "seconds": dict(seconds), "contracts": contracts}
    if whole_match:
        result["wins"] = {a: wins[a] for a in returns}
    return result


def _play(game, agents: list, seats: list[int], chance, moves: Counter, seconds: Counter, contracts: list):
    """Play one deal or match to its end, counting each agent's moves and time and the contracts declared."""
    from rulelang.interpreter.state import CHANCE
    state, deals_seen = game.new_initial_state(), 0
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
        if len(state.deal_results) > deals_seen:
            contracts.extend(_declared(state, seats))
            deals_seen = len(state.deal_results)
    return state


class _DealChance:
    """Chance for duplicate play. For one deal: every event from one generator seeded by the deal. For a
    match: each burst of chance events of deal *k* from its own seed, so that every rotation gets the same
    deals however the play before them went."""

    def __init__(self, seed: int, per_deal: bool):
        self.seed, self.per_deal, self.rng = seed, per_deal, random.Random(seed)
        self.deal, self.burst = -1, 0

    def play(self, state) -> None:
        """Draw and apply every pending chance event at once."""
        if self.per_deal:
            if state.deal_number != self.deal:
                self.deal, self.burst = state.deal_number, 0
            self.burst += 1
            self.rng = random.Random(f"{self.seed}/{self.deal}/{self.burst}")
        state.apply_chance(self.rng)


_GAMES: dict = {}


def _game(ref: str, load_game, whole_match: bool = False):
    """The one-deal game ``ref`` (or the whole-match game, stopped after :data:`MATCH_CAP` deals),
    loaded once per process."""
    key = (ref, whole_match)
    if key not in _GAMES:
        _GAMES[key] = load_game(ref, max_deals=MATCH_CAP if whole_match else 1)
    return _GAMES[key]


def _declared(state, seats: list[int]) -> list[tuple[int, str, bool]]:
    """(agent, contract, made) for the deal's contract, if any: made when the declarers won the game item
    (in a game without items, which scores in a `score` phase: when the deal moved the declarer toward
    winning the match)."""
    if not state.deal_results:
        return []
    result = state.deal_results[-1]
    if result.get("contract") is None or result.get("declarer") is None or result["declarer"] < 0:
        return []
    from rulelang.interpreter.tally import contract_made
    return [(seats[result["declarer"]], result["contract"], contract_made(result, state.game.definition.match.winner == "lowest"))]


def arena(ref: str, specs: list[str], deals: int, seed: int, jobs: int = 1, backend: str = "local",
          address: str | None = None, matches: int = 0) -> dict:
    """The comparison of ``specs`` on ``deals`` duplicate deals (and ``matches`` duplicate whole matches)
    from ``seed``, as JSON-ready data.

    With ``jobs`` > 1 or ``backend="ray"`` the deals are played elsewhere (:mod:`rulelang.cli.backend`);
    each deal keeps its seed, so the returns are the same wherever they were played.
    """
    from rulelang.cli.backend import run_tasks
    from rulelang.cli.progress import progress
    tasks = [(ref, specs, first, min(first + DEALS_PER_TASK, deals), seed, False)
             for first in range(0, deals, DEALS_PER_TASK)]
    tasks += [(ref, specs, m, m + 1, seed + deals, True) for m in range(matches)]
    chunks = []
    with progress(f"arena {ref}", deals + matches) as advance:   # a whole match counts as one
        for task, chunk in zip(tasks, run_tasks(_play_task, tasks, jobs, backend, address)):
            chunks.append(chunk)
            advance(task[3] - task[2])
    played = [one for task, chunk in zip(tasks, chunks) if not task[-1] for one in chunk]
    result = summarize(ref, specs, played)
    if matches:
        whole = [one for task, chunk in zip(tasks, chunks) if task[-1] for one in chunk]
        result["matches"] = len(whole)
        for index, agent in enumerate(result["agents"]):
            agent["per_match"] = _per_match(whole, index)
    return result


DEALS_PER_TASK = 4


def _play_task(ref: str, specs: list[str], first: int, stop: int, seed: int, whole_match: bool) -> list[dict]:
    return [play_duplicate(ref, specs, deal, seed, whole_match) for deal in range(first, stop)]


def _mean_interval(values: list[float]) -> tuple[float, list[float]]:
    """The mean and its 95 % interval (normal approximation; unbounded with fewer than two values)."""
    mean = statistics.fmean(values) if values else 0.0
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return round(mean, 4), [round(mean - half, 4), round(mean + half, 4)]


def _per_match(whole: list[dict], index: int) -> dict:
    """An agent's mean return per match with its interval, and its share of the matches won."""
    mean, interval = _mean_interval([match["returns"][index] for match in whole if index in match["returns"]])
    wins = sum(match["wins"].get(index, 0.0) for match in whole)
    return {"mean": mean, "ci95": interval, "wins": round(wins / max(len(whole), 1), 4)}


def summarize(ref: str, specs: list[str], played: list[dict]) -> dict:
    """Per agent: mean return per deal with its 95 % interval, moves, ms per move, contracts declared and made."""
    agents = []
    for index, spec in enumerate(specs):
        mean, interval = _mean_interval([deal["returns"][index] for deal in played if index in deal["returns"]])
        moves = sum(deal["moves"].get(index, 0) for deal in played)
        seconds = sum(deal["seconds"].get(index, 0.0) for deal in played)
        agents.append({"name": spec, "mean": mean, "ci95": interval,
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
                  backend: str = "local", address: str | None = None, matches: int = 0) -> int:
    """Check the agents, play the duplicate deals (and matches) and print the comparison."""
    import random
    from rulelang.cli.args import UsageError, check_jobs
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
    result = arena(ref, specs, deals, seed, jobs, backend, address, matches)
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
        if "per_match" in agent:
            match = agent["per_match"]
            low, high = match["ci95"]
            lines.append(f"      per match ({result['matches']} duplicate matches): {match['mean']:+.3f}   "
                         f"[{low:+.3f}, {high:+.3f}], won {100 * match['wins']:.1f}%")
    return lines
