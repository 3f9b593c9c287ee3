"""``auction``: contracts bid on a ladder, items announced for or against the declaring side, doubled in turn.

YAML ``- auction: {from: forehand, pass: weiter, for: re, against: contra, doubling: [kontra, re]}``
with the ladder under ``contracts`` and the items under ``items``; DSL ``auction { … }``.
By default the first speaker must bid and the auction ends when every seat in a row has passed,
or with ``once: true`` when every seat has spoken once (a single round: of two equal bids the
earlier stands: each player once says whether he would play). ``passing``, ``hold``, ``last`` and
``all_pass`` change who may pass, hold and bid last (:mod:`rulelang.constructs.bidding`). The winning
bid sets the deal's sides (``State.contract``, ``declarer``, ``side_mask``, ``called``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

from rulelang.compile.items import announcement, doubling
from rulelang.constructs import bidding
from rulelang.constructs.bidding import BiddingRules
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.validators.registry import check


@dataclass
class AuctionPhase(PhaseBase):
    """Rounds of bids, announcements and doublings until every seat in a row passes."""

    start: Rule | None = None
    pass_word: str = "pass"
    for_word: str = "for"
    against_word: str = "against"
    doubling: list[str] = field(default_factory=list)
    once: bool = False
    bids: bool = True
    announcements: bool = True
    rules: BiddingRules = field(default_factory=BiddingRules)
    kind: str = "auction"

    @property
    def all_pass(self) -> str | None:
        """The contract played when every seat passes, if the bidding rules name one."""
        return self.rules.all_pass_contract


class AuctionState(DealPart):
    """The seats in turn (``order``, ``pos``; ``everyone`` as a mask, ``seniority``: each seat's place from
    forehand), the seats that passed (``out``: for the deal, or since the last word that was not a pass, said by
    ``last_caller``), the items announced (True: for the declarers), each item's doubling level, everything
    said (``log``: seat, action; this phase's from ``opened_at`` on) and the :class:`AuctionTable` of the
    auction running (``table``, set when it begins).
    ``order`` and ``seniority`` are replaced, never changed in place, so a copy shares them."""

    copied = ("announced", "levels", "log")

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = self.out = self.everyone = self.opened_at = 0
        self.last_caller = -1
        self.seniority: list[int] = []
        self.announced: dict[str, bool] = {}
        self.levels: dict[str, int] = {}
        self.log: list[tuple[int, int]] = []
        self.table: AuctionTable | None = None


def ladder_steps(ranks: dict[str, int], lowest: int) -> dict[str, int]:
    """Per contract of ``ranks``, how many steps of the ladder of distinct ranks it stands above ``lowest``: ranks
    1, 2, 4 and 10, 20, 40 alike give steps 0, 1, 2 (an author's rank numbers order contracts, their gaps mean
    nothing)."""
    ladder = sorted({rank for rank in ranks.values() if rank > lowest})
    return {name: sum(1 for step in ladder if step <= rank) for name, rank in ranks.items()}


class AuctionTable:
    """What an auction phase's options are made of, worked out once per game: per contract bid so far
    (None before the first bid), the (condition, action) of each contract that may still be bid, in
    order (``bids``), and whether a contract without a condition opens any auction (``always_opens``);
    per contract, the items that count in it and may be announced or doubled, each as (name, the
    action announcing it indexed by "is the speaker a declarer" or None, its doubling actions, whether
    it is the game) (``rows``); what each announcement or doubling action says
    (``meanings``), and what each action other than pass does when said (``says``: see :meth:`_says`); the lowest
    rank of a contract played by sides (``lowest_bid``, :meth:`Auction.evidence`), and per contract the steps of the
    ladder of ranks it stands above that one (``steps``: ranks 1, 2, 4 and 10, 20, 40 alike are steps 0, 1, 2)."""

    def __init__(self, game, phase):
        definition, ids = game.definition, game.symbol_ids
        self.pass_id = ids.get(phase.pass_word)
        self.ranks = {c.name: c.rank for c in definition.contracts.values()}
        played = [c.rank for c in definition.contracts.values() if c.sides != "none"]
        self.lowest_bid = min(played or self.ranks.values() or [0])
        self.steps = ladder_steps(self.ranks, self.lowest_bid)
        contracts = [(c.rank, c.allow, ids[c.name]) for c in definition.contracts.values()]
        self.bids = {current: [(allow, action) for rank, allow, action in contracts
                               if current is None or rank > self.ranks[current]]
                     for current in [None, *definition.contracts]}
        self.held = {current: [(allow, action) for rank, allow, action in contracts
                               if current is None or rank >= self.ranks[current]]
                     for current in [None, *definition.contracts]}
        self.always_opens = phase.bids and any(allow is None for allow, _ in self.bids[None])
        self.rows = {}
        for name, contract in definition.contracts.items():
            listed = contract.items if contract.items is not None else list(definition.items)
            rows = [self._row(definition.items[item], ids, phase) for item in listed if item in definition.items]
            self.rows[name] = [row for row in rows if row[1] is not None or row[3]]
        self.meanings: dict[str, tuple[str, str, bool]] = {}
        for item in definition.items:                       # the first item a name could mean, as said in order
            self.meanings.setdefault(announcement(item, phase.for_word), ("announce", item, True))
            self.meanings.setdefault(announcement(item, phase.against_word), ("announce", item, False))
            for word in phase.doubling:
                self.meanings.setdefault(doubling(word, item), ("double", item, False))
        self.says = self._says(definition, ids)

    def _says(self, definition, ids) -> dict[int, tuple]:
        """Per action: ("bid", contract, None, None), ("announce", item, for the declarers?, the game item an
        announcement against raises to the first doubling or None), or ("double", item, False, None)."""
        game_item = next((name for name, spec in definition.items.items() if spec.is_game), None)
        says = {}
        for name, (kind, item, on_declarers) in self.meanings.items():
            if name in ids:
                raises = game_item if kind == "announce" and not on_declarers and \
                    definition.items[item].against_kontra else None
                says[ids[name]] = (kind, item, on_declarers, raises)
        for name, contract in definition.contracts.items():
            says[ids[name]] = ("bid", contract, None, None)
        return says

    @classmethod
    def _row(cls, spec, ids, phase) -> tuple:
        """(name, the announcing actions or None, the doubling actions, whether the item is the game)."""
        announce = spec.announce if spec.announce and not spec.is_game else None
        say_ids = cls._say_ids(announce, ids.get(announcement(spec.name, phase.for_word)),
                               ids.get(announcement(spec.name, phase.against_word)))
        return spec.name, say_ids, [ids.get(doubling(word, spec.name)) for word in phase.doubling], spec.is_game

    @staticmethod
    def _say_ids(announce, for_id, against_id) -> tuple | None:
        """The action announcing an item, indexed by "is the speaker a declarer" (None where he may not)."""
        if not announce:
            return None
        return (against_id if announce in ("both", "against") else None,
                for_id if announce in ("both", "for") else None)


def _seniority(st, everyone: int) -> list[int]:
    """Each seat's place counted from forehand in the direction of play (0: forehand, the most senior)."""
    places = [0] * st.game.num_players
    for place, seat in enumerate(seats_from(st, st.forehand, everyone)):
        places[seat] = place
    return places


def _table(game, phase) -> AuctionTable:
    """The :class:`AuctionTable` of ``phase``, built on first use and kept with the game."""
    tables = game.phase_tables
    table = tables.get(id(phase))
    if table is None:
        table = tables[id(phase)] = AuctionTable(game, phase)
    return table


class Auction(Construct):
    """Turns in order from ``start``: bid a higher contract, announce an item, double, or pass.
    The first speaker must bid; the auction ends when every seat in a row has passed."""

    kind = "auction"
    names_declarer = True
    forms_sides = True
    batch_kernel = "rulelang.batch.auction:AUCTION"
    keeps_hands = True
    order = 110
    summary = "contracts are bid, items announced and doubled"
    example = {"from": "forehand", "pass": "pass", "doubling": ["kontra", "retour"]}
    schema = {'entry': 'Bidding, announcements and doubling.',
              'defs': {'auctionPhase': {'title': 'a mapping with from, pass, for, against, doubling',
                                        'description': 'Rounds of bids, announcements and doublings until every seat '
                                                       'in a row passes; the first speaker must bid.',
                                        'type': 'object',
                                        'additionalProperties': False,
                                        'required': ['from'],
                                        'properties': {'from': {'description': 'The seat that speaks first.',
                                                                '$ref': '#/$defs/seatExpr'},
                                                       'pass': {'description': 'The word for passing (e.g. weiter).',
                                                                '$ref': '#/$defs/name'},
                                                       'for': {'description': 'The word announcing an item for the '
                                                                              'declaring side (e.g. dazu).',
                                                               '$ref': '#/$defs/name'},
                                                       'against': {'description': 'The word announcing an item '
                                                                                  'against the declaring side (e.g. '
                                                                                  'dagegen).',
                                                                   '$ref': '#/$defs/name'},
                                                       'doubling': {'description': 'The doubling chain, each step '
                                                                                   "×2, alternately by the item's "
                                                                                   'opponents and its owners (e.g. '
                                                                                   '[kontra, retour, supra, '
                                                                                   'resupra]).',
                                                                    'type': 'array',
                                                                    'items': {'$ref': '#/$defs/name'}},
                                                       'once': {'description': 'true: every seat speaks once, '
                                                                               'in turn (a single round; of two '
                                                                               'equal bids the earlier stands).',
                                                                'type': 'boolean'},
                                                       'bids': {'description': 'false: no contract is bid here, '
                                                                               'only announcements and doublings '
                                                                               'of the contract an earlier auction '
                                                                               'settled (default true).',
                                                                'type': 'boolean'},
                                                       'announcements': {'description': 'false: only bids and '
                                                                                        'passes; a later auction '
                                                                                        'takes announcements and '
                                                                                        'doublings (default true).',
                                                                         'type': 'boolean'},
                                                       **bidding.SCHEMA_PROPERTIES,
                                                       'when': WHEN}}}}
    codes = ("G420", "R376", "E506", "E507", "E508")
    part = AuctionState
    repeats = True
    words = "bid, announce, double or pass"

    @staticmethod
    def symbols(c, body) -> list[str]:
        """Every action name of an auction: contracts, announcements, doublings, the pass word."""
        contracts = [str(name) for name in c.data.get("contracts") or {}]
        items = c.data.get("items") or {}
        for_word, against = str(body.get("for", "for")), str(body.get("against", "against"))
        names = list(contracts)
        for name, spec in items.items():
            if (spec or {}).get("announce"):
                names += [announcement(name, for_word), announcement(name, against)]
        for word in body.get("doubling") or []:
            names += [doubling(word, name) for name in items]
        names.append(str(body.get("pass", "pass")))
        return names

    @staticmethod
    def compile(c, path, body):
        return AuctionPhase(start=c.rule(path + ("from",), SEAT), pass_word=str(body.get("pass", "pass")),
                            for_word=str(body.get("for", "for")), against_word=str(body.get("against", "against")),
                            doubling=[str(d) for d in body.get("doubling") or []], once=bool(body.get("once")),
                            bids=body.get("bids", True) is not False,
                            announcements=body.get("announcements", True) is not False,
                            rules=bidding.compile_rules(c, path, body))

    @staticmethod
    def may_redeal(phase) -> bool:
        return phase.rules.all_pass == "redeal"

    @staticmethod
    def dump(phase) -> str:
        return f" from `{phase.start.text}` pass {phase.pass_word}, {phase.for_word}/{phase.against_word}, " \
            f"doubling {', '.join(phase.doubling) or 'none'}" + (", once round" if phase.once else "") + \
            ("" if phase.bids else ", no bids") + ("" if phase.announcements else ", bids only") + \
            "".join(f", {key} {getattr(phase.rules, key)}" for key in phase.rules.changed)

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.auction
        everyone = (1 << st.game.num_players) - 1
        part.order = seats_from(st, phase.start.fn(st, None), everyone)
        part.pos, part.out, part.everyone, part.opened_at = 0, 0, everyone, len(part.log)
        part.last_caller = -1
        part.seniority = _seniority(st, everyone)
        st.current = bidding.first_speaker(phase.rules, part)
        part.pos = part.order.index(st.current)
        table = part.table = _table(st.game, phase)
        if phase.rules.all_pass is None and not table.always_opens and \
                not Auction._option_ids(st, phase, st.current, table):
            raise EvalError(f"{st.game.seat_name(st.current)} has no legal bid to open the auction", phase.span)
        return True

    @staticmethod
    def options(st, phase, seat) -> list[str]:
        """The action names ``seat`` may say now."""
        symbols, base = st.game.symbols, st.game.symbol_base
        return [symbols[action - base] for action in Auction.option_ids(st, phase, seat)]

    @staticmethod
    def option_ids(st, phase, seat) -> list[int]:
        """The actions ``seat`` may take now, in the order of :meth:`options`."""
        return Auction._option_ids(st, phase, seat, _table(st.game, phase))

    @staticmethod
    def _option_ids(st, phase, seat, table) -> list[int]:
        """:meth:`option_ids` from ``phase``'s table."""
        contract = st.contract if st.contract in table.ranks else None
        bidder = st.declarer if contract is not None else -1
        part, rules = st.auction, phase.rules
        ids = []
        if phase.bids:
            ladder = table.held[contract] if bidding.may_hold(st, rules, part, seat, bidder) else table.bids[contract]
            if rules.order == "duels" and contract is not None and seat == bidding.duel(part)[0]:
                ladder = [(allow, action) for allow, action in table.held[contract]      # a listener holds or passes
                          if table.ranks.get(symbol(st, action)) == table.ranks[contract]]
            ids = [action for allow, action in ladder if allow is None or allow.fn(st, seat)]
        if bidding.may_pass(st, rules, part, seat, bidder):
            ids.append(table.pass_id)
        if contract is None:
            return ids
        if not phase.announcements:
            return ids
        on_declarers = st.side_mask >> seat & 1
        announced, levels = st.auction.announced, st.auction.levels
        doublings = []
        for item, say_ids, doubling_ids, is_game in table.rows[contract]:
            owner = True if is_game else announced.get(item)
            if owner is None:
                if say_ids is not None and say_ids[on_declarers] is not None:
                    ids.append(say_ids[on_declarers])
                continue
            level = levels.get(item, 0)
            if level < len(doubling_ids) and on_declarers == (owner if level & 1 else not owner):
                doublings.append(doubling_ids[level])
        return ids + doublings if doublings else ids

    @staticmethod
    def legal(st, phase):
        return sorted(Auction._option_ids(st, phase, st.current, st.auction.table))

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.auction
        seat = st.current
        table = part.table
        part.log.append((seat, action))
        passed = action == table.pass_id
        if not passed:
            said = table.says.get(action)
            if said is None:
                raise ValueError(f"not an auction action: {symbol(st, action)}")
            kind, what, on_declarers, raises = said
            if kind == "bid":
                Auction._bid(st, what, seat)
            else:
                if kind == "announce":
                    part.announced[what] = on_declarers
                    if raises is not None:
                        part.levels[raises] = max(part.levels.get(raises, 0), 1)
                else:
                    part.levels[what] = part.levels.get(what, 0) + 1
                if seat != st.declarer and st.side_mask >> seat & 1:
                    st.revealed = True
        bidder = bidding.standing_bidder(st, table)
        if phase.once:
            if passed:
                part.out |= 1 << seat
            if part.pos < len(part.order) - 1:
                part.pos += 1
                st.current = part.order[part.pos]
                return False
            outcome = "won" if bidder >= 0 else "all_passed"
        else:
            outcome = bidding.after_word(st, phase.rules, part, seat, passed, bidder)
        if outcome == "all_passed":
            Auction._all_passed(st, phase)
            return True
        if outcome == "won":
            return True
        st.current = bidding.next_speaker(st, phase.rules, part, bidder)
        return False

    @staticmethod
    def _all_passed(st, phase) -> None:
        """Every seat passed without a bid: the cards are dealt again, or the all-pass contract is played with
        nobody declaring."""
        if phase.rules.all_pass == "redeal":
            st.redeal = True
            return
        st.contract, st.declarer, st.side_mask, st.called = phase.rules.all_pass_contract, -1, 0, -1

    @staticmethod
    def meaning(st, phase, name: str) -> tuple[str, str, bool]:
        """What an announcement or doubling action says: (kind, item, for the declarers?)."""
        meaning = _table(st.game, phase).meanings.get(name)
        if meaning is None:
            raise ValueError(f"not an auction action: {name}")
        return meaning

    @staticmethod
    def _bid(st, contract, seat: int) -> None:
        st.contract = contract.name
        st.declarer = seat
        st.auction.announced, st.auction.levels = {}, {}
        st.called, st.side_mask, st.revealed = -1, 1 << seat, False
        if contract.sides == "parties":             # a parties phase decides them, in secret
            st.side_mask = 0
        if contract.sides == "called" and contract.calls is not None:     # else a `call` phase names the card
            card = contract.calls.fn(st, seat)
            st.called = card
            holder = next((s for s, hand in enumerate(st.hands) if card >= 0 and hand >> card & 1), -1)
            if holder >= 0:
                st.side_mask |= 1 << holder

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        """An ordinary word reads "P2 says two"; the bidding model's special bids say what they are: "P1 must
        bid: klop" (every other seat passed, ``all_pass: forced``), "P1 holds two" (an equal bid by a senior
        seat), "P2 confirms two" or "P2 raises to one" (the last seat left, ``last: confirms``). The first word
        of a round of announcements alone (``bids: false``) opens it with a heading line, so that it is not
        read as more of the bidding."""
        from rulelang.interpreter.words import contract_title
        entry = {"seat": seat, "phase": step.kind, "action": name}
        words = Auction._bid_words(st, step, actor, action)
        if words:
            entry["words"] = words
        if not step.bids and len(st.auction.log) == st.auction.opened_at:
            entry["opens"] = f"announcements on {contract_title(st.game, st.contract)}:" if st.contract else \
                "announcements:"
        if action == _table(st.game, step).pass_id and Auction._last_pass(st, step, actor):
            contract = step.rules.all_pass_contract
            entry["then"] = f"everyone passed: {contract_title(st.game, contract)} is played" if contract else \
                {"redeal": "everyone passed: the same dealer deals again",
                 "passed_out": "everyone passed: nothing is played"}.get(step.rules.all_pass, "everyone passed")
        deal["decisions"].append(entry)

    @staticmethod
    def _last_pass(st, phase, seat: int) -> bool:
        """Whether ``seat``'s pass now is the last of an auction nobody bid in."""
        part = st.auction
        if phase.rules.all_pass is None or bidding.standing_bidder(st, part.table) >= 0:
            return False
        if phase.once:
            return part.pos == len(part.order) - 1
        return part.out | 1 << seat == part.everyone

    @staticmethod
    def _bid_words(st, phase, seat: int, action: int) -> str | None:
        """The verb of a bid the bidding model makes special, or None for an ordinary word."""
        table, part = _table(st.game, phase), st.auction
        said = table.says.get(action)
        if said is None or said[0] != "bid" or not phase.bids or phase.once:
            return None
        bidder = bidding.standing_bidder(st, table)
        alone = bidding.others_out(part, seat)
        if bidder < 0:
            return "must bid:" if phase.rules.all_pass == "forced" and alone else None
        equal = table.ranks[said[1].name] == table.ranks[st.contract]
        if seat == bidder and alone and phase.rules.last == "confirms":
            return "confirms" if equal else "raises to"
        return "holds" if equal and seat != bidder else None

    @staticmethod
    def said(st, phase, action: int) -> list[tuple]:
        """A bid says its contract's condition held for the bidder's hand, and a contract that calls a card
        by a rule (``calls``) says that rule named, for the bidder's hand, the card everyone hears called."""
        contract = st.game.definition.contracts.get(symbol(st, action))
        if contract is None:
            return []
        checks = [(contract.allow, None)] if contract.allow is not None else []
        if contract.sides == "called" and contract.calls is not None:
            checks.append((contract.calls, contract.calls.fn(st, st.current)))
        return checks

    @staticmethod
    def answers(st, phase, legal: list[int]) -> list[int]:
        """The doublings of an item the other side has doubled already (a Retour, a Supra …)."""
        table, levels = st.auction.table, st.auction.levels
        found = []
        for action in legal:
            said = table.says.get(action)
            if said is not None and said[0] == "double" and levels.get(said[1], 0) >= 1:
                found.append(action)
        return found

    @staticmethod
    def side_word(st, phase, action: int) -> bool:
        """An announcement of an item or a doubling."""
        return action in _table(st.game, phase).says and _table(st.game, phase).says[action][0] != "bid"

    @staticmethod
    def evidence(st, phase, action: int) -> float:
        """A contract needs one unit, and ``log2(1 + steps)`` more for the steps of the ladder of ranks it stands
        above the lowest contract played by sides (:func:`ladder_steps`; a contract each plays for himself is
        where passing leads, not a bid, so the lowest contract played by sides needs one unit): a contract a step
        up two, two steps up 2.6, five steps up 3.6 — a bolder contract must show more, but a long ladder does
        not put its top out of reach (at one unit a step, a contract five steps up was bid only by a hand that
        won nine times in ten); a doubling two, and one more for each
        step said before it on its item (the first doubling two, the next three, the fourth five), as a strain auction's
        double needs two: a doubling risks the other side's answer, so it is made on a clear edge only."""
        name = st.action_to_string(action)
        table = _table(st.game, phase)
        if name in table.steps:
            return 1.0 + math.log2(1 + table.steps[name])
        if name == phase.pass_word:
            return 1.0
        kind, item, _ = Auction.meaning(st, phase, name)
        return 2.0 + st.auction.levels.get(item, 0) if kind == "double" else 1.0

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        who = st.game.seat_name(st.current)
        contract = st.game.definition.contracts.get(name)
        legal = ", ".join(Auction.options(st, phase, st.current))
        if contract is not None and contract.allow is not None and not contract.allow.fn(st, st.current):
            return Diagnostic("E506", f"{who} may not bid {name}: the condition `{contract.allow.text}` does not "
                              "hold", contract.allow.span, f"legal now: {legal}")
        if contract is not None:
            return Diagnostic("E507", f"{who} may not bid {name}: it does not outrank {st.contract}", contract.span,
                              f"legal now: {legal}")
        return Diagnostic("E508", f"{who} may not say '{name}' now", phase.span, f"legal now: {legal}")

    @staticmethod
    def observe(st, player: int) -> dict:
        """Everything said in the auction is public."""
        if st.contract is None:
            return {}
        seat = st.game.seat_name
        return {"announcements": [(seat(s), symbol(st, action)) for s, action in st.auction.log]}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        from rulelang.interpreter.words import contract_title, item_title
        game = st.game
        if name == step.pass_word:
            return f"passes ({name})"
        if name in game.definition.contracts:
            return f"bids {contract_title(game, name)}"
        for item in game.definition.items:
            if name == announcement(item, step.for_word):
                return f"announces {item_title(game, item)} ({step.for_word})"
            if name == announcement(item, step.against_word):
                return f"announces {item_title(game, item)} against the declarers ({step.against_word})"
            for word in step.doubling:
                if name == doubling(word, item):
                    return f"says {word.capitalize()} on {item_title(game, item)}"
        return f"says {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        words = ", ".join(str(d) for d in body.get("doubling") or [])
        bids, announcements = body.get("bids", True) is not False, body.get("announcements", True) is not False
        keys = ("order", "passing", "hold", "last", "all_pass", "ends")
        rules = bidding.BiddingRules(**{key: str(body[key]) for key in keys if body.get(key) is not None})
        first = ", and the first speaker must bid" if rules.all_pass is None else ""
        lines = [f"Auction, starting with {ctx.say(body.get('from'))}: players bid the contracts below (a bid must "
                 f"outrank the one before){first}" if bids else
                 f"Announcements, starting with {ctx.say(body.get('from'))}, on the contract the bidding settled"]
        if announcements and any((spec or {}).get("announce") for spec in (ctx.data.get("items") or {}).values()):
            lines.append(f"{'Then p' if bids else 'P'}layers announce items for ({body.get('for', 'for')}) or "
                         f"against ({body.get('against', 'against')}) the declaring side")
        if words and announcements:
            lines.append(f"Each announcement can be doubled in turn: {words}, each step twice the value")
        if not announcements:
            lines.append("Nothing is announced or doubled here: only bids and passes")
        end = "every player has spoken once (of two equal bids the earlier stands)" if body.get("once") else \
            "every player in a row has passed" if rules.passing == "again" else "only the standing bidder is left"
        lines.append(f"'{body.get('pass', 'pass')}' passes; the {'auction' if bids else 'round'} ends when {end}")
        lines += bidding.english(rules) if bids else []
        return lines + rest(body, {"from", "pass", "for", "against", "doubling", "when", "once", "bids",
                                   "announcements", "order", "passing", "hold", "last", "all_pass", "ends"})


@check("auction_words")
def auction_words(doc, game) -> Iterator[Diagnostic]:
    """The auction's words must differ from each other and from the contracts, or rounds may never end (G420)."""
    for i, phase in enumerate(game.phases):
        if getattr(phase, "kind", None) != "auction":
            continue
        body = ("phases", i, "auction")
        words = [("pass", phase.pass_word), ("for", phase.for_word), ("against", phase.against_word)]
        words += [(("doubling", j), w) for j, w in enumerate(phase.doubling)]
        for key, word in words:
            clash = _clash(game, words, key, word, body)
            if clash:
                what, where = clash
                yield Diagnostic("G420", f"the auction word '{word}' is also {what}, so the two cannot be told apart "
                                 "and the rounds may never end", doc.span_of(body + _as_path(key)),
                                 "give every word of the auction its own name",
                                 notes=[(f"{what} is here", doc.span_of(where))])


def _clash(game, words: list, key, word: str, body: tuple) -> tuple[str, tuple] | None:
    """What else the word ``word`` (at ``key``) names, and where that is written."""
    if key == "pass" and word in game.contracts:
        return f"the name of the contract '{word}'", ("contracts", word)
    earlier = [k for k, w in words[:words.index((key, word))] if w == word]
    if earlier:
        other = earlier[0]
        return f"the {'doubling word' if isinstance(other, tuple) else f'{other!r} word'}", body + _as_path(other)
    return None


def _as_path(key) -> tuple:
    return key if isinstance(key, tuple) else (key,)


CONSTRUCT = Auction
