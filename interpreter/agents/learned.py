"""What a trick and a card point are worth to a seat, learned per rule file from random deals.

Each seat's result against the table (its return less the mean of the others': a defender gains when the
declarer loses, even in a game where only the declarer scores) is regressed by least squares on the tricks and
card points it took: for the whole game, and per contract played — the contract and each deal variable that
names a choice (the kind of game chosen, say) — and the seat's side in it (declaring or defending). So a
declarer who must take no trick sheds tricks where one worth for the whole game would have him take them.

The learning deals are random, but a seat passes where it may three times in four, so the contracts are the
low ones tables play and every way of playing them is chosen at random. A contract those deals seldom reach
(one that may only be chosen after a low bid) is learned when a player first asks for it, from
``STEERED_DEALS`` deals in which every seat says the contract's words whenever it may, else plays as before. The fits are kept in the cache
folder (:func:`rulelang.read.cache.cache_folder`) under the rule file's digest, as JSON, and read back only when
they have the shape written.
"""

from __future__ import annotations

import json
import random
import zlib

from rulelang.compile.deck import iter_bits
from rulelang.read.cache import learned_path, save_json

LEARNING_DEALS = 200
STEERED_DEALS = 60
ATTEMPTS = 10
"""Learning deals tried for each one that counts (most are thrown in when every seat passes)."""
MAX_ACTIONS = 2000
GROUP_ROWS = 40
"""Rows (a seat in a learning deal) a group needs before it gets a worth of its own."""
QUIET_SHARE = 0.75
VERSION = 4


class Worth:
    """What a trick and a card point are worth to a seat: ``overall`` for the whole game; ``groups`` keyed by
    ``(contract, role)`` where ``contract`` is the contract name and the values of the deal variables that name
    a choice, with None for each value not part of the key, and ``role`` ``declaring``, ``defending`` or None."""

    def __init__(self, game, overall: tuple[float, float], groups: dict, tried=()) -> None:
        self.game, self.overall, self.groups = game, overall, groups
        self.names = [name for name, kind in game.definition.deal_vars.items() if kind == "name"]
        self.tried: set[tuple] = set(tried)
        self._memo: dict[tuple, tuple[float, float]] = {}
        self._last: dict[str | None, tuple] = {}

    def __getitem__(self, index: int) -> float:
        return self.overall[index]

    def of(self, world, seat: int) -> tuple[float, float]:
        """The worth for ``seat`` in a world where every card is known (a rollout's): its side read from it."""
        role = None if world.declarer < 0 else "declaring" if world.side_mask >> seat & 1 else "defending"
        last = self._last.get(role)                # a rollout asks card after card: the deal variables are
        if last is not None and last[0] is world.vars and last[1] == world.contract:   # replaced, never changed
            return last[2]
        found = self.lookup(self._values(world), role)
        self._last[role] = (world.vars, world.contract, found)
        return found

    def known(self, state, seat: int, sides: set[int]) -> tuple[float, float]:
        """The worth for ``seat`` in the real state, its side only as far as it knows it (``sides``: the seats it
        knows to be on its side, itself included)."""
        return self.lookup(self._values(state), known_role(state, sides))

    def lookup(self, values: tuple, role: str | None) -> tuple[float, float]:
        """The worth of the finest group that has data: every value; else the one value whose group differs
        most from the contract's; else the contract's (with the role, then without); else the game's."""
        key = (values, role)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._finest(values, role)
        return found

    def _finest(self, values: tuple, role: str | None) -> tuple[float, float]:
        if (values, role) not in self.groups and values not in self.tried and any(v is not None for v in values):
            self._learn_for(values)
        groups, contract = self.groups, values[0]
        blank = (None,) * (len(values) - 1)
        for wanted in (role, None) if role is not None else (None,):
            whole = groups.get((values, wanted))
            if whole is not None:
                return whole
            base = groups.get(((contract, *blank), wanted))
            singles = [groups.get(((contract, *(v if i == k else None for i, v in enumerate(values[1:]))), wanted))
                       for k in range(len(values) - 1)]
            singles = [fit for fit in singles if fit is not None]
            if singles:
                anchor = base or self.overall
                return max(singles, key=lambda fit: abs(fit[0] - anchor[0]) + abs(fit[1] - anchor[1]))
            if base is not None:
                return base
        return self.overall

    def _learn_for(self, values: tuple) -> None:
        """Fits for exactly ``values``, from deals steered to them; kept with the others in the cache folder."""
        self.tried.add(values)
        seed = zlib.crc32(repr(values).encode("utf-8"))
        rows = learning_rows(self.game, STEERED_DEALS, seed, {v for v in values if v is not None}, values)
        for role in {row[1] for row in rows} | {None}:
            found = [row[2:] for row in rows if role is None or row[1] == role]
            if len(found) >= GROUP_ROWS:
                self.groups[(values, role)] = fit(found)
        _save(self)

    def _values(self, state) -> tuple:
        return contract_values(state, self.names)


