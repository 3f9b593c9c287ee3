"""The YAML surface syntax: YAML text to a :class:`~rulelang.read.document.Document`.

The text is composed into a node graph with PyYAML's safe loader (``yaml.compose``
with a :class:`yaml.SafeLoader` subclass; nothing is ever constructed from a tag) and
the graph is walked here to build plain data and to record a
:class:`~rulelang.read.source.Span` for every path:

* a mapping entry's span runs from the start of its key to the end of its value, so a
  diagnostic about an unknown key or a wrong value points at the ``key:`` line;
* a list item's span is the item itself; the root ``()`` spans the whole document;
* values reached through an alias (``*name``) carry the spans of the anchored original.

Scalars are read as YAML 1.1 does with the safe loader (``10`` is an int, ``true`` a
bool, ``~`` None), except that dates stay strings and a lone ``=`` is a string.
Mapping keys are always strings: a scalar key is taken as written, so a rank such as
``10:`` becomes the key ``"10"`` and ``true:`` the key ``"true"``; an empty or null key
and a list or mapping used as a key are errors (Y103).

Input is treated as untrusted. Every problem is a :class:`~rulelang.diagnostics.RuleError`:

======  =====================================================================
Y101    YAML syntax error (or a scalar that cannot be read as its type)
Y102    duplicate key in a mapping
Y103    a key that is not a string: empty/null, a list or a mapping
Y104    the top level is not a mapping
Y105    the document is empty
Y110    the file is larger than 1 MiB
Y111    nesting deeper than 64 levels
Y112    alias limits: more than 100 aliases, an alias expanding to more than
        10,000 values, an alias inside its own anchor, or a document expanding
        to more than 100,000 values (no "billion laughs")
Y113    a tag other than the standard ones (``!!python/object``, ``!custom``,
        ``!!binary``, merge keys ``<<``) -- reported, never constructed
======  =====================================================================
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document
from rulelang.read.source import SOURCES, Span

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_ALIAS_NODES = 10_000
MAX_NODES = 100_000

_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + name for name in ("str", "int", "float", "bool", "null")}
_ALLOWED_TAGS = {ScalarNode: _SCALAR_TAGS, SequenceNode: {_T + "seq"}, MappingNode: {_T + "map"}}
_DROPPED_RESOLVERS = {_T + "timestamp", _T + "value"}
_KIND_NOUN = {ScalarNode: "a value", SequenceNode: "a list", MappingNode: "a mapping"}
_PLAIN_VALUES_HINT = (
    "rule files use plain YAML only: text, numbers, true/false, lists and mappings; "
    "remove the tag"
)


def load_yaml(text: str, path: str) -> Document:
    """Load a rule document from YAML ``text`` read from ``path``.

    Returns the :class:`Document` with a span for every path; raises
    :class:`RuleError` (codes Y101-Y113, see the module docs) on any problem.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RuleError([_too_large(path)])
    SOURCES.add(path, text)
    try:
        root = yaml.compose(text, Loader=_GuardedLoader)
    except _LimitExceeded as limit:
        raise RuleError([limit.diagnostic(path)]) from None
    except yaml.YAMLError as error:
        raise RuleError([_syntax_diagnostic(error, text, path)]) from None
    return _document_from(root, path)


def _document_from(root: Node | None, path: str) -> Document:
    """Check the root node and walk it into a Document."""
    if root is None or (isinstance(root, ScalarNode) and root.tag == _T + "null"):
        where = Span(path, 1, 1) if root is None else _span(path, root)
        raise RuleError([_diag("Y105", "the document is empty", where,
                               "a rule document starts with keys like 'game: my-game' and 'players: 4'")])
    if not isinstance(root, MappingNode):
        raise RuleError([_diag(
            "Y104", f"the top level must be a mapping of keys, found {_KIND_NOUN[type(root)]}",
            _span(path, root), "start the file with 'key: value' lines such as 'game: my-game'")])
    walker = _Walker(path)
    data = walker.walk(root, (), 0, _span(path, root))
    if walker.diagnostics:
        raise RuleError(walker.diagnostics)
    return Document(data=data, spans=walker.spans, path=path)


# --- composing with limits -------------------------------------------------------------


class _LimitExceeded(Exception):
    """Raised from inside the composer when the input breaks a limit."""

    def __init__(self, code: str, message: str, mark: Any, hint: str):
        super().__init__(message)
        self.code, self.message, self.mark, self.hint = code, message, mark, hint

    def diagnostic(self, path: str) -> Diagnostic:
        """This limit as a diagnostic in ``path``."""
        return _diag(self.code, self.message, _mark_span(path, self.mark), self.hint)


def _implicit_resolvers() -> dict:
    """The safe loader's implicit resolvers without dates and the ``=`` value tag."""
    return {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROPPED_RESOLVERS]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


