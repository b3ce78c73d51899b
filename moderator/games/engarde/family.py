"""Pregnancy, the father's answer, and births (EG §L; reference §10.3-§10.5).

PROPOSED numbers from ``family.toml``; rolls on the ``family`` dice stream.

* At the month's end each lady with romantic encounters that month (weeks and
  weekends alike) may conceive: 5 % an encounter, at most 40 %, +5 % if married.
  The father is drawn weighted by his share of her encounters.  He is told
  privately in this month's results and answers in next month's orders with
  ``ANYTIME: PREGNANCY <lady> <answer>``; no answer by the end of that month is
  ignoring her.
* Answers: MARRY (a proposal without the six-month wait; refused but not jilted,
  she is acknowledged), PAY OFF (SL x 100 if 1d6 < loyalty, she leaves quietly;
  else she tells all, he is disgraced and keeps his money), ASSASSINS (SL x 100;
  1 in 6, 1 in 3 if Beautiful, the villain takes pity and informs the authorities:
  a ``crime`` matter), ACKNOWLEDGE (PROPOSED: no penalty; she stays), IGNORE
  (disgrace).  PROPOSED: a lady who is paid off, told all, ignored, jilted, fled
  or killed leaves Paris and takes the child with her.
* Births nine months after conception, on the d100 table, for a mother still in
  Paris: his SL in SP per son, half per daughter, lost instead if deformed; the
  mother's death excuses him female company for three months.
"""

from __future__ import annotations

from moderator.games.engarde.events import EventId
from moderator.games.engarde.honour import disgrace, report_crime
from moderator.games.engarde.ladies import leave, set_lady
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Answer, PregnancyAnswer
from moderator.games.engarde.romance import propose
from moderator.games.engarde.state import Child, Lady


def conceptions(m: Month) -> None:
    p = m.tables.society.pregnancy
    stream = m.dice.stream("family")
    for key in sorted(m.encounters):
        lady = m.ladies.get(key)
        if lady is None or lady.pregnant_by is not None:
            continue
        met = m.encounters[key]
        total = sum(met.values())
        chance = min(p["max_pct"], p["per_encounter_pct"] * total) + (
            p["married_pct"] if lady.married else 0)
        roll = stream.roll("1d100", f"is {lady.name} with child?")
        if roll.total > chance:
            continue
        men = sorted(met)
        father = men[0]
        if len(men) > 1:
            pick = stream.roll(f"1d{total}", f"the father of {lady.name}'s child").total
            for man in men:
                pick -= met[man]
                if pick <= 0:
                    father = man
                    break
        set_lady(m, key, pregnant_by=father, conceived=m.turn, answered=None)
        m.emit(father, EventId.FAMILY_PREGNANT, {"lady": lady.name,
                                                 "due": m.turn + p["months"]})


def answer(m: Month, a: Actor, order: PregnancyAnswer) -> None:
    lady = m.ladies.get(order.lady)
    if lady is None or lady.pregnant_by != a.key or lady.answered:
        m.emit(a.key, EventId.ORDERS_SKIPPED, {"order": "PREGNANCY", "reason": "no_news"})
        return
    q = m.tables.society.mistress["pregnancy_answer"]
    stream = m.dice.stream("family")
    args = {"lady": lady.name, "answer": order.answer.value}
    if order.answer is Answer.IGNORE:
        _gone(m, lady, "ignored")
        disgrace(m, a, "ignored_pregnancy", lady=lady.name)
    elif order.answer is Answer.ACKNOWLEDGE:
        set_lady(m, lady.key, answered="acknowledge")
        m.emit(a.key, EventId.FAMILY_ACKNOWLEDGED, args, public=True)
    elif order.answer is Answer.MARRY:
        if propose(m, a, waive_steady=True) is None:
            return  # not made (not his mistress, married ...): still unanswered
        if lady.key in m.ladies:
            set_lady(m, lady.key, answered="marry")
    elif order.answer is Answer.PAY_OFF:
        cost = q["pay_off_per_sl"] * lady.sl
        if a.crowns < cost:
            m.emit(a.key, EventId.FAMILY_UNAFFORDABLE, {**args, "cost": cost})
            return
        roll = stream.roll("1d6", f"does {lady.name} take the money?", actor=a.key,
                           needs=None)
        if roll.total < lady.loyalty:
            m.emit(a.key, EventId.FAMILY_PAID_OFF, {**args, "cost": cost}, crowns=-cost)
            _gone(m, lady, "paid_off")
        else:
            m.emit(a.key, EventId.FAMILY_TOLD_ALL, args, public=True)
            _gone(m, lady, "told_all")
            disgrace(m, a, "pregnancy_scandal", lady=lady.name)
    else:
        cost = q["assassins_per_sl"] * lady.sl
        if a.crowns < cost:
            m.emit(a.key, EventId.FAMILY_UNAFFORDABLE, {**args, "cost": cost})
            return
        faces = q["pity_faces_beautiful"] if lady.beautiful else q["pity_faces"]
        roll = stream.roll("1d6", "does the assassin take pity?", actor=a.key)
        if roll.total in faces:
            m.emit(a.key, EventId.FAMILY_ASSASSIN_PITY, {**args, "cost": cost}, crowns=-cost)
            _gone(m, lady, "fled")
            report_crime(m, a.key, "murder", lady=lady.name)
        else:
            m.emit(a.key, EventId.FAMILY_ASSASSINATED, {**args, "cost": cost}, crowns=-cost)
            _gone(m, lady, "died")


