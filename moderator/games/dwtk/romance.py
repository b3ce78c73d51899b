"""DWTK 13.4.16, 18 — being written (helper); raises Refused until then."""

from __future__ import annotations

from moderator.games.dwtk.activity_orders import Activity
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.court import Court
from moderator.games.dwtk.social_orders import Proposal


def propose(court: Court, player: str, proposal: Proposal) -> None:
    raise Refused("not_implemented")


def wedding(court: Court, player: str, a: Activity) -> None:
    raise Refused("not_implemented")
