"""French Tarot (games/french-tarot.yaml and its three- and five-handed tables) in card names, and 300 random
deals of each scored by an independent reading of the FFT rules (pagat.com's French Tarot, the FFT rules'
English translation, rencontrestarot.org's scoring table)."""

from __future__ import annotations

import random

import pytest

from helpers import legal_names as legal, play_deal, say
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.interpreter.inference import public_voids
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_game

HEARTS = "K♥ Q♥ C♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥"
LAYOUT = {0: HEARTS + " 21T 20T 19T 18T",
          1: "K♦ Q♦ C♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦ 16T 12T 11T 3T",
          2: "K♠ Q♠ C♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ 15T 14T 13T 8T",
          3: "K♣ Q♣ C♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣ 4T 2T 1T Excuse"}
CHIEN = "17T 10T 9T 7T 6T 5T"
"""One suit a seat: P1 the hearts, P2 the diamonds, P3 the spades, P4 the clubs; nobody holds ten trumps."""


@pytest.fixture(scope="module")
def game():
    return load_game("french-tarot", max_deals=1)


def deal(game, hands: dict[int, str] = LAYOUT, chien: str = CHIEN, swap: str = "", dealer: int = 3):
    """A new deal in which each seat holds exactly the cards named and the chien is ``chien``; ``swap`` "A B"
    exchanges two cards wherever they lie. P4 deals, so P1 is forehand and bids and leads first."""
    cards = {seat: text.split() for seat, text in hands.items()} | {"chien": chien.split()}
    for a, b in zip(swap.split()[::2], swap.split()[1::2]):
        for pile in cards.values():
            pile[:] = [b if c == a else a if c == b else c for c in pile]
    assert sorted(c for pile in cards.values() for c in pile) == sorted(c.name for c in game.deck.cards)
    state = game.new_initial_state()
    ScriptedDeal(game, {s: cards[s] for s in range(game.num_players)}, talon=cards["chien"], dealer=dealer).play(state)
    return state


def taken(game, state, seat: int) -> set[str]:
    return set(game.deck.names(state.won[seat]))


# ---------------------------------------------------------------------- the bidding
def test_each_player_speaks_once_and_must_outbid_the_contract_standing(game):
    state = deal(game)
    say(state, "prise", "garde")
    assert legal(state) == {"pass", "garde_sans", "garde_contre"}
    say(state, "pass", "pass")                                      # P1 does not speak again
    assert state.declarer == 1 and state.contract == "garde" and state.phase.kind == "take_talon"


def test_when_everyone_passes_nothing_is_played_and_the_deal_scores_nothing(game):
    state = deal(game)
    say(state, "pass", "pass", "pass", "pass")
    assert state.deal_results and state.deal_results[-1]["delta"] == [0, 0, 0, 0]
    assert state.declarer == -1 and not state.tricks.trick_winners


# ---------------------------------------------------------------------- the chien
def test_the_taker_of_a_prise_takes_the_shown_chien_and_discards_neither_kings_nor_oudlers_nor_trumps(game):
    state = deal(game, swap="1♥ 1T")                               # P1 holds the Petit, P4 the 1♥
    say(state, "prise", "pass", "pass", "pass")
    assert set(game.deck.names(state.take_talon.shown)) == set(CHIEN.split())
    assert legal(state) == set(HEARTS.split()) - {"K♥", "1♥"}


KINGS_AND_TRUMPS = {0: "K♥ K♦ K♠ K♣ 21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T",
                    1: "Q♥ C♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ Q♦ C♦ J♦ 10♦ 9♦",
                    2: "8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦ Q♠ C♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠",
                    3: "3♠ 2♠ 1♠ Q♣ C♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣ 1T Excuse"}
"""P1 holds the four Kings and fourteen trumps: with the chien's six trumps he has nothing else to discard."""


def test_a_taker_with_nothing_but_kings_and_trumps_discards_trumps_but_no_oudler(game):
    state = deal(game, KINGS_AND_TRUMPS, chien="7T 6T 5T 4T 3T 2T")
    say(state, "garde", "pass", "pass", "pass")
    assert legal(state) == {f"{n}T" for n in range(2, 21)}


