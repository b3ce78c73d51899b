"""Benchmark: the moderator against real mail servers (Dovecot + Postfix on 127.0.0.1).

Reports the figures BENCHMARKS.md asks for the mail service:

1. intake throughput over IMAP: N order emails waiting in the moderator's mailbox,
   read, stored, parsed, answered and filed by one `Incoming.read_once()` over the IMAP inbox;
2. the time from a player's SMTP send to the receipt landing in his IMAP mailbox,
   with `moderator serve` running (IMAP IDLE, outbox every second);
3. the idle CPU of `moderator serve` (utime + stime from /proc over a quiet period).

It starts its own mail servers with scripts/mailtest.sh (own folder and ports, needs
root and `bash scripts/mailtest.sh install`) and stops them at the end.

Run:  .venv/bin/python benchmarks/bench_mail.py [--emails 1000] [--idle-seconds 60]
"""

from __future__ import annotations

import argparse
import email
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from email.policy import default as default_policy
from email.utils import make_msgid
from pathlib import Path
from types import SimpleNamespace

from imapclient import IMAPClient
from sqlalchemy import func
from sqlmodel import Session, select

from moderator.desk import admin
from moderator.runners.incoming import Incoming
from moderator.settings.config import load_config
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, Player, PlayerAddress, Submission
from moderator.store.passwords import hash_password
from moderator.transport.imap import ImapInbox

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "mailtest.sh"
sys.path.insert(0, str(ROOT / "tests"))  # the tests' mail config writer

from support import write_mail_config  # noqa: E402

PORTS = {"MAILTEST_IMAP_PORT": "14143", "MAILTEST_IMAPS_PORT": "14993",
         "MAILTEST_SMTP_PORT": "14025", "MAILTEST_SMTPS_PORT": "14465",
         "MAILTEST_LMTP_PORT": "14024"}
MODERATOR, PLAYER = "moderator@pbem.test", "player1@pbem.test"
USERS = {MODERATOR: "moderator-secret", PLAYER: "player1-secret", "gm@pbem.test": "gm-secret"}
ORDERS = "WEEK 1: PRACTICE rapier\nWEEK 2: BAWDYHOUSE\nWEEK 3: PRACTICE rapier\n"


def script(env: dict[str, str], *args: str) -> str:
    proc = subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"mailtest.sh {args[0]} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def servers(env: dict[str, str]) -> dict[str, str]:
    script(env, "start", *(f"{a}:{p}" for a, p in USERS.items()))
    found = {}
    for line in script(env, "env").splitlines():
        key, _, value = line.partition("=")
        found[key] = shlex.split(value)[0] if value else ""
    return found


def write_config(folder: Path, mail: dict[str, str]) -> Path:
    """The tests' mail config (`support.write_mail_config`) for the servers ``mail`` names,
    with the outbox looked at every second."""
    servers = SimpleNamespace(host="127.0.0.1", cafile=mail["MAILTEST_CAFILE"],
                              imaps_port=int(mail["MAILTEST_IMAPS_PORT"]),
                              smtp_port=int(mail["MAILTEST_SMTP_PORT"]),
                              smtps_port=int(mail["MAILTEST_SMTPS_PORT"]))
    return write_mail_config(folder, servers, service="outbox_seconds = 1")


def smtp_send(mail: dict[str, str], messages: list[bytes]) -> None:
    import smtplib
    import ssl

    context = ssl.create_default_context(cafile=mail["MAILTEST_CAFILE"])
    with smtplib.SMTP("127.0.0.1", int(mail["MAILTEST_SMTP_PORT"]), timeout=60) as smtp:
        smtp.starttls(context=context)
        smtp.login(PLAYER, USERS[PLAYER])
        for raw in messages:
            smtp.sendmail(PLAYER, [MODERATOR], raw)


def imap_count(mail: dict[str, str], address: str, needle: bytes = b"") -> int:
    import ssl

    context = ssl.create_default_context(cafile=mail["MAILTEST_CAFILE"])
    with IMAPClient("127.0.0.1", port=int(mail["MAILTEST_IMAPS_PORT"]), ssl=True,
                    ssl_context=context, timeout=30) as client:
        client.login(address, USERS[address])
        client.select_folder("INBOX", readonly=True)
        if not needle:
            return len(client.search("ALL"))
        return len(client.search(["HEADER", "Subject", needle.decode()]))


def order_mail(sender: str, password: str, n: int, game: str = "bench") -> bytes:
    msg = email.message.EmailMessage(policy=default_policy)
    msg["From"], msg["To"], msg["Subject"] = sender, MODERATOR, f"[{game}] orders"
    msg["Message-ID"] = make_msgid(idstring=f"b{n}", domain="pbem.test")
    msg["Date"] = email.utils.formatdate()
    msg.set_content(f"PASSWORD: {password}\n{ORDERS}")
    return msg.as_bytes()


