"""A generic rule-based player for any rule file: card play from the trick rules, decisions by quick rollouts.

Card play. What a trick is worth to a seat is learned once per rule file from random deals,
per contract and side (:func:`trick_worth`, :mod:`.learned`: the seat's result against the
table regressed on the tricks and card points it took), so the same player takes tricks in a
game or contract that rewards them and avoids them where tricks cost (a declarer who must
take none); where the game's own `score` phase tells what one more trick brings the seat
as things stand (:func:`next_trick_worth`: an exact bid wants tricks until it is made and
none after), that is used instead. It then wins a trick cheaply (the weakest card that takes it) when the
trick is worth taking, lets a partner who is winning keep the trick and gives it points,
ducks or sheds its weakest card when the trick cannot be won or is not wanted, and leads
a card no unseen card can beat when it has one, else (where cards carry no points) a plain
suit's winner that only a trump takes while the others likely still hold the suit, else
its weakest. A card's strength is
the number of cards it beats when it leads, under the trick rules in force.

A card passed, a step of an exchange with the talon and staying in or dropping out are taken from the hand
(:mod:`~.hand`). Every other decision (a bid, an announcement, Kontra, a trump suit, a throw-in, a pile) is
judged by rollouts of the rest of the deal — cards played by these same rules
(:func:`~.guided.guided_rollout`; ``guided=0``: greedily, :func:`rollout`), every other choice quickly — in
worlds the seat cannot tell from the real one (:func:`~.worlds.determinize`, respecting
the voids public play has shown: :func:`~.inference.public_voids`), every option on the
same worlds; the option with the best mean result is taken. In those rollouts staying in or
dropping out and an exchange with the talon are taken from the hand (:mod:`~.hand`).

It reads the state only through what its seat may know: its hand, the public trick and
played cards, and worlds drawn from the hidden cards as a whole.
"""

from __future__ import annotations

import random
import time
import zlib

from rulelang.constructs import construct
from rulelang.constructs.tricks import Tricks
from rulelang.interpreter.agents.bids import Kit, bid_models, has_pass_word
from rulelang.interpreter.agents.cardplay import choose_card, trick_shunner
from rulelang.interpreter.agents.choices import choice_models
from rulelang.interpreter.agents.learned import known_role
from rulelang.interpreter.agents.passes import pass_evidence
from rulelang.interpreter.agents.hand import card_to_lay_away, card_to_pass, card_to_show, stay_or_leave_known
from rulelang.interpreter.agents.rollouts import (_first_listed, _quick_move, _quiet_end, guided_rollout,  # noqa: F401
                                                   rollout)
from rulelang.interpreter.agents.sides import side_of
from rulelang.interpreter.agents.worth import next_trick_worth, public_score_phases, trick_worth  # noqa: F401
from rulelang.interpreter.inference import public_voids, said_evidence
from rulelang.interpreter.worlds import determinize

ROLLOUT_BUDGET = 64
SCREEN_FROM = 5
"""From this many options a decision is screened first (:func:`judge`)."""
SCREEN_WORLDS = 2
"""Worlds every option is judged on before the best are kept."""
KEPT = 3
"""Options kept after screening, besides the quiet one."""
SETTLED_AFTER = 6
"""Worlds after which an option clearly behind the quiet one is weighed no further (:func:`_clearly_behind`)."""
BEHIND = 2.0
"""Standard errors of the paired differences by which an option must trail the quiet one to be dropped."""
EARLY_AFTER = 3
"""Worlds after which an option far behind the quiet one is weighed no further (by ``EARLY_BEHIND``)."""
EARLY_BEHIND = 4.0
"""Before ``SETTLED_AFTER`` worlds, the standard errors by which an option must trail the quiet one to be dropped:
a bid or a word a hand is far from making is dropped after a few worlds; on so few the spread itself is
uncertain, so the margin is twice the settled one."""
DECIDED_AFTER = 6
"""Worlds after which a decision ends once one option is clearly the choice (:func:`_clearly_ahead`)."""
BLIND_KEPT = 4096
"""Decisions taken holding no card kept per process (:meth:`HeuristicAgent.blind_choice`); the oldest go first."""
_BLIND: dict[tuple, int] = {}


