"""Wording defects found by a play-by-mail audit of DWTK sheets (templates/dwtk, views)."""

from __future__ import annotations

from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.views import names
from tests.dwtk.conftest import EVENTS, TABLES, dealt

JAMES = "22"  # an NC, Minister of Justice in the dealt game


def _line(macro: str, args: dict[str, object], actor: str = "ann") -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    e = {"id": macro.replace("_", ".", 1), "args": args, "actor": actor}
    return str(getattr(EVENTS, macro)(e, nm)).strip()


def test_a_bribed_counsel_is_named_in_words() -> None:
    """DWTK 13.4.20.2, 15.7: the briber read "modifies the counsel raise taxes by +1",
    the counsel's internal key; the counsel is named as the Counseling Tables name it."""
    line = _line("bribe_used", {"character": JAMES, "player": "ann", "roll": "counsel",
                                "key": "raise_taxes", "sign": 1})
    assert 'the counsel "Raise taxes"' in line and "raise taxes" not in line, line


def test_a_counsel_key_has_one_name_in_every_table() -> None:
    """A counsel found in two tables (Extradite a wrongdoer) has the same name in both, so
    its key alone names it (views.names "counsel:<key>")."""
    found: dict[str, set[str]] = {}
    for counsels in TABLES.counseling.values():
        for c in counsels:
            found.setdefault(c.key, set()).add(c.name)
    assert all(len(v) == 1 for v in found.values()), found


def test_a_bribed_problem_is_named_in_words() -> None:
    """DWTK 13.4.20.2, 7.6: a bribed Minister's modifier on a Political Problem."""
    line = _line("bribe_used", {"character": JAMES, "player": "ann", "roll": "problem",
                                "key": "treasury_crisis", "sign": -1})
    assert "the problem Treasury Crisis by -1" in line, line
