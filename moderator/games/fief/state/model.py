"""State records (fief-email.md §9) and their JSON form.

The records are mutable dataclasses because one adjudication rewrites most of them; the
engine always works on a fresh copy made by `GameState.from_dict`, so the stored state the
service hands in is never touched.  Every dict is written with sorted keys (by the service's
JSON) and every list in a rule-defined order, so reruns are byte-identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# Found playing by mail: the refusal said "only its Lord, ..." with no rule to look up.
NO_MARRIAGE_AT_THREE = "no marriages in the three-player game (FE 13.8)"
TALLAGE_RULE = ("a Tallage is played by the Lord of that fiefdom, or by the Sovereign on a "
                "region no Lord holds (FE 2.8)")

UNITS = ("knight", "men_at_arms", "archer", "crossbow", "bombard", "trebuchet")
TROOPS = ("knight", "men_at_arms", "archer", "crossbow")  # FE Definitions: Troops


class Phase(StrEnum):
    MUSTER = "muster"   # players sign up; the first adjudication sets up the families
    ORDERS = "orders"   # a round is open for orders
    OVER = "over"


@dataclass
class Noble:
    key: str
    name: str
    sex: str
    family: str
    city: str
    status: str = "free"              # free | captive | dead
    captor: str | None = None         # a noble key, or "invaders:<army>"
    titles: list[str] = field(default_factory=list)   # fiefdom region keys (FE 4.3)
    clergy: str | None = None         # district key of a Bishop/Archbishop (FE 2.14)
    abbess: list[str] = field(default_factory=list)   # abbeys founded (FE 2.13)
    spouse: str | None = None
    retainer: str | None = None
    heresy: bool = False
    garter: bool = False              # Order of the Garter (FE 13.3)
    royal_knights: int = 0            # Royal Guard (FE 13.1): the Sovereign's two Knights
    royal_men_at_arms: int = 0        # and the royal spouse's two Men-at-Arms
    relics: list[str] = field(default_factory=list)   # carried Relics (FE 12.0)

    @property
    def alive(self) -> bool:
        return self.status != "dead"

    @property
    def free(self) -> bool:
        return self.status == "free"

    @property
    def is_clergy(self) -> bool:
        return self.clergy is not None or bool(self.abbess)

    @property
    def is_lord(self) -> bool:
        return bool(self.titles)


@dataclass
class City:
    name: str
    occupants: list[str] = field(default_factory=list)   # families in order of arrival
    holder: str | None = None                             # the controlling family (FE 5.1)
    building: str = ""                                    # stronghold | fortified | abbey
    abbey: str | None = None
    mill: bool = False
    relic: str | None = None                              # face down until found (FE 12.0)
    relic_up: bool = False                                # a Relic left here, face up
    troops: dict[str, dict[str, int]] = field(default_factory=dict)   # family -> unit -> n
    besieged_by: str | None = None
    siege_engines: int = 0                                # Trebuchets under construction

    def units_of(self, family: str) -> dict[str, int]:
        return self.troops.get(family, {})

    def troop_count(self, family: str) -> int:
        return sum(n for u, n in self.units_of(family).items() if u in TROOPS)

    def add(self, family: str, unit: str, n: int) -> None:
        units = self.troops.setdefault(family, {})
        units[unit] = units.get(unit, 0) + n
        if units[unit] <= 0:
            del units[unit]
        if not units:
            del self.troops[family]


@dataclass
class InvaderArmy:
    key: str
    city: str
    leader: bool = True
    foot: int = 5
    captives: list[str] = field(default_factory=list)
    garrison: bool = False            # holds a Fortified City and never moves (FE 6.6)


@dataclass
class Family:
    colour: str
    player: str
    stock: dict[str, int] = field(default_factory=dict)
    ring: str | None = None           # the noble whose marriage allies this family (FE 9.0)


@dataclass
class Player:
    key: str
    name: str
    families: list[str] = field(default_factory=list)
    cash: int = 0
    hand: list[str] = field(default_factory=list)
    pigeons: int = 3
    treasures: int = 2
    standing: list[dict[str, Any]] = field(default_factory=list)
    relic_vp: bool = False
    nmr: int = 0
    slot: str | None = None           # the Family Board's Opportunity space (FE 11.0)
    crossbows: int = 0                # Crossbowmen still on that Mercenary card (FE 11.1)


@dataclass
class GameState:
    name: str
    phase: Phase = Phase.MUSTER
    round: int = 0
    seats: list[str] = field(default_factory=list)            # players in joining order
    first: int = 0                                            # index into seats
    players: dict[str, Player] = field(default_factory=dict)
    families: dict[str, Family] = field(default_factory=dict)
    nobles: dict[str, Noble] = field(default_factory=dict)
    cities: dict[str, City] = field(default_factory=dict)
    character_deck: list[str] = field(default_factory=list)
    character_discard: list[str] = field(default_factory=list)
    fortune_deck: list[str] = field(default_factory=list)     # fortune and disaster cards
    fortune_discard: list[str] = field(default_factory=list)
    retainer_deck: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)          # cards out of the game
    track: list[str] = field(default_factory=list)            # face-down disasters (FE 2.3)
    seas: dict[str, list[str]] = field(default_factory=dict)  # region number -> cards
    dormant: list[list[Any]] = field(default_factory=list)    # Round 1 disasters (FE 2.4)
    taxes: list[dict[str, Any]] = field(default_factory=list)  # tallages played this round
    invaders: dict[str, InvaderArmy] = field(default_factory=dict)
    invaders_gone: int = 0                                    # armies out of the game
    sovereign: str | None = None
    queen: str | None = None
    candidates: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    relic_vp_given: bool = False                               # FE 12.0: one marker
    prince: str | None = None                                  # Prince of Wales (FAQ P2)
    excalibur_city: str | None = None                          # in its stone (FE 13.2)
    excalibur_holder: str | None = None
    excalibur_dropped: bool = False
    skull_used: bool = False                                   # FE 12.3: once a game
    chasuble_moved: list[int] = field(default_factory=list)    # FE 12.2: seas this round
    spent: list[str] = field(default_factory=list)             # Retainers spent (FE 2.12)
    no_battle: list[list[str]] = field(default_factory=list)   # [city, family, family] (5.0)
    parliament_rebellion: bool = False                         # FE 9.3: the card's side
    history: list[dict[str, Any]] = field(default_factory=list)   # per round: VP, holders

    # -- order of play ----------------------------------------------------------------
    def player_order(self) -> list[str]:
        """Players from the First Player clockwise (FE 1.0)."""
        n = len(self.seats)
        return [self.seats[(self.first + i) % n] for i in range(n)] if n else []

    def family_order(self) -> list[str]:
        """Families in turn order; a two-player game plays both of a player's families
        before his opponent's (FE 13.7, Ex 13-2)."""
        return [c for p in self.player_order() for c in self.players[p].families]

    def living(self, family: str | None = None) -> list[Noble]:
        return [n for k, n in sorted(self.nobles.items())
                if n.alive and (family is None or n.family == family)]

    def player_of(self, family: str) -> str:
        return self.families[family].player

    def besieged(self, noble: Noble) -> bool:
        """FE 7.9, 9.1-9.2: a noble shut in a city another player besieges (the besiegers
        on its outskirts are not besieged)."""
        besieger = self.cities[noble.city].besieged_by
        return besieger is not None and self.player_of(besieger) != self.player_of(noble.family)

    def cannot_stand(self, name: str) -> str | None:
        """FE 9.1: why the noble named may not be a candidate for the throne ("any
        non-Clergy Lord"; "a Captive or Besieged Lord cannot be a Candidate"; an Abbess
        first relinquishes her title, 2.13); None when he may."""
        n = self.nobles.get(name.lower())
        if n is None or not n.alive:
            return f"{name} is {'dead' if n else 'not in play'}"
        if n.clergy:
            return f"{name} is of the clergy"
        if n.abbess:
            return f"{name} is an Abbess (she must first relinquish her title, FE 2.13)"
        if not n.titles:
            return f"{name} holds no Fiefdom title"
        if not n.free:
            return f"{name} is captive"
        if self.besieged(n):
            return f"{name} is besieged"
        return None

    def may_tallage(self, player: str, region: str) -> bool:
        """FE 2.8: a Tallage is played by the Lord of the fiefdom (captive or not), or by
        the Sovereign on a region no Lord holds."""
        families = self.players[player].families
        lord = next((n for n in self.living() if region in n.titles), None)
        if lord is not None:
            return lord.family in families
        sovereign = self.nobles.get(self.sovereign) if self.sovereign else None
        return sovereign is not None and sovereign.family in families

    def title_refusal(self, family: str, region: str,
                      region_cities: Sequence[str]) -> str | None:
        """Why the family may not hold the region's title now, or None (FE 4.3): it is
        unheld, the family controls every city of the region (but a Royal Stronghold's,
        no longer of its region, FE 4.9), and one of them has a Stronghold."""
        cities = [self.cities[c] for c in region_cities if self.cities[c].building != "royal"]
        if any(region in n.titles for n in self.living()):
            return "that title is held"
        if any(c.holder != family for c in cities):
            return "your family must control every city of the region (FE 4.3)"
        if not any(c.building in ("stronghold", "fortified") for c in cities):
            return "one of its cities must have a Stronghold (FE 4.3)"
        return None

    # -- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _plain(self)
        data["phase"] = self.phase.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)
        return cls(
            name=d["name"], phase=Phase(d.get("phase", "muster")), round=d.get("round", 0),
            seats=list(d.get("seats", [])), first=d.get("first", 0),
            players={k: Player(**_copy(v)) for k, v in d.get("players", {}).items()},
            families={k: Family(**_copy(v)) for k, v in d.get("families", {}).items()},
            nobles={k: Noble(**_copy(v)) for k, v in d.get("nobles", {}).items()},
            cities={k: City(**_copy(v)) for k, v in d.get("cities", {}).items()},
            character_deck=list(d.get("character_deck", [])),
            character_discard=list(d.get("character_discard", [])),
            fortune_deck=list(d.get("fortune_deck", [])),
            fortune_discard=list(d.get("fortune_discard", [])),
            retainer_deck=list(d.get("retainer_deck", [])),
            removed=list(d.get("removed", [])),
            track=list(d.get("track", [])),
            seas={k: list(v) for k, v in d.get("seas", {}).items()},
            dormant=[list(x) for x in d.get("dormant", [])],
            taxes=[dict(t) for t in d.get("taxes", [])],
            invaders={k: InvaderArmy(**_copy(v)) for k, v in d.get("invaders", {}).items()},
            invaders_gone=d.get("invaders_gone", 0),
            sovereign=d.get("sovereign"), queen=d.get("queen"),
            candidates=list(d.get("candidates", [])), winners=list(d.get("winners", [])),
            relic_vp_given=d.get("relic_vp_given", False), prince=d.get("prince"),
            excalibur_city=d.get("excalibur_city"),
            excalibur_holder=d.get("excalibur_holder"),
            excalibur_dropped=d.get("excalibur_dropped", False),
            skull_used=d.get("skull_used", False),
            chasuble_moved=list(d.get("chasuble_moved", [])),
            spent=list(d.get("spent", [])),
            no_battle=[list(x) for x in d.get("no_battle", [])],
            parliament_rebellion=d.get("parliament_rebellion", False),
            history=[dict(h) for h in d.get("history", [])],
        )


def _plain(value: Any) -> Any:
    """A record as plain JSON data (faster than dataclasses.asdict: no deepcopy)."""
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(v) for k, v in vars(value).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data, so the working state shares nothing with its input."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
