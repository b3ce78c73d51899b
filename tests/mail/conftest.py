"""Real mail servers for end-to-end tests: Dovecot (IMAP/IMAPS/LMTP) behind Postfix (SMTP/SMTPS).

`mailserver` (session scope) reuses servers already started with `scripts/mailtest.sh start`
(same `MAILTEST_DIR`), or starts them itself and always stops them at the end of the session.
It needs the Debian packages (`scripts/mailtest.sh install`) and root. Without them the tests
are skipped, except when `CI` is set: then they fail, because CI must run them.

Users created at start (address -> password), also in `mailserver.users`:

    moderator@pbem.test  moderator-secret
    gm@pbem.test         gm-secret
    player1@pbem.test    player1-secret   ... player6@pbem.test  player6-secret

Delivery through Postfix is asynchronous: use `wait_for_messages`, never a bare fetch right
after sending. See docs/mail-testing.md.
"""

from __future__ import annotations

import os
import shlex
import smtplib
import ssl
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pytest
from imapclient import IMAPClient

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "mailtest.sh"

MODERATOR = "moderator@pbem.test"
GM = "gm@pbem.test"
PLAYERS = tuple(f"player{i}@pbem.test" for i in range(1, 7))
DEFAULT_USERS: dict[str, str] = {
    MODERATOR: "moderator-secret",
    GM: "gm-secret",
    **{f"player{i}@pbem.test": f"player{i}-secret" for i in range(1, 7)},
}
# Binaries the script needs (from dovecot-imapd, dovecot-lmtpd, postfix).
REQUIRED_FILES = (
    "/usr/sbin/dovecot",
    "/usr/lib/dovecot/imap",
    "/usr/lib/dovecot/lmtp",
    "/usr/sbin/postfix",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mail: end-to-end test against real Dovecot + Postfix on 127.0.0.1 "
        "(scripts/mailtest.sh; select with -m mail, exclude with -m 'not mail')",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.mail)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _run_script(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _script_failed(what: str, proc: subprocess.CompletedProcess[str]) -> str:
    output = proc.stderr + proc.stdout
    return f"scripts/mailtest.sh {what} failed (exit {proc.returncode}):\n{output}"


@dataclass(frozen=True)
class MailServer:
    """Where the test mail system listens, plus helpers. Connect to `host` (IPv4 loopback)."""

    host: str
    imap_port: int  # plain IMAP (LOGIN allowed without TLS; STARTTLS offered)
    imaps_port: int  # IMAP over implicit TLS
    smtp_port: int  # SMTP with STARTTLS offered, AUTH PLAIN/LOGIN
    smtps_port: int  # SMTP over implicit TLS, AUTH PLAIN/LOGIN
    cafile: str  # self-signed cert for localhost / 127.0.0.1, regenerated at each start
    dir: str  # MAILTEST_DIR: config, logs, Maildirs (mail/<domain>/<user>/Maildir)
    _passwords: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    # ---- users
    @property
    def users(self) -> Mapping[str, str]:
        """Known users, address -> password (read-only view)."""
        return MappingProxyType(self._passwords)

    def password(self, address: str) -> str:
        try:
            return self._passwords[address.lower()]
        except KeyError:
            raise KeyError(f"{address} is not a known mail test user; add_user() it") from None

    def add_user(self, address: str, password: str) -> None:
        """Create (or re-password) a user while running; a new domain is fine. Synchronous:
        when this returns, Postfix accepts mail for the address and IMAP login works."""
        proc = _run_script("adduser", f"{address}:{password}")
        if proc.returncode != 0:
            raise RuntimeError(_script_failed("adduser", proc))
        self._passwords[address.lower()] = password

    # ---- connections
    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts only the test CA (verification stays on)."""
        return ssl.create_default_context(cafile=self.cafile)

    def imap(self, address: str, password: str | None = None, *, tls: bool = False) -> IMAPClient:
        """A logged-in IMAPClient (plain port, or IMAPS with `tls=True`). Use it in `with`."""
        if tls:
            client = IMAPClient(
                self.host,
                port=self.imaps_port,
                ssl=True,
                ssl_context=self.ssl_context(),
                timeout=10,
            )
        else:
            client = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=10)
        try:
            client.login(address, password if password is not None else self.password(address))
        except Exception:
            client.shutdown()
            raise
        return client

    def smtp(
        self, address: str | None = None, password: str | None = None, *, tls: bool = False
    ) -> smtplib.SMTP:
        """An SMTP connection: STARTTLS on the SMTP port, or implicit TLS (SMTPS) with
        `tls=True`, certificate verified either way; logged in when `address` is given."""
        context = self.ssl_context()
        conn: smtplib.SMTP
        if tls:
            conn = smtplib.SMTP_SSL(self.host, self.smtps_port, context=context, timeout=10)
        else:
            conn = smtplib.SMTP(self.host, self.smtp_port, timeout=10)
            conn.starttls(context=context)
        try:
            if address is not None:
                conn.login(address, password if password is not None else self.password(address))
        except Exception:
            conn.close()
            raise
        return conn

    # ---- mailboxes
    def fetch_messages(self, address: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in the folder as raw RFC 822 bytes (CRLF), oldest first."""
        with self.imap(address) as client:
            client.select_folder(folder, readonly=True)
            return _fetch_all(client)

    def wait_for_messages(
        self,
        address: str,
        count: int = 1,
        *,
        folder: str = "INBOX",
        timeout: float = 60.0,
        interval: float = 0.05,
    ) -> list[bytes]:
        """Poll until the folder holds at least `count` messages; return them all (raw bytes).
        Postfix queues first and delivers a few ms later, so always wait like this (a
        loaded machine delivers seconds later: the limit only ends a wait that failed)."""
        deadline = time.monotonic() + timeout
        with self.imap(address) as client:
            client.select_folder(folder, readonly=True)
            while True:
                client.noop()
                messages = _fetch_all(client)
                if len(messages) >= count:
                    return messages
                if time.monotonic() >= deadline:
                    raise AssertionError(
                        f"{address} {folder}: {len(messages)} message(s) after {timeout}s, "
                        f"expected {count}.\n{self.log_tail()}"
                    )
                time.sleep(interval)

    def reset(self, *addresses: str) -> None:
        """Delete every message in every folder of these users (all known users if none)."""
        for address in addresses or tuple(self._passwords):
            with self.imap(address) as client:
                for flags, _delim, name in client.list_folders():
                    if b"\\Noselect" in flags or b"\\NonExistent" in flags:
                        continue
                    client.select_folder(name)
                    uids = client.search("ALL")
                    if uids:
                        client.delete_messages(uids)
                        client.expunge()
                    client.unselect_folder()

    def log_tail(self, lines: int = 15) -> str:
        """The end of the Postfix and Dovecot logs, for assertion messages."""
        out = []
        for name in ("postfix.log", "dovecot.log"):
            path = Path(self.dir) / "log" / name
            try:
                text = path.read_text(errors="replace").splitlines()[-lines:]
            except OSError as exc:
                text = [f"({exc})"]
            out.append(f"--- {path}\n" + "\n".join(text))
        return "\n".join(out)


def _fetch_all(client: IMAPClient) -> list[bytes]:
    uids = sorted(client.search("ALL"))
    if not uids:
        return []
    data = client.fetch(uids, ["BODY.PEEK[]"])
    return [data[uid][b"BODY[]"] for uid in uids if uid in data]


def _unavailable() -> str | None:
    """Why the mail system cannot be started here, or None."""
    missing = [p for p in REQUIRED_FILES if not os.access(p, os.X_OK)]
    if missing:
        return (
            "mail tests need Dovecot and Postfix (missing: "
            + ", ".join(missing)
            + "); install them as root with: bash scripts/mailtest.sh install"
        )
    return None


def _read_env() -> dict[str, str]:
    proc = _run_script("env")
    if proc.returncode != 0:
        raise RuntimeError(_script_failed("env", proc))
    env: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            parts = shlex.split(value)
            env[key] = parts[0] if parts else ""
    return env


def _give_up(message: str) -> None:
    if _in_ci():
        pytest.fail(f"{message}\n(CI is set: the mail tests must run in CI)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def mailserver(request: pytest.FixtureRequest) -> MailServer:
    """The running test mail system (reused if already up, else started for this session)."""
    problem = _unavailable()
    if problem:
        _give_up(problem)

    status = _run_script("status", timeout=30)
    if status.returncode == 1:
        pytest.fail(
            "the test mail system is only partly running; run `bash scripts/mailtest.sh stop` "
            f"and retry:\n{status.stdout}{status.stderr}",
            pytrace=False,
        )
    started_here = status.returncode != 0
    if started_here:
        if os.geteuid() != 0:
            _give_up(
                "mail tests must start Postfix and Dovecot as root (or reuse servers "
                "started as root with `bash scripts/mailtest.sh start ...`)"
            )

        def stop() -> None:
            proc = _run_script("stop", timeout=60)
            if proc.returncode != 0:
                print(_script_failed("stop", proc))

        # Registered before starting, so a half-started system is stopped too.
        request.addfinalizer(stop)
        specs = [f"{address}:{password}" for address, password in DEFAULT_USERS.items()]
        proc = _run_script("start", *specs)
        if proc.returncode != 0:
            pytest.fail(_script_failed("start", proc), pytrace=False)

    env = _read_env()
    server = MailServer(
        host=env["MAILTEST_HOST"],
        imap_port=int(env["MAILTEST_IMAP_PORT"]),
        imaps_port=int(env["MAILTEST_IMAPS_PORT"]),
        smtp_port=int(env["MAILTEST_SMTP_PORT"]),
        smtps_port=int(env["MAILTEST_SMTPS_PORT"]),
        cafile=env["MAILTEST_CAFILE"],
        dir=env["MAILTEST_DIR"],
        _passwords=dict(DEFAULT_USERS) if started_here else {},
    )
    if not started_here:
        if os.geteuid() == 0:
            # Reused servers: make sure our users exist with our passwords (no-op if they do).
            specs = [f"{address}:{password}" for address, password in DEFAULT_USERS.items()]
            proc = _run_script("adduser", *specs)
            if proc.returncode != 0:
                pytest.fail(_script_failed("adduser", proc), pytrace=False)
            server._passwords.update(DEFAULT_USERS)
        else:
            server._passwords.update(DEFAULT_USERS)
    return server


@pytest.fixture
def clean_mailboxes(mailserver: MailServer) -> Iterator[MailServer]:
    """`mailserver`, with every known user's mailboxes emptied before the test."""
    mailserver.reset()
    yield mailserver
