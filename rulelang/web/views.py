"""What one seat's page shows, as JSON: made only from ``observation(seat)`` and what everyone sees.

:func:`seat_view` is the whole payload sent to a seat's browser. Cards are objects with
their rank, suit symbol and colour, so the page draws them without knowing the game; the
moves a seat may make now are listed with the titles the rule file gives (``Double on
Slam``, never ``double_slam``). The finished deals come from the match
record, cut down to what the whole table learns when a deal is over: contract, tricks
taken, items and payments — never the cards that were dealt.
"""

from __future__ import annotations

from rulelang.interpreter.state import CHANCE
from rulelang.interpreter.words import winner_name, action_words, contract_title

RED_SYMBOLS = frozenset("♥♦")
BLACK_SYMBOLS = frozenset("♠♣")
NAMED_COLOURS = {"hearts": "red", "diamonds": "red", "spades": "black", "clubs": "black", "acorns": "brown",
                 "leaves": "green", "bells": "gold", "shields": "gold", "roses": "red", "cups": "red",
                 "coins": "gold", "swords": "blue", "batons": "green"}
"""The colours of the French, German, Swiss and Latin suits by name, for packs whose symbols are letters."""
PIPS = frozenset({"acorns", "leaves", "hearts", "bells", "shields", "roses"})
"""Suits the page draws as pictures (table.js ``PIP_PATHS``) when the rule file writes their symbol as a letter:
a German or Swiss pack then looks as it does at the table."""
PALETTE = ("green", "red", "gold", "black", "blue", "purple")
"""Colours for any other suit, by the suit's place in the pack."""

VERBS = {"says": "", "bids": "", "announces": "", "names": "", "calls": "", "chooses": "", "passes": "Pass"}
"""The leading verb of a move's public words, and what its button shows instead (empty: the rest alone)."""


def suit_colour(deck, suit: int) -> str:
    """The colour a suit is drawn in: by its symbol (♥♦ red, ♠♣ black), by its name, else one of :data:`PALETTE`;
    a suit whose cards are named by rank alone (numbered trumps) in black."""
    found = deck.suits[suit]
    if found.symbol in RED_SYMBOLS:
        return "red"
    if found.symbol in BLACK_SYMBOLS or found.by_rank:
        return "black"
    return NAMED_COLOURS.get(found.name.casefold(), PALETTE[suit % len(PALETTE)])


def card_face(game, name: str) -> dict:
    """A card as the page draws it: its name, rank, suit symbol and name, colour, whether it is named by rank, and
    the suit's picture (``pip``: ``acorns``) when its symbol is a letter."""
    deck = game.deck
    index = deck.lookup.get(name.strip().casefold())
    if index is None:
        return {"card": name, "rank": name, "symbol": "", "suit": "", "colour": "black", "numeral": False, "pip": None}
    card = deck.cards[index]
    suit = deck.suits[card.suit]
    by_rank = suit.by_rank or name == card.rank
    pip = suit.name.casefold() if suit.symbol.isalpha() and suit.name.casefold() in PIPS and not by_rank else None
    return {"card": name, "rank": card.rank, "symbol": "" if by_rank else suit.symbol, "suit": suit.name,
            "colour": suit_colour(deck, card.suit), "numeral": by_rank, "pip": pip}


def move_label(state, actor: int, action: int) -> tuple[str, str]:
    """The button text and the sentence for a decision: ``("Double on Slam", "says Double on Slam")``."""
    name = state.action_to_string(action)
    words = action_words(state, actor, action) or name
    verb, _, rest = words.partition(" ")
    if verb in VERBS and rest and not rest.startswith("("):
        label = f"{VERBS[verb]} {rest}".strip() if VERBS[verb] else rest
    elif verb in VERBS and VERBS[verb]:
        label = f"{VERBS[verb]} {rest}".strip()
    else:
        label = words
    return label[:1].upper() + label[1:], words


def moves(state, seat: int) -> dict:
    """The seat's moves now: legal cards of its hand, and the decisions as titled buttons (empty off turn)."""
    if state.is_terminal() or state.current_player() != seat:
        return {"cards": [], "decisions": []}
    game = state.game
    cards, decisions = [], []
    for action in state.legal_actions():
        if action < game.num_cards:
            cards.append(game.action_to_string(action))
        else:
            label, words = move_label(state, seat, action)
            decisions.append({"move": game.action_to_string(action), "label": label, "words": words})
    return {"cards": cards, "decisions": decisions}


