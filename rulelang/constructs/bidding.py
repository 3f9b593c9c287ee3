"""The bidding model: who speaks next in an auction, who may pass or hold, and when it ends.

Six options, each independent of the others, make the auctions of the world's bidding games
(docs/language.md, "The bidding model"):

``order``
    ``round`` (default): the seats speak in turn from the first, in the direction of play. ``duels``:
    the first two seats still in duel — the later (the speaker) bids to the earlier (the listener), who
    answers each bid by holding it or passing, until one passes; the survivor then listens to the next
    seat still in, and so on. Duels need ``passing: final``.
``passing``
    ``again`` (default): a seat that passed speaks again when the turn comes round, and may bid
    then; the passes counted are those since the last word that was not a pass.
    ``final``: a seat that passed is out of the bidding for the deal.
``hold``
    ``none`` (default): a bid must outrank the standing one.
    ``senior``: a seat senior to the standing bidder (nearer forehand, in the direction of play)
    may bid a contract of the same rank and so hold it; the standing bidder must then go higher.
``last``
    When every other seat has passed since the standing bid (``again``) or is out (``final``):
    ``may_raise`` (default) the standing bidder is asked once more and may go higher or pass, and
    his pass ends the auction; ``stands`` the auction ends at once; ``confirms`` he must name the
    final contract, his own bid or higher, which ends the auction.
``ends``
    Whose word the passes answer. ``bid`` (default): the auction ends when every seat but the standing
    bidder has passed (with ``again``: since the last word that was not a pass), so a seat that doubled
    must pass too. ``last_call``: when every seat but the one that spoke the last word that was not a pass
    (a bid, a double, a redouble) has passed since: the passes in a row after any call.
``all_pass``
    What happens when no bid stands and every seat has passed. Left out, the first speaker must
    bid, so it cannot happen. ``redeal``: the cards are thrown in and dealt again by the same
    dealer. ``forced``: the last seat still in, every other having passed, must bid. ``passed_out``:
    nobody declares and nothing is played (the phases that ask ``declarer != none`` are skipped), and the
    next deal is dealt by the next dealer (French Tarot). A contract's name: that contract is played, with
    nobody declaring (a Ramsch, a Leaster, raspasy).

A bid made while every other seat is out (``final``), and a confirmation, end the auction: nobody
is left to answer. With ``again`` and ``may_raise`` the others are asked again after a raise.
The options live in :class:`BiddingRules`, which the ``auction`` phase holds; the functions here read
the auction's slice of the deal state.
"""

from __future__ import annotations

from dataclasses import dataclass

PASSING = ("again", "final")
HOLD = ("none", "senior")
LAST = ("may_raise", "stands", "confirms")
ENDS = ("bid", "last_call")
ORDER = ("round", "duels")
ALL_PASS_WORDS = ("redeal", "forced", "passed_out")

SCHEMA_PROPERTIES = {
    'order': {'description': 'round (default): the seats speak in turn; duels: the next seat still in bids to '
                             'the one before, who holds or passes, and the survivor listens to the next '
                             '(needs passing: final).',
              'enum': list(ORDER)},
    'passing': {'description': 'again (default): a seat that passed may bid when the turn comes round again; '
                               'final: a seat that passed is out of the bidding.',
                'enum': list(PASSING)},
    'hold': {'description': 'senior: a seat nearer forehand than the standing bidder may bid a contract of the '
                            'same rank and hold it (default none: every bid must outrank the one before).',
             'enum': list(HOLD)},
    'last': {'description': 'When every other seat has passed: may_raise (default: the standing bidder may go '
                            'higher or pass), stands (the auction ends), confirms (he names the final contract, '
                            'his bid or higher).',
             'enum': list(LAST)},
    'all_pass': {'description': 'When every seat passes without a bid: redeal, forced (the last seat still in '
                                'must bid), passed_out (nothing is played; the next dealer deals), or the name of '
                                'the contract played with nobody declaring. Left out, the first speaker must bid.',
                 '$ref': '#/$defs/name'},
    'ends': {'description': 'bid (default): the auction ends when every seat but the standing bidder has passed; '
                            'last_call: when every seat but the one that made the last call other than a pass '
                            '(a bid, a double) has passed since.',
             'enum': list(ENDS)},
}


