"""The batch kernel of trick play: every deal in the phase plays one card a step, in lock-step.

What :class:`~rulelang.constructs.tricks.Tricks` does for one deal, done for all: the leader is
the phase's ``lead`` rule, each seat plays a card of the batch twin of the rule set's ``allowed``
function (heading the trick when ``head`` says so: the cards that would win it as it stands, by
the twin of ``winner``), the trick's winner takes it and leads the next, until the winner's hand
is empty. A seat alone among the players takes every trick when ``alone: takes_all``.
A contract's own trick rules (``contracts.NAME.tricks``) hold in the deals of that contract; a seat
may say a trick call before its card. A construct other than ``parties`` that watches finished
tricks is not covered yet (``check_tricks`` says so).
"""

from __future__ import annotations

import numpy as np

from rulelang.batch.engine import kth_column, narrowing_pays, pick_bit, seats_from
from rulelang.batch.kernels import Kernel, draw, per_deal
from rulelang.batch.runtime import across, flat_cells, flat_view, gather, low_bit, popcount, unsigned
from rulelang.batch.state import INT, NONE
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.compile.values import EvalError


def check_tricks(run, phase) -> None:
    """Raise BatchUnsupported for trick rules the kernel does not cover."""
    for rules in (phase.rules, *phase.by_contract.values()):
        if rules.draw is not None:
            raise BatchUnsupported("drawing from the stock after each trick (`draw` of the trick rules)")
        for call in rules.calls:
            if call.side == "any" or call.per_trick or call.values or call.ends or call.swap is not None:
                raise BatchUnsupported(f"the call '{call.word}' of trick play: said by any seat, once a trick, with "
                                       "a value, a claim or a swap of the turned card")
            if call.allow is not None:
                run.fn(call.allow)
    watchers = [found.kind for found in run.game.trick_watchers if found.kind != "parties"]
    if watchers:
        raise BatchUnsupported(f"a construct that follows each finished trick ({', '.join(watchers)})")
    for rule in (phase.among, phase.lead, *phase.lead_by_contract.values()):
        run.fn(rule)
    for rules in (phase.rules, *phase.by_contract.values()):
        run.fn(rules.allowed)
        run.fn(rules.winner)
        for rule in (rules.ends_when, rules.kept, rules.gift):
            if rule is not None:
                run.fn(rule)


