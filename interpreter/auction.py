"""Auctions and settlement: contracts bid on a ladder, items announced for or against the
declaring side, doubling chains per item, and the score of every item settled between sides."""

from __future__ import annotations

from rulelang.compile_items import announcement, doubling
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import EvalError
from rulelang.interpreter.phases import Phase, seats_from


def _bit_count(mask: int) -> int:
    return bin(mask).count("1")


class Auction(Phase):
    """Turns in order from ``start``: bid a higher contract, announce an item, double, or pass.
    The first speaker must bid; the auction ends when every seat in a row has passed."""

    @staticmethod
    def enter(st, phase) -> bool:
        st.order = seats_from(st, phase.start.fn(st, None), (1 << st.game.num_players) - 1)
        st.pos, st.passes = 0, 0
        st.current = st.order[0]
        if not Auction.options(st, phase, st.current):
            raise EvalError(f"{st.game.seat_name(st.current)} has no legal bid to open the auction", phase.span)
        return True

    @staticmethod
    def options(st, phase, seat) -> list[str]:
        """The action names ``seat`` may say now."""
        game = st.game.definition
        names = [c.name for c in game.contracts.values() if Auction._may_bid(st, c, seat)]
        if st.contract is None:
            return names
        names.append(phase.pass_word)
        counting = Auction.counting_items(st)
        for item in counting:
            spec = game.items[item]
            if spec.announce and not spec.is_game and item not in st.announced:
                on_declarers = bool(st.side_mask >> seat & 1)
                side = "for" if on_declarers else "against"
                if spec.announce in ("both", side):
                    names.append(announcement(item, phase.for_word if on_declarers else phase.against_word))
        for item in counting:
            level = st.levels.get(item, 0)
            if level < len(phase.doubling) and Auction._may_double(st, item, level, seat):
                names.append(doubling(phase.doubling[level], item))
        return names

    @staticmethod
    def _may_bid(st, contract, seat) -> bool:
        current = st.game.definition.contracts.get(st.contract)
        if current is not None and contract.rank <= current.rank:
            return False
        return contract.allow is None or bool(contract.allow.fn(st, seat))

    @staticmethod
    def counting_items(st) -> list[str]:
        """The items that count in the current contract."""
        game = st.game.definition
        contract = game.contracts.get(st.contract)
        listed = contract.items if contract is not None and contract.items is not None else list(game.items)
        return [name for name in listed if name in game.items]

    @staticmethod
    def owner_is_declarers(st, item: str) -> bool | None:
        """True if the item belongs to the declaring side, False if to the defenders, None if not live."""
        if st.game.definition.items[item].is_game:
            return True
        return st.announced.get(item)

    @staticmethod
    def _may_double(st, item: str, level: int, seat: int) -> bool:
        owner = Auction.owner_is_declarers(st, item)
        if owner is None:
            return False
        on_declarers = bool(st.side_mask >> seat & 1)
        by_owner = level % 2 == 1
        return on_declarers == (owner if by_owner else not owner)

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[name] for name in Auction.options(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        seat = st.current
        name = st.game.symbols[action - st.game.symbol_base]
        st.auction_log.append((seat, name))
        if name == phase.pass_word:
            st.passes += 1
        else:
            st.passes = 0
            Auction._say(st, phase, seat, name)
        if st.passes >= len(st.order):
            return True
        st.pos = (st.pos + 1) % len(st.order)
        st.current = st.order[st.pos]
        return False

    @staticmethod
    def _say(st, phase, seat: int, name: str) -> None:
        game = st.game.definition
        if name in game.contracts:
            Auction._bid(st, game.contracts[name], seat)
            return
        kind, item, on_declarers = Auction.meaning(st, phase, name)
        if kind == "announce":
            st.announced[item] = on_declarers
            if not on_declarers and game.items[item].against_kontra:
                game_item = next((i for i, spec in game.items.items() if spec.is_game), None)
                if game_item is not None:
                    st.levels[game_item] = max(st.levels.get(game_item, 0), 1)
        else:
            st.levels[item] = st.levels.get(item, 0) + 1
        if seat != st.declarer and st.side_mask >> seat & 1:
            st.revealed = True

    @staticmethod
    def meaning(st, phase, name: str) -> tuple[str, str, bool]:
        """What an announcement or doubling action says: (kind, item, for the declarers?)."""
        for item in st.game.definition.items:
            if name == announcement(item, phase.for_word):
                return "announce", item, True
            if name == announcement(item, phase.against_word):
                return "announce", item, False
            if any(name == doubling(word, item) for word in phase.doubling):
                return "double", item, False
        raise ValueError(f"not an auction action: {name}")

    @staticmethod
    def _bid(st, contract, seat: int) -> None:
        st.contract = contract.name
        st.declarer = seat
        st.announced, st.levels = {}, {}
        st.called, st.side_mask, st.revealed = -1, 1 << seat, False
        if contract.sides == "called":
            card = contract.calls.fn(st, seat)
            st.called = card
            holder = next((s for s, hand in enumerate(st.hands) if card >= 0 and hand >> card & 1), -1)
            if holder >= 0:
                st.side_mask |= 1 << holder

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        who = st.game.seat_name(st.current)
        contract = st.game.definition.contracts.get(name)
        legal = ", ".join(Auction.options(st, phase, st.current))
        if contract is not None and contract.allow is not None and not contract.allow.fn(st, st.current):
            return Diagnostic("E506", f"{who} may not bid {name}: the condition `{contract.allow.text}` does not "
                              "hold", contract.allow.span, f"legal now: {legal}")
        if contract is not None:
            return Diagnostic("E507", f"{who} may not bid {name}: it does not outrank {st.contract}", contract.span,
                              f"legal now: {legal}")
        return Diagnostic("E508", f"{who} may not say '{name}' now", phase.span, f"legal now: {legal}")
