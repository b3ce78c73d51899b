"""What lets a player do an activity: Opportunity counters, each good for one activity
(DWTK 12.3.1 Any Activity, 12.3.3 Intrigue, 12.3.4 Scandal), and the cards standing in
for them (14.5.7 Intrigue).

A counter drawn serves **one** activity a turn: once used it is spent (kept in front of
the player until the end of his Player Turn, 12.2, but it enables nothing more).

By email the player cannot say which of his counters and cards an activity should use,
so one fixed order is followed (PROPOSED): the activity's own counter and card when he
has them all; else the Any Activity counter (12.3.1: "no other counters or Event cards
are required"); else an Intrigue card in place of the Intrigue counter (14.5.7).
Counters go back at the end of the turn and cards are kept, so counters come first; the
Any Activity counter comes after the activity's own counter and card so that it stays
for a later activity that has no other way.

A rule works out its `Permit` first (raising `Refused` if there is none), checks
everything else, and only then calls `use`: a refused activity spends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.games.dwtk.acts import Refused, play_card
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import kind_of

ANY_ACTIVITY = "any_activity"
INTRIGUE = "intrigue"


@dataclass(frozen=True)
class Permit:
    """How an activity is enabled: ``counters`` (instances) to spend, ``cards`` (kinds)
    to play from the hand.  ``any_activity``: done with the Any Activity counter."""

    counters: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    @property
    def any_activity(self) -> bool:
        return any(kind_of(c) == ANY_ACTIVITY for c in self.counters)


def unused(court: Court, player: str, kind: str) -> str | None:
    """An Opportunity counter of this kind he drew and has not used this turn."""
    return next((c for c in court.players[player].opportunity
                 if kind_of(c) == kind and (player, c) not in court.spent_counters), None)


def holds(court: Court, player: str, kind: str, count: int = 1) -> bool:
    return len(court.cards_of(player, kind)) >= count


def use(court: Court, player: str, permit: Permit) -> list[str]:
    """Spend the counters (12.3.1, 12.3.3: one activity each) and play the cards (14.2.3:
    discarded); returns the cards played."""
    for counter in permit.counters:
        court.spent_counters.add((player, counter))
    played = []
    for kind in permit.cards:
        card = play_card(court, player, kind)
        court.discard(card)
        played.append(card)
    return played


def any_activity(court: Court, player: str) -> Permit | None:
    counter = unused(court, player, ANY_ACTIVITY)
    return Permit((counter,)) if counter is not None else None


def card_or_any(court: Court, player: str, card: str) -> Permit:
    """An activity done by playing ``card`` (Pardon, Amnesty, Escape, Extradition...);
    without the card, the Any Activity counter (12.3.1)."""
    if holds(court, player, card):
        return Permit(cards=(card,))
    permit = any_activity(court, player)
    if permit is None:
        raise Refused(f"no_card:{card}")
    return permit


def counter_or_any(court: Court, player: str, counter: str) -> Permit:
    """An activity its own counter enables (Expose A Scandal, 12.3.4); without it, the
    Any Activity counter (12.3.1)."""
    own = unused(court, player, counter)
    if own is not None:
        return Permit((own,))
    permit = any_activity(court, player)
    if permit is None:
        raise Refused(f"no_{counter}_counter")
    return permit


def intrigue(court: Court, player: str, card: str | None = None,
             cards: int = 1) -> Permit:
    """One of the Intrigue activities (12.3.3: assassination, intrigue a card, treachery,
    seduction): an Intrigue counter and, where the activity needs one, ``cards`` of its
    ``card`` (Assassination, Treachery); else the Any Activity counter alone (12.3.1);
    else an Intrigue card in place of the counter (14.5.7), with the activity's card."""
    needed = (card,) * cards if card is not None else ()
    has_card = card is None or holds(court, player, card, cards)
    own = unused(court, player, INTRIGUE)
    if own is not None and has_card:
        return Permit((own,), needed)
    permit = any_activity(court, player)
    if permit is not None:
        return permit
    if own is None and holds(court, player, INTRIGUE):
        if has_card:
            return Permit(cards=(INTRIGUE, *needed))
        raise Refused(f"no_card:{card}")
    if own is not None:
        raise Refused(f"no_card:{card}")
    raise Refused("no_intrigue_counter")


def intrigue_only(court: Court, player: str) -> Permit:
    """The Intrigue counter or an Intrigue card itself, never the Any Activity counter:
    ``DO EXTRADITE x WITH INTRIGUE`` (25.3, 25.6) is not one of 12.3.3's activities."""
    own = unused(court, player, INTRIGUE)
    if own is not None:
        return Permit((own,))
    if holds(court, player, INTRIGUE):
        return Permit(cards=(INTRIGUE,))
    raise Refused("no_intrigue_counter")


def combine(*permits: Permit) -> Permit:
    return Permit(tuple(c for p in permits for c in p.counters),
                  tuple(k for p in permits for k in p.cards))


# -- how many activities (player.allowance / player.activities) -------------------------


def held(court: Court, player: str) -> bool:
    """13.1, 24.3, 29.2, 30: his PC is banished, imprisoned or in hiding, or was so this
    turn — one activity "until the turn after his PC is returned to a normal situation",
    whatever he drew or holds.  Returned this turn: held when this turn's Player Turns
    began (`Court.held_pcs`), or set free since then (a pardon, an amnesty, RESTORE,
    UNHIDE: `since` is this turn)."""
    pc = court.pc_of(player)
    if pc is None:
        return False
    returned = court.turn > 0 and pc.since == court.turn
    return not pc.free or pc.id in court.held_pcs or returned


def extra_card(court: Court, player: str) -> bool:
    """14.5.20: he may play an Extra Activity card now — he holds one, and neither Gout
    nor Duel (12.3.6, 12.3.7: no activities at all) nor his PC's situation (13.1, 24.3,
    29.2: "never more") forbids it."""
    kinds = [kind_of(c) for c in court.players[player].opportunity]
    return holds(court, player, "extra_activity") and "gout" not in kinds \
        and "duel" not in kinds and not held(court, player)
