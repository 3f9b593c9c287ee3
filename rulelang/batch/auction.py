"""Batch kernels of ``auction`` and ``settle``: contracts bid on a ladder, items announced and doubled,
then every counting item scored per side and the net settled (see :mod:`rulelang.batch.kernels`).

The contract of each deal is held as its code (``BatchState.contract``); the auction's slice holds,
per item, who announced it (-1: nobody, 1: the declarers, 0: the defenders) and its doubling level.
What :class:`~rulelang.constructs.auction.Auction` and :class:`~rulelang.constructs.settle.Settle`
do for one deal is done here for all, column by column over the auction's actions and item by item
over the settlement.
"""

from __future__ import annotations

import numpy as np

from rulelang.batch.engine import narrowing_pays, seats_from
from rulelang.batch.kernels import Kernel, add_scores, needs, per_deal
from rulelang.batch.runtime import across, gather, popcount
from rulelang.batch.state import INT, NONE
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.compile.items import announcement, doubling
from rulelang.compile.values import EvalError

NOBODY = -1


class Ladder:
    """The contracts of a game as arrays: per contract its code, rank and which items count in it."""

    def __init__(self, run):
        definition, bs = run.game.definition, run.state
        self.contracts = list(definition.contracts.values())
        self.items = list(definition.items.values())
        self.codes = np.array([bs.code(c.name) for c in self.contracts], dtype=INT)
        self.ranks = np.array([c.rank for c in self.contracts], dtype=INT)
        self.counts = np.zeros((len(self.contracts) + 1, len(self.items)), dtype=bool)
        for row, contract in enumerate(self.contracts):
            listed = contract.items if contract.items is not None else list(definition.items)
            self.counts[row] = [item.name in listed for item in self.items]
        self.counts[-1] = True                    # no contract: every item counts

    def index(self, contract) -> np.ndarray:
        """Each deal's contract as an index into :attr:`contracts` (its last + 1 for none)."""
        found = np.full(len(contract), len(self.contracts), dtype=INT)
        for row, code in enumerate(self.codes.tolist()):
            found[contract == code] = row
        return found


# ---------------------------------------------------------------------- auction
def check_auction(run, phase) -> None:
    """The auction's start and every contract's condition and called card have batch twins; it ends when the
    standing bidder's bid is answered (``ends: bid``)."""
    if phase.rules.ends != "bid":
        raise BatchUnsupported("an auction that ends when the last call is answered (`ends: last_call`)")
    if phase.rules.order != "round":
        raise BatchUnsupported("an auction in duels (`order: duels`)")
    run.fn(phase.start)
    for contract in run.game.definition.contracts.values():
        for rule in (contract.allow, contract.calls):
            if rule is not None:
                run.fn(rule)


def _columns(run, phase, ladder) -> list[tuple]:
    """The auction's actions: (kind, index, extra, action id) — a bid, the pass, an announcement for or
    against an item, a doubling step of an item."""
    ids = run.game.symbol_ids
    columns = [("bid", c, None, ids[contract.name]) for c, contract in enumerate(ladder.contracts)]
    columns.append(("pass", None, None, ids[phase.pass_word]))
    for i, item in enumerate(ladder.items):
        if item.announce and not item.is_game and phase.announcements:
            columns += [("announce", i, True, ids[announcement(item.name, phase.for_word)]),
                        ("announce", i, False, ids[announcement(item.name, phase.against_word)])]
        if phase.announcements:
            columns += [("double", i, level, ids[doubling(word, item.name)]) for level, word in enumerate(phase.doubling)]
    return columns


