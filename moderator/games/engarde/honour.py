"""Disgrace, causes for duels and reports to the authorities.

The mistress, influence and loan rules produce three kinds of business that the
duels and trials rules settle later.  Each is both an `Event` (for the gazette or
the turn sheet) and a `Matter` kept in `GameState.matters` until the rule that
settles it removes it:

* ``duel_cause`` (`cause_for_duel`): a cause for a duel, e.g. courting another's
  mistress and being caught, two suitors who would not withdraw (EG §L), a
  revealed liaison or a betrayed husband (``parties`` = offended, offender;
  ``args.reason``): a challenge by the offended uses (removes) it as automatic
  cause (duels.py).  Two
  rival suitors still do not win the lady that week.
* ``crime`` (`report_crime`): someone was reported to the authorities (a bribe
  offered to an honest man, an assassin who took pity; EG §L, §S).  trials.py
  turns it into a published charge the month after, tried the month after that.
* ``arrest`` (`report_crime` with kind ``arrest``): a shylock's defaulter who did
  not flee to the front (EG §Q).

Disgrace (`disgrace`; reference §9, PROPOSED): the character loses 1 SL at once,
is struck off at his club and may neither join nor visit a club while disgraced.
`Character.disgraced` keeps the reason; a debt disgrace ends when the debt is
paid (loans.py); the others end with a mention in dispatches or a season at the
front (front.py), a royal pardon, or beating the accuser in a duel (pardon.py).
"""

from __future__ import annotations

from typing import Any

from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month


def disgrace(m: Month, a: Actor, reason: str, accuser: str | None = None,
             **args: Any) -> None:
    """Disgrace ``a`` for ``reason`` (PROPOSED effects, see the module docstring).

    ``accuser``: the man who brought it about (a lender, a lady's champion), if any:
    beating him in a duel ends it (pardon.py)."""
    before = a.sl
    a.sl = max(m.tables.rule("status", "min_sl"), a.sl - 1)
    club = a.c.club
    post = a.c.appointment
    a.update(disgraced=reason, club=None, appointment=None, accuser=accuser)
    if post:  # reference §9 (PROPOSED): a disgraced man holds no appointment
        m.emit(a.key, EventId.APPOINTMENT_LOST,
               {"position": m.tables.army.appointment(post).name, "reason": "disgraced"},
               public=True)
    m.emit(a.key, EventId.HONOUR_DISGRACED,
           {"reason": reason, "sl_before": before, "sl_after": a.sl,
            "club": m.tables.club(club).name if club else None, **args}, public=True)


def end_disgrace(m: Month, a: Actor, reason: str, how: str | None = None) -> None:
    """Lift a disgrace of this kind (a repaid debt, EG §Q; ``how``: a pardon, a duel)."""
    if a.c.disgraced == reason:
        a.update(disgraced=None, accuser=None)
        m.emit(a.key, EventId.HONOUR_RESTORED,
               {"reason": reason, **({"how": how} if how else {})}, public=True)


def cause_for_duel(m: Month, offended: str, offender: str, reason: str, **args: Any) -> None:
    """``offended`` has cause for a duel with ``offender`` (EG §L): a duels-engine matter."""
    m.matter("duel_cause", (offended, offender), reason=reason, **args)
    event_args = {"offended": offended, "offender": offender, "reason": reason, **args}
    m.emit(offended, EventId.HONOUR_CAUSE, event_args, public=True)


def report_crime(m: Month, accused: str, crime: str, kind: str = "crime", **args: Any) -> None:
    """``accused`` is reported to the authorities (EG §R); a matter for the trials engine."""
    m.matter(kind, (accused,), crime=crime, **args)
    m.emit(accused, EventId.HONOUR_REPORTED, {"crime": crime, "kind": kind, **args},
           public=kind == "arrest")
