"""Zwanzigerrufen written by hand in plain Python: the second yardstick for the engine's speed.

One deal of the shipped ``games/zwanzigerrufen.yaml`` (rules reference zwanzigerrufen.md §§1–10
with the recommended readings of §12), hard-coded, with no rulelang imports: the cutter cuts or
knocks, the cards are dealt in two packets of five or laid out in four piles taken in turn, a
hand without tarocks throws the cards in (a lone Trull card may), then rounds of bids,
announcements and doublings, ten tricks, and every item settled on its own.

Cards are ints in the pack's order: the tarocks 0–19 from Sküs down to I, then hearts 20–24,
diamonds 25–29, spades 30–34 and clubs 35–39, each suit K Q C J and its Glatze; within a suit a
*lower* int is a *higher* card. Hands are bitmasks. Seats are numbered in the direction of
play (forehand is the seat after the dealer). Auction actions are the rule file's words
(``call``, ``weiter``, ``absolut_dagegen``, ``kontra_game`` …), so ``tests/test_baseline_zwanzigerrufen.py``
compares them with the engine's by name.

The random playout makes the choices a uniformly random agent makes on the engine: cut or knock,
each pile, throw in or keep, each word of the auction among those allowed, each card among the
legal ones; so both sides do the same work per deal on average.
"""

from __future__ import annotations

import random

PLAYERS = 4
HAND_SIZE = 10
TRICKS = 10
TAROCK_NAMES = ("Sküs", "XXI", "XX", "XIX", "XVIII", "XVII", "XVI", "XV", "XIV", "XIII", "XII", "XI", "X", "IX",
                "VIII", "VII", "VI", "V", "IV", "I")
SUIT_CARDS = (("♥", ("K", "Q", "C", "J", "A")), ("♦", ("K", "Q", "C", "J", "A")),
              ("♠", ("K", "Q", "C", "J", "10")), ("♣", ("K", "Q", "C", "J", "10")))
NAMES = TAROCK_NAMES + tuple(rank + symbol for symbol, ranks in SUIT_CARDS for rank in ranks)
DECK = tuple(range(len(NAMES)))
SKUS, MOND, PAGAT = 0, 1, 19
TAROCKS = (1 << 20) - 1
SUIT_MASKS = (TAROCKS,) + tuple(((1 << 5) - 1) << (20 + 5 * suit) for suit in range(4))
TRULL = 1 << SKUS | 1 << MOND | 1 << PAGAT
KINGS = sum(1 << (20 + 5 * suit) for suit in range(4))
CALLABLE = sum(1 << card for card in range(2, 7))                  # XX, XIX, XVIII, XVII, XVI
POINTS = tuple(5 if card in (SKUS, MOND, PAGAT) else 1 if card < 20 else (5, 4, 3, 2, 0)[(card - 20) % 5]
               for card in DECK)

WIN_POINTS, ABSOLUT_POINTS = 45, 56
CONTRACTS = ("call", "suit_solo", "solo")                          # in rank order
CONTRACT_VALUE = {"call": 1, "suit_solo": 2, "solo": 4}
BONUS_FACTOR = {"call": 1, "suit_solo": 1, "solo": 2}
ITEMS = ("game", "pagat_ultimo", "valat", "absolut", "trull", "four_kings", "mondfang")
COUNTING = {"call": ITEMS, "suit_solo": ("game", "valat", "absolut", "four_kings"), "solo": ITEMS}
SILENT_VALUE = {"pagat_ultimo": 1, "valat": 4, "absolut": 1, "trull": 1, "four_kings": 2, "mondfang": 1}
ANNOUNCED_VALUE = {"pagat_ultimo": 2, "valat": 8, "absolut": 2}    # every announceable item is against-kontra
DOUBLING = ("kontra", "retour", "supra", "resupra")
PASS, FOR, AGAINST = "weiter", "dazu", "dagegen"
ABOVE = {None: CONTRACTS, **{name: CONTRACTS[rank + 1:] for rank, name in enumerate(CONTRACTS)}}
ANNOUNCEABLE = {name: tuple(item for item in items if item in ANNOUNCED_VALUE) for name, items in COUNTING.items()}
ANNOUNCE_WORDS = {item: (f"{item}_{AGAINST}", f"{item}_{FOR}") for item in ANNOUNCED_VALUE}   # by side
DOUBLE_WORDS = {item: tuple(f"{word}_{item}" for word in DOUBLING) for item in ITEMS}         # by level
MEANING = {f"{item}_{FOR}": ("announce", item, True) for item in ANNOUNCED_VALUE}
MEANING.update({f"{item}_{AGAINST}": ("announce", item, False) for item in ANNOUNCED_VALUE})
MEANING.update({f"{word}_{item}": ("double", item, False) for word in DOUBLING for item in ITEMS})


