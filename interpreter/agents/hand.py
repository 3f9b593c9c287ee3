"""Decisions before the tricks as a player takes them from the hand, in quick rollouts and at the real table.

In a rollout's world every card is known; the seats' other decisions there are cheap
guesses. Two of them shape a whole deal and are taken from the hand rather than at
random: staying in or dropping out (a ``decide`` with ``leave``: :func:`stay_or_leave`)
and an exchange with the talon (:func:`exchange_step`). Both read the other hands and
the talon, so they are for worlds only, never for the state an agent is asked to move in.
At the real table the heuristic takes the same two from what its seat may know
(:func:`stay_or_leave_known` over worlds, :func:`card_to_lay_away` against the hidden cards' average), and a
card passed to another seat by what keeping it is worth (:func:`card_to_pass`).
"""

from __future__ import annotations

import random

from rulelang.compile.deck import bit_list, iter_bits
from rulelang.compile.exprcompile import EvalError
from rulelang.interpreter.agents.worth import beats_masks, next_trick_worth, public_score_phases, scored, sign


def stay_or_leave(world, step, legal: list[int], worth: tuple[float, float], rng: random.Random) -> int:
    """Stay in or leave, whichever the game's own public scoring says is worth more for the tricks the
    hand can count on (:func:`sure_tricks`); a random option where the scoring cannot say."""
    answers = _stay_and_leave(world, step, legal)
    values = None if answers is None else _stay_values(world, world.current_player())
    if values is None:
        return rng.choice(legal)
    staying, leaving = values
    return answers[0] if staying > leaving else answers[1]


def _stay_and_leave(state, step, legal: list[int]) -> tuple[int, int] | None:
    """The first legal answer that stays in and the one that leaves; None unless both are legal."""
    leave = state.game.symbol_ids.get(step.leave)
    stay = [a for a in legal if a != leave]
    return (stay[0], leave) if leave in legal and stay else None


STAY_WORLDS = 16
"""Worlds a real seat's staying in or leaving is weighed on (:func:`stay_or_leave_known`)."""


def stay_or_leave_known(state, seat: int, step, legal: list[int], rng: random.Random) -> int | None:
    """Stay in or leave, for the seat asked in the real state: :func:`stay_or_leave`'s values (the public scoring
    of the tricks the hand can count on) summed over ``STAY_WORLDS`` worlds it cannot tell from the real one;
    None where the scoring cannot say (then rollouts judge)."""
    from rulelang.interpreter.inference import public_voids
    from rulelang.interpreter.worlds import determinize
    answers = _stay_and_leave(state, step, legal)
    if answers is None:
        return None
    voids, staying, leaving = public_voids(state, seat), 0.0, 0.0
    for _ in range(STAY_WORLDS):
        values = _stay_values(determinize(state, seat, rng, voids) or determinize(state, seat, rng), seat)
        if values is None:
            return None
        staying, leaving = staying + values[0], leaving + values[1]
    return answers[0] if staying > leaving else answers[1]


def _stay_values(world, seat: int) -> tuple[float, float] | None:
    """What staying in and taking the tricks the hand can count on (:func:`sure_tricks`), and leaving, would
    bring ``seat`` by the public score phases, in the direction of returns; None where they cannot say."""
    tricks, phases, part = sure_tricks(world, seat), public_score_phases(world.game), world.tricks
    if tricks is None or not phases or part.taken is None:
        return None
    direction = -1.0 if world.game.definition.match.winner == "lowest" else 1.0
    taken, active = part.taken, world.active
    try:
        part.taken = [tricks if s == seat else count for s, count in enumerate(taken)]
        staying = scored(world, seat, phases)
        part.taken = taken
        world.active = active & ~(1 << seat)
        leaving = scored(world, seat, phases)
    except (EvalError, ArithmeticError):
        return None
    finally:
        part.taken, world.active = taken, active
    return direction * staying, direction * leaving


def sure_tricks(world, seat: int) -> int | None:
    """How many of ``seat``'s cards take a trick when they lead: a card does not when another seat still in
    may answer it (by the trick rules to come) with a card that beats it, each such card spent on one of
    the hand's cards only, the hand's strongest cards first (every card is known in a world). None where
    no trick play is to come or its rules cannot be read this early."""
    part = world.tricks
    rules, kept = _upcoming_rules(world), part.rules
    if rules is None:
        return None
    left = {s: world.hands[s] for s in iter_bits(world.active) if s != seat and world.hands[s]}
    saved = part.trick, part.trick_mask, part.led_suit
    part.rules, tricks = rules, 0
    try:
        beats = beats_masks(world)
        for card in sorted(bit_list(world.hands[seat]), key=lambda c: -beats[c].bit_count()):
            part.trick, part.trick_mask, part.led_suit = [(seat, card)], 1 << card, world.game.card_suits[card]
            taken = True
            for other, cards in left.items():
                beating = (rules.allowed.fn(world, other) & cards or cards) & ~beats[card]
                if beating:
                    taken = False
                    left[other] = cards & ~(beating & -beating)
            tricks += taken
    except EvalError:
        return None
    finally:
        part.rules = kept
        part.trick, part.trick_mask, part.led_suit = saved
    return tricks


