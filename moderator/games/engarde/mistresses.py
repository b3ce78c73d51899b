"""Mistresses (EG §L): courting, visiting, support, status points and boredom.

Courting is a week's action resolved lady by lady (keys in order) after every
order of the week is known, so two suitors at one door meet.  Rolls are on the
``mistress`` dice stream.  Readings (documented in docs/rules-coverage.md):

* Suitors pay before anything else is decided (EG §L: "Both characters have spent
  the money before courting, regardless of what happens").
* Two or more suitors who do not ``WITHDRAW``: a duel is required.  Until duels
  exist, nobody wins her that week; each pair gets a ``duel_cause`` matter, and a
  rival who keeps a mistress is indiscreet (EG §L: "Characters dueling over a
  mistress are automatically indiscreet").  A suitor who withdraws in favour of
  the one who stays loses the SL difference if that one is lower; if everyone
  withdraws, nobody courts and nobody loses SP.
* PROPOSED: a suitor caught at the door while her lover is with her that week
  (his VISIT MISTRESS or club WITH MISTRESS) does not get to court her: the lover
  has cause for a duel.
* Winning a mistress meets the month's female company (EG §L: "acquiring a
  mistress") and counts as an encounter; support starts the next month.
* PROPOSED: a mistress whose support is not paid leaves; an unpaid wife loses 1
  loyalty.  A wife counts as a mistress for the monthly SP (1, +1 Beautiful);
  a married man who also keeps a mistress gets SP for his wife only (EG §L).
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.honour import cause_for_duel
from moderator.games.engarde.ladies import lady_sp, leave, mistress_of, set_lady, take, wife_of
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Court
from moderator.games.engarde.state import Lady


def companion(m: Month, a: Actor) -> Lady | None:
    """The lady he can visit or escort: his mistress, else his wife."""
    return mistress_of(m, a) or wife_of(m, a)


def visit(m: Month, a: Actor, week: int) -> bool:
    """VISIT MISTRESS (EG §L): a week with her meets the month's company."""
    lady = companion(m, a)
    if lady is None:
        m.emit(a.key, EventId.MISTRESS_NONE, {"order": "VISIT MISTRESS"})
        return False
    a.company = True
    a.with_mistress.add(week)
    m.encounter(lady.key, a.key)
    m.emit(a.key, EventId.MISTRESS_VISITED, {"lady": lady.name})
    return True


def escort(m: Month, a: Actor, week: int, venue: str) -> None:
    """CLUB ...; WITH MISTRESS (EG §L): the month's visit, and he buys her drink.

    PROPOSED: her drink costs what his would (his SL) and brings no SP.
    """
    lady = companion(m, a)
    if lady is None:
        m.emit(a.key, EventId.MISTRESS_NONE, {"order": "WITH MISTRESS"})
        return
    cost = m.tables.rule("carousing", "cost_per_sl") * a.sl
    if a.crowns < cost:
        m.emit(a.key, EventId.CAROUSE_UNAFFORDABLE, {"venue": venue, "cost": cost})
        return
    a.company = True
    a.with_mistress.add(week)
    m.encounter(lady.key, a.key)
    m.emit(a.key, EventId.MISTRESS_ESCORTED, {"lady": lady.name, "venue": venue,
                                              "cost": cost}, crowns=-cost, public=True)


def resolve_courting(m: Month, week: int, courts: dict[str, Court]) -> set[str]:
    """Every COURT of the week, lady by lady; returns the suitors whose week failed."""
    failed: set[str] = set()
    by_lady: dict[str, list[str]] = {}
    for key in sorted(courts):
        by_lady.setdefault(courts[key].lady, []).append(key)
    for lady_key in sorted(by_lady):
        suitors = [k for k in by_lady[lady_key] if _pay(m, m.actors[k], lady_key, courts[k])]
        failed |= set(by_lady[lady_key]) - set(suitors)
        for key in _contest(m, lady_key, suitors, courts, failed):
            if not _court(m, week, m.actors[key], lady_key, courts[key]):
                failed.add(key)
    return failed


def _refusal(m: Month, a: Actor, lady_key: str) -> str | None:
    lady = m.ladies.get(lady_key)
    if lady is None:
        return "gone"
    if lady.married:
        return "married"  # EG §L: "wives may not be courted"
    if a.c.mistress == lady_key:
        return "yours"
    if a.c.wife:
        return "husband"  # EG §L: "Husbands may not court other women openly"
    return None


