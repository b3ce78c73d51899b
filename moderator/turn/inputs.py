"""Which orders stand for a turn, how late they are, and when the turn is due.

The turn runner (`moderator.turn.run`) calls these; they keep the game rules out of it:

* `turn_inputs`: each player's standing submission: received before the deadline, or
  within ``grace_hours`` after it when ``late_orders = "accept"``, or at any time when
  the GM accepted his late orders (`orders accept-late`); removed players send none;
  then the press settings and the press queue (`moderator.turn.press`);
* `due_at`: when the scheduler runs the turn: the deadline plus ``grace_hours``, or
  earlier with ``early_run`` once every active player has sent orders;
* `out_of_play_at`: the characters who owe no orders (the rules took them out of the
  game: En Garde!'s dead), so nobody waits for, reminds or counts their players;
* after a run, the NMR policy (`moderator.turn.nmr`) counts the misses.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.clock import as_utc
from moderator.games import find_engine
from moderator.games.capabilities import out_of_play
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import AuditEntry, Game, Player, Submission, Turn
from moderator.turn import press

ACCEPT_LATE = "orders.accept-late"
MODERATOR = "moderator"  # who the audit log names for what the service itself did


def accepted_late(session: Session, game: Game, number: int) -> set[int]:
    """Players whose orders for turn ``number`` count whenever they arrived."""
    rows = session.exec(_ACCEPTED_LATE, params={"game_id": game.id, "number": number})
    return {pid for pid in rows if pid is not None}


# Made once (every receipt asks): building a statement costs as much as running it.
_ACCEPTED_LATE = select(AuditEntry.player_id).where(
    AuditEntry.game_id == bindparam("game_id"), AuditEntry.action == ACCEPT_LATE,
    AuditEntry.turn_number == bindparam("number"))


def cutoff(config: Config, game: Game, turn: Turn) -> datetime | None:
    """The last moment orders count (without the GM's accept-late)."""
    if turn.deadline is None:
        return None
    settings = config.game(game.name)
    if settings.late_orders == "accept":
        return as_utc(turn.deadline) + timedelta(hours=settings.grace_hours)
    return as_utc(turn.deadline)


def standing(session: Session, config: Config, game: Game, turn: Turn,
             player: Player) -> repo.Standing | None:
    """The orders of ``player`` that stand for ``turn`` as the run would take them:
    `repo.standing_submission` over the versions received by the cutoff (any time, when
    the GM accepted his late orders).  `orders show`, `game show`, `status`, receipts,
    preview and the run all ask this one function."""
    late = accepted_late(session, game, turn.number)
    last = None if player.id in late else cutoff(config, game, turn)
    return repo.standing_submission(session, player, turn.number, last)


def turn_inputs(session: Session, config: Config, game: Game, turn: Turn,
                ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each character's orders for the run, and notes on what the settings changed."""
    settings = config.game(game.name)
    inputs: dict[str, dict[str, Any]] = {}
    changes: list[str] = []
    for player in repo.members(session, game):
        stands = standing(session, config, game, turn, player)
        if stands is None:
            continue
        chosen = stands.submission
        orders, changed = press.filter_orders(session, settings, chosen.id,  # type: ignore[arg-type]
                                              jsonio.loads(chosen.orders_json))
        changes += [f"{player.character_key}: {c}" for c in changed]
        inputs[player.character_key] = {"submission": chosen.id, "version": chosen.version,
                                        "orders": orders}
    return inputs, changes


def active_players(session: Session, game: Game, turn: Turn, at: datetime) -> list[Player]:
    """Players expected to send orders for ``turn``: not removed, not absent at ``at``,
    their character not out of the game."""
    gone = out_of_play_at(game, turn)
    return [p for p in repo.members(session, game)
            if not is_absent(p, at) and p.character_key not in gone]


def out_of_play_at(game: Game, turn: Turn) -> frozenset[str]:
    """The characters who owe no orders for ``turn``: those the rules took out of the
    game before it (En Garde!'s dead, reference §5.5), read from the state its orders
    are given against (a man killed in this turn still owed its orders)."""
    return out_of_play(find_engine(game.kind), jsonio.loads(turn.state_before))


def is_absent(player: Player, at: datetime) -> bool:
    return player.absent_until is not None and as_utc(player.absent_until) >= as_utc(at)


def due_at(session: Session, config: Config, game: Game, turn: Turn) -> datetime | None:
    """When the turn should run: deadline + grace, or early when all orders are in."""
    if turn.deadline is None:
        return None
    settings = config.game(game.name)
    due = as_utc(turn.deadline) + timedelta(hours=settings.grace_hours)
    if not settings.early_run:
        return due
    people = active_players(session, game, turn, as_utc(turn.deadline))
    latest: datetime | None = None
    for player in people:
        subs = repo.submissions(session, player, turn.number)
        if not subs:
            return due
        received = max(as_utc(s.received_at) for s in subs)
        latest = received if latest is None or received > latest else latest
    if latest is None:  # nobody is expected to send orders: wait for the deadline
        return due
    return min(due, latest + timedelta(minutes=settings.early_run_delay_minutes))


def last_submission(session: Session, player: Player, number: int) -> Submission | None:
    return session.exec(select(Submission).where(
        Submission.player_id == player.id, Submission.turn_number == number)
        .order_by(col(Submission.version).desc())).first()
