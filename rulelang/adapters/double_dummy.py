"""Double-dummy analysis of a position by DDS (optional extra ``rulelang[bridge]``, which installs endplay).

A judge for card play, never a player: it sees every hand. For a rule file whose card play DDS can state
(:func:`unfit` says why not), :func:`position` reads a state's position through the public ``State`` API
only — every seat's ``hand_cards``, the trick on the table from ``observation``, the trump from the deal
variable ``trump`` and the hand to play from the legal cards — and :func:`card_tricks` asks DDS how many
of the remaining tricks each legal card gives the side to play, with best play by everyone after it::

    from rulelang.adapters import double_dummy
    tricks = double_dummy.card_tricks(state)    # {action: tricks for the side to play}
    lost = max(tricks.values()) - tricks[action]

The engine never imports this module; ``benchmarks/double_dummy.py`` scores agents with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from endplay.dds import solve_board
from endplay.types import Card as DdsCard
from endplay.types import Deal, Denom, Player

from rulelang.interpreter.solver import hand_to_play, in_trick_play

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
DENOMS = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
PLAYERS = (Player.north, Player.east, Player.south, Player.west)


@dataclass(frozen=True)
class Position:
    """A position of four-handed trick play, every card by its DDS name ("SA", "HT", …).

    ``hands`` by seat (P1 sits North, P2 East, P3 South, P4 West: the order of play); ``trick`` the cards on
    the table in the order played, led by ``leader``; ``to_play`` the seat whose hand plays next (the dummy's
    own seat when the declarer plays from it); ``trump`` a suit letter, or None for no trumps."""

    hands: tuple[tuple[str, ...], ...]
    leader: int
    trick: tuple[str, ...]
    to_play: int
    trump: str | None

    def deal(self) -> Deal:
        """The position as an endplay ``Deal``, the trick on the table played to it."""
        deal = Deal()
        deal.first = PLAYERS[self.leader]
        deal.trump = DENOMS[self.trump] if self.trump else Denom.nt
        for seat, cards in enumerate(self.hands):
            hand = deal[PLAYERS[seat]]
            for name in cards:
                hand.add(DdsCard(name))
        for seat, name in self._trick_seats():
            deal[PLAYERS[seat]].add(DdsCard(name))
        for name in self.trick:
            deal.play(DdsCard(name))
        return deal

    def _trick_seats(self):
        return [((self.leader + i) % 4, name) for i, name in enumerate(self.trick)]


def unfit(game) -> str | None:
    """Why DDS cannot state ``game``'s card play, or None when it can: four seats in two partnerships of
    seats opposite, the 52-card French pack ranked A down to 2 in every suit, any card free to be led (DDS
    knows no `lead_from`, such as Spades' trumps kept back until broken: it would score later leads the rules
    forbid)."""
    if game.num_players != 4:
        return f"DDS plays four hands; this game has {game.num_players} players"
    deck = game.deck
    if len(deck.cards) != 52 or sorted(SUIT_WORDS.get(s.name, "?") for s in deck.suits) != ["C", "D", "H", "S"]:
        return "DDS plays the 52-card French pack; this game's pack is another"
    if any(tuple(s.ranks) != RANKS for s in deck.suits):
        return "DDS ranks every suit A K Q J 10 … 2; this game's pack ranks another way"
    teams = {frozenset(_bits(mask)) for mask in (game.definition.teams or ())}
    if teams != {frozenset({0, 2}), frozenset({1, 3})}:
        return "DDS counts tricks for two partnerships of seats opposite (P1 and P3, P2 and P4)"
    for phase in game.definition.phases:
        rules = [getattr(phase, "rules", None), *(getattr(phase, "by_contract", None) or {}).values()]
        if any(getattr(found, "lead_from", None) for found in rules):
            return "DDS lets any card be led; this game's `lead_from` keeps some cards back from the lead"
    return None


def position(state) -> Position:
    """The position of ``state`` (a card to play, in a game :func:`unfit` passes), read through the public API."""
    game = state.game
    hands = tuple(tuple(dds_name(game, c) for c in state.hand_cards(seat)) for seat in range(4))
    seat_of = {game.seat_name(s): s for s in range(4)}
    table = state.observation(state.current_player())["trick"]
    trick = tuple(dds_name(game, game.deck.lookup[card.casefold()]) for _, card in table)
    to_play = hand_to_play(state)
    leader = seat_of[table[0][0]] if table else to_play
    trump = state.var_text("trump") if "trump" in game.definition.deal_vars else "none"
    return Position(hands, leader, trick, to_play, SUIT_WORDS.get(trump))


def card_tricks(state) -> dict[int, int]:
    """For each legal card of ``state``, the tricks still to be played that the side to play takes after it,
    every later card played double-dummy (DDS's ``solve_board``)."""
    found = position(state)
    by_name = {str(card): tricks for card, tricks in solve_board(found.deal())}
    names = {action: _dds_text(state, action) for action in state.legal_actions()}
    if set(names.values()) != set(by_name):
        raise ValueError(f"the legal cards {sorted(names.values())} are not DDS's {sorted(by_name)}: DDS does "
                         "not play this game's follow rules")
    return {action: by_name[text] for action, text in names.items()}


def declarer_tricks(state) -> int:
    """At the opening lead, the tricks the declaring side (not the side on lead) makes double-dummy."""
    found = position(state)
    if found.trick:
        raise ValueError("declarer_tricks is asked at the opening lead, before a card is on the table")
    return len(found.hands[found.to_play]) - max(tricks for _, tricks in solve_board(found.deal()))


def dds_name(game, card: int) -> str:
    """A card of ``game``'s deck by its DDS name: suit letter and rank ("SA", "HT")."""
    found = game.deck.cards[card]
    return SUIT_WORDS[game.deck.suits[found.suit].name] + ("T" if found.rank == "10" else found.rank)


def _dds_text(state, action: int) -> str:
    """A card action as endplay prints it: the text of its ``Card``."""
    return str(DdsCard(dds_name(state.game, action)))


def _bits(mask: int):
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


# ---------------------------------------------------------------------- scoring a deal's card play
@dataclass
class PlayScore:
    """One deal's card play judged double-dummy. The sides are ``declarer`` and ``defence``, or in a game
    played without a contract (trumps fixed, no declarer) the two partnerships by their seats ("P1+P3"); for each,
    ``lost`` the tricks its cards gave away (the DDS value of the best card minus the card's, summed),
    ``choices`` its cards played where it had more than one legal card, and ``costly`` those of them that gave
    a trick away. ``contract`` is e.g. "4S by P3"; ``fit`` the tricks the declaring side makes
    double-dummy at the opening lead minus the tricks its contract needs (level + 6) — both None without a
    contract. ``played`` is False for a deal passed out. ``decisions`` counts the cards at which our legal cards
    and DDS's agreed (all of them)."""

    contract: str | None = None
    fit: int | None = None
    level: int = 0
    doubling: int = 0
    lost: dict = None
    choices: dict = None
    costly: dict = None
    decisions: int = 0
    played: bool = False
    sides: tuple = ("declarer", "defence")

    def __post_init__(self) -> None:
        self.lost = self.lost or dict.fromkeys(self.sides, 0)
        self.choices = self.choices or dict.fromkeys(self.sides, 0)
        self.costly = self.costly or dict.fromkeys(self.sides, 0)


class DoubleDummyPlayer:
    """Plays the card DDS rates best (the lowest action among equals). It sees every hand: a yardstick for the
    benchmark and the tests, never a seat's agent."""

    def step(self, state) -> int:
        """The legal card that keeps the most tricks for the side to play."""
        tricks = card_tricks(state)
        best = max(tricks.values())
        return min(action for action, value in tricks.items() if value == best)


def _contract_score(state, declarer: int) -> PlayScore:
    """A :class:`PlayScore` with the contract and its double-dummy fit, at the opening lead."""
    score = PlayScore(level=int(state.var_text("level")), doubling=int(state.var_text("doubling")))
    trump = state.var_text("trump")
    score.contract = f"{score.level}{SUIT_WORDS.get(trump, 'NT')} by {state.game.seat_name(declarer)}"
    score.fit = declarer_tricks(state) - score.level - 6
    return score


def score_play(state, agents) -> PlayScore:
    """Play the cards of ``state``'s deal from its opening lead to the last trick by ``agents`` (one per seat,
    each ``step(state) -> action``; the declarer's agent plays the dummy), every card judged by DDS.
    ``state`` is changed; chance events in trick play are not expected and stop the scoring."""
    seat = state.game.seat_name
    declarer = {seat(s): s for s in range(4)}.get(state.observation(state.current_player()).get("declarer"))
    if declarer is None and "level" in state.game.definition.deal_vars:
        return PlayScore()                                    # a contract game, passed out
    if declarer is None:
        score = PlayScore(sides=(f"{seat(0)}+{seat(2)}", f"{seat(1)}+{seat(3)}"))
    else:
        score = _contract_score(state, declarer)
    score.played = True
    deal = state.deal_number
    while in_trick_play(state, deal):
        tricks = card_tricks(state)
        hand = hand_to_play(state)
        side = score.sides[hand % 2] if declarer is None else score.sides[hand % 2 != declarer % 2]
        action = agents[state.current_player()].step(state)
        best, got = max(tricks.values()), tricks[action]
        score.decisions += 1
        if len(tricks) > 1:
            score.choices[side] += 1
            score.costly[side] += got < best
        score.lost[side] += best - got
        state.apply_action(action)
    return score
