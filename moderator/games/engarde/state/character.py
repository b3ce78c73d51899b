"""A player character and what he holds (EG §A–B, §L, §P, §S).

Every dict is emitted with sorted keys (deterministic JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

JSON = dict[str, Any]


class Tenure(StrEnum):
    """How a character holds the roof over his head (EG §P)."""

    RENTED = "rented"
    OWNED = "owned"
    FAMILY = "family"  # a title's family home: owned, never sold


@dataclass(frozen=True)
class Home:
    """Where a character lives (EG §P)."""

    area: str
    kind: str
    tenure: Tenure

    def to_dict(self) -> JSON:
        return {"area": self.area, "kind": self.kind, "tenure": self.tenure.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Home:
        return cls(data["area"], data["kind"], Tenure(data["tenure"]))


@dataclass(frozen=True)
class Property:
    """An owned house the character does not live in, perhaps on offer to let (EG §P)."""

    area: str
    kind: str
    family: bool = False
    letting: bool = False

    def to_dict(self) -> JSON:
        return {"area": self.area, "kind": self.kind, "family": self.family,
                "letting": self.letting}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Property:
        return cls(data["area"], data["kind"], data.get("family", False),
                   data.get("letting", False))


@dataclass(frozen=True)
class Favour:
    """One favour held (EG §S): its class, where it came from and when it lapses.

    ``source`` is ``sl`` (Table B, lapses at the season's end), ``mistress`` (Table C,
    kept while the affair lasts: ``lady`` names her), ``npc`` (bribes; kept for ever),
    ``combined`` (two of a class made one), or ``appointment`` (a hook for the
    appointments engine: lapses at the season's end, like SL favours).
    ``expires`` is the last turn it may be used (None: never lapses).
    """

    id: str
    cls: int
    source: str
    expires: int | None = None
    lady: str | None = None

    def to_dict(self) -> JSON:
        return {"id": self.id, "cls": self.cls, "source": self.source,
                "expires": self.expires, "lady": self.lady}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Favour:
        return cls(data["id"], data["cls"], data["source"], data.get("expires"),
                   data.get("lady"))


@dataclass(frozen=True)
class Child:
    """A child born to a character (EG §L births)."""

    name: str  # the mother's name: children are listed as "son of Mlle X"
    sex: str  # "son" | "daughter"
    born: int  # turn
    deformed: bool = False
    resembles: str | None = None  # "father" | "mother" | "both" | None

    def to_dict(self) -> JSON:
        return {"name": self.name, "sex": self.sex, "born": self.born,
                "deformed": self.deformed, "resembles": self.resembles}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Child:
        return cls(data["name"], data["sex"], data["born"], data.get("deformed", False),
                   data.get("resembles"))


@dataclass(frozen=True)
class Character:
    """One player character (EG §A–B) and what he has accumulated since."""

    key: str
    name: str
    social_class: str
    sibling: str
    orphan: bool
    father: str
    title: str | None
    sl: int
    strength: int
    constitution: int
    endurance: int
    military_ability: int
    expertise: Mapping[str, int]
    crowns: int
    allowance: int
    practice_weeks: Mapping[str, int] = field(default_factory=dict)
    club: str | None = None
    rejoin_bars: Mapping[str, int] = field(default_factory=dict)  # club -> first week allowed
    home: Home | None = None
    properties: tuple[Property, ...] = ()
    lonely_months: int = 0  # consecutive months without female company (EG §L)
    missed_months: int = 0  # consecutive months without orders
    sp_month: int = 0  # SP of the last month adjudicated
    sl_change: int = 0  # -1, 0, +1 last month
    standing: JSON | None = None  # standing orders, kept until replaced
    nmr: JSON | None = None  # orders used when none arrive
    # EG §L: the lady he keeps and the lady he married (keys into GameState.ladies).
    mistress: str | None = None
    wife: str | None = None
    children: tuple[Child, ...] = ()
    public_liaisons: tuple[int, ...] = ()  # turns of his publicised liaisons (EG §L)
    grieving_until: int = 0  # last turn he is excused female company (EG §L births)
    favours: tuple[Favour, ...] = ()  # EG §S
    favour_serial: int = 0  # numbers his favours' ids
    # PROPOSED (reference §9): why he is disgraced, or None.  See honour.py.
    disgraced: str | None = None
    # Reference §9 (PROPOSED): who brought the disgrace about (a lender who demanded,
    # a lady's champion), when there is one: beating him in a duel ends it.
    accuser: str | None = None
    # Sent away from Paris: "front" (player-loan default, EG §Q) or "frontier"
    # (shylock default).  Until the army engine exists he simply takes no week actions.
    sent_away: str | None = None
    stays_in_paris: bool = False  # a shylock defaulter who refused to flee (EG §Q)
    # The army (reference §4-5): regiment key and rank key (ranks of army.toml, then the
    # general ranks); rejections since he last got in (every two: -1 on applications).
    regiment: str | None = None
    rank: str | None = None
    rejections: int = 0
    horses: int = 0
    # EG §C-D, reference §5: "paris" or "front"; the last turn he serves (None: until
    # released: a frontier soldier, a debtor); why he is there.
    location: str = "paris"
    front_until: int | None = None
    front_reason: str | None = None
    front_months: int = 0  # consecutive months at the front (a season ends a disgrace)
    mentions: int = 0  # mentions in dispatches, whole career (titles, reference §8)
    mention_sp_due: int = 0  # SP of mentions credited when he returns to Paris
    dead: bool = False  # killed at the front or in a duel: out of the game
    prison_until: int = 0  # last turn in prison (EG §R): no week or weekend actions
    wounds: int = 0  # Endurance lost (duels); healed at the month's end (PROPOSED)
    convictions: int = 0  # EG §R: +5 to later trials
    appointment: str | None = None  # reference §7
    title_tries: int = 0  # qualifications that brought no title (reference §8: -1 each)
    qualified: str | None = None  # a title qualification awaiting the King (reference §8)
    disguised: bool = False  # EG §R: a private in a frontier regiment, out of reach of arrest

    @property
    def noble(self) -> bool:
        return self.social_class == "noble"

    @property
    def at_front(self) -> bool:
        return self.location == "front"

    def imprisoned(self, turn: int) -> bool:
        return self.prison_until >= turn

    def to_dict(self) -> JSON:
        return {
            "key": self.key, "name": self.name, "social_class": self.social_class,
            "sibling": self.sibling, "orphan": self.orphan, "father": self.father,
            "title": self.title, "sl": self.sl, "strength": self.strength,
            "constitution": self.constitution, "endurance": self.endurance,
            "military_ability": self.military_ability,
            "expertise": dict(sorted(self.expertise.items())),
            "crowns": self.crowns, "allowance": self.allowance,
            "practice_weeks": dict(sorted(self.practice_weeks.items())),
            "club": self.club, "rejoin_bars": dict(sorted(self.rejoin_bars.items())),
            "home": self.home.to_dict() if self.home else None,
            "properties": [p.to_dict() for p in self.properties],
            "lonely_months": self.lonely_months, "missed_months": self.missed_months,
            "sp_month": self.sp_month, "sl_change": self.sl_change,
            "standing": self.standing, "nmr": self.nmr,
            "mistress": self.mistress, "wife": self.wife,
            "children": [ch.to_dict() for ch in self.children],
            "public_liaisons": list(self.public_liaisons),
            "grieving_until": self.grieving_until,
            "favours": [f.to_dict() for f in self.favours],
            "favour_serial": self.favour_serial,
            "disgraced": self.disgraced, "sent_away": self.sent_away,
            "stays_in_paris": self.stays_in_paris,
            "regiment": self.regiment, "rank": self.rank, "rejections": self.rejections,
            "horses": self.horses, "location": self.location, "front_until": self.front_until,
            "front_reason": self.front_reason, "front_months": self.front_months,
            "mentions": self.mentions, "mention_sp_due": self.mention_sp_due,
            "dead": self.dead, "prison_until": self.prison_until, "wounds": self.wounds,
            "convictions": self.convictions, "appointment": self.appointment,
            "title_tries": self.title_tries, "qualified": self.qualified,
            "accuser": self.accuser, "disguised": self.disguised,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Character:
        home = data.get("home")
        return cls(
            key=data["key"], name=data["name"], social_class=data["social_class"],
            sibling=data["sibling"], orphan=data["orphan"], father=data["father"],
            title=data.get("title"), sl=data["sl"], strength=data["strength"],
            constitution=data["constitution"], endurance=data["endurance"],
            military_ability=data["military_ability"], expertise=dict(data["expertise"]),
            crowns=data["crowns"], allowance=data["allowance"],
            practice_weeks=dict(data.get("practice_weeks", {})), club=data.get("club"),
            rejoin_bars=dict(data.get("rejoin_bars", {})),
            home=Home.from_dict(home) if home else None,
            properties=tuple(Property.from_dict(p) for p in data.get("properties", ())),
            lonely_months=data.get("lonely_months", 0),
            missed_months=data.get("missed_months", 0),
            sp_month=data.get("sp_month", 0), sl_change=data.get("sl_change", 0),
            standing=data.get("standing"), nmr=data.get("nmr"),
            mistress=data.get("mistress"), wife=data.get("wife"),
            children=tuple(Child.from_dict(ch) for ch in data.get("children", ())),
            public_liaisons=tuple(data.get("public_liaisons", ())),
            grieving_until=data.get("grieving_until", 0),
            favours=tuple(Favour.from_dict(f) for f in data.get("favours", ())),
            favour_serial=data.get("favour_serial", 0),
            disgraced=data.get("disgraced"), sent_away=data.get("sent_away"),
            stays_in_paris=data.get("stays_in_paris", False),
            regiment=data.get("regiment"), rank=data.get("rank"),
            rejections=data.get("rejections", 0), horses=data.get("horses", 0),
            location=data.get("location", "paris"), front_until=data.get("front_until"),
            front_reason=data.get("front_reason"), front_months=data.get("front_months", 0),
            mentions=data.get("mentions", 0), mention_sp_due=data.get("mention_sp_due", 0),
            dead=data.get("dead", False), prison_until=data.get("prison_until", 0),
            wounds=data.get("wounds", 0), convictions=data.get("convictions", 0),
            appointment=data.get("appointment"), title_tries=data.get("title_tries", 0),
            qualified=data.get("qualified"), accuser=data.get("accuser"),
            disguised=data.get("disguised", False),
        )
