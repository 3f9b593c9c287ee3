"""Batch kernels of turn_up, bids and passing (see :mod:`rulelang.batch.kernels` for the form)."""

from __future__ import annotations

import numpy as np

from rulelang.batch.engine import option_sets, pick_bit, seats_from, turn_order, uniform_pick
from rulelang.batch.kernels import Kernel, draw, needs, per_deal, weighed
from rulelang.batch.runtime import across, flat_cells, flat_view, gather, joined, popcount
from rulelang.batch.state import INT
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.compile.values import EvalError


# ---------------------------------------------------------------------- turn_up
def run_turn_up(run, phase, live) -> None:
    """Chance turns up one card of the stock into the deal variable, out of play for the deal."""
    bs = run.state
    rows = np.flatnonzero(live)
    if (bs.stock[rows] == 0).any():
        raise EvalError(f"there is no card left to turn up for `{phase.var}`", phase.span)
    card = draw(run, rows, bs.stock[rows], 1)[0]
    bs.stock[rows] ^= np.left_shift(INT(1), card)
    bs.turn_up.cards[rows] |= np.left_shift(INT(1), card)
    turned = bs.vars[phase.var].copy()
    turned[rows] = card
    bs.vars = {**bs.vars, phase.var: turned}
    run.note(rows, card)


# ---------------------------------------------------------------------- bids
def run_bids(run, phase, live) -> None:
    """Each active seat in turn from ``start`` bids a number from ``low`` to ``high`` that ``forbid`` allows."""
    bs, ids = run.state, run.game.symbol_ids
    numbers = list(range(phase.low, phase.high + 1))
    actions = np.array([ids[str(n)] for n in numbers], dtype=INT)
    order, count = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    for pos in range(run.game.num_players):
        turn = live & (pos < count)
        rows = np.flatnonzero(turn)
        if not len(rows):
            continue
        seats = order[:, pos]
        allowed = weighed(run, phase.forbid, bs.bids, "number", numbers, seats)
        if (~across(np.logical_or, allowed[rows])).any():
            raise EvalError(f"a seat has no number left to bid: `{phase.forbid.text}` forbids them all",
                            phase.forbid.span)
        chosen = run.ask("bids", [str(n) for n in numbers], actions, rows, allowed[rows], seats[rows])
        flat_view(bs.bids.said)[flat_cells(bs.bids.said, rows, seats[rows])] = np.asarray(numbers, dtype=INT)[chosen]


# ---------------------------------------------------------------------- passing
def run_passing(run, phase, live) -> None:
    """Each active seat with cards picks ``count`` of them, one at a time; then each seat's go to its target."""
    if phase.count <= 0:
        return
    bs, players = run.state, run.game.num_players
    start = bs.forehand if phase.start is None else per_deal(run.fn(phase.start)(bs, None), run.n)
    holding = sum(np.where(bs.hands[:, s] != 0, 1 << s, 0) for s in range(players))
    order, count = turn_order(run, start, bs.active & holding)
    targets = np.stack([per_deal(run.fn(phase.to)(bs, s), run.n) for s in range(players)], axis=1)
    in_order = (np.right_shift((bs.active & holding)[:, None], np.arange(players)) & 1) == 1
    if (live[:, None] & in_order & ((targets < 0) | (targets >= players))).any():
        raise EvalError(f"a seat passes to no seat: `{phase.to.text}` gives none", phase.to.span)
    waiting = np.zeros((run.n, players), dtype=INT)
    for pos in range(players):
        for _ in range(phase.count):
            rows = np.flatnonzero(live & (pos < count))
            seats = order[rows, pos]
            hands = bs.hands[rows, seats]
            rows, seats, hands = rows[hands != 0], seats[hands != 0], hands[hands != 0]
            if not len(rows):
                break
            offered = run.one_per_name(hands)
            cards = pick_bit(run.rng, offered)
            run.note(rows, cards, offered)
            bits = np.left_shift(INT(1), cards)
            bs.hands[rows, seats] ^= bits
            waiting[rows, seats] |= bits
    waiting = np.where(live[:, None], waiting, 0)
    for seat in range(players):
        target = np.clip(targets[:, seat], 0, players - 1)
        bs.hands[bs.rows, target] |= waiting[:, seat]
        bs.passing.received[bs.rows, target] |= waiting[:, seat]
        bs.passing.passed[:, seat] |= waiting[:, seat]


