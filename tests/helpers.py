"""Shared test helpers: golden files, scripted tables played by card name, state fingerprints.

Imported by the test modules as ``from helpers import …`` (pytest puts ``tests/`` on the
path because the folder has no ``__init__.py``).
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import re
import shutil
import sys
from pathlib import Path

from rulelang.interpreter.agents import ScriptedDeal

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
GOLDEN_CLI = TESTS / "golden" / "cli"
LOGS = TESTS / "logs"
YAML_GAME = ROOT / "games" / "zwanzig-ab.yaml"
FIXTURES = TESTS / "invalid" / "fixtures"


def load_benchmark(name: str):
    """The module ``benchmarks/<name>.py`` (benchmarks are scripts, not a package), registered under
    ``name`` unless a module of that name is loaded already; the folder goes on ``sys.path``, since a
    benchmark imports the others by name."""
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def copy_fixtures(folder: Path) -> Path:
    """The fixture games copied to ``folder / "fixtures"`` (once); that folder."""
    if not (folder / "fixtures").is_dir():
        shutil.copytree(FIXTURES, folder / "fixtures")
    return folder / "fixtures"


def write_game(folder: Path, extra: str, name: str = "game.yaml") -> Path:
    """The fixture base game, made a game of its own (no ``extends``) with ``extra`` YAML added; its path."""
    text = (FIXTURES / "base.yaml").read_text(encoding="utf-8").replace("game: base\n", "game: own\n")
    path = folder / name
    path.write_text(text + extra, encoding="utf-8")
    return path


def write_variant(folder: Path, text: str, base: Path = FIXTURES / "base.yaml", name: str = "variant.yaml") -> Path:
    """A variant of a fixture game in ``folder``, beside a copy of the fixtures (a base must lie in its tree)."""
    copy_fixtures(folder)
    path = folder / name
    path.write_text(f"extends: fixtures/{base.name}\n{text}", encoding="utf-8")
    return path


# ---------------------------------------------------------------------- golden files
def relative_paths(text: str) -> str:
    """``text`` with the repository's absolute path removed, so goldens do not depend on the checkout."""
    return text.replace(str(ROOT) + os.sep, "")


def assert_golden(path: Path, text: str) -> None:
    """Compare ``text`` with the golden file ``path``; rewrite the file when UPDATE_GOLDEN=1."""
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} is missing; run the tests once with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def is_variant(path: Path) -> bool:
    """Whether a rule file ``extends`` another: its constructs are the base's, so a lighter battery covers it."""
    return re.search(r"^extends\s*[:=]", path.read_text(encoding="utf-8"), re.MULTILINE) is not None


# ---------------------------------------------------------------------- seats and cards
def seat(name: str) -> int:
    """The 0-based index of a seat name: ``P1`` → 0."""
    return int(name[1:]) - 1


def card_names(game, text: str) -> list[str]:
    """Canonical names of the cards in a space-separated string (``"AC 10h"`` → ``["A♣", "10♥"]``)."""
    out = []
    for word in text.split():
        card = game.deck.lookup[word.casefold()]
        out.append(game.deck.cards[card].name)
    return out


def names_of(game, mask: int) -> set[str]:
    """The names of the cards in ``mask``."""
    return set(game.deck.names(mask))


