"""The archive of finished turns (the files `site` and the GM read): written after a turn's
run, atomically, and at start for any finished turn that has none (a run killed after its
commit), from the newsletters the turn committed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.publish.archive import archive_dir, write_archive
from moderator.publish.newsletter import Reader, Rendered, RenderedTurn
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, Newsletter, Turn
from moderator.store.statuses import TurnStatus


def write_archive_atomically(folder: Path, rendered: RenderedTurn, people: list[Reader]) -> None:
    """The archive in a private folder first, then renamed into place: a kill while
    writing leaves no half archive that `write_missing_archives` would take as done.
    An existing archive (a reissue) is rewritten in place: rewriting is harmless."""
    if folder.exists():
        write_archive(folder, rendered, people)
        return
    staging = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    write_archive(staging, rendered, people)
    try:
        os.rename(staging, folder)
    except OSError:  # another writer got there first: its archive is the same
        shutil.rmtree(staging, ignore_errors=True)


def write_missing_archives(db: Engine, config: Config, game_name: str | None = None
                           ) -> list[Path]:
    """Write the archive of every finished turn that has none, from the committed
    newsletters (the latest of each, as a reissue stores new rows); returns the folders."""
    written: list[Path] = []
    with Session(db) as session:
        games = [repo.game_by_name(session, game_name)] if game_name else repo.games(session)
        for game in games:
            done = session.exec(select(Turn).where(
                Turn.game_id == game.id, Turn.status == TurnStatus.DONE
            ).order_by(col(Turn.number))).all()
            for turn in done:
                folder = archive_dir(config, game.name, turn.number)
                committed = None if folder.exists() else _committed_newsletters(session, game,
                                                                                turn)
                if committed is not None:
                    write_archive_atomically(folder, *committed)
                    written.append(folder)
    return written


def _committed_newsletters(session: Session, game: Game, turn: Turn
                           ) -> tuple[RenderedTurn, list[Reader]] | None:
    """The turn's newsletters and readers as stored, or None if it stored none."""
    rows = repo.newsletters(session, game, turn.number)
    gazettes = [r for r in rows if r.kind == "gazette"]
    if not gazettes:
        return None
    stored = jsonio.loads(turn.render_json) or {}
    people = [Reader(int(row[0]), *row[1:]) for row in stored.get("readers", [])]
    sheets = {r.player_id: _rendered(r) for r in rows
              if r.kind == "turnsheet" and r.player_id is not None}
    people = [p for p in people if p.player_id in sheets]
    return RenderedTurn(_rendered(gazettes[-1]), sheets), people


def _rendered(row: Newsletter) -> Rendered:
    return Rendered(row.subject, row.markdown, row.html, row.text)