@dataclass
class BiddingRules:
    """The options of :mod:`rulelang.constructs.bidding` for one auction phase."""

    passing: str = "again"
    hold: str = "none"
    last: str = "may_raise"
    all_pass: str | None = None
    ends: str = "bid"
    order: str = "round"

    @property
    def changed(self) -> list[str]:
        """The option keys given a value other than their default, in the document's order."""
        defaults = BiddingRules()
        return [key for key in ("order", "passing", "hold", "last", "all_pass", "ends")
                if getattr(self, key) != getattr(defaults, key)]

    @property
    def all_pass_contract(self) -> str | None:
        """The contract played when every seat passes, if ``all_pass`` names one."""
        return self.all_pass if self.all_pass not in (None, *ALL_PASS_WORDS) else None


def compile_rules(c, path: tuple, body: dict) -> BiddingRules:
    """The :class:`BiddingRules` of an auction body; R376 where they cannot work (the schema has checked the words)."""
    rules = BiddingRules(passing=str(body.get("passing", "again")), hold=str(body.get("hold", "none")),
                         last=str(body.get("last", "may_raise")),
                         all_pass=None if body.get("all_pass") is None else str(body["all_pass"]),
                         ends=str(body.get("ends", "bid")), order=str(body.get("order", "round")))
    if rules.order == "duels" and rules.passing != "final":
        c.error("R376", "in duels a seat that passes has lost its duel: passing must be final",
                path + ("order",), "add `passing: final`, or leave `order` out to bid in turn")
    contracts = c.data.get("contracts") or {}
    if rules.all_pass_contract is not None and rules.all_pass not in contracts:
        c.error("R376", f"when all pass the auction plays the contract '{rules.all_pass}', which is not under "
                "`contracts`", path + ("all_pass",),
                "name a contract of the game, `redeal` to deal again, `passed_out` to play nothing, or `forced` to "
                "make the last seat bid")
    elif rules.all_pass in ALL_PASS_WORDS and rules.all_pass in contracts:
        c.error("R376", f"`all_pass: {rules.all_pass}` could mean the contract '{rules.all_pass}' or the bidding "
                f"rule '{rules.all_pass}'", path + ("all_pass",), "rename the contract")
    if body.get("once"):
        for key in rules.changed:
            if key != "all_pass":
                c.error("R376", f"`{key}` has no meaning in a single round (`once: true`): every seat speaks once",
                        path + (key,), f"leave `{key}` out, or `once` to bid in rounds")
    if body.get("bids", True) is False:
        for key in rules.changed:
            c.error("R376", f"`{key}` is a rule of bidding, and this auction takes no bids (`bids: false`)",
                    path + (key,), f"leave `{key}` out")
    return rules


# ---------------------------------------------------------------------- runtime
def first_speaker(rules: BiddingRules, part) -> int:
    """The seat that speaks first: the first of the order, or in duels the first duel's speaker."""
    if rules.order == "duels":
        listener, speaker = duel(part)
        return speaker if speaker >= 0 else listener
    return part.order[0]


def duel(part) -> tuple[int, int]:
    """The running duel (``order: duels``): its listener and its speaker, the first two seats of the order still
    in; the speaker is -1 when only one seat is left."""
    still = [seat for seat in part.order if not part.out >> seat & 1]
    return (still[0] if still else -1), (still[1] if len(still) > 1 else -1)


def standing_bidder(st, table) -> int:
    """The seat whose bid stands in the running auction, or -1 before any bid."""
    return st.declarer if st.contract in table.ranks else -1


def others_out(part, seat: int) -> bool:
    """True when every seat of the auction but ``seat`` has passed (since the last word, with ``again``)."""
    return part.everyone & ~part.out & ~(1 << seat) == 0


def may_pass(st, rules: BiddingRules, part, seat: int, bidder: int) -> bool:
    """Whether ``seat`` may pass now."""
    if bidder < 0:
        if rules.all_pass is None:
            return False                                  # the first speaker must bid
        return not (rules.all_pass == "forced" and others_out(part, seat))
    return not (rules.last == "confirms" and seat == bidder and others_out(part, seat))


