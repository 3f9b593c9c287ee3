"""The hand-written Zwanzigerrufen of benchmarks/ and the rulelang engine play the same game.

The engine plays seeded random deals through its public State API, card by card; every step is
replayed through the baseline's rule functions (``may_throw_in``, ``must_throw_in``,
``auction_options``, ``auction_say``, ``legal_cards``, ``trick_winner``, ``settle``), which must offer
the same moves (compared by name), throw the cards in exactly when the engine deals again, pick
the same trick winners and give the same score changes. The baseline's settlement is also checked
against the rules reference's worked example, and its random playout against the engine's
statistically, so the benchmark times the same game on both sides.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import assert_same_means, load_benchmark

from rulelang.loader import load_game

b = load_benchmark("baseline_zwanzigerrufen")


@pytest.fixture(scope="module")
def game():
    return load_game("zwanzigerrufen", max_deals=1)


def test_the_baseline_numbers_cards_as_the_engine(game):
    state = game.new_initial_state()
    assert [state.action_to_string(card) for card in range(len(b.DECK))] == list(b.NAMES)
    assert sum(b.POINTS) == 88


# ---------------------------------------------------------------------------- replaying the engine
class Replay:
    """Plays one engine deal with random actions and checks every step against the baseline."""

    def __init__(self, game, rng: random.Random, seen: Counter):
        self.game, self.rng, self.seen = game, rng, seen

    def play(self) -> None:
        """One deal on the engine, every step checked."""
        st = self.game.new_initial_state()
        st.apply_action(self.rng.choice(st.legal_actions()))              # the dealer by lot
        self.st, self.dealer, self.forehand = st, st.dealer, b.forehand_of(st.dealer)
        assert st.forehand == self.forehand
        self.start_attempt()
        self.bidding = self.outcome = None
        before = list(st.scores)
        while not st.is_terminal():
            name = st.action_to_string
            phase, actor, legal = st.phase.kind, st.current_player(), st.legal_actions()
            action = self.rng.choice(legal)
            hands, piles, redeals = list(st.hands), list(st.piles.piles), st.redeals
            getattr(self, f"on_{phase}")(actor, {name(a) for a in legal}, name(action))
            st.apply_action(action)
            if phase == "tricks":
                self.after_card()
            if st.redeals > redeals:
                self.thrown_in(phase, actor, name(action), hands, piles)
        deltas = [after - earlier for after, earlier in zip(st.scores, before)]
        assert deltas == b.settle(self.bidding, self.outcome), (self.bidding.contract, deltas)
        self.seen["deals"] += 1
        self.seen[f"played {self.bidding.contract}"] += 1

    def start_attempt(self) -> None:
        self.asked, self.taken = [], 0

    def on_choose(self, actor: int, names: set, said: str) -> None:
        assert actor == b.cutter_of(self.dealer) and names == {"cut", "knock"}
        self.seen[said] += 1

    def on_deal(self, actor: int, names: set, said: str) -> None:
        assert actor == -1 and said in names

    def on_piles(self, actor: int, names: set, said: str) -> None:
        if actor == -1:                                                     # laying the piles out
            return
        assert actor == b.seats_from(self.forehand)[self.taken]
        assert names == {f"pile{i + 1}" for i, pile in enumerate(self.st.piles.piles) if pile}
        self.taken += 1

    def on_throw_in(self, actor: int, names: set, said: str) -> None:
        hands = list(self.st.hands)
        assert not b.must_throw_in(hands) and names == {"throw", "keep"}
        assert actor == b.may_throw_in(hands, self.forehand)[len(self.asked)]
        self.asked.append(actor)

    def thrown_in(self, phase: str, actor: int, said: str, hands: list[int], piles: list[int]) -> None:
        """The engine dealt again after ``said``: the hands it left must be thrown in by the baseline."""
        if phase == "throw_in":
            assert said == "throw" and actor in b.may_throw_in(hands, self.forehand)
            self.seen["may throw in"] += 1
        else:
            if phase == "deal":
                short = [seat for seat in range(b.PLAYERS) if b.count(hands[seat]) < b.HAND_SIZE]
                assert len(short) == 1
                hands[short[0]] |= 1 << b.NAMES.index(said)
            else:
                assert phase == "piles"
                hands[actor] |= piles[int(said[4:]) - 1]
                piles[int(said[4:]) - 1] = 0
                last = [pile for pile in piles if pile]
                hands[b.seats_from(self.forehand)[-1]] |= last[0]
            assert all(b.count(hand) == b.HAND_SIZE for hand in hands)
            assert b.must_throw_in(hands)
            self.seen["must throw in"] += 1
        self.start_attempt()

    def on_auction(self, actor: int, names: set, said: str) -> None:
        hands = list(self.st.hands)
        if self.bidding is None:                                            # the hands are final now
            assert not b.must_throw_in(hands) and self.asked == b.may_throw_in(hands, self.forehand)
            assert list(self.st.dealt) == hands
            self.bidding, self.auction_turn = b.Bidding(), 0
        assert actor == (self.forehand + self.auction_turn) % b.PLAYERS
        assert names == set(b.auction_options(self.bidding, hands, actor, self.forehand))
        if said != b.PASS:
            b.auction_say(self.bidding, hands, actor, said)
            self.seen[said.split("_")[0] if b.MEANING.get(said, ("bid",))[0] == "double" else said] += 1
        self.auction_turn += 1

    def on_tricks(self, actor: int, names: set, said: str) -> None:
        st, bidding = self.st, self.bidding
        if self.outcome is None:
            assert (st.contract, st.side_mask) == (bidding.contract, bidding.side)
            assert (st.auction.announced, st.auction.levels) == (bidding.announced, bidding.levels)
            self.outcome, self.number, self.lead, self.trick = b.Outcome(list(st.hands)), 1, self.forehand, []
        seats, suit_solo = b.seats_from(self.lead), bidding.contract == "suit_solo"
        assert actor == seats[len(self.trick)]
        legal = b.legal_cards(st.hands[actor], self.trick, suit_solo)
        assert names == {b.card_name(card) for card in b.cards_of(legal)}
        self.trick.append(b.NAMES.index(said))

    def after_card(self) -> None:
        """A trick complete: the baseline's winner took it and leads the next."""
        st, seats, suit_solo = self.st, b.seats_from(self.lead), self.bidding.contract == "suit_solo"
        if len(self.trick) < b.PLAYERS:
            return
        winner = b.trick_winner(self.trick, suit_solo)
        self.outcome.add_trick(self.number, seats, self.trick, winner)
        if {b.SKUS, b.MOND, b.PAGAT} <= set(self.trick):
            self.seen["fairy-tale trick"] += 1
        if not st.is_terminal():
            assert st.tricks.taken == self.outcome.tricks and st.current_player() == seats[winner]
        self.number, self.lead, self.trick = self.number + 1, seats[winner], []


