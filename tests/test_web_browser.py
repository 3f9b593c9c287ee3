"""The web table in a real browser: Playwright drives the system's Chromium against ``rulelang serve``'s app.

Two people in two browser contexts (two devices, as far as the server can tell) and bots
in the other seats play a whole deal of each seed game. Each person's page is checked
for what it shows: its own hand only, the legal cards enabled and the rest dimmed, the
game's titles on the buttons; an illegal click gets the engine's reason and changes
nothing; a reload mid-deal comes back to the same table. Screenshots are taken on the
way (``RULELANG_SCREENSHOTS=DIR`` keeps them; ``docs/img/`` holds the README's).

The browser is Debian's ``chromium`` (``.ci/run`` installs it); no browser is downloaded.
Without it these tests are skipped, except under CI, where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from rulelang.web.app import create_app  # noqa: E402

CHROMIUM = os.environ.get("RULELANG_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
STEP_MS = 20_000


@pytest.fixture(scope="module")
def chromium():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed; .ci/run installs Debian's chromium package")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(str(tmp_path_factory.mktemp("store")), bot_delay=0.02)
    runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not runner.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert runner.started, "the server did not start"
    yield f"http://127.0.0.1:{port}"
    runner.should_exit = True
    thread.join(timeout=10)


def shoot(page, name: str, tmp_path: Path, whole: bool = True) -> None:
    """A screenshot (of the whole page, or what the window shows) into the test's folder, and into
    ``RULELANG_SCREENSHOTS`` when it is set."""
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=whole)
    keep = os.environ.get("RULELANG_SCREENSHOTS")
    if keep:
        page.screenshot(path=str(Path(keep) / f"{name}.png"), full_page=whole)


NAMES = ["Anna", "Bert", "Cleo", "Dana"]


def new_table(page, base: str, game: str, seats: list[str]) -> dict[str, str]:
    """Make a table in the lobby page as a person would, the people named from :data:`NAMES`; the seat links
    by seat name."""
    page.goto(base + "/")
    page.wait_for_selector(f"#game option[value='{game}']", state="attached")
    page.select_option("#game", game)
    for number, kind in enumerate(seats):
        page.select_option(f"#seats select[name=seat{number}]", kind)
        if kind == "person":
            page.fill(f"#seats input[name=name{number}]", NAMES[number])
    page.fill("#deals", "1")
    page.fill("#seed", "5")
    page.click("#create")
    page.wait_for_selector("#links a.seat-link")
    return {link.get_attribute("data-seat"): link.get_attribute("href")
            for link in page.query_selector_all("#links a.seat-link")}


def shown_cards(page, where: str) -> list[str]:
    """The card names drawn in one part of the page."""
    return [node.get_attribute("data-card") for node in page.query_selector_all(f"{where} [data-card]")]


def settled(page) -> dict:
    """Wait until the page shows a turn of this seat, or the end of the match; what it shows then."""
    page.wait_for_function("() => document.body.classList.contains('my-turn') || !document.getElementById('result')"
                           ".hidden || document.getElementById('status').textContent.startsWith('waiting')",
                           timeout=STEP_MS)
    return {"mine": page.evaluate("document.body.classList.contains('my-turn')"),
            "over": page.evaluate("!document.getElementById('result').hidden")}


def check_own_cards_only(pages: dict, hands: dict) -> None:
    """No page draws a card of another person's hand outside the trick (the called card is said aloud)."""
    for seat, page in pages.items():
        drawn = set(shown_cards(page, "#hand")) | set(shown_cards(page, "#opponents")) | set(shown_cards(page, "#public"))
        for other, cards in hands.items():
            if other != seat:
                assert not drawn & set(cards), f"{seat}'s page shows {drawn & set(cards)} of {other}'s hand"


