"""The rules of a game in plain English, from its resolved document.

Every construct renders itself: one function per section (table, cards, parameters,
the deal, contracts, items, match) and one per phase kind, all in the registries
:data:`SECTIONS`; each phase kind's English is its construct's (:mod:`rulelang.constructs`). Expressions are read out by :class:`Reader`, which
turns ``tricks(player) > 0`` into "the tricks taken by the player is above 0" and shows a
parameter with its value, ``hearts_factor (2)``. Keys this module does not know are
still shown, as ``key: value``, so a new construct never disappears from the text.

>>> explain_game({"game": "demo", "players": 2, "phases": [{"deal": {"each": 3}}],
...               "match": {"end": "max(score) >= 10"}})[:2]
['demo', '====']
"""

from __future__ import annotations

from typing import Callable

from rulelang.constructs import construct
from rulelang.render.trick_words import trick_rule_lines
from rulelang.compile.deck import named_packs, narrowed
from rulelang.render.reading import Reader
from rulelang.render.words import plain

Lines = list[str]

# ---------------------------------------------------------------------- small helpers
def rest(body: dict, known: set) -> Lines:
    """Lines for the keys of ``body`` that the renderer does not know (so nothing is lost)."""
    return [f"({key}: {plain(value)})" for key, value in body.items() if key not in known]


def _sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def count(value, noun: str, ctx: "Context") -> str:
    """``value`` with ``noun`` in the singular or plural: "1 card", "3 cards", "first_packet (3) cards"."""
    return f"{ctx.say(value)} {noun}" + ("" if value == 1 else "s")


class Context:
    """What the renderers share: the document, the expression reader, the direction of play."""

    def __init__(self, data: dict, base: str | None = None, changes: Lines = ()):
        self.data, self.base, self.changes = data, base, list(changes)
        self.reader = Reader(data.get("params") or {})
        self.direction = str(data.get("direction", "clockwise"))

    def say(self, value, local: set | None = None) -> str:
        """``value`` read aloud; ``local`` names (let bindings) are not taken for params."""
        if local:
            return Reader(self.reader.params, local).say(value)
        return self.reader.say(value)

    def uses(self, word: str) -> bool:
        """Whether any text in the document mentions ``word`` (e.g. ``points(``)."""
        return word in repr(self.data)


# ---------------------------------------------------------------------- sections
def section_header(ctx: Context) -> Lines:
    """Title, what the game is, and where its rules come from."""
    data = ctx.data
    title = str(data.get("title") or data.get("game") or "?")
    lines = [title, "=" * len(title)]
    if ctx.base:
        lines += ["", f"A variant of {ctx.base}; the rules below are complete, with the variant's changes merged in."]
        if ctx.changes:
            lines += ["", f"What it changes in {ctx.base}:", *ctx.changes]
    about = data.get("about") or {}
    if about.get("summary"):
        lines += ["", str(about["summary"])]
    if about.get("source"):
        lines += ["", f"Source: {about['source']}"]
    return lines


def section_table(ctx: Context) -> Lines:
    """Players, direction and who deals and leads."""
    data = ctx.data
    seating = data.get("seating") or {}
    first = seating.get("first_dealer", "random")
    first_text = "chosen by lot" if first == "random" else f"P{first}"
    step = seating.get("next_dealer", 1)
    forehand = seating.get("forehand", 1)
    passes = "to the next player" if step == 1 else f"{count(step, 'seat', ctx)} on"
    lines = [f"{data.get('players', '?')} players; dealing, bidding and play go {ctx.direction}.",
             f"The first dealer is {first_text}; after each deal the deal passes {passes}.",
             "Forehand is the dealer himself." if forehand == 0 else "Forehand is the player after the dealer."
             if forehand == 1 else f"Forehand is the player {count(forehand, 'seat', ctx)} after the dealer."]
    teams = data.get("teams")
    if isinstance(teams, list) and len(teams) > 1:
        told = [" and ".join(f"P{n}" for n in team) for team in teams if isinstance(team, list)]
        lines.append(f"They play in fixed teams: {' against '.join(told)}.")
    return _titled("The table", lines + rest(seating, {"first_dealer", "next_dealer", "forehand"}))


