"""``State``: one match of a compiled game, with OpenSpiel's vocabulary.

Cards are ints and card sets are int bitmasks; every rule is a closure compiled once per
game. Each phase is run by its construct (:mod:`rulelang.constructs`); the State keeps
what every game has — the match, the deal's card places, seats and sides — and one slice
of deal state per construct that keeps any (``st.tricks``, ``st.auction``, …), made anew
each deal and copied by :meth:`State.clone` and the undo stack.

Copying is kept to what changes on every move: the hands, the cards won, the history and who
saw the latest actions (``_COPIED``; who saw the earlier ones is set aside at a new phase in
tuples that clones share, and :attr:`State.seen` joins them), and the slices that the phase
running or one to come may change (``game.live_parts``), each with only its containers that
change in place (``DealPart.copied``). The containers written rarely — scores, the deal's
payments, the cards dealt and discarded, the deal's variables, decisions, counters and results
(``SHARED``) — are replaced by :meth:`State.put` (or a new one assigned) rather than changed in
place, so a clone and the undo stack share them. A construct that writes one in place move by
move names it in ``writes`` (the deal writes the cards dealt, the exchange the discards): it is
then live, and copied, while such a phase is running or to come.
"""

from __future__ import annotations

import json

from rulelang.compile.deck import iter_bits, sample_bits
from rulelang.diagnostics import Diagnostic, IllegalActionError
from rulelang.compile.exprcompile import EvalError

CHANCE = -1
TERMINAL = -4

_COPIED = ("hands", "won", "history", "seen_tail")
_APPENDED = ("history", "seen_tail")
SEEN_TAIL = 16          # who saw the latest actions is set aside in a shared tuple at a new phase beyond this
SHARED = ("scores", "deal_delta", "discards", "dealt", "finished_deals", "vars", "decisions", "counters")
MAX_REDEALS = 1000


