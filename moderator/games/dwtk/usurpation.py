"""Usurpation (DWTK 36) with the Support cards' Usurpation Values (14.5.2, 7.10.5, 7.11,
33.4) and the FARC Monarch's throne (36.6-36.11).

The attempt is the USURP order (orders/usurp.py), made after the player's activities.
A success does not end the turn (36.6: no mourning, 9.4's last sentence); the old
Monarch dies without a succession, the Support is rolled again and the next Crown Event
is a Court Ball.  A failure kills the usurper's PC and FARC (36.7).  Characters
banished, imprisoned, in hiding or stuck at war never count (36.12).
"""

from __future__ import annotations

from typing import Any

from moderator.games.dwtk import faction, status
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_pc
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.usurp import UsurpOrder
from moderator.games.dwtk.state import Character
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.succession import kill_royal
from moderator.games.dwtk.tables import Sex, SupportValue, kind_of

THOMAS, JANE = "thomas", "jane"


def counts(court: Court, c: Character) -> bool:
    """36.12: alive, face up, not banished/imprisoned/hiding, not stuck at war."""
    return c.alive and c.face_down_until is None and c.free and not court.at_war_stuck(c)


def royal_value(court: Court, key: str, why: str, actor: str | None = None) -> int:
    """36.3: dice x multiplier; Thomas one die halved, rounded up."""
    card = court.t.royal(key)
    roll = court.roll("usurpation", card.dice, f"{card.name}'s Usurpation Value ({why})",
                      actor)
    return (roll + 1) // 2 if card.halve else roll * card.times


def _condition(court: Court, player: str, when: str) -> bool:
    kind, _, what = when.partition(":")
    if kind == "fac":
        c = court.characters.get(int(what))
        return c is not None and c.owner == player and c.alive
    if kind == "problem":
        return any(p.key == what for p in court.problems)
    if kind == "crown":
        return court.crown_event == what
    if kind == "ambassador":
        return court.controller(court.offices.get(what)) == player
    return False


def multiplier(court: Court, player: str, sv: SupportValue) -> int:
    """14.5.2 boosted by a FAC, the Crown Event or a problem; 7.10.5 / 7.11 fixed."""
    times = sv.boosted if any(_condition(court, player, w) for w in sv.when) else sv.times
    if sv.at_war is not None and court.wars:
        times = sv.at_war
    if sv.pirates is not None and any(p.key == "pirates" for p in court.problems):
        times = sv.pirates
    return times


def support_value(court: Court, player: str, card: str) -> int:
    """A Support card's Usurpation Value; in a crisis its maximum, unrolled (33.4,
    reading: the highest dice sum times the boosted multiplier)."""
    kind = court.t.card_kind(kind_of(card))
    sv = kind.support
    if sv is None:
        return 0
    if court.crisis:
        count, _, sides = sv.dice.partition("d")
        return int(count or 1) * int(sides) * max(sv.times, sv.boosted)
    roll = court.roll("usurpation", sv.dice, f"{kind.name} (DWTK 36.4.4)", player)
    return roll * multiplier(court, player, sv)


def pc_value(court: Court, player: str) -> int:
    """36.4.2 / 36.8.2: the PC's Status, doubled if married (36.12: spouse free)."""
    pc = court.pc_of(player)
    if pc is None or not counts(court, pc):
        return 0
    value = status.status(court, pc.id)
    spouse = pc.spouse
    if spouse is not None and (not spouse.isdigit() or counts(court, court.char(spouse))):
        value *= 2
    return value


def faction_value(court: Court, player: str, but: str | None) -> int:
    """36.4.3 / 36.8.3: FACs (with the PC's spouse) and FARCs but the one named."""
    total = sum(status.status(court, c.id) for c in court.faction(player) if counts(court, c))
    total += sum(status.royal_status(court, r.key) for r in court.farcs(player) if r.key != but)
    return total


def support_level(court: Court) -> int:
    """36.5.4 / 36.8.5: the Monarch's Support Value."""
    return next(v for low, v in court.t.support_value if court.support >= low)


def _chosen(court: Court, player: str, order: UsurpOrder) -> str:
    """36.2-36.3: his FARC (Jane never), else Thomas."""
    farcs = sorted((r.key for r in court.farcs(player) if r.key != JANE),
                   key=lambda k: (-status.royal_status(court, k), court.t.succession.index(k)
                                  if k in court.t.succession else 99))
    if order.royal in (None, THOMAS) and not farcs:
        return THOMAS
    if order.royal == THOMAS:
        raise Refused("has_farc")  # 36.3
    if order.royal is None:
        return farcs[0]
    if order.royal not in farcs:
        raise Refused("not_farc")
    return order.royal


def _take_cards(court: Court, player: str, order: UsurpOrder) -> list[str]:
    hand = list(court.players[player].hand)
    if order.all_support:
        return [c for c in hand if court.t.card_kind(kind_of(c)).support is not None]
    played = []
    for kind in order.cards:
        card = next((c for c in hand if kind_of(c) == kind), None)
        if card is None:
            raise Refused(f"no_card:{kind}")
        hand.remove(card)
        played.append(card)
    return played


def _play(court: Court, player: str, cards: list[str]) -> int:
    for card in cards:
        court.take_from_hand(player, card)
    return sum(support_value(court, player, card) for card in cards)