def exchange_step(world, legal: list[int], worth, rng: random.Random) -> int:
    """Lay away the weakest card (the strongest where tricks cost) while the talon's cards are stronger
    (weaker) on average, else end the exchange; a random step where tricks are neither wanted nor shunned."""
    seat = world.current_player()
    found = _lay_away(world, legal, next_trick_worth(world, seat, worth.of(world, seat)[0]), world.talon)
    return rng.choice(legal) if found is None else found


def _lay_away(state, legal: list[int], trick_value: float, drawn_from: int) -> int | None:
    """Lay away the weakest card (the strongest where a trick is worth less than nothing, ``trick_value``) while a
    card drawn from ``drawn_from`` is stronger (weaker) on average, strength being the cards a card beats under
    the coming trick rules, else end the exchange; None where the exchange may not end, no card may go, nothing
    is left to draw or tricks are neither wanted nor shunned."""
    done = state.game.done_action
    cards = [a for a in legal if a < state.game.num_cards]
    wanted = sign(trick_value)
    if done not in legal or not cards or not drawn_from or not wanted:
        return None
    beats = upcoming_beats(state)
    drawn = bit_list(drawn_from)
    average = sum(beats[c].bit_count() for c in drawn) / len(drawn)
    card = min(cards, key=lambda c: (wanted * beats[c].bit_count(), c))
    return card if wanted * (average - beats[card].bit_count()) > 0 else done


def card_to_lay_away(state, seat: int, legal: list[int], per_trick: float) -> int | None:
    """A step of an exchange with the talon taken from the hand, not by rollouts: lay away the weakest card (the
    strongest where tricks cost) while a card drawn in its place — any of the cards hidden from ``seat``, as far
    as it can tell — is stronger (weaker) on average, strength being the cards a card beats under the coming
    trick rules; else end the exchange. None where tricks are neither wanted nor shunned or nothing is hidden."""
    from rulelang.interpreter.worlds import hidden_places
    hidden = 0
    for _, _, mask in hidden_places(state, seat):
        hidden |= mask
    return _lay_away(state, legal, next_trick_worth(state, seat, per_trick), hidden)


def card_to_pass(state, legal: list[int], per_trick: float, per_point: float) -> int:
    """The card to pass to another seat (a ``passing`` phase): the one whose keeping is worth least to the passer
    — its strength (the share of the other cards it beats under the coming trick rules) standing for its chance
    to take a trick, worth a trick, its own points and the points a trick brings on average — so that where tricks and points cost (Hearts) the
    strongest and costliest go first, the Q♠ before the A♥, and where they are wanted the weakest."""
    beats, cards = upcoming_beats(state), state.game.deck.cards
    others = max(1, state.game.num_cards - 1)
    tricks = max(1, state.game.num_cards // state.game.num_players)
    brought = sum(card.points for card in cards) / tricks          # the points a trick brings on average

    def keeping(c: int) -> float:
        return beats[c].bit_count() / others * (per_trick + per_point * (cards[c].points + brought))
    return min(legal, key=lambda c: (keeping(c), c))


def card_to_show(state, legal: list[int]) -> int:
    """The card to add to a holding shown to everyone (a ``show`` whose seat picks the cards): the weakest under
    the coming trick rules, so that the others learn least of what the hand can take."""
    beats = upcoming_beats(state)
    return min(legal, key=lambda c: (beats[c].bit_count(), c))


def upcoming_beats(world) -> list[int]:
    """:func:`beats_masks` under the trick rules in force, or before trick play those of the first
    tricks phase still to come (:func:`_upcoming_rules`)."""
    part = world.tricks
    rules, kept = _upcoming_rules(world), part.rules
    if rules is None:
        return [0] * world.game.num_cards
    part.rules = rules
    try:
        return beats_masks(world)
    finally:
        part.rules = kept


def _upcoming_rules(world):
    """The trick rules in force, or before trick play those of the first tricks phase still to come (for
    the contract, if one is settled); None if no trick play is to come."""
    if world.tricks.rules is not None:
        return world.tricks.rules
    phases = world.game.definition.phases
    coming = next((p for p in phases[max(world.phase_index, 0):] if p.kind == "tricks"), None)
    return None if coming is None else coming.by_contract.get(world.contract, coming.rules)
