"""Where in a deal card play gives tricks away: the share of costly cards by trick number (extra ``rulelang[bridge]``).

    python benchmarks/costly_by_trick.py [--agent heuristic] [--deals 20] [--game bridge]

Deal *i* is dealt from seed *i* and bid by the heuristic player; ``--agent`` then plays all four seats. Before
each card with more than one legal choice, DDS scores every legal card; a card is costly when another was worth
more tricks. Prints, per trick, the cards with a choice, the costly ones, their share and the tricks they gave
away — where a search that solves only the last tricks can help, and where it cannot.
"""

from __future__ import annotations

import argparse
import collections


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--game", default="bridge")
    args = parser.parse_args(argv)
    from rulelang.adapters import double_dummy as dd
    from rulelang.interpreter.agents import SeededChance, make_agent
    from rulelang.loader import load_game
    game = load_game(args.game, max_deals=1)
    choices, costly, lost = collections.Counter(), collections.Counter(), collections.Counter()
    for seed in range(args.deals):
        state, chance = game.new_initial_state(), SeededChance(seed)
        bidders = [make_agent("heuristic", seed * 1009 + s + 1) for s in range(game.num_players)]
        while not dd.in_trick_play(state, 0) and not state.is_terminal():
            if state.current_player() < 0:
                chance.play(state)
            else:
                state.apply_action(bidders[state.current_player()].step(state))
        players = [make_agent(args.agent, seed * 1009 + s + 1) for s in range(game.num_players)]
        tricks = 0
        while dd.in_trick_play(state, 0):
            legal = state.legal_actions()
            action = players[state.current_player()].step(state)
            if len(legal) > 1:
                values = dd.card_tricks(state)
                number = len(state.tricks.trick_winners) + 1
                tricks = max(tricks, number)
                choices[number] += 1
                if values[action] < max(values.values()):
                    costly[number] += 1
                    lost[number] += max(values.values()) - values[action]
            state.apply_action(action)
    print("| trick | cards with a choice | costly | share | tricks given away |")
    print("|---|---|---|---|---|")
    for number in sorted(choices):
        print(f"| {number} | {choices[number]} | {costly[number]} | {100 * costly[number] / choices[number]:.1f} % | "
              f"{lost[number]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
