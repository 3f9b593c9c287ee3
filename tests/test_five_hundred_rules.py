"""Five Hundred (games/five-hundred.yaml) in card names, and 300 random deals checked card by card and scored by
an independent reading of the Australian rules (pagat.com's Five Hundred, Wikipedia's '500 (card game)')."""

from __future__ import annotations

import pytest

from helpers import legal_names as legal, named_deal, play_deal, say, sparing_bidder
from rulelang.loader import load_game

SPADES = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠"
CLUBS = "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣"
LAYOUT = {0: "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥",
          1: SPADES,
          2: "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦",
          3: CLUBS}
KITTY = "4♥ 4♦ Joker"
"""One suit a seat: P1 the hearts, P2 the spades, P3 the diamonds, P4 the clubs; the fours and the Joker
in the kitty."""


@pytest.fixture(scope="module")
def game():
    return load_game("five-hundred", max_deals=1)


def deal(game, hands: dict[int, str] = LAYOUT, kitty: str = KITTY):
    """A deal in which each seat holds the cards named; P4 deals, so P1 bids first."""
    return named_deal(game, hands, 10, talon=kitty, dealer=3)


def won(game, state, seat: int) -> int:
    return sum(1 for winner, _ in state.tricks.trick_winners if winner == seat)


# ---------------------------------------------------------------------- the bidding
def test_bids_run_from_six_spades_and_misere_waits_for_a_bid_of_seven(game):
    state = deal(game)
    assert {"6spades", "6notrump", "10notrump", "open_misere", "pass"} <= legal(state)
    assert "misere" not in legal(state) and "double" not in legal(state) and "5hearts" not in legal(state)
    say(state, "6hearts")
    assert "misere" not in legal(state) and "6hearts" not in legal(state) and "6notrump" in legal(state)
    say(state, "7spades")
    assert "misere" in legal(state) and "8spades" in legal(state) and "7spades" not in legal(state)
    say(state, "8spades")
    assert "misere" in legal(state), "misère ranks above 8♠"
    say(state, "8clubs")
    assert "misere" not in legal(state) and "open_misere" in legal(state)


def test_open_misere_ranks_between_ten_diamonds_and_ten_hearts(game):
    state = deal(game)
    say(state, "10diamonds")
    assert {"open_misere", "10hearts", "10notrump"} <= legal(state)
    say(state, "open_misere")
    assert legal(state) == {"pass", "10hearts", "10notrump"}


def test_a_player_who_passes_is_out_and_three_passes_end_the_auction(game):
    state = deal(game)
    say(state, "pass", "6spades", "pass", "7hearts")                # P1 out; P2 bids, P4 outbids
    assert state.current_player() == 1, "P1 passed and is not asked again"
    say(state, "pass")                                              # P2 out: only P4 is left
    assert state.declarer == 3 and state.vars["level"] == 7 and state.phase.kind == "take_talon"
    assert state.side_mask == 0b1010


def test_when_all_four_pass_the_cards_are_dealt_again(game):
    state = deal(game)
    say(state, "pass", "pass", "pass", "pass")
    assert state.is_chance_node() and not state.deal_results


def test_the_bidder_takes_the_kitty_discards_three_and_leads(game):
    state = deal(game)
    say(state, "6hearts", "pass", "pass", "pass")
    assert "Joker" in legal(state) and "4♦" in legal(state)
    say(state, "4♦", "5♥", "6♥")
    assert state.phase.kind == "tricks" and state.current_player() == 0
    assert "Joker" in legal(state)


# ---------------------------------------------------------------------- the Joker and the bowers
BOWERS = {0: "A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥",
          1: "J♦ A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠",
          2: "Joker A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦",
          3: "J♥ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣"}
"""P1 the hearts but the Jack; P2 the left bower (J♦) and spades; P3 the Joker and diamonds; P4 the right bower
(J♥) and clubs; the kitty 5♠ J♣ 4♦."""


def test_the_joker_and_the_left_bower_are_trumps_and_must_follow_a_trump_lead(game):
    state = deal(game, BOWERS, kitty="5♠ J♣ 4♦")
    say(state, "6hearts", "pass", "pass", "pass", "4♦", "5♠", "J♣")
    say(state, "A♥")
    assert legal(state) == {"J♦"}, "J♦ belongs to hearts, the only trump P2 holds"
    say(state, "J♦")
    assert legal(state) == {"Joker"}, "the Joker is a trump"
    say(state, "Joker")
    assert legal(state) == {"J♥"}
    say(state, "J♥")
    assert state.tricks.trick_winners[-1][0] == 2, "the Joker beats both bowers"


