"""Zwanzig ab written by hand in plain Python: the yardstick for the rulelang engine's speed.

The base game of the rules reference (zwanzig-ab.md §1 with the recommended readings of §3),
hard-coded, with no rulelang imports. Cards are ints ``suit * 8 + rank``: suits in Skat order
(clubs, spades, hearts, diamonds), ranks in Ace-Ten order A 10 K Q J 9 8 7, so within a suit a
*lower* int is a *higher* card. Hands are plain lists of ints.

The rules live in small functions (``deal``, ``may_pass``, ``legal_cards``, ``trick_winner``,
``score_deal``, ``match_winner``) so that ``tests/test_baseline_agrees.py`` can replay the
engine's games through them; ``play_deal`` and ``play_match`` are the random playouts that
``bench_playouts.py`` times.

The random playout makes the same random choices as a uniformly random agent on the engine:
the dealer by lot, every card dealt and drawn, forehand's trump, each exchange step (one of the
cards in hand, or stop), play or pass, and each card among the legal ones. So both sides do the
same work per deal on average.
"""

from __future__ import annotations

import random

SUITS = ("clubs", "spades", "hearts", "diamonds")
SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")  # high to low, in every suit (trumps too)
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)

PLAYERS = 4
FIRST_PACKET, SECOND_PACKET = 2, 3
HAND_SIZE = FIRST_PACKET + SECOND_PACKET
MAX_EXCHANGE = 3
START_SCORE = 20
NO_TRICK_BONUS = 5
HEARTS_FACTOR = 2

DECK = tuple(range(len(SUITS) * len(RANKS)))


# ---------------------------------------------------------------------------- cards and seats
def suit_of(card: int) -> int:
    """The suit of a card (0 clubs .. 3 diamonds)."""
    return card >> 3


def card_name(card: int) -> str:
    """A card's name, e.g. ``10♥``."""
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def parse_card(name: str) -> int:
    """The card called ``name`` (rank followed by a suit symbol, e.g. ``10♥``)."""
    return SUIT_SYMBOLS.index(name[-1]) * 8 + RANKS.index(name[:-1])


def seats_from(seat: int) -> list[int]:
    """All seats clockwise, beginning with ``seat``."""
    return [(seat + i) % PLAYERS for i in range(PLAYERS)]


def next_dealer(dealer: int) -> int:
    """The deal passes to the left (clockwise)."""
    return (dealer + 1) % PLAYERS


# ---------------------------------------------------------------------------- the rules
def deal(cards: list[int], dealer: int) -> tuple[int, list[list[int]], list[int]]:
    """Deal the shuffled ``cards``: a packet of 2 to each seat from forehand (the dealer's left),
    then a packet of 3 each; the rest is the talon, drawn from its end.

    Returns ``(forehand, hands, talon)``.
    """
    forehand = (dealer + 1) % PLAYERS
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    second = FIRST_PACKET * PLAYERS
    for i, seat in enumerate(seats_from(forehand)):
        hands[seat] = (cards[FIRST_PACKET * i:FIRST_PACKET * (i + 1)]
                       + cards[second + SECOND_PACKET * i:second + SECOND_PACKET * (i + 1)])
    return forehand, hands, cards[HAND_SIZE * PLAYERS:]


def may_pass(seat: int, forehand: int, trump: int) -> bool:
    """Forehand never drops out, and nobody may when diamonds are trumps."""
    return seat != forehand and trump != DIAMONDS


def legal_cards(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far, in order):
    follow the suit led, else trump, else anything."""
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = [c for c in hand if c >> 3 == led]
    if follow:
        return follow
    trumps = [c for c in hand if c >> 3 == trump]
    return trumps or hand


def trick_winner(trick: list[int], trump: int) -> int:
    """The position in ``trick`` of the winning card: the highest trump, else the highest card of
    the suit led."""
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if card >> 3 == top >> 3:
            if card < top:  # same suit: a lower int is a higher card
                best = i
        elif card >> 3 == trump:
            best = i
    return best


def score_deal(tricks: list[int], playing: list[bool], trump: int) -> list[int]:
    """Each seat's score change: −1 per trick, +5 for staying in without a trick, 0 for a seat that
    dropped out; everything doubled when hearts are trumps. A player left alone (everyone else
    dropped out) is credited with all five tricks."""
    factor = HEARTS_FACTOR if trump == HEARTS else 1
    alone = sum(playing) == 1
    deltas = [0] * PLAYERS
    for seat in range(PLAYERS):
        if playing[seat]:
            taken = HAND_SIZE if alone else tricks[seat]
            deltas[seat] = -taken * factor if taken else NO_TRICK_BONUS * factor
    return deltas


def match_winner(scores: list[int]) -> int | None:
    """The winner once someone is at 0 or below with the unique lowest score; else None (play on)."""
    low = min(scores)
    if low > 0 or scores.count(low) > 1:
        return None
    return scores.index(low)


# ---------------------------------------------------------------------------- random playouts
def play_deal(rng: random.Random, dealer: int) -> list[int]:
    """Play one deal with uniformly random choices; returns the score changes per seat."""
    cards = list(DECK)
    rng.shuffle(cards)
    forehand, hands, talon = deal(cards, dealer)
    trump = rng.randrange(len(SUITS))  # forehand names trumps (after two cards; random play)
    seats = seats_from(forehand)

    # Exchange, forehand first: at each step discard one of the cards in hand or stop; draw after.
    for seat in seats:
        hand = hands[seat]
        discarded = 0
        while discarded < MAX_EXCHANGE:
            i = rng.randrange(len(hand) + 1)
            if i == len(hand):
                break
            del hand[i]
            discarded += 1
        for _ in range(discarded):
            hand.append(talon.pop())

    # Play or pass, clockwise from forehand's left.
    playing = [True] * PLAYERS
    for seat in seats[1:]:
        if may_pass(seat, forehand, trump) and rng.random() < 0.5:
            playing[seat] = False

    # Tricks among the players still in; forehand leads, the winner leads the next.
    tricks = [0] * PLAYERS
    players = [seat for seat in seats if playing[seat]]
    if len(players) > 1:
        lead = 0
        for _ in range(HAND_SIZE):
            order = players[lead:] + players[:lead]
            trick = []
            for seat in order:
                hand = hands[seat]
                card = rng.choice(legal_cards(hand, trick, trump))
                hand.remove(card)
                trick.append(card)
            winner = order[trick_winner(trick, trump)]
            tricks[winner] += 1
            lead = players.index(winner)
    return score_deal(tricks, playing, trump)


def play_match(rng: random.Random) -> tuple[int, int, list[int]]:
    """Play a match from 20 each until it has a winner; returns ``(winner, deals, scores)``."""
    scores = [START_SCORE] * PLAYERS
    dealer = rng.randrange(PLAYERS)
    deals = 0
    while True:
        for seat, delta in enumerate(play_deal(rng, dealer)):
            scores[seat] += delta
        deals += 1
        winner = match_winner(scores)
        if winner is not None:
            return winner, deals, scores
        dealer = next_dealer(dealer)


if __name__ == "__main__":
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    winner, deals, scores = play_match(random.Random(seed))
    print(f"winner P{winner + 1} after {deals} deals; scores {scores}")
