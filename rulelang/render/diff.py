"""What one game changes against another, in rule terms, from their resolved documents.

:func:`diff_documents` compares two resolved rule documents (``open_document(ref).data``)
section by section — the table, the cards (with named packs filled in), parameters,
phases, contracts, items, the match — and returns :class:`Change` records such as
``ranking: A 10 K Q J 9 8 7 → A K Q J 10 9 8 7`` or ``phase 6 decide: forbid pass when …
→ …``. Phases are aligned first (a phase inserted or removed does not make every later
phase look changed); within two aligned phases every differing key is one change.
Prose (``about``) and the game's id and title are not rules and are left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Callable

from rulelang.constructs import construct
from rulelang.diagnostics import RuleError
from rulelang.render.explain import effective_deck
from rulelang.read.expr import parse_expr, to_text
from rulelang.render.words import render, win_text

SECTIONS = ("table", "cards", "params", "phases", "contracts", "items", "match", "other")
SECTION_TITLES = {"table": "The table", "cards": "The cards", "params": "Parameters", "phases": "Phases",
                  "contracts": "Contracts", "items": "Items", "match": "The match", "other": "Other"}
NOT_RULES = {"game", "title", "about", "extends"}
TABLE_KEYS = {"players": "players", "direction": "direction", "teams": "teams"}
SEATING_WORDS = {"first_dealer": "first dealer", "next_dealer": "next dealer", "forehand": "forehand"}
MATCH_WORDS = {"start": "start score", "end": "end when", "winner": "winner", "tie": "tie", "exact": "exact finish"}
EXPANDED = {"counters": "counter {} (start)", "after_deal": "counter {} after each deal"}


@dataclass
class Change:
    """One difference: where (section and what), how (changed, added, removed) and the two values."""

    section: str
    what: str
    change: str
    before: Any = None
    after: Any = None

    @property
    def text(self) -> str:
        """The change as one line of text; a ``what`` ending in "when" reads straight into its condition."""
        before, after = render(self.before), render(self.after)
        if self.what.endswith(" when"):
            return {"added": f"{self.what} {after} (added)", "removed": f"{self.what} {before} (removed)"}.get(
                self.change, f"{self.what} {before} → {after}")
        if self.change == "added":
            return f"{self.what} added: {after}"
        if self.change == "removed":
            return f"{self.what} removed: {before}"
        return f"{self.what}: {before} → {after}"

    def to_json(self) -> dict:
        """A JSON-ready dict, with the line of text."""
        return {**asdict(self), "text": self.text}


# ---------------------------------------------------------------------- generic comparison
def compare_values(section: str, what: str, a, b) -> list[Change]:
    """Changes between two values: mappings key by key, anything else as a whole."""
    if a == b:
        return []
    if a is None:
        return [Change(section, what, "added", None, b)]
    if b is None:
        return [Change(section, what, "removed", a, None)]
    if isinstance(a, dict) and isinstance(b, dict):
        return compare_maps(section, a, b, lambda key: f"{what} {key}")
    return [Change(section, what, "changed", a, b)]


def compare_maps(section: str, a: dict, b: dict, name: Callable[[str], str]) -> list[Change]:
    """Key-by-key changes between two mappings; ``name(key)`` says what the key is."""
    changes = []
    for key in list(a) + [k for k in b if k not in a]:
        changes.extend(compare_values(section, name(str(key)), a.get(key), b.get(key)))
    return changes


# ---------------------------------------------------------------------- sections
def diff_table(a: dict, b: dict) -> list[Change]:
    """Players, direction and seating."""
    changes = []
    for key, word in TABLE_KEYS.items():
        changes.extend(compare_values("table", word, a.get(key), b.get(key)))
    seat_a, seat_b = a.get("seating") or {}, b.get("seating") or {}
    return changes + compare_maps("table", seat_a, seat_b, lambda k: SEATING_WORDS.get(k, f"seating {k}"))


def _suit_text(suit: dict) -> str:
    parts = [str(suit.get("symbol") or suit.get("letter") or "")]
    if suit.get("plays_as"):
        parts.append(f"as {suit['plays_as']}")
    if suit.get("ranks"):
        parts.append("ranks " + " ".join(str(r) for r in suit["ranks"]))
    return f"{suit.get('name')} ({', '.join(p for p in parts if p)})"


def diff_cards(a: dict, b: dict) -> list[Change]:
    """The pack, suits, ranking, points, aliases, tags and removed cards (named packs filled in)."""
    deck_a, deck_b = effective_deck(a), effective_deck(b)
    changes = compare_values("cards", "pack", deck_a.get("pack"), deck_b.get("pack"))
    suits_a = [_suit_text(s) for s in deck_a.get("suits") or []]
    suits_b = [_suit_text(s) for s in deck_b.get("suits") or []]
    if suits_a != suits_b:
        changes.append(Change("cards", "suits", "changed", suits_a, suits_b))
    ranks_a, ranks_b = (" ".join(str(r) for r in d.get("ranks") or []) or None for d in (deck_a, deck_b))
    changes.extend(compare_values("cards", "ranking", ranks_a, ranks_b))
    for key, word in (("points", "card points"), ("aliases", "aliases"), ("tags", "tags"), ("remove", "removed")):
        if deck_a.get(key) != deck_b.get(key):
            changes.append(_whole("cards", word, deck_a.get(key), deck_b.get(key)))
    rest = {"pack", "suits", "ranks", "points", "aliases", "tags", "remove"}
    other_a = {k: v for k, v in deck_a.items() if k not in rest}
    other_b = {k: v for k, v in deck_b.items() if k not in rest}
    return changes + compare_maps("cards", other_a, other_b, lambda k: f"deck {k}")


def _whole(section: str, what: str, a, b) -> Change:
    kind = "added" if a is None else "removed" if b is None else "changed"
    return Change(section, what, kind, a, b)


def diff_params(a: dict, b: dict) -> list[Change]:
    """Parameters by name."""
    return compare_maps("params", a.get("params") or {}, b.get("params") or {}, lambda k: f"param {k}")


def diff_match(a: dict, b: dict) -> list[Change]:
    """Start, end, winner, tie, exact finish, counters."""
    match_a, match_b = dict(a.get("match") or {}), dict(b.get("match") or {})
    changes = []
    for key, words in EXPANDED.items():
        rows_a, rows_b = match_a.pop(key, None) or {}, match_b.pop(key, None) or {}
        changes.extend(compare_maps("match", rows_a, rows_b, words.format))
    return compare_maps("match", match_a, match_b, lambda k: MATCH_WORDS.get(k, f"match {k}")) + changes


def diff_named(section: str, word: str) -> Callable[[dict, dict], list[Change]]:
    """A differ for a mapping of named rows (contracts, items): rows added, removed, or changed key by key."""
    def differ(a: dict, b: dict) -> list[Change]:
        """Changes of the ``section`` rows from ``a`` to ``b``."""
        rows_a, rows_b = a.get(section) or {}, b.get(section) or {}
        return compare_maps(section, rows_a, rows_b, lambda k: f"{word} {k}")
    return differ


def diff_other(a: dict, b: dict) -> list[Change]:
    """Top-level keys no other section covers."""
    known = NOT_RULES | set(TABLE_KEYS) | {"seating", "deck", "params", "phases", "contracts", "items", "match"}
    other_a = {k: v for k, v in a.items() if k not in known}
    other_b = {k: v for k, v in b.items() if k not in known}
    return compare_maps("other", other_a, other_b, str)


# ---------------------------------------------------------------------- phases
def phase_text(entry: dict) -> str:
    """One phase in rule terms: ``decide play | pass from next(forehand) leave pass; forbid pass when …``."""
    kind, body = next(iter(entry.items()))
    if not isinstance(body, dict):
        return f"{kind} {render(body)}"
    parts = [kind]
    for key, value in body.items():
        parts.append(_phase_part(kind, key, value))
    return " ".join(p for p in parts if p).replace(" ;", ";")


def _diff_key(kind, key: str):
    """How the construct of ``kind`` shows ``key`` (:class:`rulelang.constructs.base.DiffKey`), or None."""
    found = construct(kind) if isinstance(kind, str) else None
    return found.diff_keys.get(key) if found is not None else None


def _phase_part(kind, key: str, value) -> str:
    shown = _diff_key(kind, key)
    if shown is not None and shown.text is not None:
        return shown.text(value)
    if isinstance(value, bool):
        return key if value else f"{key} false"
    return f"{key} {render(value)}"


def _kind(entry: dict) -> str:
    return next(iter(entry))


def _identity(entry: dict):
    kind = _kind(entry)
    body = entry[kind]
    if not isinstance(body, dict):
        return body
    found = construct(kind) if isinstance(kind, str) else None
    return body.get(found.identity) if found is not None and found.identity else None


def similarity(a: dict, b: dict) -> int:
    """How well two phases match for alignment: 4 equal, 2–3 the same kind, 0 different kinds."""
    if a == b:
        return 4
    if _kind(a) != _kind(b):
        return 0
    return 3 if _identity(a) == _identity(b) else 2


def align(a: list, b: list) -> list[tuple[int | None, int | None]]:
    """Pairs (i, j) of aligned phases; (i, None) removed from a, (None, j) added in b — in order."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            score = similarity(a[i], b[j])
            paired = best[i + 1][j + 1] + score if score else -1
            best[i][j] = max(paired, best[i + 1][j], best[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n or j < m:
        score = similarity(a[i], b[j]) if i < n and j < m else 0
        if score and best[i][j] == best[i + 1][j + 1] + score:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif i < n and (j >= m or best[i][j] == best[i + 1][j]):
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    return pairs


def _label(i: int | None, j: int | None, kind: str) -> str:
    if i is None:
        return f"phase {j + 1}"
    if j is None:
        return f"phase (was {i + 1})"
    number = f"{j + 1}" if i == j else f"{i + 1}→{j + 1}"
    return f"phase {number} {kind}"


def _phase_words(label: str, key: str) -> Callable[[str], str]:
    if key == "forbid":
        return lambda option: f"{label}: forbid {option} when"
    return lambda sub: f"{label}: {key} {sub}"


def diff_phase_pair(label: str, a: dict, b: dict) -> list[Change]:
    """Changes between two aligned phases of the same kind, key by key."""
    body_a, body_b = a[_kind(a)], b[_kind(b)]
    if not (isinstance(body_a, dict) and isinstance(body_b, dict)):
        return [Change("phases", label, "changed", phase_text(a), phase_text(b))]
    changes = []
    for key in list(body_a) + [k for k in body_b if k not in body_a]:
        va, vb = body_a.get(key), body_b.get(key)
        if va == vb:
            continue
        shown = _diff_key(_kind(a), key)
        if shown is not None and shown.expanded or isinstance(va, dict) and isinstance(vb, dict):
            changes.extend(compare_maps("phases", va or {}, vb or {}, _phase_words(label, key)))
        elif key == "when":
            changes.append(_whole("phases", f"{label}: only when", va, vb))
        else:
            value = shown.value if shown is not None and shown.value is not None else None
            changes.append(_whole("phases", f"{label}: {key}", _shown(value, va), _shown(value, vb)))
    return changes


def _shown(value, raw):
    """A changed key's value as the construct shows it (``value``), or as written."""
    return raw if raw is None or value is None else value(raw)


def diff_phases(a: dict, b: dict) -> list[Change]:
    """Phases aligned, then each pair compared; unmatched phases are added or removed."""
    phases_a, phases_b = a.get("phases") or [], b.get("phases") or []
    changes = []
    for i, j in align(phases_a, phases_b):
        if j is None:
            changes.append(Change("phases", _label(i, None, ""), "removed", phase_text(phases_a[i]), None))
        elif i is None:
            changes.append(Change("phases", _label(None, j, ""), "added", None, phase_text(phases_b[j])))
        elif phases_a[i] != phases_b[j]:
            changes.extend(diff_phase_pair(_label(i, j, _kind(phases_b[j])), phases_a[i], phases_b[j]))
    return changes


DIFFERS: dict[str, Callable[[dict, dict], list[Change]]] = {
    "table": diff_table, "cards": diff_cards, "params": diff_params, "phases": diff_phases,
    "contracts": diff_named("contracts", "contract"), "items": diff_named("items", "item"),
    "match": diff_match, "other": diff_other,
}


@lru_cache(maxsize=4096)
def canonical(text: str) -> str:
    """An expression's canonical text (``trump==hearts`` → ``trump == hearts``); other text unchanged."""
    if not any(ch.isspace() or ch in "()=<>'{" for ch in text):
        return text
    try:
        return to_text(parse_expr(text))
    except RuleError:
        return text


def normalized(value):
    """A document with every expression in canonical text, so YAML and DSL spellings compare equal."""
    if isinstance(value, str):
        return canonical(value)
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k in NOT_RULES else normalized(v) for k, v in value.items()}
    return value


def diff_documents(a: dict, b: dict) -> list[Change]:
    """Every rule change from resolved document ``a`` to resolved document ``b``, section by section."""
    a, b = normalized(a), normalized(b)
    changes = []
    for section in SECTIONS:
        changes.extend(DIFFERS[section](a, b))
    return changes


def diff_lines(name_a: str, name_b: str, changes: list[Change]) -> list[str]:
    """The changes as text, grouped under section headings."""
    lines = [f"{name_b} against {name_a}:"]
    if not changes:
        return lines + ["  no rule changes"]
    for section in SECTIONS:
        found = [c for c in changes if c.section == section]
        if found:
            lines.append(SECTION_TITLES[section])
            lines.extend(f"  {c.text}" for c in found)
    return lines
