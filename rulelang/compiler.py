"""Compile a resolved, schema-checked document into a :class:`~rulelang.ir.GameDef`.

Names are resolved and expressions typed here; every problem becomes a located
diagnostic, collected before the stage stops.
"""

from __future__ import annotations

import hashlib
import json

from rulelang import ir
from rulelang.deck import build_deck
from rulelang.diagnostics import Diagnostic, Report, RuleError
from rulelang.document import Document
from rulelang.expr import parse_expr
from rulelang.exprcompile import (BOOL, CARDS, INT, NAME, SCORES, SEAT, SEATS, SUIT, Binding, Scope, compile_expr,
                                  const)
from rulelang.source import SOURCES, Span

DIRECTIONS = {"clockwise": 1, "anticlockwise": -1}


def compile_game(doc: Document) -> ir.GameDef:
    """Compile ``doc``; raises RuleError listing every problem found."""
    return _GameCompiler(doc).run()


def expr_origin(doc: Document, path: tuple) -> Span | None:
    """Where the text of the expression at ``path`` starts (after a YAML quote, if any)."""
    span = doc.span_of(path)
    if span is None:
        return None
    line = SOURCES.line(span.path, span.line) or ""
    if 0 < span.column <= len(line) and line[span.column - 1] in "\"'":
        return Span(span.path, span.line, span.column + 1)
    return span


