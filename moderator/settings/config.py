"""Deployment settings from ``config.toml``.

Deployment lives here (database, mail transport, paths, time zone), plus each game's
own settings in ``[games.NAME]`` (see `moderator.settings.game`); game rules live in
``data/<game>/*.toml``.  Every setting is declared once in `SETTINGS`
(`moderator.settings.deployment`) with its default and help text; a test checks that
config.toml documents each of them.
Relative paths are resolved against the directory of the config file.

Which file: `find_config` (``--config``, then ``MODERATOR_CONFIG``, then ``./config.toml``,
then the XDG config folders); with none, a `ConfigNotFound` naming every place looked
in and ``moderator init``.  Nothing is created until a config file has been found.
"""

from __future__ import annotations

import os
import re
import ssl
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.games import find_engine, game_kinds
from moderator.settings import resources
from moderator.settings.deployment import INT_RANGES, SETTING_BY_KEY, SETTINGS
from moderator.settings.game import DEFAULTS, GameSettings, parse_game
from moderator.settings.tables import check_overrides, load_tables

# scheme://user:password@host: the password part, wherever a URL appears in a text.
_URL_CREDENTIALS = re.compile(r"(\b[a-zA-Z][\w+.-]*://[^\s:/@]*:)[^\s@/]*@")


def mask_credentials(text: str) -> str:
    """``text`` with the password of every URL in it masked (``postgresql://u:***@h``):
    what every log line goes through."""
    return _URL_CREDENTIALS.sub(r"\1***@", text)


class ConfigError(ValueError):
    """config.toml is invalid; ``problems`` lists every problem with file and key."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class ConfigNotFound(ConfigError):
    """No config file in any of the places `find_config` looks."""


CONFIG_ENV = "MODERATOR_CONFIG"
CONFIG_NAME = "config.toml"


def config_places(cwd: Path | None = None) -> list[Path]:
    """Where a config file is looked for when none is named: ./config.toml, then
    ``$XDG_CONFIG_HOME/moderator/config.toml`` (default ~/.config), then each of
    ``$XDG_CONFIG_DIRS`` (default /etc/xdg)."""
    home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    dirs = [d for d in (os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":") if d]
    return [(cwd or Path.cwd()) / CONFIG_NAME,
            *(Path(d) / "moderator" / CONFIG_NAME for d in (home, *dirs))]


def find_config(explicit: Path | None = None) -> Path:
    """The config file to use: ``explicit`` (``--config``), then $MODERATOR_CONFIG, then
    the first of `config_places` that exists.  A named file that is missing is an error
    (never a silent fall-through to another file)."""
    named = explicit or (Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV) else None)
    if named is not None:
        if not named.is_file():
            how = "--config" if explicit else CONFIG_ENV
            raise ConfigNotFound([f"{how} names {named}, which is not a file"])
        return named
    places = config_places()
    for place in places:
        if place.is_file():
            return place
    raise ConfigNotFound([
        "no config file found; looked for --config PATH, then $" + CONFIG_ENV + ", then "
        + ", ".join(str(p) for p in places)
        + ". Run `moderator init` to write a commented config.toml here (or `moderator init "
        "PATH`), or pass --config."
    ])


@dataclass(frozen=True)
class ServerSettings:
    """How to reach one mail server (IMAP or SMTP)."""

    host: str
    port: int
    security: str  # ssl | starttls | none
    username: str
    password_env: str
    cafile: Path | None

    def password(self) -> str:
        """The password, read from the environment when needed (never stored in a file)."""
        value = os.environ.get(self.password_env)
        if value is None and self.username:
            raise ConfigError([f"environment variable {self.password_env} is not set"])
        return value or ""

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.cafile:
            context.load_verify_locations(cafile=str(self.cafile))
        return context


@dataclass(frozen=True)
class ImapSettings(ServerSettings):
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    quarantine_folder: str = "Quarantine"
    idle: bool = True
    poll_seconds: int = 60


@dataclass(frozen=True)
class SmtpSettings(ServerSettings):
    retry_seconds: int = 60
    max_attempts: int = 8
    sent_copy: str = ""
    sent_copy_username: str = ""
    sent_copy_password_env: str = "MODERATOR_SENT_COPY_PASSWORD"
    sent_copy_folder: str = "INBOX"


@dataclass(frozen=True)
class Config:
    path: Path | None
    base_dir: Path
    database_url: str
    data_dir: Path
    templates_dir: Path
    spool_dir: Path
    archive_dir: Path
    key_file: Path
    transport: str
    moderator_address: str
    gm_address: str
    maildir_inbox: Path
    maildir_mailboxes: Path
    max_lines: int
    max_bytes: int
    zone: ZoneInfo
    imap: ImapSettings
    smtp: SmtpSettings
    outbox_seconds: int
    outbox_compact_days: int
    outage_slide_hours: int
    reminder_hours: int
    maildir_poll_seconds: int
    games: Mapping[str, GameSettings]
    authserv_id: str = ""
    refusals_per_hour: int = 1
    spool_keep_days: int = 30
    site_dir: Path | None = None  # None: the folder 'site' beside the archive
    site_after_turn: bool = True

    @property
    def site_folder(self) -> Path:
        """Where the public site is built (``[site] folder``)."""
        return self.site_dir or self.archive_dir.parent / "site"

    def game(self, name: str) -> GameSettings:
        """One game's settings (``[games.NAME]``), the defaults for a game without any."""
        return self.games.get(name.lower(), DEFAULTS)

    def reminder_hours_of(self, name: str) -> list[int]:
        """When a game's reminders go out, in hours before its orders deadline, latest
        first: its ``[games.NAME] reminder_hours`` when the section sets them, else
        ``[service] reminder_hours`` (none when that is 0)."""
        settings = self.games.get(name.lower())
        if settings is not None and "reminder_hours" in settings.values:
            return sorted(settings.reminder_hours, reverse=True)
        return [self.reminder_hours] if self.reminder_hours > 0 else []

    def mailbox_for(self, address: str) -> Path:
        """The local Maildir of one recipient (maildir transport).

        Addresses come from strangers' mail: one that is not a plain folder name inside
        the mailboxes folder (slashes, dot-dot, control characters) is refused.
        """
        name = address.strip().lower()
        if (not name or "/" in name or "\\" in name or name.startswith(".")
                or any(ord(c) < 32 for c in name) or len(name.encode()) > 200):
            raise ValueError(f"not a usable mailbox name: {address!r}")
        return self.maildir_mailboxes / name


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
    name = str(path) if path else "<defaults>"
    raw = _read_toml(path, name)
    base = base_dir or (path.parent.resolve() if path else Path.cwd())
    problems: list[str] = []
    games = _games(raw.pop("games", {}), name, problems)
    values = _typed_values(raw, name, problems)
    problems += _value_problems(values, name)
    zone: ZoneInfo | None = None
    try:
        zone = ZoneInfo(values["time.zone"])
    except (ZoneInfoNotFoundError, ValueError):
        problems.append(f"{name}: time.zone {values['time.zone']!r} is not an IANA time zone")
    problems += _table_problems(games, _shipped_or(base, values, "paths.data"), name)
    if problems or zone is None:
        raise ConfigError(problems)
    return _build(path, base, values, zone, games)


