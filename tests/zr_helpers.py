"""Helpers shared by the Zwanzigerrufen tests (the Viennese game, its reading variants and
the Finnish variant): deals fixed card by card, moves given by name, results by seat name.

Seats are P1..P4 in the order of play; with the default dealer P4 the forehand is P1 and the
cutter (the seat before the dealer) is P3. Imported as ``from zr_helpers import …`` (pytest
puts ``tests/`` on the path).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_game

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "logs"
GAMES = ROOT / "games"
SEATS = ("P1", "P2", "P3", "P4")
TAROCKS = "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV I".split()


@lru_cache(maxsize=None)
def game(name: str = "zwanzigerrufen", max_deals: int | None = 1):
    """The shipped game ``name`` (a file stem under games/), stopped after ``max_deals`` deals."""
    return load_game(str(GAMES / f"{name}.yaml"), max_deals=max_deals)


def seat(name: str) -> int:
    """``P1`` → 0."""
    return int(name[1:]) - 1


def name_of(index: int) -> str:
    """0 → ``P1``."""
    return f"P{index + 1}"


def cards(g, text) -> list[str]:
    """Canonical card names of a space-separated string (or a list) of card names, letters or aliases."""
    words = text.split() if isinstance(text, str) else list(text)
    out = []
    for word in words:
        card = g.deck.lookup.get(word.casefold())
        assert card is not None, f"{word!r} is not a card of {g.name}"
        out.append(g.deck.cards[card].name)
    return out


def mask_of(g, text) -> int:
    """The bitmask of the named cards."""
    mask = 0
    for name in cards(g, text):
        mask |= 1 << g.deck.lookup[name.casefold()]
    return mask


def names(g, mask: int) -> set[str]:
    """The names of the cards of ``mask``."""
    return set(g.deck.names(mask))


def points_of(g, mask: int) -> int:
    """The card points of the cards of ``mask``."""
    return sum(g.deck.cards[c].points for c in range(len(g.deck.cards)) if mask >> c & 1)


class Table:
    """One match whose deals are given card by card and whose moves are given by name.

    ``hands`` maps seat names to their ten cards (a string or list of names, aliases or typed
    forms); ``talon`` lists further cards the chance events draw in order (the four knock
    piles, ten cards each, when the cutter knocks). ``cut`` is the cutter's choice, made at
    once when given (``None`` leaves it to the test).
    """

    def __init__(self, g, hands: dict | None = None, dealer: str = "P4", cut: str | None = "cut",
                 talon=None):
        self.game = g
        self.state = g.new_initial_state()
        self.dealer = dealer
        self.chance = None
        self.scripted = -1
        if hands is not None:
            self.deal(hands, talon, cut)

    # -------------------------------------------------------------------- chance
    def deal(self, hands: dict, talon=None, cut: str | None = "cut") -> None:
        """Script the next deal's cards and play chance events until a player must act."""
        g = self.game
        given = {seat(s): cards(g, text) for s, text in hands.items()}
        self.chance = ScriptedDeal(g, given, cards(g, talon) if talon is not None else [], dealer=seat(self.dealer))
        self.scripted = self.state.deal_number
        self.settle()
        if cut is not None and self.phase() == "choose":
            self.do(f"{self.to_act()} {cut}")

    def settle(self) -> None:
        """Apply chance events of the scripted deal until a player has to act (or that deal is over)."""
        st = self.state
        while st.is_chance_node() and st.deal_number == self.scripted:
            st.apply_checked(self.chance.step(st))

    # -------------------------------------------------------------------- moves
    def do(self, *moves: str) -> None:
        """Apply moves written ``"P1 call"`` or ``"P3 K♥"``; the seat must be the one to act."""
        for move in moves:
            who, what = move.split()
            assert self.to_act() == who, f"{move}: it is {self.to_act()}'s turn (legal: {self.legal()})"
            action = self.game.string_to_action(what)
            assert action is not None, f"{what} is no action of {self.game.name}"
            self.state.apply_checked(action)
            self.settle()

    def trick(self, text: str) -> str:
        """Play one trick written ``"P1 K♥ P2 Q♥ P3 C♥ P4 J♥"``; returns the winner's seat name."""
        words = text.split()
        before, finished = len(self.state.tricks.trick_winners), len(self.state.deal_results)
        for who, what in zip(words[::2], words[1::2]):
            self.do(f"{who} {what}")
        if len(self.state.deal_results) > finished:
            winner = self.state.deal_results[-1]["last_trick"][1]
        else:
            assert len(self.state.tricks.trick_winners) == before + 1, f"{text}: the trick is not complete"
            winner = self.state.tricks.trick_winners[before][0]
        return name_of(winner)

    def tricks(self, *texts: str) -> list[str]:
        """Play several tricks; the winners' seat names."""
        return [self.trick(t) for t in texts]

    def weiter(self) -> None:
        """Every seat says Weiter until the auction ends."""
        while self.phase() == "auction" and self.to_act() is not None:
            self.do(f"{self.to_act()} weiter")

    def auto_play(self, policy=None) -> None:
        """Play the current deal to its end: ``policy(table, legal names)`` picks a name (default: the first)."""
        number = self.state.deal_number
        while not self.state.is_terminal() and self.state.deal_number == number and self.to_act() is not None:
            legal = self.legal()
            choice = policy(self, legal) if policy else legal[0]
            self.do(f"{self.to_act()} {choice}")

    # -------------------------------------------------------------------- looking
    def phase(self) -> str | None:
        """The kind of the phase being played."""
        st = self.state
        return None if st.is_terminal() or st.phase is None else st.phase.kind

    def to_act(self) -> str | None:
        """The seat name to act now, or None at chance or terminal nodes."""
        current = self.state.current_player()
        return name_of(current) if current >= 0 else None

    def legal(self) -> list[str]:
        """Names of the legal actions now."""
        return [self.game.action_to_string(a) for a in self.state.legal_actions()]

    def is_legal(self, what: str) -> bool:
        """Whether the named action is legal now."""
        return self.game.string_to_action(what) in self.state.legal_actions()

    def hand(self, who: str) -> set[str]:
        """The cards ``who`` holds now."""
        return names(self.game, self.state.hands[seat(who)])

    def won_points(self, *who: str) -> int:
        """Card points in the tricks the seats have taken."""
        return sum(points_of(self.game, self.state.won[seat(w)]) for w in who)

    def result(self, deal: int = -1) -> dict:
        """The deal result (``state.deal_results``) of a finished deal."""
        return self.state.deal_results[deal]

    def deltas(self, deal: int = -1) -> dict[str, int]:
        """Score changes of a finished deal by seat name."""
        return {name_of(s): v for s, v in enumerate(self.result(deal)["delta"])}

    def items(self, deal: int = -1) -> dict[str, tuple[str, int]]:
        """``{item title: (side, value)}`` of a finished deal (side: declarers, defenders or a seat name)."""
        return {r["item"]: (r["side"], r["value"]) for r in self.result(deal)["items"]}


