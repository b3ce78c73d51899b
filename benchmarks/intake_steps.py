"""Where intake's CPU goes, step by step (issue 16, goal 3).

Runs `bench_intake.run` (``--maildir``: one `process_inbox` pass over a Maildir of order
emails of a 1,000-character En Garde! turn) with each intake step, and the functions
named in `TIMED`, wrapped in a `time.process_time` stopwatch, and prints the CPU
milliseconds per email of each.  Nested entries are counted inside their callers too
(``answer`` includes ``queue_receipt``, which includes ``compose``).  The stopwatches
add a little to every figure; the total line is the benchmark's own.

Run:  .venv/bin/python benchmarks/intake_steps.py [--emails 1000]
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from collections.abc import Callable
from typing import Any

import bench_intake  # type: ignore[import-not-found]

from moderator.intake import process

# (module, function): each is replaced, in that module, by a timed copy.
TIMED = (
    ("moderator.runners.incoming", "process_message"),
    ("moderator.runners.incoming", "panic_reason"),
    ("moderator.intake.process", "read_message"),
    ("moderator.intake.process", "spool_raw"),
    ("moderator.intake.process", "store_raw"),
    ("moderator.intake.orders", "open_turn_context"),
    ("moderator.intake.orders", "set_aside_chatter"),
    ("moderator.intake.screen", "identify"),
    ("moderator.intake.screen", "forget_password"),
    ("moderator.intake.screen", "detect_bounce"),
    ("moderator.intake.answer", "queue_receipt"),
    ("moderator.intake.answer", "forecast_lines"),
    ("moderator.intake.answer", "standing"),
    ("moderator.publish.outgoing", "compose"),
    ("moderator.transport.maildir", "MaildirInbox.done"),
)
spent: dict[str, float] = {}


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start
    return run


def instrument() -> None:
    process.INTAKE_STEPS = tuple((name, timed(f"step {name}", step))
                                 for name, step in process.INTAKE_STEPS)
    for module_name, dotted in TIMED:
        owner: Any = importlib.import_module(module_name)
        *path, attribute = dotted.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, attribute, timed(dotted, getattr(owner, attribute)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=1000)
    args = parser.parse_args()
    instrument()
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    result = bench_intake.run("token", args.emails, 1000, maildir=True)
    print(f"{1000 * result['cpu seconds'] / args.emails:7.2f} ms  total "
          f"({result['per cpu second']:.1f} emails per CPU-second)")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{1000 * seconds / args.emails:7.2f} ms  {name}")


if __name__ == "__main__":
    main()