class _GuardedLoader(yaml.SafeLoader):
    """A safe loader whose composer enforces the depth, alias and size limits."""

    yaml_implicit_resolvers = _implicit_resolvers()

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0
        self._total = 0
        self._sizes: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        """Compose one node, counting its expanded size and checking every limit."""
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            return self._compose_alias(parent, index, event)
        if self._depth > MAX_DEPTH:
            raise _LimitExceeded("Y111", f"nesting deeper than {MAX_DEPTH} levels", event.start_mark,
                                 "flatten the structure; rule documents never need this much nesting")
        self._count(1, event.start_mark)
        self._depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        self._sizes[id(node)] = 1 + sum(self._sizes[id(child)] for child in _children(node))
        return node

    def _compose_alias(self, parent: Node | None, index: Any, event: AliasEvent) -> Node:
        self._aliases += 1
        if self._aliases > MAX_ALIASES:
            raise _LimitExceeded("Y112", f"more than {MAX_ALIASES} aliases", event.start_mark,
                                 "write the values out or use 'extends' and params instead of many aliases")
        node = super().compose_node(parent, index)
        size = self._sizes.get(id(node))
        if size is None:
            raise _LimitExceeded("Y112", f"alias '*{event.anchor}' is used inside its own anchor",
                                 event.start_mark, "an alias may only refer to a value that is complete")
        if size > MAX_ALIAS_NODES:
            raise _LimitExceeded("Y112", f"alias '*{event.anchor}' expands to {size} values",
                                 event.start_mark, f"an alias may expand to at most {MAX_ALIAS_NODES} values")
        self._count(size, event.start_mark)
        return node

    def _count(self, size: int, mark: Any) -> None:
        self._total += size
        if self._total > MAX_NODES:
            raise _LimitExceeded("Y112", f"the document expands to more than {MAX_NODES} values",
                                 mark, "aliases must not multiply the document; write it out plainly")


def _children(node: Node) -> list[Node]:
    """The nodes directly inside ``node`` (keys and values for a mapping)."""
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


# --- walking the node graph ------------------------------------------------------------


class _Walker:
    """Builds plain data from a composed node graph, recording spans and problems."""

    def __init__(self, path: str):
        self.path = path
        self.spans: dict[tuple, Span] = {}
        self.diagnostics: list[Diagnostic] = []
        self._constructor = SafeConstructor()

    def walk(self, node: Node, at: tuple, depth: int, span: Span) -> Any:
        """The plain value of ``node`` found at data path ``at``."""
        if depth > MAX_DEPTH:
            raise RuleError([_diag("Y111", f"nesting deeper than {MAX_DEPTH} levels (through aliases)",
                                   span, "flatten the structure or write the aliased value out")])
        self.spans[at] = span
        if node.tag not in _ALLOWED_TAGS[type(node)]:
            self.diagnostics.append(_bad_tag(node, self.path))
            return None
        if isinstance(node, MappingNode):
            return self._mapping(node, at, depth)
        if isinstance(node, SequenceNode):
            return [self.walk(item, at + (i,), depth + 1, _span(self.path, item))
                    for i, item in enumerate(node.value)]
        return self._scalar(node)

    def _mapping(self, node: MappingNode, at: tuple, depth: int) -> dict:
        out: dict[str, Any] = {}
        first_seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key is None:
                continue
            if key in first_seen:
                self.diagnostics.append(_duplicate(key, key_node, first_seen[key], self.path))
                continue
            first_seen[key] = key_node
            if isinstance(value_node, ScalarNode):
                span = _span(self.path, value_node)
            else:
                span = _span(self.path, key_node, value_node)
            out[key] = self.walk(value_node, at + (key,), depth + 1, span)
        return out

    def _key(self, node: Node) -> str | None:
        """The string key written at ``node``, or None after recording why it is not one."""
        span = _span(self.path, node)
        if not isinstance(node, ScalarNode):
            self.diagnostics.append(_diag(
                "Y103", f"a key must be a name, not {_KIND_NOUN[type(node)]}", span,
                "write the key as plain text before ':', e.g. 'name: value'"))
            return None
        if node.tag == _T + "merge":
            self.diagnostics.append(_diag(
                "Y113", "merge keys ('<<') are not supported", span,
                "write the keys out, or use 'extends' to build on another game"))
            return None
        if node.tag not in _SCALAR_TAGS:
            self.diagnostics.append(_bad_tag(node, self.path))
            return None
        if node.tag == _T + "null":
            self.diagnostics.append(_diag(
                "Y103", "a key is empty (or null)", span,
                "write a name before ':'; quote it ('null': ...) if you mean the word"))
            return None
        return node.value

    def _scalar(self, node: ScalarNode) -> Any:
        try:
            return self._constructor.construct_object(node)
        except Exception:  # noqa: BLE001 - any failure to read a scalar is the author's error
            kind = node.tag.removeprefix(_T)
            self.diagnostics.append(_diag(
                "Y101", f"cannot read {_shorten(node.value)!r} as {kind}", _span(self.path, node),
                "quote the value to make it text, or write a valid " + kind))
            return None


# --- diagnostics -----------------------------------------------------------------------


def _diag(code: str, message: str, span: Span | None, hint: str, notes: list | None = None) -> Diagnostic:
    return Diagnostic(code=code, message=message, span=span, hint=hint, notes=notes or [])


