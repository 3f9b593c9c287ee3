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
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import INT, SEAT, SUIT
from rulelang.compile.ir import PhaseBase, Rule

MAX_LEVELS = 9


@dataclass
class StrainAuctionPhase(PhaseBase):
    """The auction's first caller, its levels and strains (low to high), words, and the trump variable."""

    start: Rule | None = None
    levels: int = 7
    strains: list = None
    suits: list = None
    var: str = "trump"
    words: tuple = ("pass", "double", "redouble")
    kind: str = "strain_auction"


class StrainAuctionState(DealPart):
    """The seats in call order, the last bid (level, strain index, its bidder), the doubling, the passes
    in a row, and who of each side first named each strain."""

    copied = ("order", "first_named", "calls")

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.level = 0
        self.strain = -1
        self.bidder = -1
        self.doubling = 0
        self.passes = 0
        self.first_named: dict = {}
        self.calls: list[str] = []


def _dsl(b, meta, children):
    """``strain_auction [from SEAT] [levels N] [strains [..]] [when COND]``."""
    start, levels, strains, when = children
    return b.phase("strain_auction", meta, [("from", start), ("levels", levels), ("strains", strains), ("when", when)])


def _bid_names(levels: int, strains: list) -> list[str]:
    return [f"{level}{strain}" for level in range(1, levels + 1) for strain in strains]


def _words(body: dict) -> tuple:
    return tuple(str(body.get(key, key)) for key in ("pass", "double", "redouble"))


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
                                 'levels': {'description': 'How many levels may be bid (default 7).',
                                            'type': 'integer', 'minimum': 1, 'maximum': MAX_LEVELS},
                                 'strains': {'description': 'The strains from low to high: suit names (that suit '
                                                            'is trumps) or other names (no trumps).',
                                             'type': 'array', 'minItems': 1, 'uniqueItems': True,
                                             'items': {'$ref': '#/$defs/name'}},
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
    codes = ("R367", "E517")
    dsl = {"strain_auction": _dsl}
    part = StrainAuctionState
    words = "call"

    @staticmethod
    def symbols(c, body) -> list[str]:
        strains = [str(s) for s in body.get("strains") or []]
        return list(_words(body)) + _bid_names(int(body.get("levels", 7)), strains)

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var", "trump")): SUIT, "level": INT, "doubling": INT}

    @staticmethod
    def compile(c, path, body):
        strains = [str(s) for s in body.get("strains") or []]
        words = _words(body)
        clash = [w for w in words if w in strains] + [s for s in strains if c.deck.lookup.get(s.casefold()) is not None]
        if clash or len(set(words)) < 3:
            c.error("R367", f"the auction's words and strains must all differ from each other and from the cards: "
                    f"{', '.join(clash) or ', '.join(words)}", path, "name each strain and call once")
        suits = [c.deck.suit_index(s) for s in strains]
        return StrainAuctionPhase(c.rule(path + ("from",), SEAT), int(body.get("levels", 7)), strains,
                                  [-1 if s is None else s for s in suits], str(body.get("var", "trump")), words)

    @staticmethod
    def dump(phase) -> str:
        return f" from `{phase.start.text}` levels {phase.levels} strains {', '.join(phase.strains)}"

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.strain_auction
        part.order = seats_from(st, phase.start.fn(st, None), st.active)
        part.pos = 0
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
        if part.level:
            ours = StrainAuction._side(st, seat) >> part.bidder & 1
            if not ours and part.doubling == 0:
                calls.append(double)
            if ours and part.doubling == 1:
                calls.append(redouble)
        last = (part.level - 1) * len(phase.strains) + part.strain if part.level else -1
        names = _bid_names(phase.levels, phase.strains)
        return calls + names[last + 1:]

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[c] for c in StrainAuction.allowed(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, seat, name = st.strain_auction, st.current, symbol(st, action)
        pass_word, double, redouble = phase.words
        part.calls.append(name)
        st.put("decisions", seat, name)
        if name == pass_word:
            part.passes += 1
            if part.passes == len(part.order) or part.level and part.passes == len(part.order) - 1:
                StrainAuction._close(st, phase, part)
                return True
        else:
            part.passes = 0
            if name == double:
                part.doubling = 1
            elif name == redouble:
                part.doubling = 2
            else:
                StrainAuction._bid(st, phase, part, seat, name)
        part.pos = (part.pos + 1) % len(part.order)
        st.current = part.order[part.pos]
        return False

    @staticmethod
    def _bid(st, phase, part, seat: int, name: str) -> None:
        index = _bid_names(phase.levels, phase.strains).index(name)
        part.level, part.strain, part.doubling = index // len(phase.strains) + 1, index % len(phase.strains), 0
        key = (StrainAuction._side(st, seat), part.strain)
        part.first_named.setdefault(key, seat)
        part.bidder = seat

    @staticmethod
    def _close(st, phase, part) -> None:
        if not part.level:
            return
        declarer = part.first_named[(StrainAuction._side(st, part.bidder), part.strain)]
        st.vars = {**st.vars, phase.var: phase.suits[part.strain], "level": part.level, "doubling": part.doubling}
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
        elif name in _bid_names(phase.levels, phase.strains):
            why = f"a bid must be higher than {_bid_names(phase.levels, phase.strains)[(part.level - 1) * len(phase.strains) + part.strain]}"
        else:
            return Construct.explain(st, phase, action)
        return Diagnostic("E517", f"{seat} may not call {name}: {why}", phase.span, f"legal now: {legal}")

    @staticmethod
    def observe(st, player: int) -> dict:
        calls = st.strain_auction.calls
        return {"bidding": list(calls)} if calls else {}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "passes" if name == step.words[0] else f"calls {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        strains = ", ".join(str(s) for s in body.get("strains") or [])
        pass_word, double, redouble = _words(body)
        return [f"Starting with {ctx.say(body.get('from'))}, each player in turn passes ({pass_word}), bids a level "
                f"from 1 to {body.get('levels', 7)} and a strain ({strains}, low to high) above the last bid, "
                f"doubles ({double}) an opponent's bid or redoubles ({redouble}) an opponent's double",
                "Four passes at the start pass the deal out; three passes after a bid end the auction: the last bid "
                "is the contract, and the declarer is the player of its side who first named its strain"] + \
            rest(body, {"from", "levels", "strains", "var", "pass", "double", "redouble", "when"})

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


CONSTRUCT = StrainAuction
