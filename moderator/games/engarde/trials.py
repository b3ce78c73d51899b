"""Prosecutions and trials (EG §R); disgrace on conviction (reference §9, PROPOSED).

Charges: treason by the Commissioner of Public Safety, civil crimes by the Military
Governor of Paris.  The office holder (a PC holding the appointment) brings charges
himself; anyone else asks the NPC holder: 7 on 1d6 (only with influence: ``USE
FAVOUR n ON CHARGE FOR <accused>``); a PC holder must bring them himself.  A titled
noble may ask the King for a warrant (6 on 1d6, ``ON WARRANT``); only a noble may
accuse a noble.  Reports to the authorities (``crime`` and ``arrest`` matters:
bribing an honest man, an assassin who informed, a debtor who stayed) become
charges automatically.  Every charge is published in the month it is brought and
tried the month after.

The trial: a PC judge's verdict is the GM decision ``verdict:<id>:<accused>``
(guilty/innocent; default: the NPC chart).  NPC judges: 2d6 >= To Convict (by SL),
-3 for a royal warrant; civil modifiers (contract +10, previous conviction +5, a
woman murdered +5, each qualified witness +1 prosecution / -1 defence, -1 if
actually guilty), treason modifiers (previous +5, really plotting +2 (GM decision
``plotting:<id>``, default no), prosecution witnesses only, two per category);
the GM's plea/consideration modifier ``plea:<id>:<accused>`` (default 0); favours
``ON TRIAL FOR|AGAINST <accused>`` at Minister level move the roll.  Witnesses
(``TESTIFY FOR|AGAINST``) qualify by SL >= the accused's (halved when disgraced or
in prison) or by sharing his regiment; one away at the front sends an affidavit.
An obvious miscarriage (actually guilty with 2+ net prosecution witnesses acquitted,
or the reverse) gives a mistrial (civil: retried next month) or the King's overrule
(treason) on 3+.  Sentence: GM decision ``sentence:<id>:<accused>`` written
``fine=N,prison=M,disgrace=yes|no,costs=yes|no`` (or ``none``); default: the
crime's row in offices.toml (fine dice x 100, months in prison, disgrace) plus the
100 CR legal costs.  What he cannot pay becomes a debt to the court (``REPAY n TO
COURT``), collected by the end of next month or he defaults as a demanded debtor
(sent on campaign until it is paid, disgraced for debt: EG §Q, §R "bad debtors must
still pay").

Arrest (EG §R) comes before the trial.  In Paris the Military Governor's watch
always arrests unless influenced (``USE FAVOUR n ON ARREST AGAINST <accused>``: an
NPC decision at his level, 1 on 1d6 before favours; with no favour pushed there is
nothing to roll); a PC Military Governor brings charges himself and is not asked
(PROPOSED: the rulebook gives a PC discretion only at the front).  At the front the
commanding general (front.commanding_general) must arrest him: an NPC always does
unless influenced, as above; a PC general decides (``arrest:<id>:<accused>``,
yes/no, default yes).  A man disguised as a frontier private cannot be found.  Not
arrested: the charge stays and is tried the first month he can be arrested.

The city watch arrests anyone observed actively engaged in a crime (`caught`): a
killing in a duel to the death fought without cause is murder in the open streets
(reference §6 cause: automatic or the GM's); and the GM may record any other crime
seen in the act as ``watch:<accused>`` = ``<crime>`` (from the press, or a player's
report).  He is charged at once (published now, tried next month) as actually
guilty.  The shylock's +2 never applies: shylocks are NPC moneylenders, and
characters may not lend at interest (EG §Q), so no defendant is ever one.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.engarde import front, honour, influence, offices
from moderator.games.engarde.events import EventId
from moderator.games.engarde.loans import new_loan
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import COURT, ChargeOrder, RequestWarrant, Testify
from moderator.games.engarde.state import Charge


def _publish(m: Month, accused: str, crime: str, by: str | None, warrant: bool = False,
             guilty: bool | None = None, authority: str = "prosecutor") -> None:
    if any(c.accused == accused and c.crime == crime for c in m.charges):
        return  # already charged with it
    m.charge_serial += 1
    m.charges.append(Charge(m.charge_serial, accused, crime, m.turn, by, warrant, guilty))
    m.emit(accused, EventId.TRIAL_CHARGED, {
        "id": m.charge_serial, "crime": m.tables.army.crime(crime).name, "by": by,
        "warrant": warrant, "authority": authority}, public=True)


def _refuse(m: Month, a: Actor, accused: str, reason: str) -> None:
    m.emit(a.key, EventId.TRIAL_CHARGE_REFUSED, {"accused": accused, "reason": reason})


def charge(m: Month, a: Actor, order: ChargeOrder) -> None:
    """CHARGE <name> WITH <crime> (EG §R)."""
    accused = m.actors.get(order.accused)
    crime = m.tables.army.crime(order.crime)
    if accused is None or accused.c.dead or accused.key == a.key:
        _refuse(m, a, order.accused, "accused")
        return
    if accused.c.noble and not a.c.noble:
        _refuse(m, a, order.accused, "noble")
        return
    office = "treason_prosecutor" if crime.kind == "treason" else "civil_prosecutor"
    holder = offices.office_holder(m, office)
    if holder == a.key:
        _publish(m, accused.key, crime.key, a.key)
        return
    if holder is not None:
        _refuse(m, a, order.accused, "pc_office")
        return
    post = m.tables.army.office(office)
    decision = influence.resolve_npc_decision(
        "minister" if post.minister else "general", m.tables.army.trial["charge_needs"],
        influence.take_pushes(m, "charge", accused.key), m.dice.stream("trials"), m.tables,
        f"the {post.name} considers charges", actor=a.key)
    if decision.success:
        _publish(m, accused.key, crime.key, a.key)
    else:
        _refuse(m, a, order.accused, "roll")


def warrant(m: Month, a: Actor, order: RequestWarrant) -> None:
    """REQUEST WARRANT AGAINST <name>: a titled noble asks the King (6 on 1d6)."""
    accused = m.actors.get(order.accused)
    if accused is None or accused.c.dead or accused.key == a.key:
        _refuse(m, a, order.accused, "accused")
        return
    if not a.c.title or not a.c.noble:
        _refuse(m, a, order.accused, "untitled")
        return
    decision = influence.resolve_npc_decision(
        "king", m.tables.army.trial["warrant_needs"],
        influence.take_pushes(m, "warrant", accused.key), m.dice.stream("trials"), m.tables,
        "the King considers a warrant", actor=a.key)
    if decision.success:
        _publish(m, accused.key, order.crime, a.key, warrant=True, authority="warrant")
    else:
        _refuse(m, a, order.accused, "roll")


def caught(m: Month, accused: str, crime: str, **args: object) -> None:
    """The city watch arrests a man seen committing a crime (EG §R): charged at once."""
    if accused not in m.actors or m.actors[accused].c.dead:
        return
    m.emit(accused, EventId.TRIAL_CAUGHT, {"crime": m.tables.army.crime(crime).name, **args},
           public=True)
    _publish(m, accused, crime, None, guilty=True, authority="watch")


def reports(m: Month) -> None:
    """Last month's reports to the authorities (honour.py) become charges (EG §R); the
    GM's ``watch:<accused>`` records of crimes seen in the act become charges now."""
    crimes = {w: c.key for c in m.tables.army.crimes for w in (c.key, c.name.lower())}
    for key in sorted(k for k in m.decisions if k.startswith("watch:")):
        crime = crimes.get(m.decisions[key].strip().lower())
        if crime is not None:
            del m.decisions[key]
            caught(m, key.removeprefix("watch:"), crime, gm=True)
    kept = []
    for matter in m.matters:
        if matter.kind in ("crime", "arrest") and matter.turn < m.turn \
                and matter.parties[0] in m.actors:
            crime = str(matter.args.get("crime", "debt"))
            crime = "murder" if crime in ("assassins", "murder") else crime
            if crime not in {c.key for c in m.tables.army.crimes}:
                crime = "blackmail"
            _publish(m, matter.parties[0], crime, None, guilty=True, authority="report")
        else:
            kept.append(matter)
    m.matters[:] = kept