def effective_deck(data: dict) -> dict:
    """The ``deck`` section with its named pack's keys filled in (the rule file's own keys win)."""
    spec = dict(data.get("deck") or {})
    pack = named_packs().get(spec.get("pack")) if spec.get("pack") else None
    spec = {**(pack or {}), **spec}
    keep = spec.get("keep")
    if isinstance(keep, dict):
        params = data.get("params") or {}
        counts = [params.get(keep.get(key), keep.get(key)) if isinstance(keep.get(key), str) else keep.get(key, 10 ** 6)
                  for key in ("suits", "ranks")]
        if all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in counts):
            spec = narrowed(spec, counts[0], counts[1], keep.get("from") == "low")
    return spec


def section_cards(ctx: Context) -> Lines:
    """The pack: suits, ranking, points, aliases, tags and removed cards."""
    deck = effective_deck(ctx.data)
    suits = deck.get("suits") or []
    size = sum(len(s.get("ranks") or deck.get("ranks") or []) for s in suits) - len(deck.get("remove") or [])
    pack = f" ({deck['pack']})" if deck.get("pack") else ""
    copies = deck.get("copies") if isinstance(deck.get("copies"), int) and deck.get("copies") > 1 else 1
    lines = [f"A pack of {size} cards{pack} in {len(suits)} suits: {', '.join(_suit(s) for s in suits)}."]
    if copies > 1:
        lines = [f"{size * copies} cards: {copies} packs of {size} cards{pack} shuffled together, so every card is "
                 f"there {copies} times under one name; {len(suits)} suits: {', '.join(_suit(s) for s in suits)}."]
    if deck.get("ranks"):
        lines.append(f"Every suit ranks {' '.join(str(r) for r in deck['ranks'])}, high to low"
                     + (", unless it has its own ranks." if any(s.get("ranks") for s in suits) else "."))
    for suit in suits:
        if suit.get("ranks"):
            lines.append(f"{suit['name'].capitalize()} rank {' '.join(str(r) for r in suit['ranks'])}, high to low.")
    lines.append("Cards are named rank and suit letter (10H), or by rank alone where a suit says so.")
    lines += _deck_extras(ctx, deck) + _kept_part(ctx, deck.get("keep"))
    return _titled("The cards", lines + rest(deck, {"pack", "suits", "ranks", "points", "aliases", "tags", "remove",
                                                    "copies", "keep"}))


def _kept_part(ctx: Context, keep) -> Lines:
    """What ``keep`` takes of the pack, its counts said with their params."""
    if not isinstance(keep, dict):
        return []
    end = "lowest" if keep.get("from") == "low" else "highest"
    suits = f"the first {ctx.say(keep['suits'])} suits" if "suits" in keep else "every suit"
    ranks = f"the {ctx.say(keep['ranks'])} {end} ranks of each" if "ranks" in keep else "all their ranks"
    return [f"Only part of the pack is played: {suits} as listed, {ranks}."]


def _suit(suit: dict) -> str:
    details = [f"letter {suit.get('letter', str(suit['name'])[0].upper())}"]
    if suit.get("symbol") and suit.get("symbol") != suit.get("letter"):
        details.insert(0, str(suit["symbol"]))
    if suit.get("plays_as"):
        details.append(f"plays the part of {suit['plays_as']}")
    if suit.get("naming") == "rank":
        details.append("cards named by rank alone")
    return f"{suit['name']} ({', '.join(details)})"


def _deck_extras(ctx: Context, deck: dict) -> Lines:
    lines = []
    points = deck.get("points") or {}
    if points and ctx.uses("points("):
        lines.append("Card points: " + ", ".join(f"{k} {v}" for k, v in points.items()) + "; other cards 0.")
    elif points:
        lines.append("Card points are not used.")
    if deck.get("aliases"):
        lines.append("Other names: " + ", ".join(f"{a} = {c}" for a, c in deck["aliases"].items()) + ".")
    for tag, cards in (deck.get("tags") or {}).items():
        lines.append(f"The {tag}: {', '.join(str(c) for c in cards)}.")
    if deck.get("remove"):
        lines.append(f"Taken out of the pack: {', '.join(str(c) for c in deck['remove'])}.")
    return lines


def section_params(ctx: Context) -> Lines:
    """The named numbers the rules refer to."""
    params = ctx.data.get("params") or {}
    return _titled("Parameters", [f"{k} = {plain(v)}" for k, v in params.items()]) if params else []