def test_trumps_the_taker_discards_are_laid_face_up_and_no_world_moves_them(game):
    state = deal(game, KINGS_AND_TRUMPS, chien="7T 6T 5T 4T 3T 2T")
    say(state, "garde", "pass", "pass", "pass", "2T", "3T", "4T", "5T", "6T", "7T")
    for seat in range(4):
        assert state.observation(seat)["discards_shown"] == ["7T", "6T", "5T", "4T", "3T", "2T"]
    assert "discarded face up 7T 6T 5T 4T 3T 2T" in state.information_state_string(2)
    rng = random.Random(1)
    for _ in range(20):
        world = determinize(state, 2, rng)
        assert game.deck.names(world.discards[0]) == game.deck.names(state.discards[0])


def test_a_suit_card_the_taker_discards_stays_face_down(game):
    state = deal(game, swap="1♥ 1T")
    say(state, "prise", "pass", "pass", "pass", "Q♥")
    assert "discards_shown" not in state.observation(1)
    assert "Q♥" not in state.information_state_string(1)


def test_in_a_garde_sans_nobody_takes_the_chien(game):
    state = deal(game)
    say(state, "garde_sans", "pass", "pass", "pass")
    assert state.phase.kind == "choose" and legal(state) == {"no_chelem", "chelem"}


# ---------------------------------------------------------------------- the play
def played_to(state, *moves):
    """Bid a Garde sans for P1 without a chelem, show no poignée, then play ``moves``."""
    say(state, "garde_sans", "pass", "pass", "pass", "no_chelem", "keep", "keep", "keep", "keep", *moves)


def test_a_player_follows_suit_and_may_play_the_excuse_instead(game):
    state = deal(game, swap="1♥ 1♦ 3T Excuse")                     # P2 holds one heart and the Excuse
    played_to(state, "5♥")
    assert legal(state) == {"1♥", "Excuse"}


def test_a_player_without_the_suit_must_trump_and_beat_the_highest_trump_if_he_can(game):
    state = deal(game)
    played_to(state, "5♥")
    assert legal(state) == {"16T", "12T", "11T", "3T"}             # no heart: a trump, not a diamond
    say(state, "12T")
    assert legal(state) == {"15T", "14T", "13T"}                   # over the 12, not the 8
    say(state, "13T")
    assert legal(state) == {"4T", "2T", "1T", "Excuse"}            # nothing over the 13: any trump
    say(state, "4T")
    assert state.tricks.trick_winners[-1][0] == 2


def test_a_trump_led_must_be_beaten_when_one_can(game):
    state = deal(game, swap="18T 9T")
    played_to(state, "9T")
    assert legal(state) == {"16T", "12T", "11T"}                   # not the 3


def test_after_the_excuse_is_led_the_next_card_sets_the_suit_and_the_excuse_stays_with_its_owner(game):
    state = deal(game, swap="18T Excuse")                          # P1 holds the Excuse
    played_to(state, "Excuse")
    assert len(legal(state)) == 18                                  # P2 may play anything
    say(state, "5♦")
    assert legal(state) == {"15T", "14T", "13T", "8T"}             # P3 has no diamond: he trumps
    say(state, "15T")
    assert legal(state) == {"18T"}                                  # P4 must beat the 15
    say(state, "18T")
    assert state.tricks.trick_winners[-1][0] == 3                   # the trump takes the trick …
    assert "Excuse" in taken(game, state, 0) and "Excuse" not in taken(game, state, 3)   # … not the Excuse


def test_a_trump_on_a_suit_lead_tells_everyone_the_player_has_none_of_the_suit_but_the_excuse_tells_nothing(game):
    state = deal(game, swap="1♥ 1♦ 3T Excuse")                     # P2: one heart and the Excuse
    played_to(state, "5♥", "Excuse", "15T")                          # P3 trumps: he has no heart
    voids = public_voids(state, 3)
    hearts = game.deck.suit_masks[game.deck.suit_index("hearts")]
    assert voids[2] & hearts == hearts and voids[1] == 0, "the Excuse may be played holding a heart"
    for seed in range(20):                                          # no world P4 can imagine gives P3 a heart
        world = state.resample_from_infostate(3, random.Random(seed))
        assert world is not None and world.hands[2] & hearts == 0


def play_out(state, choose):
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(choose(state, state.legal_actions(), rng))


