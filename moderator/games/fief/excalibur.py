"""Excalibur (FE 13.2): drawn from its stone, it makes a King and strikes in battle."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import DrawExcalibur, TurnOrders
from moderator.games.fief.realm import Realm


def attempts(realm: Realm, phase: str) -> None:
    """Each player's `DRAW EXCALIBUR <noble>`, once in Phase 5 (after his moves) and once
    in Phase 7: a nobleman, not a Bishop or Archbishop, in the sword's city; a 6 draws it,
    4-6 for Arthur.  With the throne empty, the first to draw it is King.  A sword dropped
    by a fallen holder is taken up without a roll (PROPOSED)."""
    s = realm.s
    for player in s.player_order():
        for order in realm.orders.get(player, TurnOrders()).of(DrawExcalibur):
            attempt(realm, player, order, phase)


def attempt(realm: Realm, player: str, order: DrawExcalibur, phase: str) -> None:
    s = realm.s
    noble = s.nobles.get(order.noble.lower())
    text = f"DRAW EXCALIBUR {order.noble}"
    if noble is not None and s.excalibur_holder == noble.key:
        return                  # drawn in Phase 5: the Phase 7 try has nothing to do
    if noble is None or not noble.free or noble.family not in s.players[player].families:
        _refuse_once(realm, player, text, "needs a free noble of yours")
        return
    if noble.sex != "m" or noble.clergy:
        _refuse_once(realm, player, text,
                     "only a nobleman, not a Bishop or Archbishop (FE 13.2)")
        return
    if s.excalibur_city != noble.city:
        _refuse_once(realm, player, text, f"Excalibur is not at {noble.city}")
        return
    dropped = s.excalibur_dropped
    if dropped:
        drawn = True
        roll = None
    else:
        roll = realm.d6("excalibur", f"{noble.name} draws at Excalibur ({phase})", player)
        drawn = roll >= (4 if noble.key == "arthur" else 6)
    realm.emit(EventId.EXCALIBUR, {"noble": noble.key, "city": noble.city, "roll": roll,
                                   "drawn": drawn})
    if not drawn:
        return
    s.excalibur_dropped = False
    s.excalibur_city, s.excalibur_holder = None, noble.key
    if s.sovereign is None:
        realm.crown(noble.key)
        realm.emit(EventId.ELECTED, {"noble": noble.key, "tally": {}, "title": "King",
                                     "excalibur": True})


def _refuse_once(realm: Realm, player: str, text: str, reason: str) -> None:
    """The one order is tried twice (FE 13.2); the sheet tells a refusal once."""
    told = {"order": text, "reason": reason}
    if not any(e.id == EventId.ORDER_REFUSED.value and e.actor == player and e.args == told
               for e in realm.events):
        realm.refuse(player, text, reason)


def melee_bonus(realm: Realm, city: str, family: str | None) -> int:
    """FE 7.3, 13.2: +1 hit to its side's melee roll."""
    holder = realm.s.excalibur_holder
    if holder is None or family is None:
        return 0
    n = realm.s.nobles[holder]
    return 1 if n.free and n.city == city and n.family == family else 0
