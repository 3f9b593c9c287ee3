"""What tricks, card points and cards are worth to a seat, read from the rules.

What a trick and a card point are worth is learned once per game from random deals
(:func:`trick_worth`, :mod:`.learned`); where the game's own `score` phases read only public facts, they
tell what one more trick brings a seat as things stand (:func:`next_trick_worth`,
:func:`scored`); which card beats which under the trick rules in force is one bitmask
per card (:func:`beats_masks`).
"""

from __future__ import annotations

from rulelang.diagnostics import RuleError
from rulelang.read.expr import parse_expr, reads_hidden
from rulelang.compile.exprcompile import EvalError
from rulelang.constructs.tricks import Tricks

MAX_ROLLOUT_ACTIONS = 2000
BEATS_CACHE_SIZE = 256
_WORTH: dict = {}
_PUBLIC_SCORES: dict[str, list] = {}
_BEATS: dict[tuple, list[int]] = {}
_LAST: dict[str, tuple] = {}
"""Per lookup (``beats``, ``trumps``), the last answer with what it was looked up under (:func:`_kept`): a rollout
asks for the same ones card after card."""


def sign(worth: float) -> int:
    """1 for a worth that is wanted, -1 for one that is shunned, 0 for neither."""
    return 1 if worth > 0 else -1 if worth < 0 else 0


def trick_worth(game) -> "Worth":
    """What a trick and a card point are worth to the seat that takes them, learned from random deals (kept per
    rule file, in memory and in the cache folder): ``worth[0]``, ``worth[1]`` for the whole game, and
    :meth:`Worth.of` / :meth:`Worth.known` for the contract in force and a side (:mod:`.learned`)."""
    key = game.definition.digest
    if key not in _WORTH:
        from rulelang.interpreter.agents.learned import cached_worth
        _WORTH[key] = cached_worth(game)
    return _WORTH[key]


def next_trick_worth(state, seat: int, fitted: float) -> float:
    """What one more trick is worth to ``seat`` now by the game's own scoring, where that can be seen.

    Each `score` phase that reads only public facts is worked out for ``seat`` as things
    stand and with one trick more (no other trick counted): in a game that pays for an
    exact number of tricks a trick is wanted until the bid is reached and shunned after.
    It overrides the ``fitted`` worth only where the two disagree in sign (a trick the fit
    wants that the bid no longer does); where they agree, or it makes no difference (card
    points decide, the scoring reads what the seat cannot know, the game settles by items),
    the ``fitted`` worth is kept, so games whose tricks are simply good or bad play as before."""
    phases = public_score_phases(state.game)
    if not phases:
        return fitted
    part = state.tricks
    taken = part.taken
    try:
        before = scored(state, seat, phases)
        part.taken = [count + (s == seat) for s, count in enumerate(taken)]
        after = scored(state, seat, phases)
    except (EvalError, ArithmeticError):
        return fitted
    finally:
        part.taken = taken
    direction = -1.0 if state.game.definition.match.winner == "lowest" else 1.0   # in returns' direction
    local = direction * (after - before)
    return local if local and (local < 0) != (fitted < 0) else fitted


def scored(state, seat: int, phases: list) -> int:
    """What the ``phases`` would add to ``seat``'s score now."""
    total = 0
    for phase in phases:
        if (phase.when is None or phase.when.fn(state, None)) and phase.each.fn(state, None) >> seat & 1:
            total += phase.add.fn(state, seat)
    return total


def public_score_phases(game) -> list:
    """The `score` phases whose value (its ``let``s included) reads no hand, party or side: what they give
    can be worked out from what every seat sees."""
    key = game.definition.digest
    if key not in _PUBLIC_SCORES:
        entries = game.definition.document.get("phases") or []
        defines = game.definition.document.get("define") or {}
        _PUBLIC_SCORES[key] = [phase for phase, entry in zip(game.definition.phases, entries)
                               if phase.kind == "score" and _reads_public_only(entry.get("score"), defines)]
    return _PUBLIC_SCORES[key]


def _reads_public_only(body, defines: dict) -> bool:
    """Whether a score phase's expressions, and the definitions they use (``define``), read nothing hidden."""
    if not isinstance(body, dict):
        return False
    texts = [body.get("add"), body.get("each"), body.get("when"), *(body.get("let") or {}).values()]
    for text in texts:
        if text is None or isinstance(text, (bool, int)):
            continue
        try:
            if reads_hidden(parse_expr(str(text)), defines):
                return False
        except RuleError:
            return False
    return True


# ---------------------------------------------------------------------- which card beats which
def beats(state, led: int, other: int) -> bool:
    """Whether ``led``, led, wins a trick of two cards against ``other`` under the rules in force."""
    trick, mask, led_suit = state.tricks.trick, state.tricks.trick_mask, state.tricks.led_suit
    first, second = 0, 1
    state.tricks.trick = [(first, led), (second, other)]
    state.tricks.trick_mask = 1 << led | 1 << other
    state.tricks.led_suit = state.game.card_suits[led]
    try:
        return Tricks.winning_play(state)[1] == led
    except EvalError:
        return False
    finally:
        state.tricks.trick, state.tricks.trick_mask, state.tricks.led_suit = trick, mask, led_suit


def beats_masks(state) -> list[int]:
    """Per card, the bitmask of the cards it beats when it leads a trick of two under the trick rules in force."""
    return kept_for_contract("beats", state, lambda: _beats_masks(state))


def _beats_masks(state) -> list[int]:
    key = (state.game.definition.digest, state.contract, tuple(state.vars.items()),
           id(state.tricks.rules))
    found = _BEATS.get(key)
    if found is None:
        if len(_BEATS) >= BEATS_CACHE_SIZE:
            _BEATS.clear()
        every = range(state.game.num_cards)
        found = [sum(1 << other for other in every if other != card and beats(state, card, other))
                 for card in every]
        _BEATS[key] = found
    return found


def _kept(lookup: str, state):
    """The last answer of ``lookup`` where it was looked up under the same deal variables, trick rules, rule file
    and contract as ``state``'s, else None. The deal variables' mapping is replaced when one is set, never
    changed in place, so the same mapping means the same values."""
    last = _LAST.get(lookup)
    if last is not None and last[0] is state.vars and last[1] is state.tricks.rules and \
            last[2] is state.game.definition and last[3] == state.contract:
        return last[4]
    return None


def kept_for_contract(lookup: str, state, compute):
    """``compute()``, kept as the trick rules' lookups are (:func:`_kept`): worked out again only when the deal
    variables, the trick rules, the rule file or the contract differ from the last time ``lookup`` was asked —
    for an answer that depends on nothing else, asked card after card in a rollout."""
    found = _kept(lookup, state)
    if found is None:
        found = compute()
        _LAST[lookup] = (state.vars, state.tricks.rules, state.game.definition, state.contract, found)
    return found


def trump_mask(state) -> int:
    """The cards that beat a card of another suit led — the trumps under the trick rules in force — read off
    :func:`beats_masks` (kept with it)."""
    return kept_for_contract("trumps", state, lambda: _trump_mask(state))


def _trump_mask(state) -> int:
    key = ("trumps", state.game.definition.digest, state.contract, tuple(state.vars.items()),
           id(state.tricks.rules))
    found = _BEATS.get(key)
    if found is None:
        masks, suits, found = beats_masks(state), state.game.card_suits, 0
        for o in range(len(masks)):
            if any(suits[x] != suits[o] and not masks[x] >> o & 1 for x in range(len(masks)) if x != o):
                found |= 1 << o
        _BEATS[key] = found
    return found
