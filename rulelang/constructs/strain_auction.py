"""``strain_auction``: an auction of levels and strains (1♣ … 7NT) with double, redouble and a pass-out.

YAML ``- strain_auction: {from: dealer, levels: 7, strains: [clubs, diamonds, hearts, spades, notrump]}``;
DSL ``strain_auction from dealer levels 7 strains [clubs, diamonds, hearts, spades, notrump]``.
From ``from`` round the table, each seat passes, bids a level and a strain above the last
bid (``1clubs`` … ``7notrump``: a higher level, or the same level in a later strain),
doubles the last bid if an opponent made it and it is not doubled yet, or redoubles an
opponent's double of its own side's bid. Four passes at the start pass the deal out
(``declarer`` stays none); otherwise three passes after a bid end the auction. Then the
deal variables ``level`` and ``doubling`` (0, 1 doubled, 2 redoubled) hold the contract,
``var`` (default ``trump``) the strain's suit (none for a strain that is no suit), and the
declarer is the player of the declaring side who first named that strain; with ``teams``
his team are the declarers. Everyone hears every call.

The bidding rules (docs/language.md, "The bidding model") change this: ``passing: final`` puts a
seat that passed out of the bidding, and the auction ends when only the standing bidder is left;
``all_pass`` is ``passed_out`` (the default, as above), ``redeal`` (the same dealer deals again) or
the name of a contract played with nobody declaring (``contract`` holds it: raspasy). ``levels: [6,
10]`` bids from six to ten; ``doubling: false`` leaves out double and redouble; ``declarer: bidder``
makes the last bidder the declarer; ``contracts`` slots named contracts into the ladder
(:mod:`rulelang.constructs.strain_ladder`), and a named contract won sets ``contract`` to its name
(``level`` 0, no trumps). Five Hundred: ``{from: forehand, levels: [6, 10], strains: [spades, clubs,
diamonds, hearts, notrump], doubling: false, passing: final, all_pass: redeal, declarer: bidder,
contracts: {misere: {after: 8spades, over: 7spades}, open_misere: {after: 10diamonds}}}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.constructs import bidding, strain_ladder
from rulelang.constructs.bidding import BiddingRules
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.constructs.strain_ladder import Call
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import INT, SEAT, SUIT
from rulelang.compile.ir import PhaseBase, Rule

MAX_LEVELS = 13
ALL_PASS_WORDS = ("passed_out", "redeal")
"""The bidding model's ``all_pass`` words a strain auction takes (``forced`` has no meaning in it)."""


@dataclass
class StrainAuctionPhase(PhaseBase):
    """The auction's first caller, its levels and strains (low to high), words, the trump variable, the
    ladder of calls (level bids and named contracts) and the bidding rules."""

    start: Rule | None = None
    levels: int = 7
    strains: list = None
    suits: list = None
    var: str = "trump"
    words: tuple = ("pass", "double", "redouble")
    low: int = 1
    ladder: list = None
    rules: BiddingRules = field(default_factory=lambda: BiddingRules(last="stands", all_pass="passed_out"))
    declarer: str = "first_named"
    doubles: bool = True
    kind: str = "strain_auction"

    @property
    def pass_word(self) -> str:
        """The word that passes (the first of ``words``): the quiet option of a player judging by playouts."""
        return self.words[0]

    @property
    def passing(self) -> str:
        """The bidding model's ``passing``: again or final."""
        return self.rules.passing

    @property
    def all_pass(self) -> str:
        """The bidding model's ``all_pass``: passed_out, redeal or a contract's name."""
        return self.rules.all_pass

    @property
    def plain(self) -> bool:
        """True for the auction as Bridge has it: every rule at its default (what the batch engine runs)."""
        return (self.low, self.passing, self.all_pass, self.declarer, self.doubles) == \
            (1, "again", "passed_out", "first_named", True) and all(c.contract is None for c in self.ladder)


class StrainAuctionState(DealPart):
    """The seats in call order, the standing call (its rung of the ladder, level, strain index and
    bidder), the doubling, the seats that passed (``out``: for the deal with ``passing: final``, else since the
    last call other than a pass, made by ``last_caller``), and who of each side first named each strain."""

    copied = ("order", "first_named", "calls")

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.rung = -1
        self.level = 0
        self.strain = -1
        self.bidder = -1
        self.doubling = 0
        self.last_caller = -1
        self.out = 0
        self.everyone = 0
        self.bidders = 0
        self.closed = 0
        self.declared = None
        self.first_named: dict = {}
        self.calls: list[str] = []


