"""The GM's own words to the players (`game mail`, `game note`): a letter mailed now from
the game's address, and a note the next gazette prints once; both audited, and the
--reason never reaches a player."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import Engine

from moderator.cli import cli
from moderator.settings.config import Config
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import body_text, gazette_of, mailbox_messages, make_game

LETTER = "Dear players,\n\nThe server moves on Sunday; mail sent then waits for Monday.\n"


def _cli(config: Config, *args: str, ok: bool = True, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args], input=stdin)
    assert (result.exit_code == 0) == ok, (result.output, result.exception)
    return " ".join((result.output + (str(result.exception) if result.exception else ""))
                    .split())


def _letters(config: Config, address: str) -> list[str]:
    return [f"{m['Subject']}|{m['From']}|{body_text(m)}"
            for m in mailbox_messages(config, address) if "A word" in str(m["Subject"])]


def test_a_letter_reaches_every_player_and_the_reason_none(db: Engine, config: Config,
                                                           tmp_path: Path) -> None:
    make_game(db, config)
    letter = tmp_path / "letter.txt"
    letter.write_text(LETTER, encoding="utf-8")
    out = _cli(config, "game", "mail", "paris", "--subject", "A word from the GM",
               "--file", str(letter), "--reason", "the host's disk is failing")
    assert "Queued to 3 players" in out
    for address in ("jacques@lyon.example", "cyrano@bergerac.example",
                    "porthos@musket.example"):
        [mail] = _letters(config, address)
        assert mail.startswith("[paris] A word from the GM|")
        assert "The server moves on Sunday" in mail and "disk" not in mail
    log = _cli(config, "log", "paris")
    assert "game.mail" in log and "the host's disk is failing" in log


def test_a_letter_to_one_player_reaches_him_alone(db: Engine, config: Config) -> None:
    make_game(db, config)
    _cli(config, "game", "mail", "paris", "--subject", "A word on your duel", "--to",
         "cyrano@bergerac.example", "--file", "-", "--reason", "ruling", stdin=LETTER)
    assert len(_letters(config, "cyrano@bergerac.example")) == 1
    assert _letters(config, "jacques@lyon.example") == []
    assert "no player 'nobody@x.example'" in _cli(
        config, "game", "mail", "paris", "--subject", "A word", "--to", "nobody@x.example",
        "--file", "-", "--reason", "r", stdin=LETTER, ok=False)


def test_an_empty_letter_or_a_folded_subject_is_refused(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert "the letter is empty" in _cli(config, "game", "mail", "paris", "--subject", "A word",
                                         "--file", "-", "--reason", "r", stdin=" \n",
                                         ok=False)
    assert "one line" in _cli(config, "game", "mail", "paris", "--subject", "A\nword",
                              "--file", "-", "--reason", "r", stdin=LETTER, ok=False)
    assert _letters(config, "jacques@lyon.example") == []


def test_a_note_is_printed_in_the_next_gazette_once(db: Engine, config: Config) -> None:
    make_game(db, config)
    _cli(config, "game", "note", "paris", "Welcome to *two* new players.",
         "--reason", "new players")
    run_turn(db, config, "paris")
    first = gazette_of(db, 1)
    assert "- Welcome to *two* new players." in first.text
    assert "*two*" in first.html and "<em>" not in first.html  # the GM's text, never markup
    assert rerun_turn(db, config, "paris", 1).identical
    run_turn(db, config, "paris")
    assert "Welcome to" not in gazette_of(db, 2).text
    assert "the note is empty" in _cli(config, "game", "note", "paris", "  ", "--reason", "r",
                                       ok=False)
