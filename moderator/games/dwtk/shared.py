"""Small rules every phase shares: whose character ``PC`` means, spending IP (33.2.1,
34.6) and the discards a player is forced to make (9.4, 14.2.1, 31.5)."""

from __future__ import annotations

from collections.abc import Mapping

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders import PC, TurnOrders
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import kind_of

Orders = Mapping[str, TurnOrders]


def resolve_who(court: Court, player: str, who: str) -> str | None:
    """``pc`` -> the player's PC id; other keys unchanged."""
    if who == PC:
        pc = court.players[player].pc
        return None if pc is None else str(pc)
    return who


def can_spend(court: Court, player: str, amount: int) -> bool:
    """IP may be used: not on a Famine turn (34.6); at most half in a crisis (33.2.1)."""
    p = court.players[player]
    if amount > p.ip:
        return False
    if court.crown_event == "famine":
        return False
    if court.crisis:
        allowed = p.ip_at_start // 2 if p.ip_at_start > 1 else p.ip_at_start
        return p.ip_spent + amount <= allowed
    return True


def spend(court: Court, player: str, amount: int) -> None:
    p = court.players[player]
    court.set_player(player, ip=p.ip - amount, ip_spent=p.ip_spent + amount)


def forced_discards(court: Court, player: str, count: int, reason: str,
                    prefer: tuple[str, ...] = (), keep: tuple[str, ...] = ()) -> None:
    """Discard ``count`` cards the player chooses (9.4, 14.2.1, 31.5).

    By email: the kinds he listed with DISCARD first, then at random among the rest,
    keeping his KEEP kinds and never the DOWN WITH THE KING card (14.2.8).  PROPOSED.
    """
    gone: list[str] = []
    for _ in range(count):
        hand = [c for c in court.players[player].hand if kind_of(c) != "dwtk"]
        if not hand:
            break
        chosen = next((c for k in prefer for c in hand if kind_of(c) == k), None)
        if chosen is None:
            hand.sort()
            pool = [c for c in hand if kind_of(c) not in keep] or hand
            chosen = pool[court.pick_index(len(pool), "discard", f"{reason} discard")]
        court.take_from_hand(player, chosen)
        court.discard(chosen)
        gone.append(chosen)
    if gone:
        court.emit(EventId.CARDS_DISCARDED, {"player": player, "cards": [kind_of(c) for c in gone],
                                             "reason": reason}, actor=player)


def release_cards(court: Court, cid: int | str, reason: str) -> None:
    """14.2.4: a Henchman card is discarded when its character dies or becomes an NC or
    EAC; a Monarch's Counselor card likewise (and on prison, banishment, hiding, office);
    14.2.2: the discard is shown to all, as his former player's."""
    c = court.char(cid)
    cards = [card for card in (c.henchman, c.counselor) if card is not None]
    if not cards:
        return
    for card in cards:
        court.discard(card)
    court.set_char(cid, henchman=None, counselor=None)
    if c.owner is not None:
        court.emit(EventId.CARDS_DISCARDED, {"player": c.owner,
                                             "cards": [kind_of(card) for card in cards],
                                             "reason": reason}, actor=c.owner)
