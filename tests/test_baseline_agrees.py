"""The hand-written baseline of benchmarks/ and the rulelang engine play the same Zwanzig ab.

The engine plays seeded random deals and matches through its public State API; every step is
replayed through the baseline's rule functions (``deal``, ``may_pass``, ``legal_cards``,
``trick_winner``, ``score_deal``, ``match_winner``, ``next_dealer``), which must offer the same
legal moves (compared as card names), pick the same trick winners and give the same score
changes and match results. A last test compares the two random playouts statistically, so the
benchmark times the same game on both sides.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import assert_same_means, load_benchmark

bench = load_benchmark("bench_playouts")
b = bench.baseline


@pytest.fixture(scope="module")
def deal_game():
    return bench.load_zwanzig(max_deals=1)[0]


@pytest.fixture(scope="module")
def match_game():
    return bench.load_zwanzig(max_deals=None)[0]


# ---------------------------------------------------------------------------- replaying the engine
class Replay:
    """Plays one engine match with random actions and checks every step against the baseline."""

    def __init__(self, game, rng: random.Random, seen: Counter):
        self.game, self.rng, self.seen = game, rng, seen
        self.name = game.action_to_string

    def names(self, actions) -> set[str]:
        return {self.name(a) for a in actions}

    def hand(self, state, seat: int) -> list[int]:
        """The seat's engine hand as baseline cards."""
        return [b.parse_card(self.name(c)) for c in state.hand_cards(seat)]

    def step(self, state) -> tuple[str, int, list[int], int]:
        """Pick a random legal action; returns ``(phase, actor, legal, action)`` before applying it."""
        phase = "lot" if state.phase is None else state.phase.kind
        actor, legal = state.current_player(), state.legal_actions()
        assert legal == sorted(legal) and legal, (phase, legal)
        return phase, actor, legal, self.rng.choice(legal)

    def match(self) -> None:
        st = self.game.new_initial_state()
        assert st.scores == [b.START_SCORE] * b.PLAYERS
        assert st.is_chance_node() and st.phase is None  # first dealer by lot
        _, _, legal, action = self.step(st)
        assert len(legal) == b.PLAYERS
        st.apply_action(action)
        dealers = []
        while not st.is_terminal():
            if dealers:
                assert st.dealer == b.next_dealer(dealers[-1])
            dealers.append(st.dealer)
            self.deal(st)
        self.seen["matches"] += 1

    def deal(self, st) -> None:
        seen, name = self.seen, self.name
        number, dealer, forehand = st.deal_number, st.dealer, st.forehand
        scores_before = list(st.scores)
        dealt: list[int] = []                       # baseline cards, in the order chance dealt them
        trump = None
        exchanged: list[int] = []                   # seats in the order they exchanged
        discards = [0] * b.PLAYERS
        asked: list[int] = []                       # seats asked to play or pass, in order
        playing = [True] * b.PLAYERS
        players = None                              # seats in the tricks, clockwise from forehand
        order: list[int] = []                       # this trick's seats in playing order
        trick: list[int] = []                       # baseline mirror of the trick on the table
        tricks = [0] * b.PLAYERS
        while st.deal_number == number and not st.is_terminal():
            phase, actor, legal, action = self.step(st)
            if phase == "deal":
                assert st.is_chance_node()
                dealt.append(b.parse_card(name(action)))
            elif phase == "choose":
                # Forehand names trumps holding only the first packet of the baseline's deal.
                assert actor == forehand == (dealer + 1) % b.PLAYERS
                assert self.names(legal) == set(b.SUITS)
                rest = [c for c in b.DECK if c not in dealt]
                _, hands, _ = b.deal(dealt + rest, dealer)
                for seat in range(b.PLAYERS):
                    assert sorted(self.hand(st, seat)) == sorted(hands[seat][:b.FIRST_PACKET])
                trump = b.SUITS.index(name(action))
            elif phase == "exchange":
                if len(dealt) == b.HAND_SIZE * b.PLAYERS:  # first exchange step: the deal is complete
                    _, hands, talon = b.deal(dealt + [c for c in b.DECK if c not in dealt], dealer)
                    for seat in range(b.PLAYERS):
                        assert sorted(self.hand(st, seat)) == sorted(hands[seat])
                    assert sorted(b.parse_card(n) for n in self.game.deck.names(st.talon)) == sorted(talon)
                    dealt.append(-1)
                if st.is_chance_node():
                    seen["draws"] += 1
                else:
                    if not exchanged or exchanged[-1] != actor:
                        exchanged.append(actor)
                    assert discards[actor] < b.MAX_EXCHANGE
                    assert self.names(legal) == {b.card_name(c) for c in self.hand(st, actor)} | {"done"}
                    if name(action) != "done":
                        discards[actor] += 1
            elif phase == "decide":
                assert b.may_pass(actor, forehand, trump)
                assert self.names(legal) == {"play", "pass"}
                asked.append(actor)
                playing[actor] = name(action) != "pass"
            elif phase == "tricks":
                if players is None:
                    players = [s for s in b.seats_from(forehand) if playing[s]]
                    assert len(players) > 1
                    order = players
                assert [name(c) for _, c in st.tricks.trick] == [b.card_name(c) for c in trick]
                assert actor == order[len(trick)]
                hand = self.hand(st, actor)
                expected = b.legal_cards(hand, trick, trump)
                assert self.names(legal) == {b.card_name(c) for c in expected}
                if trick and not any(c >> 3 == trick[0] >> 3 for c in hand):
                    seen["ruff" if any(c >> 3 == trump for c in hand) else "slough"] += 1
                seen["card steps"] += 1
                trick.append(b.parse_card(name(action)))
                if len(trick) == len(players):
                    winner = order[b.trick_winner(trick, trump)]
                    tricks[winner] += 1
                    st.apply_action(action)
                    if st.is_terminal() or st.deal_number == number:  # (a new deal resets the tricks)
                        assert st.tricks.taken == tricks
                    if not st.is_terminal() and st.deal_number == number:
                        assert st.current_player() == winner  # the winner leads the next trick
                    lead = players.index(winner)
                    order, trick = players[lead:] + players[:lead], []
                    continue
            else:
                raise AssertionError(f"unexpected phase {phase}")
            st.apply_action(action)

        # The deal is over: who was asked, who played, what it scored, whether the match ends.
        assert exchanged == b.seats_from(forehand)
        assert asked == [s for s in b.seats_from(forehand)[1:] if b.may_pass(s, forehand, trump)]
        if players is None:
            assert sum(playing) == 1 and playing[forehand]
            seen["forehand alone"] += 1
        else:
            assert sum(tricks) == b.HAND_SIZE
        deltas = [after - before for after, before in zip(st.scores, scores_before)]
        assert deltas == b.score_deal(tricks, playing, trump), (b.SUITS[trump], tricks, playing)
        winner = b.match_winner(st.scores)
        if winner is None:
            if min(st.scores) <= 0:
                seen["tie, play on"] += 1
            assert not st.is_terminal() or self.game.max_deals is not None
        else:
            assert st.is_terminal() and st.winner == winner
        seen["deals"] += 1
        seen[b.SUITS[trump]] += 1