def contract_values(state, names: list[str]) -> tuple:
    """The contract in force and the values of the deal variables ``names`` (those that name a choice)."""
    values = state.vars
    return (state.contract, *(values.get(name) for name in names))


def known_role(state, sides: set[int]) -> str | None:
    """``declaring`` or ``defending`` for a seat that knows ``sides`` (the seats on its side, itself included) to be
    its side; None while it cannot tell (nobody declared, or a partner of the declarer's may be hidden)."""
    if state.declarer < 0:
        return None
    if state.declarer in sides:
        return "declaring"
    return "defending" if len(sides) > 1 or declarer_alone(state) else None


def each_for_himself(state) -> bool:
    """Whether the contract in force is played by every seat for itself (``sides: none``: a Ramsch)."""
    row = state.game.definition.contracts.get(state.contract) if state.contract is not None else None
    return row is not None and row.sides == "none"


def declarer_alone(state) -> bool:
    """Whether everyone knows the declarer plays alone: his contract says so, or no contract names his sides (a
    bare auction's winner). Never read from the sides themselves, which may hide a partner."""
    row = state.game.definition.contracts.get(state.contract)
    return row.sides in ("alone", "none") if row is not None else state.contract is None


# ---------------------------------------------------------------------- learning
def learn(game) -> Worth:
    """The fits of :class:`Worth` from ``LEARNING_DEALS`` learning deals."""
    rows = learning_rows(game, LEARNING_DEALS, 20261201)
    by_group: dict[tuple, list] = {}
    for values, role, *row in rows:
        for key in _group_keys(values):
            for wanted in {role, None}:
                by_group.setdefault((key, wanted), []).append(row)
    groups = {key: fit(found) for key, found in by_group.items() if len(found) >= GROUP_ROWS}
    return Worth(game, fit([row for _, _, *row in rows]), groups)


def _group_keys(values: tuple) -> list[tuple]:
    """The keys a row counts under: all its values, the contract alone, and the contract with each one value."""
    contract, rest = values[0], values[1:]
    blank = (None,) * len(rest)
    keys = {values, (contract, *blank)}
    keys.update((contract, *(v if i == k else None for i, v in enumerate(rest))) for k in range(len(rest)))
    return list(keys)


def learning_rows(game, deals: int, seed: int, steer=frozenset(), want: tuple | None = None) -> list[tuple]:
    """Per seat and learning deal played to its end — ``deals`` of them (of the contract ``want`` if given),
    from ``seed``, at most ``ATTEMPTS`` times as many tried; a seat says a word of ``steer`` whenever it may:
    the contract's values, the seat's side, the tricks and card points it took, and its result against the
    table."""
    from rulelang.interpreter.game import Game
    one_deal = Game(game.definition, max_deals=1)
    names = [name for name, kind in game.definition.deal_vars.items() if kind == "name"]
    points = [card.points for card in game.deck.cards]
    rng, rows, n, played = random.Random(seed), [], game.num_players, 0
    for _ in range(deals * ATTEMPTS):
        if played >= deals:
            break
        state, keys = one_deal.new_initial_state(), None
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                break
            if keys is None and state.step is not None and state.step.kind == "tricks":
                values = contract_values(state, names)
                keys = [(values, None if state.declarer < 0 else
                         "declaring" if state.side_mask >> s & 1 else "defending") for s in range(n)]
            state.apply_action(_learning_move(state, rng, steer))
        if not state.is_terminal() or keys is None or want is not None and keys[0][0] != want:
            continue
        played += 1
        returns = state.returns()
        total = sum(returns)
        for seat in range(n):
            taken = sum(points[c] for c in iter_bits(state.won[seat]))
            against = returns[seat] - (total - returns[seat]) / (n - 1) if n > 1 else returns[seat]
            rows.append((*keys[seat], state.tricks.taken[seat], taken, against))
    return rows


