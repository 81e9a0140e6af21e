"""The pages in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

One server (uvicorn on a free port, in a thread) and one browser serve the whole
module. The browser is the system's ``chromium``, never one that Playwright
downloads; where there is none (or Playwright is missing) every test here is
skipped with that reason. ``make test`` installs both where it can, so on Debian
with root (CI) they run.

The table is played by clicking; what the page shows as the result is checked
against the engine's replay of the hand that the server stored. The table's
screenshot is kept in ``artifacts/web_table.png`` (ignored by git).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checkraise.histories import load_hands, open_database, replay
from checkraise.histories.record import HandRecord

pytestmark = pytest.mark.xdist_group("browser")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
RIVER = {"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
         "ranges": {"oop": "AA,QQ,T8s,65s", "ip": "KK,JJ,A9s"},
         "sizes": {"bet": [50, 100], "raise": [100]}}


def _chromium() -> str:
    path = os.environ.get("CHECKRAISE_CHROMIUM") or shutil.which("chromium")
    if path is None:
        pytest.skip("no chromium on this machine (Debian: apt-get install chromium; "
                    "`make test` installs it where it can)")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    import uvicorn

    from checkraise.solvers.spot.config import Spot
    from checkraise.solvers.spot.io import save_solution
    from checkraise.solvers.spot.solver import SpotSolver
    from checkraise.web.app import create_app

    root = tmp_path_factory.mktemp("web")
    solver = SpotSolver(Spot.from_dict(RIVER))
    solver.iterate(20)
    save_solution(solver, root / "solutions" / "river",
                  exploitability_pct=solver.exploitability(), command="test")
    db = root / "hands.sqlite"
    port = _free_port()
    config = uvicorn.Config(create_app(db_path=db, solutions=root / "solutions"),
                            host="127.0.0.1", port=port, log_level="warning",
                            log_config=None)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", db
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (the extra 'web': pip install -e '.[web]')")
    with sync_playwright() as p:
        # Each launch gets a fresh temporary profile of Playwright's own.
        launched = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    new = context.new_page()
    errors: list[str] = []
    new.on("pageerror", lambda exc: errors.append(str(exc)))
    yield new
    context.close()
    assert not errors, errors  # no script failed on the page


def _sit(page: Any, url: str, bots: list[str], seed: int, reload: bool = True) -> None:
    if reload:
        page.goto(url + "/")
        page.wait_for_selector("body[data-connected=yes]")
    page.select_option("#speed", "0")
    page.select_option("#seats", str(len(bots) + 1))
    for k, bot in enumerate(bots):
        page.select_option(f"#bot-choices label:nth-child({k + 1}) select", bot)
    page.fill("#seed", str(seed))
    page.click("#sit")
    _settle(page)


def _settle(page: Any) -> str:
    page.wait_for_selector("body[data-turn=you], body[data-turn=over]")
    return str(page.get_attribute("body", "data-turn"))


def _latest_hand(db: Path) -> HandRecord:
    conn = open_database(db)
    try:
        return list(load_hands(conn))[-1]
    finally:
        conn.close()


def _cards(page: Any, selector: str) -> list[str]:
    return [str(c) for c in page.eval_on_selector_all(
        f"{selector} .card", "cards => cards.map(c => c.dataset.card || 'back')")]


def test_a_hand_played_by_clicking_shows_the_engines_result(
        page: Any, server: tuple[str, Path]) -> None:
    url, db = server
    _sit(page, url, ["call", "call"], seed=41)
    # One pot-sized raise from its button, then check or call down.
    assert page.is_visible(".preset")
    page.click(".preset:text-is('pot')")
    while _settle(page) == "you":
        page.click("#checkcall")
    record = _latest_hand(db)
    payoffs = replay(record).payoffs()
    names = [s.name for s in record.seats]
    you = names.index("you")
    shown = int(page.get_attribute("#result", "data-chips"))
    assert shown == payoffs[you]
    word = "won" if shown > 0 else "lost" if shown < 0 else "broke even"
    assert word in page.inner_text("#result")
    assert _cards(page, "#board") == [_text(c) for c in record.board]
    assert _cards(page, "#seat-0") == [_text(c) for c in record.seats[you].hole_cards]
    assert float(page.get_attribute("#session-net", "data-bb")) == pytest.approx(
        payoffs[you] / 100)
    assert "you raise to" in page.inner_text("#log")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web_table.png"))
    assert (ARTIFACTS / "web_table.png").stat().st_size > 10_000


def _text(card: int) -> str:
    from checkraise.cards import format_card

    return format_card(card)


def test_the_amount_box_bets_and_an_illegal_amount_changes_nothing(
        page: Any, server: tuple[str, Path]) -> None:
    url, db = server
    page.goto(url + "/")
    page.wait_for_selector("body[data-connected=yes]")
    page.fill("#stack", "40")  # the stacks of the next table: 40 big blinds, the bot 250
    page.select_option("#seats", "2")
    page.fill("#bot-choices input", "250")
    _sit(page, url, ["call"], seed=8, reload=False)
    assert [p.split(" · ")[1] for p in page.eval_on_selector_all(
        ".seat .stack", "ss => ss.map(s => s.textContent)")] == ["3950", "24900"]
    log_before = page.inner_text("#log")
    low = int(page.get_attribute("#amount", "min"))
    page.fill("#amount", str(low - 1))
    page.click("#raise")
    page.wait_for_selector("body[data-errors='1']")
    assert "must be" in page.inner_text("#error")
    assert _settle(page) == "you" and page.inner_text("#log") == log_before
    page.fill("#amount", str(low + 50))
    page.click("#raise")
    _settle(page)
    assert f"you raise to {low + 50}" in page.inner_text("#log")
    while _settle(page) == "you":
        page.click("#checkcall")
    assert [s.stack for s in _latest_hand(db).seats] in ([4000, 25000], [25000, 4000])


def test_the_four_colour_deck_paints_diamonds_blue(page: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page.goto(url + "/replayer")
    page.evaluate("document.body.appendChild(cardElement('Ad'))")
    colour = "getComputedStyle(document.querySelector('body > .card.d')).color"
    assert page.evaluate(colour) == "rgb(209, 44, 44)"
    page.check("#four-colour")
    assert page.evaluate(colour) == "rgb(31, 95, 209)"


def test_the_replayer_steps_through_a_stored_hand_street_by_street(
        page: Any, server: tuple[str, Path]) -> None:
    url, db = server
    _sit(page, url, ["call"], seed=77)
    while _settle(page) == "you":
        page.click("#checkcall")
    record = _latest_hand(db)
    page.goto(url + "/replayer")
    page.wait_for_selector("tr.hand-row")
    page.click("tr.hand-row >> nth=0")  # the newest first
    page.wait_for_selector("body[data-step='0']")
    assert _cards(page, "#board") == []
    streets = page.eval_on_selector_all(".street-btn", "bs => bs.map(b => b.dataset.street)")
    assert streets == ["preflop", "flop", "turn", "river"]
    for street, dealt in [("flop", 3), ("turn", 4), ("river", 5)]:
        page.click(f".street-btn[data-street={street}]")
        assert _cards(page, "#board") == [_text(c) for c in record.board[:dealt]]
    page.click("#end")
    for k, seat in enumerate(record.seats):
        assert _cards(page, f"#seat-{k}") == [_text(c) for c in seat.hole_cards]
    assert page.inner_text("#step-count").startswith("(river, step")


def test_the_solution_viewer_browses_the_tree_and_its_grid(
        page: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page.goto(url + "/viewer")
    page.wait_for_selector("body[data-kind=decision]")
    assert page.locator(".cell").count() == 169
    # OOP's range AA, QQ, T8s, 65s: four classes drawn, the rest empty.
    assert page.locator(".cell .bars").count() == 4
    assert "OOP to act" in page.inner_text("#node-info")
    page.click(".action-btn[data-action=b50]")
    page.wait_for_selector("body[data-line=b50]")
    assert "IP to act" in page.inner_text("#node-info")
    assert page.locator(".cell .bars").count() == 3  # KK, JJ, A9s
    page.click(".cell[data-class=KK]")
    assert "EV" in page.inner_text("#detail") and "combos reach here" in page.inner_text(
        "#detail")
    page.click(".action-btn[data-action=f]")
    page.wait_for_selector("body[data-kind=end]")
    page.click("#line a >> nth=0")
    page.wait_for_selector("body[data-kind=decision][data-line='']")


def test_the_coach_panel_shows_the_equity_against_each_opponent(
        page: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page.goto(url + "/")
    page.wait_for_selector("body[data-connected=yes]")
    page.check("#coach")
    _sit(page, url, ["call", "raise"], seed=13, reload=False)
    while _settle(page) == "you" and not page.is_visible("#coach-panel"):
        page.click("#checkcall")
    assert page.is_visible("#coach-panel")
    names = page.eval_on_selector_all("tr.coach-row", "rs => rs.map(r => r.dataset.name)")
    assert names and set(names) <= {"call#1", "raise#2"}
    for text in page.eval_on_selector_all(".coach-equity", "cs => cs.map(c => c.textContent)"):
        assert 0.0 <= float(text.rstrip("%")) <= 100.0
