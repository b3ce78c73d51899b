"""Starting the browser for the browser tests: a start that fails is tried again.

A start that times out on a loaded machine cannot be provoked on demand, so the failures
here are real starts of chromedriver with ``/bin/false`` for Chromium (chromedriver answers
with the same SessionNotCreatedException), and a real headless Chromium left running
under the failed attempt's profile stands for the browser a timed-out start leaves.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.publish.browser import ATTEMPTS, CHROMIUM, FLAGS, chrome, require, start


@pytest.fixture(autouse=True)
def _browser() -> None:
    require()


def test_a_failed_start_is_cleaned_up_and_tried_again() -> None:
    failed: list[tuple[str, subprocess.Popen[bytes]]] = []

    def make(profile: str) -> Any:
        if failed:
            return chrome(profile)
        left = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                                 "about:blank"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        failed.append((profile, left))
        return chrome(profile, binary="/bin/false")

    driver, profile = start(make)
    try:
        assert driver.execute_script("return 6 * 7") == 42
        (first, left), = failed
        assert first != profile
        assert left.wait(timeout=60) != 0  # killed, not left running
        assert not Path(first).exists()
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        for _, left in failed:  # the test's own Chromium, should the check above fail
            left.kill()
            left.wait()


def test_a_start_that_keeps_failing_raises_after_the_last_attempt() -> None:
    from selenium.common.exceptions import SessionNotCreatedException

    profiles: list[str] = []

    def make(profile: str) -> Any:
        profiles.append(profile)
        return chrome(profile, binary="/bin/false")

    with pytest.raises(SessionNotCreatedException):
        start(make)
    assert len(profiles) == ATTEMPTS
    assert not any(Path(p).exists() for p in profiles)


def test_only_a_start_up_failure_is_tried_again() -> None:
    profiles: list[str] = []

    def make(profile: str) -> Any:
        profiles.append(profile)
        raise ValueError("not a browser that failed to start")

    with pytest.raises(ValueError):
        start(make)
    assert len(profiles) == 1
    assert not Path(profiles[0]).exists()
