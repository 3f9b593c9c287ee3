"""The bidding model (docs/language.md, "The bidding model"): order, passing, hold, last, ends and all_pass.

Scenarios in seat names for each option, then OpenSpiel's Slovenian Tarok bidding
(tests/bidding/tarok-bidding.yaml) against pyspiel's ``tarok`` move by move: the seat to
speak and its legal bids by name at every step, the contract and declarer at the end.
The differential has teeth: the same file without ``hold: senior`` or with ``last: stands``
disagrees with pyspiel.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.constructs.base import CHANCE
from rulelang.diagnostics import RuleError
from rulelang.loader import load_game, load_text

TAROK_BIDDING = Path(__file__).parent / "bidding" / "tarok-bidding.yaml"
SPIEL_NAMES = {"Pass": "pass", "Klop": "klop", "Three": "three", "Two": "two", "One": "one",
               "Solo three": "solo_three", "Solo two": "solo_two", "Solo one": "solo_one", "Beggar": "beggar",
               "Solo without": "solo_without", "Open beggar": "open_beggar",
               "Colour valat without": "colour_valat_without", "Valat without": "valat_without"}


def variant(**options) -> str:
    """The Tarok bidding file with its auction's options replaced (``None`` leaves one out)."""
    auction = {"from": "next(forehand)", "pass": "pass", "passing": "final", "hold": "senior", "last": "confirms",
               "all_pass": "forced", **options}
    body = ", ".join(f"{key}: {value}" for key, value in auction.items() if value is not None)
    text = TAROK_BIDDING.read_text(encoding="utf-8")
    start = text.index("  - auction:")
    end = text.index("  - tricks:")
    return text[:start] + f"  - auction: {{{body}}}\n" + text[end:]


