"""docs/api.md, docs/openspiel.md, docs/pettingzoo.md: every Python example of a page runs, in order, as one program."""

from __future__ import annotations

import os
import re

import pytest
from helpers import ROOT

import rulelang

PAGES = {"api.md": 10, "openspiel.md": 1, "pettingzoo.md": 2}


def examples(page: str) -> list[str]:
    """The ```python blocks of a page of docs/, in order."""
    return re.findall(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("page", PAGES)
def test_every_example_of_the_page_runs(page, tmp_path):
    blocks = examples(page)
    assert len(blocks) >= PAGES[page]
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict = {}
        for number, block in enumerate(blocks, start=1):
            code = compile(block, f"docs/api.md example {number}", "exec")
            exec(code, namespace)  # noqa: S102 - the project's own documentation, as a test
    finally:
        os.chdir(here)


def test_the_public_names_are_importable_from_the_package():
    for name in rulelang.__all__:
        assert getattr(rulelang, name) is not None, name
    assert (ROOT / "rulelang" / "py.typed").is_file()