# ---------------------------------------------------------------------- pick
def run_pick(run, phase, live) -> None:
    """Each active seat in turn names a value or passes; the first to name one is the declarer."""
    bs, ids, teams = run.state, run.game.symbol_ids, run.game.definition.teams
    words = list(phase.options) + [phase.pass_word]
    actions = np.array([ids[w] for w in words], dtype=INT)
    codes = np.array([bs.code(v) for v in phase.values], dtype=INT)
    team_masks = np.array(teams if teams else [1 << s for s in range(run.game.num_players)], dtype=INT)
    order, count = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    open_ = live.copy()
    for pos in range(run.game.num_players):
        turn = open_ & (pos < count)
        rows = np.flatnonzero(turn)
        if not len(rows):
            continue
        seats = order[:, pos]
        allowed = _allowed_words(run, phase, codes, seats)
        if (~across(np.logical_or, allowed[rows])).any():
            raise EvalError("a seat may neither pass nor name a value", phase.span)
        chosen = run.ask("pick", words, actions, rows, allowed[rows], seats[rows])
        named = chosen < len(codes)
        hit, seat = rows[named], seats[rows[named]]
        values = bs.vars[phase.var].copy()
        values[hit] = codes[chosen[named]]
        bs.vars = {**bs.vars, phase.var: values}
        bs.declarer[hit], bs.side_mask[hit] = seat, team_masks[seat]
        open_[hit] = False


def _allowed_words(run, phase, codes, seats) -> np.ndarray:
    """(deals, options + pass) booleans: what each deal's seat may say now."""
    bs = run.state
    allowed = np.ones((run.n, len(codes) + 1), dtype=bool)
    allowed[:, :-1] = weighed(run, phase.forbid, bs.pick, "value", codes.tolist(), seats)
    if phase.must is not None:
        allowed[:, -1] = ~np.broadcast_to(run.fn(phase.must)(bs, seats) != 0, (run.n,))
    return allowed


# ---------------------------------------------------------------------- take_up
def run_take_up(run, phase, live) -> None:
    """A seat takes the turned-up cards into its hand, then discards as many face down (not those, with keep)."""
    bs = run.state
    rows = np.flatnonzero(live)
    seats = per_deal(run.fn(phase.by)(bs, None), run.n)[rows]
    cards = bs.turn_up.cards[rows]
    bs.take_up.seat[rows], bs.take_up.taken[rows] = seats, cards
    bs.turn_up.cards[rows] = 0
    bs.hands[rows, seats] |= cards
    bs.dealt[rows, seats] |= cards
    for _ in range(phase.discard):
        may = run.one_per_name(bs.hands[rows, seats] & ~(cards if phase.keep else 0))
        going = may != 0
        chosen = pick_bit(run.rng, may[going])
        run.note(rows[going], chosen, may[going])
        bits = np.left_shift(INT(1), chosen)
        bs.hands[rows[going], seats[going]] ^= bits
        bs.discards[rows[going], seats[going]] |= bits
        bs.out[rows[going]] |= bits


# ---------------------------------------------------------------------- piles
def run_piles(run, phase, live) -> None:
    """Chance lays the stock out in ``count`` equal piles; the seats from ``start`` take one each in turn,
    the last seat the last pile."""
    bs, players, ids = run.state, run.game.num_players, run.game.symbol_ids
    rows = np.flatnonzero(live)
    sizes = popcount(bs.stock[rows]) // phase.count
    if not len(rows) or (sizes != sizes[0]).any():
        raise BatchUnsupported("piles of different sizes in different deals")
    size = int(sizes[0])
    cards = draw(run, rows, bs.stock[rows], size * phase.count)
    bits = np.left_shift(INT(1), cards)
    piles = np.zeros((run.n, phase.count), dtype=INT)
    for pile in range(phase.count):
        piles[rows, pile] = joined(bits[pile * size:(pile + 1) * size])
    bs.stock[rows] ^= across(np.bitwise_or, piles[rows])
    for slot in range(size * phase.count):
        run.note(rows, cards[slot])
    order, _ = turn_order(run, per_deal(run.fn(phase.start)(bs, None), run.n), (1 << players) - 1)
    words = [f"pile{i + 1}" for i in range(phase.count)]
    actions = np.array([ids[w] for w in words], dtype=INT)
    for taken in range(players):
        left = piles[rows] != 0
        going = left.any(axis=1)
        seats = order[rows, taken]
        last = (left.sum(axis=1) == 1) & (taken == players - 1)
        asked = going & ~last
        chosen = uniform_pick(run.rng, left)
        run.note(rows[asked], actions[chosen[asked]], option_sets(actions, left[asked]))
        run.tally_decisions("piles", words, rows[asked], chosen[asked], seats[asked])
        take = rows[going]
        pile = piles[take, chosen[going]]
        bs.hands[take, seats[going]] |= pile
        bs.dealt[take, seats[going]] |= pile
        piles[take, chosen[going]] = 0


