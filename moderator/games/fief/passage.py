"""Permission to pass (FE 5.0-5.3, 10.2, 11.2): the holder's standing ALLOW lines, what a
group refused passage does by its IF DENIED branch (back, a Passage card, the Burgher's
secret routes, a Cavalcade), and the arrivals that keep a group in its city."""

from __future__ import annotations

from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import Allow
from moderator.games.fief.realm import Realm
from moderator.games.fief.road import Journey, cavalcade


def standing(realm: Realm, player: str) -> list[Allow]:
    out: list[Allow] = []
    for data in realm.s.players[player].standing:
        if data.get("kind") == "allow":
            out.append(Allow(family=data.get("family"), who=data["who"], city=data.get("city")))
    return out


def permits(realm: Realm, holder_family: str, mover: str, city: str) -> bool:
    """FE 5.0: the holder's standing ALLOW lines; with none, permission is denied
    (fief-email.md §2.3 default)."""
    player = realm.account(holder_family)
    if player == mover:
        return True
    mine = realm.s.players[mover].families
    if any(c == city and {a, b} & {holder_family} and {a, b} & set(mine)
           for c, a, b in realm.s.no_battle):
        return True
    return any(a.who in ("ANYONE", mover) and a.city in (None, city)
               for a in standing(realm, player))


def denied(realm: Realm, j: Journey, holder: str) -> bool:
    """FE 5.0, 5.2, 10.2: refused passage, the order's IF DENIED branch; True if it goes on."""
    here, t = j.here, realm.t
    forced = force_the_way(realm, j, holder)     # FE 10.2 Avoid a Battle, or 5.2
    if forced is not None:
        return forced
    if j.order.if_denied == "return" and j.used < t.invaders.moves:
        j.here = j.previous
        for noble in j.group:
            noble.city = j.here
        j.used += 1
        j.trail.append(j.here)
        realm.entries.append((j.here, j.family, here))
        j.stop = f"denied passage at {here}: went back"
    else:
        j.stop = f"denied passage at {here} (FE 5.0): on its outskirts"
    return False


def secret_route(realm: Realm, j: Journey, city: str) -> bool:
    """FE 10.2, 11.2: the order's `IF DENIED PASSAGE` spends a Passage card from the hand,
    `IF DENIED BURGHER` a Treasure on the Burgher card (its Secret Routes, "just like a
    PASSAGE Card"; the card serves only a family with a titled Lord); True if the army is
    guided on."""
    p = realm.s.players[j.player]
    if j.order.if_denied == "passage" and "Passage" in p.hand:
        p.hand.remove("Passage")
        realm.s.fortune_discard.append("Passage")
    elif (j.order.if_denied == "burgher" and (p.slot or "").startswith("Burgher")
          and p.treasures >= 1 and any(n.is_lord for f in p.families
                                       for n in realm.s.living(f))):
        p.treasures -= 1            # FE 11.3: a Treasure for each Burgher action
    else:
        return False
    realm.emit(EventId.PASSAGE_USED, {"family": j.family, "city": city})
    return True


def force_the_way(realm: Realm, j: Journey, against: str) -> bool | None:
    """Refused at ``j.here``: a Passage or the Burgher's routes guide the group on (FE
    10.2, 11.2), or its Knights cavalcade through ``against`` (FE 5.2): True if it goes
    on, False if it is stopped, None if the order has no such branch."""
    if secret_route(realm, j, j.here):
        return True
    if j.order.if_denied != "cavalcade":
        return None
    passed, why = cavalcade(realm, j.family, j.group, j.units, j.here, against)
    j.group = [n for n in j.group if n.free]
    if passed and j.group:
        return True
    j.stop = why
    return False


def kept_in(realm: Realm, j: Journey, step: str) -> str | None:
    """The opposing family whose arrival this round keeps the group in its starting city
    without its leave: it came in by the road the group would take (FE 5.0), or the city
    is a port it has reached (FE 5.4; any way out, fief-email.md A66)."""
    if j.used or j.here != j.start or j.naval:
        return None
    port = j.here in realm.t.ports()
    for city, family, came in realm.entries:
        if (city == j.here and (port or came == step.lstrip("~"))
                and realm.account(family) != j.player and realm.present(city, family)
                and not permits(realm, family, j.player, city)):
            return family
    return None


def leave_anyway(realm: Realm, j: Journey, blocker: str, step: str) -> bool:
    """Kept in: a Passage or the Burgher's routes lead the group out (FE 10.2, 11.2), a
    Cavalcade fights the newcomers at once (FE 5.3 note); else it stays."""
    here = j.here
    forced = force_the_way(realm, j, blocker)
    if forced is not None:
        return forced
    way = "out of the port" if here in realm.t.ports() else f"by the road to {step.lstrip('~')}"
    j.stop = f"{blocker} came into {here} this round: no leaving {way} without leave (FE 5.0, 5.4)"
    return False
