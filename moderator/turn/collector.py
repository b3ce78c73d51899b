"""The garbage collector paused around a turn's adjudication (issue 16, goal 2).

A month's adjudication makes many objects that live on (the new state: characters,
ladies, events), and CPython's collector traverses every object that survived so far at
each of its older generations' collections: the bigger the month, the more often and the
longer, so a 5,000-character month cost 6.4x a 1,000-character one where the engine's own
work is 5.6x (and 40% of a 1,000-character month was the collector).  The engine frees
what it drops by reference counting; the collector only finds cycles, and any made during
the month are found at its next collection after the pause.  The engine itself never
touches the collector (it is pure); its caller does, here.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector off, then on again as it was.  Process-wide:
    another thread's work meanwhile runs without it too (nothing relies on it but memory);
    a nested or concurrent pause leaves it to the first to switch it back on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
