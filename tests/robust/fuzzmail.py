"""A deterministic generator of hostile and ordinary mail for intake (issue 13).

`messages(count, seed)` yields ``(category, raw)`` pairs in a fixed order for a seed; the
categories are the failure classes the issue names, each mixed with real mail:

* ``orders`` valid orders from players, ``reply-top``/``reply-bottom``/``reply-inline``
  replies to a receipt as people write them;
* ``reused-id`` a second, different message with an earlier Message-ID, ``bad-id``
  malformed or missing Message-IDs;
* ``mutated`` real messages truncated, with bytes flipped, headers duplicated or folded
  wrong; ``fixture`` the suite's own sample mails, CPython's and flufl.bounce's;
* ``out-of-office`` vacation replies without headers, ``bounce`` real bounces, ``ticket``
  a ticket robot answering our answers, ``own-address`` mail from our own addresses;
* ``forged`` strangers and forged senders (backscatter), ``display-name`` a From whose
  display name looks like a player's address, ``long-id`` 78+ character Message-IDs,
  ``oversized`` mail over the size limit.

Only a seeded `random.Random` is used, so a run is reproducible byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

EMAILS = Path(__file__).resolve().parents[1] / "emails"
PLAYERS = (("jacques@lyon.example", "rapier"), ("cyrano@bergerac.example", "panache"),
           ("porthos@musket.example", "wine"))
ORDERS = ("WEEK 1: PRACTICE rapier", "WEEK 2: PRACTICE sabre", "WEEK 3: CAROUSE",
          "WEEK 4: PRACTICE rapier", "WEEK 1: BAWDYHOUSE")
OUT_OF_OFFICE = ("Automatische Antwort: [paris] {s}", "I am away until Monday [paris]",
                 "Out of Office: [paris] {s}", "Réponse automatique : [paris] {s}",
                 "Automatic reply: Re: [paris] {s}", "Abwesenheitsnotiz: [paris] {s}",
                 "Respuesta automática: [paris] {s}", "Autosvar: [paris] {s}")
ATTRIBUTIONS = ("On Tue, 1 Dec 2026 at 12:00, Moderator <moderator+paris@paris.example> wrote:",
                "Am 01.12.2026 um 12:00 schrieb Moderator:",
                "Le mar. 1 déc. 2026 à 12:00, Moderator <moderator@paris.example> a écrit :",
                "El mar, 1 dic 2026 a las 12:00, Moderator (<moderator@paris.example>)"
                " escribió:",
                "-----Original Message-----\nFrom: Moderator\nSent: Tuesday\nTo: Jacques\n"
                "Subject: Orders v1",
                "---------- Forwarded message ----------\nFrom: Moderator"
                " <moderator@paris.example>\nDate: Tue, Dec 1, 2026\nSubject: Orders v1")
CATEGORIES = ("orders", "reply-top", "reply-bottom", "reply-inline", "reused-id", "bad-id",
              "mutated", "fixture", "out-of-office", "bounce", "ticket", "own-address",
              "forged", "display-name", "long-id", "oversized")
# How often each category comes up (oversized mail is costly to store: rarely).
WEIGHTS = (14, 6, 6, 4, 8, 8, 14, 10, 6, 6, 3, 3, 6, 3, 3, 1)
OVERSIZED_BYTES = 1_200_000


def _fixtures() -> list[bytes]:
    paths = sorted(EMAILS.glob("*.eml")) + sorted((EMAILS / "cpython").glob("msg_*.txt"))
    paths += sorted((EMAILS / "talon" / "standard_replies").glob("*.eml"))
    return [p.read_bytes() for p in paths]


def _bounces() -> list[bytes]:
    return [p.read_bytes() for p in sorted((EMAILS / "flufl_bounce").glob("*.txt"))]


class Generator:
    """One seeded stream of messages; remembers Message-IDs to reuse them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen_ids: list[str] = []
        self.serial = 0
        self.fixtures = _fixtures()
        self.bounces = _bounces()
        self.start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def _mail(self, sender: str, subject: str, body: str, *, message_id: str | None = None,
              headers: dict[str, str] | None = None) -> bytes:
        self.serial += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "moderator@paris.example"
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.start + timedelta(seconds=self.serial))
        mid = message_id or f"<fuzz-{self.serial}-{self.rng.randrange(10**9)}@client.example>"
        msg["Message-ID"] = mid
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(body)
        self.seen_ids.append(mid)
        return msg.as_bytes()

    def _order_lines(self) -> str:
        return "\n".join(self.rng.sample(ORDERS, self.rng.randint(1, 3)))

    def _player(self) -> tuple[str, str]:
        return PLAYERS[self.rng.randrange(len(PLAYERS))]

    def _receipt_quote(self) -> str:
        return "\n".join(f"> {line}" for line in ("Orders v1 for Jacques de Lyon", "",
                                                  *ORDERS[:2]))

    def make(self, category: str) -> bytes:
        return getattr(self, "_" + category.replace("-", "_"))()

    def _orders(self) -> bytes:
        sender, password = self._player()
        return self._mail(sender, "[paris] orders", f"PASSWORD: {password}\n{self._order_lines()}")

    def _reply(self, layout: str) -> bytes:
        sender, password = self._player()
        attribution = self.rng.choice(ATTRIBUTIONS)
        quote = self._receipt_quote()
        new = self._order_lines()
        if layout == "top" or "\n" in attribution:
            body = f"PASSWORD: {password}\n{new}\n\nSent from my iPhone\n\n{attribution}\n{quote}"
        elif layout == "bottom":
            body = f"PASSWORD: {password}\n\n{attribution}\n{quote}\n\n{new}\n-- \nJacques"
        else:
            lines = new.split("\n")
            body = f"PASSWORD: {password}\n{attribution}\n" + "\n".join(
                f"> quoted {i}\n{line}" for i, line in enumerate(lines))
        return self._mail(sender, "Re: [paris] Orders v1", body)

    def _reply_top(self) -> bytes:
        return self._reply("top")

    def _reply_bottom(self) -> bytes:
        return self._reply("bottom")

    def _reply_inline(self) -> bytes:
        return self._reply("inline")

    def _orders_with(self, **kwargs: str) -> bytes:
        sender, password = self._player()
        return self._mail(sender, "[paris] orders", f"PASSWORD: {password}\n{self._order_lines()}\n"
                          f"# {self.rng.random()}", **kwargs)  # type: ignore[arg-type]

    def _reused_id(self) -> bytes:
        if not self.seen_ids:
            return self._orders()
        return self._orders_with(message_id=self.rng.choice(self.seen_ids))

    def _bad_id(self) -> bytes:
        raw = self._orders_with(message_id="<placeholder@x>")
        choice = self.rng.choice((b"Message-ID: no-brackets", b"Message-ID: ", b"",
                                  b"Message-ID: <two words@x>", b"Message-ID: <<>>",
                                  b"Message-ID: <\xff\xfe@x>"))
        return raw.replace(b"Message-ID: <placeholder@x>", choice)

    def _mutated(self) -> bytes:
        base = self.rng.choice([*self.fixtures, self._orders()])
        data = bytearray(base)
        how = self.rng.randrange(6)
        if how == 0 and data:
            del data[self.rng.randrange(len(data)):]
        elif how == 1:
            for _ in range(self.rng.randint(1, 20)):
                if data:
                    data[self.rng.randrange(len(data))] = self.rng.randrange(256)
        elif how == 2:
            data = bytearray(base.replace(b"\n", b"\nX-Dup: 1\n", 3))
        elif how == 3:
            data = bytearray(base.replace(b"\r\n", b"\n").replace(b"\n", b"\r", 5))
        elif how == 4:
            cut = base.find(b"\n\n")
            data = bytearray(base[:cut if cut > 0 else len(base)])
        else:
            data = bytearray(b"From: " + bytes(self.rng.randrange(256) for _ in range(200)))
        return bytes(data)

    def _fixture(self) -> bytes:
        return self.rng.choice(self.fixtures)

    def _out_of_office(self) -> bytes:
        sender, _ = self._player()
        subject = self.rng.choice(OUT_OF_OFFICE).format(s="orders")
        return self._mail(sender, subject, "I am out of the office until Monday.")

    def _bounce(self) -> bytes:
        return self.rng.choice(self.bounces)

    def _ticket(self) -> bytes:
        number = self.rng.randrange(100)
        return self._mail("helpdesk@tickets.example",
                          f"[Ticket #{number}] Re: Not accepted: [paris] orders",
                          "Your request has been received and will be handled.")

    def _own_address(self) -> bytes:
        sender = self.rng.choice(("moderator@paris.example", "moderator+paris@paris.example",
                                  "moderator"))
        return self._mail(sender, "Not accepted: [paris] orders", "The moderator could not.")

    def _forged(self) -> bytes:
        sender = f"stranger{self.rng.randrange(40)}@spam{self.rng.randrange(5)}.example"
        return self._mail(sender, f"[paris] offer {self.rng.randrange(10**6)}", "Buy now.",
                          headers={"Authentication-Results":
                                   "mx.paris.example; dmarc=fail header.from=spam.example"})

    def _display_name(self) -> bytes:
        raw = self._mail("x@evil.example", "[paris] orders",
                         f"PASSWORD: panache\n{self._order_lines()}")
        return raw.replace(b"From: x@evil.example",
                           b"From: cyrano@bergerac.example <x@evil.example>")

    def _long_id(self) -> bytes:
        long_id = f"<{'A' * self.rng.randint(70, 200)}.{self.serial}@prod.outlook.example>"
        return self._orders_with(message_id=long_id)

    def _oversized(self) -> bytes:
        sender, password = self._player()
        filler = ("# " + "x" * 97 + "\n") * (OVERSIZED_BYTES // 100)
        return self._mail(sender, "[paris] orders", f"PASSWORD: {password}\n{filler}")


def messages(count: int, seed: int = 13) -> Iterator[tuple[str, bytes]]:
    """``count`` messages, each with its category, the same for the same seed."""
    generator = Generator(seed)
    for _ in range(count):
        category = generator.rng.choices(CATEGORIES, WEIGHTS)[0]
        yield category, generator.make(category)