# ---------------------------------------------------------------------- scripted tables
class Table:
    """A match whose deals are fixed card by card and whose moves are given by name.

    ``hands`` maps seat names to the cards they are dealt, in dealing order (for Zwanzig
    ab the first two form the first packet); ``talon`` lists the undealt cards top first
    (default: the remaining cards in deck order). Chance events are taken from the
    scripted deal automatically; ``do("P2 hearts", "P2 done", …)`` checks that it is the
    named seat's turn and applies each move with ``apply_checked``.
    """

    def __init__(self, game, hands: dict[str, str], talon: str | None = None, dealer: str = "P1",
                 scores: list[int] | None = None):
        self.game = game
        self.state = game.new_initial_state()
        if scores is not None:
            self.state.scores = list(scores)
        self.dealer = dealer
        self.deal(hands, talon)

    def deal(self, hands: dict[str, str], talon: str | None = None) -> None:
        """Script the next deal (the state must be at the start of a deal) and deal it."""
        game = self.game
        given = {seat(s): card_names(game, text) for s, text in hands.items()}
        if talon is None:
            used = {c for names in given.values() for c in names}
            rest = [c.name for c in game.deck.cards if c.name not in used]
        else:
            rest = card_names(game, talon)
        self.chance = ScriptedDeal(game, given, rest, dealer=seat(self.dealer))
        self.deal_number = self.state.deal_number
        self.settle()

    def settle(self) -> None:
        """Apply chance events of the current deal until a player has to act (or the deal is over)."""
        st = self.state
        while st.is_chance_node() and st.deal_number == self.deal_number:
            st.apply_checked(self.chance.step(st))

    def do(self, *moves: str) -> None:
        """Apply moves written ``"P3 10♥"``: the seat must be the one to act."""
        for move in moves:
            who, name = move.split(maxsplit=1)
            assert self.to_act() == who, f"{move}: it is {self.to_act()}'s turn"
            action = self.game.string_to_action(name)
            assert action is not None, f"{name} is no action of {self.game.name}"
            self.state.apply_checked(action)
            self.settle()

    def to_act(self) -> str | None:
        """The seat name to act now, or None at chance or terminal nodes."""
        current = self.state.current_player()
        return self.game.seat_name(current) if current >= 0 else None

    def legal(self) -> list[str]:
        """The names of the legal actions now."""
        return [self.game.action_to_string(a) for a in self.state.legal_actions()]

    def hand(self, who: str) -> set[str]:
        """The cards ``who`` holds now."""
        return names_of(self.game, self.state.hands[seat(who)])

    def cards(self) -> set[str]:
        """The names of the cards that may be played (or discarded, or called) now."""
        return {self.game.action_to_string(a) for a in self.state.legal_actions() if a < self.game.num_cards}

    def refused(self, move: str) -> str:
        """The code of the diagnostic that refuses ``move`` (``"P2 20"``), which must be the named seat's."""
        import pytest
        from rulelang.interpreter.game import IllegalActionError
        who, name = move.split(maxsplit=1)
        assert self.to_act() == who, f"{move}: it is {self.to_act()}'s turn"
        with pytest.raises(IllegalActionError) as caught:
            self.state.apply_checked(self.game.string_to_action(name))
        return caught.value.diagnostic.code


def random_states(game, seed: int, count: int, moves: tuple[int, int] = (5, 120)) -> list:
    """``count`` states of ``game`` a random number of random moves (from ``moves``) into a match."""
    rng, states = random.Random(seed), []
    while len(states) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(*moves)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def play_deal(game, seed: int, choose):
    """One deal of ``game`` (a one-deal game) to its end: chance sampled from ``seed``, every decision
    ``choose(state, legal, rng)``, which returns the action to take."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            state.apply_action(choose(state, state.legal_actions(), rng))
    return state


def sparing_bidder(pass_share: float, lowest: int, word: str = "pass"):
    """A random player that, where ``word`` (a pass) is legal, says it ``pass_share`` of the time and otherwise
    mostly (four times in five) one of the ``lowest`` cheapest other moves (the lowest action ids: the foot of a
    bidding ladder), so that auctions climb as a table's do and contracts of every level are played; elsewhere any
    legal move. For ``play_deal``."""
    def choose(state, moves, rng):
        names = {state.action_to_string(a): a for a in moves}
        if word not in names:
            return rng.choice(moves)
        bids = sorted(a for name, a in names.items() if name != word)
        if rng.random() < pass_share or not bids:
            return names[word]
        return rng.choice(bids[:lowest] if rng.random() < 0.8 else bids)
    return choose


def named_deal(game, named: dict[int, str], hand_size: int, talon: str = "", dealer: int | None = None):
    """A new deal of ``game`` whose seats hold the cards ``named`` (seat index: card names), the rest dealt in
    deck order to fill every hand to ``hand_size``; the talon begins with ``talon``, then what is left."""
    from rulelang.interpreter.agents import ScriptedDeal
    hands = {seat: cards.split() for seat, cards in named.items()}
    used = {c for cards in hands.values() for c in cards} | set(talon.split())
    rest = [c.name for c in game.deck.cards if c.name not in used]
    for seat in range(game.num_players):
        hand = hands.setdefault(seat, [])
        while len(hand) < hand_size:
            hand.append(rest.pop(0))
    state = game.new_initial_state()
    ScriptedDeal(game, hands, talon=talon.split() + rest, dealer=dealer).play(state)
    return state


def say(state, *moves: str) -> None:
    """Each move, by name, by whoever is to act; a move not legal then fails naming what was."""
    for move in moves:
        legal = {state.action_to_string(a): a for a in state.legal_actions()}
        assert move in legal, f"{move}: {state.game.seat_name(state.current_player())} may say {sorted(legal)}"
        state.apply_action(legal[move])


def legal_names(state) -> set[str]:
    """The names of the moves legal now."""
    return {state.action_to_string(a) for a in state.legal_actions()}


# ---------------------------------------------------------------------- fingerprints
def fingerprint(state) -> tuple:
    """What two equal states must share (cheap: no rule evaluation; of the history only its length and last action)."""
    return (
        tuple(state.hands), state.talon, state.stock, state.out, tuple(state.tricks.trick), tuple(state.won),
        tuple(state.tricks.taken), tuple(state.scores), tuple(state.discards), tuple(state.deal_delta),
        state.active, tuple(sorted(state.vars.items())), tuple(sorted(state.decisions.items())),
        state.dealer, state.forehand, state.deal_number, state.winner, len(state.history), state.history[-1:],
        state.current_player(), len(state.deal_results),
    )


def full_fingerprint(state) -> tuple:
    """``fingerprint`` plus what the rules compute from it: legal moves and every seat's view."""
    n = state.game.num_players
    return fingerprint(state) + (
        tuple(state.legal_actions()),
        tuple(state.observation_string(p) for p in range(n)),
        tuple(state.information_state_string(p) for p in range(n)),
        tuple(state.returns()),
        repr(state.deal_results),
    )


