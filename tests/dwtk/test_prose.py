"""The event prose names women as women (templates/dwtk/events.md.j2 with views.names)."""

from __future__ import annotations

from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.tables import Sex
from moderator.games.dwtk.views import names
from tests.dwtk.conftest import EVENTS, TABLES, dealt


def _hearing(character: str) -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": "justice.hearing", "args": {"character": character, "total": 7, "modifier": 0,
                                           "status": 5, "result": "trial"}}
    return str(EVENTS.justice_hearing(e, nm)).strip()


def test_her_hearing_and_his_hearing() -> None:
    """A woman's hearing is "her" hearing; a man's "his" (DWTK 26 prose)."""
    woman = next(n for n in TABLES.nobles if n.sex is Sex.FEMALE)
    man = next(n for n in TABLES.nobles if n.sex is Sex.MALE)
    assert _hearing(str(woman.id)).startswith(f"At her hearing {woman.name} rolls 7")
    assert _hearing(str(man.id)).startswith(f"At his hearing {man.name} rolls 7")
