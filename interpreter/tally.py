"""Counts over many deals of one game, as ``rulelang simulate`` reports them: a :class:`Tally` is filled
deal by deal (by the scalar engine's ``simulate`` or from a batch run), merged across processes and
written out as shares and means with their 95 % intervals."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field

MATCH_CAP = 500          # deals after which a random match counts as unfinished
Z95 = 1.959964


@dataclass
class Tally:
    """Counts over many single deals and whole matches of one game."""

    game: str
    seats: list[str]
    deals: int = 0
    vars: dict = field(default_factory=lambda: defaultdict(Counter))
    decisions: dict = field(default_factory=lambda: defaultdict(Counter))
    asked: dict = field(default_factory=lambda: defaultdict(Counter))     # phase kind -> seat -> deals it decided in
    exchanged: Counter = field(default_factory=Counter)
    delta: Counter = field(default_factory=Counter)
    no_trick: int = 0
    contracts: Counter = field(default_factory=Counter)
    made: Counter = field(default_factory=Counter)
    declared: Counter = field(default_factory=Counter)
    titles: dict = field(default_factory=dict)
    words: dict = field(default_factory=dict)        # "kind word" of a decision -> what the table sees said
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
            "undecided": {kind: {s: round(1 - counts[s] / n, 4) for s in self.seats}
                          for kind, counts in sorted(self.asked.items())},
            "cards_exchanged": {s: round(self.exchanged[s] / n, 4) for s in self.seats} if self.exchanged else {},
            "score_change": {s: round(self.delta[s] / n, 4) for s in self.seats},
            "no_trick_share": round(self.no_trick / n, 4),
            "contracts": _shares(self.contracts, n),
            "contracts_made": {str(c): round(self.made[c] / k, 4) for c, k in sorted(self.declared.items(), key=str)},
            "contract_titles": dict(sorted(self.titles.items())),
            "decision_words": dict(sorted(self.words.items())),
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
                             (self.asked, other.asked),
                             (self.changes, other.changes), (self.advantage, other.advantage)):
            for key, counts in theirs.items():
                mine[key].update(counts)
        for mine, theirs in ((self.exchanged, other.exchanged), (self.delta, other.delta),
                             (self.contracts, other.contracts), (self.made, other.made),
                             (self.declared, other.declared), (self.items, other.items),
                             (self.announced, other.announced)):
            mine.update(theirs)
        self.titles.update(other.titles)
        for key, said in other.words.items():
            self.words.setdefault(key, said)
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


def contract_made(result: dict, lowest_wins: bool = False) -> bool:
    """Whether the declarers of the deal's contract won its game item (in a game without items,
    which scores in a `score` phase: whether the deal moved the declarer toward winning the match —
    a gain where the highest score wins, a loss where the lowest does)."""
    items = result.get("items")
    if items:
        return any(item.get("game") and item["side"] == "declarers" for item in items)
    delta = result["delta"][result["declarer"]]
    return delta < 0 if lowest_wins else delta > 0
