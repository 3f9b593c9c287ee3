"""Variant inheritance: ``extends`` chains resolved in order, a file that comes round again rejected.

A variant's mappings merge into its base key by key; any other value replaces the base's;
``null`` removes a key; ``phases`` given as a mapping ``{N: phase}`` replaces entry N
(1-based) of the base's list, ``{KIND: {key: value}}`` (or ``KIND N`` for the N-th phase of
that kind) changes the base's phase key by key, the rest of it kept.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Callable

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document

MAX_CHAIN = 32


def resolve_extends(doc: Document, load: Callable[[str, Document], Document]) -> Document:
    """The document with its whole ``extends`` chain merged in; ``load(ref, child)`` loads a base."""
    chain = [doc]
    keys = [_key(doc)]
    while chain[-1].data.get("extends") is not None:
        child = chain[-1]
        base = load(str(child.data["extends"]), child)
        keys.append(_key(base))
        if keys[-1] in keys[:-1] or len(chain) > MAX_CHAIN:
            cycle = " → ".join(Path(p).name for p in _cycle(keys)) or "a chain that is too long"
            raise RuleError([Diagnostic("R310", f"`extends` goes round in a circle: {cycle}",
                                        child.span_of(("extends",)), "a variant must extend a game that does not "
                                        "extend it back")])
        chain.append(base)
    result = chain[-1]
    for child in reversed(chain[:-1]):
        result = merge_documents(result, child)
    return result


def _key(doc: Document) -> str:
    return str(Path(doc.path).resolve()) if not doc.path.startswith("<") else doc.path


def _cycle(keys: list[str]) -> list[str]:
    """The files of the circle a chain of ``extends`` closes with its last file, first file repeated."""
    if keys[-1] not in keys[:-1]:
        return []
    return keys[keys.index(keys[-1]):]


REQUIRED = ("players", "deck", "phases", "match")
"""Keys a whole game must have, which a variant therefore may not remove."""


def merge_documents(base: Document, child: Document) -> Document:
    """``child`` laid over ``base``: data merged, spans taken from whichever document gave a value.

    Raises RuleError when the variant removes a key every game needs (R316) or gives a
    param a value of another kind than the base's (N229), located at the variant's line.
    """
    problems = list(_removed_required(base, child)) + list(_params_of_another_kind(base, child))
    if problems:
        raise RuleError(problems)
    spans = dict(base.spans)
    data = _merge(copy.deepcopy(base.data), child.data, (), child, spans)
    data.pop("extends", None)
    for key in ("game", "title"):
        if key in child.data:
            data[key] = child.data[key]
    return Document(data, spans, child.path)


def _merge(base, over, path: tuple, child: Document, spans: dict):
    if isinstance(base, dict) and isinstance(over, dict):
        for key, value in over.items():
            if value is None:
                base.pop(key, None)
                continue
            if key == "phases" and path == () and isinstance(value, dict) and isinstance(base.get(key), list):
                base[key] = _patch_list(base[key], value, child, spans)
                continue
            merged_mappings = isinstance(base.get(key), dict) and isinstance(value, dict)
            base[key] = _merge(base.get(key), value, path + (key,), child, spans)
            if merged_mappings:
                if path + (key,) in child.spans:
                    spans[path + (key,)] = child.spans[path + (key,)]
            else:
                _take_spans(spans, child, path + (key,))
        return base
    _take_spans(spans, child, path)
    return copy.deepcopy(over)


def _patch_list(items: list, patch: dict, child: Document, spans: dict) -> list:
    items = list(items)
    removed = []
    for key, value in patch.items():
        if not str(key).isdigit():
            index, kind = phase_named(items, str(key), child)
            items[index] = _patch_phase(items[index], kind, key, value, child, spans, index)
            continue
        index = int(key) - 1
        if not 0 <= index < len(items):
            raise RuleError([Diagnostic("R311", f"the base game has no phase '{key}' (it has {len(items)})",
                                        child.span_of(("phases", key)),
                                        f"phases of the base are replaced by number, 1 to {len(items)}, and "
                                        "changed key by key by kind (`tricks:`, `tricks 2:`)")])
        if value is None:
            removed.append(index)
            continue
        items[index] = copy.deepcopy(value)
        for path, span in child.spans.items():
            if path[:2] == ("phases", key):
                spans[("phases", index) + path[2:]] = span
    for index in sorted(removed, reverse=True):
        del items[index]
        for path in sorted((p for p in spans if p[:1] == ("phases",) and len(p) > 1 and isinstance(p[1], int)
                            and p[1] >= index), key=lambda p: p[1]):
            span = spans.pop(path)
            if path[1] > index:
                spans[("phases", path[1] - 1) + path[2:]] = span
    return items


def phase_named(items: list, key: str, child: Document) -> tuple[int, str]:
    """The index and kind of the base's phase a patch key names: ``KIND`` (the one phase of that kind) or
    ``KIND N`` (the N-th of them, from 1); R311 when there is no such phase or ``KIND`` alone is ambiguous."""
    kind, _, nth = key.partition(" ")
    found = [i for i, phase in enumerate(items) if isinstance(phase, dict) and kind in phase]
    numbers = ", ".join(str(i + 1) for i in found)
    if nth.strip().isdigit() and 1 <= int(nth) <= len(found):
        return found[int(nth) - 1], kind
    if not nth and len(found) == 1:
        return found[0], kind
    if not found:
        message = f"the base game has no `{kind}` phase"
        hint = (f"a phase is changed by its kind ({', '.join(dict.fromkeys(next(iter(p)) for p in items if p))}) "
                f"or replaced by its number, 1 to {len(items)}")
    elif nth:
        message, hint = f"the base game has {len(found)} `{kind}` phase(s), not a {nth}th", f"write `{kind} 1:` …"
    else:
        message = f"the base game has {len(found)} `{kind}` phases (phases {numbers})"
        hint = f"say which: `{kind} 1:` to `{kind} {len(found)}:`"
    raise RuleError([Diagnostic("R311", message, child.span_of(("phases", key)), hint)])


def _patch_phase(phase: dict, kind: str, key, change, child: Document, spans: dict, index: int) -> dict:
    """The base's phase with ``change`` merged into its body key by key (a mapping; ``null`` removes a key)."""
    if not isinstance(phase.get(kind), dict):
        raise RuleError([Diagnostic("R311", f"the base's `{kind}` phase is written as one value, with no keys to change",
                                    child.span_of(("phases", key)), "replace it whole by its number")])
    if not isinstance(change, dict):
        raise RuleError([Diagnostic("R311", f"a change to the `{kind}` phase is a mapping of the keys it changes",
                                    child.span_of(("phases", key)),
                                    f"write e.g. `{key}: {{when: …}}`; to replace the phase, name it by its number")])
    moved = {("phases", index, kind) + path[2:]: span for path, span in child.spans.items()
             if path[:2] == ("phases", key)}
    relocated = Document({"phases": {index: {kind: change}}}, moved, child.path)
    return {**phase, kind: _merge(copy.deepcopy(phase[kind]), change, ("phases", index, kind), relocated, spans)}