class RuleSets:
    """The trick rules in force in each deal: the phase's, or its contract's own (``contracts.NAME.tricks``)."""

    def __init__(self, run, phase):
        bs = run.state
        sets = [phase.rules, *phase.by_contract.values()]
        codes = [None, *(bs.code(name) for name in phase.by_contract)]
        self.which = np.zeros(run.n, dtype=INT)
        for index, code in enumerate(codes[1:], start=1):
            self.which[bs.contract == code] = index
        self.used = sorted(set(self.which.tolist()))
        self.allowed_fns = [run.fn(rules.allowed) for rules in sets]
        self.winner_fns = [run.fn(rules.winner) for rules in sets]
        self.end_fns = [None if rules.ends_when is None else run.fn(rules.ends_when) for rules in sets]
        self.kept_fns = [None if rules.kept is None else run.fn(rules.kept) for rules in sets]
        gifts = [None if rules.gift is None else run.fn(rules.gift) for rules in sets]
        self.gift_fns = gifts if any(fn is not None for fn in gifts) else None
        self.heads = np.array([rules.head for rules in sets])[self.which]
        self.calls = [(index, call) for index, rules in enumerate(sets) for call in rules.calls]
        self.free_lead = not any(rules.lead_from for rules in sets)     # a lead may be any card in hand
        self.n = run.n

    def narrowed(self, rows) -> "RuleSets":
        """The rule sets of the deals ``rows`` alone (for a run narrowed to them)."""
        other = object.__new__(RuleSets)
        other.__dict__.update(self.__dict__)
        other.which, other.heads, other.n = self.which[rows], self.heads[rows], len(rows)
        other.used = sorted(set(other.which.tolist()))
        return other

    def _pick(self, fns, bs, seats):
        if len(self.used) == 1:
            return per_deal(fns[self.used[0]](bs, seats), self.n)
        out = np.zeros(self.n, dtype=INT)
        for index in self.used:
            chosen = self.which == index
            out = np.where(chosen, per_deal(fns[index](bs, seats), self.n), out)
        return out

    def allowed(self, bs, seats):
        """The cards each deal's seat may play before heading."""
        return self._pick(self.allowed_fns, bs, seats)

    def winner(self, bs, seats=None):
        """The card that wins each deal's trick on the table (-1: none)."""
        return self._pick(self.winner_fns, bs, seats)

    def kept(self, bs) -> np.ndarray | None:
        """Each deal's cards of the trick on the table that go back to the seats that played them (``kept``), or
        None if no rule set keeps any."""
        if all(self.kept_fns[index] is None for index in self.used):
            return None
        nothing = lambda bs, seats: 0      # noqa: E731
        return self._pick([fn or nothing for fn in self.kept_fns], bs, None) & bs.tricks.trick_mask

    def ended(self, bs) -> np.ndarray | None:
        """Where trick play ends after the trick just finished (``ends_when``), or None if no rule set ends early."""
        if all(self.end_fns[index] is None for index in self.used):
            return None
        never = lambda bs, seats: 0      # noqa: E731
        return self._pick([fn or never for fn in self.end_fns], bs, None) != 0


def _leaders(run, phase) -> np.ndarray:
    """Each deal's first leader: the phase's ``lead``, or its contract's own."""
    bs = run.state
    lead = per_deal(run.fn(phase.lead)(bs, None), run.n)
    for name, rule in phase.lead_by_contract.items():
        lead = np.where(bs.contract == bs.code(name), per_deal(run.fn(rule)(bs, None), run.n), lead)
    return lead


def run_tricks(run, phase, live) -> None:
    """Play every trick of the deals in ``live``."""
    bs, players = run.state, run.game.num_players
    among = per_deal(run.fn(phase.among)(bs, None), run.n).copy()
    part = bs.tricks
    part.among = among
    for rules in (phase.rules, *phase.by_contract.values()):
        for call in rules.calls:
            said = part.calls.setdefault(call.word, np.full(run.n, NONE, dtype=INT))
            said[live] = NONE
    live = live & (among != 0)
    alone = live & (popcount(among) == 1)
    if phase.alone == "takes_all" and alone.any():
        _takes_all(bs, np.flatnonzero(alone), among)
        live &= ~alone
    order, count = seats_from(run, _leaders(run, phase), among)
    playing = live & (gather(bs.hands, order[:, 0]) != 0)
    sets = RuleSets(run, phase)
    allowed = sets.allowed
    seats_played = np.zeros((players, run.n), dtype=INT)      # the trick's seats and cards by position,
    cards_played = np.zeros((players, run.n), dtype=INT)      # a row of every deal per position
    suits = np.asarray(run.game.card_suits, dtype=INT)
    while playing.any():
        for position in range(players):
            turn = playing & (position < count)
            if not turn.any():
                continue
            seats = order[:, position]
            if position == 0 and sets.free_lead:
                legal = gather(bs.hands, seats)
            else:
                legal = per_deal(allowed(bs, seats), run.n)
            if sets.heads.any():
                legal = _headed(run, sets, legal, seats, turn & sets.heads)
            rows = np.flatnonzero(turn)
            chosen = slice(None) if len(rows) == run.n else rows      # every deal: no gather
            offered = run.one_per_name(legal[chosen])
            cards = _calls_then_card(run, sets, rows, seats[rows], offered) if sets.calls \
                else pick_bit(run.rng, offered)
            if not sets.calls:
                run.note(rows, cards, offered)
            _play(run, rows, chosen, seats[chosen], cards, position, suits)
            seats_played[position, chosen] = seats[chosen]
            cards_played[position, chosen] = cards
        played = playing
        order, count, playing = _finish(run, sets, playing, seats_played, cards_played, count)
        if sets.gift_fns is not None:
            _gifts(run, sets, played, order[:, 0])
        ended = sets.ended(bs)
        if ended is not None:
            playing &= ~ended


