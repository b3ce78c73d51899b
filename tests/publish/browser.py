"""Headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium.

`.ci/run` installs both.  Where they are missing the browser tests skip, except under
``CI=true``, where a browser test that cannot run fails.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--allow-file-access-from-files")
T = TypeVar("T")


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser test cannot run under CI: {why}")
    pytest.skip(why)


# A start on a loaded machine can time out (chromedriver waiting for Chromium, Selenium
# waiting for chromedriver); it is tried again, at most this many times in all.
ATTEMPTS = 3


def require() -> None:
    """Skip (fail under CI=true) where Selenium, Chromium or chromedriver is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        _unavailable("selenium is not installed")
    if not (shutil.which(CHROMIUM) and shutil.which(DRIVER)):
        _unavailable("Debian's chromium and chromium-driver are not installed")


def chrome(profile: str, binary: str = CHROMIUM) -> Any:
    """One start of chromedriver and a headless ``binary`` using the folder ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def _users_of(profile: str) -> list[int]:
    """The live processes whose command line names this attempt's profile (a zombie's is
    empty: it has ended)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and profile.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:  # gone already, or not ours to read
            continue
    return found


def _kill_users_of(profile: str, within: float = 30.0) -> None:
    """Kill what a failed start left running: every process given this attempt's profile,
    and wait until none is left (a kill takes effect when the process next runs, and a
    browser may start a child meanwhile).

    Selenium stops its chromedriver when a start fails, but a Chromium that chromedriver
    gave up waiting for can outlive it.  The profile folder is new for each attempt, so
    only that attempt's processes name it.
    """
    deadline = time.monotonic() + within
    while (users := _users_of(profile)) and time.monotonic() < deadline:
        for pid in users:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)


def _remove_attempt(profile: str, settle: float = 1.0) -> None:
    """The failed attempt's processes killed and its profile folder removed, and removed
    again should a straggler (a child that did not name the profile) write into it before
    it noticed its parent gone: the folder must stay gone for ``settle`` seconds."""
    deadline = time.monotonic() + 30.0
    while True:
        _kill_users_of(profile)
        shutil.rmtree(profile, ignore_errors=True)
        quiet_until = time.monotonic() + settle
        while time.monotonic() < quiet_until and not Path(profile).exists():
            time.sleep(0.05)
        if not Path(profile).exists() or time.monotonic() > deadline:
            return


def start(make: Callable[[str], T], attempts: int = ATTEMPTS) -> tuple[T, str]:
    """``make(profile)`` with a fresh profile folder: the result and the folder.

    Only a start-up failure (WebDriverException: SessionNotCreatedException, Selenium's
    TimeoutException, the service that could not be reached) is tried again; each failed
    attempt's processes and profile are removed first.  The last failure is raised, so a
    browser that cannot start fails the test, under CI=true as elsewhere: never a skip.
    """
    from selenium.common.exceptions import WebDriverException

    for attempt in range(1, attempts + 1):
        profile = tempfile.mkdtemp(prefix="moderator-chromium-")
        try:
            return make(profile), profile
        except BaseException as error:
            _remove_attempt(profile)
            if attempt == attempts or not isinstance(error, WebDriverException):
                raise
    raise ValueError(f"attempts must be at least 1, not {attempts}")


@contextmanager
def chromium() -> Iterator[Any]:
    """A fresh headless Chromium with its own profile, closed afterwards."""
    require()
    driver, profile = start(chrome)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def set_width(driver: Any, width: int, height: int = 900) -> None:
    """Lay pages out as a device ``width`` CSS pixels wide (a phone at 400)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def overflow(driver: Any) -> int:
    """How many CSS pixels the page is wider than the screen (0: no horizontal scroll)."""
    return int(driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth;"))


def screenshot(driver: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
