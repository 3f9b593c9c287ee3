"""What a person at the table is shown of their seat: a few lines built from ``observation(seat)``."""

from __future__ import annotations

from rulelang.constructs import construct


def describe_view(state, seat: int) -> str:
    """A few lines of what ``seat`` sees now: hand, trick on the table, scores, contract."""
    view = state.observation(seat)
    lines = [f"— deal {view['deal']}, dealer {view['dealer']}, forehand {view['forehand']}",
             f"  your hand: {' '.join(view['hand']) or '(empty)'}"]
    if view["vars"]:
        lines.append("  " + ", ".join(f"{k}: {v}" for k, v in view["vars"].items()))
    if view.get("contract"):
        from rulelang.interpreter.words import contract_title
        partner = view["partner"]
        known = "unknown" if partner == "unknown" else ", ".join(partner) or "none"
        called = f", calling {view['called']}" if view.get("called") else ""
        lines.append(f"  contract: {contract_title(state.game, view['contract'])} by {view['declarer']}{called}; "
                     f"partner: {known}")
    if view["trick"]:
        lines.append("  on the table: " + "  ".join(f"{s} {c}" for s, c in view["trick"]))
    lines.append("  scores: " + "  ".join(f"{s} {v}" for s, v in view["scores"].items()))
    phase = state.step
    if phase is not None:
        lines.append("  now: " + (construct(phase.kind).words or phase.kind))
    return "\n".join(lines)

