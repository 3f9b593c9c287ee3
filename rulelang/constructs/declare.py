"""``declare``: after the talon, the winner of a ``strain_auction`` names the contract he plays — his bid or
a higher level bid of the same ladder.

YAML ``- declare: {when: "declarer != none"}``; DSL in the generic form. The ladder is that of the
``strain_auction`` before this phase. The declarer (``by``, default ``declarer``) names one level bid at or
above the bid that won the auction; the deal variables ``level`` and the trump variable take the named
contract, which everyone hears. A named contract won in the auction is played as bid: nobody is asked.
Between the auction and this phase the declarer may take the talon and discard, so that he names his
contract knowing the whole of his hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, Lines, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import SEAT
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.constructs.strain_auction import ladder_of, suits_of


@dataclass
class DeclarePhase(PhaseBase):
    """Who declares (``by``), and the ladder, strain suits and trump variable of the auction before."""

    by: Rule | None = None
    ladder: list = None
    suits: list = None
    var: str = "trump"
    kind: str = "declare"


def _auction_before(c, index: int) -> dict | None:
    """The body of the last ``strain_auction`` phase before phase ``index``, or None."""
    found = None
    for i, kind, body in c.phase_entries():
        if i >= index:
            break
        if kind == "strain_auction":
            found = body
    return found


class Declare(Construct):
    """The auction's winner names the contract he plays, at least as high as his bid."""

    kind = "declare"
    batch_kernel = "rulelang.batch.auction:DECLARE"
    keeps_hands = True
    writes = ("strain_auction",)      # the auction's slice: the contract named is the standing call
    order = 60
    summary = "the winner of the auction names his contract, at least his bid"
    example = {"when": "declarer != none"}
    schema = {'entry': 'The winner of the auction names the contract he plays: his bid or higher.',
              'defs': {'declarePhase': {
                  'title': 'a mapping with by and when',
                  'description': 'After the talon, the winner of the strain_auction before names the contract '
                                 'he plays: his bid or a higher level bid of the same ladder.',
                  'type': 'object',
                  'additionalProperties': False,
                  'properties': {'by': {'description': 'Who declares (default declarer).',
                                        '$ref': '#/$defs/seatExpr'},
                                 'when': WHEN}}}}
    codes = ("R379", "E526")
    words = "declaration"

    @staticmethod
    def compile(c, path, body):
        auction = _auction_before(c, path[1])
        if auction is None:
            c.error("R379", "`declare` names a contract of the ladder of a `strain_auction`, and none comes "
                    "before it", path, "put the `strain_auction` first, then the talon, then `declare`")
            return DeclarePhase(c.rule(path + ("by",), SEAT) if "by" in body else None, [], [])
        return DeclarePhase(c.rule(path + ("by",), SEAT) if "by" in body else None, ladder_of(auction),
                            suits_of(c, auction), str(auction.get("var", "trump")))

    @staticmethod
    def dump(phase) -> str:
        return f" by `{phase.by.text if phase.by is not None else 'declarer'}`"

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.strain_auction
        seat = phase.by.fn(st, None) if phase.by is not None else st.declarer
        if seat is None or seat < 0 or part.rung < 0 or phase.ladder[part.rung].contract is not None:
            return False
        st.current = seat
        return True

    @staticmethod
    def allowed(st, phase) -> list[str]:
        """The contracts the declarer may name: his bid and every level bid above it."""
        rung = st.strain_auction.rung
        return [call.name for call in phase.ladder[rung:] if call.contract is None]

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[name] for name in Declare.allowed(st, phase))

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, name = st.strain_auction, symbol(st, action)
        st.put("decisions", st.current, name)
        part.rung = next(i for i, call in enumerate(phase.ladder) if call.name == name)
        call = phase.ladder[part.rung]
        part.level, part.strain = call.level, call.strain
        part.declared = name
        suit = phase.suits[call.strain] if call.strain >= 0 else -1
        st.vars = {**st.vars, phase.var: suit, "level": call.level}
        return True

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        bid = phase.ladder[st.strain_auction.rung].name
        if name not in [call.name for call in phase.ladder]:
            return Construct.explain(st, phase, action)
        return Diagnostic("E526", f"{st.game.seat_name(st.current)} may not declare {name}: he won the auction "
                          f"with {bid}, and the contract he plays is that bid or a higher one", phase.span,
                          f"legal now: {', '.join(Declare.allowed(st, phase)[:8])}, …")

    @staticmethod
    def observe(st, player: int) -> dict:
        declared = st.strain_auction.declared
        return {"declared": declared} if declared else {}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"declares {name}"

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": step.kind, "action": name, "words": "declares"})

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        who = ctx.say(body["by"]) if body.get("by") is not None else "the declarer"
        return [f"{who[0].upper()}{who[1:]} names the contract he plays: the bid that won the auction or a higher "
                "bid of its ladder (a misère or other named contract is played as bid)"] + \
            rest(body, {"by", "when"})


CONSTRUCT = Declare
