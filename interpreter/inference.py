"""What every seat can still hold, inferred from the rules and public play alone; states drawn to match.

:func:`public_voids` replays a state's history and, at every card another seat played to
a trick, reads the ``follow`` (or ``lead_from``) fallbacks as they stood then: a seat
that played from a later tier held no card of the tiers before it, and under ``head``
(Stichzwang) a seat that did not take the trick held no card of its tier that would
have. Tiers whose rule reads a hand are skipped, so nothing hidden leaks into the
inference. :func:`resample_from_infostate` draws a whole state with the same public
history and the same information for one seat: the hidden cards are dealt anew
consistently with those voids, every hidden action of the history is rewritten through
the same exchange of cards, and the new history is replayed move by move; worlds are drawn to
give what the bids said (:func:`said_evidence`), and a draw whose replay a rule still refuses is
drawn again. Only the deal being played is drawn anew (not one thrown in before it).
"""

from __future__ import annotations

import random

from rulelang.constructs import construct
from rulelang.constructs.base import CHANCE
from rulelang.diagnostics import RuleError
from rulelang.read.expr import parse_expr, reads_hidden
from rulelang.compile.exprcompile import EvalError
from rulelang.interpreter.worlds import determinize, hidden_places, mixed_holdings

ATTEMPTS = 40


def public_voids(state, observer: int) -> list[int]:
    """Per seat, the cards it cannot hold now by public play (the observer's own entry stays 0): the
    tiers of the trick rules it did not follow, and what a construct knows from what was said
    (:meth:`~rulelang.constructs.base.Construct.implied_voids`)."""
    replay = state.game.new_initial_state()
    voids = [0] * state.game.num_players
    for action in state.history:
        actor = replay.current_player()
        step = replay.step
        if actor != CHANCE and replay.sub != "first_dealer" and step is not None \
                and step.kind == "tricks" and action < state.game.num_cards:
            seat = replay.current                    # the seat in turn: a dummy whose card its partner plays
            if seat != observer:
                voids[seat] |= _ruled_out(replay, seat, action)
        if actor == CHANCE:
            before = list(replay.hands)
            replay.apply_action(action)
            _forget_voids_of_receivers(replay, before, voids)
            continue
        replay.apply_action(action)
    for found in state.game.parts:
        found.implied_voids(state, observer, voids)
    return voids


def _forget_voids_of_receivers(state, before: list[int], voids: list[int]) -> None:
    """A seat that chance gave a card — the next deal, or a card drawn from the stock during trick play — may
    hold again what it could not follow with."""
    for seat, hand in enumerate(state.hands):
        if hand & ~before[seat]:
            voids[seat] = 0


class SaidEvidence:
    """What a move another seat made says about its hand (:meth:`~rulelang.constructs.base.Construct.said`):
    rules that held for the hand it had then. ``snapshot`` is the state at that moment with every hidden
    card taken out of it, so a rule can be asked of a world's hand and of nothing else; ``played`` the
    cards the seat has played to tricks since, which were in that hand."""

    __slots__ = ("seat", "snapshot", "checks", "played", "size")

    def __init__(self, seat: int, snapshot, checks: list[tuple], size: int):
        self.seat, self.snapshot, self.checks, self.played, self.size = seat, snapshot, checks, 0, size

    def holds(self, world) -> bool:
        """Whether the seat's hand in ``world``, with the cards it played since, gives what its move said."""
        self.snapshot.hands[self.seat] = world.hands[self.seat] | self.played
        try:
            return all(bool(rule.fn(self.snapshot, self.seat)) if value is None
                       else rule.fn(self.snapshot, self.seat) == value for rule, value in self.checks)
        except EvalError:
            return True


