"""DWTK 13.4.20 — being written (helper); raises Refused until then."""

from __future__ import annotations

from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.court import Court
from moderator.games.dwtk.social_orders import BribeOffer


def solicit(court: Court, player: str, amount: int) -> None:
    raise Refused("not_implemented")


def offer(court: Court, player: str, bribe: BribeOffer) -> None:
    raise Refused("not_implemented")
