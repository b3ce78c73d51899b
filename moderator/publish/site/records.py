"""What the site is built from, read from the database: games, their published gazettes
(with every issue a correction superseded), the states after each turn and its public
events.  Turn sheets are never read: nothing private can reach the site.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import load_only
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.store.models import Game, Newsletter, RolledBackTurn, Turn
from moderator.store.statuses import GameStatus, TurnStatus

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S)


def html_body(html: str) -> str:
    """The body of a stored newsletter page (what the site shows of it)."""
    found = _BODY.search(html)
    return found.group(1).strip() if found else html


@dataclass(frozen=True)
class Edition:
    """One printing of an issue: the current one, or one a correction superseded."""

    subject: str
    html: str  # the whole stored page
    published: datetime | None


@dataclass(frozen=True)
class Issue:
    number: int
    label: str
    current: Edition
    superseded: tuple[Edition, ...]  # oldest first
    correction: str | None


@dataclass(frozen=True)
class TurnResult:
    number: int
    label: str
    before: dict[str, Any]
    after: dict[str, Any]
    events: tuple[dict[str, Any], ...]  # public events only
    deadline: datetime | None
    announcement_deadline: datetime | None


@dataclass(frozen=True)
class GameRecord:
    name: str
    kind: str
    time_zone: str
    issues: tuple[Issue, ...]
    turns: tuple[TurnResult, ...]
    open_turn: tuple[int, str, datetime | None, datetime | None] | None  # deadlines due


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _when(text: str | None) -> datetime | None:
    return _utc(datetime.fromisoformat(text)) if text else None


def _rolled_back(session: Session, game: Game) -> dict[int, list[Edition]]:
    """Every gazette a rollback took out of play, by turn, oldest first."""
    rows = session.exec(select(RolledBackTurn).where(RolledBackTurn.game_id == game.id)
                        .order_by(col(RolledBackTurn.id)))
    out: dict[int, list[Edition]] = {}
    for row in rows:
        turn = jsonio.loads(row.turn_json)
        for letter in jsonio.loads(row.newsletters_json):
            if letter["kind"] == "gazette":
                out.setdefault(row.number, []).append(
                    Edition(letter["subject"], letter["html"], _when(turn.get("adjudicated_at"))))
    return out


def _issues(session: Session, game: Game, turns: dict[int, Turn]) -> list[Issue]:
    gazettes: dict[int, Newsletter] = {}
    for row in session.exec(select(Newsletter).where(Newsletter.game_id == game.id,
                                                     Newsletter.kind == "gazette")
                            .order_by(col(Newsletter.id))):
        gazettes[row.turn_number] = row  # the latest printing of each turn
    old = _rolled_back(session, game)
    issues = []
    for number in sorted(set(gazettes) | set(old)):
        earlier = list(old.get(number, []))
        if number in gazettes:
            row, turn = gazettes[number], turns.get(number)
            current = Edition(row.subject, row.html, _utc(turn.adjudicated_at) if turn else None)
            label = turn.label if turn else row.subject
            correction = turn.correction if turn else None
        else:  # rolled back and not replayed yet: the last printing stands
            current = earlier.pop()
            label, correction = current.subject, None
        superseded: list[Edition] = []
        for edition in earlier:  # a replay that came out the same superseded nothing
            if edition.html != current.html and all(e.html != edition.html for e in superseded):
                superseded.append(edition)
        issues.append(Issue(number, label, current, tuple(superseded), correction))
    return issues


def read_game(session: Session, game: Game) -> GameRecord:
    rows = list(session.exec(select(Turn).where(Turn.game_id == game.id)
                             .order_by(col(Turn.number))))
    done = {t.number: t for t in rows if t.status == TurnStatus.DONE and t.state_after}
    results = tuple(
        TurnResult(t.number, t.label, jsonio.loads(t.state_before), jsonio.loads(t.state_after),
                   tuple(e for e in jsonio.loads(t.events_json or "[]") if e.get("public")),
                   _utc(t.deadline), _utc(t.announcement_deadline))
        for t in done.values())
    waiting = [t for t in rows if t.status != TurnStatus.DONE]
    open_turn = None
    if waiting and game.status != GameStatus.FINISHED:  # a finished game's turn never runs
        t = waiting[0]
        open_turn = (t.number, t.label, _utc(t.deadline), _utc(t.announcement_deadline))
    return GameRecord(game.name, game.kind, game.time_zone,
                      tuple(_issues(session, game, done)), results, open_turn)


def read_games(session: Session, names: Sequence[str] | None = None) -> list[GameRecord]:
    query = select(Game).order_by(col(Game.name))
    games = [g for g in session.exec(query) if names is None or g.name in names]
    return [read_game(session, g) for g in games]


# What `_issues` reads of a turn (its states, inputs and events are left in the database).
_SUMMARY_COLUMNS: Any = (Turn.number, Turn.label, Turn.adjudicated_at, Turn.correction)


def read_summaries(session: Session) -> list[GameRecord]:
    """Every game with its issues only (no states, events or deadlines): what the index
    of games shows, read cheaply for the rebuild of one game after its turn."""
    summaries = []
    for game in session.exec(select(Game).order_by(col(Game.name))):
        done = session.exec(select(Turn).options(load_only(*_SUMMARY_COLUMNS))
            .where(Turn.game_id == game.id, Turn.status == TurnStatus.DONE,
                   col(Turn.state_after).is_not(None)))
        issues = _issues(session, game, {t.number: t for t in done})
        summaries.append(GameRecord(game.name, game.kind, game.time_zone, tuple(issues), (),
                                    None))
    return summaries
