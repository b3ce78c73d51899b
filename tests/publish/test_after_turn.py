"""Issue 12, Build 5: the site is rebuilt after every published turn ("run after every
published turn"), by the process that published, after the commit.

A turn run through ``moderator turn run`` puts its issue in the site without any ``site
build``; a rollback and rollforward shows the superseded original beside the correction;
only the game that ran is rebuilt (plus the index); ``[site] folder`` and ``after_turn``
are read from config.toml; a failing build is logged to the GM log and never fails the
turn.
"""

from __future__ import annotations

import fcntl
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.intake.process import process_message
from moderator.publish.site import after_turn, build_site
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store
from moderator.store.models import Outbox
from moderator.store.statuses import TurnStatus
from moderator.turn.run import run_turn
from tests.publish.conftest import JACQUES, corrected, invoke
from tests.publish.test_site import broken_links, tree

from support import make_game, order_mail, write_config


def _with_site(folder: Path, *lines: str) -> Config:
    folder.mkdir(exist_ok=True)
    path = write_config(folder)
    path.write_text(path.read_text(encoding="utf-8") + "[site]\n" + "".join(
        f"{line}\n" for line in lines), encoding="utf-8")
    return load_config(path)


def test_turn_run_puts_the_new_issue_in_the_site(db: Engine, config: Config) -> None:
    make_game(db, config)
    site = config.site_folder
    assert site == config.archive_dir.parent / "site"  # the default: beside the archive
    assert not site.exists()
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    invoke(config, "turn", "run", "paris", "--yes", "--no-send")
    issue = site / "paris" / "issue-001.html"
    assert issue.is_file(), sorted(tree(site)) if site.exists() else "no site"
    assert "Le Sport de Paris" in issue.read_text(encoding="utf-8")
    assert 'href="paris/issue-001.html"' in (site / "index.html").read_text(encoding="utf-8")
    invoke(config, "turn", "run", "paris", "--yes", "--no-send")
    assert 'href="issue-002.html"' in issue.read_text(encoding="utf-8")  # its "next" link
    assert (site / "paris" / "issue-002.html").is_file()
    assert broken_links(site) == []
    # What the hook wrote is what a full build writes.
    with Session(db) as session:
        assert build_site(session, config, site) == []


def test_rollback_and_rollforward_show_the_original_and_the_correction(
        db: Engine, config: Config) -> None:
    corrected(db, config)  # three months; month 2 rolled back, amended, rolled forward
    site = config.site_folder
    corrected_page = (site / "paris" / "issue-002.html").read_text(encoding="utf-8")
    original_page = (site / "paris" / "issue-002-original-1.html").read_text(encoding="utf-8")
    assert "CORRECTION: this issue replaces" in corrected_page
    assert 'href="issue-002-original-1.html"' in corrected_page
    assert "Superseded." in original_page and 'href="issue-002.html"' in original_page
    assert "CORRECTION: this issue replaces" not in original_page
    assert (site / "paris" / "issue-003-original-1.html").is_file()  # month 3 changed too
    assert broken_links(site) == []


def test_only_the_game_that_ran_is_rebuilt(db: Engine, config: Config) -> None:
    make_game(db, config, "paris")
    make_game(db, config, "lyon", seed=7)
    run_turn(db, config, "paris")
    site = config.site_folder
    # lyon has published nothing, but the index links to it: it was built once too.
    assert (site / "lyon" / "index.html").is_file()
    lyon = {p: p.stat().st_mtime_ns for p in (site / "lyon").rglob("*") if p.is_file()}
    (site / "lyon" / "stray.html").write_text("left alone", encoding="utf-8")
    run_turn(db, config, "paris")
    assert {p: p.stat().st_mtime_ns for p in lyon} == lyon
    assert (site / "lyon" / "stray.html").is_file()  # not lyon's rebuild: not looked at
    assert (site / "paris" / "issue-002.html").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="lyon/index.html"' in index and 'href="paris/issue-002.html"' in index
    (site / "lyon" / "stray.html").unlink()
    with Session(db) as session:  # the index of one game's rebuild is the full build's
        assert build_site(session, config, site) == []