def _dsl(b, meta, children):
    """``strain_auction [from SEAT] [levels N] [strains [..]] [when COND]``."""
    start, levels, strains, when = children
    return b.phase("strain_auction", meta, [("from", start), ("levels", levels), ("strains", strains), ("when", when)])


def _bid_names(levels: int, strains: list) -> list[str]:
    """The level bids ``1clubs`` … of an auction of levels 1 to ``levels`` (the batch engine's ladder)."""
    return strain_ladder.level_bids(1, levels, strains)


def _words(body: dict) -> tuple:
    return tuple(str(body.get(key, key)) for key in ("pass", "double", "redouble"))


def ladder_of(body: dict) -> list[Call]:
    """The ladder of a ``strain_auction`` body (what is wrong with it is reported when the phase compiles)."""
    low, high = strain_ladder.level_range(body.get("levels", 7))
    return strain_ladder.build(low, high, [str(s) for s in body.get("strains") or []],
                               dict(body.get("contracts") or {}))[0]


def suits_of(c, body: dict) -> list[int]:
    """Per strain of a ``strain_auction`` body, the suit it makes trumps, or -1 for a strain that is no suit."""
    suits = [c.deck.suit_index(str(s)) for s in body.get("strains") or []]
    return [-1 if s is None else s for s in suits]


def _all_pass_contract(body: dict) -> str | None:
    value = body.get("all_pass")
    return None if value is None or str(value) in ALL_PASS_WORDS else str(value)


_LEVELS_SCHEMA = {'description': 'The levels that may be bid: N (1 to N, default 7) or [lowest, highest], e.g. '
                                 '[6, 10].',
                  'oneOf': [{'type': 'integer', 'minimum': 1, 'maximum': MAX_LEVELS},
                            {'type': 'array', 'minItems': 2, 'maxItems': 2,
                             'items': {'type': 'integer', 'minimum': 1, 'maximum': MAX_LEVELS}}]}
_CALL_SCHEMA = {'description': 'A call of the ladder: a level bid (8spades) or a contract named before.',
                'type': 'string', 'pattern': '^[A-Za-z0-9_]+$', 'maxLength': 64}
_CONTRACTS_SCHEMA = {'description': 'Named contracts slotted into the ladder, in order: each placed right after '
                                    'the call `after` names, and with `over` bid only over that call or a '
                                    'higher one (misère: {after: 8spades, over: 7spades}).',
                     'type': 'object', 'maxProperties': 16,
                     'additionalProperties': {'type': 'object', 'additionalProperties': False,
                                              'required': ['after'],
                                              'properties': {
                                                  'after': _CALL_SCHEMA, 'over': _CALL_SCHEMA,
                                                  'first': {'description': 'true: a seat may bid it only as its '
                                                                           'first bid.', 'type': 'boolean'},
                                                  'last': {'description': 'true: a seat that bids it bids nothing '
                                                                          'after (it can only pass).',
                                                           'type': 'boolean'}}}}
_RULES_SCHEMA = {'passing': {'description': 'again (default): a seat that passed may call again; final: a seat '
                                            'that passed is out, and the auction ends when only the standing '
                                            'bidder is left.',
                             'enum': ['again', 'final']},
                 'all_pass': {'description': 'When every seat passes without a bid: passed_out (default: nobody '
                                             'plays), redeal, or the name of a contract played with nobody '
                                             'declaring.',
                              '$ref': '#/$defs/name'},
                 'declarer': {'description': 'first_named (default): the player of the winning side who first '
                                             'named the strain; bidder: the last bidder.',
                              'enum': ['first_named', 'bidder']},
                 'doubling': {'description': 'false: no double or redouble (default true).', 'type': 'boolean'}}


