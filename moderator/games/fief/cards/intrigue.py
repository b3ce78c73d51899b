"""Assassination, Justice, Ambush and Passage (FE 10.2-10.5)."""

from __future__ import annotations

from moderator.games.fief import aftermath
from moderator.games.fief.cards.common import orders_of, take
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    AidInvaders,
    Ambush,
    Assassinate,
    Escape,
    Justice,
)
from moderator.games.fief.realm import Realm


def assassinate(realm: Realm, player: str, order: Assassinate) -> None:
    """FE 10.3: a Sponsor of the player's family takes the Heresy marker; the victim dies
    and his troops stay where they are (dispersal in groups of 4 is not yet modelled)."""
    s = realm.s
    text = f"ASSASSINATE {order.target} BY {order.sponsor}"
    target = s.nobles.get(order.target.lower())
    sponsor = s.nobles.get(order.sponsor.lower())
    if "Assassination" not in s.players[player].hand:
        realm.refuse(player, text, "no Assassination card in your hand")
    elif target is None or not target.alive:
        realm.refuse(player, text, realm.not_living(order.target))
    elif sponsor is None or not sponsor.alive or sponsor.family not in s.players[player].families:
        realm.refuse(player, text, "the Sponsor must be a living noble of your family")
    else:
        take(realm, player, "Assassination")
        s.fortune_discard.append("Assassination")
        for n in s.living():
            n.heresy = False
        sponsor.heresy = True
        realm.emit(EventId.ASSASSINATION, {"target": target.key, "sponsor": sponsor.key},
                   actor=player)
        realm.kill(target, "assassination")
        realm.disperse(target.family, target.city)


def justice(realm: Realm, player: str, order: Justice) -> None:
    """FE 10.4: a noble with the Heresy marker, not of the Royal Family, is executed."""
    s = realm.s
    target = s.nobles.get(order.target.lower())
    text = f"JUSTICE {order.target}"
    if "Justice" not in s.players[player].hand:
        realm.refuse(player, text, "no Justice card in your hand")
    elif target is not None and not target.alive:
        realm.refuse(player, text, f"{target.name} is dead")
    elif target is None or not target.heresy:
        realm.refuse(player, text, "Justice strikes only a noble bearing the Heresy marker "
                                   "(FE 10.4)")
    elif target.key in (s.sovereign, s.queen):
        realm.refuse(player, text, "not the King, the Sovereign Queen or the Queen (FE 10.4)")
    elif realm.city(target.city).building == "abbey":
        realm.refuse(player, text, "an Abbey protects its nobles from Justice (FE 2.13)")
    else:
        take(realm, player, "Justice")
        s.fortune_discard.append("Justice")
        target.heresy = False
        realm.emit(EventId.JUSTICE, {"noble": target.key, "player": player}, actor=player)
        realm.kill(target, "justice")
        realm.disperse(target.family, target.city)


def ambush(realm: Realm, player: str, order: Ambush) -> None:
    """FE 10.5: your free noble captures a noble in the same city, unless he is inside a
    Stronghold or Fortified City (his family holds the city and its walls)."""
    s = realm.s
    target = s.nobles.get(order.target.lower())
    by = s.nobles.get(order.by.lower())
    text = f"AMBUSH {order.target} BY {order.by}"
    if "Ambush" not in s.players[player].hand:
        realm.refuse(player, text, "no Ambush card in your hand")
    elif by is None or not by.free or by.family not in s.players[player].families:
        realm.refuse(player, text, "the ambusher must be a free noble of yours")
    elif target is None or not target.free or target.city != by.city:
        realm.refuse(player, text, f"no free {order.target} with {by.name}")
    elif (realm.city(target.city).holder == target.family
          and realm.city(target.city).building in ("stronghold", "fortified", "royal")):
        realm.refuse(player, text, "a noble in a Stronghold cannot be ambushed (FE 10.5)")
    else:
        take(realm, player, "Ambush")
        s.fortune_discard.append("Ambush")
        realm.emit(EventId.AMBUSH, {"noble": target.key, "by": by.key, "city": by.city})
        realm.capture(target, by.key, by.city)
        realm.disperse(target.family, target.city)


def escape(realm: Realm, player: str, order: Escape) -> None:
    """FE 10.2 (any time): a captive of your choice goes free."""
    s = realm.s
    captive = s.nobles.get(order.captive.lower())
    text = f"PASSAGE FREE {order.captive}"
    if "Passage" not in s.players[player].hand:
        realm.refuse(player, text, "no Passage card in your hand")
    elif captive is None or captive.status != "captive":
        what = ("dead" if captive is not None and not captive.alive
                else "not in play" if captive is None else "no captive")
        realm.refuse(player, text, f"{order.captive} is {what}")
    else:
        take(realm, player, "Passage")
        s.fortune_discard.append("Passage")
        if captive.captor and captive.captor.startswith("invaders:"):
            army = s.invaders.get(captive.captor[9:])
            if army and captive.key in army.captives:
                army.captives.remove(captive.key)
        aftermath.escape(realm, captive)    # FE 7.6, 10.2: placed as the card says


def aid_invaders(realm: Realm, city: str, defender: str) -> bool:
    """FE 10.2 Aid Invaders ("A Player can help Invaders attacking other Players who are
    defending a Stronghold or Fortified City"): the first player in player order, not the
    defender's, with `AID INVADERS AT <city> WITH PASSAGE` and a Passage in hand spends it;
    the invaders attack from the tunnels, without the melee penalty (as 10.2's tunnels)."""
    s = realm.s
    for player in s.player_order():
        if player == realm.account(defender) or "Passage" not in s.players[player].hand:
            continue
        if any(o.city == city for o in orders_of(realm, player).of(AidInvaders)):
            take(realm, player, "Passage")
            s.fortune_discard.append("Passage")
            realm.emit(EventId.PASSAGE_TUNNELS, {"player": player, "city": city,
                                                 "invaders": True})
            return True
    return False
