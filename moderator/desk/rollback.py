"""`turn rollback` and `turn rollforward` (DPjudge's ROLLBACK / ROLLFORWARD).

Rolling back to turn N reopens turn N with the state it started from and every order
received for it (submissions are never deleted); turns N+1 ... are taken out of play.
Each undone turn (the turn row and its newsletters) is kept as a `RolledBackTurn`, and
the game's status becomes ``rollback``: nothing runs it until the GM rolls forward.

Rolling forward replays the undone turns one by one from what is stored: the same
state, orders, seed, deadlines (each next turn gets back the deadlines it had) and
GM notes.  A turn that comes out the same is byte-identical and is not mailed again.
A turn that comes out differently (the GM amended the state, decided, entered or
accepted orders in between) is a *correction*: its newsletters say CORRECTION in the
subject and in the masthead (the correction note heads the GM notes), and they are
mailed.  Either way the GM log and the audit trail record it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from moderator import jsonio
from moderator.clock import as_utc, format_deadline
from moderator.desk.errors import DeskError
from moderator.games.base import label_in_sentence
from moderator.publish import outgoing
from moderator.publish.newsletter import Rendered, RenderedTurn
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.store.models import Game, Newsletter, RolledBackTurn, Turn
from moderator.store.statuses import GameStatus, RollbackStatus, TurnStatus
from moderator.turn import run as turns
from moderator.turn.deadlines import NextDeadlines, next_deadlines, note_change, now_utc
from moderator.turn.nmr import restore_players

_TIMES = ("deadline", "announcement_deadline", "reminded_at", "adjudicated_at")
_FIELDS = ("number", "label", "seed", "status", "state_before", "state_after",
           "inputs_json", "events_json", "dice_json", "correction", *_TIMES)
_PUBLISHED = ("gazette", "turnsheet")


def _turn_dict(turn: Turn) -> dict[str, Any]:
    data = {name: getattr(turn, name) for name in _FIELDS}
    for name in _TIMES:
        data[name] = as_utc(data[name]).isoformat() if data[name] else None
    return data


def _when(data: dict[str, Any], name: str) -> datetime | None:
    return datetime.fromisoformat(data[name]) if data.get(name) else None


def _pending(session: Session, game: Game) -> dict[int, RolledBackTurn]:
    rows = session.exec(select(RolledBackTurn).where(RolledBackTurn.game_id == game.id,
                                                     RolledBackTurn.status
                                                     == RollbackStatus.PENDING))
    return {row.number: row for row in rows}


def _turns(first: int, last: int) -> str:
    """``turn 2``, ``turns 2-4``."""
    return f"turn {first}" if first == last else f"turns {first}-{last}"


def rollback(session: Session, game: Game, number: int, who: str, reason: str) -> list[int]:
    """Reopen turn ``number``; the turns undone (their numbers)."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.ROLLBACK,
                           GameStatus.FINISHED):
        raise DeskError(f"{game.name} is {game.status}")
    open_turn = repo.open_turn(session, game)
    if not 1 <= number < open_turn.number:
        raise DeskError(f"turn {number} of {game.name} has not run (turn "
                        f"{open_turn.number} is open)")
    turns = list(session.exec(select(Turn).where(Turn.game_id == game.id,
                                                 Turn.number >= number)
                              .order_by(Turn.number)))  # type: ignore[arg-type]
    kept = _pending(session, game)
    entry = audit.record(session, "turn.rollback", reason, who, game=game,
                         turn_number=number,
                         detail=f"back to the start of turn {number}; "
                                f"{_turns(number, open_turn.number - 1)} undone")
    for turn in turns:
        if turn.number in kept:  # rolled back before: keep the original
            continue
        letters = [{"kind": n.kind, "player_id": n.player_id, "subject": n.subject,
                    "markdown": n.markdown, "html": n.html, "text": n.text}
                   for n in repo.newsletters(session, game, turn.number)
                   if n.kind in _PUBLISHED]
        session.add(RolledBackTurn(game_id=game.id, number=turn.number,  # type: ignore[arg-type]
                                   rollback_id=entry.id,  # type: ignore[arg-type]
                                   turn_json=jsonio.dumps(_turn_dict(turn)),
                                   newsletters_json=jsonio.dumps(letters)))
    outgoing.detach(session, game, number, _PUBLISHED)  # their mail keeps its bodies
    for row in session.exec(select(Newsletter).where(Newsletter.game_id == game.id,
                                                     Newsletter.turn_number >= number)):
        if row.kind in _PUBLISHED:
            session.delete(row)
    for turn in turns:
        if turn.number > number:
            session.delete(turn)
    first = turns[0]
    before = (jsonio.loads(first.render_json) or {}).get("players")
    if before is not None:  # how the players stood before this turn's NMR policy
        restore_players(session, game, before)
    first.render_json = None
    first.status = TurnStatus.OPEN
    first.state_after = first.inputs_json = first.events_json = first.dice_json = None
    first.adjudicated_at = None
    session.add(first)
    game.status = GameStatus.ROLLBACK
    session.add(game)
    repo.log_gm(session, "turn.rollback", f"back to turn {number}: {reason}", game=game,
                level="warning")
    note_change(session)
    return [t.number for t in turns if t.number < open_turn.number]


