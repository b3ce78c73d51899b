"""What the players are sent before a deadline: reminders and the announcements gazette.

Both are sent by scheduler jobs (`moderator.runners.schedule`) for one turn and each at most
once: a reminder claims the turn with a guarded update of ``Turn.reminded_at`` (moving
the deadline clears it, allowing one more), the announcements gazette is recorded as
``announcements.sent`` in the GM log.  Each checks that the turn it was made for is still
the open one, so a job that fires late or twice does nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Engine, or_, update
from sqlmodel import Session, col, select

from moderator.clock import as_utc, format_deadline, format_deadline_for
from moderator.games import find_engine
from moderator.publish import outgoing
from moderator.publish.render import html_to_text, markdown_to_html, render
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.host import panic_reason
from moderator.store.models import Game, GmLog, Newsletter, Player, Turn
from moderator.turn.deadlines import current_turn, now_utc
from moderator.turn.inputs import active_players


def send_reminders(
    db: Engine, config: Config, game_name: str, number: int, *, now: datetime | None = None
) -> list[str]:
    """Remind the players who have sent no orders for turn ``number`` (once per reminder
    time: a game may have several, ``reminder_hours``); absent and removed players, and
    those whose character is out of the game (`active_players`), are not reminded, and
    nothing goes out during a panic."""
    now = now or now_utc()
    if panic_reason(db) is not None:
        return []
    with session_scope(db) as session:
        found = current_turn(session, game_name, number)
        if found is None:
            return []
        game, turn = found
        if turn.deadline is None or as_utc(turn.deadline) <= now:
            return []
        if not _claim_reminder(session, turn, now, _slot(config, game, turn, now)):
            return []
        sent = []
        for player in active_players(session, game, turn, now):
            if not repo.submissions(session, player, turn.number):
                _queue_reminder(session, config, game, turn, player)
                sent.append(player.email)
        repo.log_gm(session, "reminders.sent",
                    f"turn {turn.number}: {len(sent)} without orders"
                    + (f" ({', '.join(sent)})" if sent else ""), game=game)
    return sent


def reminder_hours(config: Config, game: Game) -> list[int]:
    """The game's reminder times (``[games.NAME] reminder_hours``, else the service's)."""
    return config.reminder_hours_of(game.name)


def next_reminder(config: Config, game: Game, turn: Turn) -> datetime | None:
    """The next reminder time not yet served: one after ``reminded_at`` (each reminder
    goes out once; moving the deadline clears ``reminded_at``)."""
    assert turn.deadline is not None
    sent = as_utc(turn.reminded_at) if turn.reminded_at else None
    for hours in reminder_hours(config, game):
        slot = as_utc(turn.deadline) - timedelta(hours=hours)
        if sent is None or sent < slot:
            return slot
    return None


def _slot(config: Config, game: Game, turn: Turn, now: datetime) -> datetime | None:
    """The latest reminder time that has come (None: the first reminder)."""
    assert turn.deadline is not None
    slots = [as_utc(turn.deadline) - timedelta(hours=h) for h in reminder_hours(config, game)]
    come = [s for s in slots if s <= now]
    return max(come) if come else None


def _claim_reminder(session: Session, turn: Turn, now: datetime,
                    slot: datetime | None = None) -> bool:
    """Mark the turn reminded for this reminder time; False when another run (or
    process) already did (``reminded_at`` at or after ``slot``)."""
    unsent: ColumnElement[bool] = col(Turn.reminded_at).is_(None)
    if slot is not None:
        unsent = or_(unsent, col(Turn.reminded_at) < slot)
    claimed = session.execute(
        update(Turn).where(col(Turn.id) == turn.id, unsent).values(reminded_at=now)
        .execution_options(synchronize_session=False)
    )
    session.refresh(turn)
    return claimed.rowcount == 1  # type: ignore[attr-defined]


def _queue_reminder(
    session: Session, config: Config, game: Game, turn: Turn, player: Player
) -> None:
    """One reminder mail (templates/mail/reminder.txt.j2) into the outbox."""
    address = outgoing.game_address(config, game)
    deadline = format_deadline(turn.deadline, game.time_zone)
    text = render(config.templates_dir, "mail/reminder.txt.j2", game=game,
                  player=player, turn=turn, deadline=deadline, address=address,
                  own_deadline=format_deadline_for(turn.deadline, game.time_zone,
                                                   player.time_zone))
    outgoing.queue(session, config, game=game, kind="reminder", to=player.email,
                   subject=f"[{game.name}] Reminder: orders for {turn.label} due "
                           f"{deadline}", text=text)


def announcements_sent(session: Session, game: Game, number: int) -> bool:
    """Whether turn ``number``'s announcements gazette has gone out (it goes once)."""
    return session.exec(
        select(GmLog).where(
            GmLog.game_id == game.id, GmLog.event == "announcements.sent",
            col(GmLog.detail).startswith(f"turn {number}:"),
        )
    ).first() is not None


def announcements_template(config: Config, game: Game) -> str | None:
    """The game's announcements gazette template, if its kind has one."""
    template = f"{game.kind}/announcements.md.j2"
    return template if (config.templates_dir / template).exists() else None


def send_announcements(
    db: Engine, config: Config, game_name: str, number: int, *, now: datetime | None = None
) -> int:
    """Mail the announcements gazette of turn ``number`` to every player (once; not
    during a panic)."""
    now = now or now_utc()
    if panic_reason(db) is not None:
        return 0
    with session_scope(db) as session:
        found = current_turn(session, game_name, number)
        if found is None:
            return 0
        game, turn = found
        if announcements_sent(session, game, number):
            return 0
        if turn.deadline is not None and as_utc(turn.deadline) <= now:
            return 0  # too late to be of use: the orders deadline has passed
        template = announcements_template(config, game)
        if template is None:
            return 0
        people = repo.members(session, game)
        _publish_announcements(session, config, game, turn, template, people)
        repo.log_gm(session, "announcements.sent",
                    f"turn {turn.number}: to {len(people)} players", game=game)
    return len(people)


def _publish_announcements(
    session: Session, config: Config, game: Game, turn: Turn, template: str,
    people: list[Player],
) -> None:
    """Render the gazette, keep it as a newsletter of kind ``announcements``, queue it.
    Its text part is written from the HTML for reading, as the turn's newsletters are
    (aligned tables, 72 columns), never the Markdown source."""
    engine = find_engine(game.kind)
    roster = [(p, bool(repo.submissions(session, p, turn.number))) for p in people]
    subject = f"{engine.gazette_title}: announcements, {turn.label} ({game.name})"
    markdown = render(
        config.templates_dir, template, game=game, title=engine.gazette_title,
        turn=turn, roster=roster, who_sent=config.game(game.name).status_who_sent,
        deadline=format_deadline(turn.deadline, game.time_zone),
        announcements=format_deadline(turn.announcement_deadline, game.time_zone),
    )
    html = markdown_to_html(markdown, subject)
    text = html_to_text(html)
    session.add(Newsletter(game_id=game.id, turn_number=turn.number,  # type: ignore[arg-type]
                           kind="announcements", subject=subject, markdown=markdown,
                           html=html, text=text))
    list_id = f"<{game.name}.{config.moderator_address.replace('@', '.')}>"
    for player in people:
        outgoing.queue(session, config, game=game, kind="announcements", to=player.email,
                       subject=subject, text=text, html=html,
                       extra_headers=(("List-Id", f"{game.name} gazette {list_id}"),))
