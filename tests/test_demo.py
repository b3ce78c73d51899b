"""`moderator demo`: the whole month by email, as `make demo` runs it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from moderator.demo.month import PLAYERS, run_demo
from moderator.demo.others import DEMOS, run_other_demo
from moderator.settings.config import load_config
from moderator.transport.maildir import open_maildir

from support import body_text, mailbox_messages


def test_demo_runs_a_month_and_publishes_to_every_mailbox(tmp_path: Path) -> None:
    out = io.StringIO()
    run_demo(tmp_path / "demo", Console(file=out, width=120))
    printed = out.getvalue()
    assert "Rerun from stored inputs: byte-identical." in printed
    config = load_config(tmp_path / "demo" / "config.toml")
    for player in PLAYERS:
        subjects = [m["Subject"] for m in mailbox_messages(config, player.email)]
        assert "[paris] Le Sport de Paris, April 1625" in subjects, player.email
        assert f"[paris] Turn sheet for {player.name}, April 1625" in subjects
        assert any("Orders v1" in s for s in subjects)
    athos = {m["Subject"]: body_text(m) for m in mailbox_messages(config, "athos@lafere.example")}
    first = athos["[paris] Orders v1 stand (2 errors): Athos de la Fère, April 1625"]
    assert "line 3:" in first and "line 5:" in first  # the two mistakes
    second = athos["[paris] Orders v2 stand: Athos de la Fère, April 1625"]
    assert "quoted" in second and "line" not in second.split("read them:")[1].split("About")[0]
    refused = mailbox_messages(config, "rochefort@cardinal.example")
    assert refused and "not registered" in body_text(refused[0])
    archive = tmp_path / "demo" / "archive" / "paris" / "turn-001"
    assert (archive / "gazette.html").exists() and (archive / "gazette.txt").exists()
    assert len(list((archive / "sheets").glob("*.html"))) == len(PLAYERS)
    assert len(list(open_maildir(config.maildir_inbox).keys())) == 0  # all processed
    emails = sorted(p.name for p in (tmp_path / "demo" / "emails").iterdir())
    assert any("gmail" in e for e in emails) and any("outlook" in e for e in emails)
    assert any("apple-mail-reply" in e for e in emails) and any("signature" in e for e in emails)


@pytest.mark.parametrize("kind", ["dwtk", "fief"])
def test_the_other_games_demo_their_first_turns_by_mail(tmp_path: Path, kind: str) -> None:
    """`moderator demo --kind dwtk|fief`: every order mail accepted (one with a mistake the
    receipt names), each turn rerun byte-identically, and the newsletters in every box."""
    demo = DEMOS[kind]
    out = io.StringIO()
    run_other_demo(kind, tmp_path / kind, Console(file=out, width=160))
    printed = out.getvalue()
    assert printed.count("Rerun from stored inputs: byte-identical.") == len(demo.turns)
    assert "refused" not in printed and printed.count("1 error") == 1
    config = load_config(tmp_path / kind / "config.toml")
    gazette = {"dwtk": "The Fandonian Courier", "fief": "Town Crier"}[kind]
    for player in demo.players:
        subjects = [str(m["Subject"]) for m in mailbox_messages(config, player.email)]
        assert sum(gazette in s for s in subjects) == len(demo.turns), subjects
        assert sum(f"Turn sheet for {player.name}" in s for s in subjects) == len(demo.turns)
        assert any("Orders v1" in s for s in subjects), subjects
    assert len(list(open_maildir(config.maildir_inbox).keys())) == 0  # all processed
