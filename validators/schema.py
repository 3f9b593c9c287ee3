"""The JSON Schema of the rule document, and its check with messages in the game author's words.

:func:`check_schema` validates a :class:`~rulelang.read.document.Document` against
``schema.json`` (draft 2020-12) and turns each violation into a
:class:`~rulelang.diagnostics.Diagnostic` located through ``Document.span_of``:

=====  ==========================================================
C101   unknown key (with a "did you mean" and the allowed keys)
C102   missing required key
C103   wrong type of value
C104   value not allowed (not one of the listed values)
C105   unknown phase kind
C106   a phase entry is not a mapping with exactly one key
C107   any other schema violation (too small, empty, badly formed)
=====  ==========================================================

Beyond the schema file (C107): ``players`` is at most :data:`MAX_PLAYERS`, since seats are
the bits of one int; each construct adds its own limits (``Construct.limits``: a ``piles``
count is at most 64, since each pile is an action of its own). Hostile numbers there
would exhaust memory. ``schema.json`` is built from the constructs' fragments
(:mod:`rulelang.validators.schema_build`).

Phases are checked entry by entry: the entry's single key picks the phase kind and
its value is validated against that kind's sub-schema only, which gives far more
specific messages than a failed ``oneOf``. In a variant (a document with ``extends``)
keys set to null mean "remove this key" and are not checked, and mappings reached
through mappings alone may leave out required keys, since they are merged key by key
into the base; inside lists and phase entries, which replace the base's whole, every
required key must be given.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rulelang.constructs import construct
from rulelang.diagnostics import Diagnostic, sort_diagnostics, unique_diagnostics
from rulelang.read.document import Document

_TYPE_NOUNS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "empty",
}
MAX_PLAYERS = 64
_PHASE_ENTRY_HINT = "write each phase as its own list entry: '- kind: value', e.g. '- deal: {each: 3}'"


def schema() -> dict:
    """The rule document's JSON Schema (a fresh copy, safe to modify)."""
    return json.loads(_schema_text())


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _root() -> dict:
    return schema()


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(_root())


@lru_cache(maxsize=None)
def _phase_validator(kind: str) -> Draft202012Validator:
    """A validator for the value of one phase kind, with the document's definitions."""
    root = _root()
    wrapper = {"$schema": root["$schema"], "$defs": root["$defs"], **root["$defs"]["phase"]["properties"][kind]}
    return Draft202012Validator(wrapper)


def phase_kinds() -> list[str]:
    """The phase kinds in the order the schema lists them."""
    return list(_root()["$defs"]["phase"]["properties"])


def check_schema(doc: Document) -> list[Diagnostic]:
    """Every schema violation of ``doc``, in the author's words, best match first."""
    data = doc.data
    if not isinstance(data, dict):
        return [_diag(doc, "C103", f"the document must be a mapping of keys, got {_got(data)}", (),
                      "start the document with keys like 'game: my-game' and 'players: 4'")]
    variant = "extends" in data
    if variant:
        data = _without_nulls(data)
    found: list[Diagnostic] = []
    for error in _validator().iter_errors(data):
        path = tuple(error.absolute_path)
        if path[:1] == ("phases",) or (variant and error.validator == "required" and _merged(path)):
            continue
        found.extend(_diagnose(doc, error, (), _root()))
    if "phases" in data:
        found.extend(_check_phases(doc, data["phases"], variant))
    found.extend(_limits(doc, data))
    return sort_diagnostics(unique_diagnostics(found))


