"""Readable narration of a match record: hands, decisions, each trick, deal scores, running totals."""

from __future__ import annotations


def narrate_match(summary: dict, title: str) -> list[str]:
    """Lines of text telling the match in ``summary`` (from ``MatchRecord.summary``)."""
    lines = [f"{title}"]
    for deal in summary["deals"]:
        lines.append("")
        lines.extend(narrate_deal(deal))
    return lines + match_end_lines(summary)


def match_end_lines(summary: dict) -> list[str]:
    """The lines after the deals: who won, or why the match stopped, and the totals."""
    lines = [""]
    totals = "  ".join(f"{seat} {score}" for seat, score in summary["totals"].items())
    played = sum(1 for deal in summary["deals"] if deal.get("delta"))
    if summary.get("winner"):
        verb = "win" if len(summary.get("winners") or []) > 1 else "wins"
        lines.append(f"Match over after {played} deal(s): {summary['winner']} {verb}.  Totals: {totals}")
    elif summary.get("finished"):
        lines.append(f"Match over after {played} deal(s), shared win.  Totals: {totals}")
    elif summary["deals"] and not summary["deals"][-1].get("delta"):
        lines.append(f"Stopped during deal {summary['deals'][-1]['number']}, after {played} complete deal(s).  "
                     f"Totals: {totals}")
    else:
        lines.append(f"Stopped after {played} deal(s), no winner yet.  Totals: {totals}")
    return lines


def narrate_deal(deal: dict) -> list[str]:
    """Lines of text for one deal."""
    lines = [f"Deal {deal['number']} — dealer {deal['dealer']}, forehand {deal.get('forehand', '?')}"]
    for seat, cards in deal.get("dealt", {}).items():
        if cards:
            lines.append(f"  {seat} is dealt  {' '.join(cards)}")
    if deal.get("turned_up"):
        lines.append(f"  turned up  {' '.join(deal['turned_up'])}")
    decisions = deal.get("decisions", [])
    lines.extend("  " + text for text in _decisions([d for d in decisions if "trick" not in d]))
    for meld in deal.get("melds", []):
        counts = "" if meld["counts"] else " (does not count)"
        lines.append(f"  {meld['seat']} declares {meld['kind']} {' '.join(meld['cards'])}: {meld['points']}{counts}")
    if deal.get("set_vars"):
        lines.append("  by the rules: " + ", ".join(f"{var} = {deal['vars'][var]}" for var in deal["set_vars"]))
    for number, trick in enumerate(deal.get("tricks", []), start=1):
        calls = [d for d in decisions if d.get("trick") == number]
        played = "  ".join(_play(seat, card, [c["action"] for c in calls if c["on_table"] == place])
                           for place, (seat, card) in enumerate(trick["cards"]))
        melds = "".join(f", {m['kind']} {m['points']}" for m in trick.get("melds", []))
        lines.append(f"  trick {number}: {played}  → {trick['winner']}{melds}")
        drawn = [_drawn(d) for d in deal.get("drawn", []) if d["trick"] == number]
        if drawn:
            lines.append("    " + ", ".join(drawn))
    after = len(deal.get("tricks", []))
    lines.extend(f"  then {d['seat']} says {d['action']}" for d in decisions if d.get("trick", 0) > after)
    return lines + deal_outcome_lines(deal)


def _drawn(entry: dict) -> str:
    """A card drawn from the stock after a trick, or the stock's next card turned face up."""
    return f"{entry['seat']} draws {entry['card']}" if entry["seat"] else f"{entry['card']} turned up on the stock"


def _play(seat: str, card: str, said: list[str]) -> str:
    """One card of a trick, after what its player said on that turn (a call of trick play)."""
    return f"{seat} says {', '.join(said)}, plays {card}" if said else f"{seat} {card}"


