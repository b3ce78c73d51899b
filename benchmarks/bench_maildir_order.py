"""Dating a pass's messages in a Maildir (issue 16, goal 3): CPU per message of
`in_delivery_order` over the messages in ``new/`` while ``cur/`` holds ``--read`` mails
(a mail client that marks mail read keeps it there).

With ``--base PATH`` the same is timed for the `moderator/transport/maildir.py` of
another tree (a worktree of an older commit), alternately with this one.

Run:  .venv/bin/python benchmarks/bench_maildir_order.py [--messages 500] [--read 1000]
          [--base /work/wt-base] [--rounds 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from pathlib import Path
from types import ModuleType

from moderator.transport import maildir


def _load(tree: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "base_maildir", tree / "moderator" / "transport" / "maildir.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fill(box: Path, messages: int, read: int) -> list[str]:
    for part in ("new", "cur", "tmp"):
        (box / part).mkdir()
    for i in range(read):
        (box / "cur" / f"{1700000000 + i}.M{i}P1.host:2,S").write_bytes(b"x")
    keys = [f"{1800000000 + i}.M{i}P2.host" for i in range(messages)]
    for key in keys:
        (box / "new" / key).write_bytes(b"y")
    return keys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--read", type=int, default=1000)
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    trees = [("this tree", maildir)]
    if args.base is not None:
        trees.insert(0, (f"base {args.base}", _load(args.base)))
    print(f"load average {os.getloadavg()[0]:.1f}; {args.messages} in new/, {args.read} in cur/")
    with tempfile.TemporaryDirectory() as tmp:
        box = Path(tmp)
        keys = _fill(box, args.messages, args.read)
        for _ in range(args.rounds):
            for name, module in trees:
                start = time.process_time()
                module.in_delivery_order(box, keys)
                each = (time.process_time() - start) * 1000 / len(keys)
                print(f"  {name}: {each:.3f} ms CPU a message")


if __name__ == "__main__":
    main()
