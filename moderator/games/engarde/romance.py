"""Weekends of the heart (EG §L): liaisons, proposals and weddings.

Rolls are on the ``mistress`` dice stream.  Readings and PROPOSED parts
(reference §10.3; docs/rules-coverage.md):

* A lady is guarded on a weekend her lover or husband spends with her:
  proposing, marrying, or his first ``THEATRE ... WITH MISTRESS`` of the month.
  A liaison with a guarded lady fails without a roll and without the gift.
* A liaison that succeeds is secret unless ``REVEAL`` is written.  Revealed, it
  meets his female company, counts as a publicised liaison (proposals, his wife's
  loyalty) and gives her lover or husband cause for a duel.
* PROPOSED "fallen madly in love" (a natural 6 that succeeds): the affair is
  revealed whatever he wrote; an unmarried lady leaves her lover for him (his own
  mistress is dumped, unless he is married: then he keeps both, paying both and
  gaining SP for his wife only, EG §L).  A wife stays with her husband.
* A proposal needs six months "going steady" (waived when he answers a pregnancy
  with MARRY), a gift of 3 x her SL, and 1d6 + his publicised liaisons of the last
  six months <= her loyalty; each refusal: 1 in 6 she jilts him.
* The engagement is announced; the wedding (``MARRY``) must follow by the end of
  next month (PROPOSED) or both lose 1 SL (EG §L).  It needs a house of rank her
  SL / 3 (max 5) and costs n x the couple's combined SL (+1 SP per multiple past
  the first).  Her SL rises to his, her loyalty +3 (max 9, PROPOSED cap).
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.honour import cause_for_duel
from moderator.games.engarde.ladies import leave, mistress_of, set_lady, take, wife_of
from moderator.games.engarde.mistresses import house_rank, wife_house_rank
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Liaise, Marry, Propose, Theatre
from moderator.games.engarde.state import Lady


def guard(m: Month, a: Actor, weekend: int, order: object) -> None:
    """Mark the weekend he spends with his lady (EG §L: protects her from liaisons)."""
    lady = mistress_of(m, a) or wife_of(m, a)
    if lady is None:
        return
    if isinstance(order, Propose | Marry):
        a.guarding.add(weekend)
    elif isinstance(order, Theatre) and order.with_mistress:
        if not any(w < weekend for w in a.with_mistress_theatre):
            a.guarding.add(weekend)
        a.with_mistress_theatre.add(weekend)
        a.company = True
        m.encounter(lady.key, a.key)
        m.emit(a.key, EventId.MISTRESS_ESCORTED, {"lady": lady.name, "venue": "the theatre",
                                                  "cost": 0}, public=True)


def liaise(m: Month, a: Actor, weekend: int, order: Liaise) -> None:
    s = m.tables.society
    lady = m.ladies.get(order.lady)
    if lady is None or order.lady in (a.c.mistress, a.c.wife):
        reason = "gone" if lady is None else "yours"
        m.emit(a.key, EventId.LIAISON_REFUSED, {"lady": order.lady, "reason": reason,
                                                "name": lady.name if lady else order.lady})
        return
    keeper = m.keepers.get(lady.key)
    if keeper and weekend in m.actors[keeper].guarding:
        m.emit(a.key, EventId.LIAISON_GUARDED, {"lady": lady.name, "keeper": keeper})
        return
    gift = s.m("liaison", "gift_per_sl") * lady.sl * (2 if order.double else 1)
    if a.crowns < gift:
        m.emit(a.key, EventId.LIAISON_REFUSED, {"lady": order.lady, "reason": "funds",
                                                "name": lady.name, "cost": gift})
        return
    m.emit(a.key, EventId.LIAISON_GIFT, {"lady": lady.name, "cost": gift}, crowns=-gift)
    modifier = s.m("liaison", "double_modifier") if order.double else 0
    too_high = lady.sl > a.sl + s.m("liaison", "max_above")
    roll = m.dice.stream("mistress").roll(
        "1d6", f"liaison with {lady.name}", actor=a.key, modifier=modifier,
        needs=None if too_high else lady.loyalty)
    if too_high or roll.total < lady.loyalty:
        _failed(m, a, lady, keeper, "too_high" if too_high else "roll")
        return
    m.encounter(lady.key, a.key)
    love = roll.faces[0] == s.m("liaison", "love_face")
    m.emit(a.key, EventId.LIAISON_SUCCESS, {"lady": lady.name, "love": love})
    if order.reveal or love:
        _reveal(m, a, lady, keeper)
    if love:
        _in_love(m, a, lady, keeper)


def _reveal(m: Month, a: Actor, lady: Lady, keeper: str | None) -> None:
    a.company = True
    a.update(public_liaisons=(*a.c.public_liaisons, m.turn))
    m.emit(a.key, EventId.LIAISON_REVEALED, {"lady": lady.name, "keeper": keeper},
           public=True)
    wife = wife_of(m, a)
    if wife:
        _wife_loyalty(m, wife)
        m.matter("adultery", (a.key,), lady=wife.key, guilty="husband")  # EG §L divorce
    if keeper and keeper != a.key:
        cause_for_duel(m, keeper, a.key, "liaison", lady=lady.name)
        if lady.married:
            m.matter("adultery", (keeper,), lady=lady.key, guilty="wife")


def _wife_loyalty(m: Month, wife: Lady) -> None:
    """EG §L: a wife's loyalty drops by 1 for each public liaison of her husband."""
    low = m.tables.society.m("loyalty", "min")
    change = m.tables.society.m("wedding", "loyalty_public_liaison")
    set_lady(m, wife.key, loyalty=max(low, wife.loyalty + change))


