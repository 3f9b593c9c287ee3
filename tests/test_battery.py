"""The generic battery: every shipped rule file loads, validates and survives random play.

Nothing here knows a particular game. For each file of ``shipped_games()``, 2,000 seeded
random playouts (single deals, and a few dozen matches of up to 30 deals) are checked
after every step for conservation of cards, consistent counts, sorted legal moves, proper
chance distributions and score bookkeeping. Every 200th playout ("deep") also checks at every
step what each seat may see, that ``clone()`` is independent, and that replaying the
serialized history passes through the same states; the other playouts check those at a
sample of steps and replay their history once. ``undo_action`` (it replays the whole
history) is checked at a sample of steps. Finally a few seeded runs go through the
JSON-lines log and ``replay``.

The playouts run on two processes when the machine has two cores (``BATTERY_JOBS=1``
runs them in the test process, e.g. for a debugger). A failure names the seed:
``Playout(game_of(path, 1), seed, deep).run()`` replays it alone.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache, reduce
from operator import add, itemgetter, lt, or_

import pytest

from helpers import fingerprint, full_fingerprint, is_variant
from rulelang.interpreter.log import log_lines, read_log, write_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.runner import play_match
from rulelang.loader import check_document, load_game, open_document, shipped_games

GAMES = shipped_games()
IDS = [path.name for path in GAMES]

PLAYOUTS = int(os.environ.get("BATTERY_PLAYOUTS", 600))   # random playouts per base game in total (the soak in
VARIANT_PLAYOUTS = int(os.environ.get("BATTERY_PLAYOUTS", 250))   # benchmarks/README.md plays more); per variant
MATCHES = 24              # of which whole matches; the rest are single deals
VARIANT_MATCHES = 10      # whole matches of a variant: a few lines over a base whose matches are played above
DEEP_EVERY = 120          # every 120th playout checks views, clones and replay at every step
SAMPLE_RATE = 0.02        # other playouts check views and clones at this share of steps
UNDO_RATE = 0.25          # share of those steps that also check undo_action (it replays the history)
SERIALIZE_RATE = 0.05     # share of a deep playout's steps whose whole view is kept for the replay check
ONE_DEAL = 60             # about the number of actions of a deal: undo is sampled less beyond it
MODEST = 0.5             # in whole matches, the share of decisions that take the lowest legal move: without
                          # it random bidders climb to the top of a ladder and lose a match in one deal
MATCH_DEALS = 40          # a whole match stops after this many deals if its own rules have not ended it
JOBS = int(os.environ.get("BATTERY_JOBS", min(2, os.cpu_count() or 1)))   # processes for the playouts

CHANCE, TERMINAL = -1, -4


@lru_cache(maxsize=None)
def game_of(path, max_deals=None):
    """The compiled game of a shipped rule file (cached: compiling is the slow part)."""
    return load_game(str(path), max_deals=max_deals)


def popcount(mask: int) -> int:
    return mask.bit_count()


# ---------------------------------------------------------------------- loading and validation
@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_the_rule_file_loads_into_a_playable_game(path):
    game = game_of(path)
    assert game.num_players >= 2
    assert game.num_cards >= game.num_players
    state = game.new_initial_state()
    assert not state.is_terminal()
    assert state.legal_actions()


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_the_rule_file_validates_with_no_errors(path):
    doc = open_document(str(path))
    definition, report = check_document(doc)
    errors = [d.render() for d in report.items if d.is_error]
    assert errors == []
    assert definition is not None


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_every_action_name_reads_back_as_the_same_action(path):
    """In a pack with copies a card's name reads back as its first copy (the copies share the name)."""
    game = game_of(path)
    for action in range(game.num_distinct_actions()):
        found = game.string_to_action(game.action_to_string(action))
        if action < game.num_cards:
            assert found == action - game.deck.cards[action].copy
        else:
            assert found == action