def _witness_sl(m: Month, w: Actor) -> int:
    return w.sl // 2 if w.c.disgraced or w.c.imprisoned(m.turn) else w.sl


def _qualified(m: Month, w: Actor, accused: Actor) -> str | None:
    if _witness_sl(m, w) >= accused.sl:
        return "sl"
    if w.c.regiment and w.c.regiment == accused.c.regiment:
        return "regiment"
    return None


def trials(m: Month) -> None:
    """Try every charge published in an earlier month (EG §R)."""
    due = [c for c in m.charges if c.turn < m.turn]
    witnesses: dict[str, list[tuple[Actor, bool]]] = {}
    for a in m:
        for order in a.orders.anytime:
            if isinstance(order, Testify):
                witnesses.setdefault(order.accused, []).append((a, order.against))
    for ch in due:
        m.charges.remove(ch)
        accused = m.actors.get(ch.accused)
        if accused is None or accused.c.dead:
            continue
        if not _arrest(m, ch, accused):
            m.charges.append(ch)  # tried when he can be arrested
            continue
        retry = _try(m, ch, accused, witnesses.get(ch.accused, []))
        if retry:
            m.charges.append(replace(ch, turn=m.turn, retrial=True))


def _arrest(m: Month, ch: Charge, accused: Actor) -> bool:
    """EG §R: the watch in Paris, the commanding general at the front (module docstring)."""
    if accused.c.imprisoned(m.turn):
        return True  # already in custody
    args = {"id": ch.id}
    if not accused.c.at_front:
        return _npc_arrest(m, accused, offices.office_holder(m, "civil_prosecutor"), args)
    if accused.c.disguised:
        m.emit(accused.key, EventId.TRIAL_ARREST_REFUSED, {**args, "reason": "disguised"})
        return False
    general = front.commanding_general(m, accused)
    if general is None:
        ok = _npc_arrest(m, accused, "npc_general", args)
    else:
        answer = m.decide(f"arrest:{ch.id}:{accused.key}", "yes", general.key,
                          accused=accused.key)
        ok = answer.lower() in ("yes", "y", "true", "arrest")
        if not ok:
            m.emit(accused.key, EventId.TRIAL_ARREST_REFUSED,
                   {**args, "reason": "general", "general": general.key}, public=True)
    if ok:
        accused.update(location="paris", front_until=None, front_reason=None, front_months=0)
        m.emit(accused.key, EventId.TRIAL_ARRESTED,
               {**args, "general": general.key if general else None}, public=True)
    return ok