def _too_large(path: str) -> Diagnostic:
    return _diag("Y110", f"the file is larger than {MAX_BYTES // 1024 // 1024} MiB",
                 Span(path, 1, 1), "a rule document is a few kilobytes; is this the right file?")


def _bad_tag(node: Node, path: str) -> Diagnostic:
    tag = node.tag.replace(_T, "!!", 1) if node.tag.startswith(_T) else node.tag
    noun = _KIND_NOUN[type(node)]
    if node.tag in set().union(*_ALLOWED_TAGS.values()):
        message = f"the tag '{tag}' cannot be used on {noun}"
    else:
        message = f"unsupported tag '{tag}'"
    return _diag("Y113", message, _span(path, node), _PLAIN_VALUES_HINT)


def _duplicate(key: str, node: Node, first: Node, path: str) -> Diagnostic:
    return _diag("Y102", f"duplicate key '{key}'", _span(path, node),
                 "each key may appear only once in a mapping; YAML would silently keep the last one",
                 [(f"'{key}' is first given here", _span(path, first))])


def _span(path: str, start: Node, end: Node | None = None) -> Span:
    """The span from the start of ``start`` to the end of ``end`` (default: ``start``)."""
    a, b = start.start_mark, (end or start).end_mark
    return Span(path, a.line + 1, a.column + 1, b.line + 1, b.column + 1)


def _mark_span(path: str, mark: Any) -> Span:
    if mark is None:
        return Span(path, 1, 1)
    return Span(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


_PLAIN_WORDS = [
    # (fragment of PyYAML's problem, message, hint)
    ("mapping values are not allowed", "a ':' is not allowed here",
     "quote a value that contains ': ', or check the indentation of this line"),
    ("found character '\\t'", "a tab character cannot be used here",
     "indent with spaces only; YAML does not allow tabs for indentation"),
    ("could not find expected ':'", "expected ':' after a key",
     "each line of a mapping is 'key: value'; check for a missing ':' or an unclosed quote"),
    ("found undefined alias", "an alias refers to an anchor that is not defined before it",
     "define '&name' on a value before using '*name'"),
    ("expected a single document", "the file holds more than one YAML document",
     "a rule file is a single document; remove the extra '---' line"),
    ("found duplicate anchor", "the same anchor is defined twice",
     "give each '&anchor' a different name"),
    ("expected <block end>", "this line does not fit the indentation of the lines above",
     "keys of one mapping and items of one list must start at the same column"),
    ("did not find expected key", "expected a key here",
     "check the indentation: keys of one mapping start at the same column"),
    ("did not find expected '-' indicator", "expected a list item ('- ') here",
     "items of one list must start at the same column"),
    ("found unexpected end of stream", "the file ends inside a quoted text or a bracket",
     "close the quote or bracket that was opened"),
    ("expected ',' or ']'", "a '[' list is not closed properly", "separate items with ',' and close with ']'"),
    ("expected ',' or '}'", "a '{' mapping is not closed properly", "separate entries with ',' and close with '}'"),
    ("that cannot start any token", "this character cannot start a value",
     "quote the value (\"...\") if it starts with a special character such as @, ` or %"),
]


def _syntax_diagnostic(error: yaml.YAMLError, text: str, path: str) -> Diagnostic:
    """Y101 for anything PyYAML rejects, located at its problem mark."""
    if isinstance(error, yaml.reader.ReaderError):
        return _reader_diagnostic(error, text, path)
    problem = getattr(error, "problem", None) or ""
    context = getattr(error, "context", None) or ""
    context_mark = getattr(error, "context_mark", None)
    if "duplicate anchor" in context:
        problem, context = context.split(";")[0], "the anchor is first defined here"
    raw = problem or context or str(error)
    detail = f"{context} {raw}" if raw.startswith("but ") else raw
    message, hint = f"invalid YAML: {detail}", "check the indentation and the quoting around this place"
    for fragment, plain, plain_hint in _PLAIN_WORDS:
        if fragment in f"{context} {raw}":
            message, hint = f"invalid YAML: {plain} ({detail})", plain_hint
            break
    notes = [(context, _mark_span(path, context_mark))] if context and context_mark is not None else []
    mark = getattr(error, "problem_mark", None) or context_mark
    return _diag("Y101", message, _mark_span(path, mark), hint, notes)


def _reader_diagnostic(error: yaml.reader.ReaderError, text: str, path: str) -> Diagnostic:
    """Y101 for a character YAML does not allow anywhere in a file."""
    position = error.position if isinstance(error.position, int) else 0
    before = text[:position]
    line = before.count("\n") + 1
    column = position - (before.rfind("\n") + 1) + 1
    char = error.character
    code = ord(char) if isinstance(char, str) else char
    shown = f"#x{code:04x}" if isinstance(code, int) else repr(code)
    return _diag("Y101", f"invalid YAML: the character {shown} is not allowed in a YAML file",
                 Span(path, line, column, line, column + 1),
                 "remove it or write it as an escape inside a double-quoted string")