def test_the_site_folder_and_the_switch_come_from_config(tmp_path: Path) -> None:
    config = _with_site(tmp_path, 'folder = "public/gazettes"')
    assert config.site_folder == (tmp_path / "public" / "gazettes").resolve()
    db = open_store(config.database_url)
    make_game(db, config)
    run_turn(db, config, "paris")
    assert (config.site_folder / "paris" / "issue-001.html").is_file()
    assert not (tmp_path / "site").exists()

    off = _with_site(tmp_path / "off", "after_turn = false")
    db = open_store(off.database_url)
    make_game(db, off)
    run_turn(db, off, "paris")
    assert not off.site_folder.exists()
    invoke(off, "site", "build")  # the command still builds it, into the same folder
    assert (off.site_folder / "paris" / "issue-001.html").is_file()


def test_a_failing_site_build_is_logged_and_never_fails_the_turn(
        db: Engine, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> list[str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(after_turn, "build_site", broken)
    make_game(db, config)
    report = run_turn(db, config, "paris")
    assert report.number == 1
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.turn_by_number(session, game, 1).status == TurnStatus.DONE
        assert repo.open_turn(session, game).number == 2
        assert session.exec(select(Outbox).where(Outbox.kind == "gazette")).first()
        failed = [e for e in repo.gm_log(session, game) if e.event == "site.failed"]
    assert len(failed) == 1 and failed[0].level == "error"
    assert "No space left on device" in failed[0].detail
    assert "moderator site build paris" in failed[0].detail
    assert (config.archive_dir / "paris" / "turn-001").is_dir()  # the archive was written
    monkeypatch.undo()
    run_turn(db, config, "paris")  # the next turn's rebuild brings the site up to date
    assert (config.site_folder / "paris" / "issue-001.html").is_file()


def test_a_build_leaves_the_gms_dot_files_and_no_half_files(db: Engine,
                                                            config: Config) -> None:
    make_game(db, config)
    run_turn(db, config, "paris")
    site = config.site_folder
    own = [site / ".htaccess", site / ".well-known" / "security.txt", site / "paris" / ".keep"]
    for path in own:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("the GM's", encoding="utf-8")
    (site / "paris" / "issue-001.html").write_text("stale", encoding="utf-8")
    (site / "paris" / "gone.html").write_text("no game makes this", encoding="utf-8")
    with Session(db) as session:
        changed = build_site(session, config, site)
    assert changed == ["paris/issue-001.html", "paris/gone.html (removed)"]
    assert all(path.read_text(encoding="utf-8") == "the GM's" for path in own)
    assert not [p for p in site.rglob("*.tmp")]


def test_one_build_at_a_time_writes_the_site(db: Engine, config: Config) -> None:
    """Two workers publishing two games at once: the second build waits for the first and
    reads the database only then, so the last index written knows every issue."""
    make_game(db, config, "paris")
    make_game(db, config, "lyon", seed=7)
    site = config.site_folder
    site.mkdir(parents=True)
    done = threading.Event()

    def rebuild() -> None:
        after_turn.rebuild_game_site(db, config, "lyon")
        done.set()

    with open(site / ".lock", "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another process's build, under way
        worker = threading.Thread(target=rebuild)
        worker.start()
        assert not done.wait(1.0)  # it waits for the lock
        # Meanwhile another worker commits a turn of paris (its own rebuild left out here).
        run_turn(db, replace(config, site_after_turn=False), "paris")
        fcntl.flock(held, fcntl.LOCK_UN)
    worker.join(120)
    assert done.is_set()
    assert 'href="paris/issue-001.html"' in (site / "index.html").read_text(encoding="utf-8")