def said_evidence(state, observer: int) -> list[SaidEvidence]:
    """What the moves of the other seats said about their hands as they stand now: for each such move whose
    rules read no hidden card but the mover's own hand, and after which no card entered or left that hand but
    by trick play (:attr:`~rulelang.constructs.base.Construct.keeps_hands`)."""
    game = state.game
    defines = game.definition.document.get("define") or {}
    replay, found = game.new_initial_state(), []
    for action in state.history:
        actor, step = replay.current_player(), replay.step
        if step is not None and replay.sub != "first_dealer":
            kind = construct(step.kind)
            if not kind.keeps_hands:
                found = []
            elif step.kind == "tricks" and action < game.num_cards:
                for evidence in found:
                    evidence.played |= (replay.hands[evidence.seat] >> action & 1) << action
            if actor not in (CHANCE, observer):
                checks = [(rule, value) for rule, value in kind.said(replay, step, action)
                          if _own_hand_only(rule, defines)]
                if checks:
                    found.append(SaidEvidence(actor, _blanked(replay), checks, bin(replay.hands[actor]).count("1")))
        replay.apply_action(action)
    return [e for e in found
            if e.size == bin(state.hands[e.seat]).count("1") + bin(e.played).count("1")]


def _own_hand_only(rule, defines: dict) -> bool:
    try:
        return not reads_hidden(parse_expr(rule.text), defines, own_hand=True)
    except RuleError:
        return False


def _blanked(state):
    """A copy of ``state`` with no hidden card in it: every hand, discard pile, talon and stock empty."""
    copy = state.clone()
    n = state.game.num_players
    copy.hands, copy.discards, copy.dealt = [0] * n, [0] * n, [0] * n
    copy.talon = copy.stock = 0
    return copy


def _ruled_out(st, seat: int, card: int) -> int:
    """The cards ``seat`` cannot have held when it played ``card`` to the trick on the table."""
    rules = st.tricks.rules
    tiers = rules.follow if st.tricks.trick else rules.lead_from
    free = rules.free.fn(st, seat) if rules.free is not None else 0
    if free >> card & 1:
        return 0                                     # a free card may be played whatever the hand holds
    before = 0
    for rule in tiers:
        if "hand(" in rule.text:
            return before
        mask = rule.fn(st, seat) & ~free
        if mask >> card & 1:
            return before | _not_heading(st, seat, card, mask & ~before) if rules.head and st.tricks.trick else before
        before |= mask
    return 0


def _not_heading(st, seat: int, card: int, tier: int) -> int:
    """Under Stichzwang: the cards of ``tier`` that would have taken the trick, if ``card`` did not."""
    current = st.current
    st.current = seat
    try:
        heading = construct("tricks").heading(st, tier)
    finally:
        st.current = current
    return 0 if heading >> card & 1 else heading


def resample_from_infostate(state, player: int, rng: random.Random):
    """A state ``player`` cannot tell from ``state``: same public history, its own cards and what it saw,
    and the same seat to act (who is asked next tells what others hold: a seat asked whether to
    throw in holds a hand that may be thrown in). Only the deal being played is drawn anew.

    Returns None only if no consistent draw was found in :data:`ATTEMPTS` tries; a world that a construct
    finds cannot give what was seen (:meth:`~rulelang.constructs.base.Construct.world_fits`: other melds
    counting) is drawn again without a replay, up to four times as often.
    """
    voids, said = public_voids(state, player), said_evidence(state, player)
    start = _current_deal_start(state)
    hidden = {i for i in _hidden_entries(state, player) if i >= start}
    tries = unfit = 0
    while tries < ATTEMPTS and unfit < 4 * ATTEMPTS:
        world = determinize(state, player, rng, voids, said)
        if world is not None and not all(found.world_fits(world, state, player) for found in state.game.parts):
            unfit += 1                            # cheap: no replay for a world that cannot give what was seen
            continue
        tries += 1
        if world is None:
            continue
        exchange = _exchange(state, world, player)
        history = [exchange.get(a, a) if i in hidden else a for i, a in enumerate(state.history)]
        fresh = _replayed(state.game, history, _discards_to_draw(state, player), voids, rng)
        if fresh is not None and fresh.current_player() == state.current_player() \
                and fresh.information_state_string(player) == state.information_state_string(player):
            return fresh
    return None