def test_single_deals_agree_step_by_step(deal_game):
    seen = Counter()
    replay = Replay(deal_game, random.Random(20), seen)
    for _ in range(400):
        replay.match()
    assert seen["deals"] == 400
    # the rules under test were all exercised
    for what in ("hearts", "diamonds", "forehand alone", "ruff", "slough", "draws"):
        assert seen[what] > 0, (what, seen)


def test_matches_agree_deal_by_deal(match_game):
    seen = Counter()
    replay = Replay(match_game, random.Random(7), seen)
    for _ in range(40):
        replay.match()
    assert seen["matches"] == 40 and seen["deals"] > 40


# ---------------------------------------------------------------------------- the baseline's rules by example
def cards(text: str) -> list[int]:
    return [b.parse_card(n) for n in text.split()]


def test_baseline_rules_by_example():
    assert b.card_name(b.parse_card("10♥")) == "10♥"
    hand = cards("A♣ 7♣ K♥ 9♦")
    assert b.legal_cards(hand, [], b.SPADES) == hand
    assert b.legal_cards(hand, cards("Q♣"), b.SPADES) == cards("A♣ 7♣")          # follow suit
    assert b.legal_cards(hand, cards("Q♠"), b.DIAMONDS) == cards("9♦")           # else trump
    assert b.legal_cards(hand, cards("Q♠"), b.CLUBS) == cards("A♣ 7♣")           # (trump = clubs)
    assert b.legal_cards(hand, cards("Q♠"), b.SPADES) == hand                    # else anything
    assert b.trick_winner(cards("K♠ A♠ 10♠ 7♥"), b.CLUBS) == 1                   # Ace-Ten order
    assert b.trick_winner(cards("10♠ K♠ 7♥ 8♥"), b.HEARTS) == 3                  # highest trump
    assert b.trick_winner(cards("J♠ A♣ 10♥ 7♠"), b.DIAMONDS) == 0                # off-suit never wins
    assert not b.may_pass(0, 0, b.CLUBS) and not b.may_pass(1, 0, b.DIAMONDS) and b.may_pass(1, 0, b.HEARTS)
    assert b.score_deal([3, 0, 2, 0], [True, True, True, False], b.CLUBS) == [-3, 5, -2, 0]
    assert b.score_deal([3, 0, 2, 0], [True, True, True, False], b.HEARTS) == [-6, 10, -4, 0]
    assert b.score_deal([0, 0, 0, 0], [False, False, True, False], b.HEARTS) == [0, 0, -10, 0]
    assert b.match_winner([1, 3, 20, 9]) is None
    assert b.match_winner([0, 3, 20, 9]) == 0
    assert b.match_winner([-2, 0, 20, 9]) == 0
    assert b.match_winner([-2, -2, 20, 9]) is None                             # tie: play on
    assert b.match_winner([-3, -2, -2, 9]) == 0
    assert b.next_dealer(3) == 0


