"""Trick play: leading, following by an ordered fallback, heading the trick, and winning it."""

from __future__ import annotations

from rulelang.deck import iter_bits
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import EvalError
from rulelang.interpreter.phases import Phase, bits, seats_from


class Tricks(Phase):
    """The leader leads from ``lead_from``, the others follow the first set of ``follow`` they can,
    the win rules pick the winner; a contract may bring its own rules."""

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
        st.rules = phase.by_contract.get(st.contract, phase.rules)
        lead = phase.lead_by_contract.get(st.contract, phase.lead).fn(st, None)
        st.order = seats_from(st, lead, among)
        st.trick, st.trick_mask, st.led_suit = [], 0, -1
        st.current = st.order[0]
        return bool(st.hands[st.current])

    @staticmethod
    def legal_mask(st, phase, seat) -> int:
        """The cards ``seat`` may play now, as a bitmask."""
        rules = st.rules
        allowed = rules.allowed.fn(st, seat)
        if rules.head and st.trick:
            heading = Tricks.heading(st, allowed)
            if heading:
                return heading
        return allowed

    @staticmethod
    def heading(st, allowed: int) -> int:
        """The cards of ``allowed`` that would win the trick as it stands (Stichzwang)."""
        heads = 0
        trick, mask, seat = st.trick, st.trick_mask, st.current
        for card in iter_bits(allowed):
            st.trick, st.trick_mask = trick + [(seat, card)], mask | 1 << card
            if Tricks.winning_play(st)[1] == card:
                heads |= 1 << card
        st.trick, st.trick_mask = trick, mask
        return heads

    @staticmethod
    def legal(st, phase):
        rules = st.rules
        if rules.head and st.trick:
            return bits(Tricks.legal_mask(st, phase, st.current))
        return bits(rules.allowed.fn(st, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        seat = st.current
        bit = 1 << action
        st.hands[seat] ^= bit
        if not st.trick:
            st.led_suit = st.game.card_suits[action]
        st.trick.append((seat, action))
        st.trick_mask |= bit
        if action == st.called:
            st.revealed = True
        if len(st.trick) < len(st.order):
            st.current = st.order[len(st.trick)]
            return False
        return Tricks._finish_trick(st, phase)

    @staticmethod
    def winning_play(st) -> tuple[int, int]:
        """(seat, card) winning the trick on the table, by the first win rule that applies."""
        card = st.rules.winner.fn(st, None)
        for seat, played in st.trick:
            if played == card:
                return seat, card
        cards = st.game.deck.cards
        raise EvalError("no win rule applies to this trick: " + " ".join(cards[c].name for _, c in st.trick),
                        st.phase.span if st.phase else None)

    @staticmethod
    def _finish_trick(st, phase) -> bool:
        winner, card = Tricks.winning_play(st)
        st.tricks[winner] += 1
        st.won[winner] |= st.trick_mask
        st.trick_winners.append((winner, card))
        number = len(st.trick_winners)
        for seat, played in st.trick:
            st.card_trick[played] = number
            st.card_player[played] = seat
        st.last_trick = (st.trick, winner)
        st.trick, st.trick_mask, st.led_suit = [], 0, -1
        st.order = seats_from(st, winner, st.among)
        st.current = winner
        return not st.hands[winner]

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.current
        name = st.action_to_string(action)
        who = st.game.seat_name(seat)
        if not (0 <= action < st.game.num_cards) or not st.hands[seat] >> action & 1:
            return Diagnostic("E503", f"{who} does not hold '{name}'", phase.span,
                              f"{who} holds {' '.join(st.game.deck.names(st.hands[seat]))}")
        hand = st.hands[seat]
        rules = st.rules
        kind, listed = ("follow", rules.follow) if st.trick else ("lead", rules.lead_from)
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