class State:
    """The state of a match: hands, talon, tricks, scores and whose turn it is."""

    def __init__(self, game):
        self.game = game
        rules = game.definition
        n = game.num_players
        self.scores = [rules.match.start] * n
        self.deal_number = 0
        self.history: list[int] = []
        self.finished_deals: list[dict] = []                   # the record of each deal (see deal_results)
        self.last_deal_pending = False                          # the match's last deal, not yet written into it
        self.winner: int | None = None             # the seat that won alone; None for a team or a shared win
        self.winners: tuple[int, ...] = ()         # the seats that won: one seat, or every seat of a team
        self.match_ended = False
        self.current = CHANCE
        self.dealer = 0
        self.forehand = 0
        self.phase_index = -1
        self.phase = None
        self.handler = None
        self.seen_chunks: tuple[tuple[int, ...], ...] = ()     # who saw each action, the earlier ones: see seen
        self.seen_tail: list[int] = []                          # and the latest
        self.counters = dict(rules.match.counters)
        self.redeal = False
        self.redeals = 0
        self.tied_ends = 0
        self.stopped: Diagnostic | None = None
        self._undo: list | None = None
        self.__dict__.update(game.idle_parts)
        self._reset_deal()
        self._fresh = True
        if rules.first_dealer is None:
            self.sub = "first_dealer"
        else:
            self.dealer = rules.first_dealer
            self._start_deal()

    # ------------------------------------------------------------------ deal and match flow
    def _reset_deal(self) -> None:
        game = self.game
        n = game.num_players
        self.hands = [0] * n
        self.won = [0] * n
        self.discards = [0] * n
        self.deal_delta = [0] * n
        self.dealt = [0] * n
        self.stock = game.deck.full_mask
        self.talon = 0
        self.out = 0
        self.active = (1 << n) - 1
        self.vars = {name: (-1 if t in ("suit", "card") else None) for name, t in game.definition.deal_vars.items()}
        self.decisions: dict = {}
        self.sub = ""
        self.only_seat = None
        self.declarer = -1
        self.contract = None
        self.side_mask = 0
        self.called = -1
        self.revealed = False
        for found in game.parts:
            setattr(self, found.kind, found.part(game))

    def _start_deal(self) -> None:
        rules = self.game.definition
        if self._fresh:
            self._fresh, self.sub = False, ""
        else:
            self._reset_deal()
        self.forehand = (self.dealer + rules.forehand_offset * rules.step) % self.game.num_players
        self.phase_index = -1
        self._next_phase()

    def _next_phase(self) -> None:
        phases = self.game.definition.phases
        while True:
            if self.redeal:
                self._redeal()
                return
            self.phase_index += 1
            if len(self.seen_tail) > SEEN_TAIL:
                self.seen_chunks, self.seen_tail = (*self.seen_chunks, tuple(self.seen_tail)), []
            if self.phase_index >= len(phases):
                self.phase = self.handler = None
                self._end_deal()
                return
            phase = self.phase = phases[self.phase_index]
            if phase.when is not None and not phase.when.fn(self, None):
                continue
            self.handler = self.game.handlers[phase.kind]
            if self.handler.enter(self, phase) and not self.redeal:
                return

    def _redeal(self) -> None:
        """Throw the cards in: the same dealer deals again and the deal does not count."""
        self.redeal = False
        self.redeals += 1
        if self.redeals > MAX_REDEALS:
            raise EvalError(f"more than {MAX_REDEALS} redeals in a row", self.phase.span if self.phase else None)
        self._start_deal()

    def add_score(self, seat: int, delta: int) -> None:
        """Add ``delta`` to ``seat``'s score, unless an exact finish forbids overshooting."""
        self.add_scores(((seat, delta),))

    def add_scores(self, deltas) -> None:
        """``add_score`` of each (seat, delta) of ``deltas``; the score lists are replaced once."""
        exact = self.game.definition.match.exact
        scores, deal_delta = self.scores.copy(), self.deal_delta.copy()
        for seat, delta in deltas:
            if exact is not None and delta and scores[seat] + delta < exact <= scores[seat]:
                continue
            deal_delta[seat] += delta
            scores[seat] += delta
        self.scores, self.deal_delta = scores, deal_delta

    def put(self, name: str, key, value) -> None:
        """Set ``key`` of the shared container ``name`` (one of ``SHARED``: a per-seat list or a dict) to
        ``value``: a changed copy replaces it, so clones and undo snapshots that share it keep theirs."""
        changed = self.__dict__[name].copy()
        changed[key] = value
        self.__dict__[name] = changed

    def _counter_values(self, rule, kept_by: tuple) -> tuple:
        """A counter kept per seat or team after a deal: worked out once for each seat that keeps it (a team's
        first seat), every seat holding its keeper's value."""
        values = {seat: rule.fn(self, seat) for seat in sorted(set(kept_by))}
        return tuple(values[seat] for seat in kept_by)

    def _end_deal(self) -> None:
        rules = self.game.definition
        self.redeals = 0
        self.deal_number += 1                      # after_deal and end read the number of deals played
        updates = {name: self._counter_values(rule, rules.match.kept_by[name]) if name in rules.match.kept_by
                   else rule.fn(self, None) for name, rule in rules.match.after_deal.items()}
        self.counters = {**self.counters, **updates}
        if self._match_over():
            self.current = TERMINAL
            self.last_deal_pending = True          # nothing changes any more: it is written when it is read
            return
        self.finished_deals = [*self.finished_deals, self._deal_record()]
        self.dealer = (self.dealer + rules.next_dealer * rules.step) % self.game.num_players
        self._start_deal()

    def _deal_record(self) -> dict:
        """The record of the deal just finished: who dealt, the payments and scores, the deal's variables,
        decisions, contract and sides, and what each construct that keeps a record adds."""
        result = {
            "dealer": self.dealer, "delta": list(self.deal_delta), "scores": list(self.scores),
            "vars": {k: self.var_text(k) for k in self.vars}, "active": self.active,
            "decisions": dict(self.decisions), "contract": self.contract, "declarer": self.declarer,
            "side": self.side_mask, "called": self.called, "counters": dict(self.counters), "dealt": list(self.dealt)}
        for found in self.game.recorders:
            result.update(found.deal_result(self))
        return result

    @property
    def deal_results(self) -> list[dict]:
        """The record of each finished deal, in order (see :meth:`_deal_record`). The match's last deal is
        written on first reading: a playout that never reads it does not pay for it."""
        if self.last_deal_pending:
            self.last_deal_pending = False
            self.finished_deals = [*self.finished_deals, self._deal_record()]
        return self.finished_deals

    def _match_over(self) -> bool:
        match = self.game.definition.match
        ended = match.end.fn(self, None)
        if ended:
            best = min(self.scores) if match.winner == "lowest" else max(self.scores)
            sides = self._sides_of([s for s, v in enumerate(self.scores) if v == best])
            if len(sides) == 1 or match.tie != "play_on":
                self.winners = tuple(sides[0]) if len(sides) == 1 else ()
                self.winner = self.winners[0] if len(self.winners) == 1 else None
                self.match_ended = True
                return True
            self.tied_ends += 1
        if self.game.endless is not None and self.game.max_deals is None:
            self.stopped = self._never_ended()          # it provably never ends: stopped after this deal
            return True
        if self.deal_number < self.game.deal_cap:
            return False
        if self.game.max_deals is None or self.deal_number < self.game.max_deals:
            self.stopped = self._never_ended()
        return True

    def _sides_of(self, leaders: list[int]) -> list[list[int]]:
        """The sides the leading seats belong to, each as its seats: a seat alone, or its whole fixed team
        (with ``teams`` partners are judged together, so partners level is no tie)."""
        teams = self.game.definition.teams
        if not teams:
            return [[seat] for seat in leaders]
        masks = sorted({teams[seat] for seat in leaders})
        return [[seat for seat in range(self.game.num_players) if mask >> seat & 1] for mask in masks]

    def _never_ended(self) -> Diagnostic:
        """E554: the match reached the engine's limit of deals without its rules ending it."""
        match = self.game.definition.match
        deals = self.deal_number
        if self.game.endless is not None:
            why = f"it can never end: {self.game.endless}, and `end: {match.end.text}` needs scores they never reach"
        elif self.tied_ends:
            why = (f"`end` held after {self.tied_ends} of them, but the lead was shared each time and a tie plays on "
                   "(`tie: play_on`)")
        else:
            why = f"`end: {match.end.text}` never held"
        return Diagnostic("E554", f"the match was stopped after {deals} deal{'s' if deals != 1 else ''}: {why}",
                          match.end.span,
                          "write an `end` that the scores reach, or a tie rule that ends the match "
                          "(`tie: share`); --deals K stops the run after at most K deals")

    # ------------------------------------------------------------------ OpenSpiel vocabulary
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` (-1) at a chance event, ``TERMINAL`` (-4) when over; the seat that
        plays a dummy's cards when it is the dummy's turn."""
        current = self.current
        if current >= 0:
            for found in self.game.deputies:
                current = found.acts_for(self, current)
        return current

    def is_terminal(self) -> bool:
        """True when the match is over."""
        return self.current == TERMINAL

    def is_chance_node(self) -> bool:
        """True when the next action is drawn by chance (a card dealt or drawn, a dealer by lot)."""
        return self.current == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible chance actions with their probabilities (uniform)."""
        actions = self.legal_actions()
        p = 1.0 / len(actions) if actions else 0.0
        return [(a, p) for a in actions]

    def legal_actions(self) -> list[int]:
        """The legal actions now, sorted ascending."""
        handler = self.handler
        if handler is not None:
            legal = handler.legal(self, self.phase)
            if not legal:
                raise self._stuck()
            return legal
        if self.sub == "first_dealer":
            base = self.game.seat_base
            return list(range(base, base + self.game.num_players))
        return []

    def _stuck(self):
        """E550: the deal is not over, but the seat to act has no legal action (the rules left it stuck)."""
        from rulelang.compile.values import NoLegalAction
        actor = self.current_player()
        who = self.game.seat_name(actor) if actor >= 0 else "chance"
        phase = self.phase
        where = f"phase {self.phase_index + 1} ({phase.kind})" if phase is not None else "between deals"
        return NoLegalAction(f"{who} is to act in {where} but has no legal action", getattr(phase, "span", None))

    def apply_action(self, action: int) -> None:
        """Apply ``action`` without checking it (the fast path for agents that chose from legal_actions)."""
        handler = self.handler
        if handler is None and self.sub != "first_dealer":
            raise ValueError("apply_action: the match is over")
        if self._undo is not None:
            self._undo.append(self._snapshot())
        self.history.append(action)
        if handler is None:
            self._draw_dealer(action)
            return
        phase = self.phase
        self.seen_tail.append(-1 if handler.public else handler.seer(self, phase, action))
        if handler.apply(self, phase, action):
            self._next_phase()

    def _draw_dealer(self, action: int) -> None:
        """The first dealer drawn by lot (the only action taken outside a phase)."""
        self.seen_tail.append(-1)
        self.dealer = action - self.game.seat_base
        self._start_deal()

    def apply_chance(self, rng, before=None, after=None) -> int:
        """Sample and apply the whole pending chance sequence in one call; the number of events applied.

        A deal, a talon draw, a stock laid out in piles or a dealer by lot: every chance event
        up to the next decision (or the end). Cards are drawn with one ``rng.sample`` per run
        of draws, which gives each ordered draw the probability that drawing uniformly event
        by event gives it; the history and who saw what are recorded event by event, as
        ``apply_action`` records them. ``rng`` is a :class:`random.Random`; ``before(action)``
        and ``after()``, when given, are called around each event (a record of the match).
        """
        applied = 0
        while self.current == CHANCE:
            draws = getattr(self.handler, "draws", None)
            if draws is None or self._undo is not None or self.sub == "first_dealer":
                action = rng.choice(self.legal_actions())
                if before is not None:
                    before(action)
                self.apply_action(action)
                applied += 1
                if after is not None:
                    after()
                continue
            applied += self._apply_draws(rng, draws, before, after)
        return applied

    def _apply_draws(self, rng, draws, before, after) -> int:
        """One run of card draws of the current phase, sampled at once (see :meth:`apply_chance`)."""
        phase, handler = self.phase, self.handler
        population, count = draws(self, phase)
        cards = sample_bits(rng, population, count)
        apply_drawn = getattr(handler, "apply_drawn", None)
        if apply_drawn is not None and before is None and after is None:
            self.history.extend(cards)
            if apply_drawn(self, phase, cards):
                self._next_phase()
            return count
        for card in cards:
            if before is not None:
                before(card)
            self.history.append(card)
            self.seen_tail.append(handler.seer(self, phase, card))
            if handler.apply(self, phase, card):
                self._next_phase()
            if after is not None:
                after()
        return count

    def apply_checked(self, action: int) -> None:
        """Apply ``action`` if legal; otherwise raise IllegalActionError naming the forbidding rule."""
        if self.current == TERMINAL:
            raise IllegalActionError(Diagnostic("E510", "the match is over; no more moves can be made", None,
                                                "start a new game"))
        action = self.legal_copy(action)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        self.apply_action(action)

    def legal_copy(self, action: int) -> int:
        """``action``, or in a pack with copies the copy of its card that is legal now (a move or log
        names a card, and copies of one name are the same card to the players)."""
        deck = self.game.deck
        if deck.twins and 0 <= action < self.game.num_cards:
            legal = self.legal_actions()
            if action not in legal:
                return next((card for card in legal if card < self.game.num_cards and deck.twins[action] >> card & 1),
                            action)
        return action

    def explain_illegal(self, action: int) -> Diagnostic:
        """Why ``action`` is not legal now, located at the rule that forbids it."""
        if self.sub == "first_dealer":
            return Diagnostic("E511", f"'{self.action_to_string(action)}' is not a seat", None, "choose P1..Pn")
        return self.handler.explain(self, self.phase, action)

    def action_to_string(self, action: int) -> str:
        """The name of an action."""
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int | None:
        """The action a name stands for, or None."""
        return self.game.string_to_action(text)

    @property
    def seen(self) -> list[int]:
        """Who saw each action of the history: a seat, -1 everyone, -2 the seat it was dealt to."""
        return [seer for chunk in self.seen_chunks for seer in chunk] + self.seen_tail

    def returns(self) -> list[float]:
        """Each seat's result so far: points shed when lower is better, points won otherwise."""
        start = self.game.definition.match.start
        sign = -1 if self.game.definition.match.winner == "lowest" else 1
        return [float(sign * (s - start)) for s in self.scores]

    def clone(self) -> "State":
        """An independent copy of this state: the ``_COPIED`` lists (written out, for speed) and the live
        slices copied, the ``SHARED`` containers shared (they are replaced on write)."""
        other = object.__new__(State)
        fields = self.__dict__.copy()
        fields["hands"] = self.hands.copy()
        fields["won"] = self.won.copy()
        fields["history"] = self.history.copy()
        fields["seen_tail"] = self.seen_tail.copy()
        for kind in self.game.live_parts[self.phase_index + 1]:
            fields[kind] = fields[kind].copy()
        if self._undo is not None:
            fields["_undo"] = None
        other.__dict__ = fields
        return other

    def detached(self) -> "State":
        """A ``clone`` that shares no container with this state: the ``SHARED`` ones are copied too, so
        even a change made in place (as a test sets up a position) stays with the copy."""
        other = self.clone()
        for name in SHARED:
            setattr(other, name, getattr(self, name).copy())
        return other

    def keep_undo(self, on: bool = True) -> None:
        """Keep a stack of small snapshots, so that ``undo_action`` is O(1) in the length of the history.

        Each action then first pushes what it may change (python-chess's ``push``/``pop``),
        which costs about what a ``clone`` does; without it, undo replays the history.
        """
        self._undo = [] if on else None

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (which must be ``action``): from the undo stack, else by replaying."""
        if not self.history or self.history[-1] != action:
            raise ValueError("undo_action: that is not the last action")
        if self._undo:
            self._restore(self._undo.pop())
            return
        fresh = self.game.new_initial_state()
        for a in self.history[:-1]:
            fresh.apply_action(a)
        undo = self._undo
        self.__dict__.update(fresh.__dict__)
        self._undo = undo

    def _snapshot(self) -> dict:
        """What an action may change: every field, the lists changed in place copied, the appended ones as
        (list, length)."""
        saved = dict(self.__dict__)
        for name in _COPIED:
            items = saved[name]
            saved[name] = (items, len(items)) if name in _APPENDED else items.copy()
        for kind in self.game.live_parts[self.phase_index + 1]:
            saved[kind] = saved[kind].copy()
        del saved["_undo"]
        return saved

    def _restore(self, saved: dict) -> None:
        """Go back to a snapshot: its fields, and the appended lists it held cut back to their lengths then
        (a list set aside since, as who saw the latest actions is at a new phase, is no longer appended to)."""
        undo = self._undo
        self.__dict__.clear()
        self.__dict__.update(saved)
        for name in _APPENDED:
            items, length = saved[name]
            del items[length:]
            setattr(self, name, items)
        self._undo = undo

    def resample_from_infostate(self, player: int, rng):
        """A state ``player`` cannot tell from this one, its hidden cards drawn anew (OpenSpiel's name).

        Same public history and the same information for ``player``; every hidden card
        re-drawn consistently with what public play has shown, the history replayed move
        by move. None only if no consistent draw was found; see
        :mod:`rulelang.interpreter.inference`.
        """
        from rulelang.interpreter.inference import resample_from_infostate
        return resample_from_infostate(self, player, rng)

    def serialize(self) -> str:
        """The game's name, rules digest and action history as JSON; see :func:`deserialize_state`."""
        return json.dumps({"game": self.game.name, "digest": self.game.definition.digest, "history": self.history})

    # ------------------------------------------------------------------ what players see
    def observation(self, player: int) -> dict:
        """What ``player`` sees now: own hand, own discards and public facts, never others' hidden cards.

        The generic part, then what each construct adds (:meth:`Construct.observe`)."""
        deck = self.game.deck
        seat = self.game.seat_name
        seen = {
            "seat": seat(player), "deal": self.deal_number + 1,
            "dealer": seat(self.dealer), "forehand": seat(self.forehand),
            "hand": deck.names(self.hands[player]),
            "hand_sizes": {seat(s): bin(h).count("1") for s, h in enumerate(self.hands)},
            "talon_size": bin(self.talon).count("1"),
            "my_discards": deck.names(self.discards[player]),
            "vars": {k: self.var_text(k) for k in self.vars},
            "decisions": {seat(s): d for s, d in self.decisions.items()},
            "active": [seat(s) for s in range(self.game.num_players) if self.active >> s & 1],
            "scores": {seat(s): v for s, v in enumerate(self.scores)},
            "to_act": seat(self.current) if self.current >= 0 else None,
            **self._teams_view(),
            **self._sides_view(player),
        }
        for found in self.game.observers:
            seen.update(found.observe(self, player))
        return seen

    def _teams_view(self) -> dict:
        """The fixed teams (``teams``), which everyone knows; nothing in a game without them."""
        teams = self.game.definition.teams
        if not teams:
            return {}
        seat = self.game.seat_name
        return {"teams": [[seat(s) for s in iter_bits(mask)] for mask in dict.fromkeys(teams)]}

    def _sides_view(self, player: int) -> dict:
        """The contract, declarer, the called card and — only when known to ``player`` — the partner."""
        if self.contract is None:
            return {}
        def seat(s: int) -> str | None:
            return self.game.seat_name(s) if s >= 0 else None
        row = self.game.definition.contracts.get(self.contract)
        if row is not None and row.sides == "parties":   # who is on which side: the observation's ``parties``
            return {"contract": self.contract, "declarer": seat(self.declarer), "called": None, "partner": "unknown"}
        partners = [s for s in range(self.game.num_players) if self.side_mask >> s & 1 and s != self.declarer]
        knows = self.revealed or player in partners or row is not None and row.sides in ("alone", "none")
        return {
            "contract": self.contract, "declarer": seat(self.declarer),
            "called": self.game.deck.cards[self.called].name if self.called >= 0 else None,
            "partner": ([seat(s) for s in partners] if knows else "unknown"),
        }

    def observation_string(self, player: int) -> str:
        """``observation(player)`` as one line of text."""
        return json.dumps(self.observation(player), ensure_ascii=False, sort_keys=True)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen: the history with other players' private cards hidden, and the card
        called for a partner (said aloud at the table, though the rules work it out from the caller's hand)."""
        name = self.game.action_to_string
        dealt = self.dealt[player]
        seen = (name(a) if seer in (-1, player) or seer == -2 and dealt >> a & 1 else "?"
                for a, seer in zip(self.history, self.seen))
        text = f"{self.game.seat_name(player)} " + " ".join(seen)
        if self.called >= 0:
            text += f" | called {self.game.deck.cards[self.called].name}"
        for found in self.game.informers:
            text += found.informs(self, player)
        return text

    def var_text(self, name: str) -> str:
        """A deal variable's value as a name (a suit's name, an option, a seat's name, a set of cards by their names)."""
        value = self.vars.get(name)
        kind = self.game.definition.deal_vars.get(name)
        if kind == "cards" and isinstance(value, int):
            return "{" + " ".join(self.game.deck.names(value)) + "}" if value else "none"
        if kind in ("suit", "card"):
            names = self.game.deck.suits if kind == "suit" else self.game.deck.cards
            return names[value].name if value is not None and value >= 0 else "none"
        if kind == "seat":
            return self.game.seat_name(value) if value is not None and value >= 0 else "none"
        return "none" if value is None else str(value)

    @property
    def step(self):
        """The phase whose rules apply to the next action: the step a phase is running (``turns``), else the phase."""
        handler = self.handler
        return handler.current_step(self, self.phase) if handler is not None else self.phase

    def card_places(self) -> dict[str, int]:
        """Every place a card can be, as bitmasks: together they hold each card of the deck exactly once."""
        seat = self.game.seat_name
        places = {"stock": self.stock, "talon": self.talon, "out": self.out}
        for found in self.game.placers:
            places.update(found.places(self))
        for s in range(self.game.num_players):
            places[f"hand {seat(s)}"] = self.hands[s]
            places[f"won {seat(s)}"] = self.won[s]
        return places

    def hand_cards(self, player: int) -> list[int]:
        """The cards ``player`` holds, as ints in deck order."""
        return list(iter_bits(self.hands[player]))

    def __repr__(self) -> str:
        """One line: the game, the deal, the phase, who is to act and the scores (no hidden card)."""
        if self.is_terminal():
            where = "the match is over"
        else:
            actor = self.current_player()
            who = "chance" if actor == CHANCE else self.game.seat_name(actor)
            phase = f"phase {self.phase_index + 1} ({self.phase.kind})" if self.phase is not None else "between deals"
            where = f"{phase}, {who} to act"
        scores = " ".join(f"{self.game.seat_name(s)} {v}" for s, v in enumerate(self.scores))
        return f"<State {self.game.name}: deal {self.deal_number + 1}, {where}; scores {scores}>"

    def __str__(self) -> str:
        deck = self.game.deck
        lines = [f"deal {self.deal_number + 1}, dealer {self.game.seat_name(self.dealer)}"]
        for s, hand in enumerate(self.hands):
            lines.append(f"{self.game.seat_name(s)}: {' '.join(deck.names(hand))} (score {self.scores[s]})")
        return "\n".join(lines)


def deserialize_state(game, text: str) -> State:
    """The state ``serialize`` described, rebuilt by replaying its history under ``game``.

    Raises ValueError if the text was written under other rules (a different digest)."""
    data = json.loads(text)
    if data.get("digest") != game.definition.digest:
        raise ValueError(f"the state was saved under other rules ({data.get('digest')}), not {game.definition.digest}")
    state = game.new_initial_state()
    for action in data.get("history", []):
        state.apply_action(int(action))
    return state