# ---------------------------------------------------------------------------- the two random playouts
def _engine_stats(game, rng: random.Random, deals: int) -> list[list[int]]:
    rows = []
    for _ in range(deals):
        st = game.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        rows.append([s - b.START_SCORE for s in st.scores])
    return rows


def _features(deltas: list[int]) -> tuple[float, ...]:
    """Sum of the changes, seats that dropped out (0), seats that scored the no-trick bonus."""
    return (sum(deltas), deltas.count(0), sum(1 for d in deltas if d > 0))


def test_random_playouts_have_the_same_statistics(deal_game):
    """Both playouts draw from the same distribution of deals (so the benchmark compares like with like)."""
    n = 3000
    rng = random.Random(3)
    engine = [_features(d) for d in _engine_stats(deal_game, rng, n)]
    baseline = [_features(b.play_deal(rng, rng.randrange(b.PLAYERS))) for _ in range(n)]
    assert_same_means(engine, baseline)


def test_baseline_matches_end_with_a_unique_lowest_score():
    rng = random.Random(11)
    for _ in range(200):
        winner, deals, scores = b.play_match(rng)
        assert deals >= 1 and scores[winner] <= 0 and scores.count(min(scores)) == 1
        assert scores[winner] == min(scores)


class _AlwaysDiscard(random.Random):
    """Answers every randrange with 0 (at an exchange step: discard the first card, never stop)."""

    def __init__(self):
        super().__init__(0)
        self.ranges: list[int] = []

    def randrange(self, n, *args):
        self.ranges.append(n)
        return 0


def test_baseline_exchange_offers_what_the_engine_offers():
    """Each seat in turn may discard up to three cards, choosing among its hand and stopping, as on the engine
    (whose exchange steps offer the hand plus `done`: 6, 5, then 4 actions; the third discard ends the turn)."""
    rng = _AlwaysDiscard()
    b.play_deal(rng, 0)
    assert rng.ranges == [len(b.SUITS)] + [b.HAND_SIZE + 1, b.HAND_SIZE, b.HAND_SIZE - 1] * b.PLAYERS


def test_the_api_floor_plays_the_same_deals_as_the_engine(deal_game):
    """benchmarks/api_floor_zwanzig_ab.py (the baseline's rules behind the State API) deals, asks and scores as
    the engine does: the same statistics of score changes and the same decisions per deal, every legal list
    sorted and every move taken from it."""
    floor = load_benchmark("api_floor_zwanzig_ab")
    n, rng = 3000, random.Random(5)
    deltas, decisions = [], 0
    for _ in range(n):
        state = floor.ApiState()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
                continue
            legal = state.legal_actions()
            assert legal and legal == sorted(legal)
            state.apply_action(rng.choice(legal))
            decisions += 1
        deltas.append(_features(state.scores))
    assert_same_means([_features(d) for d in _engine_stats(deal_game, rng, n)], deltas)
    engine_decisions = 0
    for _ in range(1000):
        state = deal_game.new_initial_state()
        while not state.is_terminal():
            engine_decisions += not state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
    assert abs(decisions / n - engine_decisions / 1000) < 0.3, (decisions / n, engine_decisions / 1000)
