"""config.toml: every setting documented, every problem reported at once."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from moderator.settings.config import SETTINGS, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[1]


def _flat_keys(table: dict, prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for key, value in table.items():
        if isinstance(value, dict):
            keys |= _flat_keys(value, f"{prefix}{key}.")
        else:
            keys.add(f"{prefix}{key}")
    return keys


def test_shipped_config_sets_and_documents_every_setting() -> None:
    text = (ROOT / "config.toml").read_text(encoding="utf-8")
    assert _flat_keys(tomllib.loads(text)) == {s.key for s in SETTINGS}
    lines = text.splitlines()
    for setting in SETTINGS:
        # The line in the setting's own section: host, port, security ... are in both
        # [mail.imap] and [mail.smtp], and the first line named so is [mail.imap]'s.
        section, leaf = setting.key.rsplit(".", 1)
        start = lines.index(f"[{section}]")
        index = next(i for i, line in enumerate(lines)
                     if i > start and line.startswith(f"{leaf} ="))
        assert lines[index - 1].startswith("#"), f"{setting.key} has no comment above it"


def test_shipped_config_loads_with_defaults() -> None:
    config = load_config(ROOT / "config.toml")
    assert config.database_url.startswith("sqlite:///")
    assert config.database_url.endswith("var/moderator.sqlite")
    assert config.transport == "maildir"
    assert config.zone.key == "Europe/Paris"


def test_every_problem_is_reported_with_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[mail]\ntransport = "pigeon"\nadress = "x"\n[time]\nzone = "Mars/Olympus"\n'
                    "[intake]\nmax_lines = \"many\"\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    problems = caught.value.problems
    assert len(problems) == 4
    assert all(str(path) in p for p in problems)
    joined = "\n".join(problems)
    for key in ("mail.adress", "mail.transport", "time.zone", "intake.max_lines"):
        assert key in joined


@pytest.mark.parametrize(("section", "line", "named"), [
    ("intake", "max_lines = -1", "intake.max_lines must be at least 1, not -1"),
    ("intake", "max_bytes = 0", "intake.max_bytes must be at least 1, not 0"),
    ("intake", "spool_keep_days = -1", "intake.spool_keep_days must be at least 0, not -1"),
    ("service", "outbox_seconds = 0", "service.outbox_seconds must be at least 1, not 0"),
    ("service", "outbox_compact_days = -3",
     "service.outbox_compact_days must be at least 0, not -3"),
    ("service", "outage_slide_hours = -24",
     "service.outage_slide_hours must be at least 0, not -24"),
    ("mail.smtp", "max_attempts = 0", "mail.smtp.max_attempts must be at least 1, not 0"),
    ("mail.smtp", "retry_seconds = -1", "mail.smtp.retry_seconds must be at least 1, not -1"),
    ("mail.smtp", "port = 0", "mail.smtp.port must be from 1 to 65535, not 0"),
    ("mail.imap", "poll_seconds = 0", "mail.imap.poll_seconds must be at least 1, not 0"),
    ("mail.imap", "port = 99999", "mail.imap.port must be from 1 to 65535, not 99999"),
])
def test_a_number_out_of_range_is_refused_with_its_key(tmp_path: Path, section: str,
                                                        line: str, named: str) -> None:
    """Only reminder_hours, maildir_poll_seconds and refusals_per_hour were checked: a
    max_lines of -1 dropped each message's last line, outbox_seconds = 0 spun the outbox
    loop, a negative outage_slide_hours moved deadlines back into the past."""
    path = tmp_path / "config.toml"
    path.write_text(f"[{section}]\n{line}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [f"{path}: {named}"]


def test_the_spool_retention_is_read_and_0_keeps_for_ever(tmp_path: Path) -> None:
    """``[intake] spool_keep_days``: 30 days by default (the shipped file says so), the
    file's value when it sets one, 0 accepted (the spool kept for ever)."""
    assert load_config(ROOT / "config.toml").spool_keep_days == 30
    path = tmp_path / "config.toml"
    for days in (7, 0):
        path.write_text(f"[intake]\nspool_keep_days = {days}\n")
        assert load_config(path).spool_keep_days == days


def test_relative_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    path.parent.mkdir()
    path.write_text('[paths]\nspool = "spool-here"\n')
    assert load_config(path).spool_dir == (tmp_path / "sub" / "spool-here").resolve()


def test_the_systemd_setup_moves_every_relative_path_out_of_etc() -> None:
    """docs/deployment.md puts the config in /etc/moderator, where relative paths would
    resolve (and the unit may not write): its setup names an absolute /var/lib path for
    every setting whose default is a relative path (the key file was missing)."""
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    setup = text[text.index("sudo useradd"):text.index("journalctl -u moderator -f")]
    relative = [s.key for s in SETTINGS if isinstance(s.default, str)
                and s.default.removeprefix("sqlite:///").startswith(("var/", "orders/"))]
    assert len(relative) >= 5
    for key in relative:
        leaf = key.rsplit(".", 1)[1]
        assert re.search(rf'\b{leaf} = "(sqlite:///)?/var/lib/moderator/', setup), key


def _package_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted((ROOT / "moderator").rglob("*.py")))


def test_every_setting_init_writes_is_acted_on() -> None:
    """No setting that is stored but does nothing: every key of the config.toml that
    `moderator init` writes is read into the Config, and every field of the Config (and
    of its IMAP and SMTP parts) is read somewhere as ``.field``."""
    import dataclasses

    from moderator.settings.config import Config, ImapSettings, SmtpSettings

    loader = (ROOT / "moderator" / "settings" / "config.py").read_text(encoding="utf-8")
    for setting in SETTINGS:
        section, leaf = setting.key.rsplit(".", 1)
        by_server = section in ("mail.imap", "mail.smtp") and f'f"{{prefix}}.{leaf}"' in loader
        assert f'"{setting.key}"' in loader or by_server, f"{setting.key} is never read"
    source = _package_source()
    for kind in (Config, ImapSettings, SmtpSettings):
        for field in dataclasses.fields(kind):
            if field.name in ("path", "base_dir", "games"):
                continue
            assert re.search(rf"\.{field.name}\b", source), f"{kind.__name__}.{field.name}"


def test_every_per_game_setting_is_acted_on() -> None:
    """Every [games.NAME] key is read from a game's settings somewhere (``settings.KEY``
    or ``config.game(...).KEY``), besides being declared and checked."""
    from moderator.settings.game import GAME_SETTINGS

    source = _package_source()
    for setting in GAME_SETTINGS:
        pattern = rf"(settings|\)|\.values)\.{setting.key}\b|\"{setting.key}\" in "
        assert re.search(pattern, source), f"games.*.{setting.key} is never read"


def test_the_outbox_doc_gives_the_default_retry_span() -> None:
    """docs/outbox.md said the default retries span 4¼ hours; the waits between the 8
    attempts (60 s doubling) add up to 127 minutes."""
    from types import SimpleNamespace

    from moderator.runners.outgoing import Outgoing

    config = load_config(ROOT / "config.toml")
    waits = [Outgoing.retry_delay(SimpleNamespace(config=config), n)  # type: ignore[arg-type]
             for n in range(1, config.smtp.max_attempts)]
    minutes = int(sum(w.total_seconds() for w in waits) // 60)
    text = (ROOT / "docs" / "outbox.md").read_text(encoding="utf-8")
    assert f"= {minutes} minutes" in text, minutes