def test_random_deals_agree_step_by_step(game):
    seen = Counter()
    replay = Replay(game, random.Random(20), seen)
    for _ in range(300):
        replay.play()
    assert seen["deals"] == 300
    for what in ("cut", "knock", "must throw in", "may throw in", "played call", "played suit_solo", "played solo",
                 "kontra", "retour", "supra", "resupra", "absolut_dagegen", "pagat_ultimo_dazu", "valat_dazu"):
        assert seen[what] > 0, (what, seen)


# ---------------------------------------------------------------------------- the baseline's rules by example
def mask(text: str) -> int:
    return sum(1 << b.NAMES.index(name) for name in text.split())


def cards(text: str) -> list[int]:
    return [b.NAMES.index(name) for name in text.split()]


FOREHAND_HAND = mask("XX XIX XVIII XVII XVI K♥ Q♥ C♥ J♥ A♥")


def hands_with(first: int) -> list[int]:
    """Four hands: ``first`` for seat 0, the rest of the pack dealt round to seats 1, 2, 3 in the pack's order."""
    rest = [card for card in b.DECK if not first >> card & 1]
    return [first] + [sum(1 << card for card in rest[seat::3]) for seat in range(3)]


def test_the_auction_by_example():
    hands = hands_with(FOREHAND_HAND)
    assert b.auction_options(b.Bidding(), hands, 0, 0) == ["solo"]            # XX…XVI held: a Solo is forced
    hands = hands_with(mask("XX XIX XVII XVI XV K♥ Q♥ C♥ J♥ A♥"))
    assert b.auction_options(b.Bidding(), hands, 0, 0) == ["call", "suit_solo", "solo"]
    assert b.auction_options(b.Bidding(), hands, 1, 0) == ["suit_solo", "solo"]   # only forehand calls
    bidding = b.Bidding()
    b.auction_say(bidding, hands, 0, "call")                                  # calls XVIII, the highest he lacks
    holder = next(seat for seat in range(4) if hands[seat] & mask("XVIII"))
    assert b.NAMES[bidding.called] == "XVIII" and bidding.side == 1 | 1 << holder
    defender = next(seat for seat in range(1, 4) if seat != holder)          # five suit cards: a Suit Solo too
    assert b.auction_options(bidding, hands, defender, 0) == [
        "suit_solo", "solo", "weiter", "pagat_ultimo_dagegen", "valat_dagegen", "absolut_dagegen", "kontra_game"]
    b.auction_say(bidding, hands, defender, "valat_dagegen")                  # brings a Kontra on the game
    assert bidding.levels == {"game": 1} and bidding.announced == {"valat": False}
    assert "retour_game" in b.auction_options(bidding, hands, holder, 0)
    assert "kontra_valat" in b.auction_options(bidding, hands, holder, 0)
    assert "kontra_valat" not in b.auction_options(bidding, hands, defender, 0)
    b.auction_say(bidding, hands, 0, "solo")                                  # a new contract: announcements lapse
    assert (bidding.announced, bidding.levels, bidding.side) == ({}, {}, 1)


