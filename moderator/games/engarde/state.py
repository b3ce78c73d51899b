"""The game state: frozen dataclasses with a deterministic JSON form.

The service stores ``GameState.to_dict()``; every dict is emitted with sorted
keys and characters in key order, so the same game always serialises to the
same JSON (EG §A–B for the character fields, §P for housing, §O for the play).
"""

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
            qualified=data.get("qualified"),
        )


@dataclass(frozen=True)
class Theatre:
    """The current play (EG §O): a long run skips its first night."""

    play: int = 1
    long_run: bool = False  # this month continues last month's play
    run_months: int = 0  # months the current play has run before this one
    last_outcome: str | None = None  # the reception roll of the running play
    box_holders: tuple[str, ...] = ()  # who held a box last month

    def to_dict(self) -> JSON:
        return {"play": self.play, "long_run": self.long_run, "run_months": self.run_months,
                "last_outcome": self.last_outcome, "box_holders": list(self.box_holders)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Theatre:
        return cls(data.get("play", 1), data.get("long_run", False), data.get("run_months", 0),
                   data.get("last_outcome"), tuple(data.get("box_holders", ())))


@dataclass(frozen=True)
class Lady:
    """An NPC lady (EG §L; reference §10.1): on the list, kept, or married.

    Who keeps her is stored on the man (`Character.mistress` / `.wife`); a lady no
    man names is available and appears in "Ladies of Paris".  ``loyalty`` is secret.
    """

    key: str
    name: str
    sl: int
    beautiful: bool
    influential: bool
    wealthy: bool
    loyalty: int
    listed: int  # turn she was put on the list
    since: int | None = None  # turn the present affair (or marriage) began
    married: bool = False
    favour_turn: int | None = None  # turn her last yearly favours were given (EG §S)
    engaged: int | None = None  # last turn the announced wedding may take place
    pregnant_by: str | None = None  # the father (reference §10.4)
    conceived: int | None = None  # turn of conception; birth at conceived + 9
    answered: str | None = None  # the father's answer to the news (EG §L)

    def to_dict(self) -> JSON:
        return {"key": self.key, "name": self.name, "sl": self.sl,
                "beautiful": self.beautiful, "influential": self.influential,
                "wealthy": self.wealthy, "loyalty": self.loyalty, "listed": self.listed,
                "since": self.since, "married": self.married, "favour_turn": self.favour_turn,
                "engaged": self.engaged, "pregnant_by": self.pregnant_by,
                "conceived": self.conceived, "answered": self.answered}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Lady:
        return cls(data["key"], data["name"], data["sl"], data.get("beautiful", False),
                   data.get("influential", False), data.get("wealthy", False),
                   data["loyalty"], data.get("listed", 0), data.get("since"),
                   data.get("married", False), data.get("favour_turn"), data.get("engaged"),
                   data.get("pregnant_by"), data.get("conceived"), data.get("answered"))


@dataclass(frozen=True)
class Loan:
    """A debt (EG §Q): from another character (``lender`` his key) or a shylock (None)."""

    id: int
    lender: str | None
    borrower: str
    amount: int  # still owed (principal)
    taken: int  # turn
    demanded: int | None = None  # turn the lender published his demand

    @property
    def shylock(self) -> bool:
        return self.lender is None

    def to_dict(self) -> JSON:
        return {"id": self.id, "lender": self.lender, "borrower": self.borrower,
                "amount": self.amount, "taken": self.taken, "demanded": self.demanded}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Loan:
        return cls(data["id"], data.get("lender"), data["borrower"], data["amount"],
                   data["taken"], data.get("demanded"))


@dataclass(frozen=True)
class Matter:
    """Business left for engines still to come (see honour.py).

    ``kind`` is ``duel_cause`` (a cause for a duel: the duels engine), ``crime`` (a
    report to the authorities: the trials engine) or ``arrest`` (a debtor who did not
    flee: the trials engine).  Those engines read and remove them.
    """

    kind: str
    turn: int
    parties: tuple[str, ...]
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        return {"kind": self.kind, "turn": self.turn, "parties": list(self.parties),
                "args": dict(sorted(self.args.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Matter:
        return cls(data["kind"], data["turn"], tuple(data["parties"]),
                   dict(data.get("args", {})))


@dataclass(frozen=True)
class Challenge:
    """A challenge to a duel (reference §6), published the month it is issued and
    fought the month after, in its week.  ``cause`` is the automatic cause (a reason
    code) or None: a press challenge whose cause the GM decides (``decision``)."""

    challenger: str
    challenged: str
    turn: int
    weapon: str | None = None
    week: int | None = None
    to_death: bool = False
    cause: str | None = None

    @property
    def decision(self) -> str:
        return f"cause:{self.challenger}:{self.challenged}"

    def to_dict(self) -> JSON:
        return {"challenger": self.challenger, "challenged": self.challenged,
                "turn": self.turn, "weapon": self.weapon, "week": self.week,
                "to_death": self.to_death, "cause": self.cause}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Challenge:
        return cls(data["challenger"], data["challenged"], data["turn"], data.get("weapon"),
                   data.get("week"), data.get("to_death", False), data.get("cause"))


@dataclass(frozen=True)
class Charge:
    """A criminal charge (EG §R), published the month it is brought and tried the month
    after.  ``by`` is the accuser (None: the authorities, from a report); ``warrant``
    when brought by royal warrant; ``guilty`` when the engine knows the truth (a bribe
    reported by an honest man ...), None when only the GM does."""

    id: int
    accused: str
    crime: str
    turn: int
    by: str | None = None
    warrant: bool = False
    guilty: bool | None = None
    retrial: bool = False

    def to_dict(self) -> JSON:
        return {"id": self.id, "accused": self.accused, "crime": self.crime,
                "turn": self.turn, "by": self.by, "warrant": self.warrant,
                "guilty": self.guilty, "retrial": self.retrial}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Charge:
        return cls(data["id"], data["accused"], data["crime"], data["turn"], data.get("by"),
                   data.get("warrant", False), data.get("guilty"), data.get("retrial", False))


@dataclass(frozen=True)
class GameState:
    """A whole game between two turns."""

    name: str
    month: int  # 1-12
    year: int
    turn: int  # 1 for the first month played
    characters: Mapping[str, Character]
    theatre: Theatre = Theatre()
    ladies: Mapping[str, Lady] = field(default_factory=dict)
    lady_serial: int = 0  # numbers the ladies' keys
    loans: tuple[Loan, ...] = ()
    loan_serial: int = 0
    matters: tuple[Matter, ...] = ()
    # Duels (reference §6) and trials (EG §R) waiting for next month.
    challenges: tuple[Challenge, ...] = ()
    charges: tuple[Charge, ...] = ()
    charge_serial: int = 0
    # The GM's decisions (GM's desk: ``moderator decide GAME KEY VALUE``): key -> value.
    # Each rule that needs one reads it here, uses a documented default when it is
    # missing, says on the turn sheet which applied, and removes the key it used.
    decisions: Mapping[str, str] = field(default_factory=dict)
    # Reference §5: this season's deployed brigades and the NPC commanders' MA.
    campaign: Mapping[str, Any] = field(default_factory=dict)

    @property
    def week_base(self) -> int:
        """Absolute index of this month's week 0 (week n is week_base + n)."""
        return (self.turn - 1) * 4

    def to_dict(self) -> JSON:
        return {
            "game": "engarde",
            "name": self.name, "month": self.month, "year": self.year, "turn": self.turn,
            "characters": {k: self.characters[k].to_dict() for k in sorted(self.characters)},
            "theatre": self.theatre.to_dict(),
            "ladies": {k: self.ladies[k].to_dict() for k in sorted(self.ladies)},
            "lady_serial": self.lady_serial,
            "loans": [loan.to_dict() for loan in self.loans],
            "loan_serial": self.loan_serial,
            "matters": [m.to_dict() for m in self.matters],
            "challenges": [c.to_dict() for c in self.challenges],
            "charges": [c.to_dict() for c in self.charges],
            "charge_serial": self.charge_serial,
            "decisions": dict(sorted(self.decisions.items())),
            "campaign": _sorted(self.campaign),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            name=data["name"], month=data["month"], year=data["year"], turn=data["turn"],
            characters={k: Character.from_dict(v) for k, v in data["characters"].items()},
            theatre=Theatre.from_dict(data.get("theatre", {})),
            ladies={k: Lady.from_dict(v) for k, v in data.get("ladies", {}).items()},
            lady_serial=data.get("lady_serial", 0),
            loans=tuple(Loan.from_dict(v) for v in data.get("loans", ())),
            loan_serial=data.get("loan_serial", 0),
            matters=tuple(Matter.from_dict(v) for v in data.get("matters", ())),
            challenges=tuple(Challenge.from_dict(v) for v in data.get("challenges", ())),
            charges=tuple(Charge.from_dict(v) for v in data.get("charges", ())),
            charge_serial=data.get("charge_serial", 0),
            decisions={str(k): str(v) for k, v in data.get("decisions", {}).items()},
            campaign=dict(data.get("campaign", {})),
        )


def _sorted(value: Any) -> Any:
    """Dicts with sorted keys, all the way down (deterministic JSON)."""
    if isinstance(value, Mapping):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted(v) for v in value]
    return value
