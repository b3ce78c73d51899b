"""The people of the court: nobles (`Character`), royals (`Royal`) and the players
(`Player`, with his privateer's `Voyage`), and where a noble stands (`Situation`, `Fate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from moderator.games.dwtk.frozen import fast_init, remembered_forms
from moderator.games.dwtk.orders.reaction import Reaction
from moderator.games.dwtk.state.serial import JSON, fields_dict

FANDONIA = "fandonia"


class Situation(StrEnum):
    """A character's legal situation (DWTK 24, 29, 30, 31.6); NORMAL is 'a normal situation'."""

    NORMAL = "normal"
    HIDING = "hiding"
    BANISHED = "banished"
    IMPRISONED = "imprisoned"
    AWAITING_EXECUTION = "awaiting_execution"


class Fate(StrEnum):
    """The stage of justice a fugitive fled, which he goes back to when he returns (25.10;
    24.8, 29.5, 30.6, 31.6)."""

    HEARING = "hearing"  # 26: a wrongdoer before his hearing
    INTERROGATION = "interrogation"  # 27
    TRIAL = "trial"  # 28
    EXECUTION = "execution"  # 31.6: one awaiting execution
    PRISON = "prison"  # 30.6: an escaped prisoner
    BANISHED = "banished"  # 29.5: banished, and hiding abroad


_SITUATIONS: dict[str, Situation] = {s.value: s for s in Situation}  # faster than Situation()


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class Character:
    """A card of the Nobles Deck in play (DWTK 2.1.2, 3.7); ``owner`` None means NC."""

    id: int
    owner: str | None = None  # the player whose PC or FAC he is
    pc: bool = False
    alive: bool = True  # False: removed for good (31.3)
    titles: int = 0  # title steps bought (13.4.1), each +1 Status
    location: str = FANDONIA  # or a country key (20.2)
    situation: Situation = Situation.NORMAL
    wrongdoer: bool = False  # 23.5
    since: int = 0  # the turn the current situation began (29.9, 30.10)
    henchman: str | None = None  # the Henchman card under him (13.4.7)
    counselor: str | None = None  # the Monarch's Counselor card under him (13.4.3)
    spouse: str | None = None  # a noble id ("23") or a royal key (18)
    betrothed: str | None = None  # romance.py: accepted proposal, not yet wed (18.4.6-18.4.7)
    banned: bool = False  # from Court Balls for life (8.4.4)
    fixed_status: int | None = None  # 3.1.1 Countess 3; 18.10/31.7 Status 8
    face_down_until: int | None = None  # a dead PC's card (31.5): face up on this turn
    fate: Fate | None = None  # the stage a fugitive fled (25.10)
    hunted: tuple[str, ...] = ()  # countries where a Manhunt is on for him (25.5-25.9)
    # -- DWTK 13.4.20 bribery (bribery.py, justice.py) --
    bribed_by: str | None = None  # the player whose bribe this NC Office Holder honours
    bribed_on: int = 0  # the turn his last bribe was accepted (once a turn, 13.4.20.2)
    charge: int = 0  # a bribe's amount, added to his coming hearing roll (13.4.20)

    def to_dict(self) -> JSON:
        return fields_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Character:
        situation = data.get("situation", "normal")
        fate = data.get("fate")
        return cls(**{**data, "situation": _SITUATIONS.get(situation) or Situation(situation),
                      "fate": None if fate is None else Fate(fate),
                      "hunted": tuple(data.get("hunted", ()))})

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def abroad(self) -> bool:
        return self.location != FANDONIA

    @property
    def free(self) -> bool:
        """Not banished, imprisoned or in hiding (the common test of 6.3, 13.4.1, 16.4...)."""
        return self.situation is Situation.NORMAL


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class Royal:
    """A royal character (DWTK 2.1.1, 3.7); ``owner`` None means NRC."""

    key: str
    alive: bool = True
    owner: str | None = None  # FARC of this player
    card: str | None = None  # the Royal Alignment card he stands on (14.5.19)
    spouse: str | None = None  # noble id or royal key (18.5)
    betrothed: str | None = None  # romance.py: accepted proposal, not yet wed (18.4.6)
    usurper_of: str | None = None  # took the throne by usurpation for this player (36.6)

    def to_dict(self) -> JSON:
        return fields_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Royal:
        return cls(**data)


@dataclass(frozen=True)
class Voyage:
    """A privateer at sea (DWTK 13.4.17.1; privateering.py): its captain (a henchman's
    id, None for the anonymous captain of Ability 3) and the cargo in IP not yet home."""

    captain: int | None = None
    cargo: int = 0
    launched: int = 0  # the turn it sailed

    def to_dict(self) -> JSON:
        return fields_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Voyage:
        return cls(**data)


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class Player:
    """A noble's player: his PC, IP and PP, hand, draws and Record Sheet entries."""

    key: str
    name: str
    seat: int  # joining order: the order round the table (DWTK 5)
    pc: int | None = None
    ip: int = 0
    pp: int = 0
    hand: tuple[str, ...] = ()
    loyalty: tuple[int, ...] = ()  # Loyalty counters drawn this turn (11)
    opportunity: tuple[str, ...] = ()  # Opportunity counters drawn this turn (12)
    drawn: tuple[str, ...] = ()  # Event cards drawn this turn (10), for the sheet
    prestige_mods: Mapping[str, int] = field(default_factory=dict)  # 13.4.17
    court_ball_mod: int = 0  # 8.4.4
    free_counsel: bool = False  # from this turn's Court Ball (8.4.4)
    counsels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # 15.9
    lost_turns: tuple[int, ...] = ()  # turns with no Player Turn (31.5, 36.11)
    supports_played: tuple[str, ...] = ()  # Support cards left in front (14.5.2, 36.6)
    ip_spent: int = 0  # IP used this turn (33.2.1: at most half during a crisis)
    ip_at_start: int = 0  # IP held when the turn began (the base of 33.2.1's half)
    reactions: tuple[Reaction, ...] = ()  # standing reaction orders (14.1, orders/reaction.py)
    reaction_seq: int = 0  # the last reaction number given (WITHDRAW REACTION n)
    voyage: Voyage | None = None  # privateering.py: his privateer at sea (13.4.17.1)
    voyage_ended: int = -1  # the turn his last voyage ended: no new one that turn (13.4.17.1)
    lose_first: tuple[str, ...] = ()  # standing LOSE FIRST: whom 35.5 takes first

    def to_dict(self) -> JSON:
        # the standing reactions: the same objects turn after turn (frozen.remembered_forms)
        return fields_dict(self, _REACTIONS)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        return cls(**{
            **data,
            "hand": tuple(data.get("hand", ())),
            "loyalty": tuple(data.get("loyalty", ())),
            "opportunity": tuple(data.get("opportunity", ())),
            "drawn": tuple(data.get("drawn", ())),
            "prestige_mods": dict(data.get("prestige_mods", {})),
            "counsels": {k: tuple(v) for k, v in data.get("counsels", {}).items()},
            "lost_turns": tuple(data.get("lost_turns", ())),
            "supports_played": tuple(data.get("supports_played", ())),
            "reactions": tuple(map(Reaction.from_dict, data.get("reactions", ()))),
            "voyage": Voyage.from_dict(data["voyage"]) if data.get("voyage") else None,
            "lose_first": tuple(data.get("lose_first", ())),
        })


_REACTIONS = ("reactions", remembered_forms)  # `Player.to_dict`'s own conversion