def test_tricks_by_example():
    hand = mask("XX I K♥ J♠")
    assert b.legal_cards(hand, [], False) == hand
    assert b.legal_cards(hand, [], True) == mask("K♥ J♠")                     # Suit Solo: lead a suit card
    assert b.legal_cards(hand, cards("Q♥"), False) == mask("K♥")
    assert b.legal_cards(hand, cards("Q♦"), False) == mask("XX I")            # void: a tarock
    assert b.legal_cards(hand, cards("Q♦"), True) == mask("K♥ J♠")            # Suit Solo: a suit card first
    assert b.legal_cards(hand, cards("V"), True) == mask("XX I")              # a tarock lead is followed
    assert b.legal_cards(mask("K♥ J♠"), cards("V"), False) == mask("K♥ J♠")
    assert b.trick_winner(cards("Q♦ K♦ IV C♦"), False) == 2                   # tarocks are trumps
    assert b.trick_winner(cards("Q♦ K♦ IV C♦"), True) == 1                    # not in a Suit Solo
    assert b.trick_winner(cards("XXI Sküs I XX"), False) == 2                 # the fairy-tale trick
    assert b.trick_winner(cards("XXI Sküs IV XX"), False) == 1


def test_throw_in_by_example():
    assert b.must_throw_in(hands_with(mask("K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦ J♦ A♦")))
    hands = hands_with(mask("I K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦ J♦"))
    assert not b.must_throw_in(hands) and b.may_throw_in(hands, 0) == [0]     # a lone Pagat may
    assert b.may_throw_in(hands_with(mask("XX K♥ Q♥ C♥ J♥ A♥ K♦ Q♦ C♦ J♦")), 0) == []


