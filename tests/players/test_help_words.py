"""What HELP mails a player is written for players: the order language without the
engine's file names (a DWTK player's HELP began 'Parser: moderator/games/dwtk/orders/
parse.py ... round-trip tested in tests/dwtk/test_orders.py')."""

from __future__ import annotations

import re

from sqlalchemy import Engine

from moderator.settings.config import Config
from tests.players.test_commands import _game_of_kind, reply, send

_SOURCE = re.compile(r"[\w/]+\.(py|toml)\b|moderator/|tests/")


def test_dwtk_help_names_no_source_file(db: Engine, config: Config) -> None:
    name, sender, password = _game_of_kind(db, config, "dwtk")
    assert send(db, config, f"PASSWORD: {password}\nHELP\n", sender=sender,
                subject=f"[{name}] help") == "accepted"
    text = reply(db)
    orders = text[text.index("HELP: Down with the King orders"):]
    assert "COUNSEL <counsel> ON <table>" in orders  # the order language is there
    assert not _SOURCE.search(orders), _SOURCE.findall(orders)
