"""A refused move in plain words for the person who tried it: "You must follow suit (♥): play C♥ or 10♥".

The engine's diagnostic says which rule refused the move and where it is written; the page shows it
behind a "why" toggle. :func:`refusal` says the same to the person in the words of the table: whose
turn it is, a card not held, the suit to follow, the suit to play when one cannot follow, the card to
beat, the cards that may be led — from the seat's own view of the deal and its legal moves, nothing
else. A refusal these words do not cover is the engine's message with the seat's name made "you".
"""

from __future__ import annotations

from rulelang.diagnostics import Diagnostic
from rulelang.interpreter.state import CHANCE

LISTED = 8                   # cards named in a refusal; more are "…"


def refusal(table, seat: int, move: str, problem: Diagnostic) -> str:
    """What ``seat``'s person is told when ``move`` was refused for ``problem``."""
    state, game = table.state, table.game
    if problem.code == "E510":
        return "The match is over: no more moves can be made."
    if problem.code == "E532":
        actor = state.current_player()
        who = "the cards are being dealt" if actor == CHANCE else f"it is {table.person(actor)}'s turn"
        return f"Please wait: {who}."
    if problem.code == "E533":
        return f"'{move}' is not a card or a choice of this game: click a card or a button that is enabled."
    if problem.code == "E503":
        return f"You do not hold {move}."
    if problem.code in ("E504", "E505"):
        return _card_refusal(state, game, seat, move, problem.code)
    return _as_said_to_you(problem.message, game.seat_name(seat))


def _card_refusal(state, game, seat: int, move: str, code: str) -> str:
    from rulelang.web.views import card_face
    legal = [game.action_to_string(a) for a in state.legal_actions() if a < game.num_cards]
    play = _one_of(legal)
    trick = state.observation(seat).get("trick") or []
    if code == "E505":
        return f"You must beat the best card in the trick: play {play}."
    if not trick:
        return f"You may not lead {move} now: lead {play}."
    led = card_face(game, trick[0][1])
    suits = {card_face(game, card)["suit"] for card in legal}
    if suits == {led["suit"]}:
        return f"You must follow suit ({_suit_words(led)}): play {play}."
    if len(suits) == 1:
        face = card_face(game, legal[0])
        return f"You cannot follow suit, so you must play {_suit_words(face)}: {play}."
    return f"You may not play {move} to this trick: play {play}."


def _suit_words(face: dict) -> str:
    """A suit as the table says it: its symbol, or its name for cards named by rank alone (numbered trumps)."""
    return face["symbol"] or face["suit"].replace("_", " ")


def _one_of(cards: list[str]) -> str:
    shown = cards[:LISTED] + (["…"] if len(cards) > LISTED else [])
    if len(shown) == 1:
        return shown[0]
    return "one of " + ", ".join(shown[:-1]) + " or " + shown[-1]


def _as_said_to_you(message: str, seat_name: str) -> str:
    """The engine's message told to the seat: ``P3 may not …`` → ``You may not …``."""
    text = message.replace(f"{seat_name} ", "you ", 1) if message.startswith(seat_name + " ") else message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