def _pay(m: Month, a: Actor, lady_key: str, order: Court) -> bool:
    """Pay 3 x her SL, and the extra multiples (not for a Wealthy lady)."""
    reason = _refusal(m, a, lady_key)
    if reason:
        m.emit(a.key, EventId.MISTRESS_COURT_REFUSED, {"lady": lady_key, "reason": reason,
                                                       "name": _name(m, lady_key)})
        return False
    lady = m.ladies[lady_key]
    c = m.tables.society.courting
    extra = 0 if lady.wealthy else order.extra
    cost = c["cost_per_sl"] * lady.sl + extra * c["extra_per_sl"] * lady.sl
    if a.crowns < cost:
        m.emit(a.key, EventId.MISTRESS_COURT_REFUSED, {"lady": lady_key, "reason": "funds",
                                                       "name": lady.name, "cost": cost})
        return False
    m.emit(a.key, EventId.MISTRESS_COURTING, {"lady": lady.name, "cost": cost, "extra": extra,
                                              "extra_refused": order.extra - extra},
           crowns=-cost)
    return True


def _name(m: Month, lady_key: str) -> str:
    lady = m.ladies.get(lady_key)
    return lady.name if lady else lady_key


def _contest(m: Month, lady_key: str, suitors: list[str], courts: dict[str, Court],
             failed: set[str]) -> list[str]:
    """Two suitors at one door (EG §L): who withdraws, who stays, and the duel."""
    if len(suitors) < 2:
        return suitors
    name = m.ladies[lady_key].name
    stayers = [k for k in suitors if not courts[k].withdraw]
    favoured = min((m.actors[k].sl for k in stayers), default=None)
    for key in suitors:
        if key in stayers:
            continue
        a = m.actors[key]
        loss = max(0, a.sl - favoured) if favoured is not None and len(stayers) == 1 else 0
        failed.add(key)
        m.emit(key, EventId.MISTRESS_WITHDREW, {"lady": name, "rivals": sorted(
            k for k in suitors if k != key), "loss": loss}, sp=-loss)
    if len(stayers) < 2:
        return stayers
    for i, first in enumerate(stayers):
        for second in stayers[i + 1:]:
            cause_for_duel(m, first, second, "rival_suitors", lady=name)
    for key in stayers:
        failed.add(key)
        m.emit(key, EventId.MISTRESS_RIVALS, {"lady": name, "rivals": sorted(
            k for k in stayers if k != key)}, public=True)
        mine = m.actors[key].c.mistress
        if mine:
            leave(m, mine, "indiscretion")
    return []


def _court(m: Month, week: int, a: Actor, lady_key: str, order: Court) -> bool:
    """One suitor's roll on the Courting table (EG §L)."""
    lady, s = m.ladies[lady_key], m.tables.society
    keeper = m.keepers.get(lady_key)
    rival = keeper if keeper and keeper != a.key else None
    if rival and week in m.actors[rival].with_mistress:
        cause_for_duel(m, rival, a.key, "courting_caught", lady=lady.name)
        m.emit(a.key, EventId.MISTRESS_COURT_FAILED, {"lady": lady.name, "reason": "caught",
                                                      "lover": rival})
        return False
    needed = s.courting_needed(a.sl - lady.sl)
    modifier = (0 if lady.wealthy else order.extra) + (
        s.courting["other_pc_modifier"] if rival else 0)
    roll = m.dice.stream("mistress").roll("1d6", f"courting {lady.name}", actor=a.key,
                                          needs=needed, modifier=modifier)
    face = roll.faces[0]
    if needed is not None and face != s.courting["natural_fail"] and roll.total >= needed:
        _win(m, a, lady_key, rival, face, needed, modifier)
        return True
    reason = "too_high" if needed is None else "natural" if face == s.courting[
        "natural_fail"] else "roll"
    m.emit(a.key, EventId.MISTRESS_COURT_FAILED, {"lady": lady.name, "reason": reason,
                                                  "face": face, "modifier": modifier,
                                                  "needed": needed, "lover": rival})
    mine = a.c.mistress
    if mine:
        face = m.dice.stream("mistress").roll("1d6", "indiscretion?", actor=a.key).total
        if face >= s.courting["indiscretion_face"]:
            leave(m, mine, "indiscretion")
            if rival:
                cause_for_duel(m, rival, a.key, "courting_caught", lady=lady.name)
    return False