def dealt(game, seed: int = 1):
    """A new deal of ``game``, its cards dealt: the auction's first speaker to act."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_chance(rng)
    return state


def options(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def say(state, *words: str) -> None:
    """Each word in turn, by whoever is to speak."""
    for word in words:
        assert word in options(state), f"{state.game.seat_name(state.current_player())} may not say {word}: " \
                                        f"{sorted(options(state))}"
        state.apply_action(state.game.symbol_ids[word])


def seat(state) -> str:
    return state.game.seat_name(state.current_player())


@pytest.fixture(scope="module")
def tarok():
    return load_game(str(TAROK_BIDDING), max_deals=1)


# ---------------------------------------------------------------------- scenarios in seat names
def test_the_player_after_forehand_opens_and_may_pass_but_klop_and_three_wait_for_forehand(tarok):
    state = dealt(tarok)
    assert seat(state) == "P2"
    assert "pass" in options(state) and "two" in options(state)
    assert not {"klop", "three"} & options(state)


def test_when_the_others_pass_forehand_must_bid_and_may_choose_klop(tarok):
    state = dealt(tarok)
    say(state, "pass", "pass", "pass")
    assert seat(state) == "P1"
    assert "pass" not in options(state) and {"klop", "three", "two", "valat_without"} <= options(state)
    say(state, "klop")
    assert state.phase.kind == "tricks" and state.contract == "klop" and state.declarer == 0


def test_a_pass_is_final(tarok):
    state = dealt(tarok)
    say(state, "pass", "two", "pass", "one")            # P2 out; P3 two; P4 out; P1 one
    assert seat(state) == "P3"                           # P2 and P4 are not asked again
    say(state, "solo_three")
    assert seat(state) == "P1"


def test_forehand_may_hold_an_equal_bid_and_the_bidder_must_go_higher(tarok):
    state = dealt(tarok)
    say(state, "two", "pass", "pass")                     # P2 two; P3, P4 out
    assert "two" in options(state)                        # P1, senior to P2, may hold
    say(state, "two")
    assert seat(state) == "P2" and "two" not in options(state) and "one" in options(state)


def test_a_junior_seat_may_not_hold(tarok):
    state = dealt(tarok)
    say(state, "one")                                     # P2 one
    assert seat(state) == "P3" and "one" not in options(state) and "solo_three" in options(state)


def test_the_last_seat_left_confirms_its_bid_or_raises_and_that_ends_the_auction(tarok):
    state = dealt(tarok)
    say(state, "two", "pass", "pass", "pass")            # P2 two, everyone else out
    assert seat(state) == "P2" and "pass" not in options(state)
    assert {"two", "one", "valat_without"} <= options(state) and "klop" not in options(state)
    say(state, "solo_one")
    assert state.phase.kind == "tricks" and state.contract == "solo_one" and state.declarer == 1


def test_a_hold_then_a_pass_leaves_forehand_to_confirm(tarok):
    state = dealt(tarok)
    say(state, "pass", "pass", "two", "two", "pass")    # P4 two, P1 holds, P4 out
    assert seat(state) == "P1" and "pass" not in options(state) and "two" in options(state)
    say(state, "two")
    assert state.contract == "two" and state.declarer == 0


def test_the_standing_bid_wins_at_once_with_last_stands():
    game = load_text(variant(last="stands"), "yaml", max_deals=1)
    state = dealt(game)
    say(state, "two", "pass", "pass", "pass")
    assert state.phase.kind == "tricks" and state.contract == "two" and state.declarer == 1


def test_may_raise_lets_the_last_bidder_pass_on_his_own_bid():
    game = load_text(variant(last=None), "yaml", max_deals=1)
    state = dealt(game)
    say(state, "two", "pass", "pass", "pass")
    assert seat(state) == "P2" and {"pass", "one"} <= options(state) and "two" not in options(state)
    say(state, "pass")
    assert state.contract == "two" and state.declarer == 1


def test_passing_again_asks_a_seat_that_passed_once_more():
    game = load_text(variant(passing="again", hold=None, last="stands"), "yaml", max_deals=1)
    state = dealt(game)
    say(state, "pass", "two", "pass", "pass")            # P2 passed, P3 two, P4 and P1 pass
    assert seat(state) == "P2" and "one" in options(state)
    say(state, "one", "pass", "pass")                    # P2 one; P3, P4 pass
    assert seat(state) == "P1"
    say(state, "pass")                                   # three passes in a row: P2's one stands
    assert state.contract == "one" and state.declarer == 1


def test_all_pass_redeals_with_the_same_dealer():
    game = load_text(variant(all_pass="redeal"), "yaml", max_deals=1)
    state = dealt(game)
    dealer = state.dealer
    say(state, "pass", "pass", "pass")
    assert "pass" in options(state) and "klop" in options(state)
    say(state, "pass")
    assert state.current_player() == CHANCE and state.redeals == 1 and state.dealer == dealer
    state = dealt_after(state)
    assert seat(state) == "P2" and state.contract is None


def dealt_after(state, seed: int = 2):
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_chance(rng)
    return state


def test_all_pass_plays_a_named_contract_with_nobody_declaring():
    game = load_text(variant(all_pass="klop"), "yaml", max_deals=1)
    state = dealt(game)
    say(state, "pass", "pass", "pass", "pass")
    assert state.phase.kind == "tricks" and state.contract == "klop" and state.declarer == -1


def test_the_old_auction_still_makes_the_first_speaker_bid_and_the_bidder_pass_last():
    game = load_text(variant(passing=None, hold=None, last=None, all_pass=None), "yaml", max_deals=1)
    state = dealt(game)
    assert "pass" not in options(state)
    say(state, "two", "pass", "pass", "pass")
    assert seat(state) == "P2" and "pass" in options(state)
    say(state, "pass")
    assert state.contract == "two" and state.declarer == 1


def zwanzigerrufen_ending(ends: str | None):
    """Zwanzigerrufen with its auction's ``ends`` set (None: left out), P1 to speak on the deal of zr_helpers."""
    from zr_helpers import BASE, Table
    base = load_game("zwanzigerrufen", max_deals=1)
    index = [phase.kind for phase in base.definition.phases].index("auction") + 1      # phases patched from 1
    extra = f", ends: {ends}" if ends else ""
    text = (f"extends: zwanzigerrufen\nphases:\n  {index}:\n    auction: {{from: forehand, pass: weiter, for: dazu, "
            f"against: dagegen, doubling: [kontra, retour, supra, resupra]{extra}}}\n")
    return Table(load_text(text, "yaml", max_deals=1), BASE)


