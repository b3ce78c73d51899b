"""Ways out of disgrace (reference §9, PROPOSED (c) and (e)): a royal pardon, and
beating one's accuser in a duel.

* ``PETITION FOR PARDON``: the King, an NPC decision at King level, pardons on 7 on
  1d6 (``trial_rules.pardon_needs``), so only with favours ``USE FAVOUR n ON PARDON
  FOR <him>`` (class 9 = -1, as for every King's decision; others may push AGAINST).
  A pardon ends any disgrace but a debt's: the King does not pay one's creditors (the
  debt's disgrace ends when it is repaid, loans.py).
* A disgrace with an accuser (the lender who demanded a debt publicly, the gentleman
  who championed the wife in a divorce) ends when the disgraced man beats him in a
  duel, first blood or to the death; never a criminal conviction's (the reference's
  exception).
"""

from __future__ import annotations

from moderator.games.engarde import honour, influence
from moderator.games.engarde.events import EventId
from moderator.games.engarde.month import Actor, Month
from moderator.games.engarde.orders import Petition


def petition(m: Month, a: Actor, order: Petition) -> None:
    """PETITION FOR PARDON: the King decides (influence may move him)."""
    reason = a.c.disgraced
    if reason is None or reason == "debt":
        m.emit(a.key, EventId.HONOUR_PARDON_REFUSED,
               {"reason": "not_disgraced" if reason is None else "debt"})
        return
    decision = influence.resolve_npc_decision(
        "king", m.tables.army.trial["pardon_needs"], influence.take_pushes(m, "pardon", a.key),
        m.dice.stream("offices"), m.tables, "the King considers a pardon", actor=a.key)
    if not decision.success:
        m.emit(a.key, EventId.HONOUR_PARDON_REFUSED, {"reason": "king",
                                                      "needed": decision.needed})
        return
    honour.end_disgrace(m, a, reason, how="pardon")


def beaten_accuser(m: Month, winner: Actor, loser: Actor) -> None:
    """A duel won against the man who brought about his disgrace ends it."""
    if winner.c.disgraced and winner.c.disgraced != "conviction" \
            and winner.c.accuser == loser.key:
        honour.end_disgrace(m, winner, winner.c.disgraced, how="duel")
