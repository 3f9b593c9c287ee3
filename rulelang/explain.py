"""The rules of a game in plain English, from its resolved document.

Every construct renders itself: one function per section (table, cards, parameters,
the deal, contracts, items, match) and one per phase kind, all in the registries
:data:`SECTIONS` and :data:`PHASES`. Expressions are read out by :class:`Reader`, which
turns ``tricks(player) > 0`` into "the tricks taken by the player is above 0" and shows a
parameter with its value, ``hearts_factor (2)``. Keys this module does not know are
still shown, as ``key: value``, so a new construct never disappears from the text.

>>> explain_game({"game": "demo", "players": 2, "phases": [{"deal": {"each": 3}}],
...               "match": {"end": "max(score) >= 10"}})[:2]
['demo', '====']
"""

from __future__ import annotations

from typing import Callable

from rulelang.deck import named_packs
from rulelang.diagnostics import RuleError
from rulelang.expr import PRECEDENCE, Expr, parse_expr
from rulelang.reading import Reader

Lines = list[str]

# ---------------------------------------------------------------------- small helpers
def _plain(value) -> str:
    """A document value as short text: lists joined with commas, mappings as key value pairs."""
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _rest(body: dict, known: set) -> Lines:
    """Lines for the keys of ``body`` that the renderer does not know (so nothing is lost)."""
    return [f"({key}: {_plain(value)})" for key, value in body.items() if key not in known]


def _sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _count(value, noun: str, ctx: "Context") -> str:
    """``value`` with ``noun`` in the singular or plural: "1 card", "3 cards", "first_packet (3) cards"."""
    return f"{ctx.say(value)} {noun}" + ("" if value == 1 else "s")


class Context:
    """What the renderers share: the document, the expression reader, the direction of play."""

    def __init__(self, data: dict, base: str | None = None):
        self.data, self.base = data, base
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
    passes = "to the next player" if step == 1 else f"{_count(step, 'seat', ctx)} on"
    lines = [f"{data.get('players', '?')} players; dealing, bidding and play go {ctx.direction}.",
             f"The first dealer is {first_text}; after each deal the deal passes {passes}.",
             "Forehand is the dealer himself." if forehand == 0 else "Forehand is the player after the dealer."
             if forehand == 1 else f"Forehand is the player {_count(forehand, 'seat', ctx)} after the dealer."]
    return _titled("The table", lines + _rest(seating, {"first_dealer", "next_dealer", "forehand"}))


def effective_deck(data: dict) -> dict:
    """The ``deck`` section with its named pack's keys filled in (the rule file's own keys win)."""
    spec = dict(data.get("deck") or {})
    pack = named_packs().get(spec.get("pack")) if spec.get("pack") else None
    return {**(pack or {}), **spec}


def section_cards(ctx: Context) -> Lines:
    """The pack: suits, ranking, points, aliases, tags and removed cards."""
    deck = effective_deck(ctx.data)
    suits = deck.get("suits") or []
    size = sum(len(s.get("ranks") or deck.get("ranks") or []) for s in suits) - len(deck.get("remove") or [])
    pack = f" ({deck['pack']})" if deck.get("pack") else ""
    lines = [f"A pack of {size} cards{pack} in {len(suits)} suits: {', '.join(_suit(s) for s in suits)}."]
    if deck.get("ranks"):
        lines.append(f"Every suit ranks {' '.join(str(r) for r in deck['ranks'])}, high to low"
                     + (", unless it has its own ranks." if any(s.get("ranks") for s in suits) else "."))
    for suit in suits:
        if suit.get("ranks"):
            lines.append(f"{suit['name'].capitalize()} rank {' '.join(str(r) for r in suit['ranks'])}, high to low.")
    lines.append("Cards are named rank and suit letter (10H), or by rank alone where a suit says so.")
    lines += _deck_extras(ctx, deck)
    return _titled("The cards", lines + _rest(deck, {"pack", "suits", "ranks", "points", "aliases", "tags", "remove"}))


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
    return _titled("Parameters", [f"{k} = {_plain(v)}" for k, v in params.items()]) if params else []


