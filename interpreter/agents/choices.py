"""What a hand is worth under each option of a choice, learned per rule file from simulated deals.

A rollout judges a bid by playing the deal out, and the bidder's own later choices in it (the kind of game,
Hand or pick up, an announcement) decide what the bid is worth: taking the first option listed, a hand good
only for a Null was judged as a suit game and never bid. So each ``choose`` phase whose options are names
gets a model of what the chooser's result against the table will be under each option, from features of the
hand he holds when he chooses (:func:`features`: which cards, how long each suit is, how many could be forced
to take a trick, the numbers the deal has stored, such as the bid), fitted by ridge regression per option
(:func:`ridge`).

The models are learned from ``CHOICE_DEALS`` deals per phase, from the last phase back to the first: the
phase being learned is chosen at random, the phases after it by their models (so an option is worth what it
brings when the choices after it are made well), everything else as a rollout plays it (bids mostly passed,
cards played greedily). Random deals hold few of the hands a rarer option suits, so further rounds
(:func:`_explore_toward`, ``TOWARD_ROUNDS`` of them) play each option again from the positions the models of
the rounds before favour it on, and every option is fitted on all rows so far. The fits are kept in the cache
folder under the rule file's digest, like the trick worth (:mod:`.learned`), and are refit when the rules
change (a new digest).
"""

from __future__ import annotations

import random

from rulelang.compile.deck import iter_bits
from rulelang.constructs import construct
from rulelang.read.cache import learned_path, load_or_learn

CHOICE_DEALS = 240
"""Deals that reach a phase, per ``choose`` phase learned."""
ATTEMPTS = 8
"""Deals tried for each one that counts (most are thrown in when every seat passes)."""
MAX_ACTIONS = 2000
MIN_ROWS = 12
"""Rows an option needs before it gets a model of its own; an option without one is never preferred."""
RIDGE = 20.0
"""The ridge penalty on every weight but the intercept, in rows' worth of evidence that a feature counts for
nothing."""
SWEEPS = 30
QUIET_SHARE = 0.6
"""How often a seat of a learning deal passes where it may (else it says one of the words a player weighs)."""
TOWARD_POOL = 4
"""Positions reaching a phase drawn per ``CHOICE_DEALS``, among which each option's second round picks its hands."""
TOWARD_SHARE = 0.25
"""The second round plays each option from this share of ``CHOICE_DEALS`` positions: those whose hands the
first round's models favour most for it over the other options."""
EXPOSED_UP_TO = 3
"""Exposed cards (:func:`_exposed`) counted up to this many: a misère hand with three is as lost as with ten."""
TOWARD_ROUNDS = 2
"""Rounds of :func:`_explore_toward`, each from the models the rounds before fitted."""
VERSION = 6
_MODELS: dict[str, "ChoiceModels"] = {}


class ChoiceModels:
    """The fitted models of one rule file: ``fits[var][option] = (intercept, weights)``, for the ``choose`` phases
    (by their variable) whose options are names."""

    def __init__(self, game, fits: dict[str, dict[str, tuple[float, list[float]]]]) -> None:
        self.game, self.fits = game, fits
        self.at = {game.definition.phases.index(phase): phase.var for phase in modelled_phases(game)}

    def keep(self, world, legal: list[int]) -> int | None:
        """Of the cards ``legal`` to lay away, the one whose loss leaves the mover's hand worth most under the
        next modelled choice (at its best option), or None when no later phase has models."""
        ranked = self.ranked(world, legal)
        return ranked[0] if ranked else None

    def ranked(self, world, legal: list[int]) -> list[int] | None:
        """The cards ``legal`` to lay away, best first by what the hand left is worth under the next modelled
        choice (at its best option); None when no later phase has models."""
        later = [index for index in self.at if index > world.phase_index]
        found = self.fits.get(self.at[min(later)]) if later else None
        if not found:
            return None
        seat = world.current_player()
        hand = world.hands[seat]
        def worth(card: int) -> float:
            row = features(world, seat, hand & ~(1 << card))
            return max(predict(fit, row) for fit in found.values())
        return sorted(legal, key=lambda card: (-worth(card), card))

    def best(self, world, step, legal: list[int]) -> int | None:
        """The legal option the chooser's hand is worth most under, or None when the phase has no models."""
        found = self.fits.get(step.var)
        if not found:
            return None
        row = features(world, world.current_player())
        scored = [(predict(found[name], row), -i, action) for i, action in enumerate(legal)
                  if (name := world.action_to_string(action)) in found]
        return max(scored)[2] if scored else None


