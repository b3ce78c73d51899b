"""The orders of Fief: England as frozen values, one class per order (fief-email.md §2.4).

Each order knows its JSON form (`to_dict` / `order_from_dict`); `orders.format` writes
its normal form and `orders.parse` reads it back, so parse(format(o)) == o.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Order:
    kind: ClassVar[str] = ""
    standing: ClassVar[bool] = False
    family: str | None = None          # the family that gives it (two-player game, FE 13.7)
    at: str = ""                       # a window other than the order's own: "discard" (W4)

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.at:
            del data["at"]      # the normal window: the stored form stays as it was
        data["kind"] = self.kind
        return data


@dataclass(frozen=True)
class Start(Order):
    """Muster: ranked starting cities (Setup, 13.6; fief-email.md §1.8)."""
    kind: ClassVar[str] = "start"
    cities: tuple[str, ...] = ()


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
class PlayClergy(Order):
    """FE 2.13-2.14: an Abbess, Bishop or Archbishop card on a noble."""
    kind: ClassVar[str] = "play_clergy"
    card: str = ""
    noble: str = ""
    city: str | None = None            # where an Abbess founds her Abbey


@dataclass(frozen=True)
class Assassinate(Order):
    """FE 10.3, played in Phase 2D (window W5 of fief-email.md §3.2)."""
    kind: ClassVar[str] = "assassinate"
    target: str = ""
    sponsor: str = ""


@dataclass(frozen=True)
class Scorch(Order):
    """FE 3.4: destroy own Mills after income for +2 each."""
    kind: ClassVar[str] = "scorch"
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Buy(Order):
    """FE 4.0: troops and engines."""
    kind: ClassVar[str] = "buy"
    count: int = 1
    unit: str = ""
    city: str = ""


@dataclass(frozen=True)
class Build(Order):
    """FE 4.2: a Mill or a Stronghold."""
    kind: ClassVar[str] = "build"
    building: str = ""
    city: str = ""


@dataclass(frozen=True)
class BuyTitle(Order):
    """FE 4.3-4.4: a Fiefdom Lord Title for a noble; a Stronghold becomes Fortified."""
    kind: ClassVar[str] = "buy_title"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Move(Order):
    """FE 5.0-5.4: nobles and the troops they take along a path of roads and seas.

    ``path`` lists the places after the start: city names, or ``"sea:N"``;
    ``leave`` drops units at a city of the path: (city, unit, n).
    """
    kind: ClassVar[str] = "move"
    nobles: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    start: str = ""
    path: tuple[str, ...] = ()
    leave: tuple[tuple[str, str, int], ...] = ()
    if_denied: str = "wait"            # wait | return | cavalcade | passage | burgher


@dataclass(frozen=True)
class Allow(Order):
    """FE 5.0: standing permission to pass through (or enter) a city of this family."""
    kind: ClassVar[str] = "allow"
    standing: ClassVar[bool] = True
    who: str = "ANYONE"                # a player key or ANYONE
    city: str | None = None            # None: everywhere


@dataclass(frozen=True)
class Attack(Order):
    """FE 7.0: declare a battle at a city; `tunnels`: a Passage card played to attack a
    Stronghold or Fortified City from the tunnels, without the melee penalty (FE 10.2)."""
    kind: ClassVar[str] = "attack"
    city: str = ""
    against: str | None = None
    tunnels: bool = False


@dataclass(frozen=True)
class Marry(Order):
    """FE 9.0: a marriage needs the matching order from the other family."""
    kind: ClassVar[str] = "marry"
    noble: str = ""
    to: str = ""


@dataclass(frozen=True)
class Candidate(Order):
    """FE 9.1: name a non-clergy Lord a candidate (standing until elected or withdrawn)."""
    kind: ClassVar[str] = "candidate"
    standing: ClassVar[bool] = True
    lord: str = ""


@dataclass(frozen=True)
class Vote(Order):
    """FE 9.1: the FOR marker on the first candidate of the list still standing."""
    kind: ClassVar[str] = "vote"
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Danegeld(Order):
    """FE 6.9: a noble pays 5 for the invaders at his city to leave England."""
    kind: ClassVar[str] = "danegeld"
    city: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Withdraw(Order):
    """Drop standing order number n (as numbered on the private sheet)."""
    kind: ClassVar[str] = "withdraw"
    number: int = 0


@dataclass(frozen=True)
class PlayTithe(Order):
    """FE 2.8: a Tithe of a Bishopric or Archbishopric by its prelate."""
    kind: ClassVar[str] = "play_tithe"
    district: str = ""


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
class Pillage(Order):
    """FE 7.10: after the battles, the holder destroys a Mill (+2) or an Abbey (+10)."""
    kind: ClassVar[str] = "pillage"
    city: str = ""
    what: str = "mill"                 # mill | abbey | engines
    by: str | None = None


@dataclass(frozen=True)
class Grant(Order):
    """FE 4.5: the Sovereign gives an unclaimed title free (King's Will)."""
    kind: ClassVar[str] = "grant"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Transfer(Order):
    """FE 4.6: a Lord of several fiefdoms passes one (never the largest) to his family."""
    kind: ClassVar[str] = "transfer"
    region: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Present(Order):
    """FE 12.0: a noble hands a Relic to the Sovereign in the same city."""
    kind: ClassVar[str] = "present"
    relic: str = ""
    noble: str = ""


@dataclass(frozen=True)
class Convene(Order):
    """FE 9.2: the Sovereign convenes Parliament to vote a 12 Shilling Royal Tax."""
    kind: ClassVar[str] = "convene"
    shares: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ParliamentVote(Order):
    """FE 9.2: FOR or AGAINST the Royal Tax (without it: AGAINST)."""
    kind: ClassVar[str] = "parliament_vote"
    vote: str = "against"
    burgher: bool = False              # FE 11.2: spend a Treasure for the Burgher's votes


@dataclass(frozen=True)
class Losses(Order):
    """FE 7.5 (a battle plan, fief-email.md §5.1): the order in which this family's troops
    are lost among the choices that take as many hits as possible."""
    kind: ClassVar[str] = "losses"
    standing: ClassVar[bool] = True
    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class DrawExcalibur(Order):
    """FE 13.2: a nobleman in Excalibur's city tries to draw it (Phase 5 and Phase 7)."""
    kind: ClassVar[str] = "draw_excalibur"
    noble: str = ""


@dataclass(frozen=True)
class Give(Order):
    """FE 2.15, 9.0: Shillings (and a card) to another player, at the start of Phase 4."""
    kind: ClassVar[str] = "give"
    amount: int = 0
    card: str | None = None
    to: str = ""


@dataclass(frozen=True)
class PlaySlot(Order):
    """FE 11.0-11.2: a Mercenary or Burgher card onto the Family Board's Opportunity space."""
    kind: ClassVar[str] = "play_slot"
    card: str = ""


@dataclass(frozen=True)
class Hire(Order):
    """FE 11.1: hire Crossbowmen from your Mercenary card, 2 Shillings each, any city."""
    kind: ClassVar[str] = "hire"
    count: int = 1
    city: str = ""


@dataclass(frozen=True)
class GarterPolicy(Order):
    """FE 13.3: the Sovereign's standing choice: award the Garter to the first eligible
    Lord each round, or to none."""
    kind: ClassVar[str] = "garter"
    standing: ClassVar[bool] = True
    award: bool = True


@dataclass(frozen=True)
class Siege(Order):
    """FE 7.9: in Phase 7, besiege a defended Stronghold or Fortified City."""
    kind: ClassVar[str] = "siege"
    city: str = ""


@dataclass(frozen=True)
class BuildTrebuchet(Order):
    """FE 7.9: in Phase 4, pay 5 a Trebuchet to go on with a siege (one or two)."""
    kind: ClassVar[str] = "build_trebuchet"
    city: str = ""
    count: int = 1


@dataclass(frozen=True)
class LiftSiege(Order):
    """FE 7.9: the besieger ends his siege (his Trebuchets go home)."""
    kind: ClassVar[str] = "lift_siege"
    city: str = ""


@dataclass(frozen=True)
class Intervene(Order):
    """FE 6.10: a Bishop, Archbishop or Abbess with invaders tries to send them home."""
    kind: ClassVar[str] = "intervene"
    city: str = ""
    cleric: str = ""


@dataclass(frozen=True)
class StrikeLeader(Order):
    """FE 6.11-6.12: Ambush (by your noble there) or Assassination (no sponsor) of an
    invader Leader at a city, in Phase 6."""
    kind: ClassVar[str] = "strike_leader"
    card: str = "Ambush"
    city: str = ""
    by: str | None = None


@dataclass(frozen=True)
class Quell(Order):
    """FE 10.1: standing: your clerics quell a Rebellion in their city, paying 3 for each
    Rebellion (PAY) or trusting the d6 (PRAY)."""
    kind: ClassVar[str] = "quell"
    standing: ClassVar[bool] = True
    how: str = "pay"


@dataclass(frozen=True)
class Surrender(Order):
    """FE 7.8 (battle plan): surrender when the army's troops fall below n."""
    kind: ClassVar[str] = "surrender"
    standing: ClassVar[bool] = True
    below: int = 0


@dataclass(frozen=True)
class Chasuble(Order):
    """FE 12.2: the Chasuble's holder moves a Storms card to an adjacent sea (Phase 2D)."""
    kind: ClassVar[str] = "chasuble"
    source: int = 0
    target: int = 0


@dataclass(frozen=True)
class Shinbone(Order):
    """FE 12.4: the Shinbone's noble discards the Famine cards of his district (Phase 2D)."""
    kind: ClassVar[str] = "shinbone"


@dataclass(frozen=True)
class Skull(Order):
    """FE 12.3 (standing): use the Skull of Saint Caradoc on the first of your nobles to die
    in the city where the Skull is."""
    kind: ClassVar[str] = "skull"
    standing: ClassVar[bool] = True
    whom: str = "mine"                 # mine | any | a noble's name (FE 12.3, A77)


@dataclass(frozen=True)
class DanegeldReaction(Order):
    """A standing reaction (fief-email.md §3): when invaders enter <city> in Phase 6, the
    noble there pays them the Danegeld at once (FE 6.9: "at any time during Phase 6")."""
    kind: ClassVar[str] = "danegeld_reaction"
    standing: ClassVar[bool] = True
    city: str = ""
    noble: str = ""


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
class Interdict(Order):
    """FE 13.4 King's Interdiction: the King or Queen spends a Carrier Pigeon and a captive
    of the Bandits goes free instead of being ransomed (at the start of Phase 4)."""
    kind: ClassVar[str] = "interdict"
    captive: str = ""


@dataclass(frozen=True)
class Mata(Order):
    """FE 2.12: Mata swaps a card of your choice for a random card of another player's
    hand, once a round (Phase 2D)."""
    kind: ClassVar[str] = "mata"
    card: str = ""
    player: str = ""


@dataclass(frozen=True)
class BuildRoyal(Order):
    """FE 4.9: the Royal Family builds the Royal Stronghold (5 Shillings)."""
    kind: ClassVar[str] = "build_royal"
    city: str = ""


@dataclass(frozen=True)
class RoyalMove(Order):
    """FE 5.0 Royal Movement: royal nobles, and their families' nobles without troops, go to
    the Royal Stronghold from any city for their two moves."""
    kind: ClassVar[str] = "royal_move"
    nobles: tuple[str, ...] = ()


# -- war share (battles, sieges, captives): FE 7.0-7.10, 10.2, 11.1, 13.3 ---------------
@dataclass(frozen=True)
class Join(Order):
    """FE 7.0 Ally Attacks: fight on another player's side in a battle at a city; it needs
    his `JOIN` naming you (matching orders, fief-email.md §4)."""
    kind: ClassVar[str] = "join"
    player: str = ""
    city: str = ""
    against: str | None = None


@dataclass(frozen=True)
class Truce(Order):
    """FE 7.8 Truce: at the end of a battle roll, when the other side wrote the mirror
    line; `terms`: "" (control unchanged), "cede" or "take" the city."""
    kind: ClassVar[str] = "truce"
    player: str = ""
    city: str = ""
    terms: str = ""


@dataclass(frozen=True)
class Target(Order):
    """FE 7.2 Targeting a Noble: the archers of your side aim at him in battles at a city."""
    kind: ClassVar[str] = "target"
    noble: str = ""
    city: str = ""


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
class WithdrawPassage(Order):
    """FE 7.8, 10.2 Withdraw: a defender plays Passage at the end of a battle roll; the
    side's nobles leave to an adjacent city, each with one troop."""
    kind: ClassVar[str] = "withdraw_passage"
    city: str = ""
    to: str | None = None


@dataclass(frozen=True)
class Sally(Order):
    """FE 7.9 Sally: the besieged attack out (melee only); back inside once `back` units
    are lost (0: half of those who came out)."""
    kind: ClassVar[str] = "sally"
    city: str = ""
    back: int = 0


@dataclass(frozen=True)
class HireInBattle(Order):
    """FE 11.1: hire Crossbowmen from your card into a battle at a city, 2 each."""
    kind: ClassVar[str] = "hire_battle"
    count: int = 1
    city: str = ""


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


WAR_ORDERS: tuple[type[Order], ...] = (Join, Truce, Target, DestroyEngines, Spoils,
                                       WithdrawPassage, Sally, HireInBattle, RansomOffer,
                                       AcceptRansom, Betray, EndBattle, Lend, HireFrom,
                                       HelpInvaders)


ORDER_CLASSES: dict[str, type[Order]] = {
    cls.kind: cls for cls in (Start, Discard, Draw, PlayNoble, PlayFortune, PlayTax, PlayClergy,
                              Assassinate, Scorch, Buy, Build, BuyTitle, Move, Allow, Attack,
                              Marry, Candidate, Vote, Danegeld, Withdraw, PlayTithe, Justice,
                              Ambush, Escape, Rebellion, Pillage, Grant, Transfer, Present,
                              Convene, ParliamentVote, Losses, DrawExcalibur, Give, PlaySlot,
                              Hire, GarterPolicy, Siege, BuildTrebuchet, LiftSiege, Intervene,
                              StrikeLeader, Quell, Surrender, Chasuble, Shinbone, Skull,
                              DanegeldReaction, Mata, BuildRoyal, RoyalMove,
                              RebelsReaction, Interdict)
}
ORDER_CLASSES.update({cls.kind: cls for cls in WAR_ORDERS})


# -- the cards share (issue 17): windows, reactions, retainers, the Abbess ---------------

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
class RetainerDeal(Order):
    """FE 2.12: a Retainer given, sold (FOR n) or exchanged between two nobles in Phase 2D,
    no pigeon; between players both write the same line."""
    kind: ClassVar[str] = "retainer"
    retainer: str = ""
    giver: str = ""
    receiver: str = ""
    price: int = 0


@dataclass(frozen=True)
class Relinquish(Order):
    """FE 2.13: an Abbess asks to lay down her title (to marry or stand for election)."""
    kind: ClassVar[str] = "relinquish"
    abbess: str = ""


@dataclass(frozen=True)
class PermitRelinquish(Order):
    """FE 2.13: the Bishop or Archbishop of her Abbey's district lets her relinquish."""
    kind: ClassVar[str] = "permit_relinquish"
    abbess: str = ""


@dataclass(frozen=True)
class Appoint(Order):
    """FE 2.13: the Sovereign gives a relinquished Abbess title at once to an unmarried
    noblewoman of his choice."""
    kind: ClassVar[str] = "appoint"
    noble: str = ""


@dataclass(frozen=True)
class RebuildAbbey(Order):
    """FE 2.13: an Abbess rebuilds her destroyed Abbey, free, in any city (Phase 4)."""
    kind: ClassVar[str] = "rebuild_abbey"
    abbey: str = ""
    city: str = ""


@dataclass(frozen=True)
class AidInvaders(Order):
    """FE 10.2 Aid Invaders: a Passage shows the invaders attacking <city> the tunnels
    under its defender's walls (no melee penalty), in Phase 6."""
    kind: ClassVar[str] = "aid_invaders"
    city: str = ""


@dataclass(frozen=True)
class RoyalAbbeyMove(RoyalMove):
    """FE 2.13 Royal Moves: as the Royal Move (FE 5.0), to the Royal Abbey."""
    kind: ClassVar[str] = "royal_abbey_move"


CARDS_SHARE: tuple[type[Order], ...] = (Reaction, RetainerDeal, Relinquish, PermitRelinquish,
                                        Appoint, RebuildAbbey, AidInvaders, RoyalAbbeyMove)
ORDER_CLASSES.update({cls.kind: cls for cls in CARDS_SHARE})


# -- the land share (FE 5.0, 5.2, 12.0) ----------------------------------------------------

@dataclass(frozen=True)
class AllowEnter(Allow):
    """FE 5.0: standing leave to enter this family's Stronghold, Fortified City or Abbey
    (not only to pass the city): those let in are inside, with the holder."""
    kind: ClassVar[str] = "allow_enter"


@dataclass(frozen=True)
class Cavalcade(Move):
    """FE 5.2 (surprise attack): nobles and Knights ride along the path and fight at once
    every opposing army in a city they pass, asked or not (never at the last city, FAQ
    P5 F18)."""
    kind: ClassVar[str] = "cavalcade"
    if_denied: str = "cavalcade"


@dataclass(frozen=True)
class LeaveRelic(Order):
    """FE 12.0: a Relic set down, face up, in its noble's city or Abbey (after his moves)."""
    kind: ClassVar[str] = "leave_relic"
    relic: str = ""
    noble: str = ""


@dataclass(frozen=True)
class TakeRelic(Order):
    """FE 12.0: a face-up Relic lying in the noble's city (or Abbey) taken up."""
    kind: ClassVar[str] = "take_relic"
    relic: str = ""
    noble: str = ""


ORDER_CLASSES.update({cls.kind: cls for cls in (AllowEnter, Cavalcade, LeaveRelic,
                                                TakeRelic)})


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def order_from_dict(data: dict[str, Any]) -> Order:
    cls = ORDER_CLASSES[data["kind"]]
    names = {f.name for f in fields(cls)}
    return cls(**{k: _tupled(v) for k, v in data.items() if k in names})


@dataclass(frozen=True)
class TurnOrders:
    """One family-player's orders for the round, in the order written (FE 2.2)."""
    orders: tuple[Order, ...] = ()

    def of(self, cls: type[Order]) -> list[Any]:
        # A line for another window (`AT <window> ...`) is not its phase's: the windows
        # read it (cards.windows).
        return [o for o in self.orders if isinstance(o, cls) and not o.at]

    def to_dict(self) -> dict[str, Any]:
        return {"orders": [o.to_dict() for o in self.orders]}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TurnOrders:
        if not data:
            return cls()
        return cls(tuple(order_from_dict(o) for o in data.get("orders", [])))
