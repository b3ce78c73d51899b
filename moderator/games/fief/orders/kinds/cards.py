"""Card orders of Fief: drawing, discarding and playing cards (FE 2.0-2.14, 10.0-11.2).

The Phase 2 actions, the Opportunity cards played at any time (Assassination, Justice,
Ambush, Passage, Rebellion), the standing reactions written in advance (fief-email.md §3)
and the retainers' powers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from moderator.games.fief.orders.kinds.order import Order


@dataclass(frozen=True)
class Discard(Order):
    """FE 2.0 Action A."""
    kind: ClassVar[str] = "discard"
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draw(Order):
    """FE 2.0 Action B: the decks to draw from, in order (FORTUNE / CHARACTER).

    A player looks at each card before choosing the next deck (FE 2.0, U2: "Dave draws a
    Fortune Card, looks at it, and then decides to draw a Character Card"); by email that
    choice is written in advance: ``IF FIRST IS <card> ELSE <deck>`` draws the later decks
    as written when the first card drawn is that card (``NOBLE``: any Noble card), else
    ``else_deck`` in their place."""
    kind: ClassVar[str] = "draw"
    decks: tuple[str, ...] = ()
    disasters_at_most: int | None = None   # stop before pulling one more red card (U3)
    if_first: str | None = None            # the card the first draw is checked against (U2)
    else_deck: str | None = None           # the later draws' deck when it is not that card

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        if self.if_first is None:  # an unconditional plan keeps its stored form
            del data["if_first"], data["else_deck"]
        return data

    def deck_after(self, first: str | None, index: int) -> str:
        """The deck of draw ``index`` (0-based), given the first card drawn."""
        if index == 0 or self.if_first is None or self.else_deck is None:
            return self.decks[index]
        wanted = self.if_first
        hit = first is not None and (first == wanted or (wanted == "NOBLE"
                                                         and first.startswith("Noble ")))
        return self.decks[index] if hit else self.else_deck


@dataclass(frozen=True)
class DrawExcalibur(Order):
    """FE 13.2: a nobleman in Excalibur's city tries to draw it (Phase 5 and Phase 7)."""
    kind: ClassVar[str] = "draw_excalibur"
    noble: str = ""


@dataclass(frozen=True)
class PlayNoble(Order):
    """FE 2.11: a Noble card from the hand joins the family at a city."""
    kind: ClassVar[str] = "play_noble"
    noble: str = ""
    city: str = ""


@dataclass(frozen=True)
class PlayFortune(Order):
    """FE 2.7: Bountiful Harvest or Good Weather on a region."""
    kind: ClassVar[str] = "play_fortune"
    card: str = ""
    region: str = ""
    window: str = "cards"              # cards (Phase 2D) | movement (before your moves, FE 2.6)


@dataclass(frozen=True)
class PlayTax(Order):
    """FE 2.8: Tallage of a Lord's fiefdom (or the Sovereign's ungoverned region)."""
    kind: ClassVar[str] = "play_tax"
    region: str = ""


@dataclass(frozen=True)
class PlayTithe(Order):
    """FE 2.8: a Tithe of a Bishopric or Archbishopric by its prelate."""
    kind: ClassVar[str] = "play_tithe"
    district: str = ""


@dataclass(frozen=True)
class PlayClergy(Order):
    """FE 2.13-2.14: an Abbess, Bishop or Archbishop card on a noble."""
    kind: ClassVar[str] = "play_clergy"
    card: str = ""
    noble: str = ""
    city: str | None = None            # where an Abbess founds her Abbey


@dataclass(frozen=True)
class PlaySlot(Order):
    """FE 11.0-11.2: a Mercenary or Burgher card onto the Family Board's Opportunity space."""
    kind: ClassVar[str] = "play_slot"
    card: str = ""


@dataclass(frozen=True)
class Assassinate(Order):
    """FE 10.3, played in Phase 2D (window W5 of fief-email.md §3.2)."""
    kind: ClassVar[str] = "assassinate"
    target: str = ""
    sponsor: str = ""


@dataclass(frozen=True)
class Justice(Order):
    """FE 10.4: a noble bearing the Heresy marker is executed."""
    kind: ClassVar[str] = "justice"
    target: str = ""


@dataclass(frozen=True)
class Ambush(Order):
    """FE 10.5: a noble of yours takes captive another noble in the same city."""
    kind: ClassVar[str] = "ambush"
    target: str = ""
    by: str = ""


@dataclass(frozen=True)
class Escape(Order):
    """FE 10.2 (any time): a Passage card sets a captive of your choice free."""
    kind: ClassVar[str] = "escape"
    captive: str = ""


@dataclass(frozen=True)
class Rebellion(Order):
    """FE 10.1, 11.2: a Rebellion on a taxed, royally taxed or famished city, started by a
    Rebellion card or by a Burgher action (a Treasure); `extras` are what the starter adds
    at once (Ex 11-1): "rebellion" (a second card), "burgher rebellion", "passage" or
    "burgher passage" (the walls ignored, FE 10.2)."""
    kind: ClassVar[str] = "rebellion"
    city: str = ""
    burgher: bool = False
    extras: tuple[str, ...] = ()


@dataclass(frozen=True)
class StrikeLeader(Order):
    """FE 6.11-6.12: Ambush (by your noble there) or Assassination (no sponsor) of an
    invader Leader at a city, in Phase 6."""
    kind: ClassVar[str] = "strike_leader"
    card: str = "Ambush"
    city: str = ""
    by: str | None = None


@dataclass(frozen=True)
class RebelsReaction(Order):
    """A standing reaction (fief-email.md §3.3-3.4): when anyone (or an opponent) starts a
    Rebellion on <city> (every city if empty), support it at once with a Rebellion card,
    a Burgher rebellion, a Passage or a Burgher passage (FE 10.1 "ANY Player can play an
    additional REBELLION supporting the original one", 11.2)."""
    kind: ClassVar[str] = "rebels_reaction"
    standing: ClassVar[bool] = True
    city: str = ""
    actor: str = "anyone"
    response: str = "rebellion"


@dataclass(frozen=True)
class Reaction(Order):
    """fief-email.md §3.1 (FE 2.6, 10.0, 11.0): a standing reaction written in advance,
    `AT <window> IF <condition> PLAY <card order>`: when the window opens and the condition
    holds, the card order is played; the line is then spent.  `play` is the card order's
    JSON form."""
    kind: ClassVar[str] = "reaction"
    standing: ClassVar[bool] = True
    window: str = ""
    condition: tuple[str, ...] = ()    # ("heretic", noble), ("at", noble, city), ...
    play: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Mata(Order):
    """FE 2.12: Mata swaps a card of your choice for a random card of another player's
    hand, once a round (Phase 2D)."""
    kind: ClassVar[str] = "mata"
    card: str = ""
    player: str = ""


@dataclass(frozen=True)
class RetainerDeal(Order):
    """FE 2.12: a Retainer given, sold (FOR n) or exchanged between two nobles in Phase 2D,
    no pigeon; between players both write the same line."""
    kind: ClassVar[str] = "retainer"
    retainer: str = ""
    giver: str = ""
    receiver: str = ""
    price: int = 0


@dataclass(frozen=True)
class AidInvaders(Order):
    """FE 10.2 Aid Invaders: a Passage shows the invaders attacking <city> the tunnels
    under its defender's walls (no melee penalty), in Phase 6."""
    kind: ClassVar[str] = "aid_invaders"
    city: str = ""