def _take_spans(spans: dict, child: Document, prefix: tuple) -> None:
    for path in [p for p in spans if p[:len(prefix)] == prefix]:
        del spans[path]
    for path, span in child.spans.items():
        if path[:len(prefix)] == prefix:
            spans[path] = span


def _removed_required(base: Document, child: Document):
    """R316 for each key a game needs that the variant sets to null or leaves empty."""
    for key in REQUIRED:
        if key in child.data and child.data[key] is None and base.data.get(key) is not None:
            yield Diagnostic("R316", f"`{key}:` is empty here, which removes the base game's {key}, and every game "
                             f"needs {'a ' + key if key != 'players' else 'a number of players'}",
                             child.span_of((key,)), f"give the {key} to change under `{key}:`, or leave the key "
                             "out to keep the base's", notes=[("the base's value", base.span_of((key,)))])


def _params_of_another_kind(base: Document, child: Document):
    """N229 for each param the variant gives a value of another kind (number, true/false, name) than the base."""
    base_params, child_params = base.data.get("params"), child.data.get("params")
    if not isinstance(base_params, dict) or not isinstance(child_params, dict):
        return
    for name, value in child_params.items():
        if name not in base_params or value is None or base_params[name] is None:
            continue
        was, now = _kind(base_params[name]), _kind(value)
        if was != now:
            yield Diagnostic("N229", f"the param '{name}' is {was} in the base game, but here it is {now} "
                             f"({value!r})", child.span_of(("params", name)),
                             f"give '{name}' {was}, as the base's rules use it", notes=[
                                 (f"the base's '{name}'", base.span_of(("params", name)))])


def _kind(value) -> str:
    """The kind of a param's value, in words."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "a name"
