"""``meld``: the seats declare the combinations of their hands that score — runs, sets of one rank, named
cards — compared between sides by the game's rules; those that count are shown to everyone.

YAML::

    - meld:
        kinds:
          sequence: {run: 3, points: [20, 50, 100], order: [A, K, Q, J, "10", "9", "8", "7"]}
          carre: {same_rank: {J: 200, "9": 150, A: 100, "10": 100, K: 100, Q: 100}}
        best: teams                      # the side holding the best meld scores all its melds; the other none
        compare: [points, trump]         # what makes a meld better, in order
        trump: trump                     # the cards that make a trump meld
        tie: first                       # equal best melds: the side first to play from forehand (none: neither)

DSL: the generic form, ``meld { kinds { … }  best = "teams" }``. Every seat of ``by`` (default the active
seats) declares every meld it holds (the kinds: :mod:`rulelang.compile.melds`); with ``best: seats`` or
``teams`` only the side (a seat, or a team of ``teams``) holding the best meld scores, all its melds;
``best: none`` (the default) lets every meld count. ``show: counted`` (the default) lays the melds that count
open for everyone — their cards are public until played (the observation's ``melds``); ``all`` shows every
meld, ``none`` none. Rules read the points as ``melded(SEATS)``: a team's declarations are
``melded(team(player))``. No seat chooses: a seat holding a meld declares it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.exprcompile import CARDS, SEATS
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.compile.meld_kinds import KINDS_SCHEMA, compile_kinds
from rulelang.compile.melds import KEYS, counted, find_melds
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from
from rulelang.render.trick_words import meld_kind_words


@dataclass
class MeldPhase(PhaseBase):
    """Who declares (``by``), the kinds of meld, which side's count and which are shown."""

    kinds: tuple = ()
    by: Rule | None = None
    best: str = "none"
    compare: tuple = ("points",)
    trump: Rule | None = None
    tie: str = "first"
    show: str = "counted"
    kind: str = "meld"


class MeldState(DealPart):
    """The melds declared this deal (``found``), those that count (``counts``) and per seat the cards shown
    (``shown``)."""

    def __init__(self, game) -> None:
        self.found: tuple = ()
        self.counts: tuple = ()
        self.shown: tuple = (0,) * game.num_players
        self.phase = None                 # the meld phase played this deal, to work it out again in a world