def _options(run, phase, ladder, columns, current, seats, asking, turns) -> np.ndarray:
    """(deals, columns) booleans: what each deal's seat may say now (``current``: each deal's contract
    as an index into the ladder; ``turns``: the auction's :class:`Turns`)."""
    bs, part = run.state, run.state.auction
    bid = current < len(ladder.contracts)
    rank = np.where(bid, ladder.ranks[np.minimum(current, len(ladder.contracts) - 1)], np.iinfo(INT).min)
    bidder = np.where(bid, bs.declarer, -1)
    holds = turns.may_hold(phase.rules, seats, bidder)
    on_declarers = (np.right_shift(bs.side_mask, seats) & 1) == 1
    counting = ladder.counts[current] & (bid & asking)[:, None]
    allowed = np.zeros((run.n, len(columns)), dtype=bool)
    open_items: dict[int, tuple] = {}
    for column, (kind, index, extra, _) in enumerate(columns):
        if kind == "bid":
            ok = asking & phase.bids & (~bid | (ladder.ranks[index] > rank) | (holds & (ladder.ranks[index] == rank)))
            allow = ladder.contracts[index].allow
            if allow is not None and ok.any():
                ok = ok & np.broadcast_to(run.fn(allow)(bs, seats) != 0, (run.n,))
        elif kind == "pass":
            ok = asking & turns.may_pass(phase.rules, seats, bidder)
        else:
            if index not in open_items:
                open_items[index] = _item_state(part, ladder.items[index], counting[:, index], on_declarers)
            item_ok, unsaid, by_owner, by_other, top = open_items[index]
            if kind == "announce":
                item = ladder.items[index]
                if item.announce not in ("both", "for" if extra else "against") or not unsaid.any():
                    continue
                ok = unsaid & (on_declarers if extra else ~on_declarers)
            elif extra > top:
                continue
            else:
                ok = (part.levels[ladder.items[index].name] == extra) & (by_owner if extra % 2 == 1 else by_other)
            ok &= item_ok
        allowed[:, column] = ok
    return allowed


def _item_state(part, item, counting, on_declarers) -> tuple:
    """What an item's announcement and doubling columns read: where it counts (and the deal is asking, a
    contract bid), where it is still unannounced, where the seat is on its owner's side or the other, and
    the highest doubling level reached where it counts."""
    owner = np.ones(len(counting), dtype=INT) if item.is_game else part.announced[item.name]
    owned = owner != NOBODY
    levels = part.levels[item.name]
    top = int(levels[counting].max(initial=-1))
    return (counting, counting & ~owned, owned & (on_declarers == (owner == 1)), owned & (on_declarers == (owner == 0)),
            top)


def run_auction(run, phase, live) -> None:
    """Turns from ``start``: bid a higher contract, announce, double or pass, until every seat in a row
    has passed (or, with ``once``, every seat has spoken once)."""
    bs, players = run.state, run.game.num_players
    ladder = Ladder(run)
    columns = _columns(run, phase, ladder)
    actions = np.array([action for *_, action in columns], dtype=INT)
    words = [run.game.symbols[a - run.game.symbol_base] for a in actions]
    order, count = seats_from(run, per_deal(run.fn(phase.start)(bs, None), run.n), (1 << players) - 1)
    turns = Turns.begin(run, order, count)
    _auction_steps(run, phase, ladder, (columns, actions, words), turns, live.copy(), ladder.index(bs.contract))