def players(table, seat: int, seen: dict) -> list[dict]:
    """One row per seat: its name, who sits there (a person, by the name given, or an agent), whether that
    person has the table open, cards held, score, dealer, turn."""
    game = table.game
    rows = []
    for s in range(game.num_players):
        name = game.seat_name(s)
        rows.append({"seat": name, "kind": table.kinds[s], "name": table.names[s] if table.names else "",
                     "online": table.online.get(s, 0) > 0, "you": s == seat, "cards": seen["hand_sizes"].get(name, 0),
                     "score": seen["scores"].get(name, 0), "dealer": seen["dealer"] == name,
                     "forehand": seen["forehand"] == name, "to_act": seen.get("to_act") == name,
                     "active": name in seen.get("active", ())})
    return rows


def contract_view(game, seen: dict) -> dict | None:
    """The contract, its declarer, the called card and the partner as far as this seat knows them."""
    if not seen.get("contract"):
        return None
    partner = seen.get("partner")
    return {"name": seen["contract"], "title": contract_title(game, seen["contract"]), "declarer": seen["declarer"],
            "called": card_face(game, seen["called"]) if seen.get("called") else None,
            "partner": partner if isinstance(partner, list) else None}


SHOWN_ELSEWHERE = frozenset({
    "seat", "deal", "dealer", "forehand", "hand", "hand_sizes", "scores", "to_act", "active", "contract", "declarer",
    "called", "partner", "trick", "played", "vars", "talon_size", "my_discards", "tricks"})
"""Observation keys the page draws in their own place; every other key is listed among the facts."""