def _learning_move(state, rng: random.Random, steer) -> int:
    legal = state.legal_actions()
    if state.current_player() < 0:
        return rng.choice(legal)
    if steer:
        wanted = [a for a in legal if state.action_to_string(a) in steer]
        if wanted:
            return rng.choice(wanted)
    word = getattr(state.step, "pass_word", None)
    passing = state.game.symbol_ids.get(word) if word is not None else None
    if passing in legal and rng.random() < QUIET_SHARE:
        return passing
    return rng.choice(legal)


def fit(rows: list) -> tuple[float, float]:
    """The coefficients (a, b) of y ≈ a·x1 + b·x2 + c by least squares; (0, 0) without data. Tricks and card
    points go together, so a coefficient whose sign the joint fit turns against its own correlation with y (card
    points that cost where taking them pays) is an artefact of the pair: it is dropped, the other fitted alone."""
    n = len(rows)
    if n < 3:
        return (0.0, 0.0)
    mean = [sum(r[i] for r in rows) / n for i in range(3)]
    dx = [(r[0] - mean[0], r[1] - mean[1], r[2] - mean[2]) for r in rows]
    s11 = sum(a * a for a, _, _ in dx)
    s22 = sum(b * b for _, b, _ in dx)
    s12 = sum(a * b for a, b, _ in dx)
    s1y = sum(a * y for a, _, y in dx)
    s2y = sum(b * y for _, b, y in dx)
    det = s11 * s22 - s12 * s12
    if abs(det) < 1e-9:
        return (s1y / s11 if s11 else 0.0, 0.0)
    a, b = (s1y * s22 - s2y * s12) / det, (s2y * s11 - s1y * s12) / det
    if b * s2y < 0 <= a * s1y:                       # the points' sign turned by the tricks': tricks alone
        return (s1y / s11, 0.0)
    if a * s1y < 0 <= b * s2y:                       # and the other way round: points alone
        return (0.0, s2y / s22)
    return (a, b)


# ---------------------------------------------------------------------- the cache folder
def cached_worth(game) -> Worth:
    """:func:`learn`, or its result as the cache folder keeps it for this rule file."""
    path = _path(game)
    if path is not None:
        try:
            return from_json(game, json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError, IndexError):
            pass
    found = learn(game)
    _save(found)
    return found


def _save(found: Worth) -> None:
    """Write the fits to the cache folder, if there is one."""
    path = _path(found.game)
    if path is not None:
        save_json(path, to_json(found))


def _path(game):
    return learned_path("worth", f"{game.definition.digest}-v{VERSION}-{LEARNING_DEALS}.json")


def to_json(found: Worth) -> dict:
    """The fits as JSON-ready data."""
    return {"overall": list(found.overall), "tried": [list(values) for values in sorted(found.tried, key=repr)],
            "groups": [[list(values), role, a, b] for (values, role), (a, b) in found.groups.items()]}


def from_json(game, data: dict) -> Worth:
    """A :class:`Worth` from :func:`to_json`'s data; TypeError/ValueError for anything of another shape."""
    def number(x) -> float:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise TypeError("not a number")
        return float(x)

    def word(x):
        if x is not None and not isinstance(x, str):
            raise TypeError("not a word")
        return x
    width = 1 + sum(kind == "name" for kind in game.definition.deal_vars.values())
    groups = {}
    for values, role, a, b in data["groups"]:
        if len(values) != width:
            raise ValueError("a group of another game")
        groups[(tuple(word(x) for x in values), word(role))] = (number(a), number(b))
    tried = [tuple(word(x) for x in values) for values in data["tried"]]
    if any(len(values) != width for values in tried):
        raise ValueError("a contract of another game")
    overall = data["overall"]
    return Worth(game, (number(overall[0]), number(overall[1])), groups, tried)