def deal_outcome_lines(deal: dict) -> list[str]:
    """How a finished deal came out, as everyone at the table learns it: contract, tricks, items, payments."""
    lines = []
    if deal.get("contract"):
        lines.extend("  " + text for text in _contract(deal["contract"], deal.get("active")))
    if deal.get("tricks_won"):
        won = ", ".join(f"{s} {n}" for s, n in deal["tricks_won"].items() if s in deal.get("active", []) or n)
        lines.append(f"  tricks taken: {won or 'none'}")
    for item in deal.get("items") or []:
        lines.append("  " + _item(item))
    if deal.get("multiplier", 1) != 1:
        lines.append(f"  this deal counts {deal['multiplier']} times")
    if deal.get("delta"):
        change = "  ".join(f"{s} {_signed(v)} → {deal['scores'][s]}" for s, v in deal["delta"].items())
        lines.append(f"  score: {change}")
    return lines


def _decisions(decisions: list[dict]) -> list[str]:
    lines: list[str] = []
    exchange: dict[str, dict] = {}
    last = None
    for entry in decisions:
        seat, phase, action = entry["seat"], entry["phase"], entry["action"]
        if entry.get("opens"):
            lines.append(entry["opens"])
            last = None
        if phase == "refill":
            continue                             # its words are the line it opens
        if phase == "choose":
            lines.append(f"{seat} chooses {entry.get('var', '')}: {action}".replace(" :", ":"))
        elif phase in ("discard", "draw"):
            slot = exchange.setdefault(seat, {"discard": [], "draw": []})
            if not slot["discard"] and not slot["draw"]:
                lines.append(seat)
                slot["line"] = len(lines) - 1
            slot[phase].append(action)
            lines[slot["line"]] = f"{seat} exchanges {' '.join(slot['discard'])} for {' '.join(slot['draw'])}"
        elif phase == "exchange":
            if seat not in exchange:
                lines.append(f"{seat} keeps all cards")
        elif "words" in entry and lines and last == (seat, entry["words"]):
            lines[-1] += f" {action}"
        else:
            forced = " (only choice)" if entry.get("forced") else ""
            then = f" — {entry['then']}" if entry.get("then") else ""
            lines.append(f"{seat} {entry.get('words', 'says')} {action}{forced}{then}")
        last = (seat, entry.get("words"))
    return lines


def _contract(contract: dict, active: list[str] | None = None) -> list[str]:
    partners = [s for s in contract["side"] if s != contract["declarer"]]
    if contract.get("sides") == "parties":
        # the seat that bid only opened the auction: the parties decide who plays with whom
        others = [s for s in (active or []) if s not in contract["side"]]
        side = _listed(contract["side"]) or "nobody"
        against = f" against {_listed(others)}" if others else ""
        alone = " alone" if len(contract["side"]) == 1 else ""
        return [f"contract: {contract.get('title', contract['name'])}; parties: {side}{alone}{against}"]
    if contract["declarer"] is None:
        return [f"contract: {contract.get('title', contract['name'])}, with nobody declaring"]
    text = f"contract: {contract.get('title', contract['name'])} by {contract['declarer']}"
    if contract.get("called"):
        partner = ", ".join(partners) or "none (no other player holds it: he plays alone)"
        text += f", calling {contract['called']}: partner {partner}"
    elif not partners and contract.get("team"):
        mates, several = " and ".join(contract["team"]), len(contract["team"]) > 1
        text += (f", alone: {mates}, {'partners' if several else 'partner'} in the teams, "
                 f"{'play' if several else 'plays'} against the declarer this deal")
    elif not partners:
        text += ", alone against the others"
    return [text]


_DOUBLING = {0: "", 1: ", doubled once", 2: ", doubled twice", 3: ", doubled 3 times", 4: ", doubled 4 times"}


def _listed(names: list[str]) -> str:
    """``P1``, ``P1 and P2``, ``P1, P2 and P4``."""
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


def _item(item: dict) -> str:
    how = "game" if item.get("game") else "announced" if item.get("announced") else "silent"
    level = _DOUBLING.get(item.get("level", 0), f", doubled {item.get('level')} times")
    return f"{item['item']}: {item['value']} for the {item['side']} ({how}{level})"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)