class Turns:
    """Each deal's seat order and how many (``order``, ``count``), whose turn (``pos``), the seats that passed
    (``out``, a mask: for the deal, or since the last word that was not a pass), every seat's mask
    (``everyone``) and place from forehand (``seniority``, (deals, seats)): the bidding model of
    :mod:`rulelang.constructs.bidding` for every deal at once."""

    FIELDS = ("order", "count", "pos", "out", "seniority")

    def __init__(self, everyone: int, **fields) -> None:
        self.everyone = everyone
        for name in self.FIELDS:
            setattr(self, name, fields[name])

    @classmethod
    def begin(cls, run, order, count) -> "Turns":
        players = run.game.num_players
        everyone = (1 << players) - 1
        from_forehand, _ = seats_from(run, run.state.forehand, everyone)
        seniority = np.zeros((run.n, players), dtype=INT)
        np.put_along_axis(seniority, from_forehand[:, :players], np.arange(players, dtype=INT)[None, :], axis=1)
        zeros = np.zeros(run.n, dtype=INT)
        return cls(everyone, order=order, count=count, pos=zeros, out=zeros.copy(), seniority=seniority)

    def rows(self, rows) -> "Turns":
        return Turns(self.everyone, **{name: getattr(self, name)[rows] for name in self.FIELDS})

    def others_out(self, seats) -> np.ndarray:
        return (self.everyone & ~self.out & ~np.left_shift(INT(1), np.maximum(seats, 0))) == 0

    def may_pass(self, rules, seats, bidder) -> np.ndarray:
        alone = self.others_out(seats)
        opening = np.zeros_like(alone) if rules.all_pass is None else ~alone if rules.all_pass == "forced" else \
            np.ones_like(alone)
        confirming = (rules.last == "confirms") & (seats == bidder) & alone
        return np.where(bidder < 0, opening, ~confirming)

    def may_hold(self, rules, seats, bidder) -> np.ndarray:
        held = (bidder >= 0) & (seats == bidder) & (rules.last == "confirms") & self.others_out(seats)
        if rules.hold == "senior":
            senior = gather(self.seniority, seats) < gather(self.seniority, np.maximum(bidder, 0))
            held |= (bidder >= 0) & (seats != bidder) & senior
        return held

    def after_word(self, rules, going, seats, passed, bidder) -> tuple[np.ndarray, np.ndarray]:
        """Where the deals' auctions end after this word: (won by the standing bid, every seat passed)."""
        let_stand = passed & (seats == bidder) & self.others_out(seats)
        self.out = np.where(passed & ~let_stand, self.out | np.left_shift(INT(1), seats), self.out)
        spoke = going & ~passed
        won = let_stand
        if rules.passing == "final" or rules.last == "confirms":
            won = won | (spoke & (bidder == seats) & self.others_out(seats))
        if rules.passing == "again":
            self.out = np.where(spoke & ~won, 0, self.out)
        all_passed = going & (bidder < 0) & (self.out == self.everyone)
        bid_stands = (bidder >= 0) & self.others_out(bidder)
        if rules.last != "stands":
            bid_stands &= (np.right_shift(self.out, np.maximum(bidder, 0)) & 1) == 1
        return going & (won | bid_stands), all_passed

    def advance(self, rules, going, bidder) -> None:
        """The next seat to speak where ``going``: the standing bidder once every other seat has passed, else
        the next in turn (with ``final``, the next one still in)."""
        to_bidder = going & (bidder >= 0) & self.others_out(bidder)
        step = np.where(going, 1, 0)
        if rules.passing == "final":
            for _ in range(1, self.order.shape[1]):
                seat = gather(self.order, (self.pos + step) % self.count)
                out = going & ((np.right_shift(self.out, seat) & 1) == 1)
                if not out.any():
                    break
                step = np.where(out, step + 1, step)
        self.pos = np.where(going, (self.pos + step) % self.count, self.pos)
        if to_bidder.any():
            place = np.argmax(self.order == np.maximum(bidder, 0)[:, None], axis=1)
            self.pos = np.where(to_bidder, place, self.pos)


def _auction_steps(run, phase, ladder, spoken, turns, going, current) -> None:
    """The auction's steps until every deal's has ended; narrowed to the deals still bidding once they are
    fewer than half (``turns``: each deal's :class:`Turns`)."""
    columns, actions, words = spoken
    bs, rules = run.state, phase.rules
    while going.any():
        if narrowing_pays(run, going):
            rows = np.flatnonzero(going)
            narrow = run.narrowed(rows)
            _auction_steps(narrow, phase, ladder, spoken, turns.rows(rows), np.ones(len(rows), dtype=bool),
                           current[rows])
            run.widen(rows, narrow)
            return
        seats = gather(turns.order, turns.pos)
        allowed = _options(run, phase, ladder, columns, current, seats, going, turns)
        if (going & ~across(np.logical_or, allowed)).any():
            raise EvalError("a seat has no legal bid to open the auction", phase.span)
        rows = np.flatnonzero(going)
        chosen = run.ask("auction", words, actions, rows, allowed[rows], seats[rows])
        said = np.full(run.n, -1, dtype=INT)
        said[rows] = chosen
        passed = going & (said == len(ladder.contracts))
        _say(run, ladder, columns, said, seats, going & ~passed)
        current = np.where(going & (said >= 0) & (said < len(ladder.contracts)), said, current)
        bidder = np.where(current < len(ladder.contracts), bs.declarer, -1)
        if phase.once:
            turns.out = np.where(passed, turns.out | np.left_shift(INT(1), seats), turns.out)
            last = going & (turns.pos == turns.count - 1)
            won, all_passed = last & (bidder >= 0), last & (bidder < 0)
        else:
            won, all_passed = turns.after_word(rules, going, seats, passed, bidder)
        if all_passed.any():
            _all_passed(run, phase, all_passed)
        going &= ~(won | all_passed)
        if phase.once:
            turns.pos = np.where(going, turns.pos + 1, turns.pos)
        else:
            turns.advance(rules, going, bidder)


