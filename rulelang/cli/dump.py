"""``rulelang dump --stage document|ir|tables|code``: the pipeline's stages as text."""

from __future__ import annotations

import json

from rulelang.constructs import construct
from rulelang.compile.deck import iter_bits


def dump(ref: str, stage: str) -> list[str]:
    """Lines of text showing ``stage`` of the game ``ref``."""
    from rulelang.loader import load_definition, open_document
    if stage == "document":
        return json.dumps(open_document(ref).data, indent=2, ensure_ascii=False).splitlines()
    definition = load_definition(ref)
    if stage == "code":
        return definition.code.source().splitlines()
    return dump_ir(definition) if stage == "ir" else dump_tables(definition)


def dump_ir(d) -> list[str]:
    """The compiled game: seats, phases with their rules, match rules."""
    lines = [f"game {d.name} ({d.title}) digest {d.digest}",
             f"players {d.players}, step {d.step:+d}, first dealer "
             f"{'random' if d.first_dealer is None else f'P{d.first_dealer + 1}'}, next dealer +{d.next_dealer}, "
             f"forehand +{d.forehand_offset}",
             f"deal variables: {', '.join(f'{k}: {v}' for k, v in d.deal_vars.items()) or 'none'}"]
    for number, phase in enumerate(d.phases, start=1):
        lines.append(f"phase {number}: {phase.kind}" + construct(phase.kind).dump(phase))
    m = d.match
    lines.append(f"match: start {m.start}; end when {m.end.text}; winner {m.winner}; tie {m.tie}")
    return lines


def dump_tables(d) -> list[str]:
    """The tables built once per game: cards, suits as bitmasks, action numbering."""
    deck = d.deck
    lines = ["cards (id name suit order points):"]
    for i, card in enumerate(deck.cards):
        lines.append(f"  {i:3} {card.name:6} {deck.suits[card.suit].name:10} {card.order:2} {card.points:3}")
    lines.append("suits (bitmask):")
    for suit, mask in zip(deck.suits, deck.suit_masks):
        lines.append(f"  {suit.name:10} {mask:#0{len(deck.cards) // 4 + 4}x}  {' '.join(deck.cards[c].name for c in iter_bits(mask))}")
    base = len(deck.cards)
    lines.append("actions:")
    lines.append(f"  0..{base - 1}: the cards")
    for i, symbol in enumerate(d.symbols):
        lines.append(f"  {base + i}: {symbol}")
    seat_base = base + len(d.symbols)
    lines.append(f"  {seat_base}..{seat_base + d.players - 1}: seats P1..P{d.players} (first dealer by lot)")
    return lines