def test_the_right_bower_beats_the_left_bower_which_beats_the_ace(game):
    hands = {**BOWERS, 2: "5♠ A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦"}
    state = deal(game, hands, kitty="Joker J♣ 4♦")
    say(state, "6hearts", "pass", "pass", "pass", "Joker", "J♣", "4♦")
    say(state, "A♥", "J♦")
    assert "5♠" in legal(state) and "A♦" in legal(state), "P3 has no trump: any card"
    say(state, "A♦", "J♥")
    assert state.tricks.trick_winners[-1][0] == 3


NO_TRUMPS = {0: "A♦ 4♦ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥",
             1: "A♠ K♠ Q♠ J♠ 10♠ A♣ K♣ Q♣ J♣ 10♣",
             2: "Joker K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦",
             3: "9♠ 8♠ 7♠ 6♠ 5♠ 9♣ 8♣ 7♣ 6♣ 5♣"}


def test_in_no_trumps_the_joker_may_be_played_only_by_a_player_void_in_the_suit_led_and_wins(game):
    state = deal(game, NO_TRUMPS, kitty="6♥ 5♥ 4♥")
    say(state, "6notrump", "pass", "pass", "pass", "6♥", "5♥", "4♥")
    say(state, "A♦", "A♠")                                              # P2 void in diamonds
    assert "Joker" not in legal(state) and legal(state) <= {c for c in NO_TRUMPS[2].split() if c.endswith("♦")}
    say(state, "5♦", "5♠")
    assert state.tricks.trick_winners[-1][0] == 0
    say(state, "A♥", "A♣")
    assert "Joker" in legal(state), "P3 has no heart"
    say(state, "Joker", "5♣")
    assert state.tricks.trick_winners[-1][0] == 2, "the Joker is the only trump in no trumps"


def test_the_joker_led_in_no_trumps_names_a_suit_the_others_must_follow(game):
    hands = {0: NO_TRUMPS[2], 1: NO_TRUMPS[1], 2: NO_TRUMPS[0], 3: NO_TRUMPS[3]}
    state = deal(game, hands, kitty="6♥ 5♥ 4♥")
    say(state, "6notrump", "pass", "pass", "pass", "6♥", "5♥", "4♥")
    assert "Joker" not in legal(state), "the Joker is led only with a suit named for it"
    assert {"joker_suit spades", "joker_suit clubs", "joker_suit diamonds", "joker_suit hearts"} <= legal(state)
    assert "joker_suit joker" not in legal(state)
    say(state, "joker_suit spades")
    assert legal(state) == {"Joker"}, "a suit named, the Joker is led"
    say(state, "Joker")
    assert legal(state) == {"A♠", "K♠", "Q♠", "J♠", "10♠"}, "P2 follows the suit named"
    say(state, "A♠")
    assert legal(state) == set(NO_TRUMPS[0].split()), "P3 has no spade: any card"
    say(state, "A♦")
    assert legal(state) == {"9♠", "8♠", "7♠", "6♠", "5♠"}
    say(state, "9♠")
    assert state.tricks.trick_winners[-1][0] == 0, "the Joker wins the trick"
    assert "joker_suit hearts" not in legal(state), "nobody names a suit without the Joker"


def test_in_a_suit_contract_the_joker_is_led_as_the_top_trump_without_naming_a_suit(game):
    hands = {0: NO_TRUMPS[2], 1: NO_TRUMPS[1], 2: NO_TRUMPS[0], 3: NO_TRUMPS[3]}
    state = deal(game, hands, kitty="6♥ 5♥ 4♥")
    say(state, "6diamonds", "pass", "pass", "pass", "6♥", "5♥", "4♥")
    assert "Joker" in legal(state) and not any(name.startswith("joker_suit") for name in legal(state))
    say(state, "Joker")
    assert legal(state) == set(NO_TRUMPS[1].split()), "P2 holds no trump (neither diamonds nor J♥)"


def test_in_misere_the_joker_led_names_a_suit_too(game):
    hands = {0: "9♠ 8♠ 7♠ 6♠ 5♠ 9♣ 8♣ 7♣ 6♣ 5♣", 1: NO_TRUMPS[1], 2: NO_TRUMPS[0], 3: NO_TRUMPS[2]}
    state = deal(game, hands, kitty="6♥ 5♥ 4♥")
    say(state, "7spades", "pass", "pass", "misere", "pass")
    say(state, "6♥", "5♥", "4♥")
    assert state.contract == "misere" and state.current_player() == 3
    say(state, "joker_suit clubs", "Joker")
    assert legal(state) == {"9♣", "8♣", "7♣", "6♣", "5♣"}


