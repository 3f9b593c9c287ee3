"""Compile a resolved, schema-checked document into a :class:`~rulelang.compile.ir.GameDef`.

Names are resolved and expressions typed here; every problem becomes a located
diagnostic, collected before the stage stops. Phase builders live in
:mod:`rulelang.compile.phases`, contracts and scoring items in :mod:`rulelang.compile.items`.
"""

from __future__ import annotations

import hashlib
import json

from rulelang.compile import ir
from rulelang.compile.items import ItemsMixin
from rulelang.compile.phases import PhasesMixin
from rulelang.constructs import construct
from rulelang.compile.deck import build_deck
from rulelang.diagnostics import Diagnostic, Report, RuleError
from rulelang.read.document import Document, rekeyed
from rulelang.read.expr import definition_head, parse_expr, to_text
from rulelang.compile.definitions import Definition, Definitions, check_definitions, deep_enough
from rulelang.compile.evalcost import MAX_EVALUATION_COST
from rulelang.compile.quantifiers import numbers_binding, suits_binding
from rulelang.compile.codegen import CodeModule, call, literal, part_attr, state_attr, state_item
from rulelang.compile.exprcompile import (BOOL, CARD, CARDS, INT, MAX_INT, NAME, SCORES, SEAT, SEATS, SUIT, Binding,
                                  Compiled, EvalError, Scope, compile_expr, const)
from rulelang.compile.typed import PER_SEAT
from rulelang.read.source import SOURCES, Span

# Seats are numbered in the order of play (P1, then the next to play, …), so the next seat is
# always +1; ``direction`` only says which way round the table that order goes.
DIRECTIONS = {"clockwise": 1, "anticlockwise": 1}


def compile_game(doc: Document) -> ir.GameDef:
    """Compile ``doc``; raises RuleError listing every problem found."""
    with deep_enough():
        return GameCompiler(doc).run()


def expr_origin(doc: Document, path: tuple) -> Span | None:
    """Where the text of the expression at ``path`` starts (after a YAML quote, if any)."""
    span = doc.span_of(path)
    if span is None:
        return None
    line = SOURCES.line(span.path, span.line) or ""
    if 0 < span.column <= len(line) and line[span.column - 1] in "\"'":
        return Span(span.path, span.line, span.column + 1)
    return span


def _huge_numbers(data, path: tuple):
    """(path, value) of every whole number in the document beyond :data:`MAX_INT` either way."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _huge_numbers(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _huge_numbers(value, path + (index,))
    elif isinstance(data, int) and not isinstance(data, bool) and abs(data) > MAX_INT:
        yield path, data


def _short(value: int) -> str:
    """A number as a diagnostic shows it: whole when short, else its first and last digits and its length."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}…{text[-4:]} ({len(text.lstrip('-'))} digits)"


