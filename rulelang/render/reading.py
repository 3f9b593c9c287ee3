"""Reading rule expressions aloud, for ``rulelang explain``: ``count(hand(player) & tarock) == 0`` as
"the player holds no tarock".

>>> Reader().say("count(hand(player) & tarock) == 0")
'the player holds no tarock'
>>> Reader({"bonus": 5}).say("if tricks(player) > 0 then 0 else bonus")
'0 if the player took a trick, otherwise bonus (5)'
"""

from __future__ import annotations

from rulelang.diagnostics import RuleError
from rulelang.read.expr import PRECEDENCE, Expr, parse_expr

NAMES = {
    "player": "the player", "dealer": "the dealer", "forehand": "forehand", "active": "the players still in",
    "seats": "all players", "led_suit": "the suit led", "led_card": "the card led", "any": "any card", "trick": "the cards of the trick",
    "tricks_played": "the number of tricks played", "deal_number": "the number of deals played",
    "declarer": "the declarer", "declarers": "the declaring side", "defenders": "the defenders",
    "score": "the scores", "players": "the number of players", "contract": "the contract",
    "called": "the called card", "side": "the side", "none": "none", "talon": "the talon",
}

CALLS = {
    "tricks": "{0}'s tricks", "points": "the card points taken by {0}",
    "score": "{0}'s score", "count": "the number of {0}", "min": "the lowest of {0}", "max": "the highest of {0}",
    "next": "the player after {0}", "prev": "the player before {0}", "hand": "{0}'s hand",
    "dealt": "the cards dealt to {0}", "highest": "the highest card of {0}", "lowest": "the lowest card of {0}",
    "holder": "the player dealt all of {0}", "played_by": "the player who played {0}",
    "trick_of": "the number of the trick {0} fell in", "taken_by": "the player who took {0}",
    "won": "the cards taken by {0}",
    "winning_card": "the card that won trick no. {0}", "trick_cards": "the cards of trick no. {0}",
    "card_points": "the card points of {0}", "trick_points": "the card points of trick no. {0}",
    "cards_played": "the cards played by {0}", "discarded": "the cards {0} discarded",
    "first_trick_won": "the number of the first trick taken by {0}",
    "tricks_worth": "the number of tricks taken by {0} worth at least {1} card points",
    "scored": "{0} scored", "announced": "{0} was said", "suit": "the suit of {0}", "abs": "the size of {0}",
}

BINARY = {
    "==": "{0} is {1}", "!=": "{0} is not {1}", "<": "{0} is below {1}", "<=": "{0} is at most {1}",
    ">": "{0} is above {1}", ">=": "{0} is at least {1}", "in": "{0} is in {1}", "and": "{0} and {1}",
    "or": "{0} or {1}", "+": "{0} + {1}", "-": "{0} − {1}", "*": "{0} × {1}", "/": "{0} ÷ {1} (rounded down)",
    "%": "the remainder of {0} ÷ {1}", "|": "{0} together with {1}", "&": "the {1} in {0}",
}

SEAT_SETS = {"active", "seats", "declarers", "defenders", "side"}

QUANTITIES = {
    "==": {"0": "no", "1": "exactly one", None: "exactly {0}"}, "!=": {"0": "some", None: "other than {0}"},
    ">=": {"1": "some", None: "at least {0}"}, ">": {"0": "some", None: "more than {0}"},
    "<=": {"0": "no", None: "at most {0}"}, "<": {"1": "no", None: "fewer than {0}"},
}


