"""Compiling the phase kinds of a deal (a mixin of :class:`rulelang.compiler.GameCompiler`)."""

from __future__ import annotations

import ast

from rulelang import ir
from rulelang.codegen import binop, call, compare, literal, state_attr, state_item
from rulelang.codegen import name as read
from rulelang.exprcompile import BOOL, CARD, CARDS, INT, PLAYER_CODE, SEAT, SEATS, SUIT, Binding, const


TURN_STEPS = ("exchange", "decide")


class PhasesMixin:
    """Builders ``phase_<kind>(path, body) -> phase`` for every phase kind."""

    def phase(self, index: int, entry: dict):
        """Compile entry ``index`` of ``phases``."""
        return self.phase_at(("phases", index), entry)

    def phase_at(self, where: tuple, entry: dict):
        """Compile the phase entry found at document path ``where``."""
        kind, body = next(iter(entry.items()))
        path = where + (kind,)
        builder = getattr(self, "phase_" + kind, None)
        if builder is None:
            self.error("R303", f"unknown phase kind '{kind}'", path, "see docs/language.md, Phases")
            return None
        body = body if isinstance(body, dict) else {}
        result = builder(path, body)
        result.span = self.doc.span_of(where)
        result.when = self.optional_rule(path + ("when",), BOOL)
        return result

    def phase_turns(self, path, body):
        steps = []
        for i, entry in enumerate(body.get("steps") or []):
            kind = next(iter(entry)) if isinstance(entry, dict) and entry else None
            if kind not in TURN_STEPS:
                self.error("R305", f"a turn cannot hold a '{kind}' step", path + ("steps", i),
                           f"the steps of a turn are {', '.join(TURN_STEPS)}")
                continue
            steps.append(self.phase_at(path + ("steps", i), entry))
        return ir.TurnsPhase(start=self.rule(path + ("from",), SEAT), steps=steps)

    def player_scope(self, scope=None):
        """A scope with ``player`` bound to the seat being considered."""
        return (scope or self.scope).child(player=Binding(SEAT, PLAYER_CODE))

    def phase_deal(self, path, body):
        return ir.DealPhase(self.number(path + ("each",), 1))

    def phase_talon(self, path, body):
        return ir.TalonPhase()

    def phase_set(self, path, body):
        var = str(body.get("var"))
        value, type_ = self.typed_rule(path + ("value",), None)
        self.deal_vars[var] = type_
        self.scope.names[var] = Binding(type_, state_item("vars", var))
        return ir.SetPhase(var=var, value=value)

    def phase_choose(self, path, body):
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
        return ir.ChoosePhase(var, by, options, values)

    def phase_exchange(self, path, body):
        return ir.ExchangePhase(self.rule(path + ("from",), SEAT), self.number(path + ("max",), 0))

    def phase_piles(self, path, body):
        return ir.PilesPhase(count=self.number(path + ("count",), 4), start=self.rule(path + ("from",), SEAT))

    def phase_throw_in(self, path, body):
        scope = self.player_scope()
        return ir.ThrowInPhase(must=self.optional_rule(path + ("must",), BOOL, scope),
                               may=self.optional_rule(path + ("may",), BOOL, scope))

    def phase_decide(self, path, body):
        options = [str(o) for o in body.get("options") or []]
        leave = body.get("leave")
        if leave is not None and str(leave) not in options:
            self.error("N208", f"`leave: {leave}` is not one of the options {', '.join(options)}", path + ("leave",),
                       "name the option that takes a seat out of the deal")
        scope = self.player_scope()
        forbid = {}
        for option in body.get("forbid") or {}:
            if str(option) not in options:
                self.error("N208", f"`forbid {option}`: '{option}' is not one of the options",
                           path + ("forbid", option), f"the options are {', '.join(options)}")
            forbid[str(option)] = self.rule(path + ("forbid", option), BOOL, scope)
        return ir.DecidePhase(options, self.rule(path + ("from",), SEAT), leave and str(leave), forbid)

    def trick_scope(self):
        """Names of trick rules: ``led_suit``, ``trick``, ``any`` and ``player``."""
        return self.scope.child(
            led_suit=Binding(SUIT, state_attr("led_suit")), trick=Binding(CARDS, state_attr("trick_mask")),
            any=const(CARDS, (1 << len(self.scope.card_suits)) - 1), player=Binding(SEAT, PLAYER_CODE))

    def trick_rules(self, path, body, base: ir.TrickRules | None = None) -> ir.TrickRules:
        """How tricks go, from ``body``; keys it lacks come from ``base``."""
        scope = self.trick_scope()

        def rules(key):
            return [self.rule(path + (key, i), CARDS, scope) for i in range(len(body.get(key) or []))]
        lead_from = rules("lead_from") if "lead_from" in body else (base.lead_from if base else [])
        follow = rules("follow") if "follow" in body else (base.follow if base else [])
        win = [self.win_rule(path + ("win", i), e, scope) for i, e in enumerate(body.get("win") or [])] \
            if "win" in body else (base.win if base else [])
        head = bool(body.get("head", base.head if base else False))
        return ir.TrickRules(lead_from, follow, win, head, self.allowed_cards(lead_from, follow),
                             self.winning_card(win))

    def allowed_cards(self, lead_from: list, follow: list) -> ir.Rule:
        """One function for the cards a seat may play before heading: the first of its fallbacks it can,
        ``follow`` when a trick is on the table, ``lead_from`` when it leads, else any card in hand."""
        everything = (1 << len(self.scope.card_suits)) - 1

        def fallbacks(rules):
            body = []
            for rule in rules:
                code = self.scope.module.code_of(rule)
                if isinstance(code, ast.Constant) and code.value == everything:
                    break
                body += [ast.Assign([ast.Name("_allowed", ast.Store())], binop(read("_hand"), ast.BitAnd(), code)),
                         ast.If(read("_allowed"), [ast.Return(read("_allowed"))], [])]
            return body
        texts = "; ".join(f"follow {r.text}" for r in follow) + "".join(f"; lead {r.text}" for r in lead_from)
        rule = ir.Rule(None, texts or "any card", (follow or lead_from or [ir.Rule(None, "", None)])[0].span)
        when_following, when_leading = fallbacks(follow), fallbacks(lead_from)
        choice = [ast.If(state_attr("trick"), when_following, when_leading)] if when_following and when_leading else \
            [ast.If(state_attr("trick"), when_following, [])] if when_following else \
            [ast.If(ast.UnaryOp(ast.Not(), state_attr("trick")), when_leading, [])] if when_leading else []
        body = [ast.Assign([ast.Name("_hand", ast.Store())], ast.Subscript(state_attr("hands"), PLAYER_CODE,
                                                                           ast.Load())), *choice,
                ast.Return(read("_hand"))]
        self.scope.module.statements(body, rule)
        return rule

    def winning_card(self, win: list) -> ir.Rule:
        """One function for the card that wins the trick on the table: the first win rule that applies, or -1."""
        module, mask = self.scope.module, read("_mask")
        by_suit = self.scope.table(tuple(self.scope.suit_masks[s] for s in self.scope.card_suits))
        order = self.scope.table(tuple(order for order, _ in self.scope.card_order))
        body = [ast.Assign([ast.Name("_mask", ast.Store())], state_attr("trick_mask"))]
        for rule in win:
            if rule.card is not None:
                body += self._special_winner(rule, module, mask)
                continue
            body += [ast.Assign([ast.Name("_within", ast.Store())],
                                binop(module.code_of(rule.cards), ast.BitAnd(), read("_mask"))),
                     ast.If(read("_within"), [ast.Return(call("_best", read("_within"), by_suit, order))], [])]
        anchor = next((r.card or r.cards for r in win), None)
        rule = ir.Rule(None, "; ".join(r.text for r in win) or "no win rule", anchor.span if anchor else None)
        module.statements(body + [ast.Return(literal(-1))], rule)
        return rule

    @staticmethod
    def _special_winner(rule: ir.WinRule, module, mask) -> list:
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

    def win_rule(self, path, entry, scope) -> ir.WinRule:
        """One entry of ``win``: ``{highest: CARDS}`` or ``{card: CARD, when: COND}``."""
        if isinstance(entry, dict) and "card" in entry:
            return ir.WinRule(card=self.rule(path + ("card",), CARD, scope),
                              when=self.optional_rule(path + ("when",), BOOL, scope),
                              text=f"{entry['card']} when {entry.get('when', 'always')}")
        cards = self.rule(path + ("highest",), CARDS, scope)
        return ir.WinRule(cards=cards, text=f"highest {cards.text}")

    def phase_tricks(self, path, body):
        rules = self.trick_rules(path, body)
        by_contract, lead_by_contract = {}, {}
        for name, row in (self.data.get("contracts") or {}).items():
            override = (row or {}).get("tricks")
            if override:
                cpath = ("contracts", name, "tricks")
                by_contract[str(name)] = self.trick_rules(cpath, override, rules)
                if "lead" in override:
                    lead_by_contract[str(name)] = self.rule(cpath + ("lead",), SEAT)
        return ir.TricksPhase(self.rule(path + ("among",), SEATS), self.rule(path + ("lead",), SEAT), rules,
                              str(body.get("alone", "play")), by_contract, lead_by_contract)

    def phase_score(self, path, body):
        """``each SEATS add N`` with its ``let`` names; each let is worked out once per seat, in order,
        as a local ``_letN`` of the function of ``add``."""
        scope = self.player_scope()
        lets = []
        for name in body.get("let") or {}:
            compiled = self.expression(path + ("let", name), None, scope)
            local = f"_let{len(lets)}"
            lets.append((local, compiled.code if compiled else ast.Constant(None)))
            type_ = compiled.type if compiled else INT
            scope = scope.child(**{name: Binding(type_, ast.Name(local, ast.Load()))})
        add = self.typed_rule(path + ("add",), INT, scope, tuple(lets))[0]
        return ir.ScorePhase(self.rule(path + ("each",), SEATS), add)

    def phase_auction(self, path, body):
        return ir.AuctionPhase(start=self.rule(path + ("from",), SEAT), pass_word=str(body.get("pass", "pass")),
                               for_word=str(body.get("for", "for")), against_word=str(body.get("against", "against")),
                               doubling=[str(d) for d in body.get("doubling") or []])

    def phase_settle(self, path, body):
        return ir.SettlePhase(pattern=str(body.get("pattern", "declarers_share")),
                              multiplier=self.optional_rule(path + ("multiplier",), INT))