class MeldConstruct(Construct):
    """The seats declare their melds; the best side's count, and are shown to everyone."""

    kind = "meld"
    batch_kernel = "rulelang.batch.kernels_more:MELD"
    keeps_hands = True
    order = 66
    summary = "the seats declare the combinations of their hands that score, compared between sides"
    example = {"kinds": {"sequence": {"run": 3, "points": [20, 50, 100]}}, "best": "teams"}
    schema = {'entry': 'The seats declare the scoring combinations of their hands (runs, sets, named cards).',
              'defs': {'meldPhase': {
                  'title': 'a mapping like {kinds: {sequence: {run: 3, points: [20, 50, 100]}}, best: teams}',
                  'description': 'Declarations: every seat declares the melds of its hand; the best side '
                                 'scores them.',
                  'type': 'object', 'additionalProperties': False, 'required': ['kinds'],
                  'properties': {
                      'kinds': {'description': 'The combinations that score, by name: runs {run: 3, points: '
                                               '[20, 50, 100]}, sets {same_rank: {J: 200}}, named cards {cards: '
                                               'CARDS, points: 20}.', '$ref': '#/$defs/meldKinds'},
                      'by': {'description': 'The seats that declare (default active).', '$ref': '#/$defs/seatsExpr'},
                      'best': {'description': 'seats or teams: only the side holding the best meld scores, all its '
                                              'melds; none (default): every meld counts.',
                               'enum': ['none', 'seats', 'teams']},
                      'compare': {'description': 'What makes a meld better, in order (default [points]): points, '
                                                 'length (more cards), top (a higher top card), trump (a meld of '
                                                 'trump cards), kind (a kind written earlier).',
                                  'type': 'array', 'minItems': 1, 'maxItems': 5, 'items': {'enum': list(KEYS)}},
                      'trump': {'description': 'The cards that make a meld a trump meld (for compare: trump).',
                                '$ref': '#/$defs/cardsExpr'},
                      'tie': {'description': 'Equal best melds of different sides: first (default) — the side '
                                             'of the seat first in play from forehand; none — no side scores.',
                              'enum': ['first', 'none']},
                      'show': {'description': 'Which melds are laid open for everyone: counted (default), all, '
                                              'none.', 'enum': ['counted', 'all', 'none']},
                      'when': WHEN}},
                  'meldKinds': KINDS_SCHEMA}}
    codes = ("R384",)             # a meld kind naming a rank the deck lacks is the trick rules' R383
    part = MeldState
    words = "declarations"

    @staticmethod
    def compile(c, path, body):
        best = str(body.get("best", "none"))
        if best == "teams" and not c.scope.teams:
            c.error("R384", "melds are compared between teams, but the game has no fixed teams", path + ("best",),
                    "name the teams (`teams: [[1, 3], [2, 4]]`), or compare between seats (`best: seats`)")
        compare = tuple(str(k) for k in body.get("compare") or ("points",))
        if "trump" in compare and body.get("trump") is None:
            c.error("R384", "melds are compared by `trump`, but no `trump` says which cards make a trump meld",
                    path + ("compare",), "add `trump: trump` (the trump suit's cards)")
        return MeldPhase(kinds=compile_kinds(c, path + ("kinds",), body.get("kinds") or {}),
                         by=c.optional_rule(path + ("by",), SEATS), best=best, compare=compare,
                         trump=c.optional_rule(path + ("trump",), CARDS), tie=str(body.get("tie", "first")),
                         show=str(body.get("show", "counted")))

    @staticmethod
    def dump(phase) -> str:
        kinds = " ".join(kind.name for kind in phase.kinds)
        return f" {kinds} best {phase.best} compare {' '.join(phase.compare)} tie {phase.tie} show {phase.show}"

    # ------------------------------------------------------------------ runtime
    @staticmethod
    def enter(st, phase) -> bool:
        found, counts = _declared(st, phase, st.hands)
        part = st.meld
        part.found, part.counts, part.phase = tuple(found), tuple(counts), phase
        shown = list(part.shown)
        for meld in found if phase.show == "all" else counts if phase.show == "counted" else ():
            shown[meld.seat] |= meld.cards
        part.shown = tuple(shown)
        return False

    @staticmethod
    def world_fits(world, state, observer: int) -> bool:
        """The melds that count are the same in the world: its hands as they were when the melds were declared
        (held now, or played since) give the same winners and the same cards."""
        part = state.meld
        if part.phase is None:
            return True
        played = [0] * state.game.num_players
        for trick in (*world.tricks.finished, world.tricks.trick):
            for seat, card in trick:
                played[seat] |= 1 << card
        then = [hand | played[seat] for seat, hand in enumerate(world.hands)]
        _, counts = _declared(world, part.phase, then)
        return {(m.seat, m.kind, m.cards) for m in counts} == {(m.seat, m.kind, m.cards) for m in part.counts}

    # ------------------------------------------------------------------ what seats see
    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return {seat: cards & st.hands[seat] for seat, cards in enumerate(st.meld.shown) if cards & st.hands[seat]}

    @staticmethod
    def observe(st, player: int) -> dict:
        """The melds shown to everyone (by ``show``), and the seat's own melds besides."""
        part = st.meld
        if not part.found:
            return {}
        shown = part.shown
        visible = [m for m in part.found if not m.cards & ~shown[m.seat] or m.seat == player]
        return {"melds": [_described(st, m, m in part.counts) for m in visible]}

    @staticmethod
    def informs(st, player: int) -> str:
        return "".join(f" | meld {st.game.seat_name(seat)}: {' '.join(st.game.deck.names(cards))}"
                       for seat, cards in enumerate(st.meld.shown) if cards and seat != player)

    @staticmethod
    def deal_result(st) -> dict:
        part = st.meld
        return {"melds": [_described(st, m, m in part.counts) for m in part.found]} if part.found else {}

    # ------------------------------------------------------------------ prose
    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        kinds = [meld_kind_words(name, kind) for name, kind in (body.get("kinds") or {}).items()]
        best = str(body.get("best", "none"))
        lines = ["Each player declares the combinations of his hand that score: " + "; ".join(kinds)]
        if best != "none":
            side = "team" if best == "teams" else "player"
            keys = ", then ".join(_KEY_WORDS[k] for k in body.get("compare") or ["points"])
            tie = "the one first to play from forehand wins" if body.get("tie", "first") == "first" else \
                "neither scores"
            lines.append(f"Only the {side} holding the best combination (by {keys}) scores, all of its "
                         f"combinations; between equal best combinations of different {side}s {tie}")
        show = str(body.get("show", "counted"))
        if show != "none":
            lines.append(("Every combination" if show == "all" else "The combinations that score") +
                         " are shown to everyone")
        return lines + rest(body, {"kinds", "by", "best", "compare", "trump", "tie", "show", "when"})


_KEY_WORDS = {"points": "more points", "length": "more cards", "top": "the higher top card",
              "trump": "trumps before other suits", "kind": "the kind listed first"}


def _described(st, meld, counts: bool) -> dict:
    """A meld as the observation and the deal record give it."""
    return {"seat": st.game.seat_name(meld.seat), "kind": meld.kind, "cards": st.game.deck.names(meld.cards),
            "points": meld.points, "counts": counts}


def _declared(st, phase, hands: list[int]) -> tuple[list, list]:
    """Every meld the declaring seats hold in ``hands``, and those that count."""
    seats = phase.by.fn(st, None) if phase.by is not None else st.active
    order = seats_from(st, st.forehand, (1 << st.game.num_players) - 1)
    trump = phase.trump.fn(st, None) if phase.trump is not None else 0
    found = [meld for seat in order if seats >> seat & 1
             for meld in find_melds(st, phase.kinds, hands[seat], seat, trump)]
    return found, counted(found, _sides(st, phase), phase.compare, phase.tie, order)


def _sides(st, phase) -> list[int]:
    """The sides melds are compared between: each seat alone, or the fixed teams; none when all count."""
    if phase.best == "seats":
        return [1 << seat for seat in range(st.game.num_players)]
    if phase.best == "teams":
        return sorted(set(st.game.definition.teams))
    return []


CONSTRUCT = MeldConstruct
