"""Orders of Fief at war: battles, sieges, plans, captives (FE 7.0-7.10, 10.2, 11.1).

Attacks and allies, the standing battle plan (losses, surrender, engines, spoils),
sieges and sallies, truces and betrayals, ransoms, pillage, and Crossbowmen lent and hired
into battle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Attack(Order):
    """FE 7.0: declare a battle at a city; `tunnels`: a Passage card played to attack a
    Stronghold or Fortified City from the tunnels, without the melee penalty (FE 10.2)."""
    kind: ClassVar[str] = "attack"
    city: str = ""
    against: str | None = None
    tunnels: bool = False


@dataclass(frozen=True)
class Join(Order):
    """FE 7.0 Ally Attacks: fight on another player's side in a battle at a city; it needs
    his `JOIN` naming you (matching orders, fief-email.md §4)."""
    kind: ClassVar[str] = "join"
    player: str = ""
    city: str = ""
    against: str | None = None


@dataclass(frozen=True)
class Target(Order):
    """FE 7.2 Targeting a Noble: the archers of your side aim at him in battles at a city."""
    kind: ClassVar[str] = "target"
    noble: str = ""
    city: str = ""


@dataclass(frozen=True)
class Losses(Order):
    """FE 7.5 (a battle plan, fief-email.md §5.1): the order in which this family's troops
    are lost among the choices that take as many hits as possible."""
    kind: ClassVar[str] = "losses"
    standing: ClassVar[bool] = True
    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class Surrender(Order):
    """FE 7.8 (battle plan): surrender when the army's troops fall below n."""
    kind: ClassVar[str] = "surrender"
    standing: ClassVar[bool] = True
    below: int = 0


@dataclass(frozen=True)
class DestroyEngines(Order):
    """FE 7.2 Tactical Destruction (battle plan): destroy your own Trebuchets and Bombards
    at the end of a battle round once your troops there fall below n (0: never)."""
    kind: ClassVar[str] = "destroy_engines"
    standing: ClassVar[bool] = True
    below: int = 0


@dataclass(frozen=True)
class Spoils(Order):
    """FE 7.2 Winner's Spoils (battle plan): take the loser's engines, or destroy them."""
    kind: ClassVar[str] = "spoils"
    standing: ClassVar[bool] = True
    how: str = "take"                  # take | destroy


@dataclass(frozen=True)
class Truce(Order):
    """FE 7.8 Truce: at the end of a battle roll, when the other side wrote the mirror
    line; `terms`: "" (control unchanged), "cede" or "take" the city."""
    kind: ClassVar[str] = "truce"
    player: str = ""
    city: str = ""
    terms: str = ""


@dataclass(frozen=True)
class Betray(Order):
    """FE 7.0: "allies may betray each other anytime during the Battle, even switching
    sides mid-Battle": after battle round n at the city, your families in a coalition
    there fight on the other side."""
    kind: ClassVar[str] = "betray"
    city: str = ""
    after: int = 1


@dataclass(frozen=True)
class EndBattle(Order):
    """FE 7.8: end a battle at the city after a roll, alone: as the attacker of a
    Stronghold or Fortified City, or against a side left without a noble."""
    kind: ClassVar[str] = "end_battle"
    city: str = ""


@dataclass(frozen=True)
class WithdrawPassage(Order):
    """FE 7.8, 10.2 Withdraw: a defender plays Passage at the end of a battle roll; the
    side's nobles leave to an adjacent city, each with one troop."""
    kind: ClassVar[str] = "withdraw_passage"
    city: str = ""
    to: str | None = None


@dataclass(frozen=True)
class Siege(Order):
    """FE 7.9: in Phase 7, besiege a defended Stronghold or Fortified City."""
    kind: ClassVar[str] = "siege"
    city: str = ""


@dataclass(frozen=True)
class LiftSiege(Order):
    """FE 7.9: the besieger ends his siege (his Trebuchets go home)."""
    kind: ClassVar[str] = "lift_siege"
    city: str = ""


@dataclass(frozen=True)
class Sally(Order):
    """FE 7.9 Sally: the besieged attack out (melee only); back inside once `back` units
    are lost (0: half of those who came out)."""
    kind: ClassVar[str] = "sally"
    city: str = ""
    back: int = 0


@dataclass(frozen=True)
class Pillage(Order):
    """FE 7.10: after the battles, the holder destroys a Mill (+2) or an Abbey (+10)."""
    kind: ClassVar[str] = "pillage"
    city: str = ""
    what: str = "mill"                 # mill | abbey | engines
    by: str | None = None


@dataclass(frozen=True)
class RansomOffer(Order):
    """FE 7.7: the captive's player offers less than the full ransom (Phase 4)."""
    kind: ClassVar[str] = "ransom_offer"
    captive: str = ""
    amount: int = 0


@dataclass(frozen=True)
class AcceptRansom(Order):
    """FE 7.7: the captor's player accepts a lower ransom of at least `amount`."""
    kind: ClassVar[str] = "accept_ransom"
    captive: str = ""
    amount: int = 0


@dataclass(frozen=True)
class HireInBattle(Order):
    """FE 11.1: hire Crossbowmen from your card into a battle at a city, 2 each."""
    kind: ClassVar[str] = "hire_battle"
    count: int = 1
    city: str = ""


@dataclass(frozen=True)
class Lend(Order):
    """FE 11.1: lend (rent) Crossbowmen from your card to another player for a price."""
    kind: ClassVar[str] = "lend"
    count: int = 1
    to: str = ""
    price: int = 0


@dataclass(frozen=True)
class HireFrom(Order):
    """FE 11.1: take Crossbowmen another player lends you, at a city, for the price."""
    kind: ClassVar[str] = "hire_from"
    count: int = 1
    lender: str = ""
    price: int = 0
    city: str = ""


@dataclass(frozen=True)
class HelpInvaders(Order):
    """FE 10.2 "a Player may even help Invaders move": your Passage takes an invader army
    at the city one move through Storms (Phase 6)."""
    kind: ClassVar[str] = "help_invaders"
    city: str = ""
