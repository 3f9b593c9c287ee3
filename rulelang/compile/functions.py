"""The functions expressions may call, each with its parameter types, result type and code.

A function's ``emit(scope, args)`` gets its arguments compiled (:class:`~rulelang.compile.exprcompile.Compiled`)
and returns the ``ast`` code of the call: a read of the state where that is all it is, a
helper of :mod:`rulelang.compile.coderuntime` with the deck's tables otherwise.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

from rulelang.compile.codegen import PLAYER, STATE, binop, call, literal, name, part_attr, state_attr
from rulelang.compile.values import BOOL, CARD, CARDS, INT, NAME, SCORES, SEAT, SEATS, SUIT


@dataclass(frozen=True)
class FunctionSpec:
    """A callable name: parameter types, result type, and the builder of its code."""

    params: tuple
    result: str
    emit: Callable
    doc: str


def _index(attribute: str) -> Callable:
    """``st.<attribute>[arg]``."""
    def emit(scope, args):
        return ast.Subscript(state_attr(attribute), args[0].code, ast.Load())
    return emit


def _the_player(seats) -> ast.expr | None:
    """The ``pl`` of a set that is just the seat asked about (``{player}``), else None."""
    code = seats.code
    if isinstance(code, ast.Call) and getattr(code.func, "id", None) == "_bit" and \
            isinstance(code.args[0], ast.Name) and code.args[0].id == PLAYER:
        return code.args[0]
    return None


def _per_seats(kind: str, attribute: str) -> Callable:
    """The sum of ``st.<kind>.<attribute>[seat]`` over a set of seats: one read per seat when the set is known."""
    def emit(scope, args):
        (seats,) = args
        player = _the_player(seats)
        if player is not None:
            return ast.Subscript(part_attr(kind, attribute), player, ast.Load())
        if seats.is_const:
            reads = [ast.Subscript(part_attr(kind, attribute), literal(s), ast.Load())
                     for s in range(scope.players) if seats.value >> s & 1]
            return _sum(reads)
        return call("_per_seats", part_attr(kind, attribute), seats.code)
    return emit


def _sum(terms: list) -> ast.expr:
    if not terms:
        return literal(0)
    total = terms[0]
    for term in terms[1:]:
        total = binop(total, ast.Add(), term)
    return total


def _points(scope, args):
    (seats,) = args
    table = scope.table(tuple(scope.points))
    player = _the_player(seats)
    if player is not None:
        return call("_card_points", table, ast.Subscript(state_attr("won"), player, ast.Load()))
    if seats.is_const:
        return _sum([call("_card_points", table, ast.Subscript(state_attr("won"), literal(s), ast.Load()))
                     for s in range(scope.players) if seats.value >> s & 1])
    return call("_points_of", table, state_attr("won"), seats.code)


def _won(scope, args):
    (seats,) = args
    player = _the_player(seats)
    if player is not None:
        return ast.Subscript(state_attr("won"), player, ast.Load())
    return call("_won_by", state_attr("won"), seats.code)


def _card_points_of(scope, args):
    return call("_card_points", scope.table(tuple(scope.points)), args[0].code)


def _builtin(function: str) -> Callable:
    def emit(scope, args):
        return call(function, args[0].code)
    return emit


def _count(scope, args):
    return ast.Call(ast.Attribute(args[0].code, "bit_count", ast.Load()), [], [])


def _around(sign: ast.operator) -> Callable:
    """The seat ``step`` seats on (or back) from the argument."""
    def emit(scope, args):
        return binop(binop(args[0].code, sign, literal(scope.step)), ast.Mod(), literal(scope.players))
    return emit


def _with_table(helper: str, table: Callable) -> Callable:
    """``helper(<table of the deck>, arg)``."""
    def emit(scope, args):
        return call(helper, scope.table(table(scope)), args[0].code)
    return emit


def _of_state(helper: str) -> Callable:
    """``helper(st, arg)``."""
    def emit(scope, args):
        return call(helper, name(STATE), args[0].code)
    return emit


def _trick_points(scope, args):
    return call("_card_points", scope.table(tuple(scope.points)), call("_trick_cards", name(STATE), args[0].code))


def _tricks_worth(scope, args):
    return call("_tricks_worth", name(STATE), scope.table(tuple(scope.points)), args[0].code, args[1].code)


def _announced(scope, args):
    return ast.Compare(args[0].code, [ast.In()], [part_attr("tricks", "calls")])


def _picked(scope, args):
    return call("_picked", name(STATE), args[0].code, args[1].code)


def _dealt_with(scope, args):
    return call("_dealt_with", name(STATE), args[0].code, args[1].code)


def _times_said(scope, args):
    return call("_times_said", name(STATE), args[0].code, args[1].code)


def _scored(scope, args):
    return ast.Compare(args[0].code, [ast.In()], [part_attr("settle", "scored_items")])


def _beats(scope, args):
    return call("_beats", name(STATE), args[0].code, args[1].code, scope.table(tuple(scope.card_suits)))


def _orders(scope) -> tuple:
    """Per card, its place in the deck's order of strength (what ``highest`` compares)."""
    return tuple(order for order, _ in scope.card_order)