class StrainAuction(Construct):
    """Calls round the table: a bid of a level and a strain, double, redouble or pass; three passes end it."""

    kind = "strain_auction"
    names_declarer = True
    forms_sides = True
    batch_kernel = "rulelang.batch.auction:STRAIN_AUCTION"
    keeps_hands = True
    order = 59
    summary = "an auction of levels and strains with double and redouble"
    example = {"from": "dealer", "levels": 7, "strains": ["clubs", "diamonds", "hearts", "spades", "notrump"]}
    schema = {'entry': 'An auction of levels and strains, with double, redouble and a pass-out.',
              'defs': {'strainAuctionPhase': {
                  'title': 'a mapping with from, levels and strains',
                  'description': 'Calls round the table: a higher bid of a level and a strain, double, redouble '
                                 'or pass; four passes pass the deal out, three after a bid end the auction.',
                  'type': 'object',
                  'additionalProperties': False,
                  'required': ['from', 'strains'],
                  'properties': {'from': {'description': 'The seat that calls first, e.g. dealer.',
                                          '$ref': '#/$defs/seatExpr'},
                                 'levels': _LEVELS_SCHEMA,
                                 'strains': {'description': 'The strains from low to high: suit names (that suit '
                                                            'is trumps) or other names (no trumps).',
                                             'type': 'array', 'minItems': 1, 'uniqueItems': True,
                                             'items': {'$ref': '#/$defs/name'}},
                                 'contracts': _CONTRACTS_SCHEMA,
                                 **_RULES_SCHEMA,
                                 'var': {'description': 'The deal variable that holds the trump suit (default '
                                                        'trump).',
                                         '$ref': '#/$defs/name'},
                                 'pass': {'description': 'The word for passing (default pass).',
                                          '$ref': '#/$defs/name'},
                                 'double': {'description': 'The word for doubling (default double).',
                                            '$ref': '#/$defs/name'},
                                 'redouble': {'description': 'The word for redoubling (default redouble).',
                                              '$ref': '#/$defs/name'},
                                 'when': WHEN}}}}
    codes = ("R367", "R378", "E517")
    dsl = {"strain_auction": _dsl}
    part = StrainAuctionState
    words = "call"

    @staticmethod
    def symbols(c, body) -> list[str]:
        words = list(_words(body)) if body.get("doubling", True) is not False else [_words(body)[0]]
        return words + [call.name for call in ladder_of(body)]

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var", "trump")): SUIT, "level": INT, "doubling": INT}

    @staticmethod
    def option_names(body) -> list[str]:
        named = [str(name) for name in body.get("contracts") or {}]
        return named + ([_all_pass_contract(body)] if _all_pass_contract(body) else [])

    @staticmethod
    def named_contracts(body) -> list[str]:
        return StrainAuction.option_names(body)

    @staticmethod
    def may_redeal(phase) -> bool:
        return phase.all_pass == "redeal"

    @staticmethod
    def compile(c, path, body):
        strains = [str(s) for s in body.get("strains") or []]
        words = _words(body)
        named = StrainAuction.option_names(body)
        clash = [w for w in words if w in strains + named] + \
            [s for s in strains + named if c.deck.lookup.get(s.casefold()) is not None]
        if clash or len(set(words)) < 3 or len(set(named)) < len(named):
            c.error("R367", f"the auction's words, strains and contracts must all differ from each other and from "
                    f"the cards: {', '.join(clash) or ', '.join(words + tuple(named))}", path,
                    "name each strain, contract and call once")
        low, high = strain_ladder.level_range(body.get("levels", 7))
        ladder, problems = strain_ladder.build(low, high, strains, dict(body.get("contracts") or {}))
        if low > high:
            c.error("R378", f"the levels run from {low} down to {high}", path + ("levels",),
                    f"write the lowest level first: [{high}, {low}]")
        for name, key, problem in problems:
            c.error("R378", problem, path + ("contracts", name, key),
                    f"name a level bid ({ladder[0].name} … {ladder[-1].name}) or a contract named before it" +
                    ("; `over` names a call below the contract" if key == "over" else ""))
        return StrainAuctionPhase(c.rule(path + ("from",), SEAT), high, strains,
                                  suits_of(c, body), str(body.get("var", "trump")), words,
                                  low=low, ladder=ladder,
                                  rules=BiddingRules(passing=str(body.get("passing", "again")), last="stands",
                                                     all_pass=str(body.get("all_pass", "passed_out")),
                                                     ends="last_call"),
                                  declarer=str(body.get("declarer", "first_named")),
                                  doubles=body.get("doubling", True) is not False)

    @staticmethod
    def dump(phase) -> str:
        text = f" from `{phase.start.text}` levels {phase.levels} strains {', '.join(phase.strains)}"
        if phase.plain:
            return text
        named = [f"{c.name} after {phase.ladder[i - 1].name}" for i, c in enumerate(phase.ladder) if c.contract]
        return text + f", levels from {phase.low}, passing {phase.passing}, all pass {phase.all_pass}, " \
            f"declarer {phase.declarer}, doubling {phase.doubles}" + "".join(f", {n}" for n in named)

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.strain_auction
        part.order = seats_from(st, phase.start.fn(st, None), st.active)
        part.pos, part.everyone = 0, sum(1 << seat for seat in part.order)
        st.current = part.order[0]
        return True

    @staticmethod
    def _side(st, seat: int) -> int:
        teams = st.game.definition.teams
        return teams[seat] if teams else 1 << seat

    @staticmethod
    def allowed(st, phase, seat: int) -> list[str]:
        """The calls ``seat`` may make now."""
        part = st.strain_auction
        pass_word, double, redouble = phase.words
        calls = [pass_word]
        if part.rung >= 0 and phase.doubles:
            ours = StrainAuction._side(st, seat) >> part.bidder & 1
            if not ours and part.doubling == 0:
                calls.append(double)
            if ours and part.doubling == 1:
                calls.append(redouble)
        if part.closed >> seat & 1:
            return calls
        bid_before = part.bidders >> seat & 1
        return calls + [call.name for call in phase.ladder[part.rung + 1:]
                        if part.rung >= call.over and not (call.first and bid_before)]

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[c] for c in StrainAuction.allowed(st, phase, st.current))

    @staticmethod
    def worth_judging(st, phase, legal: list[int]) -> list[int]:
        """The words, each named contract, and in each strain its lowest bid: a higher bid in a strain wins
        nothing the lowest would not, and the bidding goes up as the others answer."""
        rungs = {call.name: call for call in phase.ladder}
        lowest: dict[int, int] = {}
        kept = []
        for action in legal:                                  # legal is in id order; the ladder's ids rise
            call = rungs.get(symbol(st, action))
            if call is None or call.contract is not None:
                kept.append(action)
            elif call.strain not in lowest or call.level < rungs[symbol(st, lowest[call.strain])].level:
                lowest[call.strain] = action
        return kept + sorted(lowest.values())

    @staticmethod
    def answers(st, phase, legal: list[int]) -> list[int]:
        """The double of the other side's bid and the redouble of their double: a rollout's seat says it when its
        side comes out ahead, so that a bid is judged as one the other side doubles where it fails — a run from a
        doubled contract to another is doubled again, not played undoubled."""
        ids = st.game.symbol_ids
        return [action for action in legal if action in (ids.get(phase.words[1]), ids.get(phase.words[2]))]

    @staticmethod
    def evidence(st, phase, action: int) -> float:
        """A bid needs one unit more for each level above the ladder's lowest (a higher contract risks more; a
        named contract counts at the level of the bid below it); a double two, a redouble three (the doubling
        chain stops where the evidence runs out)."""
        name = symbol(st, action)
        pass_word, double, redouble = phase.words
        if name == pass_word:
            return 1.0
        if name in (double, redouble):
            return 2.0 if name == double else 3.0
        level = 0
        for call in phase.ladder:                             # a named contract ranks with the bid before it
            level = call.level or level
            if call.name == name:
                return 1.0 + max(0, level - phase.low)
        return 1.0

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, seat, name = st.strain_auction, st.current, symbol(st, action)
        pass_word, double, redouble = phase.words
        part.calls.append(name)
        st.put("decisions", seat, name)
        if name == double:
            part.doubling = 1
        elif name == redouble:
            part.doubling = 2
        elif name != pass_word:
            StrainAuction._bid(st, phase, part, seat, name)
        bidder = part.bidder if part.rung >= 0 else -1
        if bidding.after_word(st, phase.rules, part, seat, name == pass_word, bidder) != "on":
            StrainAuction._close(st, phase, part)
            return True
        st.current = bidding.next_speaker(st, phase.rules, part, -1)
        return False

    @staticmethod
    def _bid(st, phase, part, seat: int, name: str) -> None:
        part.rung = next(i for i, call in enumerate(phase.ladder) if call.name == name)
        call = phase.ladder[part.rung]
        part.level, part.strain, part.doubling = call.level, call.strain, 0
        if call.contract is None:
            part.first_named.setdefault((StrainAuction._side(st, seat), part.strain), seat)
        part.bidder = seat
        part.bidders |= 1 << seat
        if call.last:
            part.closed |= 1 << seat

    @staticmethod
    def _close(st, phase, part) -> None:
        if part.rung < 0:
            if phase.all_pass == "redeal":
                st.redeal = True
            elif phase.all_pass != "passed_out":
                st.contract, st.declarer, st.side_mask = phase.all_pass, -1, 0
            return
        call = phase.ladder[part.rung]
        declarer = part.bidder if phase.declarer == "bidder" or call.contract else \
            part.first_named[(StrainAuction._side(st, part.bidder), part.strain)]
        suit = phase.suits[call.strain] if call.strain >= 0 else -1
        st.vars = {**st.vars, phase.var: suit, "level": call.level, "doubling": part.doubling}
        if call.contract is not None:
            st.contract = call.contract
        st.declarer = declarer
        st.side_mask = StrainAuction._side(st, declarer)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        part, seat = st.strain_auction, st.game.seat_name(st.current)
        legal = ", ".join(StrainAuction.allowed(st, phase, st.current)[:8]) + ", …"
        if name == phase.words[1]:
            why = "there is no bid to double" if not part.level else \
                "the last bid is his own side's" if StrainAuction._side(st, st.current) >> part.bidder & 1 else \
                "it is doubled already"
        elif name == phase.words[2]:
            why = "only a double of his own side's bid can be redoubled"
        elif name in [call.name for call in phase.ladder]:
            call = next(call for call in phase.ladder if call.name == name)
            why = f"{name} may be bid only over {phase.ladder[call.over].name} or higher" \
                if call.over >= 0 and part.rung < call.over else \
                f"after {phase.ladder[part.rung].name} he bids nothing more" if part.closed >> st.current & 1 else \
                f"{name} may only be a player's first bid" if call.first and part.bidders >> st.current & 1 else \
                f"a bid must be higher than {phase.ladder[part.rung].name}"
        else:
            return Construct.explain(st, phase, action)
        return Diagnostic("E517", f"{seat} may not call {name}: {why}", phase.span, f"legal now: {legal}")

    @staticmethod
    def observe(st, player: int) -> dict:
        calls = st.strain_auction.calls
        seen = {"bidding": list(calls)} if calls else {}
        if st.declarer >= 0 and st.contract is None:          # a plain bid won: its declarer is public
            seen["declarer"] = st.game.seat_name(st.declarer)
        return seen

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "passes" if name == step.words[0] else f"calls {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        strains = ", ".join(str(s) for s in body.get("strains") or [])
        pass_word, double, redouble = _words(body)
        low, high = strain_ladder.level_range(body.get("levels", 7))
        doubles = body.get("doubling", True) is not False
        lines = [f"Starting with {ctx.say(body.get('from'))}, each player in turn passes ({pass_word}), bids a level "
                 f"from {low} to {high} and a strain ({strains}, low to high) above the last bid" +
                 (f", doubles ({double}) an opponent's bid or redoubles ({redouble}) an opponent's double"
                  if doubles else "")]
        for name, row in (body.get("contracts") or {}).items():
            row = row or {}
            over = f", and only over {row['over']} or higher" if row.get("over") is not None else ""
            first = ", only as a player's first bid" if row.get("first") else ""
            last = "; a player who bids it bids nothing after" if row.get("last") else ""
            lines.append(f"{name} may be bid too: it ranks just above {row.get('after')}{over}{first}{last}")
        lines += _english_end(body)
        return lines + rest(body, {"from", "levels", "strains", "var", "pass", "double", "redouble", "when",
                                   "contracts", "passing", "all_pass", "declarer", "doubling"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text, scalars
        if not isinstance(value, dict) or not set(value) <= {"from", "levels", "strains", "when"}:
            return None

        def listed(source):
            texts = scalars(source)
            return f"[{', '.join(texts)}]" if texts is not None else None
        text, used = head_parts(value, [("from", "from", expr_text), ("levels", "levels", scalar_text),
                                        ("strains", "strains", listed), WHEN_PART])
        return [f"{pad}strain_auction{text}"] if used == set(value) else None


def _english_end(body: dict) -> Lines:
    """How the auction ends, who declares and what all passes mean, in words."""
    all_pass = str(body.get("all_pass", "passed_out"))
    declarer = "the last bidder is the declarer" if body.get("declarer") == "bidder" else \
        "the declarer is the player of its side who first named its strain"
    if body.get("passing") == "final":
        ending = "A player who passes is out of the bidding; when only the last bidder is left, his bid is the " \
            f"contract, and {declarer}"
    else:
        ending = f"Three passes after a call end the auction: the last bid is the contract, and {declarer}"
    everyone = {"passed_out": "If everyone passes the deal is passed out",
                "redeal": "If everyone passes, the same dealer deals again"}.get(
        all_pass, f"If everyone passes, {all_pass} is played with nobody declaring")
    if (body.get("passing"), all_pass, body.get("declarer")) == (None, "passed_out", None):
        return ["Four passes at the start pass the deal out; three passes after a bid end the auction: the last bid "
                "is the contract, and the declarer is the player of its side who first named its strain"]
    return [everyone, ending]


CONSTRUCT = StrainAuction