def play_one_move(page, tmp_path: Path, illegal_tried: list) -> None:
    """Make one move on a page whose turn it is: try a dimmed card once first (and then ask for a hint once),
    then a legal card or button."""
    dimmed = page.query_selector_all("#hand button.card.disabled")
    if dimmed and page.query_selector("#hand button.card:not(.disabled)") and not illegal_tried:
        before = shown_cards(page, "#hand")
        dimmed[0].click(force=True)
        page.wait_for_function("() => document.getElementById('message').textContent.length > 0", timeout=STEP_MS)
        message = page.text_content("#message")
        assert message.startswith("You "), f"a refusal in plain words: {message}"
        assert page.is_visible("#why") and not page.is_visible("#why-text"), "the rule waits behind the toggle"
        page.click("#why summary")
        why = page.text_content("#why-text")
        assert "error[E5" in why and "hint:" in why, why
        assert shown_cards(page, "#hand") == before
        illegal_tried.append(message)
        shoot(page, "illegal-click", tmp_path)
    if len(illegal_tried) == 1:
        page.click("#hint-button")
        page.wait_for_function("() => document.getElementById('hint').textContent.length > 0", timeout=STEP_MS)
        assert "the heuristic player would play" in page.text_content("#hint")
        assert page.query_selector(".hinted") is not None
        illegal_tried.append("hint")
    step = page.evaluate("current.step")
    enabled = page.query_selector("#hand button.card:not(.disabled)")
    (enabled or page.query_selector("#decisions button")).click()
    page.wait_for_function(f"() => current.step > {step}", timeout=STEP_MS)


def play_deal(pages: dict, tmp_path: Path, game: str) -> list:
    """Both people play until the deal (the match of one deal) is over; reload one page mid-deal."""
    illegal_tried: list = []
    reloaded, trick_shot = False, False
    moves = 0
    while True:
        states = {seat: settled(page) for seat, page in pages.items()}
        if all(s["over"] for s in states.values()):
            return illegal_tried
        hands = {seat: shown_cards(page, "#hand") for seat, page in pages.items()}
        check_own_cards_only(pages, hands)
        for seat, page in pages.items():
            if states[seat]["mine"] and not states[seat]["over"]:
                if moves == 6:
                    shoot(page, f"{game}-{seat}-decision", tmp_path)
                if not trick_shot and page.evaluate("current.trick.length >= 2 && current.moves.cards.length > 0"):
                    shoot(page, f"{game}-{seat}-trick", tmp_path)
                    trick_shot = True
                play_one_move(page, tmp_path, illegal_tried)
                moves += 1
        if moves >= 10 and not reloaded:
            seat, page = next(iter(pages.items()))
            before = shown_cards(page, "#hand")
            page.reload()
            page.wait_for_selector("#players, #opponents .seat")
            page.wait_for_function("() => current !== null")
            assert shown_cards(page, "#hand") == before
            shoot(page, f"{game}-{seat}-mid-deal", tmp_path)
            reloaded = True


@pytest.mark.parametrize("game, seats", [
    ("zwanzigerrufen", ["person", "heuristic", "person", "heuristic"]),
    ("zwanzig-ab", ["person", "person", "heuristic", "random"]),
])
def test_two_people_and_bots_play_a_whole_deal_in_the_browser(chromium, server, tmp_path, game, seats):
    lobby = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    links = new_table(lobby, server, game, seats)
    shoot(lobby, f"{game}-lobby", tmp_path, whole=False)
    people = list(links)
    assert len(people) == 2
    pages = {}
    for seat in people:
        # no motion: axe would otherwise measure a trick's cards halfway through fading to their winner
        page = chromium.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce").new_page()
        page.goto(links[seat])
        page.wait_for_function("() => current !== null")
        pages[seat] = page
    for seat, page in pages.items():
        assert page.text_content("#my-seat strong") == f"{seat} · {NAMES[int(seat[1:]) - 1]} (you)"
        others = [s for s in people if s != seat]
        page.wait_for_function(f"() => current.players.find(p => p.seat === '{others[0]}').online")
        assert "at the table" in page.text_content(f"#opponents .seat[data-seat={others[0]}]")
    illegal = play_deal(pages, tmp_path, game)
    for seat, page in pages.items():
        assert "Match over" in page.text_content("#result h2") and " the match" in page.text_content("#result h2")
        assert page.query_selector_all("#result .standings tr.winner"), "the winners are marked in the standings"
        assert NAMES[int(seat[1:]) - 1] in page.text_content("#talk"), "the talk names people by their names"
        assert page.text_content("#facts dd") == "1", "the deal panel stays on the last deal"
        assert_accessible(page, f"{game} result")
        assert page.query_selector_all("#history tr")[1:], "the deal history lists the deal"
        shoot(page, f"{game}-{seat}-result", tmp_path)
        with page.expect_download() as download:
            page.click("#download")
        assert download.value.path().read_text(encoding="utf-8").startswith('{"type": "header"')
    seat, page = next(iter(pages.items()))
    old = page.url
    page.click("#again")
    page.wait_for_url(lambda url: url != old and "/t/" in url)
    page.wait_for_function("() => current !== null && current.result === null")
    assert page.text_content("#my-seat strong").startswith(seat)
    assert illegal or game == "zwanzig-ab", "no illegal click was tried"