def test_by_default_the_passes_answer_the_standing_bidder_so_a_doubler_passes_too():
    t = zwanzigerrufen_ending(None)
    t.do("P1 call", "P2 kontra_game", "P3 weiter", "P4 weiter", "P1 weiter")
    assert t.state.phase.kind == "auction" and seat(t.state) == "P2"
    t.do("P2 weiter")
    assert t.state.phase.kind == "tricks"


def test_with_ends_last_call_the_passes_answer_the_last_call_as_in_bridge():
    t = zwanzigerrufen_ending("last_call")
    t.do("P1 call", "P2 kontra_game", "P3 weiter", "P4 weiter", "P1 weiter")
    assert t.state.phase.kind == "tricks" and t.state.auction.levels == {"game": 1}


def test_in_duels_the_next_seat_bids_to_the_one_before_who_holds_or_passes():
    game = load_text(variant(order="duels", last="stands"), "yaml", max_deals=1)
    state = dealt(game)
    assert seat(state) == "P3", "P2 listens first; P3, the next seat, bids to him"
    say(state, "two")
    assert seat(state) == "P2" and options(state) == {"two", "pass"}, "the listener holds or passes, no more"
    say(state, "two")
    assert seat(state) == "P3" and "two" not in options(state) and "one" in options(state)
    say(state, "pass")                                   # P3 has lost his duel: P4 bids to the survivor
    assert seat(state) == "P4"
    say(state, "one")
    assert seat(state) == "P2" and options(state) == {"one", "pass"}
    say(state, "pass", "pass")                           # P2 out; P1 bids to P4 and passes
    assert state.contract == "one" and state.declarer == 3 and state.phase.kind == "tricks"


def test_skat_bidding_is_the_models_duels():
    skat = load_game("skat", max_deals=1)
    rules = next(phase for phase in skat.definition.phases if phase.kind == "value_auction").rules
    assert (rules.order, rules.passing, rules.hold, rules.last) == ("duels", "final", "senior", "stands")


def test_a_single_round_may_all_pass_to_a_named_contract():
    game = load_text(variant(passing=None, hold=None, last=None, all_pass="klop", once="true"), "yaml", max_deals=1)
    state = dealt(game)
    say(state, "pass", "pass", "pass", "pass")
    assert state.contract == "klop" and state.declarer == -1


@pytest.mark.parametrize("options, words", [
    ({"once": "true"}, "`passing` has no meaning in a single round"),
    ({"all_pass": "ramsch"}, "plays the contract 'ramsch', which is not under `contracts`"),
    ({"bids": "false"}, "`passing` is a rule of bidding, and this auction takes no bids"),
    ({"order": "duels", "passing": "again"}, "in duels a seat that passes has lost its duel: passing must be final"),
])
def test_options_that_cannot_work_are_r376_at_their_key(options, words):
    with pytest.raises(RuleError) as error:
        load_text(variant(**options), "yaml")
    found = [d for d in error.value.diagnostics if d.code == "R376"]
    assert found and words in found[0].message and found[0].span.line == text_line(variant(**options), "- auction:")


def text_line(text: str, part: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if part in line)


# ---------------------------------------------------------------------- against OpenSpiel's tarok
def lock_step_bidding(spiel_game, game, seed: int) -> tuple:
    """One random Tarok bidding in pyspiel replayed in rulelang, compared at every step (seat to speak and its
    legal bids by name); the contract and declarer each ends with (OpenSpiel's declarer is the seat to act
    next: he calls the king, takes the talon or, in the contracts without talon, leads)."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(seed)
    theirs, ours = spiel_game.new_initial_state(), dealt(game, seed)
    while theirs.is_chance_node():
        theirs.apply_action(rng.choice(theirs.legal_actions()))
    eager = rng.random()                                     # how readily this table's players bid
    while theirs.current_game_phase() == pyspiel.TarokGamePhase.BIDDING:
        assert ours.phase.kind == "auction", f"seed {seed}: rulelang's auction ended before OpenSpiel's"
        assert ours.current_player() == theirs.current_player(), f"seed {seed}: a different seat speaks"
        legal = {SPIEL_NAMES[theirs.action_to_string(a)]: a for a in theirs.legal_actions()}
        assert options(ours) == set(legal), f"seed {seed}: {seat(ours)} may say {sorted(options(ours))}, " \
                                            f"OpenSpiel {sorted(legal)}"
        bids = [word for word in legal if word != "pass"]
        word = "pass" if "pass" in legal and (rng.random() > eager or not bids) else rng.choice(bids)
        theirs.apply_action(legal[word])
        ours.apply_action(game.symbol_ids[word])
    assert ours.phase.kind != "auction", f"seed {seed}: OpenSpiel's auction ended before rulelang's"
    contract = SPIEL_NAMES[_contract_words(theirs.selected_contract())]
    return (contract, theirs.current_player()), (ours.contract, ours.declarer)


def _contract_words(contract) -> str:
    """pyspiel's contract enum as OpenSpiel writes it in its actions ("SOLO_THREE" → "Solo three")."""
    return str(contract).split(".")[-1].replace("_", " ").capitalize()


