"""Comments kept through ``rulelang fmt``: found in the source text and placed by top-level key.

The document holds no comments, so :func:`collect_comments` reads them from the source
text (``#`` to the end of a line, outside quotes, in both syntaxes) and files each under
the top-level key whose lines hold it, or that follows it: the printers put a key's
comments on the lines before that key. Comments above the first key stay at the top and
those after the last key at the end. A comment inside a key's block moves up to just
before the key: formatting may move a comment, but never drops one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.read.document import Document

HEAD, TAIL = "<head>", "<tail>"


@dataclass
class Comments:
    """Comment lines (each starting with ``#``) by the top-level key they go before; HEAD and TAIL besides."""

    by_key: dict = field(default_factory=dict)

    def before(self, key) -> list[str]:
        """The comment lines to print before top-level key ``key`` (HEAD: the file's first lines)."""
        return self.by_key.get(key, [])


def collect_comments(text: str, doc: Document) -> Comments:
    """The comments of rule source ``text`` (of either syntax), filed by the keys of ``doc``."""
    ranges = _key_ranges(doc)
    lines = text.split("\n")
    found = Comments()
    for number, line in enumerate(lines, start=1):
        comment = comment_of(line)
        if comment is not None:
            owner = _owner(number, ranges)
            if owner == HEAD and ranges and _touches(lines, number, ranges[0][0]):
                owner = ranges[0][2]
            found.by_key.setdefault(owner, []).append(comment)
    return found


def _touches(lines: list[str], number: int, first: int) -> bool:
    """Whether only comment lines stand between line ``number`` and line ``first`` (no blank line)."""
    return all(comment_of(lines[n - 1]) is not None for n in range(number, first))


def comment_of(line: str) -> str | None:
    """The ``# …`` comment of one source line, outside quotes, without trailing blanks; None if there is none."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[index:].rstrip()
    return None


def _key_ranges(doc: Document) -> list[tuple[int, int, object]]:
    """(first line, last line, key) of every top-level key, in order of their first lines."""
    lines: dict = {}
    for path, span in doc.spans.items():
        if path and span is not None and span.path == doc.path:
            low, high = lines.get(path[0], (span.line, span.line))
            lines[path[0]] = (min(low, span.line), max(high, span.line))
    return sorted((low, high, key) for key, (low, high) in lines.items())


def _owner(number: int, ranges: list[tuple[int, int, object]]):
    """The key a comment on line ``number`` goes before: the one holding that line, else the next one."""
    if not ranges or number < ranges[0][0]:
        return HEAD
    for _, high, key in ranges:
        if number <= high:
            return key
    return TAIL


def with_comments(chunks: list[tuple[object, list[str]]], comments: Comments | None,
                  spacer: list[str] = ()) -> list[tuple[object, list[str]]]:
    """Printed chunks ``(key, lines)`` with each key's comments put on the lines before it.

    The file's head comments come first, followed by ``spacer`` (a blank line where the
    printer does not put one between chunks itself).
    """
    if comments is None:
        return chunks
    out = [(HEAD, comments.before(HEAD) + list(spacer))] if comments.before(HEAD) else []
    for key, lines in chunks:
        out.append((key, comments.before(key) + lines))
    if comments.before(TAIL):
        out.append((TAIL, comments.before(TAIL)))
    return out
