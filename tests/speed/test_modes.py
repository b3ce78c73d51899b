"""Files the moderator writes are private (issue 16, goal 4): the database, the spool, the
archive and the key file are created 0600, their folders 0700, by the `moderator` command."""

from __future__ import annotations

import mailbox
import stat
import subprocess
import sys
from pathlib import Path

from moderator.settings.config import load_config
from tests.support import ROOT, order_mail, write_config


def _moderator(config: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-c", "from moderator.cli import main; main()",
                    "--config", str(config), *args], check=True, cwd=ROOT,
                   capture_output=True, umask=0o022)


def test_the_moderator_creates_its_files_private(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    config = load_config(path)
    _moderator(path, "game", "new", "paris", "--kind", "engarde", "--seed", "1625")
    _moderator(path, "player", "add", "paris", "athos@musket.example", "--name", "Athos")
    config.maildir_inbox.parent.mkdir(parents=True, exist_ok=True)
    mailbox.Maildir(config.maildir_inbox).add(order_mail("athos@musket.example",
                                                         "PASSWORD: nope\nWEEK 1: PRACTICE\n"))
    _moderator(path, "inbox", "process")
    database = Path(config.database_url.removeprefix("sqlite:///"))
    files = [database, config.key_file, *config.spool_dir.rglob("*.eml")]
    assert len(files) > 2
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    for folder in (config.spool_dir, *[p for p in config.spool_dir.rglob("*") if p.is_dir()]):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
