"""The search agent's rollouts play cards as the heuristic player does (interpreter/agents/guided.py)."""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.agents import AgentSpecError, HeuristicAgent, SeededChance, make_agent
from rulelang.interpreter.agents.guided import guided_card, guided_rollout
from rulelang.interpreter.agents.hand import exchange_step, stay_or_leave, sure_tricks
from rulelang.interpreter.agents.heuristic import _quick_move
from rulelang.interpreter.agents.worth import beats_masks, trick_worth
from rulelang.interpreter.worlds import determinize
from rulelang.interpreter.state import CHANCE
from rulelang.loader import load_game
from helpers import Table


def trick_states(game_name: str, count: int, seed: int, choose=None) -> list:
    """States of random play (``choose(state, legal, rng)`` picks a move where given) where the seat to act has
    more than one card to choose from."""
    game = load_game(game_name, max_deals=1)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(5, 80)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(choose(state, legal, rng) if choose else rng.choice(legal))
        if state.is_terminal() or state.current_player() == CHANCE or state.step.kind != "tricks":
            continue
        cards = [a for a in state.legal_actions() if a < game.num_cards]
        if len(cards) > 1:
            found.append((state, cards))
    return found


def saying(bid: str | None = None):
    """A move chooser for :func:`trick_states`: every seat says ``bid`` where it may (once it is the contract,
    no more), else passes where it may (a deal every seat passed: a Ramsch), else plays at random."""
    def choose(state, legal: list[int], rng: random.Random) -> int:
        symbols = state.game.symbol_ids
        word = getattr(state.step, "pass_word", None)
        passing = symbols.get(word) if word is not None else None
        bidding = symbols.get(bid) if bid is not None and state.contract != bid else None
        return bidding if bidding in legal else passing if passing in legal else rng.choice(legal)
    return choose


@pytest.mark.parametrize("game_name", ["zwanzig-ab", "fuenf-dazu", "hearts", "oh-hell"])
def test_a_guided_rollout_chooses_the_card_the_heuristic_player_chooses(game_name):
    # in games where every seat plays for itself the heuristic's sides and the world's agree
    agent = HeuristicAgent(1)
    states = trick_states(game_name, 40, 5)
    for state, cards in states:
        seat = state.current_player()
        assert guided_card(state, cards, trick_worth(state.game)) == agent.play_card(state, seat, cards), \
            state.information_state_string(seat)
    assert len({state.tricks.trick == [] for state, _ in states}) == 2          # leads and follows both tried


@pytest.mark.parametrize("game_name, choose", [("skat-tournament", None), ("skat-ramsch", saying())])
def test_a_guided_rollout_knows_the_sides_the_table_knows(game_name, choose):
    # a bare auction's winner plays alone against the other two, whom every seat knows for partners (a rollout's
    # defender leaves his partner's trick alone, as the player does); in a Ramsch every seat plays for itself
    # (nobody gives points onto another's trick as if its winner were a partner)
    agent = HeuristicAgent(1)
    found = trick_states(game_name, 60, 7, choose)
    for state, cards in found:
        seat = state.current_player()
        assert guided_card(state, cards, trick_worth(state.game)) == agent.play_card(state, seat, cards), \
            state.information_state_string(seat)
    contracts = {state.contract for state, _ in found}
    assert contracts == ({None} if game_name == "skat-tournament" else {"ramsch"})


@pytest.mark.parametrize("game_name, bid", [("koenigrufen", "bettel_ouvert"), ("koenigrufen", "bettel"),
                                           ("skat-tournament", None)])
def test_a_guided_rollout_forces_tricks_on_a_declarer_who_must_take_none_as_the_player_does(game_name, bid):
    # against a Bettel (open or not) and in Skat, where Nulls come up, the defenders' cards in a rollout are the
    # player's: a card the open declarer must take led, a trick he holds left to him
    agent = HeuristicAgent(1)
    found = trick_states(game_name, 40, 11, saying(bid)) if bid else trick_states(game_name, 80, 11)
    for state, cards in found:
        seat = state.current_player()
        assert guided_card(state, cards, trick_worth(state.game)) == agent.play_card(state, seat, cards), \
            state.information_state_string(seat)
    if bid:
        assert {state.contract for state, _ in found} == {bid}