# ---------------------------------------------------------------------- throw_in
def run_throw_in(run, phase, live) -> None:
    """A hand that ``must`` be thrown in redeals at once; each holder who ``may`` is asked throw or keep,
    from forehand on, until one throws."""
    bs, players, ids = run.state, run.game.num_players, run.game.symbol_ids
    order, _ = seats_from(run, bs.forehand, (1 << players) - 1)
    if phase.must is not None:
        for pos in range(players):
            bs.redeal |= live & np.broadcast_to(run.fn(phase.must)(bs, order[:, pos]) != 0, (run.n,))
    if phase.may is None:
        return
    actions = np.array([ids["throw"], ids["keep"]], dtype=INT)
    may = [np.broadcast_to(run.fn(phase.may)(bs, order[:, pos]) != 0, (run.n,)) for pos in range(players)]
    for pos in range(players):
        asked = np.flatnonzero(live & ~bs.redeal & may[pos])
        if not len(asked):
            continue
        chosen = run.ask("throw_in", ["throw", "keep"], actions, asked, np.ones((len(asked), 2), dtype=bool),
                         order[asked, pos])
        bs.redeal[asked[chosen == 0]] = True


# ---------------------------------------------------------------------- call, open_hand
def _card_forbidden(run, rule, part, seats, cards) -> np.ndarray:
    """The cards of each deal's ``cards`` that ``rule`` allows (``part.card`` set to each card in turn)."""
    bs, kept = run.state, part.card
    allowed = np.zeros(run.n, dtype=INT)
    for card in range(run.game.num_cards):
        bit = INT(1) << INT(card)
        holding = (cards & bit) != 0
        if not holding.any():
            continue
        part.card = np.full(run.n, card, dtype=INT)
        allowed |= np.where(holding & ~np.broadcast_to(run.fn(rule)(bs, seats) != 0, (run.n,)), bit, 0)
    part.card = kept
    return allowed


def run_call(run, phase, live) -> None:
    """A seat names one card of ``cards`` (none that ``forbid`` rules out); its holder partners him."""
    bs = run.state
    seats = per_deal(run.fn(phase.by)(bs, None), run.n)
    if (live & (seats < 0)).any():
        raise EvalError(f"`{phase.by.text}` names no seat to call a card", phase.by.span)
    cards = per_deal(run.fn(phase.cards)(bs, seats), run.n)
    if phase.forbid is not None:
        cards = _card_forbidden(run, phase.forbid, bs.call, seats, cards)
    rows = np.flatnonzero(live)
    if (cards[rows] == 0).any():
        raise EvalError(f"a seat has no card to call: `{phase.cards.text}` leaves none", phase.cards.span)
    offered = run.one_per_name(cards[rows])
    chosen = pick_bit(run.rng, offered)
    asked = popcount(offered) > 1
    run.note(rows[asked], chosen[asked], offered[asked])
    bs.called[rows] = chosen
    holds = (np.right_shift(bs.hands[rows], chosen[:, None]) & 1) == 1
    holder = np.where(holds.any(axis=1), holds.argmax(axis=1), -1)
    bs.side_mask[rows] = np.left_shift(INT(1), seats[rows]) | np.where(
        holder >= 0, np.left_shift(INT(1), np.maximum(holder, 0)), 0)


def run_open_hand(run, phase, live) -> None:
    """A seat's hand is laid open for the rest of the deal."""
    bs = run.state
    seats = per_deal(run.fn(phase.seat)(bs, None), run.n)
    rows = np.flatnonzero(live)
    if (seats[rows] < 0).any():
        raise EvalError("the seat that lays its hand open is none", phase.span)
    bs.open_hand.seat[rows], bs.open_hand.cards[rows] = seats[rows], bs.hands[rows, seats[rows]]