# ---------------------------------------------------------------------- the per-step checks
class Playout:
    """One seeded random playout, its invariants checked after every step.

    The cheap invariants (cards, counts, legal moves, chance, scores) hold at every step
    of every playout. A *deep* playout also checks, at every step, the views of every
    seat, an independent clone, and the replay of its serialized history state by state;
    other playouts check those at a sample of steps and replay their history once.
    """

    def __init__(self, game, seed: int, deep: bool = False):
        self.game = game
        self.seed = seed
        self.deep = deep
        self.rng = random.Random(seed)
        self.sample = random.Random(seed + 7919)
        self.state = game.new_initial_state()
        self.n = game.num_players
        self.full_mask = game.deck.full_mask
        self.num_actions = game.num_distinct_actions()
        self.start = list(self.state.scores)
        self.deal_start = list(self.state.scores)
        self.deal_number = 0
        self.redeals = getattr(self.state, "redeals", 0)
        self.completed = 0            # tricks completed by play in the current deal
        self.trick_sizes = 0          # cards in those tricks
        self.deal_began = 0           # length of the history when the current deal began
        self.fingerprints = [fingerprint(self.state)] if deep else None
        self.full = {}                # step -> full fingerprint, for a sample of steps

    def run(self):
        legal = self.check_state()
        while legal:
            self.step(legal)
            legal = self.check_state()
        self.check_terminal()
        self.check_replay_of_serialized_history()
        return self.state

    # -------------------------------------------------------------- one step
    def step(self, legal):
        state = self.state
        actor = state.current_player()
        action = self.rng.choice(legal)
        if actor >= 0 and self.game.max_deals != 1 and self.rng.random() < MODEST:
            action = min(legal)                    # in a whole match often the first word (a pass) or lowest bid
        last_trick = state.tricks.last_trick
        deal_before = state.deal_number
        if actor < 0 and state.phase is not None and state.phase.kind == "tricks" and state.tricks.pending:
            self.trick_sizes += 1                  # a talon card given to a trick's winner (gift): won, not played
        looking = self.deep or self.sample.random() < SAMPLE_RATE
        if looking:
            if self.deep and self.game.max_deals != 1:      # a deep match: one seat in turn, to stay quick
                seats = [len(state.history) % self.n]
            else:
                seats = range(self.n) if self.deep else [self.sample.randrange(self.n)]
            self.check_views(seats)
            before = fingerprint(state)
            twin = state.clone()
            assert fingerprint(twin) == before, "clone() differs from the state it copies"
            if self.sample.random() < 0.5:        # advance the clone half of the time: independence both ways
                state, twin = twin, state
            state.apply_action(action)
            assert fingerprint(twin) == before, "applying an action to a clone (or its original) changed the other"
            self.state = state
            # undo replays the whole history: sample it, less often as a match grows long
            if self.sample.random() < UNDO_RATE * min(1.0, ONE_DEAL / len(state.history)):
                undone = state.clone()
                undone.undo_action(actor, action)
                assert full_fingerprint(undone) == full_fingerprint(twin), "undo_action did not restore the state"
        else:
            state.apply_action(action)
        self.note_trick(last_trick, deal_before)
        if state.deal_number != deal_before:
            self.check_finished_deal()
        elif getattr(state, "redeals", 0) != self.redeals:
            self.new_deal()                        # thrown in: the same deal is dealt again
        self.redeals = getattr(state, "redeals", 0)
        if self.deep:
            self.fingerprints.append(fingerprint(state))
            if self.sample.random() < SERIALIZE_RATE * min(1.0, ONE_DEAL / len(state.history)) or state.is_terminal():
                self.check_serialize()
                self.full[len(state.history)] = full_fingerprint(state)

    def note_trick(self, last_trick, deal_before):
        state = self.state
        finished = state.deal_results[-1]["last_trick"] if state.deal_number != deal_before else state.tricks.last_trick
        if finished is not None and finished is not last_trick:
            self.completed += 1
            self.trick_sizes += len(finished[0])

    def new_deal(self):
        self.completed = 0
        self.trick_sizes = 0
        self.deal_began = len(self.state.history)

    # -------------------------------------------------------------- invariants of every state
    def check_state(self) -> list[int]:
        """Check the state; return the actions that may be taken next (none when the match is over).

        This runs after every step of every playout, so it is written for speed."""
        st = self.state
        current = st.current_player()
        if current == TERMINAL:
            assert st.legal_actions() == [] and st.is_terminal()
            legal = []
        elif current == CHANCE:
            outcomes = st.chance_outcomes()
            legal = list(map(itemgetter(0), outcomes))
            probabilities = list(map(itemgetter(1), outcomes))
            assert min(probabilities) > 0 and math.isclose(math.fsum(probabilities), 1.0), \
                f"chance outcomes are no distribution: {outcomes}"
            if self.deep:
                assert legal == st.legal_actions()
        else:
            assert 0 <= current < self.n
            legal = st.legal_actions()
        if current != TERMINAL:
            assert legal, "no legal action in a state that is not terminal"
            assert all(map(lt, legal, legal[1:])), f"legal actions not sorted and distinct: {legal}"
            assert 0 <= legal[0] and legal[-1] < self.num_actions, f"legal actions out of range: {legal}"
        self.check_cards(st)
        self.check_counts(st, current)
        if current != TERMINAL:              # within a deal, scores move only by the deal's own deltas
            assert list(map(add, self.deal_start, st.deal_delta)) == st.scores, \
                f"scores {st.scores} are not {self.deal_start} plus the deal's deltas {st.deal_delta}"
        return legal

    def check_cards(self, st):
        """Every card of the deck is in exactly one of the places the state and its constructs name
        (so the cards dealt add up); the trick on the table is counted from its cards."""
        trick_mask = 0
        for _, card in st.tricks.trick:
            trick_mask |= 1 << card
        named = dict(st.card_places())
        assert named.pop("trick") == trick_mask, f"seed {self.seed}: the trick's mask is not its cards"
        places = [trick_mask, *named.values()]
        total = sum(map(int.bit_count, places))
        if reduce(or_, places) != self.full_mask or total != self.game.num_cards or \
                len(st.tricks.trick) != trick_mask.bit_count():
            lost = self.game.deck.names(self.full_mask & ~reduce(or_, places))
            raise AssertionError(f"seed {self.seed}: cards missing {lost} or in two places ({total} counted)")
        if not st.out:
            assert not any(st.discards), "a seat has discards but nothing is out of play"
            return
        seen = 0
        for mask in st.discards:
            assert not mask & seen, "a discard belongs to two seats"
            seen |= mask
        assert seen & ~st.out == 0, "a seat's discard is not out of play"

    def check_counts(self, st, current):
        """Tricks counted equal tricks completed; the players' hands stay level during trick play."""
        assert st.deal_number == self.deal_number
        taken = sum(st.tricks.taken)
        if taken == self.completed:
            assert sum(map(int.bit_count, st.won)) == self.trick_sizes, "the cards won are not the tricks' cards"
        else:
            # credited without play (`alone: takes_all`): one seat alone takes all its cards as tricks
            holders = [s for s in range(self.n) if st.tricks.taken[s]]
            assert not self.completed and len(holders) == 1 and st.tricks.among.bit_count() == 1, \
                f"tricks counted {st.tricks.taken}, completed {self.completed}"
            assert st.tricks.taken[holders[0]] == st.won[holders[0]].bit_count()
        if current >= 0 and st.phase.kind == "tricks":
            in_trick = {s for s, _ in st.tricks.trick}
            aside = getattr(st, "lay_aside", None)                        # cards laid aside face down stay his
            sizes = {st.hands[s].bit_count() + (s in in_trick) + (aside.cards.bit_count() if aside and aside.owner == s
                                                                   else 0)
                     for s in range(self.n) if st.tricks.among >> s & 1}
            assert len(sizes) == 1, f"the players' hands are uneven: {st.hands}"

    def seen_by(self, p: int) -> int:
        """The cards of this deal's actions that ``p`` saw: dealt or drawn to it, or moved by it (a card it
        passed on stays known to it wherever it went), and those everyone saw (a card turned up, which a
        seat may then take into its hand)."""
        st, seen = self.state, 0
        for action, seer in zip(st.history[self.deal_began:], st.seen[self.deal_began:]):
            if seer in (p, -1) and action < self.game.num_cards:
                seen |= 1 << action
        return seen

    def check_views(self, seats):
        """A seat sees its own hand and discards and never another seat's hidden cards (but those it saw)."""
        st, game = self.state, self.game
        names = game.deck.names
        for p in seats:
            obs = st.observation(p)
            assert obs["hand"] == names(st.hands[p])
            assert obs["my_discards"] == names(st.discards[p])
            assert obs["hand_sizes"] == {game.seat_name(s): h.bit_count() for s, h in enumerate(st.hands)}
            hidden = 0
            for q in range(self.n):
                if q != p:
                    hidden |= st.hands[q] | st.discards[q]
            hidden &= ~self.seen_by(p)
            for found in game.parts:     # a dummy laid open, a card taken up in sight of all, a talon shown
                for cards in [*found.public_holdings(st).values(), *found.held_or_discarded(st).values()]:
                    hidden &= ~cards
            # by name, counted: in a pack with copies a seat may see one copy of a name while another is hidden
            open_copies = Counter({name: game.deck.copies for name in names(game.deck.full_mask)})
            open_copies.subtract(names(hidden))
            visible = Counter(obs["hand"] + obs["my_discards"] + [c for _, c in obs["trick"]])
            assert not visible - open_copies, f"P{p + 1} sees {set(visible - open_copies)}"
            all_hidden = {name for name, count in open_copies.items() if count <= 0}
            shown = set(shown_cards(st, p, self.deal_began))    # earlier deals' cards were dealt afresh since
            assert not shown & all_hidden, f"P{p + 1}'s information state shows {shown & all_hidden}"

    # -------------------------------------------------------------- deal and match ends
    def check_finished_deal(self):
        st = self.state
        assert st.deal_number == self.deal_number + 1, "more than one deal ended in one step"
        assert len(st.deal_results) == st.deal_number
        result = st.deal_results[-1]
        if self.completed:
            assert sum(result["tricks"]) == self.completed
        assert [s - b for s, b in zip(result["scores"], self.deal_start)] == result["delta"]
        self.deal_start = list(result["scores"])
        self.deal_number = st.deal_number
        if not st.is_terminal():          # a new deal has begun; a terminal state still shows the last one
            assert st.scores == result["scores"], "scores changed between deals"
            self.new_deal()

    def check_terminal(self):
        st, game = self.state, self.game
        total = [sum(r["delta"][s] for r in st.deal_results) for s in range(self.n)]
        assert [s - b for s, b in zip(st.scores, self.start)] == total, "final scores are not start + deal deltas"
        match = game.definition.match
        sign = -1 if match.winner == "lowest" else 1
        assert st.returns() == [float(sign * (s - b)) for s, b in zip(st.scores, self.start)]
        if st.winner is not None:
            best = min(st.scores) if match.winner == "lowest" else max(st.scores)
            assert st.scores[st.winner] == best and st.scores.count(best) == 1
        if self.deep:
            self.check_views(range(self.n))

    def check_serialize(self):
        st = self.state
        data = json.loads(st.serialize())
        assert data == {"game": self.game.name, "digest": self.game.definition.digest, "history": st.history}

    def check_replay_of_serialized_history(self):
        """Replaying the serialized history reproduces the state (a deep playout: state by state, checked)."""
        self.check_serialize()
        history = json.loads(self.state.serialize())["history"]
        fresh = self.game.new_initial_state()
        if self.deep:
            assert fingerprint(fresh) == self.fingerprints[0]
            for k, action in enumerate(history, start=1):
                fresh.apply_checked(action)
                assert fingerprint(fresh) == self.fingerprints[k], f"seed {self.seed}: replay differs after {k} actions"
                if k in self.full:
                    assert full_fingerprint(fresh) == self.full[k]
            assert full_fingerprint(fresh) == full_fingerprint(self.state)
        else:
            for action in history:
                fresh.apply_action(action)
            assert fingerprint(fresh) == fingerprint(self.state)
            assert fresh.legal_actions() == self.state.legal_actions()


