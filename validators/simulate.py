"""What only running shows: seeded random deals, checked as they are played.

:func:`simulate` plays single deals of a compiled game with random legal actions (a
fresh seeded generator per deal) and reports, located at the rule involved:

E550 a player to act with no legal action, E551 a deal that does not end within a bound
of actions, E552 a settlement that does not sum to zero (a game with a ``settle`` phase
is zero-sum: what one side wins the other pays), E553 a rule whose evaluation fails
(e.g. a division by zero), with the span the engine's error carries. A few whole matches
are played too (:func:`simulate_matches`): W615 when none of them ends within
:data:`MATCH_DEALS` deals.

Each problem is reported once, with a note saying in how many deals it happened and the
first seed that shows it, so ``rulelang run GAME --seed N`` can replay it.
"""

from __future__ import annotations

import random

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.exprcompile import EvalError
from rulelang.compile.values import NoLegalAction, failed_rule
from rulelang.compile.ir import GameDef
from rulelang.constructs import construct

MAX_ACTIONS = 5000
MATCH_DEALS = 500
MATCHES = 3
CHECKED = ("every seat to act has a legal move", f"every deal ends within {MAX_ACTIONS} actions",
           "settlements sum to zero", "every rule can be worked out", f"a match ends within {MATCH_DEALS} deals")


def simulate(definition: GameDef, deals: int, seed: int = 0, bound: int = MAX_ACTIONS,
             agents: str | None = None, tally: dict | None = None) -> list[Diagnostic]:
    """Play ``deals`` deals (seeds ``seed``, ``seed + 1``, …; random moves unless ``agents`` says who plays);
    one diagnostic per problem found. ``tally``, when given, receives per contract ``[deals it was played in,
    deals its declarers won the game]``."""
    from rulelang.interpreter.game import Game
    game = Game(definition, max_deals=1)
    found: dict[tuple, tuple[Diagnostic, list[int]]] = {}
    for number in range(seed, seed + deals):
        problem = play_deal(game, number, bound, agents, tally)
        if problem is not None:
            key = (problem.code, problem.span)
            found.setdefault(key, (problem, []))[1].append(number)
    problems = [_counted(problem, seeds, deals) for problem, seeds in found.values()]
    if not problems:
        problems.extend(simulate_matches(definition, min(deals, MATCHES), seed, agents=agents))
    return problems


def simulate_matches(definition: GameDef, matches: int, seed: int = 0, deals: int = MATCH_DEALS,
                     agents: str | None = None) -> list[Diagnostic]:
    """W615 if none of ``matches`` matches (random, or played by ``agents``) ends by its rules within ``deals``."""
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.runner import make_agents, play_match
    game = Game(definition, max_deals=deals)
    tied = 0
    for number in range(seed, seed + matches):
        state, _ = play_match(game, agents=make_agents(game, agents, number), seed=number)
        if state.match_ended:
            return []
        tied += state.tied_ends
    end = definition.match.end
    why = "its leaders were tied whenever `end` held, and a tie plays on" if tied else f"`end: {end.text}` never held"
    return [Diagnostic("W615", f"none of {matches} random matches ended within {deals} deals: {why}", end.span,
                       "check that the scores can reach the `end` condition; at run time a match is stopped "
                       "after 10000 deals", severity=WARNING)]


def _counted(problem: Diagnostic, seeds: list[int], deals: int) -> Diagnostic:
    times = "in every one" if len(seeds) == deals else f"in {len(seeds)}"
    problem.notes.append((f"this happened {times} of {deals} random deals, first with seed {seeds[0]}", None))
    return problem


def play_deal(game, seed: int, bound: int = MAX_ACTIONS, agents: str | None = None,
              tally: dict | None = None) -> Diagnostic | None:
    """Play one deal from ``seed`` (random moves, or the ``agents`` spec's players); its first problem, or None.
    A finished deal's contract is counted in ``tally`` (see :func:`simulate`)."""
    from rulelang.interpreter.runner import make_agents
    rng = random.Random(seed)
    players = make_agents(game, agents, seed) if agents else None
    try:
        state = game.new_initial_state()
        for _ in range(bound):
            if state.is_terminal():
                _count_contract(state, tally)
                return zero_sum(state)
            legal = state.legal_actions()
            if not legal:
                return _no_action(state)
            actor = state.current_player()
            state.apply_action(rng.choice(legal) if players is None or actor < 0 else players[actor].step(state))
    except NoLegalAction as exc:
        return failed_rule(exc)
    except EvalError as exc:
        return Diagnostic("E553", f"a rule failed while a deal was played: {exc}", exc.span,
                          "make sure the expression has a value in every situation a deal can reach")
    if state.is_terminal():
        return zero_sum(state)
    return _too_long(state, bound)


def _count_contract(state, tally: dict | None) -> None:
    """Count the deal's contract, and whether its declarers won the game item, in ``tally``."""
    record = state.deal_results[-1] if tally is not None and state.deal_results else {}
    contract = record.get("contract")
    if contract:
        won = any(item.get("game") and item.get("side") == "declarers" for item in record.get("items") or [])
        counts = tally.setdefault(str(contract), [0, 0])
        counts[0] += 1
        counts[1] += int(won)


def _phase_words(state) -> str:
    phase = state.phase
    return f"phase {state.phase_index + 1} ({phase.kind})" if phase is not None else "between deals"


def _no_action(state) -> Diagnostic:
    who = state.game.seat_name(state.current_player()) if state.current_player() >= 0 else "chance"
    return Diagnostic("E550", f"{who} is to act in {_phase_words(state)} but has no legal action",
                      getattr(state.phase, "span", None),
                      "check what the seat holds at this point: earlier phases may have left its hand empty")


def _too_long(state, bound: int) -> Diagnostic:
    throw_ins = [p for p in state.game.definition.phases if construct(p.kind).may_redeal(p)]
    if state.redeals and throw_ins:
        return Diagnostic("E551", f"a deal did not end within {bound} actions: it was thrown in and dealt again "
                          f"{state.redeals} times", throw_ins[0].span,
                          "a throw-in condition that holds for most hands redeals almost every time")
    return Diagnostic("E551", f"a deal did not end within {bound} actions; it was still in {_phase_words(state)}",
                      getattr(state.phase, "span", None), "rounds that never end keep a deal going")


def zero_sum(state) -> Diagnostic | None:
    """E552 if the game settles between sides (``declarers_share``) and this deal's scores do not sum to zero;
    a settlement declared not zero-sum (``declarers_score``) is not checked."""
    definition = state.game.definition
    settles = [p for p in definition.phases if getattr(p, "kind", None) == "settle"]
    if any(p.pattern == "declarers_score" for p in settles):
        return None
    if not settles:
        return None
    deltas = [score - definition.match.start for score in state.scores]
    if sum(deltas) == 0:
        return None
    shown = ", ".join(f"{state.game.seat_name(s)} {d:+d}" for s, d in enumerate(deltas))
    return Diagnostic("E552", f"the deal does not sum to zero: {shown} (total {sum(deltas):+d})", settles[0].span,
                      "in a game settled between sides, what one side wins the other must pay; look for `score` "
                      "phases or payments that do not balance")
