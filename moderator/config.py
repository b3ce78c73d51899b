"""Deployment settings from ``config.toml``.

Only deployment lives here (database, mail transport, paths, time zone); game rules
live in ``data/<game>/*.toml``.  Every setting is declared once in `SETTINGS` with its
default and help text; a test checks that config.toml documents each of them.
Relative paths are resolved against the directory of the config file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


@dataclass(frozen=True)
class Setting:
    key: str
    default: Any
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "database.url",
        "sqlite:///var/moderator.sqlite",
        "SQLAlchemy URL of the store; a relative SQLite path is relative to the config file.",
    ),
    Setting("paths.data", "data", "Folder of game tables (data/<game>/*.toml)."),
    Setting("paths.templates", "templates", "Folder of jinja2 templates (templates/<game>/)."),
    Setting("paths.spool", "orders/spool", "Every received email is written here raw first."),
    Setting("paths.archive", "var/archive", "Published newsletters, as Markdown, HTML and text."),
    Setting("mail.transport", "maildir", "How mail moves: 'maildir' (local folders)."),
    Setting("mail.address", "moderator@paris.example", "The moderator's own address."),
    Setting("mail.gm_address", "gm@paris.example", "Where the GM is told about problems."),
    Setting("mail.maildir.inbox", "var/mail/moderator", "Maildir the moderator reads orders from."),
    Setting(
        "mail.maildir.mailboxes",
        "var/mail",
        "Folder holding one Maildir per recipient address (<mailboxes>/<address>/).",
    ),
    Setting("intake.max_lines", 500, "Order lines read from one email; the rest are ignored."),
    Setting("time.zone", "Europe/Paris", "Default time zone for deadlines (IANA name)."),
)

_BY_KEY = {s.key: s for s in SETTINGS}


class ConfigError(ValueError):
    """config.toml is invalid; ``problems`` lists every problem with file and key."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Config:
    path: Path | None
    base_dir: Path
    database_url: str
    data_dir: Path
    templates_dir: Path
    spool_dir: Path
    archive_dir: Path
    transport: str
    moderator_address: str
    gm_address: str
    maildir_inbox: Path
    maildir_mailboxes: Path
    max_lines: int
    zone: ZoneInfo

    def mailbox_for(self, address: str) -> Path:
        """The local Maildir of one recipient (maildir transport)."""
        return self.maildir_mailboxes / address.lower()


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping) and not any(s.key == full for s in SETTINGS):
            flat.update(_flatten(value, f"{full}."))
        else:
            flat[full] = value
    return flat


def _resolve_sqlite(url: str, base: Path) -> str:
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith("sqlite:////"):
        rest = url[len(prefix) :]
        if rest and rest != ":memory:":
            return prefix + str((base / rest).resolve())
    return url


def load_config(path: Path | None = None, *, base_dir: Path | None = None) -> Config:
    """Read and validate config.toml, reporting every problem at once."""
    raw: dict[str, Any] = {}
    name = str(path) if path else "<defaults>"
    if path is not None:
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError([f"{name}: {exc}"]) from exc
    base = base_dir or (path.parent.resolve() if path else Path.cwd())
    values = {s.key: s.default for s in SETTINGS}
    problems: list[str] = []
    for key, value in _flatten(raw).items():
        setting = _BY_KEY.get(key)
        if setting is None:
            problems.append(f"{name}: unknown setting {key!r}")
        elif type(value) is not type(setting.default):
            expected = type(setting.default).__name__
            problems.append(f"{name}: {key} must be {expected}, not {value!r}")
        else:
            values[key] = value
    if values["mail.transport"] not in ("maildir",):
        transport = values["mail.transport"]
        problems.append(f"{name}: mail.transport must be 'maildir', not {transport!r}")
    zone: ZoneInfo | None = None
    try:
        zone = ZoneInfo(values["time.zone"])
    except (ZoneInfoNotFoundError, ValueError):
        problems.append(f"{name}: time.zone {values['time.zone']!r} is not an IANA time zone")
    if problems or zone is None:
        raise ConfigError(problems)

    def rel(key: str) -> Path:
        return (base / values[key]).resolve()

    return Config(
        path=path,
        base_dir=base,
        database_url=_resolve_sqlite(values["database.url"], base),
        data_dir=rel("paths.data"),
        templates_dir=rel("paths.templates"),
        spool_dir=rel("paths.spool"),
        archive_dir=rel("paths.archive"),
        transport=values["mail.transport"],
        moderator_address=values["mail.address"].lower(),
        gm_address=values["mail.gm_address"].lower(),
        maildir_inbox=rel("mail.maildir.inbox"),
        maildir_mailboxes=rel("mail.maildir.mailboxes"),
        max_lines=values["intake.max_lines"],
        zone=zone,
    )
