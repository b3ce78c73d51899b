"""The deployment settings ``config.toml`` can hold, each declared once with its default
and help text (`SETTINGS`), the whole numbers with the values that work (`INT_RANGES`);
`moderator.settings.config` reads them, and a test checks that the shipped config.toml
documents each of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    Setting("paths.data", "",
            "Folder of game tables (data/<game>/*.toml); empty: the shipped tables."),
    Setting("paths.templates", "",
            "Folder of jinja2 templates (templates/<game>/); empty: the shipped templates."),
    Setting("paths.spool", "orders/spool", "Every received email is written here raw first."),
    Setting("paths.archive", "var/archive", "Published newsletters, as Markdown, HTML and text."),
    Setting(
        "paths.key_file",
        "var/moderator.key",
        "The server's secret key for player passwords (made on first use, mode 0600); keep "
        "it out of the database's backups.",
    ),
    Setting(
        "mail.transport",
        "maildir",
        "How mail moves: 'maildir' (local folders) or 'imap' (IMAP in, SMTP out).",
    ),
    Setting("mail.address", "moderator@paris.example", "The moderator's own address."),
    Setting("mail.gm_address", "gm@paris.example",
            "The GM's address: mailed about failed or quarantined messages and join "
            "requests (refusals, bounces and mails given up: the GM log only)."),
    Setting("mail.maildir.inbox", "var/mail/moderator", "Maildir the moderator reads orders from."),
    Setting(
        "mail.maildir.mailboxes",
        "var/mail",
        "Folder holding one Maildir per recipient address (<mailboxes>/<address>/).",
    ),
    Setting("mail.imap.host", "127.0.0.1", "IMAP server the moderator reads its mailbox on."),
    Setting("mail.imap.port", 993, "IMAP port (993 for ssl, 143 for starttls/none)."),
    Setting("mail.imap.security", "ssl", "'ssl' (implicit TLS), 'starttls' or 'none'."),
    Setting("mail.imap.username", "", "IMAP login (usually the moderator's address)."),
    Setting(
        "mail.imap.password_env",
        "MODERATOR_IMAP_PASSWORD",
        "Name of the environment variable holding the IMAP password (never the file).",
    ),
    Setting("mail.imap.cafile", "", "Extra CA certificate file to trust (self-signed servers)."),
    Setting("mail.imap.folder", "INBOX", "Folder new orders arrive in."),
    Setting("mail.imap.processed_folder", "Processed", "Where handled messages are moved."),
    Setting("mail.imap.quarantine_folder", "Quarantine", "Where failed messages are moved."),
    Setting("mail.imap.idle", True, "Wait with IMAP IDLE when the server offers it."),
    Setting("mail.imap.poll_seconds", 60, "Seconds between polls (and longest IDLE wait)."),
    Setting("mail.smtp.host", "127.0.0.1", "SMTP server outgoing mail is handed to."),
    Setting("mail.smtp.port", 465, "SMTP port (465 for ssl, 587 for starttls, 25 for none)."),
    Setting("mail.smtp.security", "ssl", "'ssl' (implicit TLS), 'starttls' or 'none'."),
    Setting("mail.smtp.username", "", "SMTP login; empty for no AUTH."),
    Setting(
        "mail.smtp.password_env",
        "MODERATOR_SMTP_PASSWORD",
        "Name of the environment variable holding the SMTP password (never the file).",
    ),
    Setting("mail.smtp.cafile", "", "Extra CA certificate file to trust (self-signed servers)."),
    Setting("mail.smtp.retry_seconds", 60, "First retry delay after a temporary failure."),
    Setting("mail.smtp.max_attempts", 8, "Attempts before a mail is given up as failed."),
    Setting(
        "mail.smtp.sent_copy",
        "",
        "Address that gets a blind copy of every mail (lets a restart tell what was sent).",
    ),
    Setting(
        "mail.smtp.sent_copy_username",
        "",
        "IMAP login of the sent_copy mailbox (empty: the sent_copy address itself).",
    ),
    Setting(
        "mail.smtp.sent_copy_password_env",
        "MODERATOR_SENT_COPY_PASSWORD",
        "Environment variable holding the sent_copy mailbox's IMAP password.",
    ),
    Setting("mail.smtp.sent_copy_folder", "INBOX", "Folder the sent copies arrive in."),
    Setting("intake.max_lines", 500, "Order lines read from one email; the rest are ignored."),
    Setting("intake.max_bytes", 1_000_000, "Larger emails are refused with a reply."),
    Setting(
        "intake.authserv_id",
        "",
        "The authserv-id our own mail server writes in Authentication-Results; only its "
        "verdicts are read (empty: the topmost header is trusted).",
    ),
    Setting(
        "intake.refusals_per_hour",
        1,
        "Refusals sent to one address in an hour; beyond that the moderator stays silent "
        "and logs it for the GM (0: never send refusals).",
    ),
    Setting(
        "intake.spool_keep_days",
        30,
        "Days a received email's spool file is kept once its message has a fate (the "
        "store keeps its bytes for ever); 0 keeps the spool for ever.",
    ),
    Setting("service.outbox_seconds", 5, "How often `serve` sends queued mail."),
    Setting(
        "service.outbox_compact_days",
        30,
        "Days after which a sent mail's body is dropped from the outbox (headers kept; the "
        "archive keeps every issue); 0 keeps bodies for ever.",
    ),
    Setting("service.outage_slide_hours", 24, "Deadlines after an outage move this much."),
    Setting(
        "service.reminder_hours",
        24,
        "Hours before the orders deadline that players who have sent no orders get a reminder "
        "(0: no reminders).",
    ),
    Setting(
        "service.maildir_poll_seconds",
        2,
        "How often `serve` looks in the Maildir inbox (maildir transport).",
    ),
    Setting("time.zone", "Europe/Paris", "Default time zone for deadlines (IANA name)."),
    Setting(
        "site.folder",
        "",
        "The public archive as a static site (`moderator site build`); empty: the folder "
        "'site' beside the archive.",
    ),
    Setting(
        "site.after_turn",
        True,
        "Rebuild the game's site after every published turn (false: only `site build`).",
    ),
)

SETTING_BY_KEY = {s.key: s for s in SETTINGS}

# The whole-number settings and the values that work (None: no upper limit).  0 seconds
# would spin a loop; a negative count, size, delay or age means nothing (max_lines = -1
# would drop a message's last line, outage_slide_hours = -24 move deadlines into the past).
INT_RANGES: dict[str, tuple[int, int | None]] = {
    "mail.imap.port": (1, 65535),
    "mail.imap.poll_seconds": (1, None),
    "mail.smtp.port": (1, 65535),
    "mail.smtp.retry_seconds": (1, None),
    "mail.smtp.max_attempts": (1, None),
    "intake.max_lines": (1, None),
    "intake.max_bytes": (1, None),
    "intake.refusals_per_hour": (0, None),
    "intake.spool_keep_days": (0, None),
    "service.outbox_seconds": (1, None),
    "service.outbox_compact_days": (0, None),
    "service.outage_slide_hours": (0, None),
    "service.reminder_hours": (0, None),
    "service.maildir_poll_seconds": (1, None),
}