def section_definitions(ctx: Context) -> Lines:
    """The named expressions (``define``), each in words."""
    defined = ctx.data.get("define") or {}
    return _titled("Definitions", [f"{k} means {ctx.say(v)}" for k, v in defined.items()]) if defined else []


def phase_sentences(data: dict) -> list[Lines]:
    """Each phase of the rule document ``data``, in order, as the sentences of "A deal, step by step"."""
    return [[_sentence(line) for line in text] for text in _phase_texts(Context(data))]


def _phase_texts(ctx: Context) -> list[Lines]:
    steps, dealt = [], False
    for entry in ctx.data.get("phases") or []:
        kind, body = next(iter(entry.items()))
        body = body if isinstance(body, dict) else {"value": body} if body != "rest" else {}
        text = phase_lines(ctx, kind, body, dealt)
        if body.get("when") is not None:
            text[0] = f"only if {ctx.say(body['when'])}: {text[0][:1].lower()}{text[0][1:]}"
        steps.append(text)
        found = construct(kind) if isinstance(kind, str) else None
        dealt = dealt or found is not None and found.deals
    return steps


def section_deal(ctx: Context) -> Lines:
    """The steps of one deal, numbered; identical steps in a row are told once ("2–3. …, twice")."""
    steps = _phase_texts(ctx)
    lines, number = [], 1
    for text, times in _runs(steps):
        label = f"{number}." if times == 1 else f"{number}–{number + times - 1}."
        first = text[0] + (f", {TIMES.get(times, f'{times} times')}" if times > 1 else "")
        lines.append(f"{label} {_sentence(first)}")
        lines.extend(f"   {_sentence(t)}" for t in text[1:])
        number += times
    return _titled("A deal, step by step", lines)


TIMES = {2: "twice", 3: "three times"}


def _runs(steps: list[Lines]) -> list[tuple[Lines, int]]:
    """Consecutive equal steps as (step, how many times in a row)."""
    runs: list[tuple[Lines, int]] = []
    for text in steps:
        if runs and runs[-1][0] == text:
            runs[-1] = (text, runs[-1][1] + 1)
        else:
            runs.append((text, 1))
    return runs


def section_contracts(ctx: Context) -> Lines:
    """The bidding ladder."""
    contracts = ctx.data.get("contracts") or {}
    lines = []
    for name, row in contracts.items():
        lines.extend(contract_lines(ctx, str(name), row or {}))
    return _titled("Contracts", lines) if lines else []


def contract_lines(ctx: Context, name: str, row: dict) -> Lines:
    """One contract: rank, value, who may bid it, sides, items, own trick rules."""
    head = f"{row.get('title', name)} ({name}): rank {row.get('rank', '?')}, worth {ctx.say(row.get('value', 0))}."
    lines = [head]
    if row.get("allow") is not None:
        lines.append(f"  May be bid when {ctx.say(row['allow'])}.")
    if row.get("calls") is not None:
        lines.append(f"  The bidder calls {ctx.say(row['calls'])}; its holder is his secret partner.")
    sides = row.get("sides", "alone")
    lines.append({"alone": "  The bidder plays alone against all others.",
                  "none": "  Everyone plays for himself: the bidder has no partner and no side plays against him.",
                  "parties": "  The sides are the parties a `parties` phase forms; the bidder is not told his partner."}
                 .get(sides, "  The bidder and the holder of the called card play against the others."))
    if row.get("items") is not None:
        counted = ', '.join(str(i) for i in row['items'])
        lines.append(f"  Only these count: {counted}." if counted else "  No item counts: a `score` phase scores it.")
    if row.get("bonus_factor") not in (None, 1):
        lines.append(f"  Every bonus counts {row['bonus_factor']} times.")
    if row.get("tricks"):
        lines.extend("  " + _sentence(t) for t in trick_rule_lines(ctx, row["tricks"]))
    known = {"title", "rank", "value", "allow", "calls", "sides", "items", "bonus_factor", "tricks"}
    return lines + ["  " + t for t in rest(row, known)]


def section_items(ctx: Context) -> Lines:
    """Everything that scores in a deal."""
    lines = []
    for name, item in (ctx.data.get("items") or {}).items():
        lines.extend(item_lines(ctx, str(name), item or {}))
    return _titled("What scores", lines) if lines else []