def _in_love(m: Month, a: Actor, lady: Lady, keeper: str | None) -> None:
    m.emit(a.key, EventId.LIAISON_IN_LOVE, {"lady": lady.name, "keeper": keeper},
           public=True)
    if lady.married:
        return
    if keeper:
        r = m.actors[keeper]
        r.update(mistress=None, favours=tuple(f for f in r.c.favours if f.lady != lady.key))
        m.emit(keeper, EventId.MISTRESS_LOST, {"lady": lady.name, "reason": "in_love",
                                               "wife": False, "by": a.key}, public=True)
    if a.c.mistress:
        leave(m, a.c.mistress, "dumped")
    take(m, a, lady.key)


def _failed(m: Month, a: Actor, lady: Lady, keeper: str | None, reason: str) -> None:
    """EG §L: 1 in 6 his own mistress hears of it; 1 in 6 a wife tells her husband."""
    s = m.tables.society
    m.emit(a.key, EventId.LIAISON_FAILED, {"lady": lady.name, "reason": reason})
    stream = m.dice.stream("mistress")
    mine = a.c.mistress
    if mine and stream.roll("1d6", "does your mistress hear of it?",
                            actor=a.key).total >= s.m("liaison", "tells_face"):
        leave(m, mine, "indiscretion")
    if lady.married and keeper and stream.roll(
            "1d6", f"does {lady.name} tell her husband?", actor=a.key).total >= s.m(
            "liaison", "tells_face"):
        cause_for_duel(m, keeper, a.key, "liaison_attempt", lady=lady.name)


def recent_liaisons(m: Month, a: Actor) -> int:
    months = m.tables.society.m("proposal", "steady_months")
    return sum(1 for t in a.c.public_liaisons if m.turn - t < months)


