"""Playing a deal out from a world where every card is known: the rollouts that judge the players' decisions.

:func:`rollout` plays the rest of a deal with quick moves (:func:`_quick_move`: cards greedily by the deck's
order, bids passed, a doubling answered by a quiet playout, the rest from the hand or at random);
:func:`guided_rollout` plays its cards by the heuristic player's own rules instead
(:func:`~.cardplay.choose_card`, :func:`guided_card`), so that a decision judged on it is worth what the player
would really make of it (the heuristic's decisions and the search's moves).
"""

from __future__ import annotations

import random
import weakref

from rulelang.compile.deck import iter_bits
from rulelang.constructs import construct
from rulelang.constructs.tricks import Tricks
from rulelang.interpreter.agents.cardplay import choose_card, trick_shunner
from rulelang.interpreter.agents.choices import choice_models
from rulelang.interpreter.agents.hand import exchange_step, stay_or_leave
from rulelang.interpreter.agents.learned import each_for_himself
from rulelang.interpreter.agents.worth import MAX_ROLLOUT_ACTIONS, next_trick_worth, sign, trick_worth
from rulelang.interpreter.state import CHANCE

_QUIET_ENDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
"""Per rollout world, the returns its quiet playouts ended with (:func:`_answer`), by the moves so far but passes."""


def rollout(world, deal_number: int, rng: random.Random, move=None) -> list[float]:
    """Quick moves (``move(world, legal, worth, rng)`` if given) until the deal ``deal_number`` is over (or the
    match); the returns then.

    Cards are played greedily (points onto a trick the mover's side already holds, else
    the weakest card that takes a trick worth taking, else the weakest card); in an auction
    everyone passes where passing is allowed, so a bid is judged as the contract it would
    be; every other choice is random.
    """
    worth, move = trick_worth(world.game), move or _quick_move
    phase = world.phase_index
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if world.is_terminal() or world.deal_number > deal_number:
            break
        if world.phase_index != phase:                   # a phase ended: a quiet playout may have played the rest
            ended = _quiet_end(world, phase)
            if ended is not None:
                return ended
            phase = world.phase_index
        if world.current_player() == CHANCE:
            world.apply_chance(rng)
            continue
        legal = world.legal_actions()
        world.apply_action(legal[0] if len(legal) == 1 else move(world, legal, worth, rng))
    return world.returns()


def _partner_holds_trick(world) -> bool:
    """In a rollout's world (every card known there): whether the trick's winner so far is on the mover's side —
    a fixed team, the declarer's side against the rest (a bare auction's winner, who names no contract, plays
    alone against the others, as :func:`~.sides.side_of` has it), never where every seat plays for itself."""
    teams = world.game.definition.teams
    if not teams and (world.contract is None and world.declarer < 0 or each_for_himself(world)):
        return False
    so_far = Tricks.winning_so_far(world)
    if so_far is None:
        return False
    winner, mover = so_far[0], world.current                                    # the seat whose card it is (a dummy's, too)
    if teams:
        return winner != mover and teams[mover] >> winner & 1 == 1
    return winner != mover and (world.side_mask >> winner & 1) == (world.side_mask >> mover & 1)