def _gone(m: Month, lady: Lady, reason: str) -> None:
    if lady.key in m.keepers:
        leave(m, lady.key, reason, public=reason not in ("paid_off", "died"))
    else:
        m.ladies.pop(lady.key, None)


def unanswered(m: Month) -> None:
    """No answer by the end of the month after the news: he has ignored her (EG §L)."""
    months = m.tables.society.m("pregnancy_answer", "answer_months")
    for lady in list(m.ladies.values()):
        if lady.pregnant_by and not lady.answered and lady.conceived is not None \
                and m.turn >= lady.conceived + months and lady.pregnant_by in m.actors:
            a = m.actors[lady.pregnant_by]
            m.emit(a.key, EventId.FAMILY_IGNORED, {"lady": lady.name})
            _gone(m, lady, "ignored")
            disgrace(m, a, "ignored_pregnancy", lady=lady.name)


def births(m: Month) -> None:
    """Births nine months after conception (EG §L; reference §10.5 PROPOSED table)."""
    months = m.tables.society.pregnancy["months"]
    for key, lady in list(m.ladies.items()):
        if lady.conceived is None or lady.conceived + months != m.turn:
            continue
        set_lady(m, key, pregnant_by=None, conceived=None, answered=None)
        father = m.actors.get(lady.pregnant_by or "")
        if father is not None:
            _birth(m, father, lady)


def _birth(m: Month, a: Actor, lady: Lady) -> None:
    b = m.tables.society.birth
    stream = m.dice.stream("family")
    outcome = m.tables.society.birth_outcome(stream.roll("1d100", "the birth").total)
    children: list[tuple[str, bool]] = []  # (sex, deformed)
    if outcome in ("healthy", "deformed"):
        children.append((_sex(m), outcome == "deformed"))
    elif outcome == "twins":
        for _ in range(2):
            trouble = stream.roll("1d100", "a twin's birth").total
            if trouble > b["twin_trouble_max"]:
                children.append((_sex(m), False))
            elif m.tables.society.birth_outcome(trouble) == "deformed":
                children.append((_sex(m), True))
    elif outcome == "mother_dies" and stream.roll(
            "1d6", "does the child live?").total in b["child_survives_faces"]:
        children.append((_sex(m), False))
    for sex, deformed in children:
        sp = a.sl * b["sp_per_son_sl"]
        sp = sp if sex == "son" else sp // b["daughter_divisor"]
        resembles = _resemblance(m)
        a.update(children=(*a.c.children, Child(lady.name, sex, m.turn, deformed, resembles)))
        m.emit(a.key, EventId.FAMILY_BIRTH, {"lady": lady.name, "sex": sex,
                                             "deformed": deformed, "resembles": resembles},
               sp=-sp if deformed else sp, public=True)
    if outcome == "stillbirth" or (outcome != "healthy" and not children):
        m.emit(a.key, EventId.FAMILY_STILLBIRTH, {"lady": lady.name}, public=True)
    if outcome == "mother_dies":
        a.update(grieving_until=m.turn + b["grieving_months"] - 1)
        m.emit(a.key, EventId.FAMILY_MOTHER_DIED, {"lady": lady.name,
                                                   "months": b["grieving_months"]},
               public=True)
        _gone(m, lady, "died_in_childbirth")


def _sex(m: Month) -> str:
    return "son" if m.dice.stream("family").roll("1d2", "son or daughter?").total == 1 \
        else "daughter"


def _resemblance(m: Month) -> str | None:
    pct = m.tables.society.birth["resemblance_pct"]
    stream = m.dice.stream("family")
    father = stream.roll("1d100", "resembles the father?").total <= pct
    mother = stream.roll("1d100", "resembles the mother?").total <= pct
    return "both" if father and mother else "father" if father else \
        "mother" if mother else None