def assert_accessible(page, where: str) -> None:
    """axe-core finds nothing on the page: every control named, enough contrast, ARIA used as allowed."""
    from axe_playwright_python.sync_playwright import Axe
    found = Axe().run(page).response["violations"]
    assert not found, f"{where}: " + "; ".join(f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                                             for v in found)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide in a {page.viewport_size['width']} px window"


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_table_sits_the_seats_around_the_felt_at_desktop_and_phone_sizes(chromium, server, tmp_path, width, height):
    context = chromium.new_context(viewport={"width": width, "height": height})
    lobby = context.new_page()
    links = new_table(lobby, server, "zwanzigerrufen", ["person", "heuristic", "heuristic", "heuristic"])
    no_sideways_scroll(lobby)
    assert_accessible(lobby, f"lobby at {width}")
    shoot(lobby, f"lobby-{width}", tmp_path, whole=False)
    page = context.new_page()
    assert "P1" in links, (links, lobby.text_content("#table-error"), lobby.text_content("#links"))
    page.goto(links["P1"])
    page.wait_for_function("() => current !== null")
    places = {node.get_attribute("data-seat"): node.get_attribute("data-place")
              for node in page.query_selector_all("#opponents .seat")}
    assert places == {"P2": "right", "P3": "top", "P4": "left"}, "anticlockwise: the next seat sits on your right"
    while not page.evaluate("current.trick.length >= 1 && current.your_turn"):
        settled(page)
        if page.evaluate("current.result !== null"):       # every trick led here: the last one's places, then
            laid = page.evaluate("current.last_trick.cards.map(c => [c.seat, placeOf(current, c.seat)])")
            assert all(place == places.get(seat, "bottom") for seat, place in laid), laid
            break
        if page.evaluate("current.your_turn"):
            if page.evaluate("current.moves.decisions.length > 0") and page.text_content("#phase-help"):
                assert_accessible(page, f"a decision at {width}")
            step = page.evaluate("current.step")
            (page.query_selector("#hand button.card:not(.disabled)") or page.query_selector("#decisions button")).click()
            page.wait_for_function(f"() => current.step > {step}", timeout=STEP_MS)
    for node in page.query_selector_all("#trick .played"):
        assert node.get_attribute("class").split()[1] == "at-" + places.get(node.get_attribute("data-seat"), "bottom")
    no_sideways_scroll(page)
    assert_accessible(page, f"the table at {width}")
    shoot(page, f"table-{width}", tmp_path, whole=False)


def test_a_german_pack_is_drawn_with_its_pips(chromium, server):
    page = chromium.new_context().new_page()
    links = new_table(page, server, "schafkopf", ["person", "random", "random", "random"])
    page.goto(links["P1"])
    page.wait_for_function("() => current !== null && current.hand.length > 0")
    cards = page.query_selector_all("#hand button.card")
    assert cards and all(card.query_selector("svg.pip") is not None for card in cards)
    assert page.query_selector("#hand .symbol") is None, "no letter stands in for a suit"


def test_a_forged_seat_link_opens_nothing(chromium, server):
    page = chromium.new_context().new_page()
    links = new_table(page, server, "zwanzig-ab", ["person", "random", "random", "random"])
    link = next(iter(links.values()))
    page.goto(link[:-4] + "abcd")
    page.wait_for_function("() => document.getElementById('status').textContent.length > 0")
    assert "opens no seat" in page.text_content("#status")
    assert shown_cards(page, "#hand") == []
