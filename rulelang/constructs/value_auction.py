"""``value_auction``: bidding by numbers in duels — a speaker names values, a listener holds or passes.

YAML ``- value_auction: {from: forehand, values: [18, 20, 22, 23, 24, 27, 30], var: bid_value}``;
DSL ``value_auction from forehand values [18, 20, 22] into bid_value``. The seats still in,
from ``from`` in the direction of play, are the listener first and then the speakers in
turn (forehand listens, middlehand says values to him, rearhand then says to the survivor).
The speaker names a value higher than the standing one or passes; the listener holds it
(``hold``) or passes. Who passes is out for the deal; the survivor of a duel listens to the
next speaker. When the speakers are through, the survivor is the declarer (alone against
the rest) and ``var`` holds the value he bid or held. If nobody named a value, the survivor
may still name the lowest or pass; when he passes too, ``declarer`` stays none (all passed:
a later phase with ``when: "declarer == none"`` throws the deal in), and with
``all_pass: ramsch`` the contract ``ramsch`` is played with nobody declaring.
Everyone hears every word. The moves are the numbers (``18``, ``20`` …), ``hold`` and ``pass``.

It is the bidding model's auction (:mod:`rulelang.constructs.bidding`) with numbers for bids and the rules
``order: duels``, ``passing: final``, ``hold: senior`` and ``last: stands``: who speaks next and when the
bidding ends are the model's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.constructs import bidding
from rulelang.constructs.bidding import BiddingRules
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import INT, SEAT
from rulelang.compile.ir import PhaseBase, Rule

MAX_VALUES = 200
"""The most values a ``value_auction`` may list: every value is an action of its own."""

MAX_VALUE = 100_000
"""The highest value that may be bid."""

_RANGE_WORDS = {"from": "The lowest value.", "to": "The highest value (reached if the steps land on it).",
                "step": "How much each value is above the one before."}


@dataclass
class ValueAuctionPhase(PhaseBase):
    """The first listener, the values (ascending), the words for holding and passing, the variable."""

    start: Rule | None = None
    values: list[int] = field(default_factory=list)
    var: str = "bid_value"
    hold_word: str = "hold"
    pass_word: str = "pass"
    all_pass: str | None = None
    rules: BiddingRules = field(default_factory=lambda: BiddingRules(order="duels", passing="final", hold="senior",
                                                                     last="stands"))
    kind: str = "value_auction"


class ValueAuctionState(DealPart):
    """The bidding model's slice (the seats in order, ``pos`` the place of the last to speak, the seats out,
    everyone, each seat's seniority, the last caller), the standing value (0: none) and who named or held it,
    the seats that passed, and everything said (seat, word). ``order`` and ``seniority`` are replaced, never
    changed in place, so a copy shares them."""

    copied = ("passed", "said")

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = self.out = self.everyone = 0
        self.seniority: list[int] = []
        self.last_caller = -1
        self.value = 0
        self.holder = -1
        self.passed: list[int] = []
        self.said: list[tuple[int, str]] = []


def _dsl(b, meta, children):
    """``value_auction [from SEAT] values [..] [into NAME] [when COND]``."""
    start, values, var, when = children
    return b.phase("value_auction", meta, [("from", start), ("values", values), ("var", var), ("when", when)])


def _values(body: dict) -> list[int]:
    """The values of ``values``: a list, or a range ``{from: LOW, to: HIGH, step: N}`` (at most MAX_VALUES + 1
    of them are made, so that a range too long is refused by ``limits`` without being built)."""
    values = body.get("values")
    if isinstance(values, dict):
        low, high, step = (values.get(key) for key in ("from", "to", "step"))
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (low, high, step)):
            return []
        return list(range(low, min(high, low + step * MAX_VALUES) + 1, step))
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)] if isinstance(values, list) else []


def _words(body: dict) -> tuple[str, str]:
    return str(body.get("hold", "hold")), str(body.get("pass", "pass"))


class ValueAuction(Construct):
    """Duels of a speaker naming values and a listener holding or passing; the survivor declares."""

    kind = "value_auction"
    names_declarer = True
    batch_kernel = "rulelang.batch.auction:VALUE_AUCTION"
    keeps_hands = True
    order = 56
    summary = "bidding by numbers in duels: a speaker says values, a listener holds or passes"
    example = {"from": "forehand", "values": [18, 20, 22, 23, 24], "var": "bid_value"}
    schema = {'entry': 'Bidding by numbers in duels: a speaker names values, a listener holds or passes.',
              'defs': {'valueAuctionPhase': {
                  'title': 'a mapping with from, values and var',
                  'description': 'The seats from `from` are the listener and then the speakers in turn; a speaker '
                                 'names a higher value or passes, the listener holds or passes; the survivor '
                                 'declares at the last value.',
                  'type': 'object',
                  'additionalProperties': False,
                  'required': ['from', 'values'],
                  'properties': {'from': {'description': 'The first listener (e.g. forehand); the seats after '
                                                         'him speak in turn.',
                                          '$ref': '#/$defs/seatExpr'},
                                 'values': {'description': 'The values that may be named, lowest first: a list, '
                                                           'e.g. [18, 20, 22, 23, 24], or numbers with a step, '
                                                           'e.g. {from: 100, to: 300, step: 10}.',
                                            'oneOf': [{'type': 'array', 'minItems': 1, 'maxItems': MAX_VALUES,
                                                       'items': {'type': 'integer', 'minimum': 1,
                                                                 'maximum': MAX_VALUE}},
                                                      {'type': 'object', 'additionalProperties': False,
                                                       'required': ['from', 'to', 'step'],
                                                       'properties': {key: {'description': text,
                                                                            'type': 'integer', 'minimum': 1,
                                                                            'maximum': MAX_VALUE}
                                                                      for key, text in _RANGE_WORDS.items()}}]},
                                 'var': {'description': 'The deal variable that holds the value the declarer '
                                                        'bid (default bid_value).',
                                         '$ref': '#/$defs/name'},
                                 'hold': {'description': 'The word for holding a value (default hold).',
                                          '$ref': '#/$defs/name'},
                                 'pass': {'description': 'The word for passing (default pass).',
                                          '$ref': '#/$defs/name'},
                                 'all_pass': {'description': 'The contract played when all pass (e.g. '
                                                             'ramsch), with nobody declaring; without it the '
                                                             'deal is thrown in.',
                                              '$ref': '#/$defs/name'},
                                 'when': WHEN}}}}
    codes = ("R370", "E518")
    dsl = {"value_auction": _dsl}
    part = ValueAuctionState
    words = "bid"

    @staticmethod
    def limits(body: dict):
        values = body.get("values")
        if isinstance(values, dict) and len(_values(body)) > MAX_VALUES:
            yield (("values",), f"the values from {values.get('from')} to {values.get('to')} by "
                   f"{values.get('step')} are more than {MAX_VALUES}", "take a larger step or a shorter range")
        elif isinstance(values, dict) and all(isinstance(values.get(k), int) for k in ("from", "to", "step")) \
                and not _values(body):
            yield (("values",), "the range of values is empty: `to` is below `from`", "write the lowest value as `from`")

    @staticmethod
    def symbols(c, body) -> list[str]:
        return list(_words(body)) + [str(v) for v in _values(body)]

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var", "bid_value")): INT}

    @staticmethod
    def compile(c, path, body):
        values = _values(body)
        hold, pass_word = _words(body)
        if values != sorted(set(values)):
            c.error("R370", "the values of a value_auction must rise: each value once, lowest first",
                    path + ("values",), "list the values in ascending order, e.g. [18, 20, 22, 23, 24]")
        if hold == pass_word:
            c.error("R370", f"the words for holding and passing are both '{hold}'", path,
                    "give `hold` and `pass` different words")
        all_pass = body.get("all_pass")
        if all_pass is not None and str(all_pass) not in (c.data.get("contracts") or {}):
            c.error("R370", f"all passing plays the contract '{all_pass}', which is not under `contracts`",
                    path + ("all_pass",), "name a contract of the game, or leave `all_pass` out to throw the deal in")
        return ValueAuctionPhase(c.rule(path + ("from",), SEAT), values, str(body.get("var", "bid_value")),
                                 hold, pass_word, None if all_pass is None else str(all_pass))

    @staticmethod
    def dump(phase) -> str:
        shown = ", ".join(str(v) for v in phase.values[:6]) + (", …" if len(phase.values) > 6 else "")
        return f" from `{phase.start.text}` values {shown} into {phase.var}"

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.value_auction
        part.order = seats_from(st, phase.start.fn(st, None), st.active)
        part.everyone = sum(1 << seat for seat in part.order)
        part.seniority = [part.order.index(seat) if seat in part.order else len(part.order)
                          for seat in range(st.game.num_players)]
        part.out, part.last_caller = 0, -1
        part.value, part.holder, part.passed, part.said = 0, -1, [], []
        st.put("vars", phase.var, 0)
        st.current = bidding.first_speaker(phase.rules, part)
        part.pos = part.order.index(st.current)
        return True

    @staticmethod
    def allowed(st, phase, seat: int) -> list[str]:
        """The words ``seat`` may say now."""
        part = st.value_auction
        listener, speaker = bidding.duel(part)
        higher = [str(v) for v in phase.values if v > part.value]
        if speaker < 0:                           # the survivor, nobody having named a value
            return [phase.pass_word, str(phase.values[0])]
        if seat == speaker:
            return [phase.pass_word] + higher
        return [phase.pass_word, phase.hold_word]

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[w] for w in ValueAuction.allowed(st, phase, st.current))

    @staticmethod
    def worth_judging(st, phase, legal: list[int]) -> list[int]:
        """The words and the lowest value only: a higher value wins nothing a lower one would not, and
        bidding goes up a step at a time."""
        names = {action: symbol(st, action) for action in legal}
        numbers = [a for a in legal if names[a] not in (phase.hold_word, phase.pass_word)]
        words = [a for a in legal if a not in numbers]
        return words + ([min(numbers, key=lambda a: int(names[a]))] if numbers else [])

    @staticmethod
    def passed_at_once(st) -> list[int]:
        """The seats whose only word was their pass."""
        part = st.value_auction
        return [seat for seat in part.passed if sum(1 for who, _ in part.said if who == seat) == 1]

    @staticmethod
    def evidence(st, phase, action: int) -> float:
        """None: the option with the better mean over the same worlds is taken. Only passing and one word or
        the lowest raise are ever weighed against each other, so no luckiest of many bids wins by chance,
        and a raise already pays for overbidding in the playouts that judge it; a margin on top passed hands
        whose bid pays on average (benchmarks/RESULTS.md measures a quarter of the usual one against none)."""
        return 0.0

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, seat, word = st.value_auction, st.current, symbol(st, action)
        part.said.append((seat, word))
        st.put("decisions", seat, word)
        passed = word == phase.pass_word
        if passed:
            part.passed.append(seat)
        elif word != phase.hold_word:
            part.value, part.holder = int(word), seat
        else:
            part.holder = seat
        outcome = bidding.after_word(st, phase.rules, part, seat, passed, part.holder if part.value else -1)
        if outcome == "all_passed":
            st.contract = phase.all_pass
            return True
        if outcome == "won":
            return ValueAuction._close(st, phase, part, part.holder)
        st.current = bidding.next_speaker(st, phase.rules, part, part.holder if part.value else -1)
        return False

    @staticmethod
    def _close(st, phase, part, seat: int) -> bool:
        st.declarer, st.side_mask, st.revealed = seat, 1 << seat, True
        st.put("vars", phase.var, part.value)
        return True

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name, part = st.action_to_string(action), st.value_auction
        who = st.game.seat_name(st.current)
        words = ValueAuction.allowed(st, phase, st.current)
        legal = ", ".join(words[:8]) + (", …" if len(words) > 8 else "")
        listener, speaker = bidding.duel(part)
        if name == phase.hold_word:
            why = f"only the listener holds, and {who} is saying to {st.game.seat_name(listener)}"
        elif name.isdigit() and int(name) in phase.values:
            why = f"a value must be higher than {part.value}" if st.current == speaker or speaker < 0 \
                else f"{who} listens: he holds or passes"
        else:
            return Construct.explain(st, phase, action)
        return Diagnostic("E518", f"{who} may not say {name}: {why}", phase.span, f"legal now: {legal}")

    @staticmethod
    def observe(st, player: int) -> dict:
        part, seat = st.value_auction, st.game.seat_name
        if not part.said:
            return {}
        return {"value_bidding": {"said": [(seat(s), w) for s, w in part.said], "value": part.value,
                                  "passed": [seat(s) for s in part.passed]}}

    @staticmethod
    def deal_result(st) -> dict:
        part = st.value_auction
        return {"value_bid": part.value} if part.value else {}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        if name == step.pass_word:
            return f"passes ({name})"
        if name == step.hold_word:
            return f"holds ({name})"
        return f"says {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        values = _values(body)
        hold, pass_word = _words(body)
        shown = ", ".join(str(v) for v in values[:8]) + (", …" if len(values) > 8 else "")
        return [f"Bidding by numbers ({shown}): {ctx.say(body.get('from'))} listens first and the players after "
                f"him speak in turn; the speaker names a higher value or passes ('{pass_word}'), the listener holds "
                f"it ('{hold}') or passes; who passes is out, and the survivor listens to the next speaker",
                f"The last player left is the declarer at the value he bid or held "
                f"({body.get('var', 'bid_value')}); if nobody named a value he may name {values[0] if values else '?'} "
                "or pass, and if he passes all have passed" +
                (f": then {body['all_pass']} is played, with nobody declaring" if body.get("all_pass") else
                 " and the deal is thrown in")] + \
            rest(body, {"from", "values", "var", "hold", "pass", "all_pass", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text, scalars
        if not isinstance(value, dict) or not set(value) <= {"from", "values", "var", "when"}:
            return None

        def listed(source):
            texts = scalars(source)
            return f"[{', '.join(texts)}]" if texts is not None else None
        text, used = head_parts(value, [("from", "from", expr_text), ("values", "values", listed),
                                        ("var", "into", scalar_text), WHEN_PART])
        return [f"{pad}value_auction{text}"] if used == set(value) else None


CONSTRUCT = ValueAuction