class GameCompiler(PhasesMixin, ItemsMixin):
    """Compiles one document; collects diagnostics in ``report``."""

    def __init__(self, doc: Document):
        self.doc, self.report = doc, Report()
        self.data = doc.data

    def error(self, code: str, message: str, path: tuple, hint: str) -> None:
        """Record a located error."""
        self.report.add(Diagnostic(code, message, self.doc.span_of(path), hint))

    def run(self) -> ir.GameDef:
        """Compile the whole document."""
        for path, value in _huge_numbers(self.data, ()):
            self.error("N215", f"the number {_short(value)} is too large", path, f"numbers are limited to {MAX_INT}")
        self.report.raise_if_errors()
        deck = self.deck = build_deck(self.doc)
        players = int(self.data.get("players", 4))
        step = DIRECTIONS.get(self.data.get("direction", "clockwise"), 1)
        symbols = self.collect_symbols(deck)
        teams = self.compile_teams(players)
        self.scope = self.base_scope(deck, players, step)
        self.scope.teams = teams
        contracts = self.compiled_contracts = self.compile_contracts()
        items = self.compiled_items = self.compile_items()
        phases = [self.phase(i, entry) for i, entry in enumerate(self.data.get("phases") or [])]
        match = self.match_rules()
        self.report.raise_if_errors()
        self.check_costs()
        self.scope.module.link()
        seating = self.data.get("seating") or {}
        first = seating.get("first_dealer", "random")
        return ir.GameDef(
            name=str(self.data.get("game")), title=str(self.data.get("title") or self.data.get("game")),
            path=self.doc.path, digest=digest(self.data), players=players, step=step, deck=deck,
            first_dealer=None if first == "random" else int(first) - 1,
            next_dealer=int(seating.get("next_dealer", 1)), forehand_offset=int(seating.get("forehand", 1)),
            phases=phases, match=match, symbols=symbols, deal_vars=self.deal_vars,
            params=dict(self.data.get("params") or {}), document=self.data, contracts=contracts, items=items,
            code=self.scope.module, teams=teams, contract_names=self.contract_names(contracts))

    def contract_names(self, contracts: dict) -> tuple:
        """Every name ``contract`` may hold: those under ``contracts``, then the contracts phases name
        themselves (a strain auction's misère, an all-pass contract)."""
        names = list(contracts)
        for _, kind, body in self.phase_entries():
            found = construct(kind) if isinstance(kind, str) else None
            names += [n for n in (found.named_contracts(body) if found is not None else []) if n not in names]
        return tuple(names)

    def check_costs(self) -> None:
        """N238 for a rule whose evaluation could pass through more than MAX_EVALUATION_COST steps (definitions
        that read definitions many times over); nothing is run."""
        costs = self.scope.module.costs(len(self.deck.cards))
        for rule in self.scope.module.pending:
            cost = costs.get(id(rule), 0)
            if cost > MAX_EVALUATION_COST:
                self.report.add(Diagnostic(
                    "N238", f"working out this rule could take {cost:,} steps; the limit is {MAX_EVALUATION_COST:,}",
                    rule.span, "a definition read several times in one rule is worked out each time it is read in "
                    "another branch or with other arguments: read it once (a `let`, or a definition of its own)"))
        self.report.raise_if_errors()

    def compile_teams(self, players: int) -> tuple:
        """Per seat, the mask of its team (``teams``: lists of seat numbers from 1); empty without teams."""
        teams = self.data.get("teams")
        if not teams:
            return ()
        of_seat: dict[int, tuple[int, int]] = {}
        for t, team in enumerate(teams):
            mask = 0
            for i, number in enumerate(team):
                if not 1 <= number <= players:
                    self.error("R307", f"team {t + 1} names seat {number}, but the table has seats 1 to {players}",
                               ("teams", t, i), f"number the seats from 1 to {players}")
                elif number in of_seat or mask >> (number - 1) & 1:
                    where = f"twice in team {t + 1}" if mask >> (number - 1) & 1 else \
                        f"in team {of_seat[number][0] + 1} and in team {t + 1}"
                    self.error("R308", f"seat {number} is {where}", ("teams", t, i), "put every seat in exactly one team")
                else:
                    mask |= 1 << (number - 1)
            for number in team:
                if 1 <= number <= players:
                    of_seat.setdefault(number, (t, mask))
        missing = [str(n) for n in range(1, players + 1) if n not in of_seat]
        if missing:
            self.error("R308", f"seat{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                       f"{'are' if len(missing) > 1 else 'is'} in no team", ("teams",),
                       "put every seat in exactly one team: a seat playing for itself is a team of one")
        return tuple(of_seat[n][1] if n in of_seat else 1 << (n - 1) for n in range(1, players + 1))

    def has_phase(self, kind: str) -> bool:
        """Whether a phase (or a step of one) of this kind is in the game."""
        return any(found == kind for _, found, _ in self.phase_entries())

    def phase_entries(self):
        """(index, kind, body) of every phase entry, the steps of a phase that runs steps (``turns``) included."""
        for i, entry in enumerate(self.data.get("phases") or []):
            kind, body = next(iter(entry.items()))
            body = body if isinstance(body, dict) else {}
            yield i, kind, body
            found = construct(kind) if isinstance(kind, str) else None
            for step in found.steps_of(body) if found is not None else ():
                if isinstance(step, dict) and len(step) == 1:
                    step_kind, step_body = next(iter(step.items()))
                    yield i, step_kind, step_body if isinstance(step_body, dict) else {}

    def collect_symbols(self, deck) -> list[str]:
        """Every decision name an action can stand for, and the deal variables with their types."""
        names: list[str] = []
        self.deal_vars: dict[str, str] = {}
        for _, kind, body in self.phase_entries():
            found = construct(kind) if isinstance(kind, str) else None
            if found is None:
                continue
            for var, type_ in found.deal_vars(self, body).items():
                if found.typed_later:
                    self.deal_vars.setdefault(var, type_)
                else:
                    self.deal_vars[var] = type_
            names.extend(found.symbols(self, body))
        names.append("done")
        return list(dict.fromkeys(names))

    def base_scope(self, deck, players: int, step: int) -> Scope:
        """The names every expression of the game can read."""
        scope = Scope(cards=deck.lookup, card_suits=[c.suit for c in deck.cards], suit_masks=deck.suit_masks,
                      points=[c.points for c in deck.cards], players=players, step=step,
                      card_order=[(c.order, i) for i, c in enumerate(deck.cards)], module=CodeModule(self.doc.path),
                      twins=tuple(deck.twins), card_spellings=deck.spellings)
        names = scope.names
        for name, value in (self.data.get("params") or {}).items():
            names[name] = const(BOOL if isinstance(value, bool) else INT if isinstance(value, int) else NAME, value)
        for i, suit in enumerate(deck.suits):
            names[suit.name] = const(SUIT, i)
        for alias, index in deck.suit_aliases.items():
            names.setdefault(alias, const(SUIT, index))
        names["any"] = const(CARDS, (1 << len(deck.cards)) - 1)
        for tag, mask in deck.tags.items():
            names[tag] = const(CARDS, mask)
        for symbol in self.option_names():
            names.setdefault(symbol, const(NAME, symbol))
        for var, type_ in self.deal_vars.items():
            names[var] = Binding(type_, state_item("vars", var))
        for counter, start in ((self.data.get("match") or {}).get("counters") or {}).items():
            kind = PER_SEAT if isinstance(start, dict) else INT
            names[counter] = Binding(kind, state_item("counters", str(counter)))
        names.update(_state_names(players))
        later = later_names(deck, players)
        for later_name, binding in later.items():
            names.setdefault(later_name, binding)
        scope.defines = self.definitions(names, later)
        scope.defines.base = scope
        return scope

    def definitions(self, names: dict, later: dict | None = None) -> Definitions:
        """The ``define`` entries, parsed and checked (:func:`~rulelang.compile.definitions.check_definitions`); a
        definition named like another name of the game, or whose key is no name with parameters, is an error."""
        from rulelang.compile.functions import FUNCTIONS, LATER_FUNCTIONS
        found: dict[str, Definition] = {}
        for key in self.data.get("define") or {}:
            path = ("define", key)
            head = definition_head(key)
            if head is None or len(set(head[1])) != len(head[1]):
                self.report.add(Diagnostic(
                    "N237", f"'{key}' is not a definition's name: write a name, or a name with its parameters "
                    "in brackets, each named once", self.doc.span_of(path),
                    "define lost = …, or define beats(a, b) = … (in YAML the key 'beats(a, b)')"))
                continue
            name, params = head
            if later and name in later and names.get(name) is later[name] or name in LATER_FUNCTIONS:
                names.pop(name, None)                # the file's own definition wins over a name added later
            elif name in names or params and name in FUNCTIONS:
                self.report.add(Diagnostic("N235", f"the definition '{name}' has the name of something the game "
                                           "already names (a param, suit, tag, option, variable or built-in name)",
                                           self.doc.span_of(path), "give the definition a name of its own"))
                continue
            if name in found:
                self.report.add(Diagnostic(
                    "N237", f"'{name}' is defined twice: as {found[name].head} and as {key}",
                    self.doc.span_of(path), f"define it once; a variant replaces it by writing the key as the "
                    f"base does ({found[name].head})"))
                continue
            origin = expr_origin(self.doc, path)
            try:
                found[name] = Definition(name, params, parse_expr(self.rule_text(path), origin), origin,
                                         self.doc.span_of(path))
            except RuleError as exc:
                self.report.extend(exc.diagnostics)
        self.report.extend(check_definitions(found))
        return Definitions(found)

    def option_names(self):
        """Option, contract and item names, usable as name constants in expressions."""
        for _, kind, body in list(self.phase_entries()):
            found = construct(kind) if isinstance(kind, str) else None
            if found is not None:
                yield from found.option_names(body)
        yield from (str(c) for c in self.data.get("contracts") or {})
        yield from (str(i) for i in self.data.get("items") or {})

    def rule(self, path: tuple, want, scope: Scope | None = None) -> ir.Rule:
        """The compiled expression at ``path``."""
        return self.typed_rule(path, want, scope)[0]

    def optional_rule(self, path: tuple, want, scope: Scope | None = None) -> ir.Rule | None:
        """The compiled expression at ``path``, or None if the key is absent."""
        return self.rule(path, want, scope) if self.doc.get(path) is not None else None

    def typed_rule(self, path: tuple, want, scope: Scope | None = None, lets: tuple = ()) -> tuple[ir.Rule, str]:
        """The compiled expression at ``path`` and its type; ``lets`` are worked out first (see ``phase_score``)."""
        compiled = self.expression(path, want, scope)
        rule = ir.Rule(_not_linked, self.rule_text(path), expr_origin(self.doc, path))
        if compiled is None:
            return rule, INT
        self.scope.module.function(compiled.code, rule, lets)
        return rule, compiled.type

    def rule_of(self, expr, want, scope: Scope | None, origin) -> ir.Rule | None:
        """The compiled rule of a parsed expression (a part of one written at ``origin``); None if it does not
        compile (its errors reported)."""
        try:
            compiled = compile_expr(expr, scope or self.scope, origin, want)
        except RuleError as exc:
            self.report.extend(exc.diagnostics)
            return None
        rule = ir.Rule(_not_linked, to_text(expr), origin)
        self.scope.module.function(compiled.code, rule, ())
        return rule

    def rule_text(self, path: tuple) -> str:
        """The text of the expression at ``path`` as written."""
        text = self.doc.get(path)
        return ("true" if text else "false") if isinstance(text, bool) else str(text)

    def expression(self, path: tuple, want, scope: Scope | None = None) -> Compiled | None:
        """The typed code of the expression at ``path``; None (its errors reported) when it does not compile."""
        origin = expr_origin(self.doc, path)
        try:
            return compile_expr(parse_expr(self.rule_text(path), origin), scope or self.scope, origin, want)
        except RuleError as exc:
            self.report.extend(exc.diagnostics)
            return None

    def number(self, path: tuple, default: int) -> int:
        """A number known before play: an int, or an expression of params only."""
        value = self.doc.get(path, default)
        if isinstance(value, bool) or not isinstance(value, int):
            compiled = self.expression(path, INT)
            if compiled is None:
                return default
            try:
                return int(compiled.value if compiled.is_const else self.scope.module.evaluate_now(compiled.code))
            except EvalError as exc:
                self.report.add(Diagnostic("N219", f"this number cannot be worked out: {exc}", exc.span or
                                           self.doc.span_of(path), "use a whole number or a param"))
                return default
            except (TypeError, AttributeError, KeyError):
                self.error("N217", "this number must be known before the game starts", path,
                           "use a whole number or a param")
                return default
        return value

    def match_rules(self) -> ir.MatchRules:
        """Start, end, winner, tie, exact finish and match counters."""
        body = self.data.get("match") or {}
        end = self.rule(("match", "end"), BOOL) if "end" in body else ir.Rule(_always, "true", None)
        counters = {str(k): _counter_start(v, self.data) for k, v in (body.get("counters") or {}).items()}
        kept_by = {str(k): self.counter_keepers(str(k), v) for k, v in (body.get("counters") or {}).items()
                   if isinstance(v, dict)}
        after = {str(k): self.rule(("match", "after_deal", k), INT,
                                   self.player_scope() if isinstance(counters.get(str(k)), tuple) else None)
                 for k in body.get("after_deal") or {}}
        for name in after:
            if name not in counters:
                self.error("N209", f"`after_deal` updates '{name}', which is not a match counter",
                           ("match", "after_deal", name), "declare it under `counters`")
        exact = body.get("exact")
        return ir.MatchRules(self.number(("match", "start"), 0), end, str(body.get("winner", "highest")),
                             str(body.get("tie", "play_on")), None if exact is None else int(exact), counters, after,
                             kept_by)

    def counter_keepers(self, counter: str, body: dict) -> tuple:
        """For a counter kept per seat or per team, the seat whose value each seat reads: itself, or for a counter
        kept per team (``each: teams``) the first seat of its fixed team."""
        players = int(self.data.get("players", 4))
        if body.get("each") != "teams":
            return tuple(range(players))
        teams = self.scope.teams
        if not teams:
            self.error("R382", f"the counter '{counter}' is kept per team, but the game has no fixed teams",
                       ("match", "counters", counter, "each"),
                       "name the teams (`teams: [[1, 3], [2, 4]]`), or keep it per seat (`each: seats`)")
            return tuple(range(players))
        return tuple((mask & -mask).bit_length() - 1 for mask in teams)


