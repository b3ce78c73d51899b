"""A new Maildir appears whole (CI failure of stop 18: `test_panic` read a recipient's
Maildir in the moment between the standard library's ``mkdir`` of the folder and of its
``cur``, and failed with FileNotFoundError)."""

from __future__ import annotations

import mailbox
import multiprocessing
import os
from pathlib import Path

import pytest

from moderator.transport import maildir
from moderator.transport.maildir import MAILDIR_PARTS, open_maildir


def test_the_folder_is_renamed_into_place_with_all_its_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool, list[str]]] = []
    real_rename = os.rename

    def watching_rename(source: str | Path, target: str | Path) -> None:
        seen.append((Path(target).exists(), sorted(p.name for p in Path(source).iterdir())))
        real_rename(source, target)

    monkeypatch.setattr(maildir.os, "rename", watching_rename)
    box = open_maildir(tmp_path / "mail" / "jacques@lyon.example")
    box.add(b"Subject: hello\n\nbody\n")
    assert seen == [(False, sorted(MAILDIR_PARTS))]
    assert [p.name for p in (tmp_path / "mail").iterdir()] == ["jacques@lyon.example"]


def test_a_reader_never_sees_a_maildir_without_its_parts(tmp_path: Path) -> None:
    """Readers poll while a writer makes 200 Maildirs: no reader finds one half made."""
    root = tmp_path / "mail"
    root.mkdir()
    names = [f"player{n}@x.example" for n in range(200)]
    stop = multiprocessing.Event()
    half_made = multiprocessing.Value("i", 0)
    reader = multiprocessing.get_context("fork").Process(
        target=_read_until_stopped, args=(root, names, stop, half_made))
    reader.start()
    try:
        for name in names:
            open_maildir(root / name).add(b"Subject: hi\n\nbody\n")
    finally:
        stop.set()
        reader.join(timeout=60)
    assert reader.exitcode == 0
    assert half_made.value == 0


def _read_until_stopped(root: Path, names: list[str], stop: object, half_made: object) -> None:
    while not stop.is_set():  # type: ignore[attr-defined]
        for name in names:
            folder = root / name
            if folder.exists():
                try:
                    mailbox.Maildir(str(folder), factory=None, create=False).keys()
                except FileNotFoundError:
                    with half_made.get_lock():  # type: ignore[attr-defined]
                        half_made.value += 1  # type: ignore[attr-defined]


def test_two_writers_making_one_maildir_both_succeed(tmp_path: Path) -> None:
    folder = tmp_path / "mail" / "cyrano@bergerac.example"
    first, second = open_maildir(folder), open_maildir(folder)
    first.add(b"Subject: one\n\n1\n")
    second.add(b"Subject: two\n\n2\n")
    assert len(open_maildir(folder).keys()) == 2
    assert [p.name for p in folder.parent.iterdir()] == [folder.name], "no staging left"


def test_a_maildir_missing_a_part_is_completed(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    (folder / "new").mkdir(parents=True)
    open_maildir(folder).add(b"Subject: x\n\n1\n")
    assert all((folder / part).is_dir() for part in MAILDIR_PARTS)