def worked_example() -> tuple:
    """Zwanzigerrufen's worked example (rules reference §10): P1 (seat 0) calls the XX held by P3 (seat 2);
    P2 announces Absolut against, P1's side says Kontra on it, P4 announces Pagat Ultimo against and is
    kontra'd; P1 and P3 take 40 card points, P4 wins the last trick with the Pagat."""
    hands = hands_with(mask("XIX XVIII XVII K♥ Q♥ C♥ J♥ A♥ K♦ Sküs"))
    assert hands[2] & mask("XX")
    bidding = b.Bidding()
    for seat, word in ((0, "call"), (1, "absolut_dagegen"), (2, "kontra_absolut"), (3, "pagat_ultimo_dagegen"),
                       (0, "kontra_pagat_ultimo")):
        assert word in b.auction_options(bidding, hands, seat, 0), word
        b.auction_say(bidding, hands, seat, word)
    outcome = b.Outcome(hands)
    outcome.points, outcome.tricks = [25, 30, 15, 18], [3, 3, 2, 2]
    outcome.pagat_trick, outcome.pagat_player, outcome.pagat_taker, outcome.pagat_won = 10, 3, 3, True
    return bidding, outcome


def test_the_worked_example_settles_as_the_reference_says():
    bidding, outcome = worked_example()
    assert b.settle(bidding, outcome) == [-2, 2, -2, 2]


def test_a_silent_pagat_caught_in_the_last_trick_costs_its_side():
    bidding, outcome = worked_example()
    bidding.announced, bidding.levels = {}, {}
    outcome.points = [30, 20, 20, 18]                                         # the declarers win the game: +1
    outcome.pagat_player, outcome.pagat_taker, outcome.pagat_won = 0, 1, False
    assert b.settle(bidding, outcome) == [0, 0, 0, 0]                         # and lose the silent Pagat: -1
    bidding.contract, bidding.side = "solo", 1
    outcome.points = [50, 20, 0, 18]
    assert b.settle(bidding, outcome) == [3 * 2, -2, -2, -2]                  # Solo 4, the Pagat -1 × 2


# ---------------------------------------------------------------------------- the two random playouts
class CountingRandom(random.Random):
    """Counts the random choices a playout makes (a shuffle is not one)."""

    _randbelow = random.Random._randbelow_with_getrandbits     # (else overriding random() reroutes shuffle to it)

    def __init__(self, seed: int):
        super().__init__(seed)
        self.decisions = 0

    def choice(self, options):
        self.decisions += 1
        return super().choice(options)

    def random(self):
        self.decisions += 1
        return super().random()

    def randrange(self, *args):
        self.decisions += 1
        return super().randrange(*args)


def _features(deltas: list[int], decisions: int) -> tuple:
    """Decisions made, the sum of the changes' sizes, the seats that gained."""
    return decisions, sum(abs(d) for d in deltas), sum(1 for d in deltas if d > 0)


def _engine_features(game, rng: random.Random, n: int) -> list[tuple]:
    rows = []
    for _ in range(n):
        st, decisions = game.new_initial_state(), 0
        while not st.is_terminal():
            decisions += not st.is_chance_node()
            st.apply_action(rng.choice(st.legal_actions()))
        rows.append(_features(st.scores, decisions))
    return rows


def test_random_playouts_have_the_same_statistics(game):
    """The baseline's playout and the engine's random play make as many decisions and score alike."""
    n = 2000
    counting, baseline = CountingRandom(5), []
    for _ in range(n):
        before = counting.decisions
        deltas = b.play_deal(counting, random.randrange(b.PLAYERS))
        assert sum(deltas) == 0
        baseline.append(_features(deltas, counting.decisions - before))
    assert_same_means(_engine_features(game, random.Random(4), n), baseline)


def test_the_api_floor_plays_the_same_deals_as_the_engine(game):
    """benchmarks/api_floor_zwanzigerrufen.py (the baseline's rules behind the State API) deals, asks and scores
    as the engine does: the same statistics, every legal list sorted and every move taken from it."""
    floor = load_benchmark("api_floor_zwanzigerrufen")
    n, rng, rows = 2000, random.Random(6), []
    for _ in range(n):
        state, decisions = floor.ApiState(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
                continue
            legal = state.legal_actions()
            assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
            state.apply_action(rng.choice(legal))
            decisions += 1
        assert sum(state.scores) == 0
        rows.append(_features(state.scores, decisions))
    assert_same_means(_engine_features(game, random.Random(7), n), rows)
