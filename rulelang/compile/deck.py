"""Building a deck from a document's ``deck`` section: cards as ints 0..N-1, suits as bitmasks."""

from __future__ import annotations

import difflib

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import yaml

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document


@dataclass(frozen=True)
class Suit:
    """One suit: its name, the symbol shown after ranks, the letter players type, ranks high→low."""

    name: str
    symbol: str
    letter: str
    ranks: tuple
    by_rank: bool = False


@dataclass(frozen=True)
class Card:
    """One card: its display name, suit index, rank, rank index within the suit (0 = highest), points, and
    which copy of its name it is (0 unless the pack has ``copies``)."""

    name: str
    suit: int
    rank: str
    order: int
    points: int
    copy: int = 0


@dataclass
class Deck:
    """Every card of the pack with lookup tables built once."""

    suits: list[Suit]
    cards: list[Card]
    lookup: dict[str, int]
    suit_masks: list[int]
    tags: dict[str, int] = field(default_factory=dict)
    suit_aliases: dict[str, int] = field(default_factory=dict)
    copies: int = 1
    twins: list[int] = field(default_factory=list)
    spellings: dict[str, str] = field(default_factory=dict)    # each key of ``lookup``, as the file wrote it

    def same_name(self, card: int) -> int:
        """The bitmask of every copy of ``card`` (the card alone when the pack has one copy)."""
        return self.twins[card] if self.twins else 1 << card

    @property
    def full_mask(self) -> int:
        """The bitmask of every card."""
        return (1 << len(self.cards)) - 1

    def suit_index(self, name: str) -> int | None:
        """The index of the suit called ``name``, or None."""
        for i, suit in enumerate(self.suits):
            if suit.name == name:
                return i
        return None

    def names(self, mask: int) -> list[str]:
        """Card names of ``mask`` in deck order."""
        return [self.cards[c].name for c in iter_bits(mask)]