def zwanzig_ab_with_hearts_trumps(p2_hand: str) -> Table:
    """Zwanzig ab after P2 named hearts and everyone kept their cards and plays: P2 to lead."""
    hands = {"P2": p2_hand, "P3": "AC 10C KC QC JC", "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"}
    t = Table(load_game("zwanzig-ab", max_deals=1), hands)
    t.do("P2 hearts", "P2 done", "P3 done", "P4 done", "P1 done", "P3 play", "P4 play", "P1 play")
    return t


def test_which_card_beats_which_follows_the_trick_rules_in_force():
    t = zwanzig_ab_with_hearts_trumps("AH 7S 8S 9S 7D")
    deck, beats = t.game.deck, beats_masks(t.state)
    card = {c.name: i for i, c in enumerate(deck.cards)}
    assert beats[card["7♥"]] >> card["A♠"] & 1 and not beats[card["A♠"]] >> card["7♥"] & 1   # a trump beats a plain ace
    assert beats[card["A♠"]] >> card["K♠"] & 1 and not beats[card["K♠"]] >> card["A♠"] & 1
    assert beats[card["7♠"]] >> card["A♦"] & 1                # led, the seven wins: the ace does not follow
    assert beats[card["A♥"]].bit_count() == 31 and beats[card["A♥"]] >> card["A♥"] & 1 == 0


def test_a_guided_rollout_leads_a_master_when_tricks_are_wanted():
    t = zwanzig_ab_with_hearts_trumps("AH 7S 8S 9S 7D")                # tricks take points off: wanted
    legal = [a for a in t.state.legal_actions() if a < t.game.num_cards]
    chosen = guided_card(t.state, legal, trick_worth(t.game))
    assert t.game.deck.cards[chosen].name == "A♥"


def test_a_guided_rollout_plays_the_deal_to_its_end():
    for state, _ in trick_states("zwanzigerrufen", 5, 2):
        seat = state.current_player()
        world = determinize(state, seat, random.Random(1))
        returns = guided_rollout(world, state.deal_number, random.Random(2))
        assert world.deal_number > state.deal_number or world.is_terminal()
        assert len(returns) == state.game.num_players


@pytest.mark.parametrize("spec", ["search:playouts=8", "search:playouts=8;guided=0", "search:playouts=8;caution=0"])
def test_the_search_agent_plays_a_whole_deal_legally_with_either_rollouts(spec):
    game = load_game("zwanzig-ab", max_deals=1)
    state, chance = game.new_initial_state(), SeededChance(6)
    agents = [make_agent(spec, s) for s in range(game.num_players)]
    while not state.is_terminal():
        actor = state.current_player()
        state.apply_checked(chance.step(state) if actor == CHANCE else agents[actor].step(state))


def test_the_search_agents_options_are_checked():
    with pytest.raises(AgentSpecError, match="'2' is not a valid guided for the search agent: a whole number from 0 to 1"):
        make_agent("search:guided=2")
    with pytest.raises(AgentSpecError, match=r"its options: ms, playouts, listen, guided, caution"):
        make_agent("search:depth=2")


