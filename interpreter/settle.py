"""Settlement: every counting item scored for one side, then the net settled between the sides."""

from __future__ import annotations

from rulelang.interpreter.auction import Auction
from rulelang.interpreter.phases import Phase


class Settle(Phase):
    """Scores the game and every bonus separately, sums them per side and pays out by ``pattern``."""

    @staticmethod
    def enter(st, phase) -> bool:
        game = st.game.definition
        contract = game.contracts.get(st.contract)
        everyone = (1 << st.game.num_players) - 1
        among = st.among or everyone
        declarers = st.side_mask & among
        defenders = among & ~declarers
        net, personal = 0, [0] * st.game.num_players
        st.item_results = []
        scored = []
        for name in Auction.counting_items(st):
            item = game.items[name]
            factor = 1 if item.is_game or contract is None else contract.bonus_factor
            if item.per_seat:
                Settle._per_seat(st, item, factor, among, personal)
                continue
            scored.extend((item, side, amount * factor)
                          for side, amount in Settle._score_item(st, item, contract, declarers, defenders))
        if any(item.exclusive and (item.achieved.fn(st, declarers) or item.achieved.fn(st, defenders))
               for item, _, _ in scored):
            scored = [entry for entry in scored if entry[0].exclusive or entry[0].is_game]
        for item, side, amount in scored:
            net += amount if side == declarers else -amount
            st.scored_items.add(item.name)
            st.item_results.append({"item": item.title, "side": "declarers" if side == declarers else "defenders",
                                    "value": amount, "announced": item.name in st.announced, "game": item.is_game,
                                    "level": st.levels.get(item.name, 0)})
        multiplier = phase.multiplier.fn(st, None) if phase.multiplier is not None else 1
        st.multiplier = multiplier
        Settle._pay(st, phase.pattern, net * multiplier, declarers, defenders)
        for seat, amount in enumerate(personal):
            if amount:
                st.add_score(seat, amount * multiplier)
        return False

    @staticmethod
    def _score_item(st, item, contract, declarers: int, defenders: int):
        """(side, amount) pairs this item scores."""
        level = 2 ** st.levels.get(item.name, 0)
        if item.is_game:
            value = contract.value.fn(st, None) if contract is not None else 0
            winner = declarers if item.achieved.fn(st, declarers) else defenders
            return [(winner, value * level)]
        if item.name in st.announced:
            owner = declarers if st.announced[item.name] else defenders
            other = defenders if owner == declarers else declarers
            value = item.announced_value.fn(st, None) if item.announced_value else 2 * item.value.fn(st, None)
            return [(owner if item.achieved.fn(st, owner) else other, value * level)]
        value = item.value.fn(st, None)
        scored = []
        for side, other in ((declarers, defenders), (defenders, declarers)):
            if item.achieved.fn(st, side):
                scored.append((side, value))
            elif item.caught is not None and item.caught.fn(st, side):
                scored.append((other, value))
        return scored

    @staticmethod
    def _per_seat(st, item, factor: int, among: int, personal: list) -> None:
        others = bin(among).count("1") - 1
        for seat in range(st.game.num_players):
            if among >> seat & 1 and item.achieved.fn(st, 1 << seat):
                value = item.value.fn(st, None) * factor
                for other in range(st.game.num_players):
                    if among >> other & 1:
                        personal[other] += value * others if other == seat else -value
                st.scored_items.add(item.name)
                st.item_results.append({"item": item.title, "side": st.game.seat_name(seat), "value": value,
                                        "announced": False, "level": 0})

    @staticmethod
    def _pay(st, pattern: str, net: int, declarers: int, defenders: int) -> None:
        """Each defender pays ``net`` (or receives it when negative); the declarers share the total."""
        n_def, n_decl = bin(defenders).count("1"), bin(declarers).count("1")
        if not net or not n_decl or not n_def:
            return
        share = net * n_def // n_decl
        for seat in range(st.game.num_players):
            if declarers >> seat & 1:
                st.add_score(seat, share)
            elif defenders >> seat & 1:
                st.add_score(seat, -net)
