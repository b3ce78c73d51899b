"""The turn runner: adjudicate a turn from stored inputs, persist, publish.

Running a turn is one transaction: the turn's inputs (the winning submission of
each player), its result (state after, events, dice log), the next open turn, the
rendered newsletters and the outbox rows all commit together or not at all.  The
turn row is claimed with a guarded UPDATE (open -> running), so two runs of the
same turn, even from two processes, adjudicate it once.

The runner also gives the next turn its deadlines (`moderator.turn.deadlines.next_deadlines`:
the game's rule, else the same day next month, slid after an outage) in that same
transaction, before rendering, so the newsletters print the deadline that is stored.

`moderator.turn.rerun` recomputes a finished turn from what this stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, update
from sqlmodel import Session, col

from moderator import jsonio
from moderator.clock import format_deadline, format_deadline_for
from moderator.dice import Dice
from moderator.faults import crash_point
from moderator.games import find_engine
from moderator.games.base import Event, GameEngine
from moderator.games.capabilities import decisions_due, out_of_play
from moderator.publish import outgoing
from moderator.publish.archive import archive_dir
from moderator.publish.newsletter import Reader, Rendered, RenderedTurn, TurnData, render_turn
from moderator.publish.site.after_turn import rebuild_game_site
from moderator.settings.config import Config, game_tables
from moderator.store import audit, repo
from moderator.store.db import session_scope
from moderator.store.host import HostStopped, check_running
from moderator.store.models import Game, Newsletter, Turn
from moderator.store.statuses import GameStatus, TurnStatus
from moderator.turn import press
from moderator.turn.archive import write_archive_atomically, write_missing_archives
from moderator.turn.collector import collector_paused
from moderator.turn.deadlines import NextDeadlines, log_next_deadlines, next_deadlines, note_change
from moderator.turn.inputs import out_of_play_at, turn_inputs
from moderator.turn.nmr import apply_nmr_policy, nmr_outcomes, players_snapshot, sheet_notices


class TurnError(RuntimeError):
    """The turn cannot be run now (already run, game paused ...)."""


@dataclass(frozen=True)
class TurnReport:
    game: str
    number: int
    label: str
    events: int
    rolls: int
    orders_from: tuple[str, ...]
    no_orders_from: tuple[str, ...]
    archive: Path
    next_deadlines: NextDeadlines  # what the turn now open got (UTC)
    time_zone: str  # the game's, for showing them
    finished: str | None = None  # the turn ended the game: why (the engine's words)
    decisions_due: tuple[str, ...] = ()  # GM decisions the next run looks for (GM only)


@dataclass(frozen=True)
class Adjudication:
    state: dict[str, Any]
    events: tuple[Event, ...]
    dice: list[dict[str, Any]]


def adjudicate(
    engine: GameEngine, tables: Any, seed: int, number: int, state: dict, orders: dict
) -> Adjudication:
    """The pure step: stored inputs in, result out (the same inputs, the same result), with
    the garbage collector paused (`collector_paused`: it is most of the growth past linear)."""
    dice = Dice.for_turn(seed, number)
    with collector_paused():
        result = engine.adjudicate(state, orders, tables, dice)
    return Adjudication(result.state, tuple(result.events), dice.log_dicts())


def _claim(session: Session, turn: Turn) -> None:
    """Take the turn (open -> running) so that no other run, in any process, adjudicates it."""
    claimed = session.execute(
        update(Turn)
        .where(col(Turn.id) == turn.id, col(Turn.status) == TurnStatus.OPEN)
        .values(status=TurnStatus.RUNNING)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise TurnError(f"turn {turn.number} is already being run or was run")


def readers(session: Session, game: Game) -> list[Reader]:
    """Who gets the newsletters: every player not removed from the game."""
    return [
        Reader(p.id, p.character_key, p.name, p.email, p.time_zone)  # type: ignore[arg-type]
        for p in repo.members(session, game)
    ]


def render_done_turn(
    config: Config, engine: GameEngine, tables: Any, game: Game, turn: Turn,
    next_deadline: datetime | None, result: Adjudication, people: list[Reader],
    inputs: Mapping[str, Mapping[str, Any]], notes: Sequence[str] = (),
    correction: str | None = None, notices: Mapping[int, str] | None = None,
) -> RenderedTurn:
    """The newsletters of a run turn; shared by `run_turn`, `rerun_turn`, `turn preview`
    and `turn rollforward` so all agree.  ``notes``: the GM notes; ``correction``: the
    note of a reissue (its subjects then say CORRECTION); ``inputs``: the turn's inputs
    by character (whose orders came in: the others' sheets say none did; and each one's
    orders, for a sheet that says what became of them; no sheet of a character out of
    the game, `out_of_play`, says none did); ``notices``: what the NMR policy does to
    each reader after the turn (`nmr.sheet_notices`), on his sheet."""
    before = jsonio.loads(turn.state_before)
    data = TurnData(
        game_name=game.name,
        turn_number=turn.number,
        turn_label=turn.label,
        next_deadline=format_deadline(next_deadline, game.time_zone),
        before=before,
        after=result.state,
        events=result.events,
        dice=result.dice,
        gm_notes=tuple(notes),
        correction=correction,
        orders_from=frozenset(inputs),
        orders={key: value["orders"] for key, value in inputs.items()},
        own_deadlines={r.player_id: own for r in people if (own := format_deadline_for(
            next_deadline, game.time_zone, r.time_zone))},
        notices=notices or {},
        out_of_play=out_of_play(engine, before),
    )
    return render_turn(config.templates_dir, engine, tables, data, people)


def run_turn(
    db: Engine, config: Config, game_name: str, *, number: int | None = None,
    missed: bool = False, now: datetime | None = None,
) -> TurnReport:
    """Adjudicate the open turn of a game, persist it, give the next turn its deadlines,
    and queue its newsletters, all in one transaction; then write its archive and rebuild
    the game's pages of the public site (`rebuild_game_site`, failures only logged).

    ``number``: refuse unless the open turn is that one (a scheduler job checked it just
    before; a GM's ``turn run`` may have got there in between).  ``missed``: the deadline
    passed while the service was down, so the next deadlines slide by
    ``service.outage_slide_hours``.  ``now`` is the time the run counts as (tests).
    Refused while the host is stopped (`moderator panic`).
    """
    now = now or datetime.now(UTC)
    try:
        check_running(db)
    except HostStopped as exc:
        raise TurnError(str(exc)) from None
    # A run killed between its commit and its archive left that archive unwritten: it is
    # written now, from what was committed, before the next turn is run.
    write_missing_archives(db, config, game_name)
    with session_scope(db) as session:
        game, turn = _open_turn(session, game_name, number)
        _claim(session, turn)
        slide = timedelta(hours=config.outage_slide_hours) if missed else timedelta(0)
        following = per_game_deadlines(config, game, next_deadlines(game, turn, slide=slide,
                                                                    now=now))
        done = execute(session, config, game, turn, following, now)
        following = done.following  # none once the game is over
        publish(session, config, game, turn, done)
        crash_point("turn.adjudicated")  # mid-turn: claimed, run, published, not committed
        log_next_deadlines(session, game, turn.number + 1, following, missed=missed)
        note_change(session)
        settle_players(session, config, game, turn, done.inputs)
        report = TurnReport(
            game=game.name,
            number=turn.number,
            label=turn.label,
            events=len(done.result.events),
            rolls=len(done.result.dice),
            orders_from=tuple(sorted(done.inputs)),
            no_orders_from=tuple(sorted({r.character for r in done.people} - set(done.inputs)
                                        - out_of_play_at(game, turn))),
            archive=archive_dir(config, game.name, turn.number),
            next_deadlines=following,
            time_zone=game.time_zone,
            finished=done.finished,
            decisions_due=decisions_due(done.engine, done.result.state),
        )
    crash_point("turn.committed")
    write_archive_atomically(report.archive, done.rendered, done.people)
    crash_point("turn.archived")
    rebuild_game_site(db, config, report.game)  # after the commit; never fails the turn
    return report


def settle_players(session: Session, config: Config, game: Game, turn: Turn,
                   inputs: dict[str, Any]) -> None:
    """Count misses and apply the game's NMR policy, keeping (with the turn's render
    inputs) how the players stood before, so a rollback to this turn can restore it."""
    stored = jsonio.loads(turn.render_json) or {}
    stored["players"] = players_snapshot(session, game)
    turn.render_json = jsonio.dumps(stored)
    session.add(turn)
    for line in apply_nmr_policy(session, config, game, turn, inputs):
        repo.log_gm(session, "player.nmr", line, game=game, level="warning")


def per_game_deadlines(config: Config, game: Game, found: NextDeadlines) -> NextDeadlines:
    """A game with one deadline a turn (``deadlines = 1``) gets no announcement deadline."""
    if config.game(game.name).deadlines == 1 and found.announcements is not None:
        return replace(found, announcements=None)
    return found


@dataclass
class Executed:
    """A turn adjudicated and recorded, its newsletters rendered but not yet stored."""

    engine: GameEngine
    tables: Any
    inputs: dict[str, dict[str, Any]]
    result: Adjudication
    people: list[Reader]
    notes: tuple[str, ...]
    following: NextDeadlines
    rendered: RenderedTurn
    finished: str | None  # the turn ended the game: why
    notices: Mapping[int, str]  # the NMR policy's step for each reader it acts on


def execute(session: Session, config: Config, game: Game, turn: Turn,
            following: NextDeadlines, now: datetime) -> Executed:
    """Adjudicate a claimed turn, record it, open the next one, take the GM notes and
    render the newsletters (shared by `run_turn` and `turn rollforward`)."""
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    inputs, changes = turn_inputs(session, config, game, turn)
    for line in changes:
        repo.log_gm(session, "press.filtered", f"turn {turn.number}: {line}", game=game)
    orders = {key: value["orders"] for key, value in inputs.items()}
    result = adjudicate(
        engine, tables, turn.seed, turn.number, jsonio.loads(turn.state_before), orders
    )
    finished = engine.finished(result.state)
    if finished is not None:
        following = _game_over(session, game, turn, finished)
    _record(session, game, turn, engine, inputs, result, following, now)
    press.expire(session, game, turn.number)
    notes = audit.take_notes(session, game, turn.number)
    people = readers(session, game)
    # The policy runs once the turn is stored (`settle_players`); its sheets say now
    # what it will do.
    notices = sheet_notices(nmr_outcomes(session, config, game, turn, inputs))
    turn.render_json = jsonio.dumps({
        "next_deadline": following.deadline.isoformat() if following.deadline else None,
        "readers": [[r.player_id, r.character, r.name, r.email, r.time_zone]
                    for r in people],
        "notices": {str(pid): text for pid, text in notices.items()},
    })
    rendered = render_done_turn(config, engine, tables, game, turn, following.deadline,
                                result, people, inputs, notes, notices=notices)
    return Executed(engine, tables, inputs, result, people, notes, following, rendered,
                    finished, notices)


def _game_over(session: Session, game: Game, turn: Turn, why: str) -> NextDeadlines:
    """The turn just run ended the game (DWTK 37, FE 8): it is its last.  The game is
    finished: no deadline is set, the scheduler and reminders leave it, intake reads no
    more orders for it (players' commands are still answered), and its last newsletters
    print no deadline.  A turn after it stays open, without deadlines, so `turn
    rollback` can take the game back and go on from there."""
    game.status = GameStatus.FINISHED
    session.add(game)
    repo.log_gm(session, "game.finished", f"turn {turn.number} ({turn.label}): {why}",
                game=game)
    return NextDeadlines(None, None, "the game is over")


def publish(session: Session, config: Config, game: Game, turn: Turn, done: Executed,
            *, correction: str | None = None, mail: bool = True) -> None:
    """Store the newsletters and queue them (``mail``); a ``correction`` re-renders them
    as a corrected reissue first."""
    if correction is not None:
        turn.correction = correction
        session.add(turn)
        done.rendered = render_done_turn(
            config, done.engine, done.tables, game, turn, done.following.deadline,
            done.result, done.people, done.inputs, done.notes, correction, done.notices)
    _store_newsletters(session, config, game, turn.number, done.rendered, done.people, mail)


def _open_turn(session: Session, game_name: str, number: int | None) -> tuple[Game, Turn]:
    """The game's open turn, refused if the game is not active or (when ``number`` is
    given) the open turn is another one: the caller's check is stale."""
    game = repo.game_by_name(session, game_name)
    if game.status != GameStatus.ACTIVE:
        raise TurnError(f"game {game.name} is {game.status}")
    turn = repo.open_turn(session, game)
    if number is not None and turn.number != number:
        raise TurnError(f"turn {number} of {game.name} is not the open turn "
                        f"(turn {turn.number} is)")
    return game, turn