def _limits(doc: Document, data: dict) -> list[Diagnostic]:
    """Limits the schema file leaves open but the engine needs (see the module docs)."""
    found = []
    players = data.get("players")
    if _whole(players) and players > MAX_PLAYERS:
        found.append(_diag(doc, "C107", f"'players' must be at most {MAX_PLAYERS}, got {players}", ("players",),
                           "card games are played by a handful of players; the engine allows up to "
                           f"{MAX_PLAYERS}"))
    phases = data.get("phases")
    entries = phases.items() if isinstance(phases, dict) else enumerate(phases if isinstance(phases, list) else [])
    for key, entry in entries:
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        (kind, body), = entry.items()
        found_kind = construct(kind) if isinstance(kind, str) else None
        if found_kind is None or not isinstance(body, dict):
            continue
        for where, message, hint in found_kind.limits(body):
            value = body.get(where[-1], None)
            found.append(_diag(doc, "C107", f"{message}, got {_got(value)}", ("phases", key, kind) + where, hint))
    return found


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _without_nulls(data: dict) -> dict:
    """A variant's mappings without the keys set to null ("remove this key").

    Only mappings are merged key by key, so lists and the phases are left as written.
    """
    return {k: _without_nulls(v) if isinstance(v, dict) and k != "phases" else v
            for k, v in data.items() if v is not None}


def _merged(path: tuple) -> bool:
    """True if a variant's value at ``path`` is merged key by key into its base (no list on the way)."""
    return all(isinstance(step, str) for step in path)


# --- phases ----------------------------------------------------------------------------


def _check_phases(doc: Document, phases: Any, variant: bool) -> list[Diagnostic]:
    """Check ``phases``: a list of entries, or in a variant a mapping from number to entry."""
    at = ("phases",)
    if isinstance(phases, list):
        if not phases:
            return [_diag(doc, "C107", "'phases' is empty", at, "list the steps of one deal, e.g. '- deal: {each: 3}'")]
        return [d for i, entry in enumerate(phases) for d in _check_phase(doc, entry, at + (i,))]
    if variant and isinstance(phases, dict):
        return [d for key, entry in phases.items() for d in _check_numbered_phase(doc, key, entry)]
    expected = "a list of phases, or a mapping from phase number to phase" if variant else "a list of phases"
    return [_diag(doc, "C103", f"'phases' must be {expected}, got {_got(phases)}", at, _PHASE_ENTRY_HINT)]


def _check_numbered_phase(doc: Document, key: Any, entry: Any) -> list[Diagnostic]:
    at = ("phases", key)
    text = str(key)
    if not (text.isascii() and text.isdigit() and int(text) >= 1):
        return [_diag(doc, "C107", f"phase number '{key}' must be a whole number from 1", at,
                      "in a variant, 'phases' maps the number of a base phase (1 = the first) to its replacement")]
    return _check_phase(doc, entry, at)


def _check_phase(doc: Document, entry: Any, at: tuple) -> list[Diagnostic]:
    """One phase entry: exactly one key, a known kind, and a value fitting that kind."""
    kinds = phase_kinds()
    label = _phase_label(at)
    if not isinstance(entry, dict):
        hint = f"write '- {entry}: ...'" if entry in kinds else _PHASE_ENTRY_HINT
        return [_diag(doc, "C106", f"{label} must be a mapping with one key, the phase kind; got {_got(entry)}",
                      at, hint)]
    if len(entry) != 1:
        return [_many_keys(doc, entry, at, label, kinds)]
    (kind, value), = entry.items()
    if kind not in kinds:
        return [_diag(doc, "C105", f"unknown phase kind '{kind}'", at + (kind,),
                      _did_you_mean(kind, kinds, "the phase kinds are"))]
    return [d for error in _phase_validator(kind).iter_errors(value)
            for d in _diagnose(doc, error, at + (kind,), _phase_validator(kind).schema)]


def _many_keys(doc: Document, entry: dict, at: tuple, label: str, kinds: list[str]) -> Diagnostic:
    keys = list(entry)
    if not keys:
        return _diag(doc, "C106", f"{label} is empty; it needs one key, the phase kind", at,
                     "the phase kinds are " + ", ".join(kinds))
    known = [k for k in keys if k in kinds]
    if len(known) == 1:
        hint = (f"the keys of a phase go indented under its kind: '- {known[0]}:' and then "
                f"the keys {', '.join(k for k in keys if k != known[0])} on the next lines, further right")
    else:
        hint = _PHASE_ENTRY_HINT
    return _diag(doc, "C106", f"{label} has {len(keys)} keys ({', '.join(keys)}); a phase entry has exactly "
                 "one key, the phase kind", at + (keys[1],), hint)


def _phase_label(at: tuple) -> str:
    step = at[-1]
    return f"phase {step + 1}" if isinstance(step, int) else f"phase {step}"