# ---------------------------------------------------------------------- misère
def test_in_misere_the_partner_sits_out_and_play_stops_at_the_bidders_first_trick(game):
    state = deal(game)
    say(state, "7hearts", "pass", "pass", "misere", "pass")            # P4 bids misère over P1's seven
    assert state.contract == "misere" and state.declarer == 3 and state.vars["trump"] is not None
    say(state, "Joker", "4♥", "4♦")                                      # he discards what the kitty gave
    assert state.current_player() == 3
    say(state, "A♣", "A♥")
    assert state.current_player() == 2, "P2, the partner, sits out"
    say(state, "A♦")
    assert state.deal_results[-1]["delta"] == [0, -250, 0, -250], "one trick ends it: 250 lost, nothing to P1, P3"
    assert len(state.tricks.trick_winners) == 1


def test_open_misere_lays_the_bidders_hand_open_to_everyone(game):
    state = deal(game)
    say(state, "open_misere", "pass", "pass", "pass", "Joker", "4♥", "4♦")
    assert state.contract == "open_misere"
    for seat in (1, 2, 3):
        seen = state.observation(seat)
        assert seen["open_hand"] == "P1" and set(seen["open_cards"]) == set(LAYOUT[0].split()), seat


# ---------------------------------------------------------------------- scoring
def lead_then_first_legal(state, leads: list[str]):
    """Play the deal out: P1 leads ``leads`` in order while he can, every other move the first legal one."""
    while not state.deal_results:
        names = sorted(legal(state))
        wanted = [c for c in leads if c in names]
        say(state, wanted[0] if wanted and state.current_player() == 0 else names[0])


def test_all_ten_tricks_on_a_bid_worth_less_than_250_score_250(game):
    state = deal(game)
    say(state, "6hearts", "pass", "pass", "pass", "4♦", "5♥", "4♥")
    lead_then_first_legal(state, ["Joker"])
    assert won(game, state, 0) == 10
    assert state.deal_results[-1]["delta"] == [250, 0, 250, 0]


def test_a_contract_lost_costs_its_value_and_the_defenders_score_ten_a_trick(game):
    state = deal(game)
    say(state, "pass", "10hearts", "pass", "pass", "4♦", "5♠", "6♠")
    lead_then_first_legal(state, [])
    tricks = won(game, state, 1) + won(game, state, 3)
    assert tricks < 10
    assert state.deal_results[-1]["delta"] == [10 * (10 - tricks), -500, 10 * (10 - tricks), -500]


def test_tricks_alone_take_the_defenders_no_further_than_490(game):
    state = deal(game)
    say(state, "pass", "10hearts", "pass", "pass", "4♦", "5♠", "6♠")
    state.scores = [485, 0, 485, 0]
    lead_then_first_legal(state, [])
    assert state.deal_results[-1]["scores"][0] == 490 and state.deal_results[-1]["delta"][0] == 5


# ---------------------------------------------------------------------- an independent reading, card by card
STRAINS = ["spades", "clubs", "diamonds", "hearts", "notrump"]
SUIT_OF = {"♠": "spades", "♣": "clubs", "♦": "diamonds", "♥": "hearts"}
SISTER = {"spades": "clubs", "clubs": "spades", "diamonds": "hearts", "hearts": "diamonds"}
ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]


def contract_of(calls: list[str], first: int) -> tuple[str, int] | None:
    """The winning call and its bidder, from the calls in order (first speaker ``first``; a pass is final)."""
    seats, out, pos, last = [(first + i) % 4 for i in range(4)], set(), 0, None
    for call in calls:
        seat = seats[pos]
        if call == "pass":
            out.add(seat)
        else:
            last = (call, seat)
        pos = next((pos + step) % 4 for step in range(1, 5) if seats[(pos + step) % 4] not in out or step == 4)
    return last


def effective_suit(card: str, trump: str | None) -> str:
    """The suit a card belongs to in play: the Joker and the left bower are trumps."""
    if card == "Joker":
        return trump or "joker"
    suit = SUIT_OF[card[-1]]
    if trump and card[:-1] == "J" and suit == SISTER[trump]:
        return trump
    return suit