def shown_cards(state, player: int, since: int) -> list[str]:
    """Card names that ``player``'s information state string shows in plain, from action ``since`` on.

    The string is the seat's name, then one entry per action, each after a space: the
    action's name, or ``?`` when hidden; then notes, each `` | WORD CARDS``: once a card is
    called for a partner `` | called CARD`` (said aloud, so not counted as shown), and what a
    construct told the seat (`` | received CARDS``), whose cards count as shown. Action names
    may contain spaces, so the string is read against the history, from its end back to
    action ``since``.
    """
    game = state.game
    text, *notes = state.information_state_string(player).split(" | ")
    if state.called >= 0:
        called = f"called {game.deck.cards[state.called].name}"
        assert called in notes, "the called card is missing from the information state"
        notes.remove(called)
    told = [word for note in notes for word in note.split()[1:] if word.casefold() in game.deck.lookup]
    seat = game.seat_name(player)
    history = state.history
    if not history:
        assert text == seat + " "
        return told
    pos, shown = len(text), []
    for index in range(len(history) - 1, since - 1, -1):
        action = history[index]
        name = game.action_to_string(action)
        if text.endswith(" " + name, 0, pos):
            pos -= len(name) + 1
            if action < game.num_cards:
                shown.append(name)
        elif text.endswith(" ?", 0, pos):
            pos -= 2
        else:
            raise AssertionError(f"the information state of {seat} does not follow the history at action "
                                 f"{index}: {text[max(0, pos - 40):pos]!r}")
    if since == 0:
        assert text[:pos] == seat, "the information state string is longer than the history"
    return shown + told


