"""Checks of a variant against its base: overrides that change nothing (W608), and new names close to
the base's (W626).

The resolved document no longer says which values the variant wrote, so the variant's
own file is read again (without resolving it) and compared, key by key as the merge goes,
with its resolved base: a value equal to the base's, a phase replaced by an equal phase,
or a ``null`` that removes a key the base does not have.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from rulelang.diagnostics import WARNING, Diagnostic, RuleError, similar_names
from rulelang.read.document import Document
from rulelang.read.files import find_reference, read_document, resolve_document
from rulelang.validators.registry import check

_MISSING = object()


def variant_and_base(doc: Document) -> tuple[Document, Document] | None:
    """The variant as written and its resolved base, if ``doc`` was read from a variant file.

    A resolved variant keeps the span of its ``extends`` key, which tells it from a game
    without a base before any file is read again.
    """
    path = Path(doc.path)
    if ("extends",) not in doc.spans or doc.path.startswith("<") or not path.is_file():
        return None
    try:
        raw = read_document(path)
        ref = raw.data.get("extends")
        found = find_reference(ref, doc.path, None, "extends") if isinstance(ref, str) else None
        if found is None:
            return None
        return raw, resolve_document(read_document(found))
    except RuleError:
        return None


@check("overrides_change_something", needs_definition=False)
def overrides_change_something(doc: Document, game=None) -> Iterator[Diagnostic]:
    """Every value a variant writes should differ from its base's (W608)."""
    pair = variant_and_base(doc)
    if pair is None:
        return
    raw, base = pair
    for key, value in raw.data.items():
        if key in ("extends", "game", "title"):
            continue
        if key == "phases" and isinstance(value, dict):
            yield from _phase_patches(raw, base, value)
        else:
            yield from _compare(raw, base.data.get(key, _MISSING), value, (key,))


def _compare(raw: Document, base: Any, value: Any, path: tuple) -> Iterator[Diagnostic]:
    if value is None:
        if base is _MISSING:
            yield _unchanged(raw, path, f"`{_name(path)}: null` removes a key the base game does not have")
        return
    if isinstance(value, dict) and isinstance(base, dict):
        for key, sub in value.items():
            yield from _compare(raw, base.get(key, _MISSING), sub, path + (key,))
        return
    if base is not _MISSING and _equal(base, value):
        yield _unchanged(raw, path, f"`{_name(path)}` is given the value the base game already has")


_KINDS = {"items": "item", "contracts": "contract", "define": "definition"}    # a param: N230


@check("new_names_close_to_base", needs_definition=False, any_shape=True)
def new_names_close_to_base(doc: Document, game=None) -> Iterator[Diagnostic]:
    """W626: a name a variant adds (an item, contract, definition) close to one its base has: ``bonuss``
    beside the base's ``bonus`` is most likely a slip, and a new entry with a slip in its name changes nothing
    of the base's. Runs even when the schema refused the document (a new item lacks keys the base's has)."""
    pair = variant_and_base(doc)
    if pair is None:
        return
    raw, base = pair
    for section, kind in _KINDS.items():
        written, based = raw.data.get(section), base.data.get(section)
        if isinstance(written, dict) and isinstance(based, dict):
            for key in written:
                yield from _close_to_base(raw, (section, key), kind, based)


def _close_to_base(raw: Document, path: tuple, kind: str, base_entries: dict) -> Iterator[Diagnostic]:
    name = str(path[-1]).split("(")[0]
    names = {str(k).split("(")[0]: str(k) for k in base_entries}
    close = similar_names(name, names, n=1, cutoff=0.75)
    if close and name not in names:
        yield Diagnostic("W626", f"the {kind} '{name}' is new in this variant, and the base game has '{close[0]}'",
                         raw.span_of(path), f"to change the base's {kind}, write `{names[close[0]].split('(')[0]}:`; "
                         "a name the base lacks adds a new one", severity=WARNING)


def _phase_patches(raw: Document, base: Document, patches: dict) -> Iterator[Diagnostic]:
    from rulelang.read.resolve import phase_named
    phases = base.data.get("phases")
    for key, entry in patches.items():
        if not str(key).isdigit() and isinstance(phases, list):
            try:
                index, kind = phase_named(phases, str(key), raw)
            except RuleError:
                continue                                # reported when the variant is resolved
            yield from _compare(raw, phases[index].get(kind, _MISSING), entry, ("phases", key))
            continue
        index = int(key) - 1 if str(key).isdigit() else -1
        if isinstance(phases, list) and 0 <= index < len(phases) and _equal(phases[index], entry):
            yield _unchanged(raw, ("phases", key), f"phase {key} is replaced by the phase the base game already has")


def _equal(first: Any, second: Any) -> bool:
    """Equal as documents: same structure and values, ``1`` and ``true`` kept apart."""
    if type(first) is not type(second):
        return False
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(_equal(first[k], second[k]) for k in first)
    if isinstance(first, list):
        return len(first) == len(second) and all(_equal(a, b) for a, b in zip(first, second))
    return first == second


def _name(path: tuple) -> str:
    return ".".join(str(step) for step in path)


def _unchanged(raw: Document, path: tuple, message: str) -> Diagnostic:
    return Diagnostic("W608", f"this override changes nothing: {message}", raw.span_of(path),
                      "remove it from the variant, or give it the value you meant", severity=WARNING)