def _all_passed(run, phase, rows) -> None:
    """Every seat passed without a bid in deals ``rows`` (a mask): a redeal, or the all-pass contract played
    with nobody declaring."""
    bs = run.state
    if phase.rules.all_pass == "redeal":
        bs.redeal |= rows
        return
    bs.contract = np.where(rows, bs.code(phase.rules.all_pass_contract), bs.contract)
    for field, value in (("declarer", -1), ("side_mask", 0), ("called", NONE)):
        setattr(bs, field, np.where(rows, value, getattr(bs, field)))


def _say(run, ladder, columns, said, seats, speaking) -> None:
    """Apply each deal's bid, announcement or doubling."""
    bs, part, items = run.state, run.state.auction, run.game.definition.items
    game_item = next((name for name, spec in items.items() if spec.is_game), None)
    spoken = np.bincount(said[speaking & (said >= 0)], minlength=len(columns))
    for column in np.flatnonzero(spoken).tolist():
        kind, index, extra, _ = columns[column]
        rows = np.flatnonzero(speaking & (said == column))
        if kind == "bid":
            _bid(run, ladder.contracts[index], ladder.codes[index], rows, seats[rows])
            continue
        item = ladder.items[index]
        if kind == "announce":
            part.announced[item.name][rows] = 1 if extra else 0
            if not extra and item.against_kontra and game_item is not None:
                part.levels[game_item][rows] = np.maximum(part.levels[game_item][rows], 1)
        else:
            part.levels[item.name][rows] += 1


def _bid(run, contract, code, rows, seats) -> None:
    """A bid: the contract, its declarer and the declaring side (with the called card's holder)."""
    bs, part = run.state, run.state.auction
    bs.contract[rows], bs.declarer[rows] = code, seats
    for name in part.announced:
        part.announced[name][rows], part.levels[name][rows] = NOBODY, 0
    bs.called[rows], bs.side_mask[rows] = NONE, np.left_shift(INT(1), seats)
    if contract.sides == "parties":                 # a parties phase decides them, in secret
        bs.side_mask[rows] = 0
    if contract.sides == "called" and contract.calls is not None:
        cards = per_deal(run.fn(contract.calls)(bs, _seat_array(run, rows, seats)), run.n)[rows]
        bs.called[rows] = cards
        holds = (np.right_shift(bs.hands[rows], np.maximum(cards, 0)[:, None]) & 1) == 1
        holds &= (cards >= 0)[:, None]
        holder = np.where(holds.any(axis=1), holds.argmax(axis=1), -1)
        bs.side_mask[rows] |= np.where(holder >= 0, np.left_shift(INT(1), np.maximum(holder, 0)), 0)


def _seat_array(run, rows, seats) -> np.ndarray:
    """A seat per deal: ``seats`` in ``rows``, seat 0 elsewhere (not read)."""
    out = np.zeros(run.n, dtype=INT)
    out[rows] = seats
    return out


# ---------------------------------------------------------------------- settle
def check_settle(run, phase) -> None:
    """The multiplier, every item's rules and every contract's value have batch twins."""
    if phase.multiplier is not None:
        run.fn(phase.multiplier)
    for item in run.game.definition.items.values():
        for rule in (item.value, item.announced_value, item.achieved, item.caught):
            if rule is not None:
                run.fn(rule)
    for contract in run.game.definition.contracts.values():
        run.fn(contract.value)


