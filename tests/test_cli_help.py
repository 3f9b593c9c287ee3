"""Every help text prints, and every command line the README and the docs show parses.

`rulelang --help` once ended in a traceback: argparse reads `%` in a help string as a
format code ("95% intervals"). These tests walk the whole parser instead of one command.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from rulelang.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_OPERATORS = {">", ">>", "|", "||", "&&", ";", "&", "<"}


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's name and its parser."""
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def options_of(command: argparse.ArgumentParser) -> set[str]:
    """Every option string a subcommand accepts (`--seed`, `-h`, …)."""
    return {flag for action in command._actions for flag in action.option_strings}


def shown_command_lines() -> list[tuple[str, int, str, bool]]:
    """(file, line, command, whole) for each `rulelang …` the docs show.

    `whole` is true for a line of a code block (a command to type, which must parse as
    it stands) and false for one written inline in the prose (a mention, whose command
    and options must exist but whose arguments may be placeholders).
    """
    found = []
    for path in DOC_FILES:
        in_block = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
                continue
            if in_block:
                match = re.search(r"(?:^|&& |\$ )(rulelang(?: .*)?)$", line.strip())
                if match:
                    found.append((path.name, number, match.group(1), True))
            else:
                for inline in re.finditer(r"`(rulelang [^`]*)`", line):
                    found.append((path.name, number, inline.group(1), False))
    return found


def words_before_shell(command: str) -> list[str]:
    """The words of a shell line up to its first redirection, pipe or comment."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    words = []
    for word in lexer:
        if word in SHELL_OPERATORS:
            break
        words.append(word)
    return words


def test_the_top_level_help_prints(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "COMMAND" in capsys.readouterr().out


def test_the_short_help_flag_prints(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["-h"])
    assert stop.value.code == 0
    assert "usage: rulelang" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_every_subcommand_help_prints(name, capsys):
    with pytest.raises(SystemExit) as stop:
        main([name, "--help"])
    assert stop.value.code == 0
    assert f"usage: rulelang {name}" in capsys.readouterr().out


def test_the_docs_show_command_lines():
    assert len([line for line in shown_command_lines() if line[3]]) >= 20


@pytest.mark.parametrize("where,number,command,whole", shown_command_lines(),
                         ids=lambda value: str(value)[:40])
def test_every_command_line_in_the_docs_parses(where, number, command, whole):
    words = words_before_shell(command)[1:]
    commands = subcommands()
    if whole:
        try:
            build_parser().parse_args(words)
        except SystemExit:
            pytest.fail(f"{where}:{number}: `{command}` does not parse")
        return
    name = words[0]
    assert name in commands, f"{where}:{number}: `{command}` names no command"
    for word in words[1:]:
        if word.startswith("-"):
            flag = word.split("=", 1)[0]
            assert flag in options_of(commands[name]), f"{where}:{number}: {name} has no {flag}"
