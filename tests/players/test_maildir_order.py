"""Maildir order from the delivery time every MDA encodes (issue 11, item 2): the
seconds prefix, then the file's mtime, then the microseconds and counters of the name;
Dovecot-, Postfix- and procmail-style names in one inbox."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.runners.incoming import process_inbox
from moderator.settings.config import Config
from moderator.store.models import Submission
from moderator.transport.maildir import (
    delivered_mtime,
    delivery_order,
    in_delivery_order,
    open_maildir,
)

from support import make_game, order_mail

SECOND = 1764500000
DOVECOT = f"{SECOND}.M912345P4242.mx.paris.example,S=612,W=630"
POSTFIX = f"{SECOND}.V803I1c2M98765.mx.paris.example"
PROCMAIL = f"{SECOND}.4242_3.mx.paris.example"
PYTHON = f"{SECOND + 1}.M5P77Q1.mx.paris.example"


def put(folder: Path, name: str, raw: bytes, mtime_ns: int, sub: str = "new") -> None:
    path = folder / sub / name
    path.write_bytes(raw)
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_every_mda_style_sorts_by_seconds_then_mtime_then_name_numbers() -> None:
    # Without mtimes the microseconds decide (unpadded: 98765 < 912345), then counters.
    names = [PYTHON, DOVECOT, PROCMAIL, POSTFIX]
    assert sorted(names, key=delivery_order) == [PROCMAIL, POSTFIX, DOVECOT, PYTHON]
    # The mtime comes before the name's own numbers within one second...
    early = SECOND * 10**9
    assert delivery_order(DOVECOT, early + 1) < delivery_order(POSTFIX, early + 2)
    # ... never before the seconds prefix.
    assert delivery_order(PYTHON, early) > delivery_order(DOVECOT, early + 10**9)


def test_the_inbox_reads_mail_in_delivery_order(db: Engine, config: Config) -> None:
    make_game(db, config)
    folder = config.maildir_inbox
    open_maildir(folder)
    base = SECOND * 10**9
    weapons = {"rapier": (POSTFIX, 100), "sabre": (DOVECOT, 300), "cutlass": (PROCMAIL, 500)}
    for weapon, (name, offset_ms) in weapons.items():
        raw = order_mail("jacques@lyon.example", f"PASSWORD: rapier\nWEEK 1: PRACTICE {weapon}\n")
        put(folder, name, raw, base + offset_ms * 10**6)
    # A message already seen by a mail reader sits in cur/ with its flags.
    raw = order_mail("jacques@lyon.example", "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"
                     "WEEK 2: PRACTICE sabre\n")
    put(folder, f"{PYTHON}:2,S", raw, base + 1500 * 10**6, sub="cur")
    assert in_delivery_order(folder, [PYTHON, PROCMAIL, DOVECOT, POSTFIX]) == \
        [POSTFIX, DOVECOT, PROCMAIL, PYTHON]
    results = process_inbox(db, config)
    assert [r.status for r in results] == ["accepted"] * 4
    with Session(db) as session:
        texts = [s.normal_form_json for s in session.exec(
            select(Submission).order_by(Submission.version))]  # type: ignore[arg-type]
    assert ["rapier" in texts[0], "sabre" in texts[1], "cutlass" in texts[2]] == [True] * 3
    assert "WEEK 2" in texts[3]


def test_a_message_in_new_is_dated_without_listing_cur(tmp_path: Path,
                                                       monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each message of a pass is dated by its file: one in new/ (where the MDA puts
    mail) is found there at once; listing cur/ for each one made a pass of n messages
    list cur/ n times (issue 16, goal 3).  One already in cur/ is still found."""
    box = tmp_path / "inbox"
    open_maildir(box)
    put(box, DOVECOT, b"x", 5 * 10**9)
    put(box, f"{POSTFIX}:2,S", b"y", 7 * 10**9, sub="cur")
    listed: list[str] = []
    real_glob = Path.glob

    def counting_glob(self: Path, pattern: str):  # type: ignore[no-untyped-def]
        listed.append(pattern)
        return real_glob(self, pattern)

    monkeypatch.setattr(Path, "glob", counting_glob)
    assert delivered_mtime(box, DOVECOT) == 5 * 10**9
    assert listed == []
    assert delivered_mtime(box, POSTFIX) == 7 * 10**9
    assert delivered_mtime(box, PYTHON) == 0