def _takes_all(bs, rows, among) -> None:
    """A seat alone takes every trick without play: its hand counts as tricks taken."""
    seats = np.log2(among[rows]).astype(INT)
    bs.tricks.taken[rows, seats] = popcount(bs.hands[rows, seats])
    bs.won[rows, seats] |= bs.hands[rows, seats]
    bs.hands[rows, seats] = 0


def _play(run, rows, chosen, seats, cards, position: int, suits) -> None:
    """The cards leave the hands and go on the table, at ``position`` of the trick in every deal of
    ``rows`` (``chosen``: the same deals, a slice when they are all; trick play is in lock-step: every
    deal still playing begins its tricks together)."""
    bs, part = run.state, run.state.tricks
    bits = np.left_shift(INT(1), cards)
    flat_view(bs.hands)[flat_cells(bs.hands, rows, seats)] ^= bits
    if position == 0:
        part.led_suit[chosen], part.led_card[chosen] = suits[cards], cards
    part.trick_mask[chosen] |= bits
    part.table_cards[chosen, position], part.table_seats[chosen, position] = cards, seats
    part.trick[chosen] = position + 1


NARROW_TRIES = 4
"""How many cards some deal must still have to try for heading to narrow to the deals that have any (_heads)."""


def _headed(run, sets, legal, seats, turn) -> np.ndarray:
    """The cards of ``legal`` that would win the trick as it stands, where the trick is begun and any would."""
    following = turn & (run.state.tricks.trick > 0)
    if not following.any():
        return legal
    heads = _heads(run, sets, np.where(following, legal, 0), seats)
    return np.where(following & (heads != 0), heads, legal)


def _heads(run, sets, left, seats) -> np.ndarray:
    """Per deal, the cards of ``left`` that would win the trick on the table if ``seats`` played them.

    Each deal's cards are tried in turn, the j-th of every deal at once: the card is put on the table and
    the winner worked out; once fewer than half the deals have cards left to try, and some have at least
    ``NARROW_TRIES`` (copying their state costs about two tries), the rest are tried in a run narrowed
    to them."""
    heads, left = np.zeros(run.n, dtype=INT), left.copy()
    while (left != 0).any():
        if narrowing_pays(run, left != 0) and int(popcount(left).max()) >= NARROW_TRIES:
            rows = np.flatnonzero(left != 0)
            heads[rows] |= _heads(run.narrowed(rows), sets.narrowed(rows), left[rows], seats[rows])
            break
        bit, card = left & -left, low_bit(left)
        won = _winner_with(run, sets, card, bit, seats)
        heads |= np.where((left != 0) & (won == card), bit, 0)
        left ^= bit
    return heads


def _winner_with(run, sets, card, bit, seats) -> np.ndarray:
    """The card that would win each deal's trick with ``card`` (its ``bit``) added by ``seats``; the trick
    on the table is left as it was."""
    bs, part = run.state, run.state.tricks
    mask, trick = part.trick_mask, part.trick
    cells = flat_cells(part.table_cards, bs.rows, np.minimum(trick, part.table_cards.shape[1] - 1))
    cards, placed_by = flat_view(part.table_cards), flat_view(part.table_seats)
    kept_card, kept_seat = cards[cells], placed_by[cells]
    try:
        part.trick, part.trick_mask = trick + 1, mask | bit
        cards[cells], placed_by[cells] = card, seats
        return per_deal(sets.winner(bs, None), run.n).copy()
    finally:
        part.trick_mask, part.trick = mask, trick
        cards[cells], placed_by[cells] = kept_card, kept_seat


