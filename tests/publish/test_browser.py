"""Issue 12 in a real browser: Debian's headless Chromium, driven by Selenium.

* A gazette full of hostile press and names opens with no dialog and no console error.
* The gazette and a turn sheet, at 400 and 1000 CSS pixels, never scroll sideways.
* The site's index, an issue page and a character page load with their charts.

Screenshots are kept under ``var/screenshots/`` (CI artifacts).  Under ``CI=true`` a
browser test that cannot run fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from moderator.store import repo
from tests.publish.browser import chromium, overflow, screenshot, set_width
from tests.publish.conftest import Played
from tests.publish.payloads import PAYLOADS
from tests.publish.test_safety import _dwtk_turn, _engarde_turn

LOAD_SECONDS = 120


@pytest.fixture(scope="module")
def driver() -> Any:
    with chromium() as d:
        yield d


def _errors(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _no_dialog(driver: Any) -> bool:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        driver.switch_to.alert  # noqa: B018 (the property raises when there is none)
    except NoAlertPresentException:
        return True
    return False


def _open(driver: Any, path: Path) -> None:
    """Open ``path`` and wait until it and its images have loaded (a loaded machine is slow:
    a condition with a generous bound, not a pause)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(path.as_uri())
    WebDriverWait(driver, LOAD_SECONDS).until(lambda d: d.execute_script(
        "return document.readyState === 'complete'"
        " && Array.from(document.images).every(i => i.complete)"))


def test_hostile_gazettes_run_nothing_in_chromium(driver: Any, tmp_path: Path) -> None:
    # A page that does run a script proves the check can fail.
    probe = tmp_path / "probe.html"
    probe.write_text("<script>console.error('ran')</script>", encoding="utf-8")
    _open(driver, probe)
    assert any("ran" in e["message"] for e in _errors(driver))
    engarde, _ = _engarde_turn(PAYLOADS)
    pages = {"engarde-gazette": engarde.gazette.html, "dwtk-gazette": _dwtk_turn(PAYLOADS)
             .gazette.html, "engarde-sheet": next(iter(engarde.sheets.values())).html}
    for name, html in pages.items():
        page = tmp_path / f"{name}.html"
        page.write_text(html, encoding="utf-8")
        set_width(driver, 1000)
        _open(driver, page)
        assert _no_dialog(driver), name
        assert _errors(driver) == [], name
        assert driver.execute_script("return document.scripts.length") == 0
        assert driver.execute_script("return document.images.length") == 0
        screenshot(driver, f"xss-{name}")


@pytest.mark.parametrize("width", [400, 1000])
def test_gazette_and_sheet_fit_the_screen(driver: Any, played_games: Played, tmp_path: Path,
                                          width: int) -> None:
    with Session(played_games.db) as session:
        letters = {}
        for game in ("paris", "fandonia"):
            g = repo.game_by_name(session, game)
            rows = repo.newsletters(session, g, 2)
            letters[f"{game}-gazette"] = next(n for n in reversed(rows) if n.kind == "gazette")
            letters[f"{game}-sheet"] = next(n for n in reversed(rows) if n.kind == "turnsheet")
    set_width(driver, width)
    for name, row in letters.items():
        page = tmp_path / f"{name}.html"
        page.write_text(row.html, encoding="utf-8")
        _open(driver, page)
        screenshot(driver, f"{name}-{width}")
        assert overflow(driver) == 0, f"{name} at {width}px is too wide"
        text = driver.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('div.page'))"
            ".fontSize)")
        assert text >= 15, f"{name}: {text}px text"  # readable, not scaled down
        assert _errors(driver) == []


def test_the_site_loads_with_its_charts(driver: Any, played_games: Played) -> None:
    out = played_games.site
    pages = {"index": out / "index.html", "game": out / "paris/index.html",
             "issue": out / "paris/issue-002.html",
             "original": out / "paris/issue-002-original-1.html",
             "character": out / "paris/people/jacques-de-lyon.html",
             "dwtk-game": out / "fandonia/index.html"}
    for width in (400, 1000):
        set_width(driver, width)
        for name, page in pages.items():
            _open(driver, page)
            images = driver.execute_script(
                "return Array.from(document.images).map(i => [i.src, i.complete,"
                " i.naturalWidth])")
            assert all(done and natural > 0 for _src, done, natural in images), images
            if name in ("game", "character", "dwtk-game"):
                assert images, f"{name} has no chart"
            assert overflow(driver) == 0, f"{name} at {width}px"
            assert _errors(driver) == [], name
            screenshot(driver, f"site-{name}-{width}")