@pytest.fixture(scope="module")
def spiel_tarok():
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("tarok", {"players": 4})


def test_tarok_bidding_agrees_with_openspiel_move_by_move(tarok, spiel_tarok):
    reached = set()
    for seed in range(400):
        theirs, ours = lock_step_bidding(spiel_tarok, tarok, seed)
        assert ours == theirs, f"seed {seed}: contract and declarer {ours}, OpenSpiel {theirs}"
        reached.add(ours[0])
    assert reached == {name for name in tarok.definition.contracts}     # every contract was bid and won


@pytest.mark.parametrize("planted", [{"hold": None}, {"last": "stands"}, {"all_pass": "redeal"},
                                     {"passing": "again"}])
def test_the_tarok_differential_catches_a_planted_change(spiel_tarok, planted):
    game = load_text(variant(**planted), "yaml", max_deals=1)
    with pytest.raises(AssertionError):
        for seed in range(400):
            theirs, ours = lock_step_bidding(spiel_tarok, game, seed)
            assert ours == theirs


# ---------------------------------------------------------------------- the batch engine plays the same model
VARIANTS = [{}, {"last": "stands"}, {"last": None}, {"hold": None}, {"passing": "again", "last": "stands"},
            {"passing": "again", "hold": None}, {"passing": "again", "last": None, "all_pass": "klop"},
            {"all_pass": "redeal"}, {"all_pass": "klop", "last": None},
            {"passing": None, "hold": None, "last": None, "all_pass": None},
            {"passing": None, "hold": None, "last": None, "all_pass": "klop", "once": "true"}]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "tarok")
def test_batch_auctions_replay_through_the_scalar_engine(options):
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    game = load_text(variant(**options), "yaml", max_deals=1)
    check_replays(game, BatchRun(game, 300, seed=5, record=True).play())


# ---------------------------------------------------------------------- narration
class Passer:
    """Passes wherever it may in the first dealing of a deal, else bids at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        legal = state.legal_actions()
        passing = state.game.symbol_ids.get("pass")
        return passing if passing in legal and state.redeals == 0 else self.rng.choice(legal)


def narrated(game, agents=None, seed: int = 1) -> list[str]:
    from rulelang.interpreter.narrate import narrate_deal
    from rulelang.interpreter.runner import play_match
    state, record = play_match(game, agents=agents, seed=seed)
    return [line.strip() for line in narrate_deal(record.summary(state)["deals"][0])]


def test_the_narration_says_who_must_bid_holds_and_confirms(tarok):
    lines = narrated(tarok, agents=[Passer(seat) for seat in range(4)])
    assert lines[lines.index("P4 says pass") + 1].startswith("P1 must bid: ")
    for seed in range(40):
        lines = narrated(tarok, seed=seed)
        if any(line.startswith("P1 holds ") for line in lines) and \
                any(line.startswith("P1 confirms ") or line.startswith("P1 raises to ") for line in lines):
            return
    pytest.fail("no seed of 40 narrated a hold and a confirmation")


@pytest.mark.parametrize("all_pass, then", [("redeal", "everyone passed: the same dealer deals again"),
                                            ("klop", "everyone passed: klop is played"),
                                            ("passed_out", "everyone passed: nothing is played")])
def test_the_narration_says_what_all_passing_does(all_pass, then):
    game = load_text(variant(all_pass=all_pass, last=None), "yaml", max_deals=1)
    lines = narrated(game, agents=[Passer(seat) for seat in range(4)])
    assert f"P1 says pass — {then}" in lines
    if all_pass == "klop":
        assert "contract: klop, with nobody declaring" in lines
