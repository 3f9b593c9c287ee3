"""Deal arithmetic shared by the phases in which one seat takes cards and discards (``take_up``,
``take_talon``): checked at ``validate`` so that play can never reach a seat with no card to play.

A taking seat must hold enough cards to discard (R373), and must end with as many cards as every
other seat — trick play goes on while the winner of a trick holds cards, so a seat with a card
more or less than the others is left to act with no card, or ends the deal holding one (R374,
reported when trick play starts, at the phase that made the difference). A talon laid out in
parts must divide into them (R375).
"""

from __future__ import annotations


def take_and_discard(table, index: int, who: str, taken: int, discard: int, keeps_taken: bool) -> None:
    """``who`` takes ``taken`` cards and discards ``discard`` (none of those taken when ``keeps_taken``)."""
    hand = table.hand
    if hand is None or discard < 0:
        return
    holds = hand + taken
    may = holds - (taken if keeps_taken else 0)
    if discard > may:
        kept = f", and may not discard the {taken} taken" if keeps_taken and taken else ""
        table.report("R373", f"{who} discards {discard} cards here, but holds {holds} after taking {taken}{kept}",
                     index, f"discard as many cards as are taken ({taken}), or at most {may}", field=("discard",))
        table.hand = None
        return
    if holds - discard != hand:
        table.uneven = (index, who, holds - discard, hand, taken, discard)


def report_uneven(table) -> None:
    """R374 when trick play starts with one seat's hand larger or smaller than the others'."""
    if table.uneven is None or table.hand is None:
        return
    index, who, holds, others, taken, discard = table.uneven
    table.uneven = None
    table.report("R374", f"trick play starts with {who} holding {holds} cards and every other seat {others}: "
                 f"{who} takes {taken} and discards {discard}, so some seat is left to play with no card",
                 index, f"discard as many cards as are taken: `discard: {taken}`", field=("discard",))


def lay_out_parts(table, index: int, parts: int) -> int | None:
    """The cards in each of ``parts`` equal parts of the talon; R375 (and None) when it does not divide."""
    talon = table.talon
    if talon is None:
        return None
    if talon < parts or talon % parts:
        table.report("R375", f"a talon of {talon} cards cannot be laid out in {parts} equal parts", index,
                     f"name as many parts as divide the talon evenly (a divisor of {talon}), or change the deal",
                     field=("parts",))
        return None
    return talon // parts