def _win(m: Month, a: Actor, lady_key: str, rival: str | None, face: int, needed: int,
         modifier: int) -> None:
    old = a.c.mistress
    if old:
        leave(m, old, "dumped")
    if rival:
        r = m.actors[rival]
        favours = tuple(f for f in r.c.favours if f.lady != lady_key)
        r.update(mistress=None, favours=favours)
        m.emit(rival, EventId.MISTRESS_LOST, {"lady": m.ladies[lady_key].name,
                                              "reason": "stolen", "wife": False, "by": a.key},
               public=True)
    take(m, a, lady_key)
    a.company = True
    m.encounter(lady_key, a.key)
    lady = m.ladies[lady_key]
    m.emit(a.key, EventId.MISTRESS_WON, {"lady": lady.name, "sl": lady.sl, "face": face,
                                         "modifier": modifier, "needed": needed,
                                         "from": rival}, public=True)


def pay_support(m: Month) -> None:
    """3 x her SL a month; a Wealthy lady pays him instead (EG §L); the wife's house."""
    s = m.tables.society
    for a in m:
        for lady in (mistress_of(m, a), wife_of(m, a)):
            if lady is None:
                continue
            if lady.wealthy:
                gift = s.m("support", "wealthy_gift_per_sl") * max(0, lady.sl - a.sl)
                if gift:
                    m.emit(a.key, EventId.MISTRESS_GIFT, {"lady": lady.name, "amount": gift},
                           crowns=gift)
                continue
            cost = s.m("support", "per_sl") * lady.sl
            if a.crowns >= cost:
                m.emit(a.key, EventId.MISTRESS_SUPPORT, {"lady": lady.name, "cost": cost,
                                                         "wife": lady.married}, crowns=-cost)
            elif lady.married:
                _loyalty(m, lady, s.m("wedding", "unhoused_loyalty"))
                m.emit(a.key, EventId.MISTRESS_UNPAID, {"lady": lady.name, "cost": cost,
                                                        "wife": True})
            else:
                m.emit(a.key, EventId.MISTRESS_UNPAID, {"lady": lady.name, "cost": cost,
                                                        "wife": False})
                leave(m, lady.key, "unpaid")
        _house_wife(m, a)


def _loyalty(m: Month, lady: Lady, change: int) -> None:
    top = m.tables.society.m("loyalty", "max")
    low = m.tables.society.m("loyalty", "min")
    set_lady(m, lady.key, loyalty=max(low, min(top, lady.loyalty + change)))


def wife_house_rank(m: Month, lady: Lady) -> int:
    """EG §L: a house of rank not less than her SL / 3 (5 maximum, round down)."""
    w = m.tables.society.mistress["wedding"]
    return int(min(w["house_max_rank"], lady.sl // w["house_sl_divisor"]))


def house_rank(m: Month, a: Actor) -> int:
    return m.tables.housing_type(a.c.home.kind).rank if a.c.home else -1


def _house_wife(m: Month, a: Actor) -> None:
    """PROPOSED: a wife not housed as EG §L requires loses 1 loyalty a month."""
    wife = wife_of(m, a)
    if wife and house_rank(m, a) < wife_house_rank(m, wife):
        _loyalty(m, wife, m.tables.society.m("wedding", "unhoused_loyalty"))
        m.emit(a.key, EventId.WIFE_UNHOUSED, {"lady": wife.name,
                                              "rank": wife_house_rank(m, wife)})


def month_end(m: Month) -> None:
    """SP for the lady he keeps, then boredom (EG §L)."""
    s = m.tables.society
    for a in m:
        wife, mistress = wife_of(m, a), mistress_of(m, a)
        lady = wife or mistress
        if lady:
            m.emit(a.key, EventId.MISTRESS_SP, {"lady": lady.name, "wife": lady.married},
                   sp=lady_sp(m, a, lady))
        if mistress is None:
            continue
        b = s.mistress["boredom"]
        modifier = (mistress.loyalty - b["loyalty_pivot"]) - max(0, mistress.sl - a.sl)
        roll = m.dice.stream("mistress").roll(b["dice"], f"is {mistress.name} bored?",
                                              actor=a.key, modifier=modifier)
        if roll.total <= b["leaves_on"]:
            leave(m, mistress.key, "bored")
