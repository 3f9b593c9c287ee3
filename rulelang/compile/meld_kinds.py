"""Meld kinds compiled from a rule file (``kinds`` of a ``meld`` phase, ``melds`` of trick rules), and their
schema; what the kinds mean and how melds are found: :mod:`rulelang.compile.melds`."""

from __future__ import annotations

from rulelang.compile.exprcompile import CARDS, INT, SUIT, const
from rulelang.compile.melds import MeldKind

KINDS_SCHEMA = {
    'title': 'a mapping of meld kinds, e.g. {sequence: {run: 3, points: [20, 50, 100]}}',
    'description': 'The combinations that score, by name: runs, sets of one rank, named cards.',
    'type': 'object', 'minProperties': 1, 'maxProperties': 32,
    'propertyNames': {'$ref': '#/$defs/name'},
    'additionalProperties': {
        'type': 'object', 'additionalProperties': False,
        'properties': {
            'run': {'description': 'The shortest run: this many cards or more of one suit next to each other in '
                                   '`order`.', 'type': 'integer', 'minimum': 2, 'maximum': 16},
            'order': {'description': "The ranks high to low in which runs are counted (default the deck's).",
                      'type': 'array', 'minItems': 2, 'maxItems': 64, 'items': {'type': ['string', 'integer']}},
            'same_rank': {'description': 'A card of the rank in every suit, and its points: {J: 200, A: 100}.',
                          'type': 'object', 'minProperties': 1, 'maxProperties': 64,
                          'additionalProperties': {'type': 'integer'}},
            'cards': {'description': 'Cards all held (player bound; this_suit, a suit, with each: suits).',
                      '$ref': '#/$defs/cardsExpr'},
            'each': {'description': 'suits: the cards asked once a suit, with this_suit bound to its cards.',
                     'enum': ['suits']},
            'points': {'description': 'A run: points by length from `run` (a list, the last for any longer run); '
                                      'cards: a number or an expression (player bound).',
                       'anyOf': [{'type': 'integer'}, {'type': 'string'},
                                 {'type': 'array', 'minItems': 1, 'maxItems': 16, 'items': {'type': 'integer'}}]},
            'twice': {'description': 'The points when every card of the meld is held twice (a pack with copies): '
                                     'a number for cards, {RANK: POINTS} for same_rank.',
                      'anyOf': [{'type': 'integer'}, {'type': 'string'},
                                {'type': 'object', 'additionalProperties': {'type': 'integer'}}]},
        },
        'oneOf': [{'required': ['run', 'points']}, {'required': ['same_rank']}, {'required': ['cards', 'points']}],
    },
}
"""The JSON Schema of meld kinds (a ``meld`` phase's ``kinds``, a trick rule set's ``melds``)."""



# ---------------------------------------------------------------------- compilation
def compile_kinds(c, path: tuple, body: dict, scope=None) -> tuple[MeldKind, ...]:
    """The meld kinds of ``body`` (a mapping of name to kind) at ``path``."""
    kinds = []
    for position, (name, kind) in enumerate((body or {}).items()):
        where = path + (name,)
        if "run" in kind:
            kinds.append(_run(c, where, str(name), position, kind))
        elif "same_rank" in kind:
            kinds.append(_same_rank(c, where, str(name), position, kind))
        else:
            kinds.append(_cards(c, where, str(name), position, kind, scope))
    return tuple(kinds)


def rank_names(c, path: tuple, ranks, what: str = "the meld", code: str = "R383") -> list[str]:
    """The ranks named at ``path`` (a meld kind's, a win rule's order), each one of the deck and named once
    (``code``, R383, otherwise)."""
    known = dict.fromkeys(card.rank for card in c.deck.cards)
    names = [str(r) for r in ranks]
    for i, rank in enumerate(names):
        if rank not in known:
            c.error(code, f"{what} names the rank '{rank}', which no card of the deck has", path + (i,),
                    f"name ranks of the deck: {' '.join(known)}")
        elif rank in names[:i]:
            c.error(code, f"{what} names the rank '{rank}' twice", path + (i,), "name each rank once")
    return names


def _run(c, path, name: str, position: int, kind: dict) -> MeldKind:
    deck = c.deck
    if "order" in kind:
        order = rank_names(c, path + ("order",), kind["order"])
    else:
        order = [card.rank for card in sorted(deck.cards, key=lambda card: card.order)]
        order = list(dict.fromkeys(order))
    lines = []
    for suit in range(len(deck.suits)):
        line = []
        for rank in order:
            mask = sum(1 << i for i, card in enumerate(deck.cards) if card.suit == suit and card.rank == rank)
            line.append(mask)
        lines.append(tuple(line))
    points = kind.get("points")
    by_length = tuple(int(p) for p in points) if isinstance(points, list) else (int(points or 0),)
    return MeldKind(name, "run", position, least=int(kind["run"]), by_length=by_length, lines=tuple(lines))


def _same_rank(c, path, name: str, position: int, kind: dict) -> MeldKind:
    deck = c.deck
    wanted = kind["same_rank"]
    rank_names(c, path + ("same_rank",), list(wanted))
    twice = kind.get("twice") if isinstance(kind.get("twice"), dict) else {}
    ranks = []
    for rank, points in wanted.items():
        rank = str(rank)
        masks = tuple(sum(1 << i for i, card in enumerate(deck.cards) if card.suit == suit and card.rank == rank)
                      for suit in range(len(deck.suits)))
        top = min((card.order for card in deck.cards if card.rank == rank), default=0)
        ranks.append((rank, int(points), int(twice.get(rank, twice.get(str(rank), 0)) or 0), masks, top))
    return MeldKind(name, "same_rank", position, ranks=tuple(ranks))


def _cards(c, path, name: str, position: int, kind: dict, scope) -> MeldKind:
    base = scope if scope is not None else c.player_scope()
    suits = range(len(c.deck.suits)) if kind.get("each") == "suits" else [None]
    rules = []
    for index in suits:
        inner = base.child(this_suit=const(SUIT, index)) if index is not None else base
        cards = c.rule(path + ("cards",), CARDS, inner)
        points = _points(c, path + ("points",), kind.get("points"), inner)
        twice = _points(c, path + ("twice",), kind.get("twice"), inner) if "twice" in kind else 0
        rules.append((cards, points, twice))
    return MeldKind(name, "cards", position, rules=tuple(rules))


def _points(c, path, value, scope):
    """A number as it is, an expression compiled (``player`` bound)."""
    if isinstance(value, bool) or value is None:
        return 0
    if isinstance(value, int):
        return value
    return c.rule(path, INT, scope)