# --- one jsonschema error to diagnostics -----------------------------------------------


def _diagnose(doc: Document, error: ValidationError, prefix: tuple, root: dict) -> list[Diagnostic]:
    """The diagnostics for one validation error found at ``prefix`` + its path."""
    at = prefix + tuple(error.absolute_path)
    handler = _HANDLERS.get(error.validator, _other)
    return handler(doc, error, at, root)


def _additional(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    allowed = list(error.schema.get("properties", {}))
    extra = [k for k in error.instance if k not in allowed]
    where = _where(at)
    return [_diag(doc, "C101", f"unknown key '{key}' {where}", at + (key,), _unknown_key_hint(key, allowed))
            for key in extra]


def _unknown_key_hint(key: str, allowed: list[str]) -> str:
    if not allowed:
        return "no keys are allowed here"
    match = difflib.get_close_matches(key, allowed, n=1)
    listing = "allowed keys: " + ", ".join(allowed)
    return f"did you mean '{match[0]}'? {listing}" if match else listing


def _required(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    found = []
    for key in [k for k in error.validator_value if k not in error.instance]:
        where = "" if not at else " " + _where(at)
        description = _property_description(root, error, key)
        hint = f"add '{key}:'" + (f". {description}" if description else "")
        found.append(_diag(doc, "C102", f"missing required key '{key}'{where}", at, hint))
    return found


def _type(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    message = f"{_name(at)} must be {_describe(error.schema)}, got {_got(error.instance)}"
    return [_diag(doc, "C103", message, at, _hint(root, error, at))]


def _enum(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    options = [error.validator_value] if error.validator == "const" else list(error.validator_value)
    message = f"{_name(at)} must be {_choices(options)}, got {_got(error.instance)}"
    return [_diag(doc, "C104", message, at, _value_hint(error.instance, options, root, error, at))]


def _value_hint(value: Any, options: list, root: dict, error: ValidationError, at: tuple) -> str:
    texts = [str(o) for o in options if isinstance(o, str)]
    match = difflib.get_close_matches(value, texts, n=1) if isinstance(value, str) else []
    hint = _hint(root, error, at)
    return f"did you mean '{match[0]}'? {hint}" if match else hint


def _alternatives(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    """anyOf/oneOf: descend into the one alternative of the right type, else say what fits."""
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errs for errs in by_branch.values() if not any(_is_own_type_error(e) for e in errs)]
    if len(fitting) == 1 and not any(e.validator in ("const", "enum") and len(e.relative_schema_path) == 2
                                     for e in fitting[0]):
        prefix = at[: len(at) - len(error.absolute_path)]
        return [d for sub in fitting[0] for d in _diagnose(doc, sub, prefix, root)]
    code = "C104" if fitting else "C103"
    message = f"{_name(at)} must be {_describe(error.schema)}, got {_got(error.instance)}"
    options = [b.get("const") for b in error.validator_value if "const" in b]
    return [_diag(doc, code, message, at, _value_hint(error.instance, options, root, error, at))]


def _is_own_type_error(error: ValidationError) -> bool:
    """True if the alternative itself wants another type of value (not something inside it)."""
    if error.relative_path:
        return False
    if error.validator == "type":
        return True
    if error.validator in ("const", "enum"):
        options = [error.validator_value] if error.validator == "const" else error.validator_value
        return all(_kind(o) != _kind(error.instance) for o in options)
    return False


def _kind(value: Any) -> str:
    """A JSON kind of ``value`` where true/false are not numbers."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def _other(doc: Document, error: ValidationError, at: tuple, root: dict) -> list[Diagnostic]:
    name, value, limit = _name(at), error.instance, error.validator_value
    if "propertyNames" in error.absolute_schema_path:
        return [_diag(doc, "C107", f"key '{value}' {_where(at)} is not {_describe(error.schema)}", at + (value,),
                      "names start with a letter or _ and use only letters, digits and _")]
    messages = {
        "minimum": f"{name} must be at least {limit}, got {_got(value)}",
        "maximum": f"{name} must be at most {limit}, got {_got(value)}",
        "minItems": f"{name} must have at least {limit} item{'s' if limit != 1 else ''}",
        "minLength": f"{name} must not be empty",
        "minProperties": f"{name} must not be empty",
        "uniqueItems": f"{name} lists the same value more than once",
        "pattern": f"{name} must be {_describe(error.schema)}, got {_got(value)}",
    }
    message = messages.get(error.validator, f"{name} is not valid: {error.message}")
    return [_diag(doc, "C107", message, at, _hint(root, error, at))]


_HANDLERS = {
    "additionalProperties": _additional,
    "required": _required,
    "type": _type,
    "enum": _enum,
    "const": _enum,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
}


# --- words -----------------------------------------------------------------------------


def _diag(doc: Document, code: str, message: str, at: tuple, hint: str) -> Diagnostic:
    return Diagnostic(code=code, message=message, span=doc.span_of(at), hint=hint)


def _name(at: tuple) -> str:
    """How the author would call the value at ``at``: 'players', item 2 of 'follow'."""
    if not at:
        return "the document"
    last = at[-1]
    if isinstance(last, int):
        parent = _name(at[:-1])
        return f"item {last + 1} of {parent}"
    return f"'{last}'"


def _where(at: tuple) -> str:
    """'in decide', 'at the top level', 'in item 1 of 'suits''."""
    if not at:
        return "at the top level"
    last = at[-1]
    return f"in {last}" if isinstance(last, str) else f"in {_name(at)}"


def _describe(schema: Any) -> str:
    """A noun phrase for what ``schema`` accepts."""
    if not isinstance(schema, dict):
        return "something else"
    if "title" in schema:
        return schema["title"]
    if "const" in schema:
        return str(schema["const"])
    if "enum" in schema:
        return _choices(schema["enum"])
    types = schema.get("type")
    if types:
        types = [types] if isinstance(types, str) else types
        return " or ".join(_TYPE_NOUNS.get(t, t) for t in types)
    return "something else"


def _choices(options: list) -> str:
    texts = [_plain(o) for o in options]
    if len(texts) == 1:
        return texts[0]
    return "one of " + ", ".join(texts)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _got(value: Any) -> str:
    """The value as the author wrote it, or its kind for collections."""
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= 40 else f"'{value[:37]}...'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    return _plain(value)


def _did_you_mean(word: str, choices: list[str], listing: str) -> str:
    match = difflib.get_close_matches(word, choices, n=1)
    tail = f"{listing} {', '.join(choices)}"
    return f"did you mean '{match[0]}'? {tail}" if match else tail


def _hint(root: dict, error: ValidationError, at: tuple) -> str:
    """The description of the property at fault, or of the schema that failed."""
    description = _trail_description(root, error)
    if not description and isinstance(error.schema, dict):
        description = error.schema.get("description")
    if description:
        return description
    return f"see docs/language.md for what {_name(at)} may be"


def _property_description(root: dict, error: ValidationError, key: str) -> str | None:
    """The description of property ``key`` of the object schema that reported ``error``."""
    prop = error.schema.get("properties", {}).get(key)
    if prop is None and error.absolute_schema_path and error.absolute_schema_path[0] in ("then", "else"):
        prop = root.get("properties", {}).get(key)
    return prop.get("description") if isinstance(prop, dict) else None


def _trail_description(root: dict, error: ValidationError) -> str | None:
    """The description of the innermost named property on the error's schema path."""
    node, previous, best = root, None, None
    for step in error.absolute_schema_path:
        node = _step(root, node, step)
        if node is None:
            break
        if isinstance(node, dict) and (previous == "properties" or step in ("additionalProperties", "items")):
            best = node.get("description", best)
        previous = step
    return best


def _step(root: dict, node: Any, step: Any) -> Any:
    """Follow one schema-path step, through ``$ref`` when the step is not in ``node``."""
    while isinstance(node, dict) and step not in node and "$ref" in node:
        node = _resolve(root, node["$ref"])
    try:
        return node[step]
    except (KeyError, IndexError, TypeError):
        return None


def _resolve(root: dict, ref: str) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node.get(part) if isinstance(node, dict) else None
    return node
