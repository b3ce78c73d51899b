"""Events' JSON form: the shared `Event` has a generic ledger; En Garde!'s carries SP and
crowns in it, written exactly as every stored turn so far (``turn rerun`` compares bytes)."""

from __future__ import annotations

import json

from moderator.games.base import Event
from moderator.games.engarde.events import EnGardeEvent, EventId, event


def test_en_garde_events_keep_their_stored_key_order() -> None:
    e = event(EventId.CLUB_DUES, {"club": "Hunters"}, "athos", False, crowns=-10, week=2)
    assert isinstance(e, EnGardeEvent) and (e.sp, e.crowns) == (0, -10)
    assert json.dumps(e.to_dict()) == (
        '{"id": "club.dues", "args": {"club": "Hunters"}, "actor": "athos", '
        '"public": false, "sp": 0, "crowns": -10, "week": 2}')


def test_the_json_form_reads_back_with_its_ledger() -> None:
    e = event(EventId.STATUS_ROSE, {"sl": 5}, "athos", True, sp=3)
    back = Event.from_dict(e.to_dict())
    assert back.ledger == {"sp": 3, "crowns": 0} and back.to_dict() == e.to_dict()


def test_a_game_without_ledgers_writes_none() -> None:
    """The shared Event knows no game's accounts (DWTK has none)."""
    plain = Event("x.y", {"a": 1}, "ann", False)
    assert list(plain.to_dict()) == ["id", "args", "actor", "public", "week"]
    assert Event.from_dict(plain.to_dict()) == plain
