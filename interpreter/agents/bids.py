"""What a word said beside the contract brings against passing, learned per rule file: a screen before rollouts.

The heuristic judges a bid, an announcement or a doubling by rollouts of every option on the same worlds, and
most hands pass after six worlds of every option have shown each word clearly behind. This module learns, per
rule file, what those rollouts would say of the words said beside the contract — announcements and doublings
(the construct's :meth:`~rulelang.constructs.base.Construct.side_word`), not bids, whose worth from the hand a
linear model misjudged — so that a word the hand is clearly not worth is not weighed: for every phase with a
pass word and every such word, a model of the word's gain over passing on the same world
(:func:`bid_features`: the hand as :func:`~.choices.features` reads it, the contract bid so far and who bid
it), fitted by ridge regression (:func:`~.choices.ridge`), with the spread of the one-world gains around it.

The models are learned from ``BID_DEALS`` deals: every seat's decisions in such a phase are played as the
rollouts play them (mostly passing), now and then a word at random; at a decision a row is recorded now and
then, each word and passing played out on the deal's own cards — a world drawn from what the seat could not
see, as the rollouts' are — and each word's gain over passing kept. At the table a word is dropped before any
rollout when the model puts it short of the evidence it needs (:meth:`BidModels.worth_weighing`). The fits are
kept in the cache folder under the rule file's digest, like the trick worth and the choice models, and are
refit when the rules change; a rule file whose auctions have no items learns none.
"""
from __future__ import annotations

import random

from rulelang.constructs import construct
from rulelang.interpreter.agents.choices import features, play_out, ridge
from rulelang.interpreter.agents.sides import side_of
from rulelang.read.cache import learned_path, load_or_learn

BID_DEALS = 200
"""Deals played to learn the models of one rule file (those thrown in before any decision do not count)."""
ROW_SHARE = 0.5
"""The share of the decisions of a learning deal recorded as rows."""
WORD_SHARE = 0.3
"""How often a seat of a learning deal says a word at random rather than what a rollout says."""
MIN_ROWS = 30
"""Rows a word needs before it gets a model; a word without one is always weighed by rollouts."""
WORLDS = 16
"""The worlds whose mean a model's estimate is taken for (a rollout's word is weighed on 6 to 32)."""
BEHIND = 1.0
"""Standard errors of a ``WORLDS``-world mean by which a word must fall short of its evidence to be dropped."""
VERSION = 3
_MODELS: dict[str, "BidModels"] = {}


class BidModels:
    """The fitted models of one rule file: ``fits[(phase index, word)] = (intercept, weights, spread)``."""

    def __init__(self, game, fits: dict[tuple[int, str], tuple[float, list[float], float]]) -> None:
        self.game, self.fits = game, fits

    def gain(self, state, action: int, row: list[float]) -> tuple[float, float] | None:
        """The model's estimate of what ``action`` brings the seat whose :func:`bid_features` are ``row`` over
        passing on one world, and the spread of one world's gain around it; None where the word has no model."""
        found = self.fits.get((state.phase_index, state.action_to_string(action)))
        if found is None:
            return None
        intercept, weights, spread = found
        return intercept + sum(w * x for w, x in zip(weights, row) if x), spread

    def worth_weighing(self, state, seat: int, options: list[int], quiet: int, bars: dict[int, float]) -> list[int]:
        """Of ``options``, every one but the words said beside the contract (:func:`side_words`) the model puts
        clearly behind the quiet one: a word whose estimate, as the mean of ``WORLDS`` worlds, falls short of
        beating passing by its bar (``bars``, in standard errors: the caution times the option's evidence) by more
        than ``BEHIND`` standard errors."""
        words = set(side_words(state, options)) - {quiet} if self.fits else set()
        row = bid_features(state, seat) if words else None
        kept = []
        for action in options:
            estimate = self.gain(state, action, row) if action in words else None
            if estimate is not None:
                mean, spread = estimate
                error = spread / WORLDS ** 0.5
                if mean + BEHIND * error < bars.get(action, 1.0) * error:
                    continue
            kept.append(action)
        return kept


def bid_features(state, seat: int) -> list[float]:
    """:func:`~.choices.features` of the seat's hand, then the auction so far as the seat knows it: one column
    per contract of the rule file (1 for the contract bid so far), and whether the seat bid it, a seat it knows
    to be on its side did, or another seat."""
    row = features(state, seat)
    contract = state.contract
    row += [1.0 if name == contract else 0.0 for name in state.game.definition.contracts]
    declarer = state.declarer
    partner = declarer >= 0 and declarer != seat and declarer in side_of(state, seat)
    row += [float(declarer == seat), float(partner), float(declarer >= 0 and declarer != seat and not partner)]
    return row


def has_pass_word(step) -> bool:
    """Whether a phase is one the models may be for: a phase with a pass word (an auction, a bidding, a pick)."""
    return step is not None and getattr(step, "pass_word", None) is not None


