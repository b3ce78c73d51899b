"""Intrigue An Opponent's Card (DWTK 13.4.12, 12.3.3, 14.5.7).

``DO INTRIGUE <player>``: with an Intrigue Opportunity counter, an Any Activity counter
(12.3.1) or by playing an Intrigue Event card, one card at random from that opponent's
hand: a legal card is discarded, an illegal one stays and its owner's PC is accused
(+2 for DOWN WITH THE KING, 23.3) — the draw of `crown.intrigue_card`.  Never from a
hand of three cards or fewer, nor from a FARC Monarch's player (36.10.1).
"""

from __future__ import annotations

from moderator.games.dwtk.activity_orders import Activity
from moderator.games.dwtk.acts import Refused, play_card
from moderator.games.dwtk.court import Court
from moderator.games.dwtk.crown import intrigue_card, intrigue_spares
from moderator.games.dwtk.tables import kind_of


def intrigue(court: Court, player: str, a: Activity) -> None:
    victim = a.who[0]
    if victim not in court.players or victim == player:
        raise Refused("not_an_opponent")
    if intrigue_spares(court, victim):
        raise Refused("spared")
    kinds = [kind_of(o) for o in court.players[player].opportunity]
    if "intrigue" not in kinds and "any_activity" not in kinds:
        court.discard(play_card(court, player, "intrigue"))  # 14.5.7
    intrigue_card(court, player, victim)
