"""The Escape activity (DWTK 13.4.10, 14.5.13-14.5.15, 24.6, 25.9, 30.6, 31.6).

``DO ESCAPE x TO <country> [WITH PRISON GUARDS | WITH PORT GUARDS]``: his PC or a FAC
(PROPOSED: 24.7, an NC cannot hide, and an escaped character is in hiding) escapes from
prison or from hiding in Fandonia to a country abroad, or from hiding abroad to another
country (25.9).  An Escape card does any of these; a Prison Guards card only from prison,
a Port Guards card only from hiding in Fandonia; without the card the Any Activity
counter does it (12.3.1; spent, `counters`).  Any player's `FREES` reaction with Prison
Guards (from prison) or Port Guards (from hiding in Fandonia) negates it; the card (or
counter) of the escape is spent all the same.
"""

from __future__ import annotations

from moderator.games.dwtk import counters, fugitives
from moderator.games.dwtk.acts import Refused, mine
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.orders.reaction import Trigger
from moderator.games.dwtk.reactions import play_cards
from moderator.games.dwtk.state import Fate, Situation
from moderator.games.dwtk.state.court import Court

HELD = (Situation.IMPRISONED, Situation.AWAITING_EXECUTION)


def escape(court: Court, player: str, a: Activity) -> None:
    cid = mine(court, player, a.who[0])
    c = court.char(cid)
    to = a.place or ""
    held = c.situation in HELD
    hiding = c.situation is Situation.HIDING
    if not (held or hiding):
        raise Refused("not_imprisoned_or_hiding")
    if to in court.wars:
        raise Refused("at_war")  # PROPOSED: as travel (7.10.1, 13.4.18)
    if to == c.location:
        raise Refused("already_there")
    if a.card == "prison_guards" and not held:
        raise Refused("prison_guards_only_from_prison")  # 14.5.14
    if a.card == "port_guards" and not (hiding and not c.abroad):
        raise Refused("port_guards_only_from_hiding_in_fandonia")  # 14.5.15
    kind = a.card or "escape"
    spent = counters.use(court, player, counters.card_or_any(court, player, kind))  # 12.3.1
    guards = {"prison_guards"} if held else {"port_guards"} if not c.abroad else set()
    negated = bool(guards) and sum(play_cards(court, Trigger.FREES, c.key, player,
                                              only=guards)[1].values()) > 0
    court.emit(EventId.JUSTICE_ESCAPE, {"character": c.key, "from": c.location, "to": to,
                                        "card": kind if spent else None,
                                        "negated": negated}, actor=player)
    if negated:
        return
    if c.abroad and to in c.hunted:
        fugitives.capture(court, cid)  # 25.9: into a country that hunts him
        return
    fate = c.fate if hiding else (Fate.EXECUTION if c.situation is
                                  Situation.AWAITING_EXECUTION else Fate.PRISON)
    court.set_char(cid, situation=Situation.HIDING, location=to, since=court.turn,
                   wrongdoer=c.wrongdoer or held, fate=fate)  # 24.10, 30.6, 31.6