class HeuristicAgent:
    """Rule-based card play and rollout-judged decisions; ``rollouts`` bounds the rollouts per decision, and a
    bid or a call must beat the quiet option by ``caution`` standard errors (0: by anything). With ``listen``
    its worlds also give what the other seats' bids said of their hands (:func:`~.inference.said_evidence`).
    Its rollouts play cards as it plays them itself (``guided=0``: the quicker greedy card play)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, rollouts: int = ROLLOUT_BUDGET, caution: int = 1, listen: int = 0,
                 screen: int = 1, guided: int = 1):
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.caution = caution
        self.listen = bool(listen)
        self.screen = bool(screen)
        self.play = guided_rollout if guided else rollout

    def step(self, state, deadline: float | None = None) -> int:
        """The move for the seat to act in ``state``; with ``deadline`` (a ``time.perf_counter()`` reading) the
        rollouts of a decision stop at the first whole round of worlds that ends after it."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        step = state.step
        if step is not None and step.kind == "tricks":
            cards = [a for a in legal if a < state.game.num_cards]
            card = self.play_card(state, seat, cards) if len(cards) > 1 else cards[0]
            calls = legal[len(cards):]                                # words said before a card (tricks.calls)
            return judge(state, seat, [card] + calls, self.rng, self.rollouts, quiet=card, caution=self.caution,
                         listen=self.listen, deadline=deadline, playout=self.play) if calls else card
        found = self.from_the_hand(state, seat, legal)
        if found is not None:
            return found
        options = candidates(state, legal)
        if len(options) == 1:                                    # nothing to weigh (a pile, a forced reply)
            return options[0]
        if not state.hands[seat]:
            return self.blind_choice(state, seat, options, deadline)
        return judge(state, seat, options, self.rng, self.rollouts, caution=self.caution, listen=self.listen,
                     deadline=deadline, screen=self.screen, playout=self.play)

    def from_the_hand(self, state, seat: int, legal: list[int]) -> int | None:
        """A decision taken from the hand, not by rollouts (:mod:`~.hand`): a card passed, a step of an exchange
        with the talon, staying in or dropping out; None for any other decision, or where the hand cannot say."""
        step = state.step
        kind = step.kind if step is not None else None
        if kind == "passing" and all(a < state.game.num_cards for a in legal):
            return card_to_pass(state, legal, *trick_worth(state.game).known(state, seat, {seat}))
        if kind == "exchange":
            per_trick = trick_worth(state.game).known(state, seat, side_of(state, seat))[0]
            return card_to_lay_away(state, seat, legal, per_trick)
        if kind == "show" and all(a < state.game.num_cards for a in legal):
            return card_to_show(state, legal)
        if kind == "decide" and step.leave is not None:
            return stay_or_leave_known(state, seat, step, legal, self.rng)
        return None

    def blind_choice(self, state, seat: int, options: list[int], deadline: float | None = None) -> int:
        """A decision taken holding no card (cutting or knocking before the deal): every deal that shows the seat
        the same (its observation) asks it alike, so it is judged once per process, on worlds drawn from a
        generator seeded by what the seat sees, which keeps it the same whatever deals a process played before
        (``--jobs`` does not change a number). One judged against a clock (``deadline``) is not kept."""
        seen = state.observation_string(seat)
        key = (state.game.definition.digest, seat, seen, tuple(options), self.rollouts, self.caution, self.listen,
               self.screen, self.play)
        found = _BLIND.get(key)
        if found is None:
            rng = random.Random(zlib.crc32(f"{state.game.definition.digest} {seat} {seen}".encode()))
            found = judge(state, seat, options, rng, self.rollouts, caution=self.caution, listen=self.listen,
                          deadline=deadline, screen=self.screen, playout=self.play)
            if deadline is None:
                if len(_BLIND) >= BLIND_KEPT:
                    del _BLIND[next(iter(_BLIND))]
                _BLIND[key] = found
        return found

    # ------------------------------------------------------------------ card play
    def play_card(self, state, seat: int, legal: list[int]) -> int:
        """A card for the trick on the table (:func:`~.cardplay.choose_card`), by the worth of the trick to the
        side ``seat`` knows it is on."""
        sides, worth = side_of(state, seat), trick_worth(state.game)
        per_trick, per_point = worth.known(state, seat, sides)
        so_far = Tricks.winning_so_far(state) if state.tricks.trick else None
        winner = so_far[0] if so_far else -1                  # -1: the rules name no winner of a part trick
        partner_holds = winner in sides and winner != state.current     # state.current: a dummy played for
        forced = trick_shunner(state, seat, known_role(state, sides) == "defending", worth)
        return choose_card(state, seat, legal, next_trick_worth(state, seat, per_trick), per_point, partner_holds,
                           forced)