def _finish(run, sets, playing, seats_played, cards_played, count):
    """Give each full trick to its winner, who leads the next; a deal ends when the winner's hand is empty.

    ``seats_played`` and ``cards_played``: (positions, deals), the trick's seats and cards."""
    bs, part = run.state, run.state.tricks
    best = per_deal(sets.winner(bs, None), run.n)
    kept = sets.kept(bs)
    taker = np.full(run.n, -1, dtype=INT)
    for position in range(len(cards_played)):
        taker = np.where((cards_played[position] == best) & (position < count), seats_played[position], taker)
    if ((taker < 0) & playing).any():
        raise EvalError("no win rule applies to a trick", run.game.definition.phases[0].span)
    rows = np.flatnonzero(playing)
    everyone = len(rows) == run.n
    chosen = slice(None) if everyone else rows
    seats = taker[chosen]
    if bs.trick_history:
        _note_trick(part, rows, chosen, seats, best[chosen], seats_played, cards_played, count[chosen])
    if run.game.trick_watchers:
        _join_party(bs, rows, seats)
    mask = part.trick_mask[chosen]
    flat_view(part.taken)[flat_cells(part.taken, rows, seats)] += 1
    if kept is not None:
        _keep(bs, rows, kept[rows], seats_played, cards_played, count)
        mask = mask & ~kept[chosen]
    flat_view(bs.won)[flat_cells(bs.won, rows, seats)] |= mask
    part.played[chosen] |= mask
    part.trick_winners[chosen] += 1
    part.trick[chosen], part.trick_mask[chosen], part.led_suit[chosen], part.led_card[chosen] = 0, 0, NONE, NONE
    leaders = taker if everyone else np.where(playing, taker, 0)
    order, count = seats_from(run, leaders, part.among)
    still = playing & (gather(bs.hands, np.maximum(leaders, 0)) != 0)
    return order, count, still


def _gifts(run, sets, played, winners) -> None:
    """Talon cards drawn by chance, face up, into the won piles of the winners of the tricks just given in the
    deals ``played`` (``gift``), as many as each deal's rule says and its talon holds."""
    bs = run.state
    nothing = lambda bs, seats: 0      # noqa: E731
    wanted = per_deal(sets._pick([fn or nothing for fn in sets.gift_fns], bs, None), run.n)
    counts = np.where(played, np.minimum(np.maximum(wanted, 0), popcount(bs.talon)), 0)
    for count in sorted(set(counts[counts > 0].tolist())):
        rows = np.flatnonzero(counts == count)
        cards = draw(run, rows, bs.talon[rows], count)
        for drawn in cards:
            run.note(rows, drawn)
            bits = np.left_shift(INT(1), drawn)
            bs.talon[rows] ^= bits
            flat_view(bs.won)[flat_cells(bs.won, rows, winners[rows])] |= bits


def _keep(bs, rows, kept, seats_played, cards_played, count) -> None:
    """Each kept card of the deals ``rows`` into the won pile of the seat that played it."""
    for position in range(len(cards_played)):
        cards, seats = cards_played[position, rows], seats_played[position, rows]
        bits = np.left_shift(INT(1), np.maximum(cards, 0))
        hit = (kept & bits != 0) & (position < count[rows])
        if hit.any():
            flat_view(bs.won)[flat_cells(bs.won, rows[hit], seats[hit])] |= bits[hit]


