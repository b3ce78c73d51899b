"""The inbox's ``.processed`` and ``.quarantine`` folders appear whole, as a recipient's
Maildir does (moderator.transport.maildir): the standard library's ``add_folder`` made the
folder and then its parts, and a second process filing a message meanwhile (three
`serve --worker` on one inbox) found no ``tmp`` and had to read the message again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from moderator.transport import maildir
from moderator.transport.base import InboxMessage
from moderator.transport.maildir import FOLDER_MARK, MAILDIR_PARTS, MaildirInbox, open_maildir

RAW = b"Subject: orders\n\nWEEK 1: PRACTICE rapier\n"


def _one_message(folder: Path) -> tuple[MaildirInbox, InboxMessage]:
    open_maildir(folder).add(RAW)
    inbox = MaildirInbox(folder, poll_seconds=1)
    [message] = list(inbox.fetch())
    return inbox, message


def test_a_folder_is_renamed_into_place_with_all_its_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mail" / "moderator"
    inbox, message = _one_message(folder)
    seen: list[tuple[str, bool, list[str]]] = []
    real_rename = os.rename

    def watching_rename(source: str | Path, target: str | Path) -> None:
        seen.append((Path(target).name, Path(target).exists(),
                     sorted(p.name for p in Path(source).iterdir())))
        real_rename(source, target)

    monkeypatch.setattr(maildir.os, "rename", watching_rename)
    inbox.done(message)
    assert seen == [(".processed", False, sorted((*MAILDIR_PARTS, FOLDER_MARK)))]
    assert open_maildir(folder).list_folders() == ["processed"]
    assert list((folder / "tmp").iterdir()) == [], "no staging left"
    assert len(open_maildir(folder).get_folder("processed").keys()) == 1
    assert open_maildir(folder).keys() == []


def test_a_half_made_folder_is_completed_and_filed_into(tmp_path: Path) -> None:
    folder = tmp_path / "mail" / "moderator"
    inbox, message = _one_message(folder)
    (folder / ".quarantine" / "new").mkdir(parents=True)  # another writer got this far
    inbox.quarantine(message)
    made = folder / ".quarantine"
    assert all((made / part).is_dir() for part in MAILDIR_PARTS)
    assert (made / FOLDER_MARK).is_file()
    assert len(open_maildir(folder).get_folder("quarantine").keys()) == 1