class _GameCompiler:
    def __init__(self, doc: Document):
        self.doc, self.report = doc, Report()
        self.data = doc.data

    def error(self, code: str, message: str, path: tuple, hint: str) -> None:
        self.report.add(Diagnostic(code, message, self.doc.span_of(path), hint))

    def run(self) -> ir.GameDef:
        deck = self.deck = build_deck(self.doc)
        players = int(self.data.get("players", 4))
        step = DIRECTIONS.get(self.data.get("direction", "clockwise"), 1)
        symbols = self.collect_symbols(deck)
        self.scope = self.base_scope(deck, players, step)
        phases = [self.phase(i, entry) for i, entry in enumerate(self.data.get("phases") or [])]
        match = self.match_rules()
        self.report.raise_if_errors()
        seating = self.data.get("seating") or {}
        first = seating.get("first_dealer", "random")
        return ir.GameDef(
            name=str(self.data.get("game")), title=str(self.data.get("title") or self.data.get("game")),
            path=self.doc.path, digest=digest(self.data), players=players, step=step, deck=deck,
            first_dealer=None if first == "random" else int(first) - 1,
            next_dealer=int(seating.get("next_dealer", 1)), forehand_offset=int(seating.get("forehand", 1)),
            phases=phases, match=match, symbols=symbols, deal_vars=self.deal_vars,
            params=dict(self.data.get("params") or {}), document=self.data)

    def collect_symbols(self, deck) -> list[str]:
        names: list[str] = []
        self.deal_vars: dict[str, str] = {}
        for entry in self.data.get("phases") or []:
            kind, body = next(iter(entry.items()))
            if kind == "choose":
                chosen = body.get("from")
                options = [s.name for s in deck.suits] if chosen == "suits" else [str(o) for o in chosen or []]
                self.deal_vars[str(body.get("var"))] = SUIT if chosen == "suits" else NAME
                names.extend(options)
            elif kind == "decide":
                names.extend(str(o) for o in body.get("options") or [])
        names.append("done")
        return list(dict.fromkeys(names))

    def base_scope(self, deck, players: int, step: int) -> Scope:
        scope = Scope(cards=deck.lookup, card_suits=[c.suit for c in deck.cards], suit_masks=deck.suit_masks,
                      points=[c.points for c in deck.cards], players=players, step=step)
        names = scope.names
        for name, value in (self.data.get("params") or {}).items():
            names[name] = const(BOOL if isinstance(value, bool) else INT if isinstance(value, int) else NAME, value)
        for i, suit in enumerate(deck.suits):
            names[suit.name] = const(SUIT, i)
        for tag, mask in deck.tags.items():
            names[tag] = const(CARDS, mask)
        for symbol in self.symbols_of_options():
            names.setdefault(symbol, const(NAME, symbol))
        for var, type_ in self.deal_vars.items():
            names[var] = Binding(type_, lambda st, pl, v=var: st.vars[v])
        names.update(
            dealer=Binding(SEAT, lambda st, pl: st.dealer), forehand=Binding(SEAT, lambda st, pl: st.forehand),
            active=Binding(SEATS, lambda st, pl: st.active), seats=const(SEATS, (1 << players) - 1),
            players=const(INT, players), score=Binding(SCORES, lambda st, pl: st.scores),
            deal_number=Binding(INT, lambda st, pl: st.deal_number))
        return scope

    def symbols_of_options(self):
        for entry in self.data.get("phases") or []:
            kind, body = next(iter(entry.items()))
            if kind in ("choose", "decide") and isinstance(body.get("options", body.get("from")), list):
                yield from (str(o) for o in body.get("options", body.get("from")))

    def rule(self, path: tuple, want, scope: Scope | None = None) -> ir.Rule:
        return self.typed_rule(path, want, scope)[0]

    def typed_rule(self, path: tuple, want, scope: Scope | None = None) -> tuple[ir.Rule, str]:
        text = self.doc.get(path)
        origin = expr_origin(self.doc, path)
        try:
            compiled = compile_expr(parse_expr(str(text), origin), scope or self.scope, origin, want)
        except RuleError as exc:
            self.report.extend(exc.diagnostics)
            return ir.Rule(lambda st, pl: None, str(text), origin), INT
        return ir.Rule(compiled.fn, str(text), origin), compiled.type

    def number(self, path: tuple, default: int) -> int:
        value = self.doc.get(path, default)
        if isinstance(value, bool) or not isinstance(value, int):
            rule = self.rule(path, INT)
            try:
                return int(rule.fn(None, None))
            except (TypeError, AttributeError, KeyError):
                self.error("N217", "this number must be known before the game starts", path,
                           "use a whole number or a param")
                return default
        return value

    def phase(self, index: int, entry: dict):
        kind, body = next(iter(entry.items()))
        path = ("phases", index, kind)
        span = self.doc.span_of(("phases", index))
        builder = getattr(self, "phase_" + kind, None)
        if builder is None:
            self.error("R303", f"unknown phase kind '{kind}'", path, "see docs/language.md, Phases")
            return None
        return builder(path, body or {}, span)

    def phase_deal(self, path, body, span):
        return ir.DealPhase(self.number(path + ("each",), 1), span)

    def phase_talon(self, path, body, span):
        return ir.TalonPhase(span)

    def phase_choose(self, path, body, span):
        var = str(body.get("var"))
        by = self.rule(path + ("by",), SEAT)
        if body.get("from") == "suits":
            options = [s.name for s in self.deck.suits]
            values = list(range(len(options)))
        else:
            options = [str(o) for o in body.get("from") or []]
            values = list(options)
        if not options:
            self.error("R304", f"`choose {var}` has nothing to choose from", path, "give `from: suits` or a list")
        return ir.ChoosePhase(var, by, options, values, span)

    def phase_exchange(self, path, body, span):
        return ir.ExchangePhase(self.rule(path + ("from",), SEAT), self.number(path + ("max",), 0), span)

    def phase_decide(self, path, body, span):
        options = [str(o) for o in body.get("options") or []]
        leave = body.get("leave")
        if leave is not None and str(leave) not in options:
            self.error("N208", f"`leave: {leave}` is not one of the options {', '.join(options)}", path + ("leave",),
                       "name the option that takes a seat out of the deal")
        player_scope = self.scope.child(player=Binding(SEAT, lambda st, pl: pl))
        forbid = {}
        for option in body.get("forbid") or {}:
            if str(option) not in options:
                self.error("N208", f"`forbid {option}`: '{option}' is not one of the options", path + ("forbid", option),
                           f"the options are {', '.join(options)}")
            forbid[str(option)] = self.rule(path + ("forbid", option), BOOL, player_scope)
        return ir.DecidePhase(options, self.rule(path + ("from",), SEAT), leave and str(leave), forbid, span)

    def phase_tricks(self, path, body, span):
        trick_scope = self.scope.child(
            led_suit=Binding(SUIT, lambda st, pl: st.led_suit), trick=Binding(CARDS, lambda st, pl: st.trick_mask),
            any=const(CARDS, (1 << len(self.scope.card_suits)) - 1), player=Binding(SEAT, lambda st, pl: pl))
        follow = [self.rule(path + ("follow", i), CARDS, trick_scope) for i in range(len(body.get("follow") or []))]
        win = []
        for i, entry in enumerate(body.get("win") or []):
            win.append(ir.WinRule(self.rule(path + ("win", i, "highest"), CARDS, trick_scope)))
        alone = str(body.get("alone", "play"))
        return ir.TricksPhase(self.rule(path + ("among",), SEATS), self.rule(path + ("lead",), SEAT), follow, win,
                              alone, span)

    def phase_score(self, path, body, span):
        scope = self.scope.child(player=Binding(SEAT, lambda st, pl: pl))
        for name in body.get("let") or {}:
            rule, type_ = self.typed_rule(path + ("let", name), None, scope)
            scope = scope.child(**{name: Binding(type_, rule.fn)})
        return ir.ScorePhase(self.rule(path + ("each",), SEATS), self.rule(path + ("add",), INT, scope), span)

    def match_rules(self) -> ir.MatchRules:
        body = self.data.get("match") or {}
        end = self.rule(("match", "end"), BOOL) if "end" in body else ir.Rule(lambda st, pl: True, "true", None)
        return ir.MatchRules(self.number(("match", "start"), 0), end, str(body.get("winner", "highest")),
                             str(body.get("tie", "play_on")))


def digest(data: dict) -> str:
    """A stable hash of a document's content (the rules a log was played under)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