def _quick_move(world, legal: list[int], worth, rng: random.Random, answering: bool = True,
                play_card=None) -> int:
    """A cheap move for a rollout (see :func:`rollout`); with ``answering`` a doubling is doubled again when the
    mover's side comes out ahead (:func:`_answer`), its playout's cards played by ``play_card(world, legal,
    worth)`` where given (the rollout's own card play), else greedily."""
    step = world.step
    if step is None:
        return rng.choice(legal)
    if step.kind == "tricks":
        cards = world.game.deck.cards
        if legal[-1] >= len(cards):
            legal = [a for a in legal if a < len(cards)]
        fitted_trick, fitted_point = worth.of(world, world.current_player())
        keys = _play_keys(world.game, sign(fitted_point))
        trick = world.tricks.trick
        if trick and _partner_holds_trick(world):
            taking = Tricks.heading(world, sum(1 << c for c in legal), strict=False)
            keep = [c for c in legal if not taking >> c & 1] or legal
            return max(keep, key=keys.give)
        value = next_trick_worth(world, world.current_player(), fitted_trick) + \
            fitted_point * sum(cards[c].points for _, c in trick) if trick else 0
        if value > 0:
            taking = Tricks.heading(world, sum(1 << c for c in legal), strict=False)
            if taking:
                return min(iter_bits(taking), key=keys.take)
        elif value < 0:                                     # a trick to lose: the strongest card that loses it
            taking = Tricks.heading(world, sum(1 << c for c in legal), strict=False)
            ducking = [c for c in legal if not taking >> c & 1]
            return min(ducking or legal, key=keys.take)
        return max(legal, key=keys.shed)
    word = getattr(step, "pass_word", None)
    if word is not None:
        passing = world.game.symbol_ids.get(word)
        if passing in legal:
            answers = construct(step.kind).answers(world, step, legal) if answering else []
            return _answer(world, passing, answers, rng, play_card) if answers else passing
    if step.kind == "decide" and step.leave is not None:
        return stay_or_leave(world, step, legal, worth, rng)
    if step.kind == "exchange":
        return exchange_step(world, legal, worth, rng)
    if step.kind == "choose":
        best = choice_models(world.game, _quick_move).best(world, step, legal)
        return best if best is not None else _plain_choice(world, step, legal)
    if step.kind in ("take_talon", "take_up") and all(a < world.game.num_cards for a in legal):
        best = choice_models(world.game, _quick_move).keep(world, legal)   # a discard: what leaves the hand worth most
        if best is not None:
            return best
        cards = world.game.deck.cards                          # else the lowest card, then the poorest
        return max(legal, key=lambda c: (cards[c].order, -cards[c].points, c))
    return rng.choice(legal)


def _answer(world, passing: int, answers: list[int], rng: random.Random, play_card=None) -> int:
    """A rollout's seat asked whether to double again what the other side doubled: it does (the first such
    item) when its side comes out ahead with the deal played out quickly from here and nobody doubling further.
    In a rollout's world every card is known, so this is the answer of a side sure of its cards; a doubling
    judged on such rollouts pays only when the doubling side is clearly ahead, since one answered costs twice
    what it would — so chains stop where tables stop them. Everyone passing from here ends the deal alike
    however many passes were said before, so one playout answers every seat asked again between the same words
    (kept per world in ``_QUIET_ENDS``, by the moves so far but the passes). ``play_card`` plays that playout's
    cards as the rollout around it does (else greedily), so that its end is the one the rollout would reach."""
    seat = world.current_player()
    ends = _QUIET_ENDS.setdefault(world, {})
    key = (passing, tuple(action for action in world.history if action != passing))
    played = ends.get(key)
    if played is None:
        trial, phase, later = world.clone(), world.phase_index, []

        def quiet(w, legal: list[int], worth, rng: random.Random) -> int:
            if w.phase_index != phase and getattr(w.step, "pass_word", None) is not None:
                later.append(w.phase_index)                   # a later phase where answering would matter
            if play_card is not None and w.step is not None and w.step.kind == "tricks" and \
                    legal[-1] < w.game.num_cards:
                return play_card(w, legal, worth)
            return _quick_move(w, legal, worth, rng, answering=False)
        trial.apply_action(passing)
        returns = rollout(trial, world.deal_number, random.Random(rng.getrandbits(32)), quiet)
        played = ends[key] = (returns, not later)
    return answers[0] if played[0][seat] > world.returns()[seat] else passing