def modelled_phases(game) -> list:
    """The ``choose`` phases by a seat whose options are names (not suits), in the order they are played."""
    phases = []
    for phase in game.definition.phases:
        if getattr(phase, "kind", None) != "choose" or phase.by is None:
            continue
        if set(phase.options) & {s.name for s in game.deck.suits}:
            continue
        if phase.var not in {p.var for p in phases}:
            phases.append(phase)
    return phases


def features(state, seat: int, hand: int | None = None) -> list[float]:
    """What the model reads of ``seat``'s position: how many cards of each rank it holds (the Jacks, the Aces …,
    whatever their suits), each suit's length (longest first), its card points, how many of its cards could be
    forced to take a trick (up to ``EXPOSED_UP_TO``) and whether none could (:func:`_exposed`: a hand for a
    misère), and each number the deal stores (a bid, say), points and numbers scaled to tens. ``hand``: other
    cards than the seat holds."""
    game = state.game
    hand = state.hands[seat] if hand is None else hand
    ranks = _rank_masks(game)
    row = [float((hand & mask).bit_count()) for mask in ranks]
    row += sorted((float((hand & mask).bit_count()) for mask in game.deck.suit_masks), reverse=True)
    cards = game.deck.cards
    row.append(sum(cards[c].points for c in iter_bits(hand)) / 10.0)
    exposed = _exposed(game, hand)
    row += [float(min(exposed, EXPOSED_UP_TO)), float(exposed == 0)]
    row += [float(value) / 10.0 if isinstance(value, int) and not isinstance(value, bool) else 0.0
            for _, value in sorted(_numbers(state))]
    return row


_RANKS: dict[str, list[int]] = {}
_BELOW: dict[str, list[int]] = {}


def _exposed(game, hand: int) -> int:
    """How many of ``hand``'s cards the other seats could force to take a trick when their suit is led low: cards
    with more cards of their suit ranking below them (in the pack's order) out of the hand than in it. None in a
    hand that can lose every trick of its suits (the lowest, third and fifth card of a suit); a lone top card
    is one."""
    below = _below(game)
    return sum(1 for c in iter_bits(hand) if (below[c] & ~hand).bit_count() > (below[c] & hand).bit_count())


def _below(game) -> list[int]:
    """Per card, the cards of its suit that rank below it in the pack's order, kept per game."""
    key = game.definition.digest
    found = _BELOW.get(key)
    if found is None:
        cards = game.deck.cards
        found = _BELOW[key] = [sum(1 << d for d, other in enumerate(cards)
                                   if other.suit == card.suit and other.order > card.order) for card in cards]
    return found


def _rank_masks(game) -> list[int]:
    """One mask per rank name of the deck (the cards of that rank in every suit), kept per game."""
    key = game.definition.digest
    found = _RANKS.get(key)
    if found is None:
        by_rank: dict[str, int] = {}
        for c, card in enumerate(game.deck.cards):
            by_rank[card.rank] = by_rank.get(card.rank, 0) | 1 << c
        found = _RANKS[key] = list(by_rank.values())
    return found


def _numbers(state) -> list[tuple[str, int]]:
    return [(name, state.vars.get(name) or 0) for name, kind in state.game.definition.deal_vars.items()
            if kind == "int"]


def predict(fit: tuple[float, list[float]], row: list[float]) -> float:
    """The model's estimate for one row of :func:`features`."""
    intercept, weights = fit
    return intercept + sum(w * x for w, x in zip(weights, row) if x)


def ridge(rows: list[list[float]], targets: list[float], penalty: float = RIDGE) -> tuple[float, list[float]]:
    """Least squares with a ridge ``penalty`` on the weights (not the intercept), by coordinate descent over the
    centred features: ``(intercept, weights)``."""
    n, width = len(rows), len(rows[0])
    means = [sum(r[j] for r in rows) / n for j in range(width)]
    target_mean = sum(targets) / n
    columns = [[r[j] - means[j] for r in rows] for j in range(width)]
    norms = [sum(x * x for x in column) for column in columns]
    residual = [y - target_mean for y in targets]
    weights = [0.0] * width
    for _ in range(SWEEPS):
        for j, column in enumerate(columns):
            if norms[j] == 0.0:
                continue
            old = weights[j]
            new = (sum(x * r for x, r in zip(column, residual)) + norms[j] * old) / (norms[j] + penalty)
            if new != old:
                change = new - old
                residual = [r - change * x for r, x in zip(residual, column)]
                weights[j] = new
    intercept = target_mean - sum(w * m for w, m in zip(weights, means))
    return intercept, weights