# ---------------------------------------------------------------------- random playouts
def run_playouts(path, max_deals, seeds) -> tuple[list[str], list[int]]:
    """Play ``(seed, deep)`` playouts of a game; the failures (seed and traceback) and each one's deal count."""
    game = game_of(path, max_deals)
    failures, deals = [], []
    for seed, deep in seeds:
        try:
            state = Playout(game, seed, deep).run()
        except Exception:                                   # noqa: BLE001 -- reported with its seed
            failures.append(f"seed {seed}{' (deep)' if deep else ''}:\n{traceback.format_exc()}")
            if len(failures) >= 3:
                break
            continue
        deals.append(state.deal_number)
    return failures, deals


def play_in_parallel(path, max_deals, seeds) -> list[int]:
    """Run the playouts on JOBS processes (forked, so the compiled game is shared); fail with every failure."""
    chunks = [seeds[i::JOBS * 4] for i in range(JOBS * 4)]
    if JOBS == 1:
        results = [run_playouts(path, max_deals, chunk) for chunk in chunks]
    else:
        game_of(path, max_deals)                            # compile once, before forking
        with ProcessPoolExecutor(JOBS, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(run_playouts, [path] * len(chunks), [max_deals] * len(chunks), chunks))
    failures = [text for found, _ in results for text in found]
    assert not failures, f"{len(failures)} playout(s) failed; replay one with Playout(game, seed).run()\n\n" + \
        "\n".join(failures)
    return [count for _, counts in results for count in counts]


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_random_single_deals_keep_every_invariant_at_every_step(path):
    playouts = VARIANT_PLAYOUTS if is_variant(path) else PLAYOUTS
    seeds = [(seed, seed % DEEP_EVERY == 0) for seed in range(playouts - MATCHES)]
    deals = play_in_parallel(path, 1, seeds)
    assert deals == [1] * len(seeds)


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_random_whole_matches_keep_every_invariant_and_some_end_by_their_own_rules(path):
    matches = VARIANT_MATCHES if is_variant(path) else MATCHES
    seeds = [(seed, seed == 100_000) for seed in range(100_000, 100_000 + matches)]
    deals = play_in_parallel(path, MATCH_DEALS, seeds)
    assert len(deals) == matches
    assert sum(deals) > matches, "no match lasted more than one deal: the match rules are never exercised"
    assert min(deals) < MATCH_DEALS, f"no random match ended by the game's own rules within {MATCH_DEALS} deals"


# ---------------------------------------------------------------------- logs
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_a_logged_run_replays_to_the_same_scores(path, seed, tmp_path):
    game = game_of(path, MATCH_DEALS)
    state, record = play_match(game, seed=seed)
    log_file = tmp_path / "run.jsonl"
    write_log(str(log_file), log_lines(game, seed, record, state))
    outcome = replay(read_log(str(log_file)), game)
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.applied == len(record.actions) == len(state.history)
    assert outcome.state.scores == state.scores
    assert outcome.state.winner == state.winner
    names = game.action_to_string                           # a log names cards, not which copy of a name
    assert list(map(names, outcome.state.history)) == list(map(names, state.history))
    assert outcome.record.summary(outcome.state) == record.summary(state)


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_the_same_seed_plays_the_same_match(path):
    game = game_of(path, max_deals=3)
    first, _ = play_match(game, seed=42)
    again, _ = play_match(game, seed=42)
    assert first.history == again.history and first.scores == again.scores
