"""The GM's levers on a game and on the host: pause, panic, deadlines, decisions,
amendments, resending.  Each one is audited (`moderator.store.audit`); those that change
results leave a note for the next gazette.  Every function works in the caller's
transaction."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from moderator import jsonio
from moderator.clock import as_utc, deadline_for, format_deadline
from moderator.desk import amend
from moderator.desk.errors import DeskError
from moderator.games import find_engine
from moderator.games.base import label_in_sentence
from moderator.publish import outgoing
from moderator.settings.config import Config, game_tables
from moderator.settings.deadline_rule import Rule
from moderator.store import audit, host, repo
from moderator.store.models import Game, Newsletter, Turn
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import note_change, now_utc, set_deadlines, set_rule
from moderator.turn.over import GM_ENDED, rules_ended

# The longest `deadline extend`: a year (beyond it the date soon leaves the calendar).
MAX_EXTEND_HOURS = 366 * 24


def pause(session: Session, game: Game, who: str, reason: str) -> None:
    """Stop the game's clock: no turn runs (orders are still received)."""
    if game.status != GameStatus.ACTIVE:
        raise DeskError(f"{game.name} is {game.status}, not active")
    game.status = GameStatus.PAUSED
    session.add(game)
    audit.record(session, "game.pause", reason, who, game=game)
    note_change(session)


def resume(session: Session, config: Config, game: Game, who: str, reason: str) -> Turn:
    """Start the clock again; a deadline that passed meanwhile runs at once.  A game the
    GM ended (`end`) takes orders again, and its players are told; one its rules ended
    stays over (`turn rollback` takes it back)."""
    if game.status == GameStatus.ROLLBACK:
        raise DeskError(f"{game.name} was rolled back: `turn rollforward` replays it")
    ended = game.status == GameStatus.FINISHED
    if ended and (why := rules_ended(session, game)) is not None:
        raise DeskError(f"{game.name} is over by its rules ({why}): `turn rollback` "
                        "takes it back to an earlier turn")
    if not ended and game.status != GameStatus.PAUSED:
        raise DeskError(f"{game.name} is {game.status}, not paused")
    game.status = GameStatus.ACTIVE
    session.add(game)
    audit.record(session, "game.resume", reason, who, game=game)
    note_change(session)
    turn = repo.open_turn(session, game)
    if ended:
        _tell_players(session, config, game, f"[{game.name}] {turn.label}: the game goes on", [
            f"The GM has reopened {game.name}: {label_in_sentence(turn.label)} takes orders again.",
            f"Orders are due {format_deadline(turn.deadline, game.time_zone)}." if turn.deadline
            else "The GM will mail its deadline."])
    return turn


