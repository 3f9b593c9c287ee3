"""What happens as a trick is finished: cards kept by the seats that played them (``kept``), and trick
play that ends early (``ends_when``).

``kept: CARDS`` (trick rules of a ``tricks`` phase or of a contract): a card of this set that falls in a
trick goes to the won pile of the seat that played it, not to the trick's winner; the trick still
counts as taken by its winner. The set is asked as the trick is given, with the trick still on the
table (``tricks_played`` counts the tricks before it). French Tarot's Excuse:
``kept: "if tricks_played < 17 then {'Excuse'} else none"`` (it goes to the winner of the last trick).

``gift: INT`` (trick rules): once a trick is given, this many cards of the talon (at most what it holds)
are drawn by chance, face up, into the won pile of its winner, who then leads (OpenSpiel's Klop gives
each of the first six tricks' winners a talon card: ``gift: "if tricks_played <= 6 then 1 else 0"``).
An explicit deal (``ScriptedDeal``) gives them in the order its talon lists.

``ends_when``, a condition asked after every finished trick:

YAML ``tricks: {…, ends_when: "tricks(declarers) > 0"}`` in the phase, or in a contract's own
trick rules (``contracts: {bettel: {tricks: {ends_when: …}}}``), where it holds while that
contract is played. Trick play ends after the first trick at which the condition holds: the
cards still in hand are never played, and the deal goes on to the phases after trick play
(OpenSpiel's Tarok ends a Beggar at the first trick its declarer takes, a Valat at the first
trick he loses). The condition reads the deal as it stands once the trick has gone to its
winner (``tricks(…)``, ``tricks_played``, ``won(…)``); ``player`` is not bound.
"""

from __future__ import annotations

from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.validators.registry import check

ENDS_WHEN = {'description': 'A condition asked after every finished trick: the first trick at which it holds is '
                            'the last played (the cards still held are not played), e.g. "tricks(declarers) > 0" '
                            'for a Bettel.',
             '$ref': '#/$defs/boolExpr'}
"""The schema of the ``ends_when`` key of trick rules (a ``tricks`` phase, a contract's ``tricks``)."""


KEPT = {'description': 'Cards that go to the won pile of the seat that played them rather than to the '
                       "trick's winner (French Tarot's Excuse); asked with the trick still on the table.",
        '$ref': '#/$defs/cardsExpr'}
"""The schema of the ``kept`` key of trick rules."""


def kept_cards(st, rules) -> int:
    """The cards of the trick on the table that go back to the seats that played them (``kept``)."""
    return rules.kept.fn(st, None) & st.tricks.trick_mask if rules.kept is not None else 0


GIFT = {'description': 'How many cards of the talon go to the winner of each trick as it is given (asked once '
                       'the trick is his): drawn by chance, seen by everyone, into his won pile (Klop: "if '
                       'contract == klop and tricks_played <= 6 then 1 else 0").',
        '$ref': '#/$defs/intExpr'}
"""The schema of the ``gift`` key of trick rules."""


def gift_count(st, rules) -> int:
    """How many talon cards the winner of the trick just given receives (``gift``; at most the talon)."""
    if rules.gift is None:
        return 0
    return max(0, min(int(rules.gift.fn(st, None)), bin(st.talon).count("1")))


def receive_gift(st, cards: int) -> int:
    """Move ``cards`` from the talon into the won pile of the last trick's winner; that winner."""
    winner = st.tricks.trick_winners[-1][0]
    st.talon ^= cards
    st.won[winner] |= cards
    return winner


def ends_early(st, rules) -> bool:
    """Whether trick play ends now, after a finished trick, by the ``ends_when`` of the rules in force."""
    return rules.ends_when is not None and bool(rules.ends_when.fn(st, None))


@check("trick_end_can_wait")
def trick_end_can_wait(doc, game) -> Iterator[Diagnostic]:
    """An ``ends_when`` that always holds ends trick play after its first trick (W623)."""
    from rulelang.validators.probe import is_constant
    for phase in game.phases:
        if getattr(phase, "kind", None) != "tricks":
            continue
        for rules in (phase.rules, *phase.by_contract.values()):
            if rules.ends_when is not None and is_constant(rules.ends_when, True):
                yield Diagnostic("W623", f"`ends_when: {rules.ends_when.text}` always holds, so trick play ends after "
                                 "the first trick", rules.ends_when.span,
                                 "give a condition on the tricks taken, e.g. \"tricks(declarers) > 0\", or leave "
                                 "`ends_when` out", severity=WARNING)
