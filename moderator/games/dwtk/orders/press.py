"""ANNOUNCE: the press of Down with the King, as En Garde! has it (reference §13).

``ANNOUNCE "text"`` (signed), ``ANNOUNCE "text" UNSIGNED`` or ``ANNOUNCE "text" AS
<alias>``: printed in the next *Fandonian Courier*.  In the orders JSON each is
``{"kind": "announce", "text", "unsigned", "alias"}``: the kind the service's press
filter (moderator.turn.press) and the GM's press queue look for, so moderation and the
game's press settings apply as they do to En Garde!.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from moderator.games.dwtk.orders.errors import IllegalOrderError, OrderSyntaxError

# PROPOSED: the same length as En Garde!'s announcements (data/engarde army.toml).
MAX_CHARS = 600
_ANNOUNCE = re.compile(r'^:?\s*["\u201c](.*)["\u201d]\s*(UNSIGNED|AS\s+(.+))?$',
                       re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class Announcement:
    text: str
    unsigned: bool = False
    alias: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "announce", "text": self.text, "unsigned": self.unsigned,
                "alias": self.alias}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Announcement:
        return cls(str(d.get("text", "")), bool(d.get("unsigned", False)), d.get("alias"))


def parse_announcement(rest: str) -> Announcement:
    match = _ANNOUNCE.match(rest.strip())
    if not match or not match.group(1).strip():
        raise OrderSyntaxError("put the announcement in quotes",
                               'ANNOUNCE "text" [UNSIGNED|AS <alias>]')
    body = re.sub(r"\s+", " ", match.group(1).replace('"', "'")).strip()
    if len(body) > MAX_CHARS:
        raise IllegalOrderError(f"the announcement has {len(body)} characters",
                                f"at most {MAX_CHARS}")
    alias = match.group(3).strip() if match.group(3) else None
    return Announcement(body, unsigned=bool(match.group(2)) and alias is None, alias=alias)


def format_announcement(a: Announcement) -> str:
    text = f'ANNOUNCE "{a.text}"'
    if a.unsigned:
        return text + " UNSIGNED"
    return text + (f" AS {a.alias}" if a.alias else "")