def _note_trick(part, rows, chosen, winners, best, seats, cards, count) -> None:
    """Keep the finished trick's winner and winning card, and each of its cards' trick and player
    (``seats``, ``cards``: (positions, deals), the trick as played; ``chosen``: ``rows``, or a slice)."""
    number = part.trick_winners[chosen]
    cells = flat_cells(part.winners, rows, number)
    flat_view(part.winners)[cells] = winners
    flat_view(part.winning_cards)[cells] = best
    flat_view(part.trick_masks)[cells] = part.trick_mask[chosen]
    for position in range(len(cards)):
        placed = position < count
        cells = flat_cells(part.trick_of_card, rows, cards[position][chosen])[placed]
        flat_view(part.trick_of_card)[cells] = (number + 1)[placed]
        flat_view(part.played_by_card)[cells] = seats[position][chosen][placed]
        by = flat_cells(part.seat_played, rows, np.maximum(seats[position][chosen], 0))
        flat_view(part.seat_played)[by] |= np.where(placed, np.left_shift(INT(1), cards[position][chosen]), 0)


def _calls_then_card(run, sets, rows, seats, offered) -> np.ndarray:
    """Each seat to play picks among its cards and the calls open to it (its side's words, in the rule set
    of its deal's contract, not said yet and whose ``allow`` holds); a call is said and the seat picks
    again, until it plays a card."""
    bs, ids, part = run.state, run.game.symbol_ids, run.state.tricks
    calls = [call for _, call in sets.calls]
    actions = np.array([ids[call.word] for call in calls], dtype=INT)
    cards = np.full(len(rows), -1, dtype=INT)
    asking = np.arange(len(rows))
    seat_of = np.zeros(run.n, dtype=INT)
    seat_of[rows] = seats
    while len(asking):
        here = rows[asking]
        declarer = (np.right_shift(bs.side_mask[here], seats[asking]) & 1) == 1
        sides = {True: declarer, False: ~declarer}
        open_ = np.zeros((len(asking), len(calls)), dtype=bool)
        which = sets.which[here]
        present, allowed = {index: which == index for index in set(which.tolist())}, {}
        for index, (rule_set, call) in enumerate(sets.calls):
            if rule_set not in present:
                continue
            ok = present[rule_set] & sides[bool(call.for_declarers)] & (part.calls[call.word][here] < 0)
            if call.allow is not None and ok.any():
                if id(call.allow) not in allowed:
                    allowed[id(call.allow)] = np.broadcast_to(run.fn(call.allow)(bs, seat_of) != 0, (run.n,))[here]
                ok &= allowed[id(call.allow)]
            open_[:, index] = ok
        picked = pick_bit(run.rng, offered[asking], extra=across(np.add, open_))
        calling = picked < 0
        column = kth_column(open_, np.where(calling, -picked - 1, -1))
        said = np.where(calling, actions[np.maximum(column, 0)], picked)
        run.note(here, said, lambda asking=asking, open_=open_: [
            unsigned(cards_held) | sum(1 << int(a) for a, ok in zip(actions, row) if ok)
            for cards_held, row in zip(offered[asking].tolist(), open_.tolist())])
        for index in np.unique(column[calling]).tolist():
            who = here[calling & (column == index)]
            part.calls[calls[index].word][who] = seat_of[who]
        cards[asking[~calling]] = picked[~calling]
        asking = asking[calling]
    return cards


def _join_party(bs, rows, winners) -> None:
    """``parties`` with ``join``: a lone holder's party gains the first other seat to win one of the first
    ``join`` tricks (``Parties.after_trick``)."""
    parties = bs.parties
    number = bs.tricks.trick_winners[rows]          # this trick's number, its winner already counted
    lone = (parties.join[rows] > 0) & (number <= parties.join[rows]) & (popcount(bs.side_mask[rows]) == 1)
    joining = lone & ((np.right_shift(bs.side_mask[rows], winners) & 1) == 0)
    bs.side_mask[rows[joining]] |= np.left_shift(INT(1), winners[joining])


# ---------------------------------------------------------------------- the kernels named by constructs
TRICKS = Kernel(check_tricks, run_tricks)
"""The batch kernel of ``tricks`` phases (named by its construct's ``batch_kernel``)."""
