"""How tricks are led, followed and won, compiled: the trick rules of a ``tricks`` phase or of a contract
(:class:`TrickRules`) and the two generated functions per rule set — the cards a seat may play, and the
card that wins the trick on the table. Kept apart from :mod:`rulelang.constructs.tricks`, which runs them."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from rulelang.compile.codegen import binop, call, compare, literal, part_attr, state_attr
from rulelang.compile.codegen import name as read
from rulelang.compile.exprcompile import BOOL, CARD, CARDS, INT, PLAYER_CODE, SEAT, SUIT, Binding, const, unavailable
from rulelang.compile.ir import Rule
from rulelang.compile.meld_kinds import compile_kinds, rank_names
from rulelang.constructs import trick_draw
from rulelang.constructs.trick_calls import compile_calls

@dataclass
class WinRule:
    """One rule of the trick winner: the highest card of the trick within ``cards``, or the named
    ``card`` when ``when`` holds (a special winner, e.g. one card that takes any trick holding two given others)."""

    cards: Rule | None = None
    card: Rule | None = None
    when: Rule | None = None
    text: str = ""
    order: tuple = ()          # (rank key, card) per card when the rule ranks by its own order of ranks


@dataclass
class TrickRules:
    """How tricks are led, followed and won; a contract may have its own.

    ``allowed(st, seat)`` is the compiled whole of ``lead_from`` and ``follow``: the cards the
    seat may play before the trick must be headed; ``winner(st, None)`` the compiled whole of
    ``win``: the card that wins the trick on the table, -1 when no rule applies."""

    lead_from: list[Rule]
    follow: list[Rule]
    win: list[WinRule]
    head: bool = False
    allowed: Rule | None = None
    winner: Rule | None = None
    later_copy_wins: Rule | None = None
    calls: tuple = ()
    ends_when: Rule | None = None
    kept: Rule | None = None
    gift: Rule | None = None
    free: Rule | None = None
    draw: trick_draw.DrawRule | None = None
    melds: tuple = ()          # kinds of combination scored in a trick for its winner (trick_melds)



# ---------------------------------------------------------------------- compilation
def trick_scope(c):
    """Names of trick rules: ``led_suit``, ``led_card``, ``trick``, ``any`` and ``player``."""
    trick = part_attr("tricks", "trick")
    led_card = ast.IfExp(trick, ast.Subscript(ast.Subscript(trick, literal(0), ast.Load()), literal(1), ast.Load()),
                         literal(-1))
    return c.scope.child(
        led_suit=Binding(SUIT, part_attr("tricks", "led_suit")), led_card=Binding(CARD, led_card),
        trick=Binding(CARDS, part_attr("tricks", "trick_mask")),
        any=const(CARDS, (1 << len(c.scope.card_suits)) - 1), player=Binding(SEAT, PLAYER_CODE))


def win_scope(scope):
    """The names of the win rules: those of trick rules but the ones that ask who wins the trick, which the win
    rules decide (reading them there would ask the question of itself)."""
    where = ("in trick rules other than `win` and `later_copy_wins`, and after trick play",
             "the win rules decide who wins: say which cards win with `highest CARDS` in order")
    marked = {name: unavailable(*where) for name in ("winning_now", "winner_now", "beats")
              if name not in scope.defines and (name == "beats" and name not in scope.names
                                                or _built_in(scope.names.get(name), name))}
    return scope.child(**marked)


def _built_in(binding, name: str) -> bool:
    """Whether ``binding`` is the language's own ``name`` (``_winning_now(st)``), not a name of the file's."""
    code = getattr(binding, "code", None)
    return isinstance(code, ast.Call) and getattr(code.func, "id", None) == f"_{name}"


def trick_rules(c, path, body, base: TrickRules | None = None) -> TrickRules:
    """How tricks go, from ``body``; keys it lacks come from ``base``."""
    scope = trick_scope(c)

    def rules(key):
        return [c.rule(path + (key, i), CARDS, scope) for i in range(len(body.get(key) or []))]
    lead_from = rules("lead_from") if "lead_from" in body else (base.lead_from if base else [])
    follow = rules("follow") if "follow" in body else (base.follow if base else [])
    deciding = win_scope(scope)
    win = [win_rule(c, path + ("win", i), e, deciding) for i, e in enumerate(body.get("win") or [])] \
        if "win" in body else (base.win if base else [])
    head = bool(body.get("head", base.head if base else False))
    later = c.optional_rule(path + ("later_copy_wins",), CARDS, deciding) if "later_copy_wins" in body else \
        (base.later_copy_wins if base else None)
    calls = compile_calls(c, path, body, scope) if "calls" in body else (base.calls if base else ())
    ends = c.optional_rule(path + ("ends_when",), BOOL) if "ends_when" in body else (base.ends_when if base else None)
    kept = c.optional_rule(path + ("kept",), CARDS) if "kept" in body else (base.kept if base else None)
    gift = c.optional_rule(path + ("gift",), INT) if "gift" in body else (base.gift if base else None)
    free = c.optional_rule(path + ("free",), CARDS, scope) if "free" in body else (base.free if base else None)
    draw = trick_draw.compile_draw(c, path, body) if "draw" in body else (base.draw if base else None)
    melds = compile_kinds(c, path + ("melds",), body["melds"]) if "melds" in body else (base.melds if base else ())
    return TrickRules(lead_from, follow, win, head, allowed_cards(c, lead_from, follow, free),
                      winning_card(c, win, later), later, calls, ends, kept, gift, free, draw, melds)


def allowed_cards(c, lead_from: list, follow: list, free: Rule | None = None) -> Rule:
    """One function for the cards a seat may play before heading: the first of its fallbacks it can,
    ``follow`` when a trick is on the table, ``lead_from`` when it leads, else any card in hand; with
    ``free``, the fallbacks are met from the hand without those cards, which may be played besides."""
    everything = (1 << len(c.scope.card_suits)) - 1
    on_table = part_attr("tricks", "trick")

    def fallbacks(rules):
        body = []
        for rule in rules:
            code = c.scope.module.code_of(rule)
            if isinstance(code, ast.Constant) and code.value == everything:
                break
            body += [ast.Assign([ast.Name("_allowed", ast.Store())], binop(read("_hand"), ast.BitAnd(), code)),
                     ast.If(read("_allowed"), [ast.Return(with_free(read("_allowed")))], [])]
        return body

    def with_free(node):
        return binop(node, ast.BitOr(), read("_free")) if free is not None else node
    texts = "; ".join(f"follow {r.text}" for r in follow) + "".join(f"; lead {r.text}" for r in lead_from) + \
        (f"; free {free.text}" if free is not None else "")
    rule = Rule(None, texts or "any card", (follow or lead_from or [Rule(None, "", None)])[0].span)
    when_following, when_leading = fallbacks(follow), fallbacks(lead_from)
    choice = [ast.If(on_table, when_following, when_leading)] if when_following and when_leading else \
        [ast.If(on_table, when_following, [])] if when_following else \
        [ast.If(ast.UnaryOp(ast.Not(), on_table), when_leading, [])] if when_leading else []
    hand = ast.Subscript(state_attr("hands"), PLAYER_CODE, ast.Load())
    if free is None:
        body = [ast.Assign([ast.Name("_hand", ast.Store())], hand)]
    else:
        held = ast.Subscript(state_attr("hands"), PLAYER_CODE, ast.Load())
        body = [ast.Assign([ast.Name("_free", ast.Store())], binop(held, ast.BitAnd(), c.scope.module.code_of(free))),
                ast.Assign([ast.Name("_hand", ast.Store())], binop(hand, ast.BitXor(), read("_free")))]
    body += [*choice, ast.Return(with_free(read("_hand")))]
    c.scope.module.statements(body, rule)
    return rule


def winning_card(c, win: list, later: Rule | None = None) -> Rule:
    """One function for the card that wins the trick on the table: the first win rule that applies, or -1.

    In a pack with copies, of two copies of the best card the first played wins, or the later one
    for the cards of ``later`` (``later_copy_wins``)."""
    module, mask = c.scope.module, read("_mask")
    by_suit = c.scope.table(tuple(c.scope.suit_masks[s] for s in c.scope.card_suits))
    order = c.scope.table(tuple(order for order, _ in c.scope.card_order))
    body = [ast.Assign([ast.Name("_mask", ast.Store())], part_attr("tricks", "trick_mask"))]
    for rule in win:
        if rule.card is not None:
            body += _special_winner(rule, module, mask)
            continue
        best = call("_highest", c.scope.table(rule.order), read("_within")) if rule.order else \
            call("_best", read("_within"), by_suit, order)
        if c.scope.twins:
            best = call("_copy_winner", part_attr("tricks", "trick"), best, c.scope.table(c.scope.twins),
                        module.code_of(later) if later is not None else literal(0))
        body += [ast.Assign([ast.Name("_within", ast.Store())],
                            binop(module.code_of(rule.cards), ast.BitAnd(), read("_mask"))),
                 ast.If(read("_within"), [ast.Return(best)], [])]
    anchor = next((r.card or r.cards for r in win), None)
    rule = Rule(None, "; ".join(r.text for r in win) or "no win rule", anchor.span if anchor else None)
    module.statements(body + [ast.Return(literal(-1))], rule)
    return rule


def _special_winner(rule: WinRule, module, mask) -> list:
    """``card when COND``: the card wins when it is in the trick and the condition holds."""
    card = module.code_of(rule.card)
    when = [module.code_of(rule.when)] if rule.when is not None else []
    if isinstance(card, ast.Constant):
        if not isinstance(card.value, int) or card.value < 0:
            return []
        test = [compare(binop(mask, ast.BitAnd(), literal(1 << card.value)), ast.NotEq(), literal(0))] + when
        return [ast.If(ast.BoolOp(ast.And(), test) if len(test) > 1 else test[0], [ast.Return(card)], [])]
    test = [compare(read("_card"), ast.GtE(), literal(0)),
            binop(binop(mask, ast.RShift(), read("_card")), ast.BitAnd(), literal(1))] + when
    return [ast.Assign([ast.Name("_card", ast.Store())], card),
            ast.If(ast.BoolOp(ast.And(), test), [ast.Return(read("_card"))], [])]


def win_rule(c, path, entry, scope) -> WinRule:
    """One entry of ``win``: ``{highest: CARDS}`` or ``{card: CARD, when: COND}``."""
    if isinstance(entry, dict) and "card" in entry:
        return WinRule(card=c.rule(path + ("card",), CARD, scope), when=c.optional_rule(path + ("when",), BOOL, scope),
                       text=f"{entry['card']} when {entry.get('when', 'always')}")
    cards = c.rule(path + ("highest",), CARDS, scope)
    if isinstance(entry, dict) and entry.get("order") is not None:
        ranks = [str(r) for r in entry["order"]]
        return WinRule(cards=cards, text=f"highest {cards.text} by {' '.join(ranks)}",
                       order=rank_order(c, path + ("order",), ranks))
    return WinRule(cards=cards, text=f"highest {cards.text}")


def rank_order(c, path, ranks: list[str]) -> tuple:
    """Per card, its key in an order of ranks of the rule's own (high to low), and its number: ranks left out rank
    below those named, in the deck's order. A rank the deck lacks, or named twice, is R383."""
    rank_names(c, path, ranks, "the order", "R383")
    place = {rank: i for i, rank in enumerate(ranks)}
    return tuple((place.get(card.rank, len(ranks) + card.order), i) for i, card in enumerate(c.deck.cards))