def section_deal(ctx: Context) -> Lines:
    """The steps of one deal, numbered; identical steps in a row are told once ("2–3. …, twice")."""
    steps, dealt = [], False
    for entry in ctx.data.get("phases") or []:
        kind, body = next(iter(entry.items()))
        body = body if isinstance(body, dict) else {"value": body} if body != "rest" else {}
        render = PHASES.get(kind, phase_unknown)
        text = render(ctx, body, kind, dealt)
        if body.get("when") is not None:
            text[0] = f"only if {ctx.say(body['when'])}: {text[0][:1].lower()}{text[0][1:]}"
        steps.append(text)
        dealt = dealt or kind in ("deal", "piles")
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
    lines.append("  The bidder plays alone against all others." if sides == "alone"
                 else "  The bidder and the holder of the called card play against the others.")
    if row.get("items") is not None:
        lines.append(f"  Only these count: {', '.join(str(i) for i in row['items'])}.")
    if row.get("bonus_factor") not in (None, 1):
        lines.append(f"  Every bonus counts {row['bonus_factor']} times.")
    if row.get("tricks"):
        lines.extend("  " + _sentence(t) for t in trick_rule_lines(ctx, row["tricks"]))
    known = {"title", "rank", "value", "allow", "calls", "sides", "items", "bonus_factor", "tricks"}
    return lines + ["  " + t for t in _rest(row, known)]


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
    return [line for line in lines if line] + ["  " + t for t in _rest(item, known)]


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
        lines.append(f"The counter {name} starts at {start}{after}.")
    lines.append(f"After each deal the match ends when {ctx.say(match.get('end', True))}.")
    winner = match.get("winner", "highest")
    lines.append(f"The player with the {winner} score wins.")
    tie = match.get("tie", "play_on")
    lines.append("If several share it, they play on until one has it alone." if tie == "play_on"
                 else "If several share it, they share the win.")
    known = {"start", "exact", "counters", "after_deal", "end", "winner", "tie"}
    return _titled("The end of the match", lines + _rest(match, known))


def section_notes(ctx: Context) -> Lines:
    """Readings and known gaps, in the rule file's own words."""
    about = ctx.data.get("about") or {}
    extra = _rest(about, {"source", "summary", "deviations"})
    text = [str(about["deviations"])] if about.get("deviations") else []
    return _titled("Readings and known gaps", text + extra) if text or extra else []


def _titled(title: str, lines: Lines) -> Lines:
    return ["", title, "-" * len(title), *lines]