def _rank(scope, args):
    suit_of_card = tuple(scope.suit_masks[s] for s in scope.card_suits)
    return call("_rank_in", scope.table(_orders(scope)), args[0].code,
                call("_at", scope.table(suit_of_card), args[0].code))


def _rank_in(scope, args):
    return call("_rank_in", scope.table(_orders(scope)), args[0].code, args[1].code)


FUNCTIONS: dict[str, FunctionSpec] = {
    "tricks": FunctionSpec((SEATS,), INT, _per_seats("tricks", "taken"),
                           "tricks taken this deal by a seat or a set of seats"),
    "points": FunctionSpec((SEATS,), INT, _points, "card points in the tricks taken by a seat or a set of seats"),
    "won": FunctionSpec((SEATS,), CARDS, _won, "the cards in the tricks taken by a seat or a set of seats"),
    "score": FunctionSpec((SEAT,), INT, _index("scores"), "the seat's match score before this deal's scoring"),
    "count": FunctionSpec(((CARDS, SEATS),), INT, _count, "how many cards or seats a set holds"),
    "min": FunctionSpec((SCORES,), INT, _builtin("min"), "the lowest of the scores"),
    "max": FunctionSpec((SCORES,), INT, _builtin("max"), "the highest of the scores"),
    "next": FunctionSpec((SEAT,), SEAT, _around(ast.Add()), "the seat after this one in the direction of play"),
    "prev": FunctionSpec((SEAT,), SEAT, _around(ast.Sub()), "the seat before this one in the direction of play"),
    "suit": FunctionSpec((CARD,), SUIT, _with_table("_suit_of", lambda sc: tuple(sc.card_suits)), "the suit of a card"),
    "abs": FunctionSpec((INT,), INT, _builtin("abs"), "the absolute value of a number"),
    "hand": FunctionSpec((SEAT,), CARDS, _index("hands"), "the cards a seat holds now"),
    "dealt": FunctionSpec((SEAT,), CARDS, _index("dealt"),
                          "the cards a seat was dealt (its hand before any exchange or play)"),
    "highest": FunctionSpec((CARDS,), CARD, _with_table("_highest", lambda sc: tuple(sc.card_order)),
                            "the highest-ranking card of a set (none if empty)"),
    "lowest": FunctionSpec((CARDS,), CARD, _with_table("_lowest", lambda sc: tuple(sc.card_order)),
                           "the lowest-ranking card of a set (none if empty)"),
    "holder": FunctionSpec((CARDS,), SEAT, _of_state("_holder"), "the seat that was dealt every card of the set, or none"),
    "holding": FunctionSpec((CARDS,), SEAT, _of_state("_holding"), "the seat that holds every card of the set now, or none"),
    "played_by": FunctionSpec((CARD,), SEAT, _of_state("_played_by"), "the seat that played a card, in a finished trick or the one on the table, or none"),
    "trick_of": FunctionSpec((CARD,), INT, _of_state("_trick_of"),
                             "the number (from 1) of the trick a card fell in, or 0"),
    "taken_by": FunctionSpec((CARD,), SEAT, _of_state("_taken_by"), "the seat that won the finished trick a card fell in, or none"),
    "winning_card": FunctionSpec((INT,), CARD, _of_state("_winning_card"), "the card that won trick number N"),
    "card_points": FunctionSpec((CARDS,), INT, _card_points_of, "the card points of a set of cards"),
    "trick_cards": FunctionSpec((INT,), CARDS, _of_state("_trick_cards"),
                                "the cards of trick number N once it is finished (none before)"),
    "trick_points": FunctionSpec((INT,), INT, _trick_points,
                                 "the card points of trick number N once it is finished (0 before)"),
    "cards_played": FunctionSpec((SEATS,), CARDS, _of_state("_cards_played"),
                                 "the cards a seat or a set of seats played this deal"),
    "position": FunctionSpec((CARD,), INT, _of_state("_position"),
                             "the place (from 1) of a card in the trick on the table, or 0"),
    "trick_card": FunctionSpec((INT,), CARD, _of_state("_trick_card"),
                               "the N-th card (from 1) played to the trick on the table, or none"),
    "trick_seat": FunctionSpec((INT,), SEAT, _of_state("_trick_seat"),
                               "the seat that played the N-th card (from 1) of the trick on the table, or none"),
    "beats": FunctionSpec((CARD, CARD), BOOL, _beats,
                          "whether card A would take card B in the trick on the table, under the win rules in force "
                          "(B led when no card is on the table)"),
    "rank": FunctionSpec((CARD,), INT, _rank, "the card's place (from 1, the lowest) among the cards of its suit, "
                         "in the deck's order of strength; 0 for none"),
    "rank_in": FunctionSpec((CARD, CARDS), INT, _rank_in,
                            "the card's place (from 1, the lowest) among the cards of a set in the deck's order of "
                            "strength (the trump order: rank_in(c, trumps)); 0 when it is not in the set"),
    "first_trick_won": FunctionSpec((SEATS,), INT, _of_state("_first_trick_won"),
                                    "the number (from 1) of the first trick a seat of the set took, or 0"),
    "tricks_worth": FunctionSpec((SEATS, INT), INT, _tricks_worth,
                                 "how many tricks taken by a seat of the set hold at least N card points"),
    "team": FunctionSpec((SEAT,), SEATS, _with_table("_team_of", lambda sc: sc.teams or
                                                     tuple(1 << s for s in range(sc.players))),
                         "the seats of a seat's fixed team (teams), itself included; the seat alone without teams"),
    "discarded": FunctionSpec((SEATS,), CARDS, _of_state("_discarded"),
                              "the cards a seat or a set of seats discarded face down this deal"),
    "shown": FunctionSpec((SEATS,), CARDS, _of_state("_shown"),
                          "the cards a seat or a set of seats showed to everyone this deal (show), played or not"),
    "bid": FunctionSpec((SEATS,), INT, _of_state("_bids_of"),
                        "the sum of the numbers a seat or a set of seats bid this deal (bids: 0 before it bids)"),
    "decided": FunctionSpec((SEAT,), NAME, _of_state("_decided"),
                            "the option a seat last picked in a `decide` this deal (none before it picks)"),
    "announced": FunctionSpec((NAME,), BOOL, _announced, "whether a call of trick play was said this deal"),
    "picked": FunctionSpec((SEAT, NAME), BOOL, _picked,
                           "whether a seat picked the option in a `decide` this deal (any of several decides)"),
    "dealt_with": FunctionSpec((SEATS, NAME), INT, _dealt_with,
                               "how many earlier deals of the match a seat of the set dealt in which a deal variable "
                               "or the contract had the value"),
    "laid_aside": FunctionSpec((SEATS,), CARDS, _of_state("_laid_aside"),
                               "the cards a seat or a set of seats laid aside face down this deal (lay_aside)"),
    "melded": FunctionSpec((SEATS,), INT, _of_state("_melded"),
                           "the points of the melds a seat or a set of seats declared this deal that count (meld)"),
    "trick_melds": FunctionSpec((SEATS,), INT, _of_state("_trick_melds"),
                                "the points of the combinations in the tricks a seat or a set of seats won this "
                                "deal (the trick rules' melds)"),
    "said_by": FunctionSpec((NAME,), SEAT, _of_state("_said_by"),
                            "the seat that last said a call of trick play this deal (none if nobody has)"),
    "said_in": FunctionSpec((NAME,), INT, _of_state("_said_in"),
                            "the trick (from 1) in which a call of trick play was last said this deal, 0 if never"),
    "times_said": FunctionSpec((NAME, SEATS), INT, _times_said,
                               "how many times a seat or a set of seats said a call of trick play this deal"),
    "scored": FunctionSpec((NAME,), BOOL, _scored,
                           "whether the named item scored for either side in this deal's settlement"),
}


LATER_FUNCTIONS = frozenset({"trick_card", "trick_seat", "beats", "rank", "rank_in", "decided", "numbers", "said_by",
                             "said_in", "times_said", "laid_aside", "picked",
                             "dealt_with", "melded", "trick_melds"})
"""Functions the language took after rule files may have used their names for definitions: a file's own
definition of one of them keeps its meaning (W621, and ``rulelang fmt --upgrade`` renames it)."""

LATER_NAMES = frozenset({"suits", "ranks", "winning_now", "winner_now", "stock_left", "aside_shown",
                         *(f"P{seat}" for seat in range(1, 65))})
"""Names the language took after rule files may have used them (see ``compiler.later_names``)."""
