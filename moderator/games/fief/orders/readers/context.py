"""What an order line's names mean for one family, and the words every order reads.

`Context` matches cities, regions, seas, districts, nobles, players and the cards in hand
(misspellings forgiven, `orders.names`); `read_count`, `read_list` and `read_units` read a
number, a list (`,` or AND) and troops ("2 KNIGHT, 3 ARCHER").  Every order family's
reader (`orders.readers`) starts here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadNumber, BadSyntax, OrderParseError, UnknownName
from moderator.games.fief.tables import Tables

RELICS = ("Holy Grail", "Chasuble of Thomas Becket", "Skull of Saint Caradoc",
          "Saint Eanswith's Shinbone")


@dataclass(frozen=True)
class Context:
    """What names mean for this family: the map, the cards, the players and families."""

    tables: Tables
    players: Mapping[str, str]            # player key -> name
    families: tuple[str, ...]             # this player's colours
    all_families: tuple[str, ...]
    hand: tuple[str, ...]
    owners: Mapping[str, str] = field(default_factory=dict)   # family colour -> player key
    mine: tuple[str, ...] = ()            # the names of this player's nobles in play
    in_play: tuple[str, ...] = ()         # the names of every noble in play

    def city(self, text: str) -> str:
        return names.match(text, self.tables.city_names, "city")

    def region(self, text: str) -> str:
        t = text.strip()
        t = re.sub(r"^(sea|region)\s+", "", t, flags=re.I)
        if t.upper() in names.NUMERALS:
            return self.tables.region(names.NUMERALS[t.upper()]).key
        if t.isdigit() and 1 <= int(t) <= len(self.tables.regions):
            return self.tables.region(int(t)).key
        known = {r.name: r.key for r in self.tables.regions}
        return known[names.match(t, known, "region")]

    def sea(self, text: str) -> int:
        return self.tables.region(self.region(text)).number

    def district(self, text: str) -> str:
        t = re.sub(r"^(the\s+)?((arch)?bishopric\s+of\s+)", "", text.strip(), flags=re.I)
        known = {d.cathedral: d.key for d in self.tables.districts}
        return known[names.match(t, known, "Bishopric or Archbishopric")]

    def noble(self, text: str) -> str:
        known = [n.name for n in self.tables.nobles]
        try:
            return names.match(text, known, "noble", hint_list=False)
        except UnknownName as e:
            raise UnknownName(e.message, self._nobles_meant(text, known)) from e

    def _nobles_meant(self, text: str, known: list[str]) -> str | None:
        """The nobles a player could mean by an unknown name: a near spelling, else his
        own nobles and the others in play (found playing by mail: the hint listed all 20
        of the Character deck, most never in play, FE 1.0)."""
        folded = {names.fold(k): k for k in known}
        near = difflib.get_close_matches(names.fold(text), sorted(folded), n=2, cutoff=0.7)
        if near:
            return f"did you mean {' or '.join(folded[f] for f in near)}?"
        others = [k for k in self.in_play if k not in self.mine]
        parts = [f"your nobles: {', '.join(self.mine)}" if self.mine else "",
                 f"the others in play: {', '.join(others)}" if others else ""]
        return "; ".join(p for p in parts if p) or None

    def player(self, text: str) -> str:
        """A player by name, by key, or by his family's colour (the gazette writes "Green
        (Dave)"; found playing by mail: `ATTACK Lincoln AGAINST Green` was refused, and the
        hint listed the players' internal keys beside their names)."""
        if text.strip().upper() == "ANYONE":
            return "ANYONE"
        by_name = {v: k for k, v in self.players.items()}
        known = {**{k: k for k in self.players}, **self.owners, **by_name}
        try:
            return known[names.match(text, known, "player", hint_list=False)]
        except UnknownName as e:
            colours = f" or a family: {', '.join(sorted(self.owners))}" if self.owners else ""
            raise UnknownName(e.message, f"a player: {', '.join(sorted(by_name))}{colours}"
                              ) from e

    def card(self, text: str) -> str:
        try:
            return names.match(text, self.hand, "card in your hand")
        except OrderParseError as e:
            raise OrderParseError(e.message, f"your hand: {', '.join(self.hand) or 'empty'}") from e


def read_count(text: str) -> int:
    if not text.strip().isdigit():
        raise BadNumber(f"{text.strip()!r} is not a number")
    return int(text)


def read_list(text: str) -> list[str]:
    return [p.strip() for p in re.split(r",|\bAND\b", text, flags=re.I) if p.strip()]


def read_units(ctx: Context, text: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for part in read_list(text):
        m = re.match(r"^(\d+)\s+(.+)$", part)
        if not m:
            raise BadSyntax(f"{part!r}: write a count and a troop", "e.g. 2 KNIGHT, 3 ARCHER")
        out.append((names.unit(m.group(2)), int(m.group(1))))
    return tuple(out)
