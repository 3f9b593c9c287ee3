"""The private cache: the built parser and the verdicts of past checks, used only when safe."""

from __future__ import annotations

import os

import pytest
from helpers import ROOT, write_game
from lark import Lark

from rulelang.read import cache
from rulelang.diagnostics import RuleError
from rulelang.read.grammar import GRAMMAR_PATH, cache_file
from rulelang.loader import load_definition


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A fresh private cache folder for one test."""
    path = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(path))
    return path


def refuse_checks(monkeypatch):
    """Make any run of the semantic checks fail the test."""
    def fail(*args):
        raise AssertionError("the checks ran")
    import rulelang.validators.checks
    monkeypatch.setattr(rulelang.validators.checks, "run_checks", fail)


def test_a_clean_document_is_checked_once(folder, tmp_path, monkeypatch):
    game = write_game(tmp_path, "")
    first = load_definition(str(game))
    assert len(list((folder / "verdicts").iterdir())) == 1
    refuse_checks(monkeypatch)
    assert load_definition(str(game)).players == first.players


def test_a_document_mixing_number_and_text_keys_is_checked_once_too(folder, monkeypatch):
    first = load_definition("doppelkopf")                        # points A = 11, 10 = 10: keys "A" and 10
    assert len(list((folder / "verdicts").iterdir())) == 1
    refuse_checks(monkeypatch)
    assert load_definition("doppelkopf").players == first.players


def test_an_edited_document_is_checked_again(folder, tmp_path, monkeypatch):
    game = write_game(tmp_path, "")
    load_definition(str(game))
    game.write_text(game.read_text(encoding="utf-8").replace("own", "own2"), encoding="utf-8")
    refuse_checks(monkeypatch)
    with pytest.raises(AssertionError, match="the checks ran"):
        load_definition(str(game))


def test_a_document_with_errors_leaves_no_verdict(folder, tmp_path):
    game = write_game(tmp_path, "")
    game.write_text(game.read_text(encoding="utf-8").replace("players: 4", "players: 1"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RuleError, match="players"):
            load_definition(str(game))
    assert not (folder / "verdicts").exists()


def test_the_folder_is_made_private(folder):
    assert cache.cache_folder() == folder
    assert folder.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("mode", [0o770, 0o777, 0o702])
def test_a_folder_others_may_write_is_not_used(folder, mode):
    folder.mkdir()
    folder.chmod(mode)
    assert cache.cache_folder() is None
    assert cache_file("grammar") is False


def test_no_folder_means_no_cache_and_still_works(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocker / "cache"))
    assert cache.cache_folder() is None
    assert load_definition("zwanzig-ab").players == 4


def test_an_empty_setting_turns_the_cache_off(monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    assert cache.cache_folder() is None


def test_the_cached_parser_parses_like_a_built_one(folder):
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    options = dict(parser="lalr", start=["start", "expr"], propagate_positions=True, maybe_placeholders=True)
    path = cache_file(grammar)
    built = Lark(grammar, cache=path, **options)
    assert os.path.isfile(path)
    loaded = Lark(grammar, cache=path, **options)
    rules = (ROOT / "games" / "zwanzig-ab.rules").read_text(encoding="utf-8")
    assert loaded.parse(rules, start="start") == built.parse(rules, start="start")