# ---------------------------------------------------------------------- learning
def learn(game, move) -> ChoiceModels:
    """The models of every phase of :func:`modelled_phases`, learned from the last phase back to the first, the
    deals played by ``move(state, legal, worth, rng)`` (a rollout's moves)."""
    models = _MODELS[game.definition.digest] = ChoiceModels(game, {})     # the rollouts of learning read it
    phases = modelled_phases(game)
    for index in range(len(phases) - 1, -1, -1):
        var = phases[index].var
        rows = _explore(game, models, var, 20261206 + index, move)
        models.fits[var] = _fit(rows)
        for round_ in range(TOWARD_ROUNDS):
            rows += _explore_toward(game, models, var, 20261207 + index + 1000 * round_, move)
            models.fits[var] = _fit(rows)
    return models


def _fit(rows: list[tuple[str, list[float], float]]) -> dict[str, tuple[float, list[float]]]:
    """One ridge fit per option of ``rows`` (option, features, result) that has ``MIN_ROWS`` of them."""
    by_option: dict[str, list[tuple[list[float], float]]] = {}
    for option, row, result in rows:
        by_option.setdefault(option, []).append((row, result))
    return {option: ridge([r for r, _ in found], [y for _, y in found])
            for option, found in by_option.items() if len(found) >= MIN_ROWS}


def _explore(game, models: ChoiceModels, var: str, seed: int, move) -> list[tuple[str, list[float], float]]:
    """Rows (option chosen, features, the chooser's result against the table) from deals in which the phase of
    ``var`` is chosen at random, the other modelled phases by ``models`` where they have one (``move`` reads them)
    and everything else by ``move(state, legal, worth, rng)``, now and then bidding (:func:`_bid`)."""
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.agents.worth import trick_worth
    one_deal = Game(game.definition, max_deals=1)
    worth, rng, rows = trick_worth(game), random.Random(seed), []
    for _ in range(CHOICE_DEALS * ATTEMPTS):
        if len(rows) >= CHOICE_DEALS:
            break
        state, chosen = one_deal.new_initial_state(), []
        play_out(state, rng, lambda state: _exploring_move(state, var, chosen, worth, rng, move))
        if not chosen or not state.is_terminal():
            continue
        seat, option, row = chosen
        rows.append((option, row, _against(state, seat)))
    return rows


def _against(state, seat: int) -> float:
    """``seat``'s result at the end of ``state``'s deal against the mean of the others'."""
    returns = state.returns()
    n = len(returns)
    return returns[seat] - (sum(returns) - returns[seat]) / (n - 1) if n > 1 else returns[seat]


def _explore_toward(game, models: ChoiceModels, var: str, seed: int, move) -> list[tuple[str, list[float], float]]:
    """A second round of rows for the phase of ``var``, each option played from the hands the first round's models
    favour it on: random deals hold few hands a rarer option suits (a hand that can lose every trick), so a model
    fitted on them alone cannot tell a good one from a bad one. Of ``TOWARD_POOL * CHOICE_DEALS`` positions reaching the
    phase (played as :func:`_explore` plays them), each option is played out from the ``TOWARD_SHARE *
    CHOICE_DEALS`` where it is legal and leads the best other option by most; not at all where it leads by the
    same in every position (a choice made before any card is seen)."""
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.agents.worth import trick_worth
    fits = models.fits.get(var) or {}
    if len(fits) < 2:
        return []
    one_deal = Game(game.definition, max_deals=1)
    worth, rng = trick_worth(game), random.Random(seed)
    never: list = []
    def exploring(state) -> int:
        return _exploring_move(state, None, never, worth, rng, move)
    pool = []
    for _ in range(CHOICE_DEALS * TOWARD_POOL * ATTEMPTS):
        if len(pool) >= CHOICE_DEALS * TOWARD_POOL:
            break
        state = one_deal.new_initial_state()
        if play_out(state, rng, exploring, until=lambda state: _choosing(state, var)):
            seat = state.current_player()
            names = {state.action_to_string(action): action for action in state.legal_actions()}
            pool.append((state, seat, features(state, seat), names))
    rows = []
    for option in sorted(fits):
        def lead(entry) -> float:
            _, _, row, names = entry
            others = [predict(fits[name], row) for name in names if name in fits and name != option]
            return predict(fits[option], row) - max(others) if others else 0.0
        found = sorted((entry for entry in pool if option in entry[3]), key=lead, reverse=True)
        if not found or lead(found[0]) == lead(found[-1]):
            continue                                    # the models tell no position from another (no cards yet)
        for state, seat, row, names in found[:int(TOWARD_SHARE * CHOICE_DEALS)]:
            world = state.clone()
            world.apply_action(names[option])
            play_out(world, rng, exploring)
            if world.is_terminal():
                rows.append((option, row, _against(world, seat)))
    return rows


