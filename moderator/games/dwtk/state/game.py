"""The whole game between two adjudications (`GameState`), where it stands (`Phase`) and
its unresolved political problems (`OpenProblem`, 7.7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.state.people import Character, Player, Royal
from moderator.games.dwtk.state.serial import JSON, fields_dict


class Phase(StrEnum):
    """Where the game stands between two adjudications."""

    MUSTER = "muster"  # players join; setup (DWTK 3) runs at the first adjudication
    ORDERS = "orders"  # a turn has begun; its player turns wait for orders
    MOURNING = "mourning"  # 9.4: the turn ended at once; only office bids matter
    OVER = "over"  # 37: a winner, or a draw


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class OpenProblem:
    """An unresolved political problem (DWTK 7.7: its Minister's card face down)."""

    key: str
    failures: int = 0  # consecutive failures of the present Minister (7.8)
    unresolved: int = 0  # turns unresolved in all (the Record Sheet, 7.7)
    next_roll: int = 0  # a counsel's modifier on the next attempt (PROPOSED, reference §7.3)

    def to_dict(self) -> JSON:
        return fields_dict(self)

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
        data = fields_dict(self)
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