def _current_deal_start(state) -> int:
    """The index in the history where the deal now being played began (after the last redeal or new deal).
    Only its hidden cards are drawn anew: a finished or thrown-in deal's cards lay elsewhere and tell nothing
    about this one, and rewriting them through this deal's exchange of cards would deal a card twice."""
    replay, start = state.game.new_initial_state(), 0
    mark = (replay.deal_number, replay.redeals)
    for i, action in enumerate(state.history):
        replay.apply_action(action)
        now = (replay.deal_number, replay.redeals)
        if now != mark:
            mark, start = now, i + 1
    return start


def _hidden_entries(state, player: int) -> set[int]:
    """The indexes of history entries whose card ``player`` did not see."""
    cards = state.game.num_cards
    dealt = state.dealt[player]
    return {i for i, (a, seer) in enumerate(zip(state.history, state.seen))
            if a < cards and seer not in (-1, player) and not (seer == -2 and dealt >> a & 1)}


def _exchange(state, world, player: int) -> dict[int, int]:
    """Each hidden card of ``state`` mapped to the card that took its place in ``world``."""
    mapping = {}
    new_places = {(kind, index): mask for kind, index, mask in hidden_places(world, player)}
    for kind, index, mask in hidden_places(state, player):
        old = sorted(_bits(mask))
        new = sorted(_bits(new_places.get((kind, index), 0)))
        mapping.update(zip(old, new))
    return mapping


def _discards_to_draw(state, player: int) -> dict[int, int]:
    """The history entries that are discards of a seat whose hand and discards a world shares anew (``held``
    places): each discarded card's last entry seen by that seat alone, with the seat."""
    found: dict[int, int] = {}
    for seat in mixed_holdings(state, player):
        old, last = state.discards[seat], {}
        for i, (action, seer) in enumerate(zip(state.history, state.seen)):
            if seer == seat and action < state.game.num_cards and old >> action & 1:
                last[action] = i
        found.update({i: seat for i in last.values()})
    return found


def _drawn_discard(fresh, seat: int, later: int, voids: list[int], rng: random.Random) -> int | None:
    """A discard drawn as the replay reaches it: a card the seat may discard there and does not play later,
    one it cannot hold by public play first."""
    legal = [a for a in fresh.legal_actions() if a < fresh.game.num_cards and not later >> a & 1]
    void = [a for a in legal if voids[seat] >> a & 1]
    return rng.choice(void or legal) if legal else None


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _replayed(game, history: list[int], drawn: dict[int, int] | None = None, voids: list[int] | None = None,
              rng: random.Random | None = None):
    """A fresh state with ``history`` applied, or None at the first move that is not legal there.

    At the entries of ``drawn`` (index: seat) the discard is drawn anew (:func:`_drawn_discard`)."""
    fresh = game.new_initial_state()
    plays = _later_plays(game, history, drawn) if drawn else {}
    for i, action in enumerate(history):
        if fresh.is_terminal():
            return None
        if drawn and i in drawn:
            action = _drawn_discard(fresh, drawn[i], plays[i], voids or [0] * game.num_players, rng)
            if action is None:
                return None
        action = fresh.legal_copy(action)                    # in a pack with copies, the copy held there
        if action not in fresh.legal_actions():
            return None
        fresh.apply_action(action)
    return fresh


def _later_plays(game, history: list[int], drawn: dict[int, int]) -> dict[int, int]:
    """Per drawn entry: the cards that appear after it in the history (another discard or a public play),
    which its seat may not discard there."""
    later, out = 0, {}
    for i in range(len(history) - 1, -1, -1):
        if i in drawn:
            out[i] = later
        elif history[i] < game.num_cards:
            later |= 1 << history[i]
    return out
