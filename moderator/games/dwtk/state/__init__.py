"""The game state: frozen values with a deterministic JSON form (to_dict/from_dict).

What the Record Sheet keeps (DWTK 2.4) lives here too: Monarch's Support, prestige and
Court Ball modifiers, bans, unresolved problems, Foreign Wars, counsels made.

Keys: noble cards by their id (``"23"`` in JSON), royals by key (``"alan"``), offices
by key (``"navy"``), Event cards by instance (``"treachery-3"``), Opportunity counters
by instance (``"gout-1"``), players by the service's character key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.orders.reaction import Reaction

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

JSON = dict[str, Any]
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


class Phase(StrEnum):
    """Where the game stands between two adjudications."""

    MUSTER = "muster"  # players join; setup (DWTK 3) runs at the first adjudication
    ORDERS = "orders"  # a turn has begun; its player turns wait for orders
    MOURNING = "mourning"  # 9.4: the turn ended at once; only office bids matter
    OVER = "over"  # 37: a winner, or a draw


# -- JSON form (speed matters: the whole state is converted twice a turn) ------------
# `_plain` decides how to convert a value by its type, once per type (`_how`): plain
# scalars as they are; tuples and lists as lists; StrEnums by value; mappings sorted by
# key as text; values with `to_dict` by it; anything else as it is.
_SCALARS: frozenset[type] = frozenset({str, int, bool, float, type(None)})
_SITUATIONS: dict[str, Situation] = {s.value: s for s in Situation}  # faster than Situation()
_SCALAR, _SEQUENCE, _ENUM, _MAPPING, _VALUE, _OTHER = range(6)
_HOW: dict[type, int] = {kind: _SCALAR for kind in _SCALARS}
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _how(kind: type) -> int:
    if issubclass(kind, StrEnum):
        return _ENUM
    if issubclass(kind, tuple | list):
        return _SEQUENCE
    if issubclass(kind, Mapping):
        return _MAPPING
    return _VALUE if hasattr(kind, "to_dict") else _OTHER


def _text_key(item: tuple[Any, Any]) -> str:
    return str(item[0])


def _plain(value: Any) -> Any:
    kind = type(value)
    how = _HOW.get(kind)
    if how is None:
        how = _HOW.setdefault(kind, _how(kind))
    if how == _SCALAR:
        return value
    if how == _VALUE:
        return value.to_dict()
    if how == _SEQUENCE:
        if _SCALARS.issuperset(map(type, value)):  # the usual case, checked in C: a copy
            return list(value)
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if how == _MAPPING:
        return {str(k): v if type(v) in _SCALARS else _plain(v)
                for k, v in sorted(value.items(), key=_text_key)}
    if how == _ENUM:
        return value._value_
    return value


def _to_dict(obj: Any) -> JSON:
    """A dataclass's fields in declaration order, each made plain."""
    found = _FIELDS.get(type(obj))
    if found is None:
        names = tuple(f.name for f in fields(obj))
        get = attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),))
        found = _FIELDS.setdefault(type(obj), (names, get))
    names, get = found
    values = obj.__dict__
    if len(values) == len(names):  # just the fields, stored by __init__ in their order
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in values.items()}
    return dict(zip(names, [v if type(v) in _SCALARS else _plain(v) for v in get(obj)],
                    strict=True))


V = TypeVar("V", bound="DataclassInstance")


def evolve(obj: V, changes: Mapping[str, Any]) -> V:
    """`dataclasses.replace` for the frozen state values, without the cost of `__init__`
    (the court replaces players and characters tens of thousands of times a game).

    The new value's ``__dict__`` is the old one's with ``changes``; only when that dict
    holds exactly the fields and every change names a field (else `replace`, which
    also raises for a wrong name)."""
    kind = type(obj)
    found = _FIELD_SETS.get(kind)
    if found is None:
        found = _FIELD_SETS.setdefault(kind, frozenset(f.name for f in fields(obj)))
    old = obj.__dict__
    if len(old) != len(found) or not changes.keys() <= found:
        return replace(obj, **changes)
    new = object.__new__(kind)
    new.__dict__.update(old)
    new.__dict__.update(changes)
    return new