# ---------------------------------------------------------------------------- cards and seats
def card_name(card: int) -> str:
    """A card's name as the rule file writes it (``Sküs``, ``XX``, ``K♥``)."""
    return NAMES[card]


def suit_of(card: int) -> int:
    """0 for a tarock, 1–4 for hearts, diamonds, spades, clubs."""
    return 0 if card < 20 else 1 + (card - 20) // 5


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, lowest int (highest card) first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def count(mask: int) -> int:
    """How many cards a bitmask holds."""
    return bin(mask).count("1")


def seats_from(seat: int) -> list[int]:
    """All seats in the direction of play, beginning with ``seat``."""
    return [(seat + i) % PLAYERS for i in range(PLAYERS)]


def forehand_of(dealer: int) -> int:
    """Forehand sits after the dealer in the direction of play."""
    return (dealer + 1) % PLAYERS


def cutter_of(dealer: int) -> int:
    """The seat before the dealer cuts or knocks."""
    return (dealer - 1) % PLAYERS


# ---------------------------------------------------------------------------- dealing
def deal_packets(cards: list[int], forehand: int) -> list[int]:
    """Two packets of five to each seat from forehand; the hands as bitmasks."""
    hands = [0] * PLAYERS
    for packet in range(2 * PLAYERS):
        seat = (forehand + packet) % PLAYERS
        for card in cards[5 * packet:5 * packet + 5]:
            hands[seat] |= 1 << card
    return hands


def lay_piles(cards: list[int]) -> list[int]:
    """Four face-down piles of ten, as bitmasks."""
    piles = []
    for pile in range(PLAYERS):
        mask = 0
        for card in cards[HAND_SIZE * pile:HAND_SIZE * (pile + 1)]:
            mask |= 1 << card
        piles.append(mask)
    return piles


def must_throw_in(hands: list[int]) -> bool:
    """Someone holds no tarock at all: the cards are thrown in."""
    return any(not hand & TAROCKS for hand in hands)


def may_throw_in(hands: list[int], forehand: int) -> list[int]:
    """The seats, from forehand, whose only tarock is a Trull card: each may throw the cards in."""
    return [seat for seat in seats_from(forehand)
            if count(hands[seat] & TAROCKS) == 1 and hands[seat] & TAROCKS & TRULL]


# ---------------------------------------------------------------------------- the auction
class Bidding:
    """The auction so far: the contract bid (None before the first bid), its declarer and side (a
    seat mask, the called card's holder included), the items announced (True: for the declarers)
    and each item's doubling level."""

    __slots__ = ("contract", "declarer", "side", "called", "announced", "levels")

    def __init__(self):
        self.contract: str | None = None
        self.declarer = self.called = -1
        self.side = 0
        self.announced: dict[str, bool] = {}
        self.levels: dict[str, int] = {}


def may_bid(contract: str, hand: int, seat: int, forehand: int) -> bool:
    """The contracts' conditions: forehand calls unless he holds all of XX…XVI; a Suit Solo needs five
    suit cards (and forehand holding XX…XVI must play Solo); anyone may bid Solo."""
    forced = seat == forehand and hand & CALLABLE == CALLABLE
    if contract == "call":
        return seat == forehand and not forced
    if contract == "suit_solo":
        return count(hand & ~TAROCKS) >= 5 and not forced
    return True


def auction_options(bidding: Bidding, hands: list[int], seat: int, forehand: int) -> list[str]:
    """What ``seat`` may say now: a higher contract, then (once something is bid) pass, an item not
    yet announced (for or against as his side is), a doubling of an item in turn."""
    current = bidding.contract
    options = [name for name in ABOVE[current] if may_bid(name, hands[seat], seat, forehand)]
    if current is None:
        return options
    options.append(PASS)
    on_declarers = bidding.side >> seat & 1
    announced, levels = bidding.announced, bidding.levels
    for item in ANNOUNCEABLE[current]:
        if item not in announced:
            options.append(ANNOUNCE_WORDS[item][on_declarers])
    for item in COUNTING[current]:
        level = levels.get(item, 0)
        owner = True if item == "game" else announced.get(item)
        if level < len(DOUBLING) and owner is not None and on_declarers == (owner if level % 2 else not owner):
            options.append(DOUBLE_WORDS[item][level])
    return options