def bench_intake(mail: dict[str, str], folder: Path, n: int) -> dict[str, float]:
    config = load_config(write_config(folder, mail))
    db = open_store(config.database_url)
    with session_scope(db) as session:
        admin.create_game(session, config, "bench", "engarde", seed=1625)
    password_hash = hash_password("secret")  # setup: one hash for all
    with session_scope(db) as session:
        game = session.exec(select(Game)).one()
        from moderator.store import repo

        turn = repo.open_turn(session, game)
        from moderator import jsonio
        from moderator.dice import Dice
        from moderator.games import find_engine
        from moderator.settings.config import game_tables

        engine, tables = find_engine("engarde"), game_tables(config, "bench", "engarde")
        state = jsonio.loads(turn.state_before)
        for i in range(n):
            key = f"c{i:04d}"
            state, _ = engine.add_character(state, key, f"Chevalier {i:04d}", tables,
                                            Dice.for_turn(1625, 0))
            player = Player(game_id=game.id, name=f"Chevalier {i:04d}", character_key=key,
                            email=f"{key}@bench.pbem.test", password_hash=password_hash)
            session.add(player)
            session.flush()
            session.add(PlayerAddress(game_id=game.id, player_id=player.id, email=player.email))
        turn.state_before = jsonio.dumps(state)
    smtp_send(mail, [order_mail(f"c{i:04d}@bench.pbem.test", "secret", i) for i in range(n)])
    while imap_count(mail, MODERATOR) < n:
        time.sleep(0.5)
    os.environ["MODERATOR_IMAP_PASSWORD"] = USERS[MODERATOR]
    inbox = ImapInbox(config.imap)
    start = time.perf_counter()
    results = Incoming(db, config, inbox).read_once()
    elapsed = time.perf_counter() - start
    inbox.close()
    with Session(db) as session:
        stored = session.exec(select(func.count()).select_from(Submission)).one()
    return {"messages": len(results), "submissions stored": stored, "seconds": elapsed,
            "messages per second": len(results) / elapsed,
            "ms per message": elapsed / max(len(results), 1) * 1000}


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def bench_serve(mail: dict[str, str], folder: Path, rounds: int, idle_seconds: int) -> dict:
    config_path = write_config(folder, mail)
    config = load_config(config_path)
    db = open_store(config.database_url)
    with session_scope(db) as session:
        admin.create_game(session, config, "paris", "engarde", seed=1625)
        admin.add_player(session, config, "paris", PLAYER, "Jacques de Lyon", password="rapier")
    env = dict(os.environ, MODERATOR_IMAP_PASSWORD=USERS[MODERATOR],
               MODERATOR_SMTP_PASSWORD=USERS[MODERATOR])
    log = (folder / "serve.log").open("wb")
    serve = subprocess.Popen([str(Path(sys.executable).parent / "moderator"), "--config",
                              str(config_path), "serve"], env=env,
                             stdout=log, stderr=subprocess.STDOUT)
    try:
        while imap_count(mail, PLAYER, b"Welcome") < 1:  # serve is up and sending
            if serve.poll() is not None:
                raise SystemExit("serve stopped:\n" + (folder / "serve.log").read_text())
            time.sleep(0.2)
        time.sleep(3)  # let it settle into IDLE
        latencies = []
        for n in range(1, rounds + 1):
            sent = time.perf_counter()
            smtp_send(mail, [order_mail(PLAYER, "rapier", 10_000 + n, "paris")])
            while imap_count(mail, PLAYER, f"Orders v{n} ".encode()) < 1:
                if time.perf_counter() - sent > 60:
                    raise SystemExit("no receipt:\n" + (folder / "serve.log").read_text())
                time.sleep(0.02)
            latencies.append(time.perf_counter() - sent)
            time.sleep(1)
        time.sleep(5)
        hz = os.sysconf("SC_CLK_TCK")
        before, start = cpu_ticks(serve.pid), time.perf_counter()
        time.sleep(idle_seconds)
        used = (cpu_ticks(serve.pid) - before) / hz
        idle = used / (time.perf_counter() - start) * 100
    finally:
        serve.terminate()
        serve.wait(timeout=30)
    return {"receipt latency median (s)": statistics.median(latencies),
            "receipt latency max (s)": max(latencies), "rounds": rounds,
            "serve idle CPU (% of one core)": idle, "idle seconds measured": idle_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--idle-seconds", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # the mail daemons' users must be able to enter it
        env = dict(os.environ, MAILTEST_DIR=f"{tmp}/mailtest", **PORTS)
        mail = servers(env)
        try:
            (Path(tmp) / "intake").mkdir()
            (Path(tmp) / "serve").mkdir()
            intake = bench_intake(mail, Path(tmp) / "intake", args.emails)
            serve = bench_serve(mail, Path(tmp) / "serve", args.rounds, args.idle_seconds)
        finally:
            script(env, "stop")
    print("| figure | value |\n|---|---|")
    for label, value in {**{f"IMAP intake: {k}": v for k, v in intake.items()},
                         **serve}.items():
        print(f"| {label} | {value:.3f} |" if isinstance(value, float) else
              f"| {label} | {value} |")


if __name__ == "__main__":
    main()