def _exploring_move(state, var: str | None, chosen: list, worth, rng: random.Random, move) -> int:
    """A move of a learning deal of :func:`_explore`: the phase of ``var`` at random (what was chosen, by whom and
    from what hand kept in ``chosen``; ``var`` None: no phase at random), else a rollout's move, now and then a
    bid."""
    legal = state.legal_actions()
    if _choosing(state, var):
        action = rng.choice(legal)
        chosen[:] = [state.current_player(), state.action_to_string(action), features(state, state.current_player())]
        return action
    if len(legal) == 1:
        return legal[0]
    action = _bid(state, legal, rng)
    return move(state, legal, worth, rng) if action is None else action


def play_out(state, rng: random.Random, move, until=None) -> bool:
    """Play a learning deal on to its end (at most ``MAX_ACTIONS`` moves): chance by ``rng``, every other move by
    ``move(state)``; with ``until(state)``, only as far as a turn where it holds (True when one was reached)."""
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if state.current_player() < 0:
            state.apply_chance(rng)
            continue
        if until is not None and until(state):
            return True
        state.apply_action(move(state))
    return False


def _choosing(state, var: str | None) -> bool:
    """Whether ``state``'s seat chooses the ``choose`` phase of ``var`` with more than one option now."""
    step = state.step
    return var is not None and step is not None and step.kind == "choose" and getattr(step, "var", None) == var \
        and len(state.legal_actions()) > 1


def _bid(state, legal: list[int], rng: random.Random) -> int | None:
    """In a phase with a pass word, now and then (``1 - QUIET_SHARE``) a word other than passing, of those a
    player would weigh (a value auction's lowest raise); else None."""
    word = getattr(state.step, "pass_word", None)
    if word is None or rng.random() < QUIET_SHARE:
        return None
    passing = state.game.symbol_ids.get(word)
    weighed = construct(state.step.kind).worth_judging(state, state.step, legal)
    others = [a for a in weighed if a != passing]
    return rng.choice(others) if others else None


def choice_models(game, move) -> ChoiceModels:
    """The :class:`ChoiceModels` of ``game``, learned with ``move`` (see :func:`learn`) when neither memory nor
    the cache folder keeps them for this rule file."""
    key = game.definition.digest
    found = _MODELS.get(key)
    if found is None:
        found = _MODELS[key] = _cached(game, move)
    return found


def _cached(game, move) -> ChoiceModels:
    return load_or_learn(_path(game), lambda data: from_json(game, data), lambda: learn(game, move), to_json)


def _path(game):
    return learned_path("choices", f"{game.definition.digest}-v{VERSION}-{CHOICE_DEALS}.json")


def to_json(found: ChoiceModels) -> dict:
    """The fits as JSON-ready data."""
    return {"fits": {var: {option: [intercept, weights] for option, (intercept, weights) in options.items()}
                     for var, options in found.fits.items()}}


def from_json(game, data: dict) -> ChoiceModels:
    """A :class:`ChoiceModels` from :func:`to_json`'s data; TypeError/ValueError for anything of another shape."""
    width = len(features(game.new_initial_state(), 0))
    known = {phase.var: set(phase.options) for phase in modelled_phases(game)}
    fits = {}
    for var, options in data["fits"].items():
        if var not in known:
            raise ValueError("a phase of another game")
        fits[var] = {}
        for option, (intercept, weights) in options.items():
            if option not in known[var] or len(weights) != width:
                raise ValueError("an option of another game")
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in [intercept, *weights]):
                raise TypeError("not a number")
            fits[var][option] = (float(intercept), [float(w) for w in weights])
    return ChoiceModels(game, fits)
