"""Run-time handlers of the phase kinds: deal, talon, choose, exchange, decide, tricks, score.

Each handler has ``enter(state, phase) -> bool`` (True when the phase now waits for an
action), ``legal``, ``apply(state, phase, action) -> bool`` (True when the phase is over),
``seer`` (the seat that alone sees the action, or -1 when everyone does) and ``explain``
(the diagnostic for an illegal action, located at the rule that forbids it).
"""

from __future__ import annotations

from rulelang.deck import bit_list
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import EvalError

CHANCE = -1


def seats_from(st, start: int, mask: int) -> list[int]:
    """The seats of ``mask`` in the direction of play, beginning at ``start`` (or the next one in mask)."""
    cache = st.game.seat_orders
    key = (start, mask)
    order = cache.get(key)
    if order is None:
        n, step = st.game.num_players, st.game.definition.step
        order = cache[key] = [seat for seat in ((start + i * step) % n for i in range(n)) if mask >> seat & 1]
    return list(order)


bits = bit_list


def turn_order(st, start: int, mask: int) -> list[int]:
    """``seats_from``, narrowed to the one seat whose turn it is inside a ``turns`` phase."""
    order = seats_from(st, start, mask)
    if st.only_seat is not None:
        return [seat for seat in order if seat == st.only_seat]
    return order


def _where(phase) -> object:
    return getattr(phase, "span", None)


class Phase:
    """Defaults shared by the handlers; ``public`` handlers show every action to everyone."""

    public = True

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

    public = False

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
    def draws(st, phase) -> tuple[int, int]:
        """The cards the pending chance events draw from, and how many they draw."""
        return st.stock, len(st.slots) - st.pos

    @staticmethod
    def seer(st, phase, action):
        return st.slots[st.pos]

    @staticmethod
    def apply(st, phase, action) -> bool:
        bit = 1 << action
        seat = st.slots[st.pos]
        st.stock ^= bit
        st.hands[seat] |= bit
        st.dealt[seat] |= bit
        st.pos += 1
        return st.pos >= len(st.slots)

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """``apply`` of each of ``cards`` in turn, its seer noted in ``st.seen``; True when the deal is done."""
        slots, pos, hands, dealt, seen = st.slots, st.pos, st.hands, st.dealt, st.seen
        taken = 0
        for card in cards:
            seat, bit = slots[pos], 1 << card
            hands[seat] |= bit
            dealt[seat] |= bit
            seen.append(seat)
            taken |= bit
            pos += 1
        st.stock ^= taken
        st.pos = pos
        return pos >= len(slots)


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

    public = False

    @staticmethod
    def enter(st, phase) -> bool:
        if phase.max <= 0:
            return False
        st.order = turn_order(st, phase.start.fn(st, None), st.active)
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
        legal = bits(st.hands[st.current])
        legal.append(st.game.done_action)
        return legal

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The talon the pending draw comes from, and how many cards it takes."""
        return st.talon, st.pending

    @staticmethod
    def seer(st, phase, action):
        return st.order[st.pos] if st.pending or action < st.game.num_cards else -1

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """The whole pending draw at once (see :meth:`Deal.apply_drawn`)."""
        seat = st.order[st.pos]
        drawn = 0
        for card in cards:
            drawn |= 1 << card
        st.talon ^= drawn
        st.hands[seat] |= drawn
        st.seen.extend([seat] * len(cards))
        st.pending -= len(cards)
        return False if st.pending else Exchange._next_seat(st, phase)

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
        if st.count >= phase.max or st.count >= st.talon.bit_count():
            return Exchange._draw(st, phase)
        return False

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.game.seat_name(st.current)
        name = st.action_to_string(action)
        if 0 <= action < st.game.num_cards and not st.pending:
            return Diagnostic("E509", f"{seat} cannot discard {name}: it is not in {seat}'s hand", phase.span,
                              f"discard one of {' '.join(st.game.deck.names(st.hands[st.current]))}, or say done")
        return Phase.explain(st, phase, action)

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
        st.order = turn_order(st, phase.start.fn(st, None), st.active)
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


class Score(Phase):
    """Every seat of ``each`` adds ``add`` to its score; all values are computed before any is added."""

    @staticmethod
    def enter(st, phase) -> bool:
        seats = phase.each.fn(st, None)
        deltas = [(s, phase.add.fn(st, s)) for s in range(st.game.num_players) if seats >> s & 1]
        for seat, delta in deltas:
            st.add_score(seat, delta)
        return False


class Set(Phase):
    """Sets a deal variable."""

    @staticmethod
    def enter(st, phase) -> bool:
        st.vars[phase.var] = phase.value.fn(st, None)
        return False


class Piles(Phase):
    """Chance lays the stock out in equal piles; seats pick a pile each in turn; the last seat takes the last pile."""

    public = False

    @staticmethod
    def enter(st, phase) -> bool:
        size = bin(st.stock).count("1") // phase.count
        st.piles = [0] * phase.count
        st.slots = [pile for pile in range(phase.count) for _ in range(size)]
        st.pos = 0
        st.order = seats_from(st, phase.start.fn(st, None), (1 << st.game.num_players) - 1)
        st.count = 0
        st.current = CHANCE
        return True

    @staticmethod
    def legal(st, phase):
        if st.pos < len(st.slots):
            return bits(st.stock)
        ids = st.game.symbol_ids
        return [ids[f"pile{i + 1}"] for i, pile in enumerate(st.piles) if pile]

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The stock the piles are laid out from, and how many cards are still to lay."""
        return st.stock, len(st.slots) - st.pos

    @staticmethod
    def seer(st, phase, action):
        return -2 if st.pos < len(st.slots) else -1

    @staticmethod
    def apply(st, phase, action) -> bool:
        if st.pos < len(st.slots):
            st.stock ^= 1 << action
            st.piles[st.slots[st.pos]] |= 1 << action
            st.pos += 1
            if st.pos == len(st.slots):
                st.current = st.order[0]
            return False
        Piles._take(st, st.order[st.count], int(st.game.symbols[action - st.game.symbol_base][4:]) - 1)
        st.count += 1
        left = [i for i, pile in enumerate(st.piles) if pile]
        if len(left) == 1 and st.count == len(st.order) - 1:
            Piles._take(st, st.order[st.count], left[0])
            return True
        if not left or st.count >= len(st.order):
            return True
        st.current = st.order[st.count]
        return False

    @staticmethod
    def _take(st, seat: int, pile: int) -> None:
        st.hands[seat] |= st.piles[pile]
        st.dealt[seat] |= st.piles[pile]
        st.decisions[seat] = f"takes pile {pile + 1}"
        st.piles[pile] = 0


class ThrowIn(Phase):
    """A hand that ``must`` be thrown in redeals at once; a holder who ``may`` is asked throw or keep."""

    @staticmethod
    def enter(st, phase) -> bool:
        seats = seats_from(st, st.forehand, (1 << st.game.num_players) - 1)
        if phase.must is not None and any(phase.must.fn(st, seat) for seat in seats):
            st.redeal = True
            return False
        st.order = [seat for seat in seats if phase.may is not None and phase.may.fn(st, seat)]
        st.pos = 0
        if not st.order:
            return False
        st.current = st.order[0]
        return True

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted([ids["throw"], ids["keep"]])

    @staticmethod
    def apply(st, phase, action) -> bool:
        if st.game.symbols[action - st.game.symbol_base] == "throw":
            st.decisions[st.current] = "throws in"
            st.redeal = True
            return True
        st.pos += 1
        if st.pos >= len(st.order):
            return True
        st.current = st.order[st.pos]
        return False
