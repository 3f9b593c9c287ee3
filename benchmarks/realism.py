"""How real the players' bidding looks: shares of contracts, passes and doublings beside published statistics.

    python benchmarks/realism.py --deals 1000 --jobs 2 [--agents heuristic] [--games skat-tournament,schafkopf]

Each game plays ``--deals`` single deals (deal i from seed i) with the same agent at every seat, and prints the
figures issue 42 asks for (item 2) with 95 % intervals, the target and what real tables do, as a Markdown
table for benchmarks/RESULTS.md; ``--all`` prints every contract, choice and word too. The published figures
and their sources are in ``PUBLISHED`` below.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool

from rulelang.interpreter.runner import make_agents
from rulelang.loader import load_game

PASS_WORDS = {"pass", "passe", "weiter", "gesund", "done"}
DOUBLINGS = ("kontra", "retour", "re_", "supra", "resupra", "subkontra")


def play(task: tuple[str, int, str]) -> dict:
    """One deal of ``game`` from ``seed`` by ``agents``: who declared, the contract, the named choices, the words
    said (seat, word), every seat's result and whether the declarer's side came out ahead."""
    ref, seed, agents = task
    game = load_game(ref, max_deals=1)
    players = make_agents(game, agents, seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    words: list[tuple[int, str]] = []
    moves = 0
    started = time.perf_counter()
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        action = players[actor].step(state)
        if action >= game.num_cards:
            words.append((actor, state.action_to_string(action)))
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    declarer = state.declarer
    names = {name: state.vars.get(name) for name, kind in game.definition.deal_vars.items() if kind == "name"}
    side = state.side_mask
    return {"declarer": declarer, "contract": state.contract, "names": names, "words": words, "returns": returns,
            "won": None if declarer < 0 else returns[declarer] > 0, "side": side,
            "seconds": time.perf_counter() - started, "moves": moves}


def share(hits: int, total: int) -> str:
    """``hits`` of ``total`` as a percentage with its 95 % Wilson interval."""
    if total == 0:
        return "–"
    z, p = 1.96, hits / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return f"{100 * p:.1f} % [{100 * max(0.0, centre - spread):.1f}, {100 * min(1.0, centre + spread):.1f}]"


def doubling_words(row: dict) -> list[tuple[int, str]]:
    return [(seat, word) for seat, word in row["words"] if word.startswith(DOUBLINGS)]


def doubling_side_won(row: dict) -> bool | None:
    """Whether the side of the deal's first doubler came out ahead (its first member's result above the mean)."""
    said = doubling_words(row)
    if not said:
        return None
    seat = said[0][0]
    returns = row["returns"]
    return returns[seat] > sum(returns) / len(returns)


def played(rows: list[dict]) -> list[dict]:
    return [row for row in rows if row["declarer"] >= 0 or row["contract"]]


def skat_figures(rows: list[dict]) -> list[tuple]:
    games = [row for row in rows if row["declarer"] >= 0]
    n, g = len(rows), len(games)
    bids = {}
    for row in games:
        bid = next((w for s, w in reversed(row["words"]) if w.isdigit()), "18")
        bids[bid] = bids.get(bid, 0) + 1
    spread = ", ".join(f"{bid}: {100 * count / max(1, g):.0f} %" for bid, count in
                       sorted(bids.items(), key=lambda item: -item[1])[:5])
    return [("deals passed out", share(n - g, n), "≤ 10 %", "2–5 %"),
            ("Grand among games", share(sum(r["names"]["kind"] == "grand" for r in games), g), "20–40 %", "30–32 %"),
            ("Null among games", share(sum(r["names"]["kind"] == "null_game" for r in games), g), "≥ 3 %", "6–7 %"),
            ("games played Hand", share(sum(r["names"]["skat_play"] == "hand" for r in games), g), "≤ 25 %", "about 13 %"),
            ("declarer wins", share(sum(bool(r["won"]) for r in games), g), "70–90 %", "about 80 % (Grand: over 90 %)"),
            ("Grands lost", share(sum(not r["won"] for r in games if r["names"]["kind"] == "grand"),
                                  sum(r["names"]["kind"] == "grand" for r in games)), "under 10 %", "under 10 %"),
            ("winning bids", spread, "spread over the ladder", "18–24 most, up to Grand values")]


def zwanzigerrufen_figures(rows: list[dict]) -> list[tuple]:
    n = len(rows)
    doubled = [row for row in rows if doubling_words(row)]
    wins = [doubling_side_won(row) for row in doubled]
    resupra = sum(any(w.startswith("resupra") for _, w in row["words"]) for row in rows)
    return [("deals with a Kontra", share(len(doubled), n), "≤ 20 %", "–"),
            ("deals with a Resupra", share(resupra, n), "≤ 1 %", "–"),
            ("doubling side wins", share(sum(bool(w) for w in wins), len(wins)), "≥ 50 %", "–")]


def contract_figures(rows: list[dict], title: str, families: dict[str, tuple[str, ...]]) -> list[tuple]:
    n = len(rows)
    out = []
    for family, names in families.items():
        hits = sum(str(row["contract"]).startswith(names) for row in rows)
        out.append((f"{title}: {family}", share(hits, n), "", ""))
    return out


def schafkopf_figures(rows: list[dict]) -> list[tuple]:
    figures = contract_figures(rows, "deals", {"Ramsch (all pass)": ("ramsch",), "Sauspiel": ("sauspiel",),
                                               "Wenz": ("wenz",), "Farbsolo": ("solo",), "Tout": ("tout", "wenz_tout")})
    targets = {"Ramsch": ("≤ 15 %", "–"), "Wenz": ("present", "–"), "Farbsolo": ("present", "–")}
    return [(name, value, *next((t for key, t in targets.items() if key in name), ("", ""))) for name, value, _, _
            in figures]


def koenigrufen_figures(rows: list[dict]) -> list[tuple]:
    names = ("rufer", "trischaken", "sechserdreier", "piccolo", "solorufer", "bettel", "dreier", "piccolo_ouvert",
             "bettel_ouvert", "solodreier")
    n = len(rows)
    return [(f"deals: {name}", share(sum(row["contract"] == name for row in rows), n),
             "seen" if name else "", "") for name in names]


def silent_marriage(row: dict) -> bool:
    """Whether a normal Doppelkopf game was a silent marriage: one seat held both Q♣ (its Re party is that seat
    alone) and said gesund; doko-wissen.de counts it as a solo."""
    return row["contract"] == "normal" and bin(row["side"]).count("1") == 1


def doppelkopf_figures(rows: list[dict]) -> list[tuple]:
    n = len(rows)
    solos = ("damen", "buben", "fleischlos", "kreuz", "pik", "herz", "karo")
    silent = sum(silent_marriage(row) for row in rows)
    unusual = sum(row["contract"] in solos + ("hochzeit",) for row in rows) + silent
    return [("solos", share(sum(row["contract"] in solos for row in rows), n), "near published", "–"),
            ("silent marriages (a solo)", share(silent, n), "", "–"),
            ("Hochzeit", share(sum(row["contract"] == "hochzeit" for row in rows), n), "near published", "–"),
            ("solo or Hochzeit", share(unusual, n), "near 30 %",
             "30 % (doko-wissen.de, Normalspiel: 70 % of about 400,000 games are normal games)"),
            ("Re or Kontra said", share(sum(any(w in ("re", "kontra") for _, w in row["words"]) for row in rows), n),
             "", "–")]


FIGURES = {"skat": skat_figures, "skat-tournament": skat_figures, "zwanzigerrufen": zwanzigerrufen_figures,
           "schafkopf": schafkopf_figures, "koenigrufen": koenigrufen_figures, "doppelkopf": doppelkopf_figures}

PUBLISHED = {
    "skat": "Skat-Online's statistics of about 18 million games and tournament records of 20,000 games, as "
            "issue 42 quotes them; both are scored by Seeger-Fabian, as skat-tournament.yaml is.",
}


def every_share(rows: list[dict]) -> list[tuple]:
    """Every contract, named choice and word, as shares of the deals (``--all``)."""
    n = len(rows)
    counts: dict[str, int] = {}
    for row in rows:
        seen = {f"contract = {row['contract']}"} | {f"{k} = {v}" for k, v in row["names"].items()}
        seen |= {f"says {w}" for _, w in row["words"] if w not in PASS_WORDS and not w.isdigit()}
        for key in seen:
            counts[key] = counts.get(key, 0) + 1
    return [(key, share(count, n), "", "") for key, count in sorted(counts.items())]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; 0 when done."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--games", default="skat-tournament,zwanzigerrufen,schafkopf,koenigrufen,doppelkopf")
    parser.add_argument("--all", action="store_true", help="also every contract, choice and word")
    args = parser.parse_args(argv)
    for ref in args.games.split(","):
        started = time.perf_counter()
        with Pool(args.jobs) as pool:
            rows = pool.map(play, [(ref, seed, args.agents) for seed in range(args.deals)], chunksize=5)
        seconds = time.perf_counter() - started
        moves = sum(row["moves"] for row in rows)
        print(f"\n### {ref}: {args.deals} deals, `{args.agents}` at every seat ({seconds:.0f} s wall, "
              f"{1000 * sum(r['seconds'] for r in rows) / max(1, moves):.1f} ms a move)\n")
        print("| figure | measured [95 % interval] | target | real tables |")
        print("|---|---|---|---|")
        figures = FIGURES.get(ref, lambda rows: [])(rows) + (every_share(rows) if args.all else [])
        for name, value, target, real in figures:
            print(f"| {name} | {value} | {target} | {real} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