def words(value) -> str:
    """A name or a list of them as words: ``kontra_game`` → ``kontra game``."""
    if isinstance(value, (list, tuple)):
        return " ".join(words(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {words(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def fact(game, title: str, value, titles: dict | None = None) -> dict | None:
    """One fact of the deal: cards when ``value`` names cards, else words (a decision by its ``titles``, as made
    at this table); None when there is nothing to say."""
    if value in (None, "none", [], {}, ""):
        return None
    names = value if isinstance(value, list) else [value]
    if all(isinstance(v, str) and v.casefold() in game.deck.lookup for v in names):
        return {"title": title, "cards": [card_face(game, v) for v in names]}
    if isinstance(value, list) and all(isinstance(v, (list, tuple)) for v in value):
        said = [" ".join(str((titles or {}).get(part, words(part))) for part in row) for row in value[-12:]]
        return {"title": title, "text": "; ".join(said)}
    return {"title": title, "text": words(value)}


def facts(game, seen: dict, titles: dict) -> list[dict]:
    """What else the seat knows of the deal: deal variables, the talon, tricks taken, its own discards, and
    whatever the game's constructs add to the observation (bids, a card turned up, an exposed hand, teams)."""
    found = [fact(game, name.replace("_", " "), text) for name, text in seen.get("vars", {}).items()]
    if seen.get("talon_size"):
        found.append({"title": "talon", "text": f"{seen['talon_size']} cards"})
    if any(seen.get("tricks", {}).values()):
        found.append(fact(game, "tricks taken", seen["tricks"]))
    found.append(fact(game, "your discards", seen.get("my_discards")))
    found.extend(fact(game, key.replace("_", " "), value, titles) for key, value in seen.items()
                 if key not in SHOWN_ELSEWHERE)
    return [f for f in found if f is not None]


def deal_history(game, record) -> list[dict]:
    """The finished deals as the whole table learns them: contract, tricks taken, items, payments, scores."""
    rows = []
    for deal in record.deals:
        if not deal.get("delta"):
            continue
        contract = deal.get("contract")
        rows.append({
            "number": deal["number"], "dealer": deal["dealer"],
            "contract": None if contract is None else {
                "title": contract.get("title", contract["name"]), "declarer": contract["declarer"],
                "side": contract["side"], "called": contract.get("called")},
            "tricks": deal.get("tricks_won", {}),
            "items": [{"item": item_title_of(game, item), "value": item.get("value"), "side": item.get("side"),
                       "announced": bool(item.get("announced")), "level": item.get("level", 0)}
                      for item in deal.get("items") or []],
            "multiplier": deal.get("multiplier", 1), "payments": deal["delta"], "scores": deal["scores"]})
    return rows


def item_title_of(game, item: dict) -> str:
    """An item's title as the rule file gives it."""
    from rulelang.interpreter.words import item_title
    return item_title(game, str(item.get("item", "")))


def result_view(table) -> dict | None:
    """The match result once the match is over: final scores, the winner (None: a shared win), the winners by
    the names people gave, a sentence naming them, and the final standings, best first."""
    state = table.state
    if not state.is_terminal():
        return None
    seat, n = state.game.seat_name, state.game.num_players
    lowest_wins = state.game.definition.match.winner == "lowest"
    order = sorted(range(n), key=lambda s: (state.scores[s] if lowest_wins else -state.scores[s], s))
    best = [s for s in order if state.scores[s] == state.scores[order[0]]]
    winners = list(state.winners) if state.match_ended else best       # a table of N deals: the best after them
    standings, place = [], 0
    for rank, s in enumerate(order):
        if rank == 0 or state.scores[s] != state.scores[order[rank - 1]]:
            place = rank + 1
        standings.append({"place": place, "seat": seat(s), "name": table.person(s), "score": state.scores[s],
                          "winner": s in winners})
    return {"scores": {seat(s): v for s, v in enumerate(state.scores)},
            "winner": winner_name(state), "winners": [seat(s) for s in winners],
            "headline": _headline(table, state, winners, best), "standings": standings,
            "stopped": state.stopped.message if state.stopped is not None else None}


def _headline(table, state, winners: list[int], best: list[int]) -> str:
    """``Anna wins the match``, ``Anna and Cleo win the match``, or a shared result."""
    if not winners:
        tied = [table.person(s) for s in best]
        return f"a shared result: {_and(tied)} tie for the best score"
    named = _and([table.person(s) for s in winners])
    after = "" if state.match_ended else f" with the best score after {len(state.deal_results)} " \
        f"deal{'s' if len(state.deal_results) != 1 else ''}"
    return f"{named} {'wins' if len(winners) == 1 else 'win'} the match{after}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def phase_help(game, index: int | None) -> str | None:
    """What the phase being played does, as ``rulelang explain`` says it (knocking's piles, an auction's bids)."""
    if index is None:
        return None
    steps = _steps_of(game)
    return " ".join(steps[index]) if 0 <= index < len(steps) else None


def _steps_of(game) -> list:
    cached = getattr(game, "_phase_sentences", None)
    if cached is None:
        from rulelang.render.explain import phase_sentences
        cached = phase_sentences(game.definition.document)
        game._phase_sentences = cached
    return cached


def seat_view(table, seat: int) -> dict:
    """Everything ``seat``'s page shows now; built from ``observation(seat)`` and public facts only."""
    state, game = table.state, table.game
    seen = state.observation(seat)
    own, allowed = set(seen["hand"]), moves(state, seat)
    faces = {"hand": [card_face(game, c) for c in seen["hand"]],
             "played_for": [card_face(game, c) for c in allowed["cards"] if c not in own],
             "trick": [{"seat": s, **card_face(game, c)} for s, c in seen.get("trick", [])],
             "last_trick": table.last_trick(seat)}
    actor = state.current_player() if not state.is_terminal() else None
    playing = state.step is not None and not state.is_terminal()
    return {
        "table": table.id, "title": game.definition.title, "seat": game.seat_name(seat), "step": len(state.history),
        "phase": state.step.kind if playing else None,
        "phase_help": phase_help(game, state.phase_index) if playing and actor == seat else None,
        "direction": str(game.definition.document.get("direction", "clockwise")),
        "deal": len(table.record.deals) if state.is_terminal() else seen["deal"],
        "names": {game.seat_name(s): table.person(s) for s in range(game.num_players)},
        "your_turn": actor == seat, "waiting_for": None if actor in (None, CHANCE) else table.person(actor),
        "players": players(table, seat, seen), "moves": allowed,
        "contract": contract_view(game, seen), "facts": facts(game, seen, table.titles), **faces, "talk": table.talk[seat][-200:],
        "deals": deal_history(game, table.record), "result": result_view(table), "observation": seen,
        "failure": table.shown(table.failure)["error"] if table.failure is not None else None,
        "again": table.next_id is not None,
    }
