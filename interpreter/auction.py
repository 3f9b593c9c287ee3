"""Auctions and settlement: contracts bid on a ladder, items announced for or against the
declaring side, doubling chains per item, and the score of every item settled between sides."""

from __future__ import annotations

from rulelang.compile_items import announcement, doubling
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import EvalError
from rulelang.interpreter.phases import Phase, seats_from


def _bit_count(mask: int) -> int:
    return bin(mask).count("1")


class AuctionTable:
    """What an auction phase's options are made of, worked out once per game: the contracts in
    order with their rank, condition and action; per contract, the items that count in it with
    their announcement and doubling actions."""

    def __init__(self, game, phase):
        definition, ids = game.definition, game.symbol_ids
        self.pass_id = ids.get(phase.pass_word)
        self.ranks = {c.name: c.rank for c in definition.contracts.values()}
        self.contracts = [(c.rank, c.allow, ids[c.name]) for c in definition.contracts.values()]
        self.counting = {}
        for name, contract in definition.contracts.items():
            listed = contract.items if contract.items is not None else list(definition.items)
            self.counting[name] = [self._item(definition.items[item], ids, phase) for item in listed
                                   if item in definition.items]

    @staticmethod
    def _item(spec, ids, phase) -> tuple:
        """(name, who may announce it or None, the two announcement actions, the doubling actions)."""
        announce = spec.announce if spec.announce and not spec.is_game else None
        return (spec.name, announce, ids.get(announcement(spec.name, phase.for_word)),
                ids.get(announcement(spec.name, phase.against_word)),
                [ids.get(doubling(word, spec.name)) for word in phase.doubling])


def _table(game, phase) -> AuctionTable:
    """The :class:`AuctionTable` of ``phase``, built on first use and kept with the game."""
    tables = game.auction_tables
    table = tables.get(id(phase))
    if table is None:
        table = tables[id(phase)] = AuctionTable(game, phase)
    return table


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
        symbols, base = st.game.symbols, st.game.symbol_base
        return [symbols[action - base] for action in Auction.option_ids(st, phase, seat)]

    @staticmethod
    def option_ids(st, phase, seat) -> list[int]:
        """The actions ``seat`` may take now, in the order of :meth:`options`."""
        table = _table(st.game, phase)
        current = table.ranks.get(st.contract)
        ids = [action for rank, allow, action in table.contracts
               if (current is None or rank > current) and (allow is None or allow.fn(st, seat))]
        if current is None:
            return ids
        ids.append(table.pass_id)
        counting = table.counting[st.contract]
        on_declarers = bool(st.side_mask >> seat & 1)
        announced = st.announced
        for item, announce, for_id, against_id, _ in counting:
            if announce and item not in announced and announce in ("both", "for" if on_declarers else "against"):
                ids.append(for_id if on_declarers else against_id)
        levels = st.levels
        for item, _, _, _, doubling_ids in counting:
            level = levels.get(item, 0)
            if level < len(doubling_ids) and Auction._may_double(st, item, level, seat):
                ids.append(doubling_ids[level])
        return ids

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
        return sorted(Auction.option_ids(st, phase, st.current))

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