def _counter_start(value, data: dict):
    """A match counter's start: a number, or for a counter kept per seat or team (``{each: seats, start: N}``) a
    tuple of one number a seat."""
    if isinstance(value, dict):
        return (int(value.get("start", 0)),) * int(data.get("players", 4))
    return int(value)


def _state_names(players: int) -> dict[str, Binding]:
    from rulelang.compile.codegen import STATE, name
    return {
        "dealer": Binding(SEAT, state_attr("dealer")), "forehand": Binding(SEAT, state_attr("forehand")),
        "active": Binding(SEATS, state_attr("active")), "seats": const(SEATS, (1 << players) - 1),
        "players": const(INT, players), "score": Binding(SCORES, state_attr("scores")),
        "deal_number": Binding(INT, state_attr("deal_number")),
        "declarer": Binding(SEAT, state_attr("declarer")),
        "declarers": Binding(SEATS, state_attr("side_mask")),
        "defenders": Binding(SEATS, call("_defenders", name(STATE), literal((1 << players) - 1))),
        "contract": Binding(NAME, state_attr("contract")),
        "called": Binding(CARD, state_attr("called")),
        "tricks_played": Binding(INT, call("len", part_attr("tricks", "trick_winners"))),
        "played": Binding(CARDS, part_attr("tricks", "played")),
        "talon": Binding(CARDS, state_attr("talon")),
    }