# ---------------------------------------------------------------------- phases
def phase_deal(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``deal {each: N}``."""
    return [f"Deal every player {_count(body.get('each', 1), 'card', ctx)}, one packet each, starting with "
            f"forehand and going {ctx.direction}"] + _rest(body, {"each", "when"})


def phase_talon(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``talon: rest``."""
    return ["The undealt cards go face down to the talon"] + _rest(body, {"when"})


def phase_choose(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``choose {var, by, from}``."""
    source = body.get("from")
    if source == "suits":
        suits = [str(s.get("name")) for s in effective_deck(ctx.data).get("suits") or []]
        options = f"one of the suits ({', '.join(suits)})"
    else:
        options = "one of " + ", ".join(str(o) for o in source or [])
    when = "" if dealt else ", before any card is dealt"
    return [f"{ctx.say(body.get('by'))} chooses {body.get('var')}: {options}{when}"] + \
        _rest(body, {"var", "by", "from", "when"})


def phase_exchange(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``exchange {from, max}``."""
    most = body.get("max", 0)
    if ctx.reader.params.get(most, most) == 0:
        return [f"No exchange: a player may exchange at most {ctx.say(most)} cards"] + \
            _rest(body, {"from", "max", "when"})
    return [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in may "
            f"discard up to {_count(body.get('max', 0), 'card', ctx)}, out of play, and draw as many from the talon",
            "When the talon runs short, a player may exchange at most the cards left"] + \
        _rest(body, {"from", "max", "when"})


def phase_decide(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``decide {options, from, leave, forbid}``."""
    options = [str(o) for o in body.get("options") or []]
    lines = [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in says "
             f"{' or '.join(options)}"]
    if body.get("leave"):
        lines.append(f"A player who says {body['leave']} drops out: he takes no part in the rest of this deal")
    for option, cond in (body.get("forbid") or {}).items():
        lines.append(f"Nobody may say {option} when {ctx.say(cond)}")
    lines.append("A player with only one option left takes it without being asked")
    return lines + _rest(body, {"options", "from", "leave", "forbid", "when"})


FOLLOW_WORDS = {"led_suit": "a card of the suit led", "trump": "a trump", "any": "any card"}


def _card_set(ctx: Context, text) -> str:
    """A set of cards a player must play from, as "a card of …" (``any - X``: "a card that is not X")."""
    words = FOLLOW_WORDS.get(str(text))
    if words:
        return words
    expr = _parsed(text)
    if expr is not None and expr.op == "-" and expr.args[0].op == "name" and expr.args[0].value == "any":
        return f"a card that is not {ctx.reader.node(expr.args[1], PRECEDENCE['-'] + 1)}"
    return f"a card of {ctx.say(text)}"


def _parsed(text) -> Expr | None:
    try:
        return parse_expr(str(text))
    except RuleError:
        return None


def trick_rule_lines(ctx: Context, body: dict) -> Lines:
    """How tricks are led, followed, headed and won (shared by tricks phases and contracts)."""
    lines = []
    if body.get("lead") is not None:
        lines.append(f"{ctx.say(body['lead'])} leads to the first trick; the winner of each trick leads to the next")
    if body.get("lead_from"):
        lines.append("The leader must lead " + ", else ".join(_card_set(ctx, s) for s in body["lead_from"]))
    if body.get("follow"):
        lines.append("The others must play " + "; if unable, ".join(_card_set(ctx, s) for s in body["follow"]))
    if body.get("head"):
        lines.append("A player must also beat the best card so far if he can (Stichzwang)")
    if body.get("win"):
        lines.append("The trick goes to " + "; if there is none, to ".join(_win_rule(ctx, r) for r in body["win"]))
    return lines


def _win_rule(ctx: Context, rule) -> str:
    if isinstance(rule, dict) and "card" in rule:
        when = f" when {ctx.say(rule['when'])}" if rule.get("when") is not None else ""
        return f"{ctx.say(rule['card'])}{when}"
    if isinstance(rule, dict) and "highest" in rule:
        target = {"trump": "trump", "led_suit": "card of the suit led"}.get(str(rule["highest"]))
        return f"the highest {target or 'card of ' + ctx.say(rule['highest'])}"
    return _plain(rule)


def phase_tricks(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``tricks {among, lead, follow, win, alone, head, lead_from}``."""
    lines = [f"Trick play among {ctx.say(body.get('among', 'seats'))}"] + trick_rule_lines(ctx, body)
    if body.get("alone") == "takes_all":
        lines.append("If only one player is left in, he is credited with every trick without play")
    known = {"among", "lead", "lead_from", "follow", "head", "win", "alone", "when"}
    return lines + _rest(body, known)


def phase_score(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``score {let, each, add}``."""
    local = set(body.get("let") or {})
    who = "every player" if body.get("each") == "seats" else f"each of {ctx.say(body.get('each'))}"
    lines = [f"Scoring: {who} adds to his score {ctx.say(body.get('add'), local)}"]
    for name, value in (body.get("let") or {}).items():
        lines.append(f"here {name} means {ctx.say(value, local)}")
    return lines + _rest(body, {"let", "each", "add", "when"})


def phase_set(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``set {var, value}``."""
    return [f"{body.get('var')} is set to {ctx.say(body.get('value'))}"] + _rest(body, {"var", "value", "when"})


def phase_piles(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``piles {count, from}``: dealing by knocking."""
    return [f"The cards are laid out in {ctx.say(body.get('count', 4))} face-down piles; starting with "
            f"{ctx.say(body.get('from'))} each player takes one, and the last player takes the last pile"] + \
        _rest(body, {"count", "from", "when"})


def _for_a_player(condition: str) -> str:
    """A condition on "the player" said of any one player: "a player holds no tarock"."""
    return condition.replace("the player", "a player", 1) if "the player" in condition else \
        f"{condition} for some player"


def _as_he(condition: str) -> str:
    """A condition on "the player" after "a player … if": "he holds exactly one tarock"."""
    first = condition.replace("the player's", "his", 1) if condition.find("the player's") == \
        condition.find("the player") else condition.replace("the player", "he", 1)
    return first.replace("the player's", "his").replace("the player", "he")


def phase_throw_in(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``throw_in {must, may}``: a redeal by the same dealer."""
    lines = []
    if body.get("must") is not None:
        lines.append(f"If {_for_a_player(ctx.say(body['must']))}, the cards are thrown in and the same "
                     "dealer deals again; the deal does not count")
    if body.get("may") is not None:
        lines.append(f"A player may throw the cards in the same way if {_as_he(ctx.say(body['may']))}")
    return (lines or ["Throw-in"]) + _rest(body, {"must", "may", "when"})


def phase_auction(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``auction {from, pass, for, against, doubling}``."""
    doubling = ", ".join(str(d) for d in body.get("doubling") or [])
    lines = [f"Auction, starting with {ctx.say(body.get('from'))}: players bid the contracts below (a bid must "
             "outrank the one before), and the first speaker must bid",
             f"Then players announce items for ({body.get('for', 'for')}) or against "
             f"({body.get('against', 'against')}) the declaring side"]
    if doubling:
        lines.append(f"Each announcement can be doubled in turn: {doubling}, each step twice the value")
    lines.append(f"'{body.get('pass', 'pass')}' passes; the auction ends when every player in a row has passed")
    return lines + _rest(body, {"from", "pass", "for", "against", "doubling", "when"})


def phase_settle(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """``settle {pattern, multiplier}``."""
    lines = ["Settlement: every item that counts is scored for the side that achieved it; each defender pays "
             "the net to the declaring side, which shares it"]
    if body.get("multiplier") is not None:
        lines.append(f"The whole settlement is multiplied by {ctx.say(body['multiplier'])}")
    return lines + _rest(body, {"pattern", "multiplier", "when"})


def phase_unknown(ctx: Context, body: dict, kind: str, dealt: bool) -> Lines:
    """A phase kind this module does not know: its keys as written."""
    return [f"{kind}: {_plain(body)}" if body else kind]


PHASES: dict[str, Callable[[Context, dict, str, bool], Lines]] = {
    "deal": phase_deal, "talon": phase_talon, "choose": phase_choose, "exchange": phase_exchange,
    "decide": phase_decide, "tricks": phase_tricks, "score": phase_score, "set": phase_set, "piles": phase_piles,
    "throw_in": phase_throw_in, "auction": phase_auction, "settle": phase_settle,
}

SECTIONS: list[Callable[[Context], Lines]] = [
    section_header, section_table, section_cards, section_params, section_deal, section_contracts, section_items,
    section_match, section_notes,
]


def explain_game(data: dict, base: str | None = None) -> Lines:
    """The resolved rule document ``data`` in plain English, as lines of text; ``base`` names what it extends."""
    ctx = Context(data, base)
    lines: Lines = []
    for section in SECTIONS:
        lines.extend(section(ctx))
    return lines
