"""Issue 12: GM notes are public only when the GM says so.

Amending a secret value (a lady's loyalty) prints nothing of it in the gazette; the
``--reason`` stays in the audit log; ``--note`` prints exactly the note.
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlmodel import Session

from moderator import jsonio
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.turn.run import run_turn
from tests.publish.conftest import JACQUES, invoke

from support import gazette_of, make_game, order_mail

SECRET_REASON = "she is secretly the Cardinal's spy"


def _lady(db: Engine) -> tuple[str, int]:
    with Session(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
        ladies = jsonio.loads(turn.state_before)["ladies"]
    key = sorted(ladies)[0]
    return key, int(ladies[key]["loyalty"])


def _points_arising(text: str) -> list[str]:
    """The lines under "Points arising" in a gazette's text part."""
    lines = text.split("Points arising", 1)[1].splitlines()[2:]
    out: list[str] = []
    for line in lines:
        if line.startswith("- "):
            out.append(line[2:])
        elif line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        elif line.strip() and not line.startswith(" "):
            break
    return out


def _played_month(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")


def test_amending_a_secret_prints_nothing_of_it(db: Engine, config: Config) -> None:
    _played_month(db, config)
    key, loyalty = _lady(db)
    new = 6 if loyalty != 6 else 1
    path = f"ladies.{key}.loyalty"
    invoke(config, "state", "amend", "paris", "--set", f"{path}={new}", "--reason",
           SECRET_REASON, "--yes")
    process_message(db, config, order_mail("jacques@lyon.example", JACQUES))
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 2)
    for part in (gazette.markdown, gazette.html, gazette.text):
        assert SECRET_REASON not in part and "Cardinal" not in part
        assert "loyalty" not in part.lower() and key not in part and path not in part
    assert _points_arising(gazette.text) == ["The GM amended the state before May 1625."]
    with Session(db) as session:  # the GM's own record keeps everything
        entry = next(e for e in audit.entries(session, repo.game_by_name(session, "paris"))
                     if e.action == "state.amend")
    assert entry.reason == SECRET_REASON and f"-> {new}" in entry.detail


def test_note_prints_exactly_the_note(db: Engine, config: Config) -> None:
    _played_month(db, config)
    key, loyalty = _lady(db)
    note = "A lady of the court has had a change of heart | *nothing more* is known."
    invoke(config, "state", "amend", "paris", "--set",
           f"ladies.{key}.loyalty={6 if loyalty != 6 else 1}", "--reason", SECRET_REASON,
           "--note", note, "--yes")
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 2)
    assert _points_arising(gazette.text) == [note]
    assert SECRET_REASON not in gazette.html
    # Markup in the note is the GM's text too: shown as written, never markup.
    assert "<em>" not in gazette.html and "nothing more" in gazette.html


def test_a_decision_prints_itself_not_the_reason(db: Engine, config: Config) -> None:
    make_game(db, config)
    invoke(config, "decide", "paris", "cause:jacques-de-lyon:cyrano-de-bergerac", "yes",
           "--reason", SECRET_REASON)
    run_turn(db, config, "paris")
    gazette = gazette_of(db, 1)
    assert _points_arising(gazette.text)[0] == (
        "The GM decided cause:jacques-de-lyon:cyrano-de-bergerac = yes for April 1625.")
    assert SECRET_REASON not in gazette.html