def _read_toml(path: Path | None, name: str) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError([f"{name}: {exc}"]) from exc


def _typed_values(raw: Mapping[str, Any], name: str, problems: list[str]) -> dict[str, Any]:
    """Every known setting: its default, or the file's value when that has the right type."""
    values = {s.key: s.default for s in SETTINGS}
    for key, value in _flatten(raw).items():
        setting = SETTING_BY_KEY.get(key)
        if setting is None:
            problems.append(f"{name}: unknown setting {key!r}")
        elif type(value) is not type(setting.default):
            expected = type(setting.default).__name__
            problems.append(f"{name}: {key} must be {expected}, not {value!r}")
        else:
            values[key] = value
    return values


def _value_problems(values: Mapping[str, Any], name: str) -> list[str]:
    problems = []
    if values["mail.transport"] not in ("maildir", "imap"):
        transport = values["mail.transport"]
        problems.append(f"{name}: mail.transport must be 'maildir' or 'imap', not {transport!r}")
    for key in ("mail.imap.security", "mail.smtp.security"):
        if values[key] not in ("ssl", "starttls", "none"):
            problems.append(f"{name}: {key} must be 'ssl', 'starttls' or 'none'")
    for key, (least, most) in INT_RANGES.items():
        value = values[key]
        if isinstance(value, int) and (value < least or (most is not None and value > most)):
            within = f"from {least} to {most}" if most else f"at least {least}"
            problems.append(f"{name}: {key} must be {within}, not {value}")
    return problems


