"""JOIN GAME from an address the game knows: a player who left is told so (before: "already
plays in paris", to someone refused as "no longer plays" by every other command), and a
player still in it is pointed to HELP."""

from __future__ import annotations

from players.test_commands import JACQUES, mails, send, text_of
from sqlalchemy import Engine

from moderator.desk import players as desk_players
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope

from support import make_game

CYRANO = "cyrano@bergerac.example"


def test_join_from_a_player_who_left(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        desk_players.eject(session, game, repo.player_by_address(session, game, CYRANO),
                           "gm", "left")
    assert send(db, config, "JOIN GAME AS Cyrano Deux\n", sender=CYRANO) == "refused"
    text = text_of(mails(db, "refusal", CYRANO)[-1])
    assert (f"{CYRANO} played Cyrano de Bergerac in paris, who has left the game; only "
            "the GM can bring you back.") in text
    assert "already plays" not in text


def test_join_from_a_player_in_the_game(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "JOIN GAME\n") == "refused"
    assert (f"{JACQUES} already plays in paris, as Jacques de Lyon; send HELP with your "
            "PASSWORD line") in text_of(mails(db, "refusal", JACQUES)[-1])