def attempt(court: Court, player: str, order: UsurpOrder) -> None:
    """36.1-36.9, 36.13: one attempt; the ratings compared, the higher wins the throne."""
    monarch = court.monarch()
    if monarch is None:
        raise Refused("no_monarch")
    defender = court.royals[monarch].owner
    if defender == player:
        raise Refused("own_monarch")
    royal = _chosen(court, player, order)
    cards = _take_cards(court, player, order)
    attack: dict[str, int] = {
        "royal": royal_value(court, royal, "DWTK 36.4.1", player),
        "pc": pc_value(court, player),
        "faction": faction_value(court, player, royal),
        "support_cards": _play(court, player, cards)}
    defence, defended = _monarch_rating(court, monarch, defender, player)
    won = sum(attack.values()) > sum(defence.values())
    court.emit(EventId.USURPATION, {
        "player": player, "royal": royal, "monarch": monarch, "defender": defender,
        "attack": attack, "defence": defence, "total": sum(attack.values()),
        "against": sum(defence.values()), "cards": [kind_of(c) for c in cards],
        "success": won}, actor=player)
    if won:
        _crown(court, player, royal, monarch, defender, cards, defended)
    else:
        _fail(court, player, royal, monarch, cards, defender, defended)


def _monarch_rating(court: Court, monarch: str, defender: str | None,
                    attacker: str) -> tuple[dict[str, int], list[str]]:
    """36.5 (an NRC Monarch: the other players) or 36.8 (a FARC Monarch's player)."""
    value = royal_value(court, monarch, "DWTK 36.5.1")
    jane = court.royals[JANE]
    if jane.alive and jane.owner == attacker and court.t.royal(monarch).sex is Sex.MALE:
        value //= 2  # 36.5.1 / 36.8.1: his mistress
    rating: dict[str, Any] = {"monarch": value}
    married = court.royals[monarch].spouse is not None
    defended: list[str] = []
    if defender is None:
        george = monarch == "george"
        rating["neutrals"] = sum(status.status(court, c.id) for c in court.characters.values()
                                 if c.owner is None and counts(court, c)) + sum(
            status.royal_status(court, r.key) for r in court.royals.values()
            if r.alive and r.owner is None and r.key not in (monarch, THOMAS)
            and not (george and r.key == "catherine"))
        if george and court.royals["catherine"].alive:
            rating["consort"] = royal_value(court, "catherine", "DWTK 36.5.3") + 10
        elif married:
            rating["consort"] = 10
    else:
        rating["consort"] = 10 if married else 0
        rating["pc"] = pc_value(court, defender)
        rating["faction"] = faction_value(court, defender, monarch)
        # PROPOSED by email: he plays every Support card in his hand and counts those
        # already in front of him (14.5.2); the order cannot ask him mid-turn.
        defended = [c for c in court.players[defender].hand
                    if court.t.card_kind(kind_of(c)).support is not None]
        front = list(court.players[defender].supports_played)
        rating["support_cards"] = _play(court, defender, defended) + sum(
            support_value(court, defender, c) for c in front)
        court.set_player(defender, supports_played=(*front, *defended))
    rating["support"] = support_level(court)
    return rating, defended


def _crown(court: Court, player: str, royal: str, monarch: str, defender: str | None,
           cards: list[str], defended: list[str]) -> None:
    """36.6 / 36.9: the old Monarch dies (no succession, 9.4's last sentence)."""
    if monarch != royal:
        kill_royal(court, monarch, "usurped", succeed=False)
    court.offices["monarch"] = royal
    court.set_royal(royal, owner=player, usurper_of=player)
    if defender is not None:  # 36.9: his PC dies; his Support cards are lost
        for card in court.players[defender].supports_played:
            court.discard(card)
        court.set_player(defender, supports_played=())
        kill_pc(court, defender, "usurped")
    p = court.players[player]
    court.set_player(player, supports_played=(*p.supports_played, *cards))
    court.roll_support("the usurper's Support (DWTK 36.6, 32.4)")
    court.next_crown_event = "court_ball"
    court.farc_monarch_turns = -1  # 37: this turn is not a full turn (end_of_turn: 0)
    ip, pp = faction.gain(court, player, ip=court.t.rule("farc_monarch_bonus_ip"),
                        pp=court.t.rule("farc_monarch_bonus_pp"))  # 36.10.6 (once)
    court.emit(EventId.USURPER_CROWNED, {"player": player, "royal": royal,
                                         "support": court.support, "ip": ip, "pp": pp},
               actor=player)


def _fail(court: Court, player: str, royal: str, monarch: str, cards: list[str],
          defender: str | None, defended: list[str]) -> None:
    """36.7: his PC and FARC die, his Support cards played are discarded; Thomas becomes
    (stays) an NRC (31.2)."""
    for card in cards:
        court.discard(card)
    # 36.7 with 31.5/35.5: both deaths first, then the halved PP total is checked, so
    # the dying FARC no longer counts against it.
    kill_pc(court, player, "usurpation_failed", enforce=False)
    if royal != THOMAS:
        kill_royal(court, royal, "usurpation_failed")
    faction.enforce_limit(court, player)