def auction_say(bidding: Bidding, hands: list[int], seat: int, word: str) -> None:
    """``seat`` says ``word`` (not the pass word)."""
    if word in CONTRACT_VALUE:
        bidding.contract, bidding.declarer = word, seat
        bidding.announced, bidding.levels = {}, {}
        bidding.side, bidding.called = 1 << seat, -1
        if word == "call":
            lacking = CALLABLE & ~hands[seat]
            bidding.called = card = (lacking & -lacking).bit_length() - 1
            bidding.side |= 1 << next(s for s in range(PLAYERS) if hands[s] >> card & 1)
        return
    kind, item, _ = MEANING[word]
    if kind == "announce":
        on_declarers = bidding.announced[item] = word.endswith(FOR)
        if not on_declarers:
            bidding.levels["game"] = max(bidding.levels.get("game", 0), 1)
    else:
        bidding.levels[item] = bidding.levels.get(item, 0) + 1


# ---------------------------------------------------------------------------- tricks
def legal_cards(hand: int, trick: list[int], suit_solo: bool) -> int:
    """The cards of ``hand`` that may go to ``trick``: follow the suit led, else play a tarock, else
    anything; in a Suit Solo lead a suit card while you have one, and when void in the suit led play a
    suit card, a tarock only when you have no suit card."""
    if not trick:
        return hand & ~TAROCKS or hand if suit_solo else hand
    follow = hand & SUIT_MASKS[suit_of(trick[0])]
    if follow:
        return follow
    return (hand & ~TAROCKS if suit_solo else hand & TAROCKS) or hand


def trick_winner(trick: list[int], suit_solo: bool) -> int:
    """The position in ``trick`` of the winning card: the Pagat when Sküs, Mond and Pagat meet (the
    fairy-tale trick), else the highest tarock (not in a Suit Solo), else the highest of the suit led."""
    if SKUS in trick and MOND in trick and PAGAT in trick:
        return trick.index(PAGAT)
    tarocks = [card for card in trick if card < 20]
    if tarocks and not suit_solo:
        return trick.index(min(tarocks))
    led = suit_of(trick[0])
    return trick.index(min(card for card in trick if suit_of(card) == led))


class Outcome:
    """What the tricks left for the settlement: points and tricks per seat, the hands dealt, who played
    the Pagat and Mond, in which trick, and the card that won that trick."""

    __slots__ = ("points", "tricks", "dealt", "pagat_trick", "pagat_player", "pagat_taker", "pagat_won",
                 "mond_player", "mond_beaten_by_skus")

    def __init__(self, dealt: list[int]):
        self.points = [0] * PLAYERS
        self.tricks = [0] * PLAYERS
        self.dealt = list(dealt)
        self.pagat_trick = self.pagat_player = self.pagat_taker = self.mond_player = -1
        self.pagat_won = self.mond_beaten_by_skus = False

    def add_trick(self, number: int, seats: list[int], trick: list[int], winner: int) -> None:
        """Trick ``number`` (from 1): ``seats`` played ``trick`` in order and ``winner`` (a position) took it."""
        taker = seats[winner]
        self.tricks[taker] += 1
        self.points[taker] += sum(POINTS[card] for card in trick)
        if PAGAT in trick:
            self.pagat_trick, self.pagat_player, self.pagat_taker = number, seats[trick.index(PAGAT)], taker
            self.pagat_won = trick[winner] == PAGAT
        if MOND in trick:
            self.mond_player, self.mond_beaten_by_skus = seats[trick.index(MOND)], trick[winner] == SKUS

    def of(self, side: int, values: list[int]) -> int:
        """The sum of ``values`` over the seats of ``side``."""
        return sum(value for seat, value in enumerate(values) if side >> seat & 1)

    def holder(self, cards: int) -> int:
        """The seat dealt every card of ``cards``, or -1."""
        return next((seat for seat, hand in enumerate(self.dealt) if hand & cards == cards), -1)

    def achieved(self, item: str, side: int) -> bool:
        """Whether ``side`` (a seat mask) achieved ``item``."""
        if item == "game":
            return self.of(side, self.points) >= WIN_POINTS
        if item == "pagat_ultimo":
            return self.pagat_trick == TRICKS and self.pagat_won and bool(side >> self.pagat_player & 1)
        if item == "valat":
            return self.of(side, self.tricks) == TRICKS
        if item == "absolut":
            return self.of(side, self.points) >= ABSOLUT_POINTS
        if item in ("trull", "four_kings"):
            holder = self.holder(TRULL if item == "trull" else KINGS)
            return holder >= 0 and bool(side >> holder & 1)
        return self.mond_beaten_by_skus and not side >> self.mond_player & 1

    def caught(self, item: str, side: int) -> bool:
        """A silent Pagat Ultimo is lost when ``side`` played the Pagat in the last trick and the others took it."""
        return (item == "pagat_ultimo" and self.pagat_trick == TRICKS and bool(side >> self.pagat_player & 1)
                and not side >> self.pagat_taker & 1)


