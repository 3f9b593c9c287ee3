"""``tricks``: trick play — leading, following by an ordered fallback, heading the trick, and winning it.

YAML ``- tricks: {among: active, lead: forehand, follow: [led_suit, trump], win: [{highest: trump},
{highest: led_suit}]}``; DSL ``tricks among active { lead forehand  follow led_suit, trump
win highest trump, highest led_suit }``. A contract may bring its own trick rules
(``contracts.NAME.tricks``). The rules compile to two generated functions per rule set:
the cards a seat may play, and the card that wins the trick on the table.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from rulelang.compile.codegen import binop, call, compare, literal, part_attr, state_attr
from rulelang.compile.codegen import name as read
from rulelang.constructs.deal_counts import report_uneven
from rulelang.constructs.base import CHANCE, Construct, DealPart, DiffKey, Lines, bits, seats_from
from rulelang.constructs.trick_finish import ends_early, gift_count, kept_cards, receive_gift
from rulelang.constructs.trick_schema import SCHEMA
from rulelang.constructs.trick_calls import call_words, compile_calls, explain_call, open_calls, say
from rulelang.render.trick_words import fmt_win, trick_rule_lines, win_words
from rulelang.compile.deck import iter_bits
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import (BOOL, CARD, CARDS, INT, PLAYER_CODE, SEAT, SEATS, SUIT, Binding, EvalError, const,
                                          unavailable)
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class WinRule:
    """One rule of the trick winner: the highest card of the trick within ``cards``, or the named
    ``card`` when ``when`` holds (a special winner, e.g. one card that takes any trick holding two given others)."""

    cards: Rule | None = None
    card: Rule | None = None
    when: Rule | None = None
    text: str = ""


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


@dataclass
class TricksPhase(PhaseBase):
    """Trick play among ``among``; ``rules`` says how tricks go, ``by_contract`` overrides them per contract."""

    among: Rule
    lead: Rule
    rules: TrickRules
    alone: str
    by_contract: dict = field(default_factory=dict)
    lead_by_contract: dict = field(default_factory=dict)
    kind: str = "tricks"


class TricksState(DealPart):
    """Trick play of one deal: the trick on the table (``trick``: seat, card; ``trick_mask``,
    ``led_suit``), the last finished trick, the plays and the cards of each finished trick
    (``finished``, ``trick_masks``),
    each trick's winner and winning card, tricks taken per seat (``taken``), the cards of the
    finished tricks (``played``), the seats that
    play (``among``), the order of play (``order``) and the rule set in force (``rules``).

    Only the trick on the table changes in place (a finished one is kept as it is and a new list
    begun, so ``finished`` holds lists nothing changes again); ``finished``, ``trick_masks``,
    ``trick_winners``, ``taken``, ``order`` and ``calls`` change at most once a trick and are
    replaced when they do, so that a clone shares them. The slice has fixed fields (``__slots__``) and copies them one
    by one: it is copied on every clone during trick play, and this halves its price."""

    __slots__ = ("trick", "trick_mask", "led_suit", "last_trick", "finished", "trick_masks", "trick_winners", "taken",
                 "played", "among", "order", "rules", "calls", "pending")
    copied = ("trick",)

    def __init__(self, game) -> None:
        n = game.num_players
        self.trick: list[tuple[int, int]] = []
        self.trick_mask, self.led_suit = 0, -1
        self.last_trick: tuple | None = None
        self.finished: list[list[tuple[int, int]]] = []
        self.trick_masks: list[int] = []
        self.trick_winners: list[tuple[int, int]] = []
        self.taken = [0] * n
        self.played = 0
        self.among = 0
        self.order: list[int] = []
        self.rules = None
        self.calls: dict[str, int] = {}
        self.pending = 0

    def copy(self) -> "TricksState":
        """An independent copy: the trick on the table copied, every other field shared."""
        other = object.__new__(TricksState)
        other.trick = self.trick.copy()
        other.trick_mask = self.trick_mask
        other.led_suit = self.led_suit
        other.last_trick = self.last_trick
        other.finished = self.finished
        other.trick_masks = self.trick_masks
        other.trick_winners = self.trick_winners
        other.taken = self.taken
        other.played = self.played
        other.among = self.among
        other.order = self.order
        other.rules = self.rules
        other.calls = self.calls
        other.pending = self.pending
        return other



# ---------------------------------------------------------------------- DSL
def _dsl_tricks(b, meta, children):
    """``tricks [among SEATS] [when COND] { … }``."""
    return b.phase("tricks", meta, [("among", children[0]), ("when", children[1])], children[2:])


def _dsl_follow(b, meta, children):
    """``follow A, B, …``."""
    from rulelang.read.dsl import Put, list_node
    span = b.span(meta)
    return [Put("follow", list_node(children, span), span)]


def _dsl_win(b, meta, children):
    """``win highest A, highest B, …``."""
    from rulelang.read.dsl import Put, list_node
    span = b.span(meta)
    return [Put("win", list_node(children, span), span)]


def _dsl_highest(b, meta, children):
    """``highest CARDS``: one rule of ``win``."""
    from rulelang.read.dsl import Node
    node = Node({"highest": children[0].value}, b.span(meta))
    children[0].graft(node.inner, ("highest",))
    return node


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
    return TrickRules(lead_from, follow, win, head, allowed_cards(c, lead_from, follow, free),
                      winning_card(c, win, later), later, calls, ends, kept, gift, free)


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
        best = call("_best", read("_within"), by_suit, order)
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
    return WinRule(cards=cards, text=f"highest {cards.text}")


def _rules_text(rules) -> str:
    lead = ", ".join(f"`{r.text}`" for r in rules.lead_from) or "any card"
    follow = ", ".join(f"`{r.text}`" for r in rules.follow)
    win = ", ".join(w.text for w in rules.win)
    return f" lead from {lead}; follow {follow}; win {win}" + ("; must head" if rules.head else "")


# ---------------------------------------------------------------------- the construct
class Tricks(Construct):
    """The leader leads from ``lead_from``, the others follow the first set of ``follow`` they can,
    the win rules pick the winner; a contract may bring its own rules."""

    kind = "tricks"
    batch_kernel = "rulelang.batch.tricks:TRICKS"
    keeps_hands = True
    order = 60
    summary = "trick play"
    example = {"among": "active", "lead": "forehand", "follow": ["led_suit", "trump", "any"],
               "win": [{"highest": "trump"}, {"highest": "led_suit"}]}
    schema = SCHEMA
    codes = ("R327", "E503", "E504", "E505", "E513", "W620", "W623")
    tallied = False
    dsl = {"tricks": _dsl_tricks, "follow": _dsl_follow, "win": _dsl_win, "highest": _dsl_highest}
    diff_keys = {"win": DiffKey(text=lambda win: "win " + ", ".join(win_words(w) for w in win),
                                value=lambda win: [win_words(w) for w in win])}
    identity = "among"
    part = TricksState
    words = "play a card"

    @staticmethod
    def compile(c, path, body):
        rules = trick_rules(c, path, body)
        by_contract, lead_by_contract = {}, {}
        for name, row in (c.data.get("contracts") or {}).items():
            override = (row or {}).get("tricks")
            if override:
                cpath = ("contracts", name, "tricks")
                by_contract[str(name)] = trick_rules(c, cpath, override, rules)
                if "lead" in override:
                    lead_by_contract[str(name)] = c.rule(cpath + ("lead",), SEAT)
        return TricksPhase(c.rule(path + ("among",), SEATS), c.rule(path + ("lead",), SEAT), rules,
                           str(body.get("alone", "play")), by_contract, lead_by_contract)

    @staticmethod
    def dump(phase) -> str:
        text = f" among `{phase.among.text}` lead `{phase.lead.text}`{_rules_text(phase.rules)} alone {phase.alone}"
        for name, rules in phase.by_contract.items():
            text += f"\n  in {name}:{_rules_text(rules)}"
        return text

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: play needs cards in hand."""
        if table.hand == 0:
            table.report("R327", "trick play starts before any card is dealt", index,
                         "deal the cards first: put `deal` or `piles` phases before `tricks`")
        report_uneven(table)
        table.hand = None

    # ------------------------------------------------------------------ runtime
    @staticmethod
    def enter(st, phase) -> bool:
        part = st.tricks
        among = phase.among.fn(st, None)
        part.among = among
        players = seats_from(st, st.forehand, among)
        if not players:
            return False
        if len(players) == 1 and phase.alone == "takes_all":
            seat = players[0]
            part.taken = [bin(st.hands[seat]).count("1") if s == seat else t for s, t in enumerate(part.taken)]
            st.won[seat] |= st.hands[seat]
            st.hands[seat] = 0
            return False
        part.rules = phase.by_contract.get(st.contract, phase.rules)
        lead = phase.lead_by_contract.get(st.contract, phase.lead).fn(st, None)
        part.order = seats_from(st, lead, among)
        part.trick, part.trick_mask, part.led_suit = [], 0, -1
        st.current = part.order[0]
        return bool(st.hands[st.current])

    @staticmethod
    def legal_mask(st, phase, seat) -> int:
        """The cards ``seat`` may play now, as a bitmask."""
        rules = st.tricks.rules
        allowed = rules.allowed.fn(st, seat)
        if rules.head and st.tricks.trick:
            heading = Tricks.heading(st, allowed)
            if heading:
                return heading
        return allowed

    @staticmethod
    def heading(st, allowed: int, strict: bool = True) -> int:
        """The cards of ``allowed`` that would win the trick as it stands (Stichzwang). ``strict``: a trick
        no win rule gives a card of is the rule's error (E553); else such a card simply does not head it
        (what a player reckons: the win rules of a game may speak only of whole tricks)."""
        part = st.tricks
        heads = 0
        trick, mask, seat, winner = part.trick, part.trick_mask, st.current, part.rules.winner.fn
        try:
            for card in iter_bits(allowed):
                with_card = mask | 1 << card
                part.trick, part.trick_mask = trick + [(seat, card)], with_card
                won = winner(st, None)
                if won == card:
                    heads |= 1 << card
                elif strict and (won < 0 or not with_card >> won & 1):
                    Tricks.winning_play(st)                  # no win rule gives a card of the trick: its error
        finally:
            part.trick, part.trick_mask = trick, mask
        return heads

    @staticmethod
    def legal(st, phase):
        if st.tricks.pending:
            return bits(st.talon)
        rules = st.tricks.rules
        if rules.head and st.tricks.trick:
            moves = bits(Tricks.legal_mask(st, phase, st.current))
        else:
            moves = bits(rules.allowed.fn(st, st.current))
        return moves + open_calls(st, rules.calls) if rules.calls else moves

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.tricks
        if part.pending:
            return Tricks._gift(st, part, 1 << action)
        if action >= st.game.num_cards:
            return say(st, action)
        seat = st.current
        bit = 1 << action
        st.hands[seat] ^= bit
        trick, order = part.trick, part.order
        if not trick:
            part.led_suit = st.game.card_suits[action]
        trick.append((seat, action))
        part.trick_mask |= bit
        if action == st.called:
            st.revealed = True
        played = len(trick)
        if played < len(order):
            st.current = order[played]
            return False
        return Tricks._finish_trick(st, part)

    @staticmethod
    def winning_so_far(st) -> tuple[int, int] | None:
        """(seat, card) winning the trick on the table so far, or None when no win rule gives one of its cards
        yet (win rules may speak only of whole tricks). What a player may ask of an unfinished trick."""
        card = st.tricks.rules.winner.fn(st, None)
        for seat, played in st.tricks.trick:
            if played == card:
                return seat, card
        return None

    @staticmethod
    def winning_play(st) -> tuple[int, int]:
        """(seat, card) winning the trick on the table, by the first win rule that applies; E553 if none does."""
        play = Tricks.winning_so_far(st)
        if play is not None:
            return play
        cards = st.game.deck.cards
        raise EvalError("no win rule applies to this trick: " + " ".join(cards[c].name for _, c in st.tricks.trick),
                        st.phase.span if st.phase else None)

    @staticmethod
    def _finish_trick(st, part) -> bool:
        winner, card = Tricks.winning_play(st)
        taken = part.taken.copy()
        taken[winner] += 1
        part.taken = taken
        kept = kept_cards(st, part.rules)
        st.won[winner] |= part.trick_mask & ~kept
        if kept:
            for seat, played in part.trick:
                if kept >> played & 1:
                    st.won[seat] |= 1 << played
        part.played |= part.trick_mask
        part.trick_winners = [*part.trick_winners, (winner, card)]
        part.finished = [*part.finished, part.trick]
        part.trick_masks = [*part.trick_masks, part.trick_mask]
        part.last_trick = (part.trick, winner)
        part.trick, part.trick_mask, part.led_suit = [], 0, -1
        for watcher in st.game.trick_watchers:
            watcher.after_trick(st)
        part.order = seats_from(st, winner, part.among)
        gifts = gift_count(st, part.rules) if part.rules.gift is not None else 0
        if gifts:
            part.pending, st.current = gifts, CHANCE
            return False
        st.current = winner
        return not st.hands[winner] or ends_early(st, part.rules)

    @staticmethod
    def _gift(st, part, cards: int) -> bool:
        """Talon cards drawn for the last trick's winner (``gift``); then he leads, or trick play ends."""
        winner = receive_gift(st, cards)
        part.pending -= bin(cards).count("1")
        if part.pending:
            return False
        st.current = winner
        return not st.hands[winner] or ends_early(st, part.rules)

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The talon a pending gift is drawn from, and how many cards it takes."""
        return st.talon, st.tricks.pending

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """A whole pending gift at once, seen by everyone (see :meth:`Deal.apply_drawn`)."""
        st.seen_tail.extend([-1] * len(cards))
        return Tricks._gift(st, st.tricks, sum(1 << card for card in cards))

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.current
        name = st.action_to_string(action)
        who = st.game.seat_name(seat)
        if action >= st.game.num_cards and st.tricks.rules.calls:
            return explain_call(st, phase, action)
        if not (0 <= action < st.game.num_cards) or not st.hands[seat] >> action & 1:
            return Diagnostic("E503", f"{who} does not hold '{name}'", phase.span,
                              f"{who} holds {' '.join(st.game.deck.names(st.hands[seat]))}")
        hand = st.hands[seat]
        rules = st.tricks.rules
        kind, listed = ("follow", rules.follow) if st.tricks.trick else ("lead", rules.lead_from)
        for rule in listed:
            allowed = hand & rule.fn(st, seat)
            if allowed >> action & 1:
                break
            if allowed:
                names = " ".join(st.game.deck.names(allowed))
                return Diagnostic("E504", f"{who} may not play {name}: the {kind} rule `{rule.text}` requires one "
                                  f"of {names}", rule.span, f"play one of {names}")
        legal = " ".join(st.game.deck.names(Tricks.legal_mask(st, phase, seat)))
        return Diagnostic("E505", f"{who} may not play {name}: the trick must be headed if possible", phase.span,
                          f"play one of {legal}")

    # ------------------------------------------------------------------ what seats see, and the record
    @staticmethod
    def observe(st, player: int) -> dict:
        """The trick on the table, the cards of finished tricks by seat, and tricks taken: all public."""
        seat, names = st.game.seat_name, st.game.deck.cards
        part = st.tricks
        by_seat = [0] * st.game.num_players
        for plays in part.finished:
            for by, card in plays:
                by_seat[by] |= 1 << card
        played = {seat(s): [names[card].name for card in iter_bits(cards)] for s, cards in enumerate(by_seat)}
        seen = {"trick": [(seat(s), names[c].name) for s, c in part.trick], "played": played,
                "tricks": {seat(s): t for s, t in enumerate(part.taken)}}
        if part.calls:
            seen["calls"] = [(seat(s), word) for word, s in part.calls.items()]
        return seen

    @staticmethod
    def places(st) -> dict[str, int]:
        return {"trick": st.tricks.trick_mask}

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        """Cards played are noted trick by trick when each trick is finished; a call as a decision, with the
        trick it was said in (from 1) and how many cards lay on the table then."""
        if action >= st.game.num_cards:
            deal["decisions"].append({"seat": seat, "phase": step.kind, "action": name,
                                      "trick": len(st.tricks.trick_winners) + 1, "on_table": len(st.tricks.trick)})

    @staticmethod
    def deal_result(st) -> dict:
        return {"tricks": list(st.tricks.taken), "last_trick": st.tricks.last_trick}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"plays {name}" if action < st.game.num_cards else f"says {name}"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return call_words(body)

    @staticmethod
    def option_names(body) -> list[str]:
        return call_words(body)

    # ------------------------------------------------------------------ prose
    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        lines = [f"Trick play among {ctx.say(body.get('among', 'seats'))}"] + trick_rule_lines(ctx, body)
        if body.get("alone") == "takes_all":
            lines.append("If only one player is left in, he is credited with every trick without play")
        known = {"among", "lead", "lead_from", "follow", "head", "win", "alone", "when", "later_copy_wins", "calls",
                 "ends_when", "kept", "gift", "free"}
        return lines + rest(body, known)

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import INDENT, WHEN_PART, block, body, expr_text, exprs, head_parts, list_statement, \
            expr_statement, scalar_statement
        if not isinstance(value, dict):
            return None
        text, used = head_parts(value, [("among", "among", expr_text), WHEN_PART])
        others = {k: v for k, v in value.items() if k not in used}
        statements = {"lead": expr_statement("lead"), "follow": list_statement("follow", exprs), "win": fmt_win,
                      "alone": scalar_statement("alone")}
        return block(pad, f"tricks{text}", body(others, statements, pad + INDENT))


CONSTRUCT = Tricks
