"""Benchmark: 10,000 generated hostile and ordinary messages through intake (issue 13).

The messages come from tests/robust/fuzzmail.py (seeded: the same run every time).  Each
goes through `process_message` on a real SQLite store with one En Garde! game, with the
real password checks.  Reports what BENCHMARKS.md asks for:

* messages per second (wall clock), CPU per message: median, p99, max;
* peak memory (max RSS of this process);
* fates by category, crashes (an exception out of intake) and messages left without a
  fate (a distinct message with no row, or a row not in accepted/refused/ignored/failed);
* the reply-suite agreement figure and bounce-table agreement.

Run:  .venv/bin/python benchmarks/bench_fuzz.py [--count 10000] [--seed 13]
"""

from __future__ import annotations

import argparse
import logging
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlmodel import Session, select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "robust"))

from fuzzmail import CATEGORIES, messages  # noqa: E402
from reply_suites import EXCLUDED, agrees, cases  # noqa: E402

from moderator.intake.bounces import detect_bounce  # noqa: E402
from moderator.intake.process import process_message  # noqa: E402
from moderator.intake.quotes import strip_quotes_and_signature  # noqa: E402
from moderator.intake.spool import content_digest  # noqa: E402
from moderator.intake.text import normalise_text  # noqa: E402
from moderator.settings.config import load_config  # noqa: E402
from moderator.store.db import open_store  # noqa: E402
from moderator.store.models import ReceivedMessage  # noqa: E402
from moderator.store.statuses import MessageStatus  # noqa: E402

from support import make_game, write_config  # noqa: E402

FATES = {MessageStatus.ACCEPTED, MessageStatus.REFUSED, MessageStatus.IGNORED,
         MessageStatus.FAILED}


def run_fuzz(count: int, seed: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-fuzz-"))
    config = load_config(write_config(folder))
    db = open_store(config.database_url)
    make_game(db, config)
    cpu: list[float] = []
    fates: Counter[tuple[str, str]] = Counter()
    crashes = 0
    digests: set[str] = set()
    started = time.monotonic()
    for category, raw in messages(count, seed):
        digests.add(content_digest(raw))
        before = time.process_time()
        try:
            result = process_message(db, config, raw)
            fates[(category, str(result.status))] += 1
        except Exception as exc:  # a crash: counted, the run goes on
            crashes += 1
            fates[(category, f"crash {type(exc).__name__}")] += 1
        cpu.append(time.process_time() - before)
    wall = time.monotonic() - started
    with Session(db) as session:
        stored = list(session.exec(select(ReceivedMessage)))
    without = len(digests - {r.digest for r in stored}) + sum(
        1 for r in stored if r.status not in FATES)
    cpu.sort()
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"fuzz: {count} messages (seed {seed}) in {wall:.1f} s: {count / wall:.1f} msg/s")
    print(f"  CPU per message: median {statistics.median(cpu) * 1000:.1f} ms, "
          f"p99 {cpu[int(len(cpu) * 0.99) - 1] * 1000:.1f} ms, max {cpu[-1] * 1000:.1f} ms")
    print(f"  peak memory (max RSS): {rss_mib:.0f} MiB")
    print(f"  crashes: {crashes}; messages without a fate: {without}; "
          f"distinct messages: {len(digests)}, rows: {len(stored)}")
    print("  fates by category:")
    for category in CATEGORIES:
        row = {status: n for (c, status), n in sorted(fates.items()) if c == category}
        print(f"    {category:14} " + ", ".join(f"{s} {n}" for s, n in row.items()))


def run_suites() -> None:
    counted = [c for c in cases() if (c.suite, c.name) not in EXCLUDED]
    good = sum(agrees(strip_quotes_and_signature(normalise_text(c.text))[0], c.expected)
               for c in counted)
    print(f"reply suites: {good} of {len(counted)} agree ({good / len(counted):.1%}); "
          f"{len(EXCLUDED)} excluded (expected text not the writer's words)")
    import json

    folder = ROOT / "tests" / "emails" / "flufl_bounce"
    table = json.loads((folder / "expected.json").read_text())
    agree = 0
    for _detector, name, expected, _temporary in table:
        bounce = detect_bounce((folder / name).read_bytes(), person=False)
        found = set(bounce.recipients) if bounce else set()
        agree += found == {a.lower() for a in expected}
    print(f"bounces: {agree} of {len(table)} agree with flufl.bounce's own table"
          " (as intake reads mail from someone who is no player)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # intake logs each failure; the counts say it here
    run_suites()
    run_fuzz(args.count, args.seed)


if __name__ == "__main__":
    main()
