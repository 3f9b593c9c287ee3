"""The seats a seat knows to be on its side, from what it is shown (its observation) and the fixed teams."""

from __future__ import annotations

from rulelang.compile.deck import iter_bits


def side_of(state, seat: int) -> set[int]:
    """The seats ``seat`` knows to be on its side now (itself at least): its fixed team, where the game has teams."""
    teams = state.game.definition.teams
    if teams:
        return set(iter_bits(teams[seat]))
    view = state.observation(seat)
    names = {state.game.seat_name(s): s for s in range(state.game.num_players)}
    parties = view.get("parties")
    if parties:                                          # the seats whose party it knows (``parties``)
        mine = parties.get(state.game.seat_name(seat))   # unknown to itself while a join waits
        return {names[s] for s, party in parties.items() if party == mine} if mine else {seat}
    if view.get("declarer") is None:
        return {seat}
    declarer = names[view["declarer"]]
    if not view.get("contract"):                         # a bare auction's winner plays alone against the rest
        return {seat} if seat == declarer else set(range(state.game.num_players)) - {declarer}
    partners = view["partner"] if view["partner"] != "unknown" else None
    row = state.game.definition.contracts.get(view["contract"])
    if row is not None and row.sides == "none":          # every seat for itself (a Ramsch)
        return {seat}
    if partners is None:
        return {seat}
    declarers = {declarer} | {names[p] for p in partners}
    if seat in declarers:
        return declarers
    if row is not None and row.sides in ("alone", "called"):
        return set(range(state.game.num_players)) - declarers
    return {seat}