def item_net(t: Table, deal: int = -1) -> int:
    """The declaring side's net of the side items of a finished deal (items paid per seat excluded)."""
    net = 0
    for r in t.result(deal)["items"]:
        if r["side"] == "declarers":
            net += r["value"]
        elif r["side"] == "defenders":
            net -= r["value"]
    return net


# ---------------------------------------------------------------------- deals (dealer P4: forehand P1)
# A plain deal: P1 lacks XX (P3 has it); XXI with P1, Sküs with P2, the Pagat with P4; no Trull
# and no four Kings in one hand; every seat holds five tarocks and five suit cards.
BASE = {"P1": "XXI XIX XV XI VII K♥ Q♥ J♠ 10♠ C♣",
        "P2": "Sküs XVIII XIV X VI C♥ J♥ K♦ Q♠ 10♣",
        "P3": "XX XVII XIII IX V A♥ Q♦ C♦ K♠ K♣",
        "P4": "I XVI XII VIII IV J♦ A♦ C♠ Q♣ J♣"}

# Two plays of BASE after "P1 call" and four Weiter: P1+P3 take 45 and 44 card points, no bonus scores.
BASE_45 = ("P1 10♠ P2 Q♠ P3 K♠ P4 C♠", "P3 XIII P4 XVI P1 XV P2 XIV", "P4 VIII P1 VII P2 VI P3 XVII",
           "P3 C♦ P4 J♦ P1 XXI P2 K♦", "P1 XIX P2 X P3 XX P4 IV", "P3 K♣ P4 J♣ P1 C♣ P2 10♣",
           "P3 A♥ P4 I P1 Q♥ P2 J♥", "P4 Q♣ P1 XI P2 Sküs P3 IX", "P2 XVIII P3 V P4 XII P1 K♥",
           "P2 C♥ P3 Q♦ P4 A♦ P1 J♠")