def _record(
    session: Session, game: Game, turn: Turn, engine: GameEngine,
    inputs: dict, result: Adjudication, following: NextDeadlines, now: datetime,
) -> None:
    """Mark the turn done with its inputs and result, and open the next one."""
    turn.status = TurnStatus.DONE
    turn.inputs_json = jsonio.dumps(inputs)
    turn.state_after = jsonio.dumps(result.state)
    turn.events_json = jsonio.dumps([e.to_dict() for e in result.events])
    turn.dice_json = jsonio.dumps(result.dice)
    turn.adjudicated_at = now
    session.add(turn)
    session.add(
        Turn(
            game_id=game.id,  # type: ignore[arg-type]
            number=turn.number + 1,
            label=engine.turn_label(result.state),
            seed=game.seed,
            deadline=following.deadline,
            announcement_deadline=following.announcements,
            state_before=turn.state_after,
        )
    )
    repo.log_gm(
        session, "turn.run", f"turn {turn.number} ({turn.label}): {len(result.events)} events,"
        f" {len(result.dice)} rolls, orders from {len(inputs)}", game=game,
    )


def _store_newsletters(
    session: Session, config: Config, game: Game, number: int,
    rendered: RenderedTurn, people: list[Reader], mail: bool = True,
) -> None:
    gazette = _newsletter_row(game, number, None, "gazette", rendered.gazette)
    session.add(gazette)
    list_id = f"<{game.name}.{config.moderator_address.replace('@', '.')}>"
    for reader in people:
        sheet = _newsletter_row(game, number, reader.player_id, "turnsheet",
                                rendered.sheets[reader.player_id])
        session.add(sheet)
        if not mail:
            continue
        outgoing.queue_newsletter(
            session, config, game=game, kind="gazette", to=reader.email, newsletter=gazette,
            extra_headers=(("List-Id", f"{game.name} gazette {list_id}"),),
        )
        outgoing.queue_newsletter(session, config, game=game, kind="turnsheet",
                                  to=reader.email, newsletter=sheet)


def _newsletter_row(
    game: Game, number: int, player_id: int | None, kind: str, r: Rendered
) -> Newsletter:
    return Newsletter(
        game_id=game.id,  # type: ignore[arg-type]
        turn_number=number,
        player_id=player_id,
        kind=kind,
        subject=r.subject,
        markdown=r.markdown,
        html=r.html,
        text=r.text,
    )