_FIELD_SETS: dict[type, frozenset[str]] = {}


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
        return _to_dict(self)

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
        return _to_dict(self)

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
        return _to_dict(self)

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
        return _to_dict(self)

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


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class OpenProblem:
    """An unresolved political problem (DWTK 7.7: its Minister's card face down)."""

    key: str
    failures: int = 0  # consecutive failures of the present Minister (7.8)
    unresolved: int = 0  # turns unresolved in all (the Record Sheet, 7.7)
    next_roll: int = 0  # a counsel's modifier on the next attempt (PROPOSED, reference §7.3)

    def to_dict(self) -> JSON:
        return _to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OpenProblem:
        return cls(**data)


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class GameState:
    """The whole game between two adjudications."""

    name: str
    turn: int = 0  # the game turn whose Player Turns wait for orders (0: muster)
    phase: Phase = Phase.MUSTER
    players: Mapping[str, Player] = field(default_factory=dict)
    characters: Mapping[int, Character] = field(default_factory=dict)
    royals: Mapping[str, Royal] = field(default_factory=dict)
    offices: Mapping[str, str | None] = field(default_factory=dict)  # office -> holder
    suspended: tuple[str, ...] = ()  # embassies closed by war (7.10.4)
    problems: tuple[OpenProblem, ...] = ()
    wars: tuple[str, ...] = ()  # countries at war with Fandonia (7.10)
    support: int = 0  # Monarch's Support (32)
    deck: tuple[str, ...] = ()  # the Event pile, top first (3.9)
    discards: tuple[str, ...] = ()  # 14.3
    removed: tuple[str, ...] = ()  # out of the game (3.9 spare DWTK cards, 9.4, 14.5.19)
    loyalty_pool: tuple[int, ...] = ()  # the Loyalty counter container (3.11)
    opportunity_pool: tuple[str, ...] = ()  # the Opportunity counter container
    order: tuple[str, ...] = ()  # this turn's player order, first player first (5)
    crown_event: str | None = None  # this turn's Crown Events result (8)
    next_crown_event: str | None = None  # forced 'court_ball' after a succession (9.4, 36.6)
    scandal_object: int | None = None  # this turn's Crown Event scandal object (counsel)
    farc_monarch_turns: int = 0  # full turns a FARC has held the throne (37)
    winner: str | None = None
    drawn_game: bool = False

    def to_dict(self) -> JSON:
        data = _to_dict(self)
        data["game"] = "dwtk"
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            name=data["name"],
            turn=data.get("turn", 0),
            phase=Phase(data.get("phase", "muster")),
            players={k: Player.from_dict(v) for k, v in data.get("players", {}).items()},
            characters={int(k): Character.from_dict(v)
                        for k, v in data.get("characters", {}).items()},
            royals={k: Royal.from_dict(v) for k, v in data.get("royals", {}).items()},
            offices=dict(data.get("offices", {})),
            suspended=tuple(data.get("suspended", ())),
            problems=tuple(OpenProblem.from_dict(p) for p in data.get("problems", ())),
            wars=tuple(data.get("wars", ())),
            support=data.get("support", 0),
            deck=tuple(data.get("deck", ())),
            discards=tuple(data.get("discards", ())),
            removed=tuple(data.get("removed", ())),
            loyalty_pool=tuple(data.get("loyalty_pool", ())),
            opportunity_pool=tuple(data.get("opportunity_pool", ())),
            order=tuple(data.get("order", ())),
            crown_event=data.get("crown_event"),
            next_crown_event=data.get("next_crown_event"),
            scandal_object=data.get("scandal_object"),
            farc_monarch_turns=data.get("farc_monarch_turns", 0),
            winner=data.get("winner"),
            drawn_game=data.get("drawn_game", False),
        )

    @property
    def seats(self) -> tuple[str, ...]:
        """Players round the table in joining order (DWTK 5: 'clockwise')."""
        return tuple(sorted(self.players, key=lambda k: self.players[k].seat))

    @property
    def crisis(self) -> bool:
        """DWTK 33.1: the government is in crisis while the Monarch's Support is 0."""
        return self.phase is not Phase.MUSTER and self.support == 0
