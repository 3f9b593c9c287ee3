"""``rulelang play``: a person at the terminal in one seat, random bots in the others."""

from __future__ import annotations

import sys

from rulelang.cli import output


def play_command(ref: str, seat_number: int, seed: int | None, deals: int | None) -> int:
    """Play ``ref`` interactively from seat ``seat_number`` (1-based); narrate the match at the end."""
    from rulelang.interpreter.agents import HumanAgent
    from rulelang.interpreter.narrate import narrate_match
    from rulelang.interpreter.runner import play_match, random_agents
    from rulelang.loader import load_game
    game = load_game(ref, max_deals=deals)
    seat = max(1, min(seat_number, game.num_players)) - 1
    agents = random_agents(game, seed)

    def tell(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def ask(prompt: str) -> str:
        try:
            return input(prompt)
        except EOFError:
            raise KeyboardInterrupt from None
    agents[seat] = HumanAgent(seat, ask, tell)
    state, record = play_match(game, agents=agents, seed=seed)
    output.print_lines(narrate_match(record.summary(state), f"{game.definition.title} — your seat {seat + 1}"))
    return 0