def run_settle(run, phase, live) -> None:
    """Every counting item scored for one side, the net settled between the sides by ``pattern``."""
    bs, ladder = run.state, Ladder(run)
    current = ladder.index(bs.contract)
    among = np.where(bs.tricks.among != 0, bs.tricks.among, (1 << run.game.num_players) - 1)
    declarers = bs.side_mask & among
    defenders = among & ~declarers
    factors = np.array([c.bonus_factor for c in ladder.contracts] + [1], dtype=INT)[current]
    net = np.zeros(run.n, dtype=INT)
    personal = np.zeros_like(bs.deal_delta)
    scored = []
    for index, item in enumerate(ladder.items):
        counts = live & ladder.counts[current, index]
        factor = np.ones(run.n, dtype=INT) if item.is_game else factors
        if item.per_seat:
            _per_seat(run, item, factor, among, counts, personal)
            continue
        for for_declarers, amount, hit in _score_item(run, phase, ladder, current, item, declarers, defenders):
            scored.append((item, for_declarers, amount * factor, hit & counts))
    exclusive = np.zeros(run.n, dtype=bool)
    for item, _, _, hit in scored:
        if item.exclusive:
            achieved = _holds(run, item.achieved, declarers) | _holds(run, item.achieved, defenders)
            exclusive |= hit & achieved
    settled = bs.settle.scored
    for item, for_declarers, amount, hit in scored:
        if not (item.exclusive or item.is_game):
            hit = hit & ~exclusive
        net += np.where(hit, np.where(for_declarers, amount, -amount), 0)
        settled[item.name] = settled.get(item.name, np.zeros(run.n, dtype=bool)) | hit
        bs.settle.announced[item.name] = bs.settle.announced.get(item.name, np.zeros(run.n, dtype=bool)) | (
            hit & (bs.auction.announced[item.name] != NOBODY))
    multiplier = per_deal(run.fn(phase.multiplier)(bs, None), run.n) if phase.multiplier is not None else 1
    add_scores(run, _settlement(run, phase, net * multiplier, declarers, defenders, live))
    add_scores(run, np.where(live[:, None], personal * np.asarray(multiplier)[..., None], 0))


def _holds(run, rule, side) -> np.ndarray:
    return np.broadcast_to(run.fn(rule)(run.state, side) != 0, (run.n,))


def _value(run, rule) -> np.ndarray:
    return per_deal(run.fn(rule)(run.state, None), run.n)


def _score_item(run, phase, ladder, current, item, declarers, defenders):
    """(for the declarers?, amount, where) of each way this item scores."""
    bs, part = run.state, run.state.auction
    steps = part.levels[item.name]
    doubled = (lambda v: v + phase.doubling_adds * steps) if phase.doubling_adds else (lambda v: v * 2 ** steps)
    everywhere = np.ones(run.n, dtype=bool)
    if item.is_game:
        value = np.zeros(run.n, dtype=INT)
        for index, contract in enumerate(ladder.contracts):
            value = np.where(current == index, _value(run, contract.value), value)
        return [(_holds(run, item.achieved, declarers), doubled(value), everywhere)]
    owner = part.announced[item.name]
    announced = owner != NOBODY
    owner_side = np.where(owner == 1, declarers, defenders)
    value = _value(run, item.announced_value) if item.announced_value else 2 * _value(run, item.value)
    owner_won = _holds(run, item.achieved, owner_side)
    ways = [(np.where(owner_won, owner == 1, owner != 1), doubled(value), announced)]
    plain = _value(run, item.value)
    for side, for_declarers in ((declarers, True), (defenders, False)):
        achieved = _holds(run, item.achieved, side)
        caught = _holds(run, item.caught, side) if item.caught is not None else np.zeros(run.n, dtype=bool)
        ways.append((np.full(run.n, for_declarers), plain, ~announced & achieved))
        ways.append((np.full(run.n, not for_declarers), plain, ~announced & ~achieved & caught))
    return ways


def _per_seat(run, item, factor, among, counts, personal) -> None:
    """An item each seat scores alone: every other seat in the deal pays it."""
    bs, players = run.state, run.game.num_players
    others = popcount(among) - 1
    value = _value(run, item.value) * factor
    for seat in range(players):
        seated = counts & ((np.right_shift(among, seat) & 1) == 1)
        hit = seated & _holds(run, item.achieved, np.full(run.n, 1 << seat, dtype=INT))
        if not hit.any():
            continue
        for other in range(players):
            inside = (np.right_shift(among, other) & 1) == 1
            personal[:, other] += np.where(hit & inside, value * others if other == seat else -value, 0)
        bs.settle.scored[item.name] = bs.settle.scored.get(item.name, np.zeros(run.n, dtype=bool)) | hit


