"""Mail composed by real Debian mail programs (mutt, s-nail) in batch mode, caught by a
sendmail stand-in that writes the message to a file (no network), then delivered into
the Maildir transport's inbox as an MDA would."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from moderator.settings.config import Config
from moderator.transport.maildir import open_maildir

# A mail program runs in a second when idle; the limit only ends a hung one, and a
# loaded machine (a CPU burner on each core) starts programs many times slower.
CLIENT_SECONDS = 120
CATCHER = '#!/bin/sh\ncat > "$CATCH_DIR/$(date +%s%N).eml"\n'


def need(program: str) -> str:
    """The program's path; CI installs it (.ci/run), elsewhere the test skips."""
    found = shutil.which(program)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is not installed (.ci/run installs it)")
        pytest.skip(f"{program} is not installed (apt-get install mutt s-nail)")
    return found


def _catcher(folder: Path) -> tuple[Path, dict[str, str]]:
    script = folder / "catch.sh"
    script.write_text(CATCHER)
    script.chmod(0o755)
    out = folder / "caught"
    out.mkdir(exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder),
           "CATCH_DIR": str(out), "LC_ALL": "C.UTF-8"}
    return script, env


def _caught(folder: Path) -> bytes:
    [mail] = sorted((folder / "caught").iterdir())
    data = mail.read_bytes()
    mail.unlink()
    return data


def mutt(folder: Path, body: bytes, subject: str, *, settings: tuple[str, ...] = (),
         attach: Path | None = None, draft: str | None = None,
         sender: str = "Jacques de Lyon <jacques@lyon.example>",
         to: str = "moderator@paris.example") -> bytes:
    """One message as mutt writes it; ``draft`` (headers, blank line, body) is read with
    -H, as mutt does for a postponed reply."""
    program = need("mutt")
    folder.mkdir(parents=True, exist_ok=True)
    script, env = _catcher(folder)
    rc = folder / "muttrc"
    rc.write_text("\n".join([
        f'set sendmail="{script}"', f'set from="{sender}"', "set use_from=yes",
        'set record=""', 'set charset="utf-8"', "unset sig_dashes", *settings]) + "\n")
    args = [program, "-n", "-F", str(rc)]
    if draft is not None:
        (folder / "draft").write_text(draft)
        args += ["-H", str(folder / "draft")]
    else:
        args += ["-s", subject]
    if attach is not None:
        args += ["-a", str(attach), "--"]
    subprocess.run([*args, to], input=body, env=env, check=True, timeout=CLIENT_SECONDS,
                   capture_output=True)
    return _caught(folder)


def s_nail(folder: Path, body: bytes, subject: str, *, settings: tuple[str, ...] = (),
           sender: str = "jacques@lyon.example", to: str = "moderator@paris.example") -> bytes:
    program = need("s-nail")
    folder.mkdir(parents=True, exist_ok=True)
    script, env = _catcher(folder)
    args = [program, "-#", "-:/", "-S", f"mta={script}", "-S", f"from={sender}"]
    for setting in settings:
        args += ["-S", setting]
    subprocess.run([*args, "-s", subject, to], input=body, env=env, check=True,
                   timeout=CLIENT_SECONDS, capture_output=True)
    return _caught(folder)


def deliver(config: Config, raw: bytes) -> None:
    """Into the inbox the Maildir transport reads, as Dovecot's or procmail's LDA would."""
    open_maildir(config.maildir_inbox).add(raw)
