"""The wording helpers every rendered view shares: a document value as short text.

The bottom of ``rulelang.render``: ``explain``, ``diff`` and ``trick_words`` import these, and
this module imports none of them.
"""

from __future__ import annotations


def plain(value) -> str:
    """A document value as short text: lists joined with commas, mappings as key value pairs."""
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(value) -> str:
    """A document value as short text in rule terms."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(render(v) for v in value)
    if isinstance(value, dict) and ("highest" in value or "card" in value):
        return win_text(value)
    if isinstance(value, dict):
        flat = all(not isinstance(v, (dict, list)) for v in value.values())
        return (", " if flat else "; ").join(f"{k} {render(v)}" for k, v in value.items())
    return str(value)


def win_text(rule) -> str:
    """One rule of ``win`` in rule terms: ``highest trump``, ``A♠ when …``."""
    if isinstance(rule, dict) and "highest" in rule:
        return f"highest {rule['highest']}"
    if isinstance(rule, dict) and "card" in rule:
        return f"{rule['card']}" + (f" when {rule['when']}" if rule.get("when") is not None else "")
    return render(rule)