BASE_44 = ("P1 XIX P2 X P3 XIII P4 IV", "P1 C♣ P2 10♣ P3 K♣ P4 J♣", "P3 IX P4 XVI P1 VII P2 Sküs",
           "P2 XVIII P3 XVII P4 XII P1 XV", "P2 Q♠ P3 K♠ P4 C♠ P1 10♠", "P3 Q♦ P4 A♦ P1 XXI P2 K♦",
           "P1 K♥ P2 J♥ P3 A♥ P4 I", "P4 VIII P1 XI P2 VI P3 XX", "P3 V P4 J♦ P1 Q♥ P2 XIV",
           "P2 C♥ P3 C♦ P4 Q♣ P1 J♠")

# The worked example of §10: P4 holds the Pagat among ten tarocks and wins the last trick with it;
# P1+P3 take 40 card points.
EXAMPLE = {"P1": "XXI XIX XI K♥ Q♥ J♥ K♦ C♦ J♠ 10♣",
           "P2": "Sküs XVIII X C♥ A♥ Q♦ J♦ K♠ C♠ Q♣",
           "P3": "XX XVII IX V A♦ Q♠ 10♠ K♣ C♣ J♣",
           "P4": "I XVI XV XIV XIII XII VIII VII VI IV"}
EXAMPLE_AUCTION = ("P1 call", "P2 absolut_dagegen", "P3 kontra_absolut", "P4 pagat_ultimo_dagegen",
                   "P1 kontra_pagat_ultimo", "P2 weiter", "P3 weiter", "P4 weiter", "P1 weiter")
EXAMPLE_TRICKS = ("P1 J♥ P2 A♥ P3 IX P4 VII", "P3 J♣ P4 VIII P1 10♣ P2 Q♣", "P4 XIV P1 XI P2 Sküs P3 V",
                  "P2 C♥ P3 XX P4 XII P1 Q♥", "P3 C♣ P4 XVI P1 XXI P2 XVIII", "P1 K♥ P2 X P3 XVII P4 XV",
                  "P3 10♠ P4 VI P1 J♠ P2 K♠", "P4 XIII P1 XIX P2 C♠ P3 Q♠", "P1 K♦ P2 J♦ P3 A♦ P4 IV",
                  "P4 I P1 C♦ P2 Q♦ P3 K♣")

# The Pagat (P4) falls in the last trick and is caught by P1's XIX; P1+P3 take 63 card points.
CAUGHT = {"P1": "Sküs XXI XIX XVIII XVII XVI K♥ K♦ K♠ Q♣",
          "P2": "XIII XII XI Q♥ C♥ Q♦ C♦ J♠ 10♠ C♣",
          "P3": "XX XV XIV J♥ J♦ Q♠ C♠ K♣ J♣ 10♣",
          "P4": "I X IX VIII VII VI V IV A♥ A♦"}
CAUGHT_TRICKS = ("P1 Sküs P2 XI P3 XIV P4 IV", "P1 XXI P2 XII P3 XV P4 V", "P1 XVIII P2 XIII P3 XX P4 VI",
                 "P3 K♣ P4 VII P1 Q♣ P2 C♣", "P4 A♥ P1 K♥ P2 Q♥ P3 J♥", "P1 K♦ P2 Q♦ P3 J♦ P4 A♦",
                 "P1 K♠ P2 J♠ P3 Q♠ P4 VIII", "P4 IX P1 XVI P2 C♥ P3 C♠", "P1 XVII P2 C♦ P3 J♣ P4 X",
                 "P1 XIX P2 10♠ P3 10♣ P4 I")

# P1 (forehand) and P3 (holder of XX) hold the ten highest tarocks and P1 the top red cards:
# P1 wins all ten tricks (a Valat).
VALAT = {"P1": "Sküs XXI XIX XVIII XVII K♥ Q♥ K♦ Q♦ C♦",
         "P2": "I XII XI X IX C♥ J♥ J♦ J♠ C♣",
         "P3": "XX XVI XV XIV XIII K♠ Q♠ C♠ K♣ Q♣",
         "P4": "VIII VII VI V IV A♥ A♦ 10♠ J♣ 10♣"}
