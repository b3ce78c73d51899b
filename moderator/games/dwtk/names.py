"""How keys are written back in orders and how written names are read (DWTK orders).

Characters: ``PC``, an id (``23``) or a card name (``Sir Jeffrey``); royals by name
(``Alan`` or ``Prince Alan``); offices by key or name; countries, Event cards and
problems by name; players by their name (reaction orders, docs/dwtk-orders.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from moderator.games.dwtk.tables import Tables

PC = "pc"
FANDONIA = "fandonia"


@dataclass(frozen=True)
class Names:
    """How keys are written back, and how written names are read (one game's tables)."""

    tables: Tables
    characters: Mapping[str, str] = field(default_factory=dict)
    players: Mapping[str, str] = field(default_factory=dict)  # player key -> name

    @classmethod
    def of(cls, tables: Tables, players: Mapping[str, str] | None = None) -> Names:
        names = {str(n.id): n.name for n in tables.nobles}
        names.update({r.key: r.name for r in tables.royals})
        return cls(tables, names, dict(players or {}))

    def player(self, key: str) -> str:
        return self.players.get(key, key)

    def read_player(self, text: str) -> str | None:
        """A player by his name or key (case-insensitive)."""
        word = " ".join(text.lower().split())
        return next((k for k, name in sorted(self.players.items())
                     if word in (k.lower(), name.lower())), None)

    def who(self, key: str) -> str:
        return "PC" if key == PC else key if key.isdigit() else self.characters.get(key, key)

    def read_who(self, text: str) -> str | None:
        """``PC``, ``23``, ``Sir Jeffrey``, ``Alan``, ``Prince Alan`` -> key."""
        word = text.strip().lower()
        if word == PC:
            return PC
        if word.isdigit():
            return word if any(str(n.id) == word for n in self.tables.nobles) else None
        for key, name in self.characters.items():
            short = name.split(" (")[0].split()[-1].lower()
            if word in (name.lower(), key, short) or word == name.split(" (")[0].lower():
                return key
        return None

    def read_office(self, text: str) -> str | None:
        word = " ".join(text.lower().split())
        for o in self.tables.offices:
            if word in (o.key, o.name.lower(), o.name.lower().replace("minister of the ", ""),
                        o.name.lower().replace("minister of ", "")):
                return o.key
        return None

    def read_place(self, text: str) -> str | None:
        word = " ".join(text.lower().split())
        if word == FANDONIA:
            return FANDONIA
        for c in self.tables.countries:
            if word in (c.key, c.name.lower(), c.name.lower().removeprefix("the ")):
                return c.key
        return None

    def read_card(self, text: str) -> str | None:
        word = " ".join(text.lower().replace("_", " ").split())
        for c in self.tables.cards:
            if word in (c.key.replace("_", " "), c.name.lower()):
                return c.key
        return None

    def read_problem(self, text: str) -> str | None:
        word = " ".join(text.lower().replace("_", " ").split())
        for p in self.tables.problems:
            if word in (p.key.replace("_", " "), p.name.lower()):
                return p.key
        return None

    def office(self, key: str) -> str:
        return self.tables.office(key).name

    def place(self, key: str) -> str:
        return "Fandonia" if key == FANDONIA else self.tables.country(key).name

    def card(self, key: str) -> str:
        return self.tables.card_kind(key).name

    def problem(self, key: str) -> str:
        return self.tables.problem(key).name
