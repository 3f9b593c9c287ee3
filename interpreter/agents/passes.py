"""What a pass says: a seat that passed at once holds a hand not worth declaring, read from the choice models.

At a real table a seat that passes without a bid says its hand is weak, and the last seat to speak after two
such passes bids hands it would not bid against strong opponents. A player drawing worlds at random from the
hidden cards hears none of that, judges its bid against defenders as strong as any, and passes more hands than
tables do. So where an auction's construct names the seats that passed without a word before
(:meth:`~rulelang.constructs.base.Construct.passed_at_once`) and the rule file has models of what a hand is worth
under the choices after the auction (:mod:`.choices`: the kind of game, an announcement …), each such seat's
hand in a world must be worth at most ``WORTH_AT_MOST`` under its best option of the first choice after the
auction; worlds are drawn again until it is (:func:`~rulelang.interpreter.worlds.determinize`'s ``said``, up to
its bound; the last is kept if none gives it). Nothing is inferred once trick play has begun, nor in a rule
file without such models.
"""

from __future__ import annotations

from rulelang.constructs import construct
from rulelang.constructs.base import Construct
from rulelang.interpreter.agents.choices import choice_models, features, predict

WORTH_AT_MOST = 0.0
"""The most a passed seat's hand may be worth as declarer (its result against the table, by the models)."""


class PassEvidence:
    """A seat that passed at once, and the fits (option: fit) of the first modelled choice after its auction."""

    __slots__ = ("seat", "fits")

    def __init__(self, seat: int, fits: dict) -> None:
        self.seat, self.fits = seat, fits

    def holds(self, world) -> bool:
        """Whether the seat's hand in ``world`` is worth at most ``WORTH_AT_MOST`` under every option."""
        row = features(world, self.seat)
        return all(predict(fit, row) <= WORTH_AT_MOST for fit in self.fits.values())


def pass_evidence(state, observer: int, move) -> list[PassEvidence]:
    """What the passes of the other seats said of their hands, for ``observer``'s worlds; ``move`` is the rollout
    move the choice models are learned with (:func:`~.choices.choice_models`)."""
    step = state.step
    if step is None or step.kind == "tricks":
        return []
    seats = {seat for part in state.game.parts for seat in part.passed_at_once(state)} - {observer}
    if not seats:
        return []
    models = choice_models(state.game, move)
    later = [index for index in models.at if index > _auction_index(state)]
    fits = models.fits.get(models.at[min(later)]) if later else None
    return [PassEvidence(seat, fits) for seat in sorted(seats)] if fits else []


def _auction_index(state) -> int:
    """The index of the last phase, up to the one being played, whose construct names seats that passed at once."""
    found = -1
    for index, phase in enumerate(state.game.definition.phases[:state.phase_index + 1]):
        kind = getattr(phase, "kind", None)
        found_kind = construct(kind) if kind else None
        if found_kind is not None and found_kind.passed_at_once is not Construct.passed_at_once:
            found = index
    return found