def propose(m: Month, a: Actor, *, waive_steady: bool = False) -> bool | None:
    """A proposal (EG §L): True accepted, False refused, None not made."""
    s = m.tables.society
    lady = mistress_of(m, a)
    reason = None
    if lady is None:
        reason = "no_mistress"
    elif a.c.wife:
        reason = "married"
    elif lady.engaged is not None:
        reason = "engaged"
    elif not waive_steady and m.turn - (lady.since or m.turn) < s.m("proposal",
                                                                    "steady_months"):
        reason = "too_soon"
    gift = s.m("proposal", "gift_per_sl") * lady.sl if lady else 0
    if reason is None and a.crowns < gift:
        reason = "funds"
    if reason or lady is None:
        m.emit(a.key, EventId.PROPOSAL_REFUSED, {"reason": reason, "cost": gift})
        return None
    m.emit(a.key, EventId.PROPOSAL_GIFT, {"lady": lady.name, "cost": gift}, crowns=-gift)
    modifier = recent_liaisons(m, a)
    roll = m.dice.stream("mistress").roll("1d6", f"proposal to {lady.name}", actor=a.key,
                                          modifier=modifier)
    if roll.total <= lady.loyalty:
        due = m.turn + s.m("wedding", "months_to_wed")
        set_lady(m, lady.key, engaged=due)
        m.emit(a.key, EventId.PROPOSAL_ACCEPTED, {"lady": lady.name, "by_turn": due},
               public=True)
        return True
    m.emit(a.key, EventId.PROPOSAL_DECLINED, {"lady": lady.name, "modifier": modifier})
    jilt = m.dice.stream("mistress").roll("1d6", "does she jilt you?", actor=a.key)
    if jilt.total >= s.m("proposal", "jilt_face"):
        leave(m, lady.key, "jilted")
    return False


def marry(m: Month, a: Actor, order: Marry) -> None:
    """The wedding (EG §L)."""
    s = m.tables.society
    lady = mistress_of(m, a)
    if lady is None or lady.engaged is None:
        m.emit(a.key, EventId.WEDDING_REFUSED, {"reason": "not_engaged"})
        return
    if house_rank(m, a) < wife_house_rank(m, lady):
        m.emit(a.key, EventId.WEDDING_REFUSED, {"reason": "house",
                                                "rank": wife_house_rank(m, lady)})
        return
    cost = order.multiples * (a.sl + lady.sl)
    if a.crowns < cost:
        m.emit(a.key, EventId.WEDDING_REFUSED, {"reason": "funds", "cost": cost})
        return
    top = s.m("loyalty", "max")
    set_lady(m, lady.key, married=True, engaged=None, sl=max(lady.sl, a.sl),
             loyalty=min(top, lady.loyalty + s.m("wedding", "loyalty_bonus")))
    a.update(wife=lady.key, mistress=None)
    m.encounter(lady.key, a.key)
    a.company = True
    m.emit(a.key, EventId.WEDDING_HELD, {"lady": lady.name, "cost": cost,
                                         "multiples": order.multiples},
           crowns=-cost, sp=order.multiples - 1, public=True)


def missed_weddings(m: Month) -> None:
    """EG §L: an announced wedding that does not take place: both lose 1 SL."""
    drop = m.tables.society.m("wedding", "missed_sl")
    floor = m.tables.rule("status", "min_sl")
    for a in m:
        lady = mistress_of(m, a)
        if lady is None or lady.engaged is None or m.turn < lady.engaged:
            continue
        before = a.sl
        a.sl = max(floor, a.sl - drop)
        set_lady(m, lady.key, engaged=None, sl=max(floor, lady.sl - drop))
        m.emit(a.key, EventId.WEDDING_MISSED, {"lady": lady.name, "sl_before": before,
                                               "sl_after": a.sl}, public=True)


def wives_follow(m: Month) -> None:
    """EG §L: a wife's SL rises with her husband's, and never stays below it."""
    for a in m:
        wife = wife_of(m, a)
        if wife is None:
            continue
        rise = max(0, a.sl - a.sl_start)
        sl = max(wife.sl + rise, a.sl)
        if sl != wife.sl:
            set_lady(m, wife.key, sl=sl)