def strength(card: str, trump: str | None, led: str) -> int:
    """How high a card ranks in the trick: the Joker, the bowers, other trumps, then the suit led; 0 for nothing."""
    if card == "Joker":
        return 100
    suit = effective_suit(card, trump)
    if trump and suit == trump:
        if card[:-1] == "J":
            return 90 if SUIT_OF[card[-1]] == trump else 89
        return 80 - ORDER.index(card[:-1])
    return 40 - ORDER.index(card[:-1]) if suit == led else 0


def check_deal(game, state) -> list[int]:
    """Check every card played against the rules (follow the suit led, the Joker and the left bower in the
    trump suit, the suit named for the Joker led without trumps; in misère the partner plays no card) and every
    trick's winner; return each seat's score."""
    names = game.deck.names
    call, declarer = contract_of(state.strain_auction.calls, (state.dealer + 1) % 4)
    misere = call in ("misere", "open_misere")
    strain = "notrump" if misere else next(s for s in STRAINS if call.endswith(s))
    level = 0 if misere else int(call[:-len(strain)])
    trump = None if strain == "notrump" else strain
    tricks = [[(seat, names(1 << card)[0]) for seat, card in cards] for cards in state.tricks.finished]
    held = {seat: set(names(state.hands[seat])) for seat in range(4)}        # what is left, then added back
    for played in tricks:
        for seat, card in played:
            held[seat].add(card)
    assert len(held[declarer]) == 10 and set(names(state.discards[declarer])).isdisjoint(held[declarer])
    partner = (declarer + 2) % 4
    taken = {seat: 0 for seat in range(4)}
    leader = declarer
    named = [(seat, name.split()[1]) for word, seat, name in state.tricks.said if word == "joker_suit"]
    assert len(named) <= 1 and (trump is None or not named), named       # one Joker, named only without trumps
    for played, (winner, _) in zip(tricks, state.tricks.trick_winners):
        assert played[0][0] == leader and (not misere or partner not in [s for s, _ in played]), played
        led = effective_suit(played[0][1], trump)
        if played[0][1] == "Joker" and trump is None:              # the Joker led: the suit its leader named
            if named:
                assert named[0][0] == leader, (named, played)
                led = named.pop()[1]
            else:
                assert held[leader] == {"Joker"}, "the Joker is led without a suit named only as the last card"
        for seat, card in played:
            could_follow = seat != leader and any(effective_suit(c, trump) == led for c in held[seat])
            assert not could_follow or effective_suit(card, trump) == led, (played, seat, sorted(held[seat]))
            held[seat].discard(card)
        best = max(played, key=lambda seat_card: strength(seat_card[1], trump, led))
        assert winner == best[0], (played, winner)
        taken[winner] += 1
        leader = winner
    made_tricks = taken[declarer] + taken[partner]
    if misere:
        assert made_tricks == 0 and len(tricks) == 10 or made_tricks == 1 and tricks and \
            state.tricks.trick_winners[-1][0] == declarer, "misère stops at the bidder's first trick"
    else:
        assert len(tricks) == 10
    value = 250 if call == "misere" else 500 if call == "open_misere" else \
        100 * (level - 6) + 40 + 20 * STRAINS.index(strain)
    made = made_tricks == 0 if misere else made_tricks >= level
    points = 250 if made and not misere and made_tricks == 10 and value < 250 else value
    defenders = 0 if misere else 10 * (10 - made_tricks)
    return [(points if made else -points) if seat in (declarer, partner) else defenders for seat in range(4)]


def test_three_hundred_random_deals_play_and_score_as_an_independent_reading_of_the_rules(game):
    seen = set()
    for seed in range(300):
        state = play_deal(game, seed, sparing_bidder(0.5, 4))
        assert state.deal_results[-1]["delta"] == check_deal(game, state), f"seed {seed}"
        seen.add(state.contract or f"{state.vars['level']}{'nt' if state.vars['trump'] in (None, -1) else 'suit'}")
        seen |= {"the Joker named" for word, _, _ in state.tricks.said if word == "joker_suit"}
    assert {"misere", "open_misere", "10nt", "6suit", "8suit", "the Joker named"} <= seen, seen


def test_the_observation_tensor_names_a_misere_among_the_contracts(game):
    pytest.importorskip("numpy")
    from rulelang.adapters.tensors import tensor_of, views
    state = deal(game)
    say(state, "7hearts", "pass", "pass", "misere", "pass")
    tensor = tensor_of(state, 0)
    contract = views(tensor, game, True)["contract"]
    assert contract[1 + game.definition.contract_names.index("misere")] == 1 and contract.sum() == 1