def item_lines(ctx: Context, name: str, item: dict) -> Lines:
    """One item: its value, how it is achieved, announcements."""
    title = item.get("title", name)
    if item.get("game"):
        lines = [f"{title} ({name}): the game itself, worth the contract's value to the side that achieves it."]
    else:
        value = ctx.say(item.get("value", 0))
        lines = [f"{title} ({name}): worth {value} to the side that achieves it."]
    lines.append(f"  Achieved when {ctx.say(item['achieved'])}." if "achieved" in item else "")
    if item.get("caught") is not None:
        lines.append(f"  Counts for the other side when {ctx.say(item['caught'])}.")
    announce = item.get("announce")
    if announce:
        who = {"for": "by the declaring side", "against": "by the defenders"}.get(announce, "by either side")
        worth = ctx.say(item["announced_value"]) if item.get("announced_value") is not None else "twice as much"
        lines.append(f"  May be announced {who}; then it is worth {worth}.")
    if item.get("against_kontra"):
        lines.append("  Announcing it against the declaring side doubles the game too (Kontra).")
    if item.get("per_seat"):
        lines.append("  Achieved by one player alone; each other player pays him.")
    known = {"title", "game", "value", "announced_value", "announce", "achieved", "caught", "against_kontra",
             "per_seat"}
    return [line for line in lines if line] + ["  " + t for t in rest(item, known)]


def section_match(ctx: Context) -> Lines:
    """Start, end, winner, ties, exact finishes and counters."""
    match = ctx.data.get("match") or {}
    lines = [f"Every player starts with {ctx.say(match.get('start', 0))} points."]
    if match.get("exact") is not None:
        lines.append(f"Scores must land exactly on {match['exact']}: a deal that would take a score past it "
                     "leaves that score unchanged.")
    for name, start in (match.get("counters") or {}).items():
        update = (match.get("after_deal") or {}).get(name)
        after = f"; after each deal it becomes {ctx.say(update)}" if update is not None else ""
        if isinstance(start, dict):
            after = f"; after each deal each player's becomes {ctx.say(update)}" if update is not None else ""
            who = "team" if start.get("each") == "teams" else "player"
            after = after.replace("each player's", f"each {who}'s")
            lines.append(f"Each {who} has a counter {name}, starting at {start.get('start', 0)}{after}.")
        else:
            lines.append(f"The counter {name} starts at {start}{after}.")
    lines.append(f"After each deal the match ends when {ctx.say(match.get('end', True))}.")
    winner = match.get("winner", "highest")
    lines.append(f"The player with the {winner} score wins.")
    tie = match.get("tie", "play_on")
    lines.append("If several share it, they play on until one has it alone." if tie == "play_on"
                 else "If several share it, they share the win.")
    known = {"start", "exact", "counters", "after_deal", "end", "winner", "tie"}
    return _titled("The end of the match", lines + rest(match, known))


def section_notes(ctx: Context) -> Lines:
    """Readings and known gaps, in the rule file's own words."""
    about = ctx.data.get("about") or {}
    extra = rest(about, {"source", "summary", "deviations"})
    text = [str(about["deviations"])] if about.get("deviations") else []
    return _titled("Readings and known gaps", text + extra) if text or extra else []


def _titled(title: str, lines: Lines) -> Lines:
    return ["", title, "-" * len(title), *lines]


# ---------------------------------------------------------------------- phases
def phase_unknown(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """A phase kind no construct knows: its keys as written."""
    return [f"{kind}: {plain(body)}" if body else kind]


def phase_lines(ctx: Context, kind, body: dict, dealt: bool) -> Lines:
    """One phase in English, by its construct (:meth:`rulelang.constructs.base.Construct.english`)."""
    found = construct(kind) if isinstance(kind, str) else None
    if found is None:
        return phase_unknown(ctx, body, str(kind), dealt)
    return found.english(ctx, body, dealt)


SECTIONS: list[Callable[[Context], Lines]] = [
    section_header, section_table, section_cards, section_params, section_definitions, section_deal, section_contracts, section_items,
    section_match, section_notes,
]


def explain_game(data: dict, base: str | None = None, changes: Lines = ()) -> Lines:
    """The resolved rule document ``data`` in plain English, as lines of text; ``base`` names what it extends and
    ``changes`` are the lines of ``rulelang diff`` against it (:func:`rulelang.render.diff.diff_lines`)."""
    ctx = Context(data, base, changes)
    lines: Lines = []
    for section in SECTIONS:
        lines.extend(section(ctx))
    return lines
