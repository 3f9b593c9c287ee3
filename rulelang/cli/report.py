"""``rulelang simulate GAME --report FILE.html``: a self-contained report with plots for a designer.

One HTML file, nothing fetched from elsewhere: every plot is an SVG drawn by matplotlib
(the optional extra ``rulelang[report]``) and embedded as an image (an ``<img>`` with a
``data:`` address, which a browser never runs scripts from), and every text that comes
from a rule file is escaped. The plots are what a designer comparing house rules looks
at — the contracts and how often their declarers made them, each seat's score changes,
the seat advantage with its 95 % interval, the match lengths and the items scored and
announced — one panel per game, side by side with ``--compare``; the whole statistics
table follows.
"""

from __future__ import annotations

import base64
import html
import importlib
import io
import os
from collections import Counter

from rulelang.cli.args import UsageError

EXTRA_HINT = "pip install 'rulelang[report]' (matplotlib draws the plots)"
PANEL_WIDTH = 5.2          # inches per game
MAX_BARS = 14              # contracts or items shown in one panel, the most frequent first


def check_report_target(path: str) -> None:
    """Refuse, before any deal is played, a report that could not be written or drawn (a usage error)."""
    if not path.lower().endswith((".html", ".htm")):
        raise UsageError(f"--report {path}: the report is an HTML file; name it FILE.html")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"--report {path}: the folder {folder} does not exist")
    if os.path.isdir(path) or not os.access(folder, os.W_OK):
        raise UsageError(f"--report {path}: cannot write there")
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise UsageError(f"--report needs matplotlib: {EXTRA_HINT}") from None


def write_report(path: str, all_stats: list[dict], run: dict) -> None:
    """Write the report of the games' statistics ``all_stats`` (``run``: seed, matches, agents) to ``path``."""
    page = render_report(all_stats, run)
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as exc:
        raise UsageError(f"--report {path}: {exc.strerror or exc}") from None


def render_report(all_stats: list[dict], run: dict) -> str:
    """The report as one HTML page."""
    games = ", ".join(stats["game"] for stats in all_stats)
    figures = [
        ("Contracts", "share of the deals; the darker part: made by the declarers", "contracts", _contracts),
        ("Score change per deal", "each seat's score change: share of the deals", "score_distribution",
         _distribution),
        ("Seat advantage", "each seat's return against the mean of the table (higher is better), "
                           "with its 95 % interval", "seat_advantage", _advantage),
        ("Match length", "deals a whole match lasted", "match_lengths", _match_lengths),
        ("Items", "share of the deals each item was scored; the darker part: announced", "items", _items),
    ]
    sections = [_section(title, note, draw(all_stats)) for title, note, key, draw in figures
                if any(stats[key] for stats in all_stats)]
    return _PAGE.format(title=_e(f"rulelang simulate — {games}"), meta=_e(_meta(all_stats, run)),
                        sections="\n".join(sections), table=_table(all_stats))


def _meta(all_stats: list[dict], run: dict) -> str:
    deals = all_stats[0]["deals"]
    matches = f" and {run['matches']} whole matches" if run["matches"] else ""
    return f"{deals} single deals{matches} per game from seed {run['seed']}, played by {run['agents']}"


def _section(title: str, note: str, svg: str) -> str:
    data = base64.b64encode(svg.encode()).decode()
    return (f"<section><h2>{_e(title)}</h2><p class=note>{_e(note)}</p>"
            f"<img alt=\"{_e(title)}\" src=\"data:image/svg+xml;base64,{data}\"></section>")


def _e(text) -> str:
    return html.escape(str(text), quote=True)


