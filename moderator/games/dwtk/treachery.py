"""DWTK 13.4.14 — being written (helper); raises Refused until then."""

from __future__ import annotations

from moderator.games.dwtk.activity_orders import Activity
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.court import Court


def recruit(court: Court, player: str, a: Activity) -> None:
    raise Refused("not_implemented")
