"""The courts made with `conftest.checked_court` during one test.

A module of its own because pytest imports ``conftest.py`` under a second name (``conftest``)
beside ``tests.dwtk.conftest`` that the test modules import: a list kept in conftest would be
two lists, and the after-test check would look at the empty one.
"""

from __future__ import annotations

from typing import Any

COURTS: list[Any] = []
