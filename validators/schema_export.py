"""The JSON Schema that ``rulelang schema`` prints for editors: whole games and variants alike.

A variant (a document with ``extends``) is merged into its base key by key, so in it every
key of a mapping is optional and ``null`` removes a key. The packaged ``schema.json``
describes the merged document; :func:`editor_schema` derives from it a schema that checks
a file as its author wrote it: ``if`` the document has ``extends``, ``then`` the variant
form (mappings reached through mappings alone lose their ``required`` keys and accept
null; lists and phase entries, which replace the base's whole, stay strict), ``else``
the form of a whole game.
"""

from __future__ import annotations

import copy

from rulelang.validators.schema import schema

REF = "#/$defs/"
LOOSE = "variant-"
NULL = {"type": "null"}


def editor_schema() -> dict:
    """The schema for editors: a whole game, or under ``extends`` a variant with every merged key optional."""
    strict = schema()
    defs = strict.pop("$defs")
    top = {key: strict.pop(key) for key in ("type", "additionalProperties", "properties")}
    branches = {key: strict.pop(key) for key in ("if", "then", "else")}
    loose_defs = {LOOSE + name: _loosened(body) for name, body in defs.items() if _is_mapping(body)}
    variant = _loosened(top)
    variant["properties"]["phases"] = copy.deepcopy(branches["then"]["properties"]["phases"])
    variant["properties"]["phases"]["anyOf"] = [NULL, {"$ref": REF + "phasePatch"}]
    variant["properties"]["phases"].pop("$ref", None)
    whole = copy.deepcopy(top)
    whole.update(branches["else"])
    whole["properties"] = {**top["properties"], **branches["else"]["properties"]}
    return {**strict, "if": {"required": ["extends"]}, "then": variant, "else": whole, "$defs": {**defs, **loose_defs}}


def _is_mapping(body: dict) -> bool:
    """Whether ``body`` describes a mapping a variant merges key by key (named keys, or keys of one kind)."""
    return body.get("type") == "object" and ("properties" in body or isinstance(body.get("additionalProperties"), dict))


def _loosened(body: dict) -> dict:
    """``body`` as a variant may write it: no required keys, each property may be null, nested mappings loosened."""
    loose = copy.deepcopy(body)
    loose.pop("required", None)
    if "properties" in loose:
        loose["properties"] = {name: _optional(prop) for name, prop in loose["properties"].items()}
    extra = loose.get("additionalProperties")
    if isinstance(extra, dict):
        loose["additionalProperties"] = _optional(extra)
    return loose


def _optional(prop: dict) -> dict:
    """One property of a loosened mapping: null, or its value with a mapping reference loosened too."""
    prop = copy.deepcopy(prop)
    ref = prop.pop("$ref", None)
    if ref is not None and ref.startswith(REF) and ref[len(REF):] in _mapping_defs():
        ref = REF + LOOSE + ref[len(REF):]
    if _is_mapping(prop):
        prop = _loosened(prop)
    described = {key: prop.pop(key) for key in ("description", "title") if key in prop}
    value = {"$ref": ref, **prop} if ref is not None else prop
    return {**described, "anyOf": [NULL, value]}


def _mapping_defs() -> set[str]:
    return {name for name, body in schema()["$defs"].items() if _is_mapping(body)}