def _npc_arrest(m: Month, accused: Actor, who: str | None, args: dict[str, int]) -> bool:
    """An NPC (the Military Governor or a general) arrests unless favours push against."""
    pushes = influence.take_pushes(m, "arrest", accused.key)
    if not pushes or who not in (None, "npc_general"):
        return True  # nobody influenced him (or a PC governor: he is not asked)
    post = m.tables.army.office("civil_prosecutor")
    position = "general" if who == "npc_general" or not post.minister else "minister"
    decision = influence.resolve_npc_decision(
        position, m.tables.army.trial["arrest_needs"], pushes, m.dice.stream("trials"),
        m.tables, f"the arrest of {accused.c.name}", actor=accused.key)
    if not decision.success:
        m.emit(accused.key, EventId.TRIAL_ARREST_REFUSED,
               {**args, "reason": "influence", "general": None}, public=True)
    return decision.success


def _witnesses(m: Month, accused: Actor, named: list[tuple[Actor, bool]],
               treason: bool) -> tuple[int, int]:
    """The qualified witnesses for the prosecution and for the defence (EG §R); in a
    treason trial only the prosecution's count, so many of each kind."""
    pros = defence = 0
    per_category: dict[tuple[str, bool], int] = {}
    for w, against in named:
        if w.key == accused.key or w.c.dead:
            continue
        why = _qualified(m, w, accused)
        affidavit = w.c.at_front
        if why and treason:
            seen = per_category.get((why, against), 0)
            if not against or seen >= m.tables.army.trial["treason_witness_cap"]:
                why = None
            per_category[(why or "x", against)] = seen + 1
        m.emit(w.key, EventId.TRIAL_WITNESS, {"accused": accused.key, "against": against,
                                              "qualified": why, "affidavit": affidavit},
               public=True)
        if why:
            pros += against
            defence += not against
    return pros, defence


