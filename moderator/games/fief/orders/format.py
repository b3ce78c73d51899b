"""Write orders in normal form: what `orders.parse` reads back to the same value."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from moderator.games.fief.orders.names import UNIT_NAMES, counted_unit
from moderator.games.fief.orders.values import (
    AcceptRansom,
    AidInvaders,
    Allow,
    AllowEnter,
    Ambush,
    Appoint,
    Assassinate,
    Attack,
    Betray,
    Build,
    BuildRoyal,
    BuildTrebuchet,
    Buy,
    BuyTitle,
    Candidate,
    Cavalcade,
    Chasuble,
    Convene,
    Danegeld,
    DanegeldReaction,
    Decoy,
    DestroyEngines,
    Discard,
    Draw,
    DrawExcalibur,
    EndBattle,
    Escape,
    GarterPolicy,
    Give,
    Grant,
    HelpInvaders,
    Hire,
    HireFrom,
    HireInBattle,
    Interdict,
    Intervene,
    Join,
    Justice,
    LeaveRelic,
    Lend,
    LiftSiege,
    Losses,
    Marry,
    Mata,
    Move,
    Order,
    ParliamentVote,
    PermitRelinquish,
    Pillage,
    PlayClergy,
    PlayFortune,
    PlayNoble,
    PlaySlot,
    PlayTax,
    PlayTithe,
    Present,
    Quell,
    RansomOffer,
    Reaction,
    Rebellion,
    RebelsReaction,
    RebuildAbbey,
    Relinquish,
    RetainerDeal,
    RoyalAbbeyMove,
    RoyalMove,
    Sally,
    Scorch,
    Shinbone,
    Siege,
    Skull,
    Spoils,
    Start,
    StrikeLeader,
    Surrender,
    TakeRelic,
    Target,
    Transfer,
    Truce,
    Vote,
    Withdraw,
    WithdrawPassage,
    order_from_dict,
)
from moderator.games.fief.tables import Tables

NUMERAL = ("", "I", "II", "III", "IV", "V", "VI")


def _units(units: Any) -> str:
    return ", ".join(counted_unit(n, u) for u, n in units)


def _region(t: Tables, key: str) -> str:
    return t.region(key).name


def _move(t: Tables, o: Move) -> str:
    head = ", ".join(o.nobles) + (f" WITH {_units(o.units)}" if o.units else "")
    out = o.start
    at_sea = False
    for step in o.path:
        if step.startswith("sea:"):
            out += f" = Sea {NUMERAL[int(step[4:])]}"
            at_sea = True
            continue
        city = step.lstrip("~")
        out += (" = " if at_sea else " ~ " if step.startswith("~") else " - ") + city
        at_sea = False
        left = [(u, n) for c, u, n in o.leave if c == city]
        if left:
            out += f" LEAVE {_units(left)}"
    tail = f" IF DENIED {o.if_denied.upper()}" if o.if_denied != "wait" else ""
    return f"MOVE {head}: {out}{tail}"


FORMATTERS: dict[type[Order], Callable[[Tables, Any], str]] = {
    Start: lambda t, o: "START " + ", ".join(o.cities),
    Discard: lambda t, o: "DISCARD " + ", ".join(o.cards),
    Draw: lambda t, o: ("DRAW " + (" THEN ".join(o.decks) or "NONE")
                        + (f" IF FIRST IS {o.if_first.upper()} ELSE {o.else_deck}"
                           if o.if_first is not None else "")
                        + (f" DISASTERS AT MOST {o.disasters_at_most}"
                           if o.disasters_at_most is not None else "")),
    PlayNoble: lambda t, o: f"PLAY NOBLE {o.noble} AT {o.city}",
    PlayFortune: lambda t, o: (f"PLAY {o.card.upper()} ON {_region(t, o.region)}"
                               + (" IN MOVEMENT" if o.window == "movement" else "")),
    PlayTax: lambda t, o: f"PLAY TAX ON {_region(t, o.region)}",
    PlayClergy: lambda t, o: (f"PLAY {o.card.upper()} ON {o.noble}"
                              + (f" AT {o.city}" if o.city else "")),
    Assassinate: lambda t, o: f"ASSASSINATE {o.target} BY {o.sponsor}",
    Scorch: lambda t, o: "SCORCH " + ", ".join(o.cities),
    Buy: lambda t, o: f"BUY {counted_unit(o.count, o.unit)} AT {o.city}",
    Build: lambda t, o: f"BUILD {o.building.upper()} AT {o.city}",
    BuyTitle: lambda t, o: f"BUY TITLE {_region(t, o.region)} FOR {o.noble}",
    Move: _move,
    Allow: lambda t, o: f"ALLOW {o.who} TO PASS" + (f" AT {o.city}" if o.city else ""),
    Attack: lambda t, o: f"ATTACK {o.city}" + (f" AGAINST {o.against}" if o.against else "")
    + (" WITH PASSAGE" if o.tunnels else ""),
    Marry: lambda t, o: f"MARRY {o.noble} TO {o.to}",
    Candidate: lambda t, o: f"CANDIDATE {o.lord}",
    Vote: lambda t, o: "VOTE " + ", ".join(o.candidates),
    Decoy: lambda t, o: f"DECOY {o.candidate}",
    Danegeld: lambda t, o: f"DANEGELD AT {o.city} BY {o.noble}",
    Withdraw: lambda t, o: f"WITHDRAW {o.number}",
    PlayTithe: lambda t, o: f"PLAY TAX TITHE ON {t.district(o.district).cathedral}",
    Justice: lambda t, o: f"JUSTICE {o.target}",
    Ambush: lambda t, o: f"AMBUSH {o.target} BY {o.by}",
    Escape: lambda t, o: f"PASSAGE FREE {o.captive}",
    Rebellion: lambda t, o: ("BURGHER " if o.burgher else "") + f"REBELLION AT {o.city}"
    + (" WITH " + " AND ".join(x.upper() for x in o.extras) if o.extras else ""),
    Pillage: lambda t, o: f"PILLAGE {o.city} {o.what.upper()}" + (f" BY {o.by}" if o.by else ""),
    Grant: lambda t, o: f"GRANT {_region(t, o.region)} TO {o.noble}",
    Transfer: lambda t, o: f"TRANSFER {_region(t, o.region)} TO {o.noble}",
    Present: lambda t, o: f"PRESENT {o.relic} BY {o.noble}",
    Convene: lambda t, o: "CONVENE PARLIAMENT" + (
        " SHARES " + ", ".join(f"{p} {n}" for p, n in o.shares) if o.shares else ""),
    ParliamentVote: lambda t, o: f"PARLIAMENT {o.vote.upper()}"
    + (" WITH BURGHER" if o.burgher else ""),
    PlaySlot: lambda t, o: f"PLAY {o.card.upper()}",
    Hire: lambda t, o: f"HIRE {o.count} CROSSBOWMEN AT {o.city}",
    GarterPolicy: lambda t, o: "GARTER FIRST" if o.award else "GARTER NONE",
    Siege: lambda t, o: f"SIEGE {o.city}",
    BuildTrebuchet: lambda t, o: f"BUILD {counted_unit(o.count, 'trebuchet')} AT {o.city}",
    LiftSiege: lambda t, o: f"LIFT SIEGE AT {o.city}",
    Intervene: lambda t, o: f"INTERVENE AT {o.city} BY {o.cleric}",
    StrikeLeader: lambda t, o: (f"AMBUSH LEADER AT {o.city} BY {o.by}" if o.card == "Ambush"
                                else f"ASSASSINATE LEADER AT {o.city}"),
    Quell: lambda t, o: f"QUELL {o.how.upper()}",
    Surrender: lambda t, o: f"SURRENDER IF TROOPS BELOW {o.below}",
    Chasuble: lambda t, o: f"CHASUBLE STORMS FROM {NUMERAL[o.source]} TO {NUMERAL[o.target]}",
    Shinbone: lambda t, o: "SHINBONE",
    Mata: lambda t, o: f"MATA {o.card} WITH {o.player}",
    BuildRoyal: lambda t, o: f"BUILD ROYAL STRONGHOLD AT {o.city}",
    RoyalMove: lambda t, o: f"ROYAL MOVE {', '.join(o.nobles)} TO ROYAL STRONGHOLD",
    DanegeldReaction: lambda t, o: f"IF INVADERS ENTER {o.city} THEN DANEGELD BY {o.noble}",
    Interdict: lambda t, o: f"INTERDICT {o.captive}",
    RebelsReaction: lambda t, o: f"IF {'AN OPPONENT' if o.actor == 'opponent' else 'ANYONE'}"
    f" REBELS {o.city or 'ANY'} THEN PLAY {o.response.upper()}",
    Skull: lambda t, o: {"mine": "SKULL", "any": "SKULL ANY"}.get(o.whom, f"SKULL FOR {o.whom}"),
    Losses: lambda t, o: "LOSSES " + ", ".join(UNIT_NAMES[u] for u in o.units),
    DrawExcalibur: lambda t, o: f"DRAW EXCALIBUR {o.noble}",
    Give: lambda t, o: ("GIVE " + " AND ".join(
        ([f"{o.amount} SHILLINGS"] if o.amount else []) + ([o.card] if o.card else []))
        + f" TO {o.to}"),
    # war share (FE 7.0-7.10, 10.2, 11.1, 13.3)
    Join: lambda t, o: f"JOIN {o.player}" + (f" AGAINST {o.against}" if o.against else "")
    + f" AT {o.city}",
    Truce: lambda t, o: f"TRUCE WITH {o.player} AT {o.city}" + (
        f" {o.terms.upper()}" if o.terms else ""),
    Target: lambda t, o: f"TARGET {o.noble} AT {o.city}",
    DestroyEngines: lambda t, o: f"DESTROY ENGINES IF TROOPS BELOW {o.below}",
    Spoils: lambda t, o: f"SPOILS {o.how.upper()}",
    WithdrawPassage: lambda t, o: f"WITHDRAW FROM {o.city} WITH PASSAGE"
    + (f" TO {o.to}" if o.to else ""),
    Sally: lambda t, o: f"SALLY {o.city}" + (f" BACK IF LOST {o.back}" if o.back else ""),
    HireInBattle: lambda t, o: f"HIRE {o.count} CROSSBOWMEN AT {o.city} IN BATTLE",
    RansomOffer: lambda t, o: f"RANSOM {o.captive} OFFER {o.amount}",
    AcceptRansom: lambda t, o: f"ACCEPT RANSOM FOR {o.captive} AT LEAST {o.amount}",
    Betray: lambda t, o: f"BETRAY AT {o.city} AFTER ROUND {o.after}",
    EndBattle: lambda t, o: f"END BATTLE AT {o.city}",
    Lend: lambda t, o: f"LEND {o.count} CROSSBOWMEN TO {o.to} FOR {o.price}",
    HelpInvaders: lambda t, o: f"HELP INVADERS AT {o.city} WITH PASSAGE",
    HireFrom: lambda t, o: f"HIRE {o.count} CROSSBOWMEN FROM {o.lender} FOR {o.price} AT {o.city}",
}


# -- the cards share (issue 17): windows, reactions, retainers, the Abbess ---------------

def _condition(t: Tables, c: tuple[str, ...]) -> str:
    what, *args = c
    if what in ("heretic", "captive"):
        return f"{args[0]} IS {what.upper()}"
    if what == "lord":
        return f"{args[0]} IS LORD OF {_region(t, args[1])}"
    if what == "at":
        return f"{args[0]} AT {args[1]}"
    if what == "invaders":
        return f"INVADERS AT {args[0]}"
    return f"{what.upper()} ON {_region(t, args[0])}"


def _reaction(t: Tables, o: Reaction) -> str:
    inner = format_order(t, order_from_dict(dict(o.play)))
    inner = inner.split(": ", 1)[1] if o.family and inner.startswith(f"{o.family.upper()}: ") \
        else inner
    inner = inner[len("PLAY "):] if inner.startswith("PLAY ") else inner
    return f"AT {o.window.upper()} IF {_condition(t, o.condition)} PLAY {inner}"


FORMATTERS.update({
    Reaction: _reaction,
    RetainerDeal: lambda t, o: f"RETAINER {o.retainer} FROM {o.giver} TO {o.receiver}"
    + (f" FOR {o.price}" if o.price else ""),
    Relinquish: lambda t, o: f"RELINQUISH {o.abbess}",
    PermitRelinquish: lambda t, o: f"PERMIT RELINQUISH {o.abbess}",
    Appoint: lambda t, o: f"APPOINT ABBESS {o.noble}",
    RebuildAbbey: lambda t, o: f"REBUILD ABBEY {o.abbey} AT {o.city}",
    AidInvaders: lambda t, o: f"AID INVADERS AT {o.city} WITH PASSAGE",
    RoyalAbbeyMove: lambda t, o: f"ROYAL MOVE {', '.join(o.nobles)} TO ROYAL ABBEY",
})


# -- the land share (FE 5.0, 5.2, 12.0) ----------------------------------------------------
FORMATTERS.update({
    AllowEnter: lambda t, o: f"ALLOW {o.who} TO ENTER" + (f" AT {o.city}" if o.city else ""),
    Cavalcade: lambda t, o: "CAVALCADE" + _move(t, o)[4:].replace(" IF DENIED CAVALCADE", ""),
    LeaveRelic: lambda t, o: f"LEAVE RELIC {o.relic} BY {o.noble}",
    TakeRelic: lambda t, o: f"TAKE RELIC {o.relic} BY {o.noble}",
})


# The fields that hold a player's key (read by `Context.player`).
PLAYER_FIELDS = ("player", "against", "lender", "to", "who")


def _named(order: Order, players: Mapping[str, str]) -> Order:
    """The order with each player's key replaced by his name, as players write it (the
    key comes from the mail address); parsing the name gives the key back."""
    changes: dict[str, Any] = {f: players[v] for f in PLAYER_FIELDS
                               if isinstance(v := getattr(order, f, None), str) and v in players}
    if isinstance(order, Convene):
        changes["shares"] = tuple((players.get(k, k), n) for k, n in order.shares)
    if isinstance(order, Reaction):       # the card order it will play
        changes["play"] = {k: players.get(v, v) if k in PLAYER_FIELDS and isinstance(v, str)
                           else v for k, v in order.play.items()}
    return replace(order, **changes) if changes else order


def format_order(tables: Tables, order: Order, players: Mapping[str, str] | None = None) -> str:
    """The normal form of an order; with ``players`` (key -> name) players by name."""
    if players:
        order = _named(order, players)
    text = FORMATTERS[type(order)](tables, order)
    if order.at:
        text = f"AT {order.at.upper()} {text}"
    return f"{order.family.upper()}: {text}" if order.family else text