def end(session: Session, config: Config, game: Game, who: str, reason: str,
        note: str | None) -> Turn:
    """End the game by the GM's decision (a campaign closes, a game is abandoned; En
    Garde! never ends by its rules): no turn runs any more (its open turn is not played,
    its stored orders are kept), mailed orders are refused with ``note`` as the reason,
    STATUS and `status` say so, and every player is told.  `game resume` reopens it."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise DeskError(f"{game.name} is {game.status}: only an active or paused game "
                        "can be ended")
    game.status = GameStatus.FINISHED
    session.add(game)
    turn = repo.open_turn(session, game)
    last = repo.last_done_turn_label(session, game)
    audit.record(session, GM_ENDED, reason, who, game=game, turn_number=turn.number,
                 detail=note or "")
    repo.log_gm(session, "game.finished", f"ended by the GM before "
                f"{label_in_sentence(turn.label)}{': ' + note if note else ''}", game=game)
    note_change(session)
    _tell_players(session, config, game, f"[{game.name}] the game is over", [
        f"The GM has ended {game.name}"
        + (f" after {last}." if last else " before its first turn.")
        + (f"  {note}" if note else ""), "",
        "No more orders are read.  Every issue stays in the archive: RESEND TURN n "
        "mails one again."])
    return turn


def _tell_players(session: Session, config: Config, game: Game, subject: str,
                  lines: list[str]) -> None:
    for player in repo.members(session, game):
        outgoing.queue(session, config, game=game, kind="game-notice", to=player.email,
                       subject=subject, text="\n".join(lines) + "\n")


def panic(session: Session, on: bool, who: str, reason: str) -> None:
    """Stop (or restart) all processing on this host (`moderator.store.host`)."""
    was = host.panic_reason(session)
    if on and was is not None:
        raise DeskError(f"the host is already stopped ({was})")
    if not on and was is None:
        raise DeskError("the host is not stopped")
    host.set_panic(session, f"{reason} ({who}, {now_utc():%Y-%m-%d %H:%M} UTC)" if on else None)
    audit.record(session, "host.panic" if on else "host.panic-off", reason, who)
    repo.log_gm(session, "host.panic" if on else "host.resumed", reason, level="warning")
    note_change(session)


def extend(session: Session, config: Config, game: Game, hours: float, who: str,
           reason: str, *, note: str | None = None) -> Turn:
    """Move the open turn's deadlines ``hours`` later (the reminder may go out again);
    the players are told, with ``note`` when given (the ``reason`` stays in the audit
    log, which only the GM reads)."""
    if not (math.isfinite(hours) and 0 < hours <= MAX_EXTEND_HOURS):
        raise DeskError(f"--hours {hours:g}: give a number of hours above 0 and at most "
                        f"{MAX_EXTEND_HOURS} (a year)")
    turn = repo.open_turn(session, game)
    if turn.deadline is None:
        raise DeskError(f"{game.name} turn {turn.number} has no deadline to extend")
    delta = timedelta(hours=hours)
    ann = turn.announcement_deadline
    new = as_utc(turn.deadline) + delta
    set_deadlines(session, game, new, as_utc(ann) + delta if ann else None)
    audit.record(session, "deadline.extend", reason, who, game=game, turn_number=turn.number,
                 detail=f"+{hours:g} h: orders due {format_deadline(new, game.time_zone)}")
    announce_deadlines(session, config, game, turn,
                       f"extended by {hours:g} hours{': ' + note if note else ''}")
    return turn


def move_deadlines(session: Session, config: Config, game: Game, deadline: datetime,
                   announcements: datetime | None, who: str, reason: str | None, *,
                   force: bool = False, note: str | None = None) -> Turn:
    """`deadline set`: the open turn's deadlines moved by hand (UTC).  A deadline in
    the past is refused without ``force`` (the turn would run at once); the change is
    audited (with ``reason``) and, when the turn had a deadline, announced to the players
    (with ``note`` when given)."""
    now = now_utc()
    _no_announcements_if_one_deadline(config, game, announcements is not None)
    turn = repo.open_turn(session, game)
    if as_utc(deadline) <= now and not force:
        effect = (f"orders received after it will not count when `turn rollforward` "
                  f"replays {label_in_sentence(turn.label)}"
                  if game.status == GameStatus.ROLLBACK else "the turn would run at once")
        raise DeskError(f"{format_deadline(deadline, game.time_zone)} is in the past "
                        f"(now {format_deadline(now, game.time_zone)}): {effect}; add "
                        "--force to set it anyway")
    had = turn.deadline
    turn = set_deadlines(session, game, deadline, announcements)
    detail = f"orders due {format_deadline(deadline, game.time_zone)}" + (
        f" (was {format_deadline(had, game.time_zone)})" if had else "")
    audit.record(session, "deadline.set", reason or "deadline set", who, game=game,
                 turn_number=turn.number, detail=detail)
    if had is not None and as_utc(had) != as_utc(deadline):
        announce_deadlines(session, config, game, turn,
                           f"moved by the GM{': ' + note if note else ''}")
    return turn


def change_rule(session: Session, config: Config, game: Game, rule: Rule | None, who: str,
                reason: str | None, *, apply_now: bool = False,
                note: str | None = None) -> Turn:
    """`deadline rule`: give the game a recurring deadline rule (or clear it, None).  The
    open turn takes the rule's next deadlines if it has none, or with ``apply_now``; the
    change is audited and, when it moved a deadline the turn had, announced to the
    players (with ``note`` when given), as `deadline set` is."""
    _no_announcements_if_one_deadline(
        config, game, rule is not None and rule.announcements_days_before is not None)
    had = repo.open_turn(session, game).deadline
    turn = set_rule(session, game, rule, apply_now=apply_now)
    now = turn.deadline
    moved = now is not None and (had is None or as_utc(had) != as_utc(now))
    detail = (rule.describe() if rule else "rule cleared") + (
        f"; orders due {format_deadline(now, game.time_zone)}" if moved else "")
    audit.record(session, "deadline.rule", reason or "deadline rule", who, game=game,
                 turn_number=turn.number, detail=detail)
    if moved and had is not None:
        announce_deadlines(session, config, game, turn,
                           f"moved by the GM{': ' + note if note else ''}")
    return turn


def _no_announcements_if_one_deadline(config: Config, game: Game, given: bool) -> None:
    """A game with ``deadlines = 1`` has no announcement deadline: one given would still
    mail an announcements gazette in the middle of the turn (the scheduler's job)."""
    if given and config.game(game.name).deadlines == 1:
        raise DeskError(f"{game.name} has one deadline a turn (deadlines = 1 in "
                        "config.toml): no announcement deadline")


def reopened_for_orders(game: Game, turn: Turn) -> bool:
    """Whether a rolled-back game's open turn takes orders again: its deadline, which is
    the cutoff of the orders its replay reads (`moderator.turn.inputs.cutoff`), is still
    ahead, so orders sent now count when `turn rollforward` replays it."""
    return (game.status == GameStatus.ROLLBACK and turn.deadline is not None
            and as_utc(turn.deadline) > now_utc())


def announce_deadlines(session: Session, config: Config, game: Game, turn: Turn,
                       why: str) -> list[str]:
    """Tell every player (not removed) the open turn's new deadlines.

    In a rolled-back game, only when the turn reopens for orders (`reopened_for_orders`),
    and saying so: its players have read its results, and a deadline already past only
    decides which stored orders the replay reads, which is the GM's business."""
    if game.status == GameStatus.ROLLBACK and not reopened_for_orders(game, turn):
        return []
    if game.status == GameStatus.ROLLBACK:
        label = label_in_sentence(turn.label)
        lines = [f"The GM has taken {game.name} back to the start of {label} to play "
                 f"it again: {label} takes orders again, and its results so far will "
                 f"be replaced.  Its deadlines were {why}.", ""]
        subject = f"[{game.name}] {turn.label}: reopened for orders"
    else:
        lines = [f"The deadlines of {game.name}, {label_in_sentence(turn.label)}, were {why}.", ""]
        subject = f"[{game.name}] {turn.label}: new deadline"
    closing = ["", "Orders you have already sent still stand; you may change them until "
               "the deadline."]
    sent = []
    for player in repo.members(session, game):
        zones = (game.time_zone, player.time_zone)  # his own too, when he set one
        due = [f"Orders are now due {deadline_for(turn.deadline, *zones)}."]
        if turn.announcement_deadline:
            due.insert(0, "Announcements and challenges are now due "
                       f"{deadline_for(turn.announcement_deadline, *zones)}.")
        outgoing.queue(session, config, game=game, kind="deadline-moved", to=player.email,
                       subject=subject, text="\n".join(lines + due + closing) + "\n")
        sent.append(player.email)
    return sent


def decide(session: Session, config: Config, game: Game, key: str, value: str, who: str,
           reason: str, *, note: str | None = None) -> Turn:
    """Record a GM decision for the open turn's run (``state["decisions"][key]``).

    The gazette says that a ruling was made (or prints ``note``, when the GM gives one),
    never the key: decision keys are the GM's, and the sheets the decision touches tell
    it in words.  The key, value and ``reason`` stay in the audit log (the GM's)."""
    engine = find_engine(game.kind)
    if not engine.takes_decisions:  # it would be stored, printed, and never read
        raise DeskError(f"{game.name} is a game of {engine.title}, which takes no GM "
                        "decisions: `state amend` changes its state")
    if not key or ":" not in key:
        raise DeskError(f"decision key {key!r}: keys look like cause:<challenger>:"
                        "<challenged> (see docs/engarde-orders.md)")
    turn = repo.open_turn(session, game)
    state = jsonio.loads(turn.state_before)
    decisions = dict(state.get("decisions", {}))
    old = decisions.get(key)
    decisions[key] = value
    state["decisions"] = dict(sorted(decisions.items()))
    _store_state(session, config, game, turn, state)
    was = f" (was {old})" if old is not None else ""
    audit.record(session, "decide", reason, who, game=game, turn_number=turn.number,
                 detail=f"{key} = {value}{was}",
                 note=_public(note) or f"The GM made a ruling for "
                 f"{label_in_sentence(turn.label)}; the turn sheets it touches tell it.")
    return turn


def amend_state(session: Session, config: Config, game: Game, changes: list[amend.Change],
                who: str, reason: str, *, confirm: Any = None,
                note: str | None = None) -> tuple[str, bool]:
    """Apply ``changes`` to the open turn's state.  ``confirm(diff) -> bool`` is asked
    first (None: yes).  Returns the diff and whether it was applied.

    The values changed and the ``reason`` go to the audit log only: a state holds
    secrets (a lady's loyalty, a hand of cards).  The gazette prints ``note`` exactly,
    when the GM gives one, else only that the state was amended."""
    turn = repo.open_turn(session, game)
    before = jsonio.loads(turn.state_before)
    after = amend.amended(before, changes)
    shown = amend.diff(before, after)
    if not shown:
        raise DeskError("the changes leave the state as it is")
    if confirm is not None and not confirm(shown):
        return shown, False
    _store_state(session, config, game, turn, after)
    summary = amend.summary(before, changes, after)
    audit.record(session, "state.amend", reason, who, game=game, turn_number=turn.number,
                 detail="; ".join(c.describe() for c in changes) + f" => {summary}",
                 note=_public(note)
                 or f"The GM amended the state before {label_in_sentence(turn.label)}.")
    return shown, True


def _public(note: str | None) -> str | None:
    """The GM's public note as he wrote it (one line), or None."""
    text = " ".join((note or "").split())
    return text or None


def _store_state(session: Session, config: Config, game: Game, turn: Turn,
                 state: dict[str, Any]) -> None:
    """Keep a changed state, refused with every problem the engine finds in it."""
    tables = game_tables(config, game.name, game.kind)
    problems = find_engine(game.kind).validate_state(state, tables)
    if problems:
        raise DeskError("the amended state is not valid: " + "; ".join(problems))
    turn.state_before = jsonio.dumps(state)
    session.add(turn)


def resend(session: Session, config: Config, game: Game, number: int | None,
           email: str | None, who: str, reason: str) -> list[str]:
    """Queue stored newsletters again (new Message-IDs, subject marked resent): the
    gazette and every turn sheet, or, with ``email``, that player's two."""
    if number is None:
        last = repo.last_done_turn(session, game)
        if last is None:
            raise DeskError(f"{game.name} has not run a turn yet")
        number = last.number
    reader = repo.player_by_email(session, game, email) if email else None
    people = [reader] if reader else repo.members(session, game)
    rows = repo.newsletters(session, game, number)
    gazette = next((n for n in reversed(rows) if n.kind == "gazette"), None)
    if gazette is None:
        raise DeskError(f"no newsletters stored for turn {number}")
    queued = []
    for person in people:
        sheets = [n for n in rows if n.kind == "turnsheet" and n.player_id == person.id]
        for row in (gazette, *sheets[-1:]):
            _queue_again(session, config, game, row, person.email)
            queued.append(f"{person.email}: {row.subject}")
    audit.record(session, "newsletter.resend", reason, who, game=game, turn_number=number,
                 player=reader, detail=f"{len(queued)} mail(s) for turn {number}")
    return queued


def _queue_again(session: Session, config: Config, game: Game, row: Newsletter,
                 to: str) -> None:
    outgoing.queue(session, config, game=game, kind=f"{row.kind}-resent", to=to,
                   subject=f"{row.subject} (resent)", text=row.text, html=row.html,
                   extra_headers=(("X-Moderator-Resent", "yes"),))