def _settlement(run, phase, net, declarers, defenders, live) -> np.ndarray:
    """(deals, seats) score changes of the net: each declarer scores it (``declarers_score``), or each
    defender pays it and the declarers share the total."""
    players = run.game.num_players
    deltas = np.zeros((run.n, players), dtype=INT)
    n_def, n_decl = popcount(defenders), popcount(declarers)
    paying = live & (net != 0)
    if phase.pattern != "declarers_score":
        paying &= (n_decl > 0) & (n_def > 0)
        share = np.where(paying, net * n_def // np.maximum(n_decl, 1), 0)
    for seat in range(players):
        declares = (np.right_shift(declarers, seat) & 1) == 1
        defends = (np.right_shift(defenders, seat) & 1) == 1
        if phase.pattern == "declarers_score":
            deltas[:, seat] = np.where(paying & declares, net, 0)
        else:
            deltas[:, seat] = np.where(paying & declares, share, np.where(paying & defends, -net, 0))
    return deltas


# ---------------------------------------------------------------------- value_auction
def run_value_auction(run, phase, live) -> None:
    """A value auction: the speaker names ascending values to the listener, who holds or passes; the
    survivor of both pairs is the declarer at the last value named (all passing: ``all_pass``)."""
    bs, ids = run.state, run.game.symbol_ids
    words = [phase.pass_word, phase.hold_word] + [str(v) for v in phase.values]
    actions = np.array([ids[w] for w in words], dtype=INT)
    values = np.array(phase.values, dtype=INT)
    order, count = seats_from(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    listener, waiting = order[:, 0].copy(), np.ones(run.n, dtype=INT)
    speaker = np.where(count > 1, order[:, 1], -1)
    waiting += count > 1
    value, holder = np.zeros(run.n, dtype=INT), np.full(run.n, -1, dtype=INT)
    bs.vars = {**bs.vars, phase.var: np.where(live, 0, bs.vars[phase.var])}
    current = np.where(speaker >= 0, speaker, listener)
    going = live.copy()
    while going.any():
        rows = np.flatnonzero(going)
        allowed = _value_words(values, value[rows], speaker[rows], current[rows])
        chosen = run.ask("value_auction", words, actions, rows, allowed, current[rows])
        said = np.full(run.n, -1, dtype=INT)
        said[rows] = chosen
        seat = current.copy()
        named = going & (said >= 2)
        value = np.where(named, values[np.maximum(said - 2, 0)], value)
        holder = np.where(named | (going & (said == 1)), seat, holder)
        survivor_named = named & (speaker < 0)
        passed = going & (said == 0)
        all_passed = passed & (speaker < 0)
        listener = np.where(passed & (seat == listener), speaker, listener)
        moved = passed & ~all_passed
        speaker = np.where(moved, np.where(waiting < count, order[bs.rows, np.minimum(waiting, count - 1)], -1), speaker)
        waiting = np.where(moved, waiting + 1, waiting)
        closed_by_pass = moved & (speaker < 0) & (value != 0)
        current = np.where(going & ~passed, np.where(seat == speaker, listener, speaker), current)
        current = np.where(moved, np.where(speaker >= 0, speaker, listener), current)
        closing = survivor_named | closed_by_pass
        declarer = np.where(survivor_named, seat, listener)
        _close_value(run, phase, closing, declarer, value)
        if phase.all_pass is not None:
            bs.contract = np.where(all_passed, bs.code(phase.all_pass), bs.contract)
        else:
            bs.contract = np.where(all_passed, bs.code(None), bs.contract)
        going &= ~(closing | all_passed)


def _value_words(values, value, speaker, current) -> np.ndarray:
    """(deals, words) booleans: pass, hold, then each value — what each deal's current seat may say."""
    allowed = np.zeros((len(value), 2 + len(values)), dtype=bool)
    survivor = speaker < 0
    speaking = ~survivor & (current == speaker)
    allowed[:, 0] = True
    allowed[:, 1] = ~survivor & ~speaking
    allowed[:, 2:] = speaking[:, None] & (values[None, :] > value[:, None])
    allowed[:, 2] |= survivor
    return allowed


def _close_value(run, phase, closing, declarer, value) -> None:
    """The bidding is over in the deals ``closing``: ``declarer`` plays at ``value``."""
    bs = run.state
    bs.declarer = np.where(closing, declarer, bs.declarer)
    bs.side_mask = np.where(closing, np.left_shift(INT(1), np.maximum(declarer, 0)), bs.side_mask)
    bs.vars = {**bs.vars, phase.var: np.where(closing, value, bs.vars[phase.var])}


# ---------------------------------------------------------------------- strain_auction
def check_strain_auction(run, phase) -> None:
    """The batch engine runs the auction as Bridge has it; its bidding rules and named contracts stay
    with the interpreter."""
    if not phase.plain:
        raise BatchUnsupported("a strain_auction with bidding rules or named contracts (Bridge's alone runs "
                               "in the batch engine)")
    needs("start")(run, phase)


def run_strain_auction(run, phase, live) -> None:
    """An auction of levels and strains: pass, a higher level and strain, double an opponent's bid,
    redouble a double of one's own; four passes pass the deal out, three after a bid end it."""
    bs, ids, players = run.state, run.game.symbol_ids, run.game.num_players
    from rulelang.constructs.strain_auction import _bid_names
    strains, names = len(phase.strains), _bid_names(phase.levels, phase.strains)
    words = list(phase.words) + names
    actions = np.array([ids[w] for w in words], dtype=INT)
    teams = run.game.definition.teams
    side_of = np.array([teams[s] if teams else 1 << s for s in range(players)], dtype=INT)
    sides = sorted(set(side_of.tolist()))
    side_index = np.array([sides.index(m) for m in side_of.tolist()], dtype=INT)
    first_named = np.full((run.n, len(sides), strains), -1, dtype=INT)
    order, count = seats_from(run, per_deal(run.fn(phase.start)(bs, None), run.n), bs.active)
    pos, passes = np.zeros(run.n, dtype=INT), np.zeros(run.n, dtype=INT)
    last, bidder, doubling = np.full(run.n, -1, dtype=INT), np.full(run.n, -1, dtype=INT), np.zeros(run.n, dtype=INT)
    going = live.copy()
    while going.any():
        rows = np.flatnonzero(going)
        seats = order[rows, pos[rows]]
        ours = (np.right_shift(side_of[seats], np.maximum(bidder[rows], 0)) & 1) == 1
        bid = last[rows] >= 0
        allowed = np.zeros((len(rows), len(words)), dtype=bool)
        allowed[:, 0] = True
        allowed[:, 1] = bid & ~ours & (doubling[rows] == 0)
        allowed[:, 2] = bid & ours & (doubling[rows] == 1)
        allowed[:, 3:] = np.arange(len(names))[None, :] > last[rows, None]
        chosen = run.ask("strain_auction", words, actions, rows, allowed, seats)
        passing = chosen == 0
        passes[rows] = np.where(passing, passes[rows] + 1, 0)
        doubling[rows] = np.where(chosen == 1, 1, np.where(chosen == 2, 2, np.where(chosen >= 3, 0, doubling[rows])))
        bids = chosen >= 3
        last[rows] = np.where(bids, chosen - 3, last[rows])
        bidder[rows] = np.where(bids, seats, bidder[rows])
        hit = rows[bids]
        strain = (chosen[bids] - 3) % strains
        unnamed = first_named[hit, side_index[seats[bids]], strain] < 0
        first_named[hit[unnamed], side_index[seats[bids]][unnamed], strain[unnamed]] = seats[bids][unnamed]
        ended = passing & ((passes[rows] == count[rows]) | ((last[rows] >= 0) & (passes[rows] == count[rows] - 1)))
        closing = rows[ended & (last[rows] >= 0)]
        _close_strain(run, phase, closing, last, bidder, doubling, first_named, side_index, side_of)
        going[rows[ended]] = False
        pos[rows] = (pos[rows] + 1) % count[rows]


def _close_strain(run, phase, rows, last, bidder, doubling, first_named, side_index, side_of) -> None:
    """The contract of the deals ``rows``: level, strain (its suit), doubling and the declaring side."""
    if not len(rows):
        return
    bs, strains = run.state, len(phase.strains)
    strain = last[rows] % strains
    declarer = first_named[rows, side_index[bidder[rows]], strain]
    suits = np.array(phase.suits, dtype=INT)
    values = {phase.var: suits[strain], "level": last[rows] // strains + 1, "doubling": doubling[rows]}
    changed = {name: bs.vars[name].copy() for name in values}
    for name, held in values.items():
        changed[name][rows] = held
    bs.vars = {**bs.vars, **changed}
    bs.declarer[rows], bs.side_mask[rows] = declarer, side_of[declarer]


# ---------------------------------------------------------------------- declare
def check_declare(run, phase) -> None:
    """The batch engine declares on a ladder of level bids from one up (Bridge's ladder), as its
    strain_auction kernel bids."""
    if phase.by is not None or any(call.contract for call in phase.ladder) or \
            (phase.ladder and phase.ladder[0].level != 1):
        raise BatchUnsupported("a declare phase after an auction with named contracts or levels not from one")


def run_declare(run, phase, live) -> None:
    """The declarer names a level bid at or above the contract the auction left (``level`` and the trump
    variable): his bid or higher; the variables take it."""
    bs, ids = run.state, run.game.symbol_ids
    strains = len({call.strain for call in phase.ladder})
    level, trump = bs.vars["level"], bs.vars[phase.var]
    suits = np.array(phase.suits, dtype=INT)
    strain = np.argmax(trump[:, None] == suits[None, :], axis=1)
    rows = np.flatnonzero(live & (bs.declarer >= 0) & (level > 0))
    if not len(rows):
        return
    rung = (level[rows] - 1) * strains + strain[rows]
    names = [call.name for call in phase.ladder]
    actions = np.array([ids[name] for name in names], dtype=INT)
    allowed = np.arange(len(names))[None, :] >= rung[:, None]
    chosen = run.ask("declare", names, actions, rows, allowed, bs.declarer[rows])
    new_level, new_trump = level.copy(), trump.copy()
    new_level[rows] = chosen // strains + 1
    new_trump[rows] = suits[chosen % strains]
    bs.vars = {**bs.vars, "level": new_level, phase.var: new_trump}


# ---------------------------------------------------------------------- dummy
def run_dummy(run, phase, live) -> None:
    """A seat's hand is exposed and played by another (who plays it changes nothing of the play here)."""
    bs = run.state
    rows = np.flatnonzero(live)
    seats = per_deal(run.fn(phase.seat)(bs, None), run.n)[rows]
    by = per_deal(run.fn(phase.by)(bs, None), run.n)[rows]
    if ((seats < 0) | (by < 0) | (seats == by)).any():
        raise EvalError("the dummy must be a seat played by another seat", phase.span)
    bs.dummy.seat[rows], bs.dummy.by[rows] = seats, by


# ---------------------------------------------------------------------- the kernels named by constructs
AUCTION = Kernel(check_auction, run_auction)
"""The batch kernel of ``auction`` phases (named by its construct's ``batch_kernel``)."""
SETTLE = Kernel(check_settle, run_settle)
"""The batch kernel of ``settle`` phases (named by its construct's ``batch_kernel``)."""
VALUE_AUCTION = Kernel(needs("start"), run_value_auction)
"""The batch kernel of ``value_auction`` phases (named by its construct's ``batch_kernel``)."""
STRAIN_AUCTION = Kernel(check_strain_auction, run_strain_auction)
"""The batch kernel of ``strain_auction`` phases (named by its construct's ``batch_kernel``)."""
DECLARE = Kernel(check_declare, run_declare)
"""The batch kernel of ``declare`` phases (named by its construct's ``batch_kernel``)."""
DUMMY = Kernel(needs("seat", "by"), run_dummy)
"""The batch kernel of ``dummy`` phases (named by its construct's ``batch_kernel``)."""
