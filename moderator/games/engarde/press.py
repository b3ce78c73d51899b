"""Announcements (reference §13) and divorce (EG §L).

* ``ANNOUNCE: "..." [UNSIGNED|AS <alias>]``: printed in the next gazette, signed with
  his name unless unsigned or under an alias (the turn sheet still shows it as his).
* Divorce: a public adultery (a revealed liaison with a wife, or a husband's own
  revealed liaison) leaves an ``adultery`` matter for six months (PROPOSED).  The
  betrayed husband may ``SUE FOR DIVORCE``; a wronged wife cannot sue, but any
  gentleman may ``CHAMPION <lady>`` with a roll as for a liaison (1d6 >= her
  loyalty).  The Pope, an NPC of the King's rank, grants it on 7 on 1d6 (only with
  influence: ``USE FAVOUR n ON DIVORCE FOR <husband>``).  A husband divorced by his
  wife is disgraced.
"""

from __future__ import annotations

from moderator.games.engarde import honour, influence
from moderator.games.engarde.events import EventId
from moderator.games.engarde.ladies import set_lady
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Announce, Champion, SueForDivorce

ADULTERY_MONTHS = 6


def announce(m: Month, a: Actor, order: Announce) -> None:
    limit = m.tables.army.announcements["max_chars"]
    signed = None if order.unsigned or order.alias else a.key
    m.emit(a.key, EventId.PRESS_ANNOUNCEMENT, {"text": order.text[:limit], "signed": signed,
                                               "alias": order.alias}, public=True)


def adultery(m: Month, husband: str, lady: str, guilty: str) -> None:
    """Record a public adultery: ``guilty`` is ``wife`` or ``husband``."""
    m.matter("adultery", (husband,), lady=lady, guilty=guilty)


def _grounds(m: Month, husband: str, guilty: str) -> str | None:
    for matter in m.matters:
        if matter.kind == "adultery" and matter.parties == (husband,) and \
                matter.args.get("guilty") == guilty and m.turn - matter.turn < ADULTERY_MONTHS:
            return str(matter.args["lady"])
    return None


def _pope(m: Month, a: Actor, husband: str) -> bool:
    rule = m.tables.army.divorce
    return influence.resolve_npc_decision(
        str(rule["position"]), int(rule["needs"]), influence.take_pushes(m, "divorce", husband),
        m.dice.stream("offices"), m.tables, "the Pope considers a divorce", actor=a.key).success


def _divorce(m: Month, husband: Actor, lady: str, by_wife: bool,
             champion: str | None = None) -> None:
    husband.update(wife=None)
    m.keepers.pop(lady, None)
    set_lady(m, lady, married=False, since=None, engaged=None)
    m.matters[:] = [mt for mt in m.matters
                    if not (mt.kind == "adultery" and mt.parties == (husband.key,))]
    m.emit(husband.key, EventId.DIVORCE_GRANTED, {"lady": m.ladies[lady].name,
                                                  "by_wife": by_wife}, public=True)
    if by_wife:
        honour.disgrace(m, husband, "divorced", accuser=champion)


def sue(m: Month, a: Actor, order: SueForDivorce) -> None:
    lady = _grounds(m, a.key, "wife") if a.c.wife else None
    if lady is None or lady != a.c.wife:
        m.emit(a.key, EventId.DIVORCE_REFUSED, {"reason": "grounds"})
        return
    if not _pope(m, a, a.key):
        m.emit(a.key, EventId.DIVORCE_REFUSED, {"reason": "pope"})
        return
    _divorce(m, a, lady, by_wife=False)


def champion(m: Month, a: Actor, order: Champion) -> None:
    husband_key = m.keepers.get(order.lady)
    husband = m.actors.get(husband_key) if husband_key else None
    if husband is None or husband.c.wife != order.lady or husband.key == a.key or \
            _grounds(m, husband.key, "husband") != order.lady:
        m.emit(a.key, EventId.DIVORCE_REFUSED, {"reason": "grounds"})
        return
    lady = m.ladies[order.lady]
    if m.dice.stream("offices").roll("1d6", f"{lady.name} agrees to be championed",
                                     actor=a.key, needs=lady.loyalty).success is not True:
        m.emit(a.key, EventId.DIVORCE_REFUSED, {"reason": "lady"})
        return
    if not _pope(m, a, husband.key):
        m.emit(a.key, EventId.DIVORCE_REFUSED, {"reason": "pope"})
        return
    _divorce(m, husband, order.lady, by_wife=True, champion=a.key)


def prune(m: Month) -> None:
    m.matters[:] = [mt for mt in m.matters if not (
        mt.kind == "adultery" and m.turn - mt.turn >= ADULTERY_MONTHS)]