def test_the_excuse_played_to_the_last_trick_goes_to_the_winner(game):
    state = deal(game)
    played_to(state)

    def keep_excuse(state, moves, rng):
        names = {state.action_to_string(a): a for a in moves}
        return next((a for n, a in names.items() if n != "Excuse"), names.get("Excuse"))
    play_out(state, keep_excuse)
    winner = state.tricks.trick_winners[-1][0]
    assert state.tricks.finished[-1][3][1] == game.deck.lookup["excuse"] and winner != 3
    assert "Excuse" in taken(game, state, winner) and "Excuse" not in taken(game, state, 3)


def test_a_chelem_announced_lets_the_taker_lead(game):
    state = deal(game, dealer=0)                                    # P2 is forehand; P1 bids last
    say(state, "pass", "pass", "pass", "garde_sans", "chelem", "keep", "keep", "keep", "keep")
    assert state.current_player() == 0


ALL_TRUMPS = {0: "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T 7T 6T 5T {last}",
              1: "K♥ Q♥ C♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ K♦ Q♦ C♦ J♦",
              2: "10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦ K♠ Q♠ C♠ J♠ 10♠ 9♠ 8♠ 7♠",
              3: "6♠ 5♠ 4♠ 3♠ 2♠ K♣ Q♣ C♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣"}


def highest_first(state, moves, rng):
    """P1 leads his highest trump each time (the Petit below them all, the Excuse last); the others anything."""
    if state.current_player() != 0:
        return moves[0]
    names = {state.action_to_string(a): a for a in moves}
    trumps = [n for n in names if n.endswith("T")]
    return names[max(trumps, key=lambda n: int(n[:-1]))] if trumps else names["Excuse"]


def test_an_announced_chelem_with_the_excuse_led_to_the_last_trick_takes_every_trick(game):
    hands = {**ALL_TRUMPS, 0: ALL_TRUMPS[0].format(last="Excuse")}
    state = deal(game, hands, chien="4T 3T 2T 1T 1♠ 1♣")
    say(state, "garde_sans", "pass", "pass", "pass", "chelem", "keep")
    play_out(state, highest_first)
    assert state.tricks.taken == [18, 0, 0, 0] and state.tricks.trick_winners[-1][1] == game.deck.lookup["excuse"]
    # 182 half points against 72 needed with three oudlers: 25 + 55, times 4; a chelem announced and made 400
    assert state.deal_results[-1]["delta"] == [3 * 720, -720, -720, -720]


def test_the_petit_in_the_last_trick_and_a_chelem_made_unannounced(game):
    hands = {**ALL_TRUMPS, 0: ALL_TRUMPS[0].format(last="1T")}
    state = deal(game, hands, chien="4T 3T 2T Excuse 1♠ 1♣")
    say(state, "garde_sans", "pass", "pass", "pass", "no_chelem", "keep")
    play_out(state, highest_first)
    assert state.tricks.finished[-1][0] == (0, game.deck.lookup["1t"])
    # (25 + 55 + 10 for the Petit au bout) × 4 + 200 for a chelem made unannounced
    assert state.deal_results[-1]["delta"] == [3 * 560, -560, -560, -560]