def later_names(deck, players: int) -> dict[str, Binding]:
    """Names the language took after rule files may have used them (a param, a variable, a definition): the
    file's own meaning wins (W621; ``rulelang fmt --upgrade`` renames the file's). The seats by their fixed
    names, ``P1`` … (a team is ``team(P1)``), are among them."""
    from rulelang.compile.codegen import STATE, name
    longest = max((len({c.order for c in deck.cards if c.suit == s}) for s in range(len(deck.suits))), default=0)
    return {"suits": suits_binding(len(deck.suits)), "ranks": numbers_binding(1, longest),
            "winning_now": Binding(CARD, call("_winning_now", name(STATE))),
            "winner_now": Binding(SEAT, call("_winner_now", name(STATE))),
            "stock_left": Binding(INT, call("_stock_left", name(STATE))),
            "aside_shown": Binding(INT, call("_aside_shown", name(STATE))),
            **{f"P{seat + 1}": const(SEAT, seat) for seat in range(players)}}


def _not_linked(st, pl):
    """The function of a rule before its game's module is linked (or of one that did not compile)."""
    raise RuntimeError("the rules' module is not linked yet")


def _always(st, pl) -> bool:
    """The match ends after every deal (no ``match.end`` given)."""
    return True


def digest(data: dict) -> str:
    """A stable hash of a document's content (the rules a log was played under)."""
    text = json.dumps(rekeyed(data, str), sort_keys=True, ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
