"""`pip install .` installs every module: pyproject's package list names each package folder.

The list is explicit (``[tool.setuptools] packages``), so a folder added by a move of the
layout is left out of a wheel unless it is named; an editable install would not show it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def declared() -> tuple[list[str], dict[str, str]]:
    """The packages pyproject lists, and where each installed name's folder is."""
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return tool["packages"], tool["package-dir"]


def package_folders() -> set[str]:
    """Every folder holding Python modules or data that installs, by its dotted package name."""
    packages, folders = declared()
    found = set()
    for name, folder in folders.items():
        root = ROOT / folder
        for init in root.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            parts = init.parent.relative_to(root).parts
            found.add(".".join([name, *parts]))
    return found


def test_every_package_folder_is_in_the_package_list():
    packages, _ = declared()
    missing = sorted(package_folders() - set(packages))
    assert missing == [], f"pyproject.toml [tool.setuptools] packages lacks {missing}"


def test_the_package_list_names_no_folder_that_is_gone():
    packages, _ = declared()
    web_static = {"rulelang.web.static"}
    assert sorted(set(packages) - package_folders() - web_static) == []