# ---------------------------------------------------------------------- the plots
def _panels(all_stats: list[dict], height: float = 3.2):
    """A figure with one panel per game, and its panels."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    figure = Figure(figsize=(PANEL_WIDTH * len(all_stats), height), layout="constrained")
    axes = figure.subplots(1, len(all_stats), squeeze=False)[0]
    for ax, stats in zip(axes, all_stats):
        ax.set_title(stats["game"], fontsize=10)
    return figure, axes


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _nothing(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="grey")
    ax.set_axis_off()


def _bars(ax, names: list[str], totals: list[float], parts: list[float], unit: str) -> None:
    """Horizontal bars, the most frequent on top, each with its darker part."""
    rows = range(len(names))
    ax.barh(rows, totals, color="#9ecae1")
    ax.barh(rows, parts, color="#3182bd")
    ax.set_yticks(list(rows), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")


def _contracts(all_stats: list[dict]) -> str:
    figure, axes = _panels(all_stats)
    for ax, stats in zip(axes, all_stats):
        shares = list(stats["contracts"].items())[:MAX_BARS]
        if not shares:
            _nothing(ax, "no contracts in this game")
            continue
        made, titles = stats["contracts_made"], stats.get("contract_titles", {})
        _bars(ax, [titles.get(n, n) for n, _ in shares], [v for _, v in shares],
              [v * made.get(n, 0) for n, v in shares], "share of deals")
    return _svg(figure)


def _items(all_stats: list[dict]) -> str:
    figure, axes = _panels(all_stats)
    for ax, stats in zip(axes, all_stats):
        items = list(stats["items"].items())[:MAX_BARS]
        if not items:
            _nothing(ax, "no items scored")
            continue
        _bars(ax, [n for n, _ in items], [v["scored"] for _, v in items], [v["announced"] for _, v in items],
              "share of deals")
    return _svg(figure)


def _distribution(all_stats: list[dict]) -> str:
    figure, axes = _panels(all_stats)
    for ax, stats in zip(axes, all_stats):
        deals = max(stats["deals"], 1)
        counts = Counter()
        for seat_counts in stats["score_distribution"].values():
            counts.update({float(v): k for v, k in seat_counts.items()})
        if not counts:
            _nothing(ax, "no deals")
            continue
        low, high = _central_range(counts)
        edges = _bin_edges(sorted(v for v in counts if low <= v <= high))
        for seat, seat_counts in stats["score_distribution"].items():
            values = [min(max(float(v), low), high) for v in seat_counts]
            ax.hist(values, bins=edges, weights=[k / deals for k in seat_counts.values()],
                    histtype="step", linewidth=1.4, label=seat)
        ax.set_xlabel("score change" + (" (the outer 1 % at the ends)" if (low, high) != (min(counts), max(counts))
                                        else ""))
        ax.set_ylabel("share of deals")
        ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
        ax.legend(fontsize=8)
    return _svg(figure)


def _central_range(counts: Counter) -> tuple[float, float]:
    """The values between which the central 98 % of the counted values lie."""
    total, seen, low, high = sum(counts.values()), 0, None, None
    for value in sorted(counts):
        seen += counts[value]
        if low is None and seen >= 0.01 * total:
            low = value
        if high is None and seen >= 0.99 * total:
            high = value
    return low, high


def _bin_edges(values: list[float]) -> list[float]:
    """One bin per value when there are few (centred on it), else 40 equal bins."""
    if len(values) <= 40:
        gaps = [b - a for a, b in zip(values, values[1:])] or [1.0]
        half = min(gaps) / 2
        return sorted({v - half for v in values} | {v + half for v in values})
    low, high = values[0], values[-1]
    return [low + (high - low) * i / 40 for i in range(41)]


def _advantage(all_stats: list[dict]) -> str:
    figure, axes = _panels(all_stats, height=2.8)
    for ax, stats in zip(axes, all_stats):
        seats = list(stats["seat_advantage"])
        means = [stats["seat_advantage"][s]["mean"] for s in seats]
        below = [m - stats["seat_advantage"][s]["ci95"][0] for s, m in zip(seats, means)]
        above = [stats["seat_advantage"][s]["ci95"][1] - m for s, m in zip(seats, means)]
        ax.errorbar(range(len(seats)), means, yerr=[below, above], fmt="o", capsize=4, color="#3182bd")
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(seats)), seats)
        ax.set_ylabel("return against the table")
    return _svg(figure)


def _match_lengths(all_stats: list[dict]) -> str:
    figure, axes = _panels(all_stats, height=2.8)
    for ax, stats in zip(axes, all_stats):
        counts = {int(length): k for length, k in stats["match_lengths"].items()}
        if not counts:
            _nothing(ax, "no whole matches played (--matches 0, or single-deal matches)")
            continue
        from matplotlib.ticker import MaxNLocator
        ax.bar(list(counts), list(counts.values()), width=0.8, color="#3182bd")
        ax.set_xlabel("deals in the match")
        ax.set_ylabel("matches")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    return _svg(figure)


# ---------------------------------------------------------------------- the table
def _table(all_stats: list[dict]) -> str:
    from rulelang.cli.stats_table import merged_rows
    head = "".join(f"<th>{_e(stats['game'])}</th>" for stats in all_stats)
    rows, section = [], None
    for row in merged_rows(all_stats):
        if row[0] != section and row[0]:
            rows.append(f"<tr class=section><th colspan={1 + len(all_stats)}>{_e(row[0])}</th></tr>")
        section = row[0]
        rows.append("<tr><td>" + "</td><td>".join(_e(cell) for cell in row[1:]) + "</td></tr>")
    return f"<table><tr><th>statistic</th>{head}</tr>{''.join(rows)}</table>"


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
h1 {{ font-size: 1.4em; }} h2 {{ font-size: 1.1em; margin-top: 1.6em; }}
.note {{ color: #555; margin: 0.2em 0 0.6em; }} img {{ max-width: 100%; }}
table {{ border-collapse: collapse; margin-top: 1em; font-size: 0.9em; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 0.25em 0.8em; text-align: left; }}
tr.section th {{ background: #f2f2f2; }}
</style></head>
<body>
<h1>{title}</h1>
<p>{meta}</p>
{sections}
<h2>All statistics</h2>
{table}
</body></html>
"""
