"""Each player's own account of a battle, on his private sheet (FE 7.0-7.8, 4.8).

The gazette prints every battle for all (FE 7.0: the troops are revealed); the sheet of
each player whose families fought says what it cost him: his troops lost and left, his
nobles slain or taken, the captives his side took, and whether his side won.  Only his
own families' figures are in it: another player's sheet never carries them.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.games.fief.army import Side
from moderator.games.fief.events import EventId
from moderator.games.fief.realm import Realm


@dataclass(frozen=True)
class Before:
    """The battle's start: each family's side and nobles there, the units off the map."""

    city: str
    holder: str | None
    roles: dict[str, str]                 # family -> "attacker" | "defender"
    nobles: dict[str, str]                # free noble there -> family
    off_map: dict[tuple[str, str, str], int]
    idle: frozenset[str]                  # roles whose engines cannot fire (FE 7.2)


def before(realm: Realm, attacker: Side, defender: Side, why: str) -> Before:
    roles = {f: "attacker" for f in attacker.families}
    roles.update({f: "defender" for f in defender.families})
    nobles = {n.key: n.family for side in (attacker, defender) for n in side.nobles()}
    # FE 7.2: "Trebuchets and Bombards can only be fired if at least one Men-at-Arms is
    # in the City with them" (a cavalcade and a sally fire none anyway, 5.2, 7.9).
    idle = frozenset(role for role, side in (("attacker", attacker), ("defender", defender))
                     if why not in ("cavalcade", "sally") and not side.units().get("men_at_arms")
                     and (side.units().get("trebuchet") or side.units().get("bombard")))
    return Before(attacker.city, realm.city(attacker.city).holder, roles, nobles,
                  dict(realm.off_map), idle)


def tell(realm: Realm, start: Before, attacker: Side, defender: Side, winner: str,
         outcome: str) -> None:
    """One private `battle.report` for each player with a family in the battle."""
    s = realm.s
    winning = attacker if winner and winner == attacker.label else \
        defender if winner and winner == defender.label else None
    for player in s.player_order():
        mine = [f for f in s.players[player].families if f in start.roles]
        if not mine:
            continue
        ours = [n for n, f in start.nobles.items() if f in mine]
        theirs = [n for n, f in start.nobles.items() if f not in mine]
        my_keys = set(ours)
        realm.emit(EventId.BATTLE_REPORT, {
            "city": start.city,
            "role": start.roles[mine[0]],
            "foes": _foes(start, attacker, defender, mine),
            "outcome": outcome,
            "won": None if winning is None else any(f in winning.families for f in mine),
            "lost": {f: lost for f in mine if (lost := _lost(realm, start, f))},
            "left": {f: u for f in mine if (u := _standing(realm, start.city, f))},
            "slain": [k for k in ours if not s.nobles[k].alive],
            "captured": [[k, s.nobles[k].captor] for k in ours
                         if s.nobles[k].status == "captive"],
            "taken": [k for k in theirs if s.nobles[k].status == "captive"
                      and s.nobles[k].captor in my_keys],
            "holder": _holder(realm, start, mine),
            "idle": start.roles[mine[0]] in start.idle,
        }, actor=player, public=False)


def _foes(start: Before, attacker: Side, defender: Side, mine: list[str]) -> list[str]:
    """The other side's families (the invaders' label for the invaders), as they ended."""
    for side, other in ((attacker, defender), (defender, attacker)):
        if any(f in side.families for f in mine):
            return list(other.families) or [other.label]
    role = start.roles[mine[0]]
    return list((defender if role == "attacker" else attacker).families)


def _holder(realm: Realm, start: Before, mine: list[str]) -> str | None:
    """The city's new holder when the battle changed it and the player won or lost it
    ("" when it is no one's now); None when it is not news to him."""
    after = realm.city(start.city).holder
    if after == start.holder or not ({after, start.holder} & set(mine)):
        return None
    return after or ""


def _lost(realm: Realm, start: Before, family: str) -> dict[str, int]:
    """The family's units taken off the map at the city since the battle began."""
    out: dict[str, int] = {}
    for (city, fam, unit), n in sorted(realm.off_map.items()):
        gone = n - start.off_map.get((city, fam, unit), 0)
        if city == start.city and fam == family and gone:
            out[unit] = gone
    return out


def _standing(realm: Realm, city: str, family: str) -> dict[str, int]:
    return {k: v for k, v in sorted(realm.city(city).units_of(family).items()) if v}