def may_hold(st, rules: BiddingRules, part, seat: int, bidder: int) -> bool:
    """Whether ``seat`` may bid a contract of the standing bid's rank."""
    if bidder < 0:
        return False
    if seat == bidder:
        return rules.last == "confirms" and others_out(part, seat)
    return rules.hold == "senior" and part.seniority[seat] < part.seniority[bidder]


def after_word(st, rules: BiddingRules, part, seat: int, passed: bool, bidder: int) -> str:
    """What follows ``seat``'s word (``bidder``: the standing bidder after it): "on" (the next seat speaks),
    "won" (the standing bid wins) or "all_passed". The passes answer the standing bidder, or with ``ends:
    last_call`` (and ``again``) the seat of the last word that was not a pass (``part.last_caller``)."""
    if not passed:
        part.last_caller = seat
    if passed:
        if seat == bidder and others_out(part, seat):
            return "won"                                  # the standing bidder, asked last, lets his bid stand
        part.out |= 1 << seat
    elif bidder == seat and others_out(part, seat) and (rules.passing == "final" or rules.last == "confirms"):
        return "won"                                      # nobody is left to answer, or he confirmed: the last word
    elif rules.passing == "again":
        part.out = 0
    if bidder < 0:
        return "all_passed" if part.out == part.everyone else "on"
    if rules.ends == "last_call" and rules.passing == "again":
        return "won" if others_out(part, part.last_caller) else "on"
    if others_out(part, bidder) and (rules.last == "stands" or part.out >> bidder & 1):
        return "won"
    return "on"


def next_speaker(st, rules: BiddingRules, part, bidder: int) -> int:
    """The seat that speaks next: the standing bidder when every other seat has passed, else the next seat in
    turn (with ``final``, the next one still in); in duels the other seat of the duel, or after a pass the
    speaker of the next duel (the survivor, when nobody is left to bid to him). ``part.pos`` is the place in
    the order of the seat that spoke last."""
    order = part.order
    if rules.order == "duels":
        listener, speaker = duel(part)
        last = order[part.pos]
        if part.out >> last & 1:                          # a pass: the next duel opens with its speaker
            seat = speaker if speaker >= 0 else listener
        else:
            seat = listener if last == speaker else speaker
        part.pos = order.index(seat)
        return seat
    if bidder >= 0 and others_out(part, bidder):
        part.pos = order.index(bidder)
        return bidder
    for step in range(1, len(order) + 1):
        pos = (part.pos + step) % len(order)
        if rules.passing == "again" or not part.out >> order[pos] & 1:
            part.pos = pos
            return order[pos]
    raise AssertionError("every seat is out of the auction")


def english(rules: BiddingRules) -> list[str]:
    """The bidding rules in words, for ``rulelang explain``."""
    lines = []
    if rules.order == "duels":
        lines.append("The bidding is in duels: the next player still in bids to the one before him, who holds each "
                     "bid or passes, and the survivor listens to the next")
    if rules.passing == "final":
        lines.append("A player who passes is out of the bidding")
    if rules.hold == "senior":
        lines.append("A player nearer forehand than the standing bidder may hold his bid by bidding the same "
                     "rank; the bidder must then go higher")
    last = {"stands": "When every other player has passed, the standing bid wins at once",
            "confirms": "When every other player has passed, the standing bidder names the final contract: "
                        "his bid or a higher one"}.get(rules.last)
    if last:
        lines.append(last)
    if rules.ends == "last_call":
        lines.append("The auction ends when every player but the one who made the last call other than a pass "
                     "has passed since")
    if rules.all_pass == "redeal":
        lines.append("The first speaker may pass; if everyone passes, the same dealer deals again")
    elif rules.all_pass == "passed_out":
        lines.append("The first speaker may pass; if everyone passes, nothing is played and the next dealer deals")
    elif rules.all_pass == "forced":
        lines.append("The first speaker may pass; when everyone else has passed without a bid, the last player "
                     "must bid")
    elif rules.all_pass is not None:
        lines.append(f"The first speaker may pass; if everyone passes, {rules.all_pass} is played with nobody "
                     "declaring")
    return lines