VALAT_TRICKS = ("P1 Sküs P2 IX P3 XX P4 IV", "P1 XXI P2 X P3 XVI P4 V", "P1 XIX P2 XI P3 XV P4 VI",
                "P1 XVIII P2 XII P3 XIV P4 VII", "P1 XVII P2 I P3 XIII P4 VIII", "P1 K♥ P2 C♥ P3 K♣ P4 A♥",
                "P1 Q♥ P2 J♥ P3 Q♣ P4 10♠", "P1 K♦ P2 J♦ P3 C♠ P4 A♦", "P1 Q♦ P2 J♠ P3 Q♠ P4 J♣",
                "P1 C♦ P2 C♣ P3 K♠ P4 10♣")

# P2 holds the Trull (Sküs, XXI, I), P3 the four Kings, P4 the XX; P4 holds only three suit cards.
KINGS_TRULL = {"P1": "XIX XVIII XVII XV XIV Q♥ C♥ Q♦ C♦ Q♠",
               "P2": "Sküs XXI I XIII XII J♥ A♥ J♦ A♦ C♠",
               "P3": "XVI XI X K♥ K♦ K♠ K♣ J♠ 10♠ Q♣",
               "P4": "XX IX VIII VII VI V IV C♣ J♣ 10♣"}

# For Suit Solo: P1 holds ten tarocks (no suit card), P2 eight suit cards with XXI and X.
SUIT_SOLO = {"P1": "Sküs XIX XVIII XVII XVI XV XIV XIII XII XI",
             "P2": "XXI X K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦",
             "P3": "XX I IX VIII J♦ A♦ K♠ Q♠ C♠ J♠",
             "P4": "VII VI V IV 10♠ K♣ Q♣ C♣ J♣ 10♣"}

# P2 holds no tarock at all.
NO_TAROCK = {"P1": "XXI XIX XVIII XVII XVI XV XIV K♠ Q♠ C♠",
             "P2": "K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦ J♦ A♦",
             "P3": "XX XIII XII XI X IX VIII J♠ 10♠ K♣",
             "P4": "Sküs I VII VI V IV Q♣ C♣ J♣ 10♣"}

# P2's only tarock is the Pagat, a Trull card.
LONE_PAGAT = {"P1": "XXI XIX XVIII XVII XVI XV XIV A♦ K♠ Q♠",
              "P2": "I K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦ J♦",
              "P3": "XX XIII XII XI X IX VIII C♠ J♠ 10♠",
              "P4": "Sküs VII VI V IV K♣ Q♣ C♣ J♣ 10♣"}


def swap(hands: dict, a: str, b: str) -> dict:
    """The deal with cards ``a`` and ``b`` exchanged between the hands that hold them."""
    return {who: swap_text(text, a, b) for who, text in hands.items()}


def swap_text(text: str, a: str, b: str) -> str:
    """``text`` (a hand or a trick written with seat names) with the card names ``a`` and ``b`` exchanged."""
    return " ".join(b if w == a else a if w == b else w for w in text.split())


def forehand_holding(callables: list[str]) -> dict:
    """A deal in which P1 holds exactly these of XX..XVI (plus other tarocks up to five and five suit cards)."""
    fill = [t for t in ("XV", "XIV", "XIII", "XII", "XI") if t not in callables]
    p1 = list(callables) + fill[:max(0, 5 - len(callables))] + "K♥ Q♥ J♠ 10♠ C♣".split()
    rest = [c for c in TAROCKS if c not in p1] + [c for c in "C♥ J♥ A♥ K♦ Q♦ C♦ J♦ A♦ K♠ Q♠ C♠ K♣ Q♣ J♣ 10♣".split()]
    others = {"P2": [], "P3": [], "P4": []}
    for i, c in enumerate(rest):
        others[("P2", "P3", "P4")[i % 3]].append(c)
    return {"P1": " ".join(p1), **{k: " ".join(v) for k, v in others.items()}}


def calm(t: Table, legal: list[str]) -> str:
    """A policy for the rest of a deal: cut, call, keep, say Weiter, else play the first legal card."""
    for word in ("weiter", "call", "cut", "keep"):
        if word in legal:
            return word
    return legal[0]
