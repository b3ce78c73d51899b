"""Turn sheets rendered across the machine's cores (issue 16, goal 1).

A large turn's sheets are independent documents, so worker processes render slices of
them while this process renders the gazette.  The workers are forked: they inherit the
turn's data, the compiled templates and a Markdown converter instead of receiving them
pickled, and send back only the finished newsletters, in the readers' order.  Rendering
is pure, so the bytes are the same as in one process (tests/speed/test_render_speed.py).

Fork only, and only from a process with one thread: a fork copies every lock another
thread holds at that moment (logging, the import lock, a library's), and a worker that
needs one would wait for ever.  So under `serve` (intake, outbox and scheduler threads),
where the platform has no ``fork`` start method, or where this process is itself a
daemonic worker (which may not have children), the sheets render here, one by one.  A
pool that gives no answer within `RESULT_TIMEOUT` is stopped and the sheets are rendered
here instead: a turn is never left waiting on a worker.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
import threading
from collections.abc import Sequence
from multiprocessing import TimeoutError as PoolTimeout
from multiprocessing.pool import AsyncResult, Pool
from types import TracebackType
from typing import Any, Protocol

# Below this many sheets a turn renders in this process: forking and collecting the
# results cost more than the second core gives back.
PARALLEL_FROM = 200
# Slices per worker: small enough to even out sheets of different lengths.
SLICES_PER_WORKER = 4
# Seconds to wait for the workers before rendering the sheets here instead.
RESULT_TIMEOUT = 600.0


class Job(Protocol):
    @property
    def readers(self) -> Sequence[Any]: ...

    def warm(self) -> None: ...

    def sheet(self, reader: Any) -> Any: ...


_job: Job | None = None  # set in each worker by `_adopt` (inherited, not pickled)


def _adopt(job: Job) -> None:
    global _job
    _job = job


def _render_slice(bounds: tuple[int, int]) -> list[Any]:
    assert _job is not None
    return [_job.sheet(_job.readers[i]) for i in range(*bounds)]


def worker_count(count: int, workers: int | None) -> int:
    """How many processes render ``count`` sheets (1: this one, no pool)."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if count >= PARALLEL_FROM else 1
    if ("fork" not in multiprocessing.get_all_start_methods()
            or multiprocessing.current_process().daemon
            or threading.active_count() > 1):
        return 1
    return max(1, min(workers, count))


def slices(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into ``parts`` consecutive slices of near-equal size."""
    parts = max(1, min(parts, count))
    edges = [count * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in itertools.pairwise(edges) if b > a]


class SheetPool:
    """``with SheetPool(job, n, workers) as pool: ...; sheets = pool.results()``: the
    workers start at once and render while the body of the ``with`` runs."""

    def __init__(self, job: Job, count: int, workers: int | None = None) -> None:
        self.job = job
        self.count = count
        self.workers = worker_count(count, workers)
        self._pool: Pool | None = None
        self._pending: AsyncResult[list[list[Any]]] | None = None

    def __enter__(self) -> SheetPool:
        if self.workers > 1:
            self.job.warm()  # compiled once here, inherited by every worker
            # Frozen, the objects inherited are never traversed by a worker's collector,
            # which would spend time and copy every page it touched.
            gc.freeze()
            try:
                self._pool = multiprocessing.get_context("fork").Pool(
                    self.workers, initializer=_adopt, initargs=(self.job,))
            finally:
                gc.unfreeze()
            self._pending = self._pool.map_async(
                _render_slice, slices(self.count, self.workers * SLICES_PER_WORKER),
                chunksize=1)
        return self

    def results(self) -> list[Any]:
        """Every reader's sheet, in the readers' order."""
        if self._pending is not None:
            try:
                return [sheet for part in self._pending.get(RESULT_TIMEOUT) for sheet in part]
            except PoolTimeout:
                self._stop()
        return [self.job.sheet(reader) for reader in self.job.readers]

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop()
