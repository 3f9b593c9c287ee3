"""The statistics of ``rulelang simulate`` as rows of a table: (section, statistic, value), one game's or
several side by side, as the terminal table and the report show them."""

from __future__ import annotations

from rulelang.interpreter.tally import MATCH_CAP


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _per_seat(values: dict, fmt) -> str:
    return "  ".join(f"{s} {fmt(v)}" for s, v in values.items())


def table_rows(stats: dict) -> list[tuple[str, str, str]]:
    """(section, statistic, value) rows of one game's statistics."""
    rows = [("", "deals played", str(stats["deals"]))]
    for var, shares in stats["vars"].items():
        rows += [("deal variables", f"{var} = {value}", _percent(share)) for value, share in shares.items()]
    rows += _decision_rows(stats)
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


DECISIONS = "decisions (times a seat makes each, per 100 deals)"


def _decision_rows(stats: dict) -> list[tuple[str, str, str]]:
    """Each decision in the game's words (a bid by its contract's title) with how often each seat makes it per
    100 deals (a word said several times a deal, as a pass in an auction, counts each time), and per phase
    kind the deals in which a seat made none of them."""
    undecided, rows = stats.get("undecided", {}), []
    title, said = stats.get("contract_titles", {}).get, stats.get("decision_words", {}).get
    per_hundred = lambda v: f"{100 * v:.1f}"                    # noqa: E731 - one number format
    for name, seats in stats["decisions"].items():
        kind, _, word = name.partition(" ")
        rows.append((DECISIONS, f"{kind}: {said(name) or title(word, word)}", _per_seat(seats, per_hundred)))
        if kind in undecided and not any(other.startswith(kind + " ") for other in _after(stats["decisions"], name)):
            rows.append((DECISIONS, f"{kind}: deals with no decision", _per_seat(undecided[kind], per_hundred)))
    return rows


def _after(decisions: dict, name: str) -> list[str]:
    """The decision rows that come after ``name``."""
    names = list(decisions)
    return names[names.index(name) + 1:]


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