def _build(path: Path | None, base: Path, values: Mapping[str, Any], zone: ZoneInfo,
           games: dict[str, GameSettings]) -> Config:
    def rel(key: str) -> Path:
        return (base / values[key]).resolve()

    data_dir = _shipped_or(base, values, "paths.data")
    templates_dir = _shipped_or(base, values, "paths.templates")

    return Config(
        path=path,
        base_dir=base,
        database_url=_resolve_sqlite(values["database.url"], base),
        data_dir=data_dir,
        templates_dir=templates_dir,
        spool_dir=rel("paths.spool"),
        archive_dir=rel("paths.archive"),
        key_file=rel("paths.key_file"),
        transport=values["mail.transport"],
        moderator_address=values["mail.address"].lower(),
        gm_address=values["mail.gm_address"].lower(),
        maildir_inbox=rel("mail.maildir.inbox"),
        maildir_mailboxes=rel("mail.maildir.mailboxes"),
        max_lines=values["intake.max_lines"],
        max_bytes=values["intake.max_bytes"],
        zone=zone,
        imap=ImapSettings(
            **_server(values, "mail.imap", base),
            folder=values["mail.imap.folder"],
            processed_folder=values["mail.imap.processed_folder"],
            quarantine_folder=values["mail.imap.quarantine_folder"],
            idle=values["mail.imap.idle"],
            poll_seconds=values["mail.imap.poll_seconds"],
        ),
        smtp=SmtpSettings(
            **_server(values, "mail.smtp", base),
            retry_seconds=values["mail.smtp.retry_seconds"],
            max_attempts=values["mail.smtp.max_attempts"],
            sent_copy=values["mail.smtp.sent_copy"].lower(),
            sent_copy_username=values["mail.smtp.sent_copy_username"],
            sent_copy_password_env=values["mail.smtp.sent_copy_password_env"],
            sent_copy_folder=values["mail.smtp.sent_copy_folder"],
        ),
        outbox_seconds=values["service.outbox_seconds"],
        outbox_compact_days=values["service.outbox_compact_days"],
        outage_slide_hours=values["service.outage_slide_hours"],
        reminder_hours=values["service.reminder_hours"],
        maildir_poll_seconds=values["service.maildir_poll_seconds"],
        games=games,
        authserv_id=values["intake.authserv_id"].strip().lower(),
        refusals_per_hour=values["intake.refusals_per_hour"],
        spool_keep_days=values["intake.spool_keep_days"],
        site_dir=rel("site.folder") if values["site.folder"] else None,
        site_after_turn=values["site.after_turn"],
    )


def _shipped_or(base: Path, values: Mapping[str, Any], key: str) -> Path:
    """A folder setting: the configured folder, or (empty) the one shipped with moderator."""
    if values[key]:
        return (base / values[key]).resolve()
    return resources.data_dir() if key == "paths.data" else resources.templates_dir()


def _table_problems(games: Mapping[str, GameSettings], data_dir: Path, name: str) -> list[str]:
    problems: list[str] = []
    for game, settings in games.items():
        if settings.kind:
            try:
                find_engine(settings.kind)
            except KeyError:
                problems.append(f"{name}: games.{game}.kind {settings.kind!r} is no game "
                                f"(known: {', '.join(game_kinds())})")
                continue
        if settings.tables:
            where = f"games.{game}.tables"
            problems += [f"{name}: {p}" for p in
                         check_overrides(data_dir, settings.kind, settings.tables, where)]
    return problems


def _games(section: Any, name: str, problems: list[str]) -> dict[str, GameSettings]:
    """``[games.NAME]`` sections (moderator.settings.game); table contents are checked
    against the shipped tables by moderator.settings.tables."""
    if not isinstance(section, Mapping):
        problems.append(f"{name}: games must be a table of game names")
        return {}
    games: dict[str, GameSettings] = {}
    for game, body in section.items():
        if not isinstance(body, Mapping):
            problems.append(f"{name}: games.{game} must be a table")
            continue
        if game.lower() in games:  # names are read in lower case: one would hide the other
            problems.append(f"{name}: games.{game} repeats another [games.NAME] section "
                            "(game names are not case-sensitive)")
            continue
        games[game.lower()] = parse_game(game, body, name, problems)
    return games


def _server(values: Mapping[str, Any], prefix: str, base: Path) -> dict[str, Any]:
    cafile = values[f"{prefix}.cafile"]
    return {
        "host": values[f"{prefix}.host"],
        "port": values[f"{prefix}.port"],
        "security": values[f"{prefix}.security"],
        "username": values[f"{prefix}.username"],
        "password_env": values[f"{prefix}.password_env"],
        "cafile": (base / cafile).resolve() if cafile else None,
    }


def game_tables(config: Config, game_name: str, kind: str) -> Any:
    """The tables one game plays with: its kind's tables plus its config.toml overrides."""
    settings = config.games.get(game_name)
    return load_tables(config.data_dir, kind, settings.tables if settings else None)
