"""Graph checks with networkx: the flow of phases and the bidding ladder.

The flow graph has a node per phase plus ``start`` (a fresh deal), ``end`` (the deal is
scored) and ``over`` (the match ends). Edges go to the next phase; a phase with a
``when`` that may fail also lets the flow skip it; a phase whose construct ``redeals``
(a throw-in) leads back to ``start``; one that ``repeats`` (an auction's rounds of bids)
loops on itself; ``end`` leads to ``start`` (the next deal) and, unless the match can
never end, to ``over``. A phase its construct calls ``blocked`` (a throw-in that must
always redeal, a decision whose every option is always forbidden) has no edge onwards.

G401 a phase no deal can reach, G402 a phase no deal gets past, G403 a match that can
never end, G410 contracts the ladder cannot order. (G420, auction words that collide, is
the auction construct's own check.)
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

import networkx as nx

from rulelang.constructs import construct
from rulelang.diagnostics import Diagnostic
from rulelang.read.document import Document
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import check
from rulelang.validators.probe import is_constant

START, END, OVER = "start", "end", "over"


def runs(phase) -> bool:
    """False if the phase's ``when`` never holds."""
    return not is_constant(phase.when, False)


def may_skip(phase) -> bool:
    """True if the phase's ``when`` may fail, so the deal can go on without it."""
    return phase.when is not None and not is_constant(phase.when, True)


def blocked(game: GameDef, phase) -> str | None:
    """Why the deal can never get past ``phase``, or None if it can."""
    return construct(phase.kind).blocked(phase)


def flow_graph(game: GameDef) -> nx.DiGraph:
    """The flow of one deal and of the match, as described in the module docs."""
    graph = nx.DiGraph()
    graph.add_nodes_from([START, END, OVER])
    frontier = {START}
    for i, phase in enumerate(game.phases):
        graph.add_node(i)
        if not runs(phase):
            continue
        graph.add_edges_from((u, i) for u in frontier)
        found = construct(phase.kind)
        if found.may_redeal(phase):
            graph.add_edge(i, START)
        if found.repeats:
            graph.add_edge(i, i)
        frontier = (set(frontier) if may_skip(phase) else set()) | ({i} if blocked(game, phase) is None else set())
    graph.add_edges_from((u, END) for u in frontier)
    if not is_constant(game.match.end, True):
        graph.add_edge(END, START)
    if not is_constant(game.match.end, False):
        graph.add_edge(END, OVER)
    return graph


@check("phase_flow")
def phase_flow(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Every phase is reachable, every reachable phase can be got past, and the match can end."""
    graph = flow_graph(game)
    reachable = nx.descendants(graph, START)
    blockers = [(i, why) for i, p in enumerate(game.phases) if runs(p) and (why := blocked(game, p))]
    for i, why in blockers:
        if i in reachable:
            yield Diagnostic("G402", f"no deal gets past this phase: {why}", doc.span_of(("phases", i)),
                             "change the condition so that some deals go on",
                             notes=_blocker_notes(doc, game.phases[i]))
    notes = [("the deal cannot get past this phase", doc.span_of(("phases", i))) for i, _ in blockers]
    for i, phase in enumerate(game.phases):
        if runs(phase) and i not in reachable:
            yield Diagnostic("G401", f"no deal ever reaches phase {i + 1} ({phase.kind})", doc.span_of(("phases", i)),
                             "remove it, or fix the phase that stops every deal before it", notes=notes)
    if is_constant(game.match.end, False):
        yield Diagnostic("G403", "the match can never end: its `end` condition never holds",
                         doc.span_of(("match", "end")), "write a condition that some scores meet, e.g. "
                         "`max(score) >= 20`")


def _blocker_notes(doc: Document, phase) -> list:
    """Where a blocking phase sends the deal (a redeal) or which rules block it (the forbids)."""
    return construct(phase.kind).blocker_notes(doc, phase)


@check("ladder_order")
def ladder_order(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Every two contracts must be ordered by rank, so one can outbid the other (G410) — unless every
    auction is a single round (``once``), where of two equal bids the earlier stands."""
    auctions = [phase for phase in game.phases if getattr(phase, "kind", None) == "auction"]
    if auctions and all(phase.once for phase in auctions):
        return
    ladder = nx.DiGraph()
    ladder.add_nodes_from(game.contracts)
    for low, high in combinations(game.contracts.values(), 2):
        if low.rank != high.rank:
            ladder.add_edge(*((low.name, high.name) if low.rank < high.rank else (high.name, low.name)))
    closure = nx.transitive_closure_dag(ladder)
    for first, second in combinations(game.contracts, 2):
        if not closure.has_edge(first, second) and not closure.has_edge(second, first):
            rank = game.contracts[first].rank
            yield Diagnostic("G410", f"the contracts '{first}' and '{second}' both have rank {rank}, so neither can "
                             "outbid the other", doc.span_of(("contracts", second, "rank")),
                             "give every contract its own rank; higher ranks outbid lower ones",
                             notes=[(f"'{first}' has rank {rank} here", doc.span_of(("contracts", first, "rank")))])
