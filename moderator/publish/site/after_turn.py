"""The site rebuilt after every published turn (issue 12: "run after every published turn").

`rebuild_game_site` is called by whoever published, after the commit: `run_turn` (so
``turn run``, ``turn process`` and the scheduler's deadline jobs) and ``turn
rollforward`` (the rerun after a rollback, and a correction's reissue).  Only that game's
pages are rebuilt, plus the index of games; the other games' folders are not touched.

The turn is already committed and mailed when this runs, so a failure here must not undo
or fail it: it goes to the GM log (and the process log), and ``moderator site build``
redoes the site from the database whenever the GM likes.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine
from sqlmodel import Session

from moderator.publish.site.build import build_site
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope

LOG = logging.getLogger(__name__)


def rebuild_game_site(db: Engine, config: Config, game_name: str) -> list[str] | None:
    """Rebuild ``game_name``'s pages of the site (``[site] folder``) unless ``[site]
    after_turn`` is false; the files written, or None when it was off or failed."""
    if not config.site_after_turn:
        return None
    try:
        with Session(db) as session:
            return build_site(session, config, config.site_folder, [game_name.lower()])
    except Exception as exc:  # the turn stands whatever went wrong here
        _log_failure(db, game_name, exc)
        return None


def _log_failure(db: Engine, game_name: str, exc: Exception) -> None:
    LOG.exception("site build of %s after its turn failed", game_name)
    detail = (f"the site of {game_name} was not rebuilt after its turn: {exc!r}; "
              f"`moderator site build {game_name}` retries it")
    try:
        with session_scope(db) as session:
            repo.log_gm(session, "site.failed", detail, game=repo.find_game(session, game_name),
                        level="error")
    except Exception:  # the database itself failing: the process log has it
        LOG.exception("could not log the site failure of %s to the GM log", game_name)
