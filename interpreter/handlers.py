"""The registry of phase handlers by phase kind."""

from rulelang.interpreter.auction import Auction
from rulelang.interpreter.phases import Choose, Deal, Decide, Exchange, Piles, Score, Set, Talon, ThrowIn
from rulelang.interpreter.settle import Settle
from rulelang.interpreter.tricks import Tricks
from rulelang.interpreter.turns import Turns

HANDLERS = {
    "deal": Deal, "talon": Talon, "choose": Choose, "exchange": Exchange, "decide": Decide, "tricks": Tricks,
    "score": Score, "set": Set, "piles": Piles, "throw_in": ThrowIn, "auction": Auction, "settle": Settle,
    "turns": Turns,
}
