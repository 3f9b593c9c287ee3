"""Compiling contracts (the bidding ladder) and scoring items (a mixin of GameCompiler)."""

from __future__ import annotations

from rulelang.compile import ir
from rulelang.diagnostics import similar_names
from rulelang.compile.exprcompile import BOOL, CARD, INT, PLAYER_CODE, SEATS, Binding

SIDE_RULES = ("alone", "called", "parties", "none")


def announcement(item: str, word: str) -> str:
    """The action name of announcing ``item`` with ``word`` (for or against): ``slam_for``."""
    return f"{item}_{word}"


def doubling(word: str, item: str) -> str:
    """The action name of doubling ``item`` with ``word``: ``kontra_game``."""
    return f"{word}_{item}"


def _announce_sides(value) -> str:
    """Who may announce an item: "both", "for" (only the declaring side), "against", or "" (nobody)."""
    if value is True:
        return "both"
    return str(value) if value in ("for", "against") else ""


class ItemsMixin:
    """Contracts and items (the auction's action names are the auction construct's: rulelang/constructs/auction.py)."""

    def compile_contracts(self) -> dict:
        """The ladder rows under ``contracts``."""
        rows = {}
        for name, row in (self.data.get("contracts") or {}).items():
            row = row or {}
            path = ("contracts", name)
            scope = self.player_scope()
            sides = str(row.get("sides", "alone"))
            if sides not in SIDE_RULES:
                self.error("R330", f"contract '{name}': unknown side rule '{sides}'", path + ("sides",),
                           f"side rules: {', '.join(SIDE_RULES)}")
            calls = self.optional_rule(path + ("calls",), CARD, scope)
            if sides == "called" and calls is None and not self.has_phase("call"):
                self.error("R331", f"contract '{name}' forms sides by a called card but says not which card",
                           path, "add `calls: <card expression>`")
            items = row.get("items")
            defined = [str(k) for k in self.data.get("items") or {}]
            for i, item in enumerate(items or []):
                if str(item) not in defined:
                    close = similar_names(str(item), defined)
                    self.error("N218", f"contract '{name}' counts an item '{item}' that is not defined",
                               path + ("items", i), f"did you mean {' or '.join(repr(c) for c in close)}?" if close
                               else f"items are defined under `items`: {', '.join(defined) or 'none yet'}")
            rows[str(name)] = ir.Contract(
                name=str(name), rank=self.number(path + ("rank",), 0), value=self.rule(path + ("value",), INT),
                allow=self.optional_rule(path + ("allow",), BOOL, scope), calls=calls, sides=sides,
                items=[str(i) for i in items] if items is not None else None,
                bonus_factor=self.number(path + ("bonus_factor",), 1), span=self.doc.span_of(path))
        return rows

    def compile_items(self) -> dict:
        """The items under ``items``: the game and every bonus."""
        result = {}
        for name, spec in (self.data.get("items") or {}).items():
            spec = spec or {}
            path = ("items", name)
            scope = self.scope.child(side=Binding(SEATS, PLAYER_CODE))
            is_game = bool(spec.get("game", False))
            value = None if is_game else self.rule(path + ("value",), INT)
            result[str(name)] = ir.Item(
                name=str(name), is_game=is_game, value=value,
                announced_value=self.optional_rule(path + ("announced_value",), INT),
                announce=_announce_sides(spec.get("announce", False)), achieved=self.rule(path + ("achieved",), BOOL, scope),
                caught=self.optional_rule(path + ("caught",), BOOL, scope),
                against_kontra=bool(spec.get("against_kontra", False)), per_seat=bool(spec.get("per_seat", False)),
                title=str(spec.get("title", name)), exclusive=bool(spec.get("exclusive", False)),
                span=self.doc.span_of(path))
        return result