def play_in_lock_step(theirs, ours, to_ours, choose, rng) -> list[int]:
    """Play an OpenSpiel state and a rulelang state together to the end, OpenSpiel's move picked by
    ``choose(rng, legal)`` and mapped by ``to_ours``: at every decision both must agree on who chooses and on
    the legal moves. Returns the seats that led tricks 2 onwards (the seat whose card leads, a dummy too)."""
    leaders = []
    while not theirs.is_terminal():
        where = f"after {len(theirs.history())} OpenSpiel actions:\n{theirs}"
        assert ours.current_player() == theirs.current_player(), where
        assert sorted(ours.legal_actions()) == sorted(to_ours(a) for a in theirs.legal_actions()), where
        action = choose(rng, theirs.legal_actions())
        theirs.apply_action(action)
        ours.apply_action(to_ours(action))
        if ours.step is not None and ours.step.kind == "tricks" and ours.tricks.trick == [] \
                and ours.tricks.trick_winners and not theirs.is_terminal():
            leaders.append(ours.current)
    assert ours.is_terminal()
    return leaders


def assert_same_means(first: list[tuple], second: list[tuple]) -> None:
    """Each feature's mean over ``first`` lies within five standard errors of its mean over ``second``
    (as many rows each)."""
    n = len(first)
    for i in range(len(first[0])):
        xs, ys = [row[i] for row in first], [row[i] for row in second]
        mx, my = sum(xs) / n, sum(ys) / n
        var = (sum((x - mx) ** 2 for x in xs) + sum((y - my) ** 2 for y in ys)) / (2 * n - 2)
        assert abs(mx - my) < 5 * math.sqrt(2 * var / n), (i, mx, my)


SUITED_HANDS = {"P1": "A♠ 7♠ A♣ 10♣ K♣ 9♣ 8♣ 7♣", "P2": "10♠ K♠ A♥ 10♥ K♥ 9♥ 8♥ 7♥",
                "P3": "9♠ 8♠ A♦ 10♦ K♦ 9♦ 8♦ 7♦", "P4": "Q♠ J♠ Q♥ J♥ Q♣ J♣ Q♦ J♦"}
"""A deal of the 32-card pack, eight cards each, for scenario tests of trick rules: P1 clubs and two
spades, P2 hearts and two spades, P3 diamonds and two spades, P4 the queens and jacks."""


def one_deal_of(game):
    """``game`` (a compiled one) as a game of one deal, for the batch engine's replay checks."""
    from rulelang.interpreter import Game
    return Game(game.definition, max_deals=1)


# ---------------------------------------------------------------------- the batch engine against the scalar
def replay_batch_deal(game, run, row: int):
    """Replay deal ``row`` of ``run`` through the scalar engine, checking the legal actions of each decision."""
    state = game.new_initial_state()
    for step, (action, legal) in enumerate(run.log.steps[row]):
        if legal is not None:
            want = [a for a in range(legal.bit_length()) if legal >> a & 1]
            assert state.legal_actions() == want, f"deal {row}, step {step} ({state.phase.kind})"
        state.apply_checked(action)
    assert state.is_terminal(), f"deal {row} stopped in {state.phase.kind if state.phase else '?'}"
    return state