def _try(m: Month, ch: Charge, accused: Actor, named: list[tuple[Actor, bool]]) -> bool:
    army = m.tables.army
    rules = army.trial
    crime = army.crime(ch.crime)
    treason = crime.kind == "treason"
    tag = f"{ch.id}:{accused.key}"
    pros, defence = _witnesses(m, accused, named, treason)
    mods = pros - (0 if treason else defence)
    mods += 5 * (accused.c.convictions > 0)
    if treason:
        plotting = m.decide(f"plotting:{ch.id}", "no", accused.key)
        mods += 2 if plotting.lower() in ("yes", "y", "true") else 0
    else:
        mods += crime.modifier
        mods -= 1 if ch.guilty else 0
    mods += int(m.decide(f"plea:{tag}", "0", accused.key) or 0)
    pushes = influence.take_pushes(m, "trial", accused.key)
    minimum = m.tables.society.position("minister").cls
    mods += sum(influence.favour_modifier(p.cls, minimum) * (1 if p.against else -1)
                for p in pushes)
    needs = army.to_convict(accused.sl) + (rules["warrant_modifier"] if ch.warrant else 0)
    judge = offices.office_holder(m, "treason_judge" if treason else "civil_judge")
    stream = m.dice.stream("trials")
    roll = stream.roll("2d6", f"the verdict on {accused.c.name}", actor=accused.key,
                       modifier=mods, needs=needs)
    convicted = bool(roll.success)
    if judge is not None and judge != accused.key:
        answer = m.decide(f"verdict:{tag}", "chart", accused.key, judge=judge)
        if answer.lower() in ("guilty", "innocent"):
            convicted = answer.lower() == "guilty"
    args = {"id": ch.id, "crime": crime.name, "convicted": convicted, "needs": needs,
            "modifier": mods, "total": roll.total, "judge": judge, "retrial": ch.retrial}
    m.emit(accused.key, EventId.TRIAL_VERDICT, args, public=True)
    margin = rules["obvious_margin"]
    obvious_guilt = ch.guilty is True and pros - defence >= margin
    obvious_innocence = ch.guilty is False and defence - pros >= margin
    if (obvious_guilt and not convicted) or (obvious_innocence and convicted):
        check = stream.roll("1d6", "is it a miscarriage of justice?", actor=accused.key,
                            needs=rules["overrule_needs" if treason else "mistrial_needs"])
        if check.success and treason:
            convicted = not convicted
            m.emit(accused.key, EventId.TRIAL_OVERRULED, {**args, "convicted": convicted},
                   public=True)
        elif check.success:
            m.emit(accused.key, EventId.TRIAL_MISTRIAL, args, public=True)
            return True
    if convicted:
        _sentence(m, ch, accused, tag)
    return False


def _sentence(m: Month, ch: Charge, a: Actor, tag: str) -> None:
    crime = m.tables.army.crime(ch.crime)
    text = m.decide(f"sentence:{tag}", "default", a.key)
    if text.strip().lower() == "default":
        fine = m.dice.stream("trials").roll(f"{crime.fine_dice}d6", "the fine",
                                            actor=a.key).total * 100 if crime.fine_dice else 0
        parts = {"fine": fine, "prison": crime.prison, "disgrace": crime.disgrace,
                 "costs": True}
    else:
        parts = parse_sentence(text)
    costs = m.tables.army.trial["legal_costs"] if parts["costs"] else 0
    owed = int(parts["fine"]) + costs
    paid = min(owed, max(0, a.crowns))
    if owed > paid:  # EG §R: bad debtors must still pay: a debt to the court
        new_loan(m, COURT, a.key, owed - paid)
        m.loans[-1] = replace(m.loans[-1], demanded=m.turn - 1
                              + m.tables.army.trial["fine_debt_months"])
        m.emit(a.key, EventId.TRIAL_FINE_DEBT, {"id": ch.id, "amount": owed - paid})
    a.update(convictions=a.c.convictions + 1)
    if parts["prison"]:
        a.update(prison_until=max(a.c.prison_until, m.turn + int(parts["prison"])))
    m.emit(a.key, EventId.TRIAL_SENTENCE, {
        "id": ch.id, "fine": parts["fine"], "costs": costs, "paid": paid,
        "prison": parts["prison"], "disgrace": bool(parts["disgrace"])}, crowns=-paid,
        public=True)
    if parts["disgrace"] and not a.c.disgraced:
        honour.disgrace(m, a, "conviction", crime=crime.name)


def parse_sentence(text: str) -> dict[str, int | bool]:
    """``fine=300,prison=2,disgrace=yes,costs=no`` (any order; ``none`` = nothing)."""
    out: dict[str, int | bool] = {"fine": 0, "prison": 0, "disgrace": False, "costs": False}
    for part in text.replace(";", ",").split(","):
        name, _, value = part.strip().partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if name in ("fine", "prison") and value.isdigit():
            out[name] = int(value)
        elif name in ("disgrace", "costs"):
            out[name] = value in ("yes", "y", "true", "1")
    return out


def release(m: Month) -> None:
    """At the month's end those whose sentence is served walk free."""
    for a in m:
        if a.c.prison_until and a.c.prison_until <= m.turn and not a.c.dead:
            a.update(prison_until=0)
            m.emit(a.key, EventId.TRIAL_RELEASED, {}, public=True)
