"""What HELP mails a player is written for players: the order language without the
engine's file names, the GM's decision keys or the developers' JSON (a DWTK player's
HELP began 'Parser: moderator/games/dwtk/orders/parse.py ... round-trip tested in
tests/dwtk/test_orders.py')."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import Engine

from moderator.settings.config import Config
from tests.players.test_commands import _game_of_kind, reply, send

_SOURCE = re.compile(r"[\w/]+\.(py|toml)\b|moderator/|tests/")


@pytest.mark.parametrize(("kind", "title", "an_order"), [
    ("dwtk", "Down with the King", "COUNSEL <counsel> ON <table>"),
    ("fief", "Fief: England", "CANDIDATE"),  # its HELP named orders/errors.py and the forms
    ("engarde", "En Garde!", "PRACTICE"),  # its HELP mailed the GM's keys and the JSON
])
def test_help_names_no_source_file(db: Engine, config: Config, kind: str, title: str,
                                   an_order: str) -> None:
    name, sender, password = _game_of_kind(db, config, kind)
    assert send(db, config, f"PASSWORD: {password}\nHELP\n", sender=sender,
                subject=f"[{name}] help") == "accepted"
    text = reply(db)
    orders = text[text.index(f"HELP: {title} orders"):]
    assert an_order in orders  # the order language is there
    assert not _SOURCE.search(orders), _SOURCE.findall(orders)
    # The docs' sections for the GM (decision keys) and for developers stay out.
    assert "(for the GM)" not in orders and "(for developers)" not in orders