class Reader:
    """Reads expressions aloud; knows the game's params (shown with their values)."""

    def __init__(self, params: dict | None = None, local: set | None = None):
        self.params = params or {}
        self.local = local or set()

    def say(self, value) -> str:
        """An expression (text, number or boolean) in words."""
        if isinstance(value, bool):
            return "always" if value else "never"
        if isinstance(value, (int, float)):
            return str(value)
        try:
            return self.node(parse_expr(str(value)), 0)
        except RuleError:
            return f"`{value}`"

    def node(self, e: Expr, outer: int) -> str:
        """One node of an expression; brackets where a looser operator sits inside a tighter one."""
        op = e.op
        if op in ("int", "bool", "none", "card", "name", "call", "set"):
            return self.leaf(e)
        if op in ("aggregate", "set_of"):
            return self.aggregate(e)
        mine = PRECEDENCE[op]
        if op == "cond":
            text = self.cond(e)
        elif op == "not":
            text = self.negation(e.args[0], mine)
        elif op == "neg":
            text = f"minus {self.node(e.args[0], mine)}"
        else:
            text = self.holding(e) or self.binary(e, mine)
        return f"({text})" if mine < outer else text

    def aggregate(self, e: Expr) -> str:
        """``sum(x for v in D if c)`` as "the sum of x for each v of D where c"; a set builder as "the v of D
        such that c"."""
        variable = e.value[1] if e.op == "aggregate" else e.value
        domain = f"{variable} of {self.node(e.args[1], 0)}"
        where = f" where {self.node(e.args[2], 0)}" if len(e.args) > 2 else ""
        if e.op == "set_of":
            return f"the {domain}{where or ''}".replace(" where ", " such that ")
        body = self.node(e.args[0], 0)
        words = {"sum": f"the sum of {body} for each {domain}", "count": f"how many {domain} have {body}",
                 "any": f"{body} for some {domain}", "all": f"{body} for every {domain}",
                 "max": f"the largest {body} of any {domain}", "min": f"the smallest {body} of any {domain}",
                 "argmax": f"the {domain} with the largest {body}", "argmin": f"the {domain} with the smallest {body}"}
        return f"({words.get(e.value[0], e.value[0])}{where})"

    def binary(self, e: Expr, mine: int) -> str:
        """A binary operator by its template; membership of a named set reads "is one of"."""
        left, right = e.args
        phrase = self.trick_phrase(e.op, left, right)
        if phrase is not None:
            return phrase
        if e.op == "-" and _is_call(right, "hand"):
            return f"{self.node(left, mine)} that {self.node(right.args[0], 0)} does not hold"
        template = BINARY[e.op]
        if e.op == "in" and e.args[1].op == "name" and e.args[1].value not in ("trick", "any"):
            template = "{0} is one of {1}" if e.args[1].value in SEAT_SETS else "{0} is one of the {1}"
        first, second = self.node(e.args[0], mine), self.node(e.args[1], mine + 1)
        if e.op == "&" and second.startswith("the "):          # "the cards played in …", not "the the …"
            second = second[4:]
        return template.format(first, second)

    def trick_phrase(self, op: str, left: Expr, right: Expr) -> str | None:
        """Comparisons about tricks said as a player would: "the player took a trick", "Mond was played"."""
        last = right.op == "name" and right.value == "tricks_played"
        zero = right.op == "int" and right.value == 0
        if _is_call(left, "trick_of"):
            card = self.node(left.args[0], 0)
            if op == "==" and last:
                return f"{card} falls in the last trick"
            if op in (">", "!=") and zero:
                return f"{card} was played"
            if op == "==" and zero:
                return f"{card} was not played"
        if _is_call(left, "tricks"):
            who = self.node(left.args[0], 0)
            if op in (">", "!=") and zero or op == ">=" and right.op == "int" and right.value == 1:
                return f"{who} took a trick"
            if op == "==" and zero:
                return f"{who} took no trick"
            if op == "==" and last:
                return f"{who} took every trick played"
        return None

    def holding(self, e: Expr) -> str | None:
        """``count(hand(p) & X) == 0`` as "p holds no X", and the like for other counts and comparisons."""
        left, right = (e.args + [None, None])[:2]
        if e.op not in QUANTITIES or left.op != "call" or left.value != "count" or len(left.args) != 1:
            return None
        held = self.held(left.args[0])
        if held is None:
            return None
        who, what = held
        amount = self.node(right, 0)
        quantity = QUANTITIES[e.op].get(amount, QUANTITIES[e.op][None]).format(amount)
        return f"{who} holds {quantity} {what}"

    def held(self, e: Expr) -> tuple[str, str] | None:
        """(who, what) for ``hand(p)``, ``hand(p) & X`` and ``hand(p) - X``; None for anything else."""
        if e.op == "call" and e.value == "hand" and len(e.args) == 1:
            return self.node(e.args[0], 0), "cards"
        if e.op in ("&", "-") and e.args[0].op == "call" and e.args[0].value == "hand" and len(e.args[0].args) == 1:
            what = self.node(e.args[1], PRECEDENCE[e.op] + 1)
            return self.node(e.args[0].args[0], 0), what if e.op == "&" else f"cards that are not {what}"
        return None

    def negation(self, e: Expr, mine: int) -> str:
        """``not a == b`` as "a is not b", ``not a in b`` as "a is not in b", else "not (…)"."""
        if e.op in ("==", "in"):
            word = "is not" if e.op == "==" else "is not in"
            return f"{self.node(e.args[0], 6)} {word} {self.node(e.args[1], 6)}"
        return f"not {self.node(e, mine)}"

    def cond(self, e: Expr) -> str:
        """``if a then b else c`` read as "b if a, otherwise c"; chains of else-if as one list."""
        parts = []
        while e.op == "cond":
            parts.append(f"{self.node(e.args[1], 2)} if {self.node(e.args[0], 2)}")
            e = e.args[2]
        return ", ".join(parts) + f", otherwise {self.node(e, 2)}"

    def leaf(self, e: Expr) -> str:
        """Numbers, names, cards, calls and sets."""
        if e.op == "int":
            return str(e.value)
        if e.op == "bool":
            return "true" if e.value else "false"
        if e.op == "none":
            return "none"
        if e.op == "card":
            return str(e.value)
        if e.op == "set":
            return "{" + ", ".join(self.node(a, 0) for a in e.args) + "}"
        if e.op == "call":
            if _is_call(e, "winning_card") and e.args[0].op == "name" and e.args[0].value == "tricks_played":
                return "the card that won the last trick"
            if _is_call(e, "winning_card") and _is_call(e.args[0], "trick_of"):
                return f"the card that won the trick {self.node(e.args[0].args[0], 0)} fell in"
            args = [self.node(a, 0) for a in e.args]
            template = CALLS.get(str(e.value))
            if not template or len(args) != template.count("{"):
                return f"{e.value}({', '.join(args)})"
            if template.startswith("{0}'s") and args[0].endswith("s") and args[0].startswith("the "):
                return template.replace("{0}'s", args[0] + "'", 1)
            if template.startswith("{0}'s") and " " in args[0].replace("the ", "", 1):
                return template.replace("{0}'s", "the", 1) + f" of {args[0]}"
            return template.format(*args)
        return self.name(str(e.value))

    def name(self, name: str) -> str:
        """A name: a param with its value, a role in words, anything else as written."""
        if name in self.params and name not in self.local:
            return f"{name} ({self.params[name]})"
        return NAMES.get(name, name)


def _is_call(e: Expr, name: str) -> bool:
    """Whether ``e`` calls function ``name`` with one argument."""
    return e.op == "call" and e.value == name and len(e.args) == 1