# ---------------------------------------------------------------------------- settlement
def settle(bidding: Bidding, outcome: Outcome) -> list[int]:
    """Each seat's score change: every item that counts in the contract scored for one side (the
    game at the contract's value; an announced item at its announced value for its owner or, lost,
    for the others; a silent item for the side that achieved it), each doubling ×2, bonuses ×2 in a
    Solo; each defender pays the net, the declarers share it."""
    contract, declarers = bidding.contract, bidding.side
    defenders = (1 << PLAYERS) - 1 & ~declarers
    factor, levels, announced = BONUS_FACTOR[contract], bidding.levels, bidding.announced
    net = 0
    for item in COUNTING[contract]:
        doubled = 2 ** levels.get(item, 0)
        if item == "game":
            won = outcome.achieved(item, declarers)
            net += CONTRACT_VALUE[contract] * doubled * (1 if won else -1)
        elif item in announced:
            owner = declarers if announced[item] else defenders
            winner = owner if outcome.achieved(item, owner) else declarers ^ defenders ^ owner
            net += ANNOUNCED_VALUE[item] * doubled * factor * (1 if winner == declarers else -1)
        else:
            value = SILENT_VALUE[item] * factor
            for side, other in ((declarers, defenders), (defenders, declarers)):
                if outcome.achieved(item, side):
                    net += value if side == declarers else -value
                elif outcome.caught(item, side):
                    net += value if other == declarers else -value
    return pay(net, declarers, defenders)


def pay(net: int, declarers: int, defenders: int) -> list[int]:
    """Each defender pays ``net`` (receives it when negative); the declarers share what they pay."""
    deltas = [0] * PLAYERS
    if net:
        share = net * count(defenders) // count(declarers)
        for seat in range(PLAYERS):
            deltas[seat] = share if declarers >> seat & 1 else -net
    return deltas


# ---------------------------------------------------------------------------- random playouts
def deal_hands(rng: random.Random, forehand: int) -> list[int]:
    """Cut or knock, and the hands dealt (in packets, or piles taken in turn from forehand); again
    while the cards are thrown in."""
    while True:
        cards = list(DECK)
        rng.shuffle(cards)
        if rng.random() < 0.5:                                     # the cutter cuts
            hands = deal_packets(cards, forehand)
        else:                                                      # knocks: piles taken in turn
            piles, hands = lay_piles(cards), [0] * PLAYERS
            for seat in seats_from(forehand)[:-1]:
                hands[seat] = piles.pop(rng.randrange(len(piles)))
            hands[(forehand - 1) % PLAYERS] = piles.pop()
        if must_throw_in(hands) or any(rng.random() < 0.5 for _ in may_throw_in(hands, forehand)):
            continue
        return hands


def play_auction(rng: random.Random, hands: list[int], forehand: int) -> Bidding:
    """Rounds of random words from forehand until four say weiter in a row."""
    bidding, passes, seat = Bidding(), 0, forehand
    while True:
        word = rng.choice(auction_options(bidding, hands, seat, forehand))
        if word == PASS:
            passes += 1
            if passes == PLAYERS:
                return bidding
        else:
            passes = 0
            auction_say(bidding, hands, seat, word)
        seat = (seat + 1) % PLAYERS


def play_tricks(rng: random.Random, hands: list[int], forehand: int, suit_solo: bool) -> Outcome:
    """Ten tricks of random legal cards; forehand leads, the winner of a trick leads the next."""
    outcome, lead = Outcome(hands), forehand
    for number in range(1, TRICKS + 1):
        seats, trick = seats_from(lead), []
        for seat in seats:
            card = rng.choice(cards_of(legal_cards(hands[seat], trick, suit_solo)))
            hands[seat] ^= 1 << card
            trick.append(card)
        winner = trick_winner(trick, suit_solo)
        outcome.add_trick(number, seats, trick, winner)
        lead = seats[winner]
    return outcome


def play_deal(rng: random.Random, dealer: int) -> list[int]:
    """Play one deal with uniformly random choices; returns the score changes per seat."""
    forehand = forehand_of(dealer)
    hands = deal_hands(rng, forehand)
    bidding = play_auction(rng, hands, forehand)
    outcome = play_tricks(rng, hands, forehand, bidding.contract == "suit_solo")
    return settle(bidding, outcome)