@dataclass(frozen=True)
class Replayed:
    number: int
    label: str
    identical: bool
    rendered: RenderedTurn
    people: list[Any]


def rollforward(session: Session, config: Config, game: Game, who: str,
                reason: str) -> list[Replayed]:
    """Replay every undone turn; see the module docstring."""

    if game.status != GameStatus.ROLLBACK:
        raise DeskError(f"{game.name} has not been rolled back")
    kept = _pending(session, game)
    replayed: list[Replayed] = []
    turn = repo.open_turn(session, game)
    while (turn.number in kept and game.status != GameStatus.FINISHED
           and jsonio.loads(kept[turn.number].turn_json)["status"] == "done"):
        old = jsonio.loads(kept[turn.number].turn_json)
        nxt = jsonio.loads(kept[turn.number + 1].turn_json) if turn.number + 1 in kept else None
        following = _following(game, turn, nxt)
        turns._claim(session, turn)
        done = turns.execute(session, config, game, turn, following,
                             _when(old, "adjudicated_at") or now_utc())
        same = _same(done.rendered, jsonio.loads(kept[turn.number].newsletters_json))
        correction = None if same else _correction(game, turn, old, reason)
        turns.publish(session, config, game, turn, done, correction=correction,
                      mail=not same)
        turns.settle_players(session, config, game, turn, done.inputs)
        replayed.append(Replayed(turn.number, turn.label, same, done.rendered, done.people))
        new = repo.open_turn(session, game)
        if nxt is not None:
            new.reminded_at = _when(nxt, "reminded_at")
            session.add(new)
        turn = new
    for row in kept.values():
        row.status = RollbackStatus.REPLAYED
        session.add(row)
    if game.status != GameStatus.FINISHED:  # a replayed turn may end the game again
        game.status = GameStatus.ACTIVE
    session.add(game)
    summary = ", ".join(f"turn {r.number} {'identical' if r.identical else 'CORRECTED'}"
                        for r in replayed) or "nothing to replay"
    audit.record(session, "turn.rollforward", reason, who, game=game, detail=summary)
    repo.log_gm(session, "turn.rollforward", summary, game=game)
    note_change(session)
    return replayed


def _following(game: Game, turn: Turn, nxt: dict[str, Any] | None) -> NextDeadlines:
    """The deadlines the next turn had before the rollback (else the usual ones)."""
    if nxt is None:

        return next_deadlines(game, turn)
    return NextDeadlines(_when(nxt, "deadline"), _when(nxt, "announcement_deadline"),
                         "as before the rollback")


def _same(rendered: RenderedTurn, old: list[dict[str, Any]]) -> bool:
    """Whether the replay printed exactly what was published before."""
    before = {(n["kind"], n["player_id"]): (n["subject"], n["markdown"], n["html"], n["text"])
              for n in old}
    now: dict[tuple[str, int | None], Rendered] = {("gazette", None): rendered.gazette}
    now.update({("turnsheet", pid): sheet for pid, sheet in rendered.sheets.items()})
    if set(before) != set(now):
        return False
    return all(before[key] == (r.subject, r.markdown, r.html, r.text)
               for key, r in now.items())


def _correction(game: Game, turn: Turn, old: dict[str, Any], reason: str) -> str:
    sent = _when(old, "adjudicated_at")
    when = f" first sent {format_deadline(sent, game.time_zone)}" if sent else ""
    # The --reason stays in the audit log: the gazette prints no GM reason (issue 12).
    # "the one for the muster" (a Fief turn), not "the The muster issue".
    return (f"CORRECTION: this issue replaces the one for {label_in_sentence(turn.label)}"
            f"{when}.")