def check_replays(game, run) -> None:
    """Every deal of ``run`` replays through the scalar engine to its scores, tricks, variables and items."""
    for row in range(run.n):
        state = replay_batch_deal(game, run, row)
        result = state.deal_results[-1]
        assert result["delta"] == run.state.deal_delta[row].tolist()
        assert result["tricks"] == run.state.tricks.taken[row].tolist()
        assert result["active"] == int(run.state.active[row])
        for name in game.definition.deal_vars:
            assert result["vars"][name] == run.var_text(name, int(run.state.vars[name][row]))
        titles = {spec.title: name for name, spec in game.definition.items.items()}
        scored = {titles[entry["item"]] for entry in result.get("items") or ()}
        assert scored == {name for name, hit in run.state.settle.scored.items() if hit[row]}


# ---------------------------------------------------------------------- logs
def logged_random_match(game, seed: int, folder: Path):
    """A match played at random from ``seed``, its log written in ``folder`` and replayed: (record, final state,
    the replay's outcome)."""
    import random
    from rulelang.interpreter.log import log_lines, read_log, write_log
    from rulelang.interpreter.record import MatchRecord
    from rulelang.interpreter.replay import replay
    record = MatchRecord(game)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        record.before(state, state.current_player(), action)
        state.apply_action(action)
        record.after(state)
    path = folder / f"{game.name}-{seed}.jsonl"
    write_log(str(path), log_lines(game, seed, record, state, str(path)))
    return record, state, replay(read_log(str(path)), game)


# ---------------------------------------------------------------------- random deals read independently
def card_rank(name: str) -> str:
    """The rank of a card name: ``"10♥"`` → ``"10"``."""
    return name[:-1]


def card_suit(name: str) -> str:
    """The suit symbol of a card name: ``"10♥"`` → ``"♥"``."""
    return name[-1]


def played_deals(game, count: int, seed: int, may_play):
    """``count`` random deals of ``game`` (whole matches, one after another). At every card of trick play the
    legal cards must be those ``may_play(state, hand, trick)`` allows — a test's own reading of the rules, given
    the player's hand and the trick so far as card names — and one of them is played at random. Yields, for
    each deal, its result, the hands as trick play began (card names, copies repeated), the tricks as
    ``[(seat, name), …]``, and the deal variables and match counters then; the hands are None for a deal
    without trick play."""
    rng, done = random.Random(seed), 0
    while done < count:
        state = game.new_initial_state()
        while not state.is_terminal() and done < count:
            number, hands, tricks, trick, play_vars, counters = state.deal_number, None, [], [], {}, {}
            while not state.is_terminal() and state.deal_number == number:
                if state.phase is None or state.phase.kind != "tricks" or state.is_chance_node():
                    state.apply_action(rng.choice(state.legal_actions()))
                    continue
                if hands is None:
                    hands = {s: game.deck.names(state.hands[s]) for s in range(game.num_players)}
                    play_vars, counters = dict(state.vars), dict(state.counters)
                me = state.current_player()
                hand = game.deck.names(state.hands[me])
                legal = {game.action_to_string(a) for a in state.legal_actions()}
                expected = may_play(state, hand, trick)
                assert legal == expected, (trick, hand, legal, expected)
                card = rng.choice(sorted(legal))
                state.apply_action(state.legal_copy(game.string_to_action(card)))   # the copy held
                trick.append((me, card))
                if not state.tricks.trick:
                    tricks.append(trick)
                    trick = []
            done += 1
            yield state.deal_results[-1], hands, tricks, play_vars, counters


def partnership_whist(name: str, deal: str, tricks: str, first_dealer: int = 1) -> str:
    """The YAML of a plain whist for tests: four players, P1 and P3 against P2 and P4, the 52-card pack; the
    ``deal`` phases (YAML list items), then ``tricks`` (the body of a tricks phase), each side scoring its
    tricks; one deal."""
    return f"""
game: {name}
players: 4
teams: [[1, 3], [2, 4]]
seating: {{first_dealer: {first_dealer}, next_dealer: 1, forehand: 1}}
deck: {{pack: french52}}
phases:
{deal}
  - tricks: {tricks}
  - score: {{each: seats, add: "tricks(team(player))"}}
match: {{start: 0, end: "deal_number >= 1", winner: highest, tie: share}}
"""
