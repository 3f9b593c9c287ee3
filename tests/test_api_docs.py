"""docs/api.md: every Python example on the page runs, in order, as one program."""

from __future__ import annotations

import os
import re

from helpers import ROOT

import rulelang

PAGE = ROOT / "docs" / "api.md"


def examples() -> list[str]:
    """The ```python blocks of docs/api.md, in order."""
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)


def test_every_example_of_the_api_page_runs(tmp_path, capsys):
    blocks = examples()
    assert len(blocks) >= 10
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict = {}
        for number, block in enumerate(blocks, start=1):
            code = compile(block, f"docs/api.md example {number}", "exec")
            exec(code, namespace)  # noqa: S102 - the project's own documentation, as a test
    finally:
        os.chdir(here)
    assert "moves replayed" in capsys.readouterr().out


def test_the_public_names_are_importable_from_the_package():
    for name in rulelang.__all__:
        assert getattr(rulelang, name) is not None, name
    assert (ROOT / "rulelang" / "py.typed").is_file()
