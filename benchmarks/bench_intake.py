"""Benchmark: intake of order emails on SQLite (issue 16, goal 3), side by side.

The 1,000-character month of `bench_month` (every character's full month of orders), one
email per character, run through `process_message` (spool, store raw, claim, route,
password, extract, parse against the open turn, store, receipt queued; one commit per
message) on a real SQLite file, with the players' passwords stored three ways:

* ``token``: generated tokens kept as HMAC-SHA256 under the server key (what the desk
  stores now);
* ``scrypt-old``: scrypt N=2^14, r=8, p=1 (what every password was stored as before);
* ``scrypt-now``: a GM-chosen password at today's parameters (N=2^14, r=8, p=5).

Beside them, the floor: `email.message_from_bytes` + `get_body()` on the same messages,
timed both ways (wall and this process's CPU): "x floor" is intake's time over the floor's.

With ``--maildir`` the emails are delivered to the configured Maildir inbox first and
read by one `process_inbox` pass (what `serve` does), instead of handed to
`process_message` one by one.  ``--world N``: the characters of the world (default: as
many as emails), so a few emails can be timed against a 1,000-character turn.  Wall
time and this process's CPU time (``process_time``) are both reported: the machine is
shared, and emails per CPU-second is the figure least moved by the load.

Run:  .venv/bin/python benchmarks/bench_intake.py [--emails 1000] [--scrypt-emails 200]
      [--world N] [--maildir]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import tempfile
import time
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

from bench_month import build_month  # type: ignore[import-not-found]

from moderator import jsonio
from moderator.demo import samples
from moderator.intake.process import process_message
from moderator.runners.incoming import process_inbox
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, Player, PlayerAddress, Turn
from moderator.store.passwords import hash_password, hash_token, new_password, server_key
from moderator.transport.maildir import open_maildir

ROOT = Path(__file__).resolve().parents[1]


def old_scrypt(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${2**14}$8$1${salt.hex()}${digest.hex()}"


def run(kind: str, n: int, world: int | None = None,
        maildir: bool = False) -> dict[str, float]:
    engine, _tables, state, texts = build_month(max(n, world or 0))
    keys = list(texts)[:n]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "config.toml").write_text(
            f'[database]\nurl = "sqlite:///{folder}/m.sqlite"\n'
            f'[paths]\ndata = "{ROOT / "data"}"\ntemplates = "{ROOT / "templates"}"\n'
            'spool = "spool"\narchive = "archive"\nkey_file = "moderator.key"\n')
        config = load_config(folder / "config.toml")
        db = open_store(config.database_url)
        key = server_key(config.key_file)
        if kind == "token":
            password = new_password()
            stored = hash_token(password, key)
        else:
            password = "secret"
            stored = old_scrypt(password) if kind == "scrypt-old" else hash_password(password)
        with session_scope(db) as session:
            game = Game(name="bench", kind="engarde", seed=1625)
            session.add(game)
            session.flush()
            session.add(Turn(game_id=game.id, number=1, label=engine.turn_label(state),  # type: ignore[arg-type]
                             seed=1625, state_before=jsonio.dumps(state)))
            for k, character in state["characters"].items():
                player = Player(game_id=game.id, name=character["name"], character_key=k,  # type: ignore[arg-type]
                                email=f"{k}@bench.example", password_hash=stored)
                session.add(player)
                session.flush()
                session.add(PlayerAddress(game_id=game.id, player_id=player.id,  # type: ignore[arg-type]
                                          email=player.email))
        when = datetime(2026, 12, 1, tzinfo=UTC)
        mails = [samples.thunderbird_plain(
            sender=f"{k}@bench.example", sender_name=k, to=config.moderator_address,
            subject="[bench] orders", body=f"PASSWORD: {password}\n" + texts[k], date=when,
            message_id=f"bench-{k}@bench.example") for k in keys]
        if maildir:
            inbox = open_maildir(config.maildir_inbox)
            for raw in mails:
                inbox.add(raw)
        start, cpu = time.perf_counter(), time.process_time()
        if maildir:
            statuses = [r.status for r in process_inbox(db, config)]
        else:
            statuses = [process_message(db, config, raw).status for raw in mails]
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        start, floor_cpu = time.perf_counter(), time.process_time()
        for raw in mails:
            message_from_bytes(raw, policy=policy.default).get_body()  # type: ignore[attr-defined]
        floor, floor_cpu = time.perf_counter() - start, time.process_time() - floor_cpu
        db.dispose()
    return {"emails": len(mails), "accepted": statuses.count("accepted"), "seconds": took,
            "cpu seconds": cpu, "per cpu second": len(mails) / cpu,
            "per second": len(mails) / took, "floor per second": len(mails) / floor,
            "ratio to floor": took / floor, "cpu ratio to floor": cpu / floor_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=1000)
    parser.add_argument("--scrypt-emails", type=int, default=200)
    parser.add_argument("--world", type=int, default=None,
                        help="characters in the world (default: as many as emails)")
    parser.add_argument("--maildir", action="store_true",
                        help="deliver to the Maildir inbox and read it with process_inbox")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    print("| passwords | emails | world | accepted | intake s | CPU s | emails/s "
          "| emails/CPU-s | floor emails/s | x floor | x floor (CPU) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for kind, n in (("token", args.emails), ("scrypt-old", args.scrypt_emails),
                    ("scrypt-now", args.scrypt_emails)):
        if not n:
            continue
        r = run(kind, n, args.world, args.maildir)
        print(f"| {kind} | {r['emails']} | {max(n, args.world or 0)} | {r['accepted']} | "
              f"{r['seconds']:.2f} | {r['cpu seconds']:.2f} | {r['per second']:.1f} | "
              f"{r['per cpu second']:.1f} | {r['floor per second']:.0f} | "
              f"{r['ratio to floor']:.0f} | {r['cpu ratio to floor']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
