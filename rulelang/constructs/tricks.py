"""``tricks``: trick play — leading, following by an ordered fallback, heading the trick, and winning it.

YAML ``- tricks: {among: active, lead: forehand, follow: [led_suit, trump], win: [{highest: trump},
{highest: led_suit}]}``; DSL ``tricks among active { lead forehand  follow led_suit, trump
win highest trump, highest led_suit }``. A contract may bring its own trick rules
(``contracts.NAME.tricks``). The rules compile to two generated functions per rule set:
the cards a seat may play, and the card that wins the trick on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.constructs.deal_counts import report_uneven
from rulelang.constructs.lay_aside import held_aside, show_aside
from rulelang.constructs.base import CHANCE, Construct, DealPart, DiffKey, Lines, bits, seats_from
from rulelang.constructs.trick_finish import ends_early, gift_count, kept_cards, receive_gift
from rulelang.constructs.trick_draw import (count_drawn, draw_card, drawable, drawer_sees, legal_draws, open_holdings,
                                            start_round, start_top, stock_left)
from rulelang.constructs.trick_compile import TrickRules, trick_rules
from rulelang.constructs.trick_schema import SCHEMA
from rulelang.constructs.trick_calls import (call_symbols, call_var_types, call_words, explain_call, open_calls,
                                             say)
from rulelang.render.trick_words import fmt_win, trick_rule_lines, win_words
from rulelang.compile.melds import find_melds
from rulelang.compile.deck import iter_bits
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import SEAT, SEATS, EvalError
from rulelang.compile.ir import PhaseBase, Rule


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
                 "played", "among", "order", "rules", "calls", "pending", "drawers", "top", "open_drawn",
                 "said_in", "said", "offered", "melds_won")
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
        self.drawers: tuple[int, ...] = ()
        self.top = -1
        self.open_drawn = (0,) * n
        self.said_in: dict[str, int] = {}
        self.said: tuple[tuple[str, int, str], ...] = ()     # (word, seat, the call as said), in order
        self.offered = -1
        self.melds_won: tuple = ()          # per finished trick, the combinations of the rules' melds in it

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
        other.drawers = self.drawers
        other.top = self.top
        other.open_drawn = self.open_drawn
        other.said_in = self.said_in
        other.said = self.said
        other.offered = self.offered
        other.melds_won = self.melds_won
        return other



def _to_play(st, seat: int) -> None:
    """``seat`` is to play; with nothing in hand but cards laid aside face down, it shows them and plays them."""
    st.current = seat
    if not st.hands[seat] and held_aside(st, seat):
        show_aside(st)


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
    writes = ("turn_up", "lay_aside")
    order = 60
    summary = "trick play"
    example = {"among": "active", "lead": "forehand", "follow": ["led_suit", "trump", "any"],
               "win": [{"highest": "trump"}, {"highest": "led_suit"}]}
    schema = SCHEMA
    codes = ("R327", "R380", "R383", "E503", "E504", "E505", "E513", "W620", "W623", "W624", "W625")
    tallied = False
    dsl = {"tricks": _dsl_tricks, "follow": _dsl_follow, "win": _dsl_win, "highest": _dsl_highest}
    diff_keys = {"win": DiffKey(text=lambda win: "win " + ", ".join(win_words(w) for w in win),
                                value=lambda win: [win_words(w) for w in win])}
    identity = "among"
    part = TricksState
    words = "play a card"
    public = False

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
        if phase.rules.draw is not None:
            count_drawn(table, phase.rules.draw, index)
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
        _to_play(st, part.order[0])
        return start_top(st, part, part.rules.draw) or bool(st.hands[st.current])

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
    def forced_to_head(st, leader: int, lead: int, seat: int) -> bool:
        """Whether ``seat``, playing next to a trick ``leader`` opens with ``lead``, would take it with every card
        the trick rules let it play from the hand the state gives it — a lead the seat cannot duck. Reckoned
        on the trick rules in force between the two cards alone (the seats between them left out); the trick
        as it stands is put back."""
        part = st.tricks
        rules = part.rules
        kept = part.trick, part.trick_mask, part.led_suit, st.current
        try:
            part.trick, part.trick_mask, part.led_suit = [(leader, lead)], 1 << lead, st.game.card_suits[lead]
            st.current = seat
            allowed = rules.allowed.fn(st, seat)
            if rules.head:
                allowed = Tricks.heading(st, allowed, strict=False) or allowed
            return allowed != 0 and Tricks.heading(st, allowed, strict=False) == allowed
        finally:
            part.trick, part.trick_mask, part.led_suit, st.current = kept

    @staticmethod
    def legal(st, phase):
        if st.tricks.drawers:
            return legal_draws(st, st.tricks.rules.draw)
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
        if part.drawers:
            return Tricks._drawn(st, part, action)
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
            _to_play(st, order[played])
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
        if part.rules.melds:                # found once, as the trick is given: read by trick_melds and the record
            part.melds_won = (*part.melds_won, tuple(find_melds(st, part.rules.melds, part.trick_mask, winner)))
        part.trick, part.trick_mask, part.led_suit = [], 0, -1
        for watcher in st.game.trick_watchers:
            watcher.after_trick(st)
        part.order = seats_from(st, winner, part.among)
        gifts = gift_count(st, part.rules) if part.rules.gift is not None else 0
        if gifts:
            part.pending, st.current = gifts, CHANCE
            return False
        return Tricks._next_lead(st, part, winner)

    @staticmethod
    def _next_lead(st, part, winner: int) -> bool:
        """Once a trick is given (and any gift): trick play ends, the seats draw from the stock, or the winner
        leads; whether trick play is over."""
        st.current = winner
        if ends_early(st, part.rules):
            return True
        draw = part.rules.draw
        if draw is not None and start_round(st, part, draw, winner):
            return False
        _to_play(st, winner)
        return not st.hands[winner]

    @staticmethod
    def _drawn(st, part, card: int) -> bool:
        """A card drawn from the stock (or the top card turned up); when the round is over the leader leads."""
        if not draw_card(st, part, part.rules.draw, card):
            return False
        leader = part.order[0]
        _to_play(st, leader)
        return not st.hands[leader]

    @staticmethod
    def _gift(st, part, cards: int) -> bool:
        """Talon cards drawn for the last trick's winner (``gift``); then he leads, or trick play ends."""
        winner = receive_gift(st, cards)
        part.pending -= bin(cards).count("1")
        if part.pending:
            return False
        return Tricks._next_lead(st, part, winner)

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The cards the next draw from the stock may give, and one; or the talon a pending gift is drawn from,
        and how many cards it takes."""
        part = st.tricks
        if part.drawers:
            return drawable(st, part.rules.draw), 1
        return st.talon, part.pending

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """A whole pending gift at once, seen by everyone, or one card drawn from the stock, seen by its drawer
        (see :meth:`Deal.apply_drawn`)."""
        part = st.tricks
        if part.drawers:
            st.seen_tail.append(drawer_sees(st, cards[0]))
            return Tricks._drawn(st, part, cards[0])
        st.seen_tail.extend([-1] * len(cards))
        return Tricks._gift(st, part, sum(1 << card for card in cards))

    @staticmethod
    def seer(st, phase, action: int) -> int:
        """A card drawn from the stock is seen by its drawer alone (unless it was face up); all else by everyone."""
        return drawer_sees(st, action) if st.tricks.drawers else -1

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
        if part.said and any(call.per_trick or call.values for call in part.rules.calls):
            seen["said"] = [(seat(s), name) for _, s, name in part.said]
        if part.rules is not None and part.rules.draw is not None:
            seen["stock"] = stock_left(st, part.rules.draw)
            if part.top >= 0:
                seen["stock_top"] = names[part.top].name
            face_up = open_holdings(st)
            if face_up:
                seen["drawn_face_up"] = {seat(s): st.game.deck.names(cards) for s, cards in face_up.items()}
        return seen

    @staticmethod
    def places(st) -> dict[str, int]:
        top = st.tricks.top
        return {"trick": st.tricks.trick_mask, "stock top": 1 << top if top >= 0 else 0}

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return open_holdings(st) if st.tricks.rules is not None and st.tricks.rules.draw else {}

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        """Cards played are noted trick by trick when each trick is finished; a call as a decision, with the
        trick it was said in (from 1) and how many cards lay on the table then."""
        if actor == CHANCE and step.kind == "tricks" and st.tricks.drawers:
            deal["talon"].append(name)
            drawer = st.tricks.drawers[0]
            who = st.game.seat_name(drawer) if drawer >= 0 else None
            deal.setdefault("drawn", []).append({"trick": len(st.tricks.trick_winners), "seat": who, "card": name})
        elif action >= st.game.num_cards:
            deal["decisions"].append({"seat": seat, "phase": step.kind, "action": name,
                                      "trick": len(st.tricks.trick_winners) + 1, "on_table": len(st.tricks.trick)})

    @staticmethod
    def deal_result(st) -> dict:
        part = st.tricks
        result = {"tricks": list(part.taken), "last_trick": part.last_trick}
        if part.melds_won:
            names = st.game.deck.names
            result["trick_melds"] = [[{"kind": m.kind, "cards": names(m.cards), "points": m.points} for m in found]
                                     for found in part.melds_won]
        return result

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"plays {name}" if action < st.game.num_cards else f"says {name}"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return call_symbols(body, c.deck, int(c.data.get("players", 4)))

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return call_var_types(body)

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
                 "ends_when", "kept", "gift", "free", "draw", "melds"}
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
