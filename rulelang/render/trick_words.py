"""The English and ``fmt`` text of trick rules, shared by ``tricks`` phases and contracts' own trick rules."""

from __future__ import annotations

from rulelang.constructs.base import Lines
from rulelang.render.words import plain, win_text

FOLLOW_WORDS = {"led_suit": "a card of the suit led", "trump": "a trump", "any": "any card"}


def _card_set(ctx, text) -> str:
    """A set of cards a player must play from, as "a card of …" (``any - X``: "a card that is not X")."""
    from rulelang.diagnostics import RuleError
    from rulelang.read.expr import PRECEDENCE, parse_expr
    words = FOLLOW_WORDS.get(str(text))
    if words:
        return words
    try:
        expr = parse_expr(str(text))
    except RuleError:
        expr = None
    if expr is not None and expr.op == "-" and expr.args[0].op == "name" and expr.args[0].value == "any":
        return f"a card that is not {ctx.reader.node(expr.args[1], PRECEDENCE['-'] + 1)}"
    return f"a card of {ctx.say(text)}"


def trick_rule_lines(ctx, body: dict) -> Lines:
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
    for word, spec in (body.get("calls") or {}).items():
        lines.append(call_line(ctx, word, spec if isinstance(spec, dict) else {}))
    lines += end_words(ctx, body)
    if (ctx.data.get("deck") or {}).get("copies", 1) != 1 or body.get("later_copy_wins") is not None:
        later = body.get("later_copy_wins")
        exception = f"; the one played later wins for the cards of {ctx.say(later)}" if later not in (None, "none") else ""
        lines.append("Of two equal cards in a trick the first played wins" + exception)
    return lines


def call_line(ctx, word, spec: dict) -> str:
    """One call of trick play in words: who says it, when and how often, its value and what it does."""
    side = spec.get("side", "declarers")
    who = "any player" if side == "any" else f"a player of the {side}"
    often = "once a trick" if spec.get("once") == "trick" else "once a deal"
    value = spec.get("value")
    named = {"suits": " naming a suit", "seats": " naming a player", "cards": " naming a card"}.get(value, "") if isinstance(value, str) else \
        f" naming a number from {value[0]} to {value[1]}" if isinstance(value, list) and len(value) == 2 else ""
    stored = f" (kept as {spec['var']})" if named and spec.get("var") else ""
    when = f" while {ctx.say(spec['allow'])}" if spec.get("allow") is not None else ""
    text = f"On his turn, before he plays, {who} may say {word}{named}{stored} {often}{when}; everyone hears it"
    if spec.get("swap_turned") is not None:
        text += f"; he exchanges {ctx.say(spec['swap_turned'])} of his hand for the card turned up for trumps"
    if spec.get("shows_aside"):
        text += "; the cards laid aside face down are shown to everyone and go back to their owner's hand"
    if spec.get("ends"):
        text += "; trick play ends at once when it is said (the cards still held are not played)"
    return text


def _win_rule(ctx, rule) -> str:
    if isinstance(rule, dict) and "card" in rule:
        when = f" when {ctx.say(rule['when'])}" if rule.get("when") is not None else ""
        return f"{ctx.say(rule['card'])}{when}"
    if isinstance(rule, dict) and "highest" in rule:
        target = {"trump": "trump", "led_suit": "card of the suit led"}.get(str(rule["highest"]))
        order = f" (ranked {' '.join(str(r) for r in rule['order'])})" if isinstance(rule.get("order"), list) else ""
        return f"the highest {target or 'card of ' + ctx.say(rule['highest'])}{order}"
    return plain(rule)


def win_words(rule) -> str:
    return win_text(rule)


def fmt_win(value, pad, mapping) -> Lines | None:
    from rulelang.render.fmt import expr_text
    if not isinstance(value, list) or not value:
        return None
    rules = [expr_text(rule["highest"]) if isinstance(rule, dict) and list(rule) == ["highest"] else None
             for rule in value]
    return None if None in rules else [f"{pad}win " + ", ".join(f"highest {r}" for r in rules)]


def end_words(ctx, body: dict) -> list[str]:
    """``free``, ``kept``, ``gift``, ``draw`` and ``ends_when`` in words, for ``rulelang explain``."""
    lines = []
    if body.get("free") is not None:
        lines.append(f"A card of {ctx.say(body['free'])} may be played at any turn instead of the card the rules ask "
                     "for, and holding it does not oblige its holder to play it")
    if body.get("kept") is not None:
        lines.append(f"A card of {ctx.say(body['kept'])} goes to the pile of the player who played it, not to the "
                     "trick's winner")
    if body.get("gift") is not None:
        lines.append("Once a trick is given, its winner receives cards of the talon, drawn at random and shown to "
                     f"everyone, into his pile: as many as {ctx.say(body['gift'])}")
    if isinstance(body.get("draw"), dict):
        lines += draw_words(ctx, body["draw"])
    if isinstance(body.get("melds"), dict):
        lines.append("Combinations in a trick score for the player who wins it: " +
                     "; ".join(meld_kind_words(name, kind) for name, kind in body["melds"].items()
                               if isinstance(kind, dict)))
    if body.get("ends_when") is None:
        return lines
    return lines + [f"Trick play ends early, after the first trick at which {ctx.say(body['ends_when'])}: the cards "
            "still held are not played"]


def draw_words(ctx, spec: dict) -> list[str]:
    """``draw`` in words, for ``rulelang explain``."""
    each = spec.get("each", 1)
    count = "a card" if each in (1, "1") else f"{ctx.say(each)} cards"
    lines = [f"Once a trick is given, each player draws {count} from the stock, the winner first, while it lasts; "
             "a card drawn is seen by its drawer alone"]
    if spec.get("last") == "turned":
        lines.append("The card turned up for trumps is the stock's last card: it is drawn face up")
    if spec.get("shown") == "top":
        lines.append("The stock's top card lies face up: the trick's winner takes it, and the next is turned up")
    return lines


def meld_kind_words(name: str, kind: dict) -> str:
    """One kind of meld in words (a ``meld`` phase's ``kinds``, trick rules' ``melds``)."""
    if "run" in kind:
        points = kind.get("points")
        listed = points if isinstance(points, list) else [points]
        worth = ", ".join(f"{int(kind['run']) + i}{'+' if i == len(listed) - 1 else ''} cards {p}"
                          for i, p in enumerate(listed))
        order = f" in the order {' '.join(str(r) for r in kind['order'])}" if isinstance(kind.get("order"), list) else ""
        return f"{name}, a run of {kind['run']} or more cards of one suit{order} ({worth})"
    if "same_rank" in kind:
        worth = ", ".join(f"{rank} {points}" for rank, points in (kind.get("same_rank") or {}).items())
        return f"{name}, one card of a rank in every suit ({worth})"
    each = " in any suit" if kind.get("each") == "suits" else ""
    return f"{name}, the cards {kind.get('cards')}{each} ({kind.get('points')})"
