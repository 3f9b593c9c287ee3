"""Run-time handlers of the phase kinds: deal, talon, choose, exchange, decide, tricks, score.

Each handler has ``enter(state, phase) -> bool`` (True when the phase now waits for an
action), ``legal``, ``apply(state, phase, action) -> bool`` (True when the phase is over),
``seer`` (the seat that alone sees the action, or -1 when everyone does) and ``explain``
(the diagnostic for an illegal action, located at the rule that forbids it).
"""

from __future__ import annotations

from rulelang.deck import iter_bits
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import EvalError

CHANCE = -1


def seats_from(st, start: int, mask: int) -> list[int]:
    """The seats of ``mask`` in the direction of play, beginning at ``start`` (or the next one in mask)."""
    n, step = st.game.num_players, st.game.definition.step
    order = []
    for i in range(n):
        seat = (start + i * step) % n
        if mask >> seat & 1:
            order.append(seat)
    return order


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` as a sorted list."""
    return list(iter_bits(mask))


def _where(phase) -> object:
    return getattr(phase, "span", None)


class Phase:
    """Defaults shared by the handlers."""

    @staticmethod
    def seer(st, phase, action) -> int:
        return -1

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        return Diagnostic("E501", f"'{name}' is not a move that can be made now", _where(phase),
                          f"legal now: {', '.join(st.action_to_string(a) for a in st.legal_actions())}")


class Deal(Phase):
    """Chance deals ``each`` cards to every seat, forehand first, one packet per seat."""

    @staticmethod
    def enter(st, phase) -> bool:
        order = seats_from(st, st.forehand, (1 << st.game.num_players) - 1)
        st.slots = [seat for seat in order for _ in range(phase.each)]
        if bin(st.stock).count("1") < len(st.slots):
            raise EvalError(f"the deal needs {len(st.slots)} cards but only {bin(st.stock).count('1')} are left",
                            phase.span)
        st.pos = 0
        st.current = CHANCE
        return bool(st.slots)

    @staticmethod
    def legal(st, phase):
        return bits(st.stock)

    @staticmethod
    def seer(st, phase, action):
        return st.slots[st.pos]

    @staticmethod
    def apply(st, phase, action) -> bool:
        bit = 1 << action
        st.stock ^= bit
        st.hands[st.slots[st.pos]] |= bit
        st.pos += 1
        return st.pos >= len(st.slots)


class Talon(Phase):
    """Every undealt card goes to the talon."""

    @staticmethod
    def enter(st, phase) -> bool:
        st.talon |= st.stock
        st.stock = 0
        return False


class Choose(Phase):
    """A seat picks one value; a single possible value is taken without asking."""

    @staticmethod
    def enter(st, phase) -> bool:
        st.current = phase.by.fn(st, None)
        if len(phase.options) == 1:
            st.vars[phase.var] = phase.values[0]
            return False
        return True

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in phase.options)

    @staticmethod
    def apply(st, phase, action) -> bool:
        name = st.game.symbols[action - st.game.symbol_base]
        st.vars[phase.var] = phase.values[phase.options.index(name)]
        st.decisions[st.current] = name
        return True


class Exchange(Phase):
    """Each active seat in turn discards 0..max cards, then draws as many from the talon (chance)."""

    @staticmethod
    def enter(st, phase) -> bool:
        if phase.max <= 0:
            return False
        st.order = seats_from(st, phase.start.fn(st, None), st.active)
        st.pos, st.count, st.pending = 0, 0, 0
        return Exchange._turn(st, phase)

    @staticmethod
    def _turn(st, phase) -> bool:
        while st.pos < len(st.order):
            if st.talon:
                st.current = st.order[st.pos]
                return True
            st.pos += 1
        return False

    @staticmethod
    def legal(st, phase):
        if st.pending:
            return bits(st.talon)
        return bits(st.hands[st.current]) + [st.game.symbol_ids["done"]]

    @staticmethod
    def seer(st, phase, action):
        return st.order[st.pos] if st.pending or action < st.game.num_cards else -1

    @staticmethod
    def apply(st, phase, action) -> bool:
        seat = st.order[st.pos]
        if st.pending:
            st.talon ^= 1 << action
            st.hands[seat] |= 1 << action
            st.pending -= 1
            if st.pending:
                return False
            return Exchange._next_seat(st, phase)
        if action >= st.game.num_cards:
            return Exchange._draw(st, phase)
        st.hands[seat] ^= 1 << action
        st.discards[seat] |= 1 << action
        st.out |= 1 << action
        st.count += 1
        if st.count >= min(phase.max, bin(st.talon).count("1")):
            return Exchange._draw(st, phase)
        return False

    @staticmethod
    def _draw(st, phase) -> bool:
        st.decisions[st.order[st.pos]] = f"exchanges {st.count}"
        if st.count:
            st.pending, st.count = st.count, 0
            st.current = CHANCE
            return False
        return Exchange._next_seat(st, phase)

    @staticmethod
    def _next_seat(st, phase) -> bool:
        st.pos += 1
        st.count = 0
        return not Exchange._turn(st, phase)


class Decide(Phase):
    """Each active seat in turn picks an option; forced choices are taken without asking."""

    @staticmethod
    def enter(st, phase) -> bool:
        st.order = seats_from(st, phase.start.fn(st, None), st.active)
        st.pos = 0
        return Decide._turn(st, phase)

    @staticmethod
    def allowed(st, phase, seat) -> list[str]:
        """The options ``seat`` may pick now."""
        forbid = phase.forbid
        return [o for o in phase.options if o not in forbid or not forbid[o].fn(st, seat)]

    @staticmethod
    def _turn(st, phase) -> bool:
        while st.pos < len(st.order):
            seat = st.order[st.pos]
            options = Decide.allowed(st, phase, seat)
            if len(options) > 1:
                st.current = seat
                return True
            if not options:
                raise EvalError(f"{st.game.seat_name(seat)} has no option left: every option is forbidden", phase.span)
            Decide._record(st, phase, seat, options[0] + " (forced)", options[0])
            st.pos += 1
        return False

    @staticmethod
    def _record(st, phase, seat, text, option) -> None:
        st.decisions[seat] = text
        if option == phase.leave:
            st.active &= ~(1 << seat)

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in Decide.allowed(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        option = st.game.symbols[action - st.game.symbol_base]
        Decide._record(st, phase, st.current, option, option)
        st.pos += 1
        return not Decide._turn(st, phase)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        rule = phase.forbid.get(name)
        if rule is not None and rule.fn(st, st.current):
            return Diagnostic("E502", f"{st.game.seat_name(st.current)} may not {name}: the rule `{rule.text}` forbids it",
                              rule.span, f"legal now: {', '.join(Decide.allowed(st, phase, st.current))}")
        return Phase.explain(st, phase, action)


class Tricks(Phase):
    """Trick play: the leader leads, the others follow the ordered fallback, the win rules pick the winner."""

    @staticmethod
    def enter(st, phase) -> bool:
        among = phase.among.fn(st, None)
        st.among = among
        players = seats_from(st, st.forehand, among)
        if not players:
            return False
        if len(players) == 1 and phase.alone == "takes_all":
            seat = players[0]
            st.tricks[seat] = bin(st.hands[seat]).count("1")
            st.won[seat] |= st.hands[seat]
            st.hands[seat] = 0
            return False
        lead = phase.lead.fn(st, None)
        st.order = seats_from(st, lead, among)
        st.trick, st.trick_mask, st.led_suit = [], 0, -1
        st.current = st.order[0]
        return bool(st.hands[st.current])

    @staticmethod
    def legal_mask(st, phase, seat) -> int:
        """The cards ``seat`` may play now, as a bitmask."""
        hand = st.hands[seat]
        if not st.trick:
            return hand
        for rule in phase.follow:
            allowed = hand & rule.fn(st, seat)
            if allowed:
                return allowed
        return hand

    @staticmethod
    def legal(st, phase):
        return bits(Tricks.legal_mask(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        seat = st.current
        bit = 1 << action
        st.hands[seat] ^= bit
        if not st.trick:
            st.led_suit = st.game.deck.cards[action].suit
        st.trick.append((seat, action))
        st.trick_mask |= bit
        if len(st.trick) < len(st.order):
            st.current = st.order[len(st.trick)]
            return False
        return Tricks._finish_trick(st, phase)

    @staticmethod
    def winner(st, phase) -> int:
        """The seat that wins the trick on the table, by the first win rule that applies."""
        cards = st.game.deck.cards
        for rule in phase.win:
            candidates = rule.cards.fn(st, None) & st.trick_mask
            if candidates:
                best = min(iter_bits(candidates), key=lambda c: (cards[c].order, c))
                return next(s for s, c in st.trick if c == best)
        raise EvalError("no win rule applies to this trick: "
                        + " ".join(cards[c].name for _, c in st.trick), phase.span)

    @staticmethod
    def _finish_trick(st, phase) -> bool:
        winner = Tricks.winner(st, phase)
        st.tricks[winner] += 1
        st.won[winner] |= st.trick_mask
        st.last_trick = (list(st.trick), winner)
        st.trick, st.trick_mask, st.led_suit = [], 0, -1
        st.order = seats_from(st, winner, st.among)
        st.current = winner
        return not st.hands[winner]

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.current
        name = st.action_to_string(action)
        if not (0 <= action < st.game.num_cards) or not st.hands[seat] >> action & 1:
            return Diagnostic("E503", f"{st.game.seat_name(seat)} does not hold '{name}'", phase.span,
                              f"{st.game.seat_name(seat)} holds {' '.join(st.game.deck.names(st.hands[seat]))}")
        hand = st.hands[seat]
        for rule in phase.follow:
            allowed = hand & rule.fn(st, seat)
            if allowed:
                names = " ".join(st.game.deck.names(allowed))
                return Diagnostic("E504", f"{st.game.seat_name(seat)} may not play {name}: the follow rule "
                                  f"`{rule.text}` requires one of {names}", rule.span,
                                  f"play one of {names}")
        return Phase.explain(st, phase, action)


class Score(Phase):
    """Every seat of ``each`` adds ``add`` to its score; all values are computed before any is added."""

    @staticmethod
    def enter(st, phase) -> bool:
        seats = phase.each.fn(st, None)
        deltas = [(s, phase.add.fn(st, s)) for s in range(st.game.num_players) if seats >> s & 1]
        for seat, delta in deltas:
            st.deal_delta[seat] += delta
            st.scores[seat] += delta
        return False


HANDLERS = {
    "deal": Deal, "talon": Talon, "choose": Choose, "exchange": Exchange,
    "decide": Decide, "tricks": Tricks, "score": Score,
}