def candidates(state, legal: list[int]) -> list[int]:
    """The moves worth judging by rollouts, as the step's construct says
    (:meth:`~rulelang.constructs.base.Construct.worth_judging`: a value auction's words and lowest raise)."""
    step = state.step
    found = construct(step.kind) if step is not None else None
    return found.worth_judging(state, step, legal) if found is not None else legal


# ---------------------------------------------------------------------- decisions by rollouts
def judge(state, seat: int, legal: list[int], rng: random.Random, budget: int, quiet: int | None = None,
          caution: float = 1.0, listen: bool = False, deadline: float | None = None, screen: bool = True,
          playout=None) -> int:
    """The option with the best mean result for ``seat`` over random rollouts, all options on the same worlds.

    Saying something costs evidence: where there is a quiet option — the card rather than a
    call during trick play (``quiet``), passing in an auction (or, where the first speaker
    must bid, the first contract listed), the plain option of a choice (:func:`_quiet_option`) — it is left
    only for an option that beats it on
    the same worlds by more than ``caution`` standard errors of the paired differences, so that
    among noisy bids and calls the luckiest does not win by chance alone. With ``listen`` the worlds give
    what the other seats' bids said of their hands. With ``deadline`` (a ``time.perf_counter()`` reading) no
    new world is begun after it (two at least are played). ``playout`` plays a world out (:func:`rollout`, its
    quick card play, unless given: the player passes :func:`~.guided.guided_rollout`, its own card play).

    Where there are many options (``SCREEN_FROM`` or more: an auction's contracts) they are screened first:
    every option on ``SCREEN_WORLDS`` worlds, then only the ``KEPT`` best and the quiet option on the rest of
    the budget, so that the options worth weighing are weighed on enough worlds to tell them apart. From
    ``SETTLED_AFTER`` worlds on, an option clearly short of the evidence it needs against the quiet one
    (:func:`_clearly_behind`) is weighed no further, from ``EARLY_AFTER`` worlds on one far short of it
    (``EARLY_BEHIND``), and the decision ends when only the quiet option is left: most hands pass at once. From
    ``DECIDED_AFTER`` worlds on it also ends once one option is clearly the choice (:func:`_clearly_ahead`)."""
    before = state.returns()[seat]
    voids = public_voids(state, seat)
    said = (said_evidence(state, seat) if listen else []) + pass_evidence(state, seat, _quick_move)
    quiet = quiet if quiet is not None else _quiet_option(state, legal)
    step = state.step
    found = construct(step.kind) if step is not None else None
    weights = {action: found.evidence(state, step, action) for action in legal} if found is not None else {}
    if screen and quiet in legal and has_pass_word(step) and len(legal) > 1:    # the words the models put clearly behind go
        bars = {action: caution * weights.get(action, 1.0) for action in legal}
        legal = bid_models(state.game, _KIT).worth_weighing(state, seat, legal, quiet, bars)
        if len(legal) == 1:
            return quiet
    gains: dict[int, list[float]] = {action: [] for action in legal}

    def play(options: list[int], worlds: int, least: int) -> list[int]:
        for done in range(worlds):
            if deadline is not None and done >= least and time.perf_counter() > deadline:
                break
            seed = rng.getrandbits(32)
            for action in options:
                gains[action].append(rollout_gain(state, seat, action, seed, voids, before, said, playout))
            seen = len(gains[quiet]) if quiet in options else 0
            if seen >= min(EARLY_AFTER, SETTLED_AFTER):
                behind = BEHIND if seen >= SETTLED_AFTER else EARLY_BEHIND
                options = [a for a in options if a == quiet or
                           not _clearly_behind(gains[a], gains[quiet], caution * weights.get(a, 1.0), behind)]
                if len(options) == 1:
                    break
            if seen >= DECIDED_AFTER and _clearly_ahead(gains, options, quiet, caution, weights):
                break
        return options

    options = legal
    modelled = _modelled_discards(state, legal) if len(legal) >= SCREEN_FROM else None
    if modelled is not None:                             # a discard: the models screen, not two noisy worlds
        options = play(modelled[:KEPT], max(2, budget // KEPT), 2)
    elif len(legal) >= SCREEN_FROM:
        play(legal, SCREEN_WORLDS, SCREEN_WORLDS)
        ranked = sorted(legal, key=lambda action: (-sum(gains[action]), legal.index(action)))
        options = [a for a in legal if a in ranked[:KEPT] or a == quiet]
        for action in legal:
            if action not in options:
                del gains[action]
        options = play(options, max(2, (budget - SCREEN_WORLDS * len(legal)) // len(options)), 0)
    else:
        options = play(legal, max(2, budget // len(legal)), 2)
    gains = {action: gains[action] for action in options}
    if quiet is None:
        return max(options, key=lambda action: (sum(gains[action]), -options.index(action)))
    return beyond_noise(gains, options, quiet, caution, weights or None)


def _modelled_discards(state, legal: list[int]) -> list[int] | None:
    """The cards to lay away best first by the choice models (:meth:`~.choices.ChoiceModels.ranked`), where the
    step is a discard and a later choice is modelled; else None."""
    step = state.step
    if step is None or step.kind not in ("take_talon", "take_up") or not all(a < state.game.num_cards for a in legal):
        return None
    return choice_models(state.game, _quick_move).ranked(state, legal)


def _clearly_behind(gains: list[float], quiet: list[float], bar: float = 0.0, behind: float = BEHIND) -> bool:
    """Whether an option's gains fall short of what it must show against the quiet option on the same worlds
    (beat it by ``bar`` standard errors of the paired differences, :func:`beyond_noise`) by more than ``behind``
    standard errors: weighing it on more worlds could not make it the choice."""
    mean, error = _paired(gains, quiet)
    return mean + behind * error < bar * error


def _clearly_ahead(gains: dict[int, list[float]], options: list[int], quiet: int, caution: float,
                   weights: dict[int, float]) -> bool:
    """Whether the option with the best mean gain is already the choice whatever more worlds would say: it beats
    the quiet one by its evidence (:func:`beyond_noise`) with ``BEHIND`` standard errors of the paired differences
    to spare, and every other option still weighed by ``BEHIND`` of them."""
    leader = max(options, key=lambda action: sum(gains[action]))
    if leader == quiet:
        return False
    for other in options:
        if other == leader:
            continue
        mean, error = _paired(gains[leader], gains[other])
        bar = caution * weights.get(leader, 1.0) if other == quiet else 0.0
        if mean <= (bar + BEHIND) * error:
            return False
    return True


def _paired(gains: list[float], others: list[float]) -> tuple[float, float]:
    """The mean of the paired differences of two options' gains on the same worlds, and its standard error."""
    diffs = [a - b for a, b in zip(gains, others)]
    worlds = len(diffs)
    mean = sum(diffs) / worlds
    return mean, (sum((d - mean) ** 2 for d in diffs) / (worlds - 1) / worlds) ** 0.5


def beyond_noise(gains: dict[int, list[float]], legal: list[int], anchor: int, caution: float = 1.0,
                 weights: dict[int, float] | None = None) -> int:
    """``anchor``, unless a move's gains beat its gains on the same worlds by more than ``caution`` standard
    errors of the paired differences (times the move's weight of evidence: a higher contract or a later
    doubling needs more, :meth:`~rulelang.constructs.base.Construct.evidence`); then the move that beats it
    by most."""
    worlds = len(gains[anchor])
    if worlds < 2:
        return anchor
    best, best_gain = anchor, 0.0
    for action in legal:
        mean, error = _paired(gains[action], gains[anchor])
        weight = weights.get(action, 1.0) if weights else 1.0
        if mean > caution * weight * error and mean > best_gain:
            best, best_gain = action, mean
    return best


def _quiet_option(state, legal: list[int]) -> int | None:
    """The option taken unless another beats it clearly (:func:`beyond_noise`): in a phase with a pass word,
    passing, or the first option when passing is not allowed; in a ``choose`` among names (not suits), the first
    option the rule file lists, which authors make the plain one (docs/language.md, ``choose``); else None (the
    best mean is taken)."""
    step = state.step
    word = getattr(step, "pass_word", None)
    if word is not None:
        action = state.game.symbol_ids.get(word)
        return action if action in legal else legal[0]
    if step is None or step.kind != "choose":
        return None
    if any(state.game.deck.suit_index(state.action_to_string(a)) is not None for a in legal):
        return None
    return _first_listed(state, step, legal)



def rollout_gain(state, seat: int, action: int, seed: int, voids: list[int], before: float, said=(),
                 play=None) -> float:
    """What ``action`` brings ``seat`` in the world drawn from ``seed`` (giving ``said``), played out by
    ``play`` (:func:`rollout` unless given)."""
    world = determinize(state, seat, random.Random(seed), voids, said) \
        or determinize(state, seat, random.Random(seed), said=said)
    world.apply_action(action)
    return (play or rollout)(world, state.deal_number, random.Random(seed ^ 0x5F3759DF))[seat] - before



_KIT = Kit(candidates, _quiet_option, _quick_move, rollout)
"""What :mod:`.bids` learns with: the options weighed, the quiet one, a rollout's move and a rollout."""