def iter_bits(mask: int):
    """Yield the indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# For every byte position k (cards 8k..8k+7) and byte value b: the card indexes of b's set bits.
_BYTE_BITS = [[tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)] for k in range(16)]
_TABLE_LIMIT = 1 << 128


_B0, _B1, _B2, _B3, _B4, _B5, _B6, _B7 = _BYTE_BITS[:8]


def bit_list(mask: int) -> list[int]:
    """The indexes of the set bits of ``mask`` as a sorted list (table look-ups, one per byte; written out
    for the masks of packs up to 32 and 64 cards, which are almost all of them)."""
    if mask < 4294967296:
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255], *_B3[mask >> 24]]
    if mask < 18446744073709551616:
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255], *_B3[mask >> 24 & 255],
                *_B4[mask >> 32 & 255], *_B5[mask >> 40 & 255], *_B6[mask >> 48 & 255], *_B7[mask >> 56]]
    if mask >= _TABLE_LIMIT:
        return list(iter_bits(mask))
    out: list[int] = []
    tables = _BYTE_BITS
    k = 0
    while mask:
        byte = mask & 255
        if byte:
            out += tables[k][byte]
        mask >>= 8
        k += 1
    return out


def sample_bits(rng: random.Random, mask: int, count: int) -> list[int]:
    """``rng.sample(bit_list(mask), count)``: ``count`` of the set bits of ``mask`` in the order drawn.

    For a plain :class:`random.Random` the draw is written out here, step for step the algorithm of
    CPython's ``Random.sample`` (a pool for small populations, else rejection from a set of taken
    places) over ``getrandbits``, so a seed gives the very cards ``sample`` gives, without its checks
    and set-up (a third of a short draw's time). Any other generator is asked for ``sample``."""
    population = bit_list(mask)
    if type(rng) is not random.Random:
        return rng.sample(population, count)
    n, getrandbits = len(population), rng.getrandbits
    if not 0 <= count <= n:
        raise ValueError("Sample larger than population or is negative")
    setsize = 21 if count <= 5 else 21 + 4 ** math.ceil(math.log(count * 3, 4))
    drawn = []
    if n <= setsize:
        for i in range(count):
            left = n - i
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            drawn.append(population[j])
            population[j] = population[left - 1]
        return drawn
    taken: set[int] = set()
    bits = n.bit_length()
    for _ in range(count):
        j = getrandbits(bits)
        while j >= n or j in taken:
            j = getrandbits(bits)
        taken.add(j)
        drawn.append(population[j])
    return drawn


@lru_cache(maxsize=None)
def named_packs() -> dict:
    """The named packs of ``rulelang/compile/packs.yaml``."""
    text = resources.files(__package__).joinpath("packs.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def build_deck(doc: Document) -> Deck:
    """The deck of a resolved document; raises RuleError with located diagnostics."""
    spec = dict(doc.get(("deck",), {}) or {})
    errors: list[Diagnostic] = []
    pack = spec.get("pack")
    if pack is not None:
        base = named_packs().get(pack)
        if base is None:
            raise RuleError([Diagnostic("N204", f"there is no pack named '{pack}'", doc.span_of(("deck", "pack")),
                                        f"the named packs are {', '.join(sorted(named_packs()))}")])
        spec = {**base, **{k: v for k, v in spec.items() if k != "pack"}}
    if spec.get("keep") is not None:
        spec = _kept(spec, doc, errors)
    suits = _suits(spec, doc, errors)
    if errors:
        raise RuleError(errors)
    deck = _cards(suits, spec, doc, errors)
    if errors:
        raise RuleError(errors)
    return deck


def _kept_count(doc: Document, key: str, limit: int, errors: list) -> int:
    """The count ``keep.KEY`` asks for: a whole number or a param's name, from 1 to ``limit``; ``limit`` when absent."""
    path = ("deck", "keep", key)
    value = doc.get(path, limit)
    params = doc.data.get("params") or {}
    if isinstance(value, str) and value in params:
        value = params[value]
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(Diagnostic("N233", f"`keep: {key}` must be a whole number or a param's name, not '{value}'",
                                 doc.span_of(path), f"write a number, or name a param of {', '.join(params) or 'none'}"))
        return limit
    if not 1 <= value <= limit:
        errors.append(Diagnostic("R306", f"`keep: {key}` asks for {value} {key}, but the pack has {limit}",
                                 doc.span_of(path), f"keep from 1 to {limit} {key}"))
        return limit
    return value


def _kept(spec: dict, doc: Document, errors: list) -> dict:
    """The deck spec narrowed by ``keep``, its counts checked (R306, N233)."""
    keep = spec["keep"] if isinstance(spec["keep"], dict) else {}
    suits = list(spec.get("suits") or [])
    suit_count = _kept_count(doc, "suits", len(suits) or 1, errors)
    widest = max([len(spec.get("ranks") or ())] + [len(s.get("ranks") or ()) for s in suits if isinstance(s, dict)])
    rank_count = _kept_count(doc, "ranks", widest or 1, errors)
    return narrowed(spec, suit_count, rank_count, keep.get("from") == "low")


def narrowed(spec: dict, suit_count: int, rank_count: int, low: bool) -> dict:
    """``spec`` with only its first ``suit_count`` suits and, of every suit, the ``rank_count`` highest ranks
    (the lowest when ``low``)."""
    def cut(ranks) -> list:
        ranks = list(ranks)
        return ranks[max(0, len(ranks) - rank_count):] if low else ranks[:rank_count]
    suits = [{**s, "ranks": cut(s["ranks"])} if isinstance(s, dict) and s.get("ranks") else s
             for s in list(spec.get("suits") or [])[:suit_count]]
    return {**spec, "suits": suits, "ranks": cut(spec.get("ranks") or [])}


def _suits(spec: dict, doc: Document, errors: list) -> list[Suit]:
    default_ranks = tuple(str(r) for r in spec.get("ranks") or ())
    suits, seen = [], set()
    for i, entry in enumerate(spec.get("suits") or []):
        name = str(entry.get("name"))
        ranks = tuple(str(r) for r in entry.get("ranks") or default_ranks)
        where = doc.span_of(("deck", "suits", i))
        if name in seen:
            errors.append(Diagnostic("N205", f"the suit '{name}' is defined twice", where, "give every suit its own name"))
        if not ranks:
            errors.append(Diagnostic("R301", f"the suit '{name}' has no ranks", where,
                                     "give the deck `ranks` or the suit its own `ranks`"))
        if len(set(ranks)) != len(ranks):
            errors.append(Diagnostic("N206", f"the suit '{name}' lists a rank twice", where, "each rank once, high to low"))
        seen.add(name)
        letter = str(entry.get("letter") or name[0].upper())
        symbol = str(entry.get("symbol") or letter)
        suits.append(Suit(name, symbol, letter, ranks, entry.get("naming") == "rank"))
    if not suits:
        errors.append(Diagnostic("R302", "the deck has no suits", doc.span_of(("deck",)),
                                 "name a pack (`pack: skat32-french`) or list `suits`"))
    return suits


def _cards(suits: list[Suit], spec: dict, doc: Document, errors: list) -> Deck:
    points = {str(k): v for k, v in (spec.get("points") or {}).items()}
    removed = {str(c).casefold() for c in spec.get("remove") or []}
    copies = spec.get("copies") if isinstance(spec.get("copies"), int) else 1
    cards, lookup, masks, twins, spellings = [], {}, [], [], {}
    for s, suit in enumerate(suits):
        mask = 0
        for order, rank in enumerate(suit.ranks):
            name = rank if suit.by_rank else f"{rank}{suit.symbol}"
            if name.casefold() in removed:
                continue
            card_id = len(cards)
            value = int(points.get(name, points.get(rank, 0)))
            cards += [Card(name, s, rank, order, value, copy) for copy in range(copies)]
            for key in {name, f"{rank}{suit.letter}", f"{rank}{suit.symbol}"} if not suit.by_rank else {name}:
                if key.casefold() in lookup and lookup[key.casefold()] != card_id:
                    errors.append(Diagnostic("N207", f"two cards are both called '{key}'", doc.span_of(("deck",)),
                                             "rename a rank or give the suits different letters"))
                lookup[key.casefold()] = card_id
                spellings[key.casefold()] = key
            same = ((1 << copies) - 1) << card_id
            twins += [same] * copies
            mask |= same
        masks.append(mask)
    deck = Deck(suits, cards, lookup, masks, copies=copies, twins=twins if copies > 1 else [], spellings=spellings)
    for index, entry in enumerate(spec.get("suits") or []):
        if entry.get("plays_as"):
            deck.suit_aliases[str(entry["plays_as"])] = index
    _aliases(deck, spec, doc, errors)
    _tags(deck, spec, doc, errors)
    return deck


_WHITE_SUITS = str.maketrans("♧♤♡♢", "♣♠♥♦")


def card_guess(name: str, lookup: dict[str, int], spellings: dict[str, str], otherwise: str) -> str:
    """The hint for an unknown card ``name``: the deck's closest names and aliases as the file wrote them
    (one per card), or ``otherwise`` when none is close."""
    plain = name.translate(_WHITE_SUITS).casefold()      # '2♧' for '2♣': the outlined symbols are a common slip
    close = [plain] if plain in lookup else difflib.get_close_matches(name.casefold(), list(lookup), n=6, cutoff=0.6)
    shown, cards = [], set()
    for key in close:
        if lookup[key] not in cards:
            cards.add(lookup[key])
            shown.append(repr(spellings.get(key, key)))
    return f"did you mean {' or '.join(shown[:3])}?" if shown else otherwise


def _aliases(deck: Deck, spec: dict, doc: Document, errors: list) -> None:
    for alias, target in (spec.get("aliases") or {}).items():
        card = deck.lookup.get(str(target).casefold())
        if card is None:
            errors.append(Diagnostic("N202", f"the alias '{alias}' names '{target}', which is not a card of this deck",
                                     doc.span_of(("deck", "aliases", alias)),
                                     card_guess(str(target), deck.lookup, deck.spellings, "aliases point at a card's name")))
            continue
        deck.lookup[str(alias).casefold()] = card
        deck.spellings[str(alias).casefold()] = str(alias)


def _tags(deck: Deck, spec: dict, doc: Document, errors: list) -> None:
    for tag, names in (spec.get("tags") or {}).items():
        mask = 0
        for i, name in enumerate(names or []):
            card = deck.lookup.get(str(name).casefold())
            if card is None:
                errors.append(Diagnostic("N202", f"the tag '{tag}' lists '{name}', which is not a card of this deck",
                                         doc.span_of(("deck", "tags", tag, i)),
                                         card_guess(str(name), deck.lookup, deck.spellings,
                                                    "tags list cards by name or alias")))
                continue
            mask |= deck.same_name(card)
        deck.tags[str(tag)] = mask