def _quiet_end(world, phase: int) -> list[float] | None:
    """Where a rollout's world leaves phase ``phase`` with everyone having passed since the words a quiet playout
    of :func:`_answer` started from, the returns that playout ended with: the rest of the deal is played the same
    way (no later phase where a doubling could be answered), so it is not played again; else None."""
    ends = _QUIET_ENDS.get(world)
    phases = world.game.definition.phases
    if not ends or not 0 <= phase < len(phases):
        return None
    word = getattr(phases[phase], "pass_word", None)
    passing = world.game.symbol_ids.get(word) if word is not None else None
    if passing is None:
        return None
    found = ends.get((passing, tuple(action for action in world.history if action != passing)))
    return found[0] if found is not None and found[1] else None


class _PlayKeys:
    """A rollout's orderings of the cards of one game, for ``max``/``min`` (the same whatever the deal): ``give``
    (points onto a partner's trick, where points are worth having), ``take`` (the weakest card that takes) and
    ``shed`` (the strongest card, the fewest wanted points first, when nothing is worth taking)."""

    def __init__(self, cards, point_sign: int):
        self.give = [(card.points * point_sign, card.order, -c) for c, card in enumerate(cards)].__getitem__
        self.take = [(card.order, c) for c, card in enumerate(cards)].__getitem__
        self.shed = [(card.order, -card.points * point_sign, c) for c, card in enumerate(cards)].__getitem__


_PLAY_KEYS: dict[tuple, _PlayKeys] = {}


def _play_keys(game, point_sign: int) -> _PlayKeys:
    """The :class:`_PlayKeys` of ``game`` for card points worth ``point_sign`` (kept per game)."""
    key = (game.definition.digest, point_sign)
    found = _PLAY_KEYS.get(key)
    if found is None:
        found = _PLAY_KEYS[key] = _PlayKeys(game.deck.cards, point_sign)
    return found


def _plain_choice(world, step, legal: list[int]) -> int:
    """A seat's choice in a rollout: of suits, its longest (then strongest) suit; else the first option the
    rule file lists, which authors make the plain one (a simple game before a Schneider announced)."""
    options = [world.action_to_string(a) for a in legal]
    suits = [world.game.deck.suit_index(name) for name in options]
    if all(s is not None for s in suits):
        hand, cards = world.hands[world.current_player()], world.game.deck.cards
        def length(pair):
            mask = world.game.deck.suit_masks[pair[1]] & hand
            return (bin(mask).count("1"), sum(cards[c].points for c in iter_bits(mask)))
        return max(zip(legal, suits), key=length)[0]
    return _first_listed(world, step, legal)


def _first_listed(state, step, legal: list[int]) -> int:
    """Of ``legal``, the option ``step`` lists first: the plain one, as authors list them."""
    order = {name: i for i, name in enumerate(step.options)}
    return min(legal, key=lambda a: order.get(state.action_to_string(a), len(order)))


def guided_rollout(world, deal_number: int, rng: random.Random) -> list[float]:
    """Moves until the deal ``deal_number`` is over (or the match), cards played by :func:`guided_card`;
    the returns then."""
    return rollout(world, deal_number, rng, guided_move)


def guided_move(world, legal: list[int], worth, rng: random.Random) -> int:
    """A card by :func:`guided_card` in trick play (where no call is open); else the quick rollouts' move."""
    if world.step is not None and world.step.kind == "tricks" and legal[-1] < world.game.num_cards:
        return guided_card(world, legal, worth)
    return _quick_move(world, legal, worth, rng, play_card=guided_card)


def guided_card(world, legal: list[int], worth) -> int:
    """The card the heuristic player's rules (:func:`~.cardplay.choose_card`) choose for the seat to act in a
    rollout's ``world``, its side read from the world."""
    seat = world.current_player()
    fitted_trick, fitted_point = worth.of(world, seat)
    partner_holds = bool(world.tricks.trick) and _partner_holds_trick(world)
    forced = trick_shunner(world, seat, not world.side_mask >> seat & 1, worth) if world.declarer >= 0 else -1
    return choose_card(world, seat, legal, next_trick_worth(world, seat, fitted_trick), fitted_point, partner_holds,
                       forced)