# ---------------------------------------------------------------------- show
def run_show(run, phase, live) -> None:
    """Every seat asked, in turn from forehand: one that may shows its holding to everyone or keeps it, any
    other keeps it (``must``: a seat that may shows, nobody is asked)."""
    bs, players, ids = run.state, run.game.num_players, run.game.symbol_ids
    everyone = (1 << players) - 1
    asked = per_deal(run.fn(phase.by)(bs, None), run.n) & everyone if phase.by is not None else everyone
    order, count = seats_from(run, bs.forehand, asked)
    words = [phase.word, "keep"]
    actions = np.array([ids[w] for w in words], dtype=INT)
    for pos in range(players):
        seats = order[:, pos]
        turn = live & (pos < count)
        cards = per_deal(run.fn(phase.cards)(bs, seats), run.n) & gather(bs.hands, seats)
        may = turn & (cards != 0)
        if phase.may is not None:
            may &= per_deal(run.fn(phase.may)(bs, seats), run.n) != 0
        if phase.must:
            shows = np.flatnonzero(may)
        else:
            rows = np.flatnonzero(turn)
            if not len(rows):
                continue
            allowed = np.stack([may[rows], np.ones(len(rows), dtype=bool)], axis=1)
            chosen = run.ask("show", words, actions, rows, allowed, seats[rows])
            shows = rows[chosen == 0]
        bs.show.shown[shows, seats[shows]] |= cards[shows]


# ---------------------------------------------------------------------- take_talon
def run_take_talon(run, phase, live) -> None:
    """A seat takes the talon (or the part of it it chooses) into its hand, then discards as many cards."""
    bs, part = run.state, run.state.take_talon
    rows = np.flatnonzero(live)
    seats = per_deal(run.fn(phase.by)(bs, None), run.n)[rows]
    if (seats < 0).any():
        raise EvalError(f"`{phase.by.text}` names no seat to take the talon", phase.by.span)
    part.seat[rows] = seats
    part.shown[rows] = bs.talon[rows] if phase.show else 0
    taken = _chosen_part(run, phase, rows, seats) if phase.parts else bs.talon[rows].copy()
    part.taken[rows] = taken
    bs.hands[rows, seats] |= taken
    bs.talon[rows] &= ~taken
    if phase.discard <= 0:
        return
    if (popcount(bs.hands[rows, seats]) < phase.discard).any():
        raise EvalError(f"a seat holds fewer than {phase.discard} cards to discard", phase.span)
    for _ in range(phase.discard):
        may = np.zeros(run.n, dtype=INT)
        may[rows] = bs.hands[rows, seats]
        if phase.forbid is not None:
            everyone = np.zeros(run.n, dtype=INT)
            everyone[rows] = seats
            may = _card_forbidden(run, phase.forbid, part, everyone, may)
        if (may[rows] == 0).any():
            raise EvalError(f"a seat has no card left to discard: `{phase.forbid.text}` forbids them all",
                            phase.forbid.span)
        offered = run.one_per_name(may[rows])
        chosen = pick_bit(run.rng, offered)
        run.note(rows, chosen, offered)
        bits = np.left_shift(INT(1), chosen)
        bs.hands[rows, seats] ^= bits
        bs.discards[rows, seats] |= bits
        bs.out[rows] |= bits


def _chosen_part(run, phase, rows, seats) -> np.ndarray:
    """Chance lays the talon out in equal parts; each seat chooses one by its name: the cards it takes."""
    bs, ids, count = run.state, run.game.symbol_ids, len(phase.parts)
    size, rest = np.divmod(popcount(bs.talon[rows]), count)
    if (rest != 0).any() or (size == 0).any() or (size != size[0]).any():
        raise EvalError(f"a talon cannot be laid out in {count} equal parts", phase.span)
    size = int(size[0])
    cards = draw(run, rows, bs.talon[rows], size * (count - 1))
    bits = np.left_shift(INT(1), cards)
    parts = [joined(bits[i * size:(i + 1) * size]) for i in range(count - 1)]
    parts.append(bs.talon[rows] & ~joined(parts))
    for slot in range(size * (count - 1)):
        run.note(rows, cards[slot])
    actions = np.array([ids[name] for name in phase.parts], dtype=INT)
    chosen = run.ask("take_talon", list(phase.parts), actions, rows, np.ones((len(rows), count), dtype=bool), seats)
    return np.stack(parts, axis=1)[np.arange(len(rows)), chosen]


