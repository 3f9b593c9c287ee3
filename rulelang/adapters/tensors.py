"""Observation and information-state tensors of one seat, filled from ``observation(player)`` and nothing else.

Seats are relative to the observer (row 0 is the observer, row 1 the next seat in the
direction of play, …). Pieces, with n seats, C cards, V deal variables, W value words (the
suits, every decision name and ``none``), K contracts and A decision names:

* ``player`` (n): the observer's own seat, one-hot (absolute);
* ``hand`` (C): the cards in the observer's hand;
* ``trick`` (n, C): the cards on the table, by the seat that played them;
* ``played`` (n, C): the cards of this deal's finished tricks, by the seat that played them;
* ``tricks`` (n): tricks taken; ``hand_sizes`` (n): cards held by each seat;
* ``vars`` (V, W): each deal variable's value, one-hot;
* ``contract`` (K + 1): the contract, one-hot, entry 0 for none;
* ``declarer`` (n + 1): the declarer's seat, entry n for none;
* ``partner`` (n + 1): the declarer's partners the observer knows of, entry n when unknown;
* ``scores`` (n): the match scores;
* information state only — ``discards`` (C): the observer's own discards; ``auction`` (n, A):
  the words each seat has said in the auction.
"""

from __future__ import annotations

import random

import math
from collections import Counter


def shapes(game, perfect_recall: bool) -> list[tuple[str, tuple]]:
    """The pieces and their shapes, in the order of the tensor."""
    n, cards = game.num_players, game.num_cards
    definition = game.definition
    layout = [("player", (n,)), ("hand", (cards,)), ("trick", (n, cards)), ("played", (n, cards)),
              ("tricks", (n,)), ("hand_sizes", (n,)), ("vars", (max(1, len(definition.deal_vars)), len(_words(game)))),
              ("contract", (len(definition.contract_names) + 1,)), ("declarer", (n + 1,)), ("partner", (n + 1,)),
              ("scores", (n,))]
    if perfect_recall:
        layout += [("discards", (cards,)), ("auction", (n, max(1, len(definition.symbols))))]
    return layout


def _words(game) -> list[str]:
    """Every value a deal variable can have, as its text."""
    return [suit.name for suit in game.deck.suits] + list(game.definition.symbols) + ["none"]


def fill(pieces: dict, state, player: int) -> None:
    """Write what ``player`` knows in ``state`` into the (zeroed) ``pieces``."""
    game, view = state.game, state.observation(player)
    n = game.num_players
    seat_of = {game.seat_name(s): s for s in range(n)}

    def relative(name) -> int:
        return (seat_of[name] - player) % n
    pieces["player"][player] = 1
    for cell in _cells(game, view["hand"]):
        pieces["hand"][cell] = 1
    for seat, name in view["trick"]:
        pieces["trick"][relative(seat), game.deck.lookup[name.casefold()]] = 1
    for seat, names in view["played"].items():
        for cell in _cells(game, names):
            pieces["played"][relative(seat), cell] = 1
    for seat, count in view["tricks"].items():
        pieces["tricks"][relative(seat)] = count
    for seat, count in view["hand_sizes"].items():
        pieces["hand_sizes"][relative(seat)] = count
    for seat, score in view["scores"].items():
        pieces["scores"][relative(seat)] = score
    _fill_vars(pieces["vars"], game, view["vars"])
    _fill_contract(pieces, game, view, relative)
    if "discards" in pieces:
        for cell in _cells(game, view["my_discards"]):
            pieces["discards"][cell] = 1
        symbols = {symbol: i for i, symbol in enumerate(game.definition.symbols)}
        for seat, word in view.get("announcements", []):
            if word in symbols:
                pieces["auction"][relative(seat), symbols[word]] = 1


def _cells(game, names: list[str]):
    """The card cells of a list of names: in a pack with copies the k-th time a name comes, its k-th copy's
    cell, so the tensor counts copies and does not tell which copy is which."""
    lookup, seen = game.deck.lookup, Counter()
    for name in names:
        key = name.casefold()
        yield lookup[key] + seen[key]
        seen[key] += 1


def _fill_vars(piece, game, values: dict) -> None:
    index = {word: i for i, word in enumerate(_words(game))}
    for row, name in enumerate(game.definition.deal_vars):
        word = values.get(name, "none")
        piece[row, index.get(word, index["none"])] = 1


def _fill_contract(pieces: dict, game, view: dict, relative) -> None:
    n = game.num_players
    contract = view.get("contract")
    if contract is None:
        pieces["contract"][0] = 1
        pieces["declarer"][n] = 1
        pieces["partner"][n] = 1
        return
    pieces["contract"][1 + game.definition.contract_names.index(contract)] = 1
    pieces["declarer"][relative(view["declarer"]) if view["declarer"] is not None else n] = 1
    partner = view.get("partner")
    if partner == "unknown":
        pieces["partner"][n] = 1
    else:
        for seat in partner:
            pieces["partner"][relative(seat)] = 1


def size(game, perfect_recall: bool) -> int:
    """The length of the flat tensor."""
    return sum(math.prod(shape) for _, shape in shapes(game, perfect_recall))


def views(buffer, game, perfect_recall: bool) -> dict:
    """The named, reshaped pieces of the flat numpy ``buffer``, in layout order."""
    pieces, start = {}, 0
    for name, shape in shapes(game, perfect_recall):
        count = math.prod(shape)
        pieces[name] = buffer[start:start + count].reshape(shape)
        start += count
    return pieces


def tensor_of(state, player: int, perfect_recall: bool = True):
    """A new float32 numpy tensor of what ``player`` knows in ``state``."""
    import numpy as np
    buffer = np.zeros(size(state.game, perfect_recall), np.float32)
    fill(views(buffer, state.game, perfect_recall), state, player)
    return buffer


PROBE_DEALS = 200
"""How many seeded random single deals estimate a game's bounds (:func:`utility_bound`)."""


_PROBED: dict[str, tuple[float, int]] = {}
"""The largest return and the longest deal of the probe deals, by rule file digest (kept per process: OpenSpiel
makes a game anew for every state it deserializes)."""


def utility_bound(engine, deals: int = 1) -> tuple[float, int]:
    """A bound on any seat's return in ``deals`` deals, and on a deal's length in actions, estimated from
    :data:`PROBE_DEALS` seeded random single deals: twice the largest return seen (at least 1) times ``deals``,
    twice the longest deal times ``deals``. Not derivable from every rule file, so estimated."""
    key = engine.definition.digest
    if key not in _PROBED:
        _PROBED[key] = _probe(engine)
    largest, longest = _PROBED[key]
    return 2 * largest * deals, 2 * longest * deals


def _probe(engine) -> tuple[float, int]:
    """The largest return (at least 1) and the longest deal in actions over the seeded probe deals."""
    single = type(engine)(engine.definition, max_deals=1)
    largest, longest = 1.0, 1
    for seed in range(PROBE_DEALS):
        rng, state = random.Random(seed), single.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        largest = max(largest, *(abs(r) for r in state.returns()))
        longest = max(longest, len(state.history))
    return largest, longest
