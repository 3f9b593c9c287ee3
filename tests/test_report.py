"""``rulelang simulate --report FILE.html``: a self-contained report with plots, safe with any rule file's words."""

from __future__ import annotations

import base64
import re
import sys

import pytest

from rulelang.cli.main import main
from rulelang.cli.report import render_report
from rulelang.cli.simulate import simulate

pytest.importorskip("matplotlib")


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def images(page: str) -> list[str]:
    """The SVG documents embedded in the page, decoded."""
    return [base64.b64decode(data).decode() for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)]


@pytest.fixture(scope="module")
def stats():
    return simulate("zwanzigerrufen", 30, 3, 2, agents="random").to_json()


def test_the_report_has_a_plot_for_each_thing_a_designer_looks_at_and_the_whole_table(capsys, tmp_path):
    target = tmp_path / "report.html"
    code, out, _ = run(capsys, "simulate", "zwanzigerrufen", "--deals", "30", "--matches", "3", "--seed", "2",
                       "--agents", "random", "--report", str(target), "--compare", "zwanziger-rufen-fi")
    page = target.read_text()
    assert code == 0 and "rulelang simulate" in out
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["Contracts", "Score change per deal", "Seat advantage", "Match length", "Items",
                        "All statistics"]
    assert len(images(page)) == 5 and all(svg.lstrip().startswith("<?xml") for svg in images(page))
    assert "<th>zwanzigerrufen</th><th>zwanziger-rufen-fi</th>" in page
    assert "played by random" in page and "30 single deals and 3 whole matches" in page


def test_the_report_is_self_contained_and_runs_nothing(stats):
    page = render_report([stats], {"seed": 2, "matches": 3, "agents": "random"})
    assert not re.search(r"(src|href)=\"(https?:|//)", page) and "<script" not in page
    assert "default-src 'none'" in page                      # the page's own policy forbids loading anything
    assert not any("<script" in svg for svg in images(page))


def test_words_from_a_rule_file_are_escaped_in_the_page_and_in_the_plots(stats):
    hostile = "<script>alert(1)</script>"
    forged = {**stats, "game": hostile, "contracts": {hostile: 0.5}, "contracts_made": {hostile: 0.5},
              "items": {hostile: {"scored": 0.5, "announced": 0.1}}}
    page = render_report([forged], {"seed": 1, "matches": 0, "agents": hostile})
    assert hostile not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert not any("<script" in svg for svg in images(page))


def test_a_game_without_contracts_items_or_matches_gets_no_empty_plots():
    plain = simulate("fuenf-dazu", 10, 0, 1, agents="random").to_json()
    page = render_report([plain], {"seed": 1, "matches": 0, "agents": "random"})
    assert re.findall(r"<h2>([^<]+)</h2>", page) == ["Score change per deal", "Seat advantage", "All statistics"]


def test_a_report_that_cannot_be_written_is_refused_before_any_deal_is_played(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "zwanzig-ab", "--report", str(tmp_path / "nowhere" / "r.html"))
    assert code == 2 and "does not exist" in err
    code, _, err = run(capsys, "simulate", "zwanzig-ab", "--report", str(tmp_path / "r.png"))
    assert code == 2 and "the report is an HTML file; name it FILE.html" in err


def test_without_matplotlib_the_report_is_a_usage_error_naming_the_extra(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run(capsys, "simulate", "zwanzig-ab", "--report", str(tmp_path / "r.html"))
    assert code == 2 and "pip install 'rulelang[report]'" in err
