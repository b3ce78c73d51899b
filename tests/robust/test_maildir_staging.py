"""A Maildir is made in a staging folder and renamed into place (moderator.transport.
maildir); a process killed between the two left its staging folder for ever.  Making
the Maildir again sweeps that name's staging folders once they are an hour old, and
never a younger one, which another process may be filling at that moment."""

from __future__ import annotations

import os
import time
from pathlib import Path

from moderator.transport.maildir import (
    MAILDIR_PARTS,
    STALE_STAGING_SECONDS,
    MaildirInbox,
    open_maildir,
)

NAME = "jacques@lyon.example"


def _staging(folder: Path, name: str, *, age: float) -> Path:
    """A staging folder as a killed process leaves it: made ``age`` seconds ago."""
    staging = folder / name
    for part in MAILDIR_PARTS[:2]:  # killed before the last part
        (staging / part).mkdir(parents=True)
    then = time.time() - age
    os.utime(staging, (then, then))
    return staging


def test_an_old_staging_folder_is_swept_and_a_young_one_kept(tmp_path: Path) -> None:
    root = tmp_path / "mail"
    old = _staging(root, f".{NAME}.k1ll3d00", age=STALE_STAGING_SECONDS + 60)
    young = _staging(root, f".{NAME}.busy0000", age=60)
    other = _staging(root, f".{NAME}.org.k1ll3d00", age=2 * STALE_STAGING_SECONDS)
    open_maildir(root / NAME).add(b"Subject: hello\n\nbody\n")
    assert not old.exists()
    assert young.is_dir(), "perhaps another process's, being filled"
    assert other.is_dir(), "the Maildir jacques@lyon.example.org's, swept when it is made"
    assert sorted(p.name for p in root.iterdir()) == sorted(
        [NAME, young.name, other.name])


def test_an_old_staging_folder_in_the_inbox_tmp_is_swept(tmp_path: Path) -> None:
    folder = tmp_path / "mail" / "moderator"
    open_maildir(folder).add(b"Subject: orders\n\nWEEK 1: PRACTICE rapier\n")
    old = _staging(folder / "tmp", "..processed.k1ll3d00", age=STALE_STAGING_SECONDS + 60)
    young = _staging(folder / "tmp", "..processed.busy0000", age=60)
    inbox = MaildirInbox(folder, poll_seconds=1)
    [message] = list(inbox.fetch())
    inbox.done(message)
    assert (folder / ".processed" / "cur").is_dir()
    assert not old.exists()
    assert young.is_dir()