# ---------------------------------------------------------------------- parties
def run_parties(run, phase, live) -> None:
    """The seats holding any of ``cards`` are the declarers' party (with ``join``, a lone holder's partner
    is found in the first tricks: see the trick kernel)."""
    bs = run.state
    cards = per_deal(run.fn(phase.cards)(bs, None), run.n)
    holders = sum(np.where((bs.hands[:, seat] & cards) != 0, 1 << seat, 0) for seat in range(run.game.num_players))
    bs.parties.cards = np.where(live, cards, bs.parties.cards)
    bs.parties.join = np.where(live, phase.join, bs.parties.join)
    bs.side_mask = np.where(live, holders, bs.side_mask)


# ---------------------------------------------------------------------- the kernels named by constructs
def _check_turn_up(run, phase) -> None:
    """The batch engine turns up stock cards; a card turned up in a hand stays with the interpreter."""
    if phase.seat is not None:
        raise BatchUnsupported("a turn_up `from` a seat's hand (the card stays in the hand)")


def _refuse_lay_aside(run, phase) -> None:
    """Cards laid aside face down stay with the interpreter."""
    raise BatchUnsupported("a lay_aside phase (cards laid aside face down)")


LAY_ASIDE = Kernel(_refuse_lay_aside, _refuse_lay_aside)


def _check_open_hand(run, phase) -> None:
    """The seat's rule must have a batch twin, and the deal may lay only one hand open (the batch state keeps one
    open seat a deal)."""
    needs("seat")(run, phase)
    if phase.after_lead:
        raise BatchUnsupported("a hand laid open after the lead (open_hand's after: lead)")
    if sum(getattr(p, "kind", None) == "open_hand" for p in run.game.definition.phases) > 1:
        raise BatchUnsupported("more than one open_hand phase (several hands laid open)")


def _refuse_meld(run, phase) -> None:
    """Declarations of melds stay with the interpreter."""
    raise BatchUnsupported("a meld phase (declarations of the hands' combinations)")


MELD = Kernel(_refuse_meld, _refuse_meld)
"""The batch kernel of ``lay_aside`` phases: it names what the batch engine lacks."""
TURN_UP = Kernel(_check_turn_up, run_turn_up)
"""The batch kernel of ``turn_up`` phases (named by its construct's ``batch_kernel``)."""
BIDS = Kernel(needs("start", "forbid"), run_bids)
"""The batch kernel of ``bids`` phases (named by its construct's ``batch_kernel``)."""
PASSING = Kernel(needs("start", "to"), run_passing)
"""The batch kernel of ``passing`` phases (named by its construct's ``batch_kernel``)."""
PICK = Kernel(needs("start", "forbid", "must"), run_pick)
"""The batch kernel of ``pick`` phases (named by its construct's ``batch_kernel``)."""
TAKE_UP = Kernel(needs("by"), run_take_up)
"""The batch kernel of ``take_up`` phases (named by its construct's ``batch_kernel``)."""
PILES = Kernel(needs("start"), run_piles)
"""The batch kernel of ``piles`` phases (named by its construct's ``batch_kernel``)."""
THROW_IN = Kernel(needs("must", "may"), run_throw_in)
"""The batch kernel of ``throw_in`` phases (named by its construct's ``batch_kernel``)."""
CALL = Kernel(needs("by", "cards", "forbid"), run_call)
"""The batch kernel of ``call`` phases (named by its construct's ``batch_kernel``)."""
def _check_show(run, phase) -> None:
    """A show of whole holdings only: one of ``counts`` cards, picked one at a time, is not batched."""
    if phase.counts:
        raise BatchUnsupported("a show of a number of cards picked one at a time (`counts`)")
    needs("cards", "may", "by")(run, phase)


SHOW = Kernel(_check_show, run_show)
"""The batch kernel of ``show`` phases (named by its construct's ``batch_kernel``)."""
OPEN_HAND = Kernel(_check_open_hand, run_open_hand)
"""The batch kernel of ``open_hand`` phases (named by its construct's ``batch_kernel``)."""
def _check_take_talon(run, phase) -> None:
    """A take_talon whose discards all lie face down: discards laid face up (``show_discard``) are not batched."""
    if phase.show_discard is not None:
        raise BatchUnsupported("a take_talon that lays discards face up (`show_discard`)")
    needs("by", "forbid")(run, phase)


TAKE_TALON = Kernel(_check_take_talon, run_take_talon)
"""The batch kernel of ``take_talon`` phases (named by its construct's ``batch_kernel``)."""
PARTIES = Kernel(needs("cards"), run_parties)
"""The batch kernel of ``parties`` phases (named by its construct's ``batch_kernel``)."""