def test_a_poignee_is_shown_to_everyone_and_counts_for_the_side_that_wins(game):
    hands = {**ALL_TRUMPS, 0: ALL_TRUMPS[0].format(last="1T")}
    state = deal(game, hands, chien="4T 3T 2T Excuse 1♠ 1♣")
    say(state, "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert legal(state) == {"poignee 10", "poignee 13", "poignee 15", "keep"}
    say(state, "poignee 15")
    assert legal(state) == set(hands[0].split()), "eighteen trumps: he picks the fifteen he shows"
    say(state, *"21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T 7T".split())
    assert legal(state) == {"keep"}, "P2, without ten trumps, is asked all the same: being asked tells nothing"
    assert game.deck.names(state.show.shown[0]) == "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T 7T".split()
    assert "21T" in state.observation(1)["shown"]["P1"] and "6T" not in state.observation(1)["shown"]["P1"]
    play_out(state, highest_first)
    assert state.deal_results[-1]["delta"] == [3 * 600, -600, -600, -600]   # 560 and a triple poignée, 40


TWELVE_AND_EXCUSE = {0: "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T Excuse K♥ Q♥ C♥ J♥ 10♥",
                     1: "9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ K♦ Q♦ C♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦",
                     2: "5♦ 4♦ 3♦ 2♦ 1♦ K♠ Q♠ C♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠",
                     3: "1♠ K♣ Q♣ C♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣ 9T 8T 7T"}
"""P1 holds twelve trumps and the Excuse: a simple poignée of trumps, or a double one with the Excuse."""


def test_the_excuse_completes_a_poignee_only_of_a_player_who_shows_every_trump(game):
    state = deal(game, TWELVE_AND_EXCUSE, chien="6T 5T 4T 3T 2T 1T")
    say(state, "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert legal(state) == {"poignee 10", "poignee 13", "keep"}
    say(state, "poignee 13")                       # twelve trumps and the Excuse: no choice left, shown at once
    assert set(game.deck.names(state.show.shown[0])) == set(TWELVE_AND_EXCUSE[0].split()[:13])
    assert state.current_player() == 1 and legal(state) == {"keep"}


def test_a_player_with_more_trumps_than_his_poignee_hides_some_and_never_shows_the_excuse(game):
    state = deal(game, TWELVE_AND_EXCUSE, chien="6T 5T 4T 3T 2T 1T")
    say(state, "garde_sans", "pass", "pass", "pass", "no_chelem", "poignee 10")
    assert legal(state) == set(TWELVE_AND_EXCUSE[0].split()[:12]), "the Excuse would say he has no other trump"
    say(state, *"10T 11T 12T 13T 14T 15T 16T 17T 18T".split())
    assert state.current_player() == 0, "nine shown, one still to pick"
    say(state, "19T")
    assert set(game.deck.names(state.show.shown[0])) == set("10T 11T 12T 13T 14T 15T 16T 17T 18T 19T".split())
    assert "20T" not in state.observation(3)["shown"]["P1"]
    assert state.current_player() == 1


# ---------------------------------------------------------------------- an independent scorer
POINTS = {"K": 9, "Q": 7, "C": 5, "J": 3}
OUDLERS = {"21T", "1T", "Excuse"}
HANDFULS = {4: (10, 13, 15), 3: (13, 15, 18), 5: (8, 10, 13)}


def half_points(names) -> int:
    """Card points in half points: oudlers and Kings 9, Queens 7, Cavaliers 5, Jacks 3, the rest 1."""
    return sum(9 if name in OUDLERS else POINTS.get(name[:-1], 1) for name in names)


def expected_scores(game, state) -> list[int]:
    """Each seat's score for the finished deal, from the tricks as played, as the FFT rules state them."""
    n, names, tricks = game.num_players, game.deck.names, state.tricks
    if state.declarer < 0:                                          # all passed: nothing is played
        assert not tricks.trick_winners
        return [0] * n
    side = {s for s in range(n) if state.side_mask >> s & 1}
    contract, taker = state.contract, state.declarer
    pile = []
    for number, (cards, (winner, _)) in enumerate(zip(tricks.finished, tricks.trick_winners), start=1):
        for seat, card in cards:
            name = names(1 << card)[0]
            owner = seat if name == "Excuse" and number < len(tricks.finished) else winner
            if owner in side:
                pile.append(name)
    pile += names(state.discards[taker])
    if contract == "garde_sans":
        pile += names(state.talon)
    excuse = [(number, seat, winner) for number, (cards, (winner, _)) in enumerate(
        zip(tricks.finished, tricks.trick_winners), start=1) for seat, card in cards if names(1 << card) == ["Excuse"]]
    points = half_points(pile)
    if excuse and excuse[0][0] < len(tricks.finished) and (excuse[0][1] in side) != (excuse[0][2] in side):
        points += -1 if excuse[0][1] in side else 1
    target = {0: 112, 1: 102, 2: 82, 3: 72}[len(OUDLERS & set(pile))]
    margin = 25 + (abs(points - target) + 1) // 2
    last = len(tricks.finished) - (1 if tricks.trick_winners[-1][1] == game.deck.lookup["excuse"] else 0)
    petit = 0
    if any(names(1 << card) == ["1T"] for _, card in tricks.finished[last - 1]):
        petit = 10 if tricks.trick_winners[last - 1][0] in side else -10
    factor = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}[contract]
    handfuls = sum(next((bonus for bonus, least in zip((40, 30, 20), reversed(HANDFULS[n])) if count >= least), 0)
                   for count in (bin(mask).count("1") for mask in state.show.shown))
    made = points >= target
    won_by_taker = sum(1 for winner, _ in tricks.trick_winners if winner in side)
    announced = state.vars.get("slam") == "chelem"
    slam = (400 if announced else 200) if won_by_taker == len(tricks.finished) else -200 if announced or \
        won_by_taker == 0 else 0
    value = ((margin if made else -margin) + petit) * factor + (handfuls if made else -handfuls) + slam
    if n == 5:
        alone = len(side) == 1
        return [(4 if alone else 2) * value if s == taker else value if s in side else -value for s in range(n)]
    return [(n - 1) * value if s == taker else -value for s in range(n)]


def random_with_poignees(state, moves, rng):
    """Any move, but a poignée is always shown (so that they count in the scores), of any size the hand allows."""
    names = {state.action_to_string(a): a for a in moves}
    poignees = [name for name in names if name.startswith("poignee")]
    return names[rng.choice(poignees)] if poignees else rng.choice(moves)


def check_poignees(table, state) -> None:
    """Each poignée shown holds exactly 10, 13 or 15 cards (by the table's size), and the Excuse only with every
    trump its player held."""
    trumps = {name for name in (c.name for c in table.deck.cards) if name.endswith("T")}
    for seat, mask in enumerate(state.show.shown):
        if not mask:
            continue
        shown = set(table.deck.names(mask))
        assert len(shown) in HANDFULS[table.num_players], shown
        held = {table.deck.names(1 << card)[0] for cards in state.tricks.finished for s, card in cards if s == seat}
        assert shown <= held | {"Excuse"} and shown - {"Excuse"} <= trumps
        if "Excuse" in shown:
            assert held & trumps <= shown, "the Excuse is shown only by a player who shows all his trumps"


@pytest.mark.parametrize("name", ["french-tarot", "french-tarot-three", "french-tarot-five"])
def test_three_hundred_random_deals_score_as_an_independent_reading_of_the_rules(name):
    table = load_game(name, max_deals=1)
    seen = set()
    for seed in range(300):
        state = play_deal(table, seed, random_with_poignees)
        assert state.deal_results[-1]["delta"] == expected_scores(table, state), f"seed {seed}"
        check_poignees(table, state)
        assert sum(state.deal_results[-1]["delta"]) == 0
        seen.add(state.contract)
        seen.update(f"poignee {bin(m).count('1')}" for m in state.show.shown if m)
    assert {"prise", "garde", "garde_sans", "garde_contre"} <= seen, seen
    assert any(str(kind).startswith("poignee") for kind in seen), seen      # None: a deal all passed


# ---------------------------------------------------------------------- five players: the called King
@pytest.fixture(scope="module")
def five():
    return load_game("french-tarot-five", max_deals=1)


def test_the_taker_calls_a_king_and_its_holder_is_his_secret_partner(five):
    state = play_until_call(five, kings_of_taker=1)
    assert legal(state) == {"K♥", "K♦", "K♠", "K♣"}
    say(state, "K♣")                                                # P4 holds it
    assert state.side_mask == 0b1001


def test_a_taker_holding_the_four_kings_calls_a_queen(five):
    state = play_until_call(five, kings_of_taker=4)
    assert legal(state) == {"Q♥", "Q♦", "Q♠", "Q♣"}


def play_until_call(game, kings_of_taker: int):
    """A five-handed deal in which P1 holds the first ``kings_of_taker`` of K♥ K♦ K♠ K♣ and the others lie
    with P2, P3, …, and P1 bids a Garde; the others pass."""
    kings = ["K♥", "K♦", "K♠", "K♣"]
    rest = [c.name for c in game.deck.cards if c.name not in kings]
    hands = {0: kings[:kings_of_taker]} | {seat: [king] for seat, king in enumerate(kings[kings_of_taker:], 1)}
    for seat in range(5):
        hands.setdefault(seat, [])
        while len(hands[seat]) < 15:
            hands[seat].append(rest.pop(0))
    state = game.new_initial_state()
    ScriptedDeal(game, hands, talon=rest, dealer=4).play(state)
    say(state, "garde", "pass", "pass", "pass", "pass")
    return state