@pytest.mark.parametrize("game_name", ["zwanzig-ab", "zwanzigerrufen"])
def test_the_search_moves_alike_in_states_that_differ_only_in_what_its_seat_cannot_see(game_name):
    game = load_game(game_name, max_deals=1)
    rng, differed, tried = random.Random(9), 0, 0
    while tried < 8:
        state = game.new_initial_state()
        for _ in range(rng.randrange(5, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.current_player() == CHANCE or len(state.legal_actions()) < 2:
            continue
        seat, tried = state.current_player(), tried + 1
        other = state.resample_from_infostate(seat, random.Random(tried))
        differed += other.hands != state.hands
        assert make_agent("search:playouts=12", tried).step(state) == make_agent("search:playouts=12", tried).step(other)
    assert differed >= 4


def zwanzig_ab_deciding(p3_hand: str, p1_hand: str = "AD 10D KD QD JD") -> Table:
    """Zwanzig ab with hearts trumps after everyone kept their cards: P3, after forehand P2, to play or pass."""
    hands = {"P2": "AH 7S 8S 9S 7D", "P3": p3_hand, "P4": "AS 10S KS QS JS", "P1": p1_hand}
    t = Table(load_game("zwanzig-ab", max_deals=1), hands)
    t.do("P2 hearts", "P2 done", "P3 done", "P4 done", "P1 done")
    assert t.legal() == ["play", "pass"]
    return t


def rollout_choice(t: Table, choose) -> str:
    state = t.state
    return state.action_to_string(choose(state, state.step, state.legal_actions(), trick_worth(t.game),
                                         random.Random(1)))


def test_in_a_rollout_a_seat_stays_in_with_a_hand_that_takes_tricks():
    # P2 must follow K♥ with its one trump A♥; Q♥ is then the highest trump left
    t = zwanzig_ab_deciding("KH QH AC 10C KC")
    assert rollout_choice(t, stay_or_leave) == "play"


def test_in_a_rollout_a_seat_with_no_trick_to_expect_leaves():
    # P1 follows each of P3's low clubs and diamonds with a higher one, and P3 has no trump
    t = zwanzig_ab_deciding("7C 8C 9C 8D 9D", p1_hand="AC 10C KC AD 10D")
    assert rollout_choice(t, stay_or_leave) == "pass"


def test_the_quick_rollouts_stay_in_or_leave_from_the_hand_not_at_random():
    strong, hopeless = zwanzig_ab_deciding("KH QH AC 10C KC"), zwanzig_ab_deciding("7C 8C 9C 8D 9D", "AC 10C KC AD 10D")
    for t, wanted in ((strong, "play"), (hopeless, "pass")):
        state = t.state
        moves = {_quick_move(state, state.legal_actions(), trick_worth(t.game), random.Random(seed))
                 for seed in range(20)}
        assert {state.action_to_string(m) for m in moves} == {wanted}


def test_a_card_counts_as_a_trick_unless_a_seat_still_in_may_beat_it_each_beater_spent_once():
    t = zwanzig_ab_deciding("KH QH AC 10C KC")
    # K♥ falls to P2's A♥, which P2 must play to it; Q♥, then the highest trump left, and A♣ take tricks
    # (P2, with no club, must trump, but its one trump is spent); 10♣ and K♣ lose to nobody still in either
    assert sure_tricks(t.state, 2) == 4
    t.state.active &= ~(1 << 1)                        # with P2 out, K♥ takes a trick too
    assert sure_tricks(t.state, 2) == 5


def zwanzig_ab_exchanging(p2_hand: str, talon: str) -> Table:
    """Zwanzig ab after P2 (forehand) named hearts: P2 to exchange with the talon given."""
    hands = {"P2": p2_hand, "P3": "AC 10C KC QC JC", "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"}
    t = Table(load_game("zwanzig-ab", max_deals=1), hands, talon=talon)
    t.do("P2 hearts")
    return t


def exchange_choice(t: Table) -> str:
    state = t.state
    return state.action_to_string(exchange_step(state, state.legal_actions(), trick_worth(t.game), random.Random(1)))


def test_in_a_rollout_the_weakest_card_is_laid_away_for_a_stronger_talon():
    t = zwanzig_ab_exchanging("AH KH 7S 8S 7D", "QH JH 10H 9H 8H 7H 9S 8D 9D 9C 8C 7C")
    assert exchange_choice(t) == "7♠"


def test_in_a_rollout_a_hand_stronger_than_the_talon_keeps_its_cards():
    t = zwanzig_ab_exchanging("AH KH QH JH 10H", "7S 8S 9S 7D 8D 9D 9C 8C 7C 9H 8H 7H")
    assert exchange_choice(t) == "done"