def side_words(state, options: list[int]) -> list[int]:
    """Of ``options``, the words said beside the contract (announcements, doublings: the construct's
    :meth:`~rulelang.constructs.base.Construct.side_word`), the ones the models are for: a bid stays weighed by
    rollouts (a model of a contract's worth from the hand dropped good Solos)."""
    step = state.step
    found = construct(step.kind) if step is not None else None
    return [a for a in options if found is not None and found.side_word(state, step, a)]


def models_wanted(game) -> bool:
    """Whether a rule file has a phase whose words may be said beside the contract (an auction with items)."""
    return any(getattr(phase, "kind", None) == "auction" and game.definition.items for phase in game.definition.phases)


# ---------------------------------------------------------------------- learning
class Kit:
    """What learning needs of the heuristic (which imports this module): ``candidates(state, legal)``, the options
    it weighs; ``quiet(state, legal)``, the option it keeps unless beaten; ``move(state, legal, worth, rng)``, a
    rollout's move; ``play(state, deal_number, rng)``, a rollout to the end of the deal (its returns)."""

    def __init__(self, candidates, quiet, move, play) -> None:
        self.candidates, self.quiet, self.move, self.play = candidates, quiet, move, play


def learn(game, kit: Kit) -> BidModels:
    """The models of ``game`` from ``BID_DEALS`` learning deals (see the module's docstring)."""
    from rulelang.interpreter.agents.worth import trick_worth
    from rulelang.interpreter.game import Game
    one_deal = Game(game.definition, max_deals=1)
    worth, rng = trick_worth(game), random.Random(20261207)
    rows: dict[tuple[int, str], list[tuple[list[float], float]]] = {}
    for _ in range(BID_DEALS):
        play_out(one_deal.new_initial_state(), rng, lambda state: _learning_move(state, kit, worth, rng, rows))
    fits = {}
    for key, found in rows.items():
        if len(found) >= MIN_ROWS:
            intercept, weights = ridge([r for r, _ in found], [y for _, y in found])
            residuals = [y - intercept - sum(w * x for w, x in zip(weights, r)) for r, y in found]
            fits[key] = (intercept, weights, (sum(e * e for e in residuals) / (len(found) - 1)) ** 0.5)
    return BidModels(game, fits)


def _learning_move(state, kit: Kit, worth, rng: random.Random, rows: dict) -> int:
    """A learning deal's move; at a decision in a phase with a pass word, now and then a row of every option's
    gain over passing on this deal's cards."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    step = state.step
    if not has_pass_word(step):
        return kit.move(state, legal, worth, rng)
    options = kit.candidates(state, legal)
    quiet = kit.quiet(state, legal)
    weighed = side_words(state, options)
    if weighed and quiet in options and quiet not in weighed and rng.random() < ROW_SHARE:
        _record(state, [quiet] + weighed, quiet, kit, rng, rows)
    if rng.random() < WORD_SHARE:
        return rng.choice(options)
    return kit.move(state, legal, worth, rng)


def _record(state, options: list[int], quiet: int, kit: Kit, rng: random.Random, rows: dict) -> None:
    """Each option but ``quiet`` played out on the deal's cards, with the same chance, and its gain over ``quiet``
    kept as a row of its word's model."""
    seat, seed = state.current_player(), rng.getrandbits(32)
    row = bid_features(state, seat)
    results = {}
    for action in options:
        trial = state.clone()
        trial.apply_action(action)
        results[action] = kit.play(trial, state.deal_number, random.Random(seed))[seat]
    for action in options:
        if action != quiet:
            key = (state.phase_index, state.action_to_string(action))
            rows.setdefault(key, []).append((row, results[action] - results[quiet]))


def bid_models(game, kit: Kit) -> BidModels:
    """The :class:`BidModels` of ``game``, learned with ``kit`` when neither memory nor the cache folder keeps them
    for this rule file."""
    key = game.definition.digest
    found = _MODELS.get(key)
    if found is None:
        found = _MODELS[key] = _cached(game, kit) if models_wanted(game) else BidModels(game, {})
    return found


def _cached(game, kit: Kit) -> BidModels:
    path = learned_path("bids", f"{game.definition.digest}-v{VERSION}-{BID_DEALS}.json")
    return load_or_learn(path, lambda data: from_json(game, data), lambda: learn(game, kit), to_json)


def to_json(found: BidModels) -> dict:
    """The fits as JSON-ready data."""
    return {"fits": [[index, word, intercept, weights, spread]
                     for (index, word), (intercept, weights, spread) in sorted(found.fits.items())]}


def from_json(game, data: dict) -> BidModels:
    """A :class:`BidModels` from :func:`to_json`'s data; TypeError/ValueError for anything of another shape."""
    width = len(bid_features(game.new_initial_state(), 0))
    phases = game.definition.phases
    fits = {}
    for index, word, intercept, weights, spread in data["fits"]:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(phases):
            raise ValueError("a phase of another game")
        if not isinstance(word, str) or len(weights) != width:
            raise ValueError("a word of another game")
        numbers = [intercept, spread, *weights]
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in numbers):
            raise TypeError("not a number")
        fits[(index, word)] = (float(intercept), [float(w) for w in weights], float(spread))
    return BidModels(game, fits)
