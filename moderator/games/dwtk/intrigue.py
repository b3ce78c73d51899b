"""Intrigue An Opponent's Card (DWTK 13.4.12, 12.3.3, 14.5.7).

``DO INTRIGUE <player>``: with an Intrigue Opportunity counter, an Any Activity counter
(12.3.1) or by playing an Intrigue Event card, one card at random from that opponent's
hand: a legal card is discarded, an illegal one stays and its owner's PC is accused
(+2 for DOWN WITH THE KING, 23.3) — the draw of `crown.intrigue_card`.  Never from a
hand of three cards or fewer, nor from a FARC Monarch's player (36.10.1).  The counter
used is spent (one activity each, `counters`).
"""

from __future__ import annotations

from moderator.games.dwtk import counters
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.crown import intrigue_card, intrigue_spares
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.state.court import Court


def intrigue(court: Court, player: str, a: Activity) -> None:
    victim = a.who[0]
    if victim not in court.players or victim == player:
        raise Refused("not_an_opponent")
    if intrigue_spares(court, victim):
        raise Refused("spared")
    counters.use(court, player, counters.intrigue(court, player))  # 12.3.3, 14.5.7
    intrigue_card(court, player, victim)
