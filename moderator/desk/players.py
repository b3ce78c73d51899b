"""The GM's levers on players: late orders, orders for an absent player, replacing,
ejecting, absences.  Each one is audited; those that change results leave a note for
the next gazette.  Every function works in the caller's transaction.

The ``reason`` of each stays in the audit log, which only the GM reads (issue 12): the
gazette prints the GM's ``note`` exactly when he gives one, else a plain line saying
what was done, never why."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from moderator import jsonio
from moderator.clock import as_utc, format_deadline
from moderator.desk import admin, names, press
from moderator.desk.errors import DeskError
from moderator.games import find_engine
from moderator.games.base import Severity, label_in_sentence
from moderator.publish import outgoing
from moderator.settings.config import Config, game_tables
from moderator.store import audit, repo
from moderator.store.models import AuditEntry, Game, Player, PlayerAddress, Submission
from moderator.store.passwords import hash_password, server_key, stored_form
from moderator.store.statuses import PlayerStatus
from moderator.turn.deadlines import now_utc
from moderator.turn.inputs import ACCEPT_LATE, accepted_late, cutoff, last_submission


def _gazette_note(note: str | None, plain: str) -> str:
    """What the next gazette prints: the GM's ``note`` as written (on one line), else
    ``plain``, which never carries the reason."""
    return " ".join((note or "").split()) or plain


def accept_late(session: Session, config: Config, game: Game, player: Player, who: str,
                reason: str, *, note: str | None = None) -> Submission:
    """Let the player's latest orders for the open turn count though they came late."""
    turn = repo.open_turn(session, game)
    latest = last_submission(session, player, turn.number)
    if latest is None:
        raise DeskError(f"{player.name} has sent no orders for {label_in_sentence(turn.label)}")
    if player.id in accepted_late(session, game, turn.number):
        raise DeskError(f"{player.name}'s late orders for {label_in_sentence(turn.label)} "
                        "are already accepted")
    last = cutoff(config, game, turn)
    if last is not None and as_utc(latest.received_at) <= last:
        raise DeskError(f"{player.name}'s orders v{latest.version} came in time; "
                        "nothing to accept")
    audit.record(session, ACCEPT_LATE, reason, who, game=game, player=player,
                 turn_number=turn.number, detail=f"v{latest.version} received "
                 f"{format_deadline(latest.received_at, game.time_zone)}",
                 note=_gazette_note(note, f"{player.name}'s orders for "
                                          f"{label_in_sentence(turn.label)} arrived late and "
                                          "were accepted by the GM."))
    return latest


@dataclass(frozen=True)
class ActedAs:
    submission: Submission | None
    normal_form: tuple[str, ...]
    errors: tuple[str, ...]


def act_as(session: Session, config: Config, game: Game, player: Player, text: str,
           who: str, reason: str, *, note: str | None = None) -> ActedAs:
    """Enter orders for a player (absent, or whose mail was lost) through the real
    parser, as a new version of his orders; the player is told (with the reason: the
    mail is his alone).  Orders entered after the deadline count (as if accepted late)."""
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    turn = repo.open_turn(session, game)
    parsed = engine.parse_orders(text, jsonio.loads(turn.state_before),
                                 player.character_key, tables)
    errors = tuple(f"line {e.line}: {e.message}" for e in parsed.errors
                   if e.severity is Severity.ERROR)
    if not parsed.normal_form and errors:
        return ActedAs(None, (), errors)
    now = now_utc()
    version = len(repo.submissions(session, player, turn.number)) + 1
    sub = Submission(game_id=game.id, player_id=player.id,  # type: ignore[arg-type]
                     turn_number=turn.number, version=version, sent_at=now, received_at=now,
                     text=text, orders_json=jsonio.dumps(parsed.orders),
                     normal_form_json=jsonio.dumps(list(parsed.normal_form)),
                     errors_json=jsonio.dumps([e.to_dict() for e in parsed.errors]))
    session.add(sub)
    session.flush()
    if config.game(game.name).press_moderation:
        press.hold(session, game, player, sub, parsed.orders)
    audit.record(session, "player.act-as", reason, who, game=game, player=player,
                 turn_number=turn.number, detail=f"v{version}: {len(parsed.normal_form)} "
                 f"order(s), {len(errors)} error(s)",
                 note=_gazette_note(note, f"The GM entered {player.name}'s orders for "
                                          f"{label_in_sentence(turn.label)}."))
    last = cutoff(config, game, turn)
    if last is not None and now > last and player.id not in accepted_late(
            session, game, turn.number):
        audit.record(session, ACCEPT_LATE, reason, who, game=game, player=player,
                     turn_number=turn.number, detail=f"v{version} entered by the GM")
    lines = "\n".join(f"  {line}" for line in parsed.normal_form)
    outgoing.queue(session, config, game=game, kind="notice", to=player.email,
                   subject=f"[{game.name}] The GM entered orders for {player.name}, "
                           f"{turn.label}",
                   text=f"The GM entered these orders for you ({reason}):\n\n{lines}\n\n"
                        "Orders you send before the deadline replace them.\n")
    return ActedAs(sub, parsed.normal_form, errors)


def replace(session: Session, config: Config, game: Game, old: Player, email: str,
            name: str | None, who: str, reason: str, *, note: str | None = None) -> str:
    """A new player takes over the character: new address, new password, a welcome."""
    email = email.strip().lower()
    if "@" not in email:
        raise DeskError(f"{email!r} is not an email address")
    if repo.player_by_address(session, game, email) is not None:
        raise DeskError(f"{email} already plays in {game.name}")
    if name is not None:
        name = names.tidy(name)
        same = names.clash(name, (p.name for p in repo.players(session, game) if p.id != old.id))
        if same is not None:
            raise DeskError(f"{name!r} reads as {same!r}, a character of {game.name} already")
        admin.refuse_npc_name(config, game, jsonio.loads(
            repo.open_turn(session, game).state_before), name, DeskError)
    previous = f"{old.name} <{old.email}>"
    for link in session.exec(select(PlayerAddress).where(PlayerAddress.player_id == old.id)):
        session.delete(link)
    session.flush()
    password, stored = stored_form(None, server_key(config.key_file))
    old.email, old.password_hash = email, stored
    old.name = name or old.name
    old.status, old.missed_turns, old.absent_until = PlayerStatus.ACTIVE, 0, None
    session.add(old)
    session.add(PlayerAddress(game_id=game.id, player_id=old.id, email=email))  # type: ignore[arg-type]
    engine = find_engine(game.kind)
    turn = repo.open_turn(session, game)
    state = jsonio.loads(turn.state_before)
    character = engine.character_name(state, old.character_key)
    form = engine.order_form(state, old.character_key, game_tables(config, game.name,
                                                                   game.kind))
    outgoing.queue_welcome(session, config, game, old, password, form, turn.label,
                           format_deadline(turn.deadline, game.time_zone))
    audit.record(session, "player.replace", reason, who, game=game, player=old,
                 detail=f"{previous} -> {old.name} <{email}>",
                 note=_gazette_note(note, f"{character} is now played by {old.name}."))
    return password


def eject(session: Session, game: Game, player: Player, who: str, reason: str, *,
          note: str | None = None) -> None:
    """Remove a player: his orders are refused and he gets no more mail; the character
    stays in the game without orders."""
    if player.status == PlayerStatus.REMOVED:
        raise DeskError(f"{player.name} was already removed")
    player.status = PlayerStatus.REMOVED
    session.add(player)
    audit.record(session, "player.eject", reason, who, game=game, player=player,
                 note=_gazette_note(note, f"{player.name} has left the game."))


def absence(session: Session, config: Config, game: Game, player: Player,
            until: datetime, who: str, reason: str) -> datetime:
    """Mark a player absent until the end of ``until``'s day (in the game's zone),
    within the game's cap; misses while absent do not count toward the NMR limit."""
    settings = config.game(game.name)
    if not settings.absences:
        raise DeskError(f"{game.name} does not allow absences (absences = false)")
    end = as_utc(until.replace(tzinfo=None, hour=23, minute=59, second=0)
                 .replace(tzinfo=_zone(game)))
    now = now_utc()
    if end <= now:
        raise DeskError("the absence must end in the future")
    if end - now > timedelta(days=settings.absence_max_days):
        raise DeskError(f"{game.name} allows absences of at most "
                        f"{settings.absence_max_days} days")
    player.absent_until = end
    session.add(player)
    audit.record(session, "player.absence", reason, who, game=game, player=player,
                 detail=f"absent until {format_deadline(end, game.time_zone)}")
    return end


def set_time_zone(session: Session, game: Game, player: Player, zone: str | None,
                  who: str, reason: str) -> None:
    """The player's own time zone (a tz database name, `clock.zone_named`; None: the
    game's only), told beside the game's wherever a deadline is told to him."""
    had = player.time_zone or GAME_ZONE
    player.time_zone = zone
    session.add(player)
    audit.record(session, "player.time-zone", reason, who, game=game, player=player,
                 detail=f"time zone {zone or GAME_ZONE} (was {had})")


GAME_ZONE = "the game's"  # how the audit log writes a player's zone left unset


def _zone(game: Game):  # type: ignore[no-untyped-def]
    from zoneinfo import ZoneInfo

    return ZoneInfo(game.time_zone)


# --- passwords ---------------------------------------------------------------------------

def reset_password(session: Session, config: Config, game: Game, player: Player, who: str,
                   reason: str) -> None:
    """A new password, mailed to the player's registered address only (never shown)."""
    password, player.password_hash = stored_form(None, server_key(config.key_file))
    session.add(player)
    audit.record(session, "player.password-reset", reason, who, game=game, player=player)
    outgoing.queue(session, config, game=game, kind="notice", to=player.email,
                   subject=f"[{game.name}] A new password for {player.name}",
                   text=f"The GM gave you a new password for {game.name}:\n\n"
                        f"  PASSWORD: {password}\n\nYour old password no longer works.\n")


def change_password(session: Session, game: Game, player: Player, password: str) -> None:
    """The player's own PASSWORD command (checked against his old password first)."""
    if len(password) < 4:
        raise DeskError("a password needs at least 4 characters")
    player.password_hash = hash_password(password)  # the player's choice: a slow hash
    session.add(player)
    repo.log_gm(session, "player.password-changed", f"{player.name} <{player.email}>",
                game=game)


# --- joining by mail ---------------------------------------------------------------------

JOIN_REQUEST = "player.join-request"
JOIN_DECIDED = ("player.join-approved", "player.join-rejected")


@dataclass(frozen=True)
class JoinRequest:
    entry_id: int
    email: str
    name: str


class BadName(DeskError):
    """A name a player chose that cannot be a character's (`names`)."""


def request_join(session: Session, config: Config, game: Game, email: str,
                 name: str) -> str:
    """A JOIN GAME by mail, as the game's ``joining`` setting says: ``open`` signs the
    player up at once (the welcome mail goes out), ``approval`` queues the request for
    `player approve|reject`, ``closed`` refuses.  Returns what happened, for the reply.
    The name is one a player chose: refused (`BadName`) unless `names` allows it."""
    joining = config.game(game.name).joining
    email = email.strip().lower()
    if joining == "closed":
        raise DeskError(f"{game.name} is not taking new players.")
    known = repo.player_by_address(session, game, email)
    if known is not None and known.status == PlayerStatus.REMOVED:
        raise DeskError(f"{email} played {known.name} in {game.name}, who has left the "
                        "game; only the GM can bring you back.")
    if known is not None:
        raise DeskError(f"{email} already plays in {game.name}, as {known.name}; send "
                        "HELP with your PASSWORD line for the guide and your order form.")
    name = names.tidy(name)
    shown = repr(name if len(name) <= 60 else name[:60] + "...")
    problem = names.chosen_name_problem(name)
    if problem is not None:
        raise BadName(f"{shown} cannot be a character's name: {problem}.")
    waiting = (r.name for r in pending_joins(session, game) if r.email != email)
    same = names.clash(name, [*(p.name for p in repo.players(session, game)), *waiting])
    if same is not None:
        raise BadName(f"{shown} reads as {same!r}, the name of another character of "
                      f"{game.name}.")
    admin.refuse_npc_name(config, game, jsonio.loads(
        repo.open_turn(session, game).state_before), name, lambda why: BadName(f"{why}."))
    if joining == "open":
        admin.add_player(session, config, game.name, email, name)
        return "added"
    if any(r.email == email for r in pending_joins(session, game)):
        return "already-queued"
    audit.record(session, JOIN_REQUEST, "JOIN GAME by mail", email, game=game,
                 detail=jsonio.dumps({"email": email, "name": name}))
    # The address is a stranger's: RFC 5322 lets it hold ` & | $, which a shell runs if
    # the GM pastes the suggested line; quoted, it is one word (and plain ones stay bare).
    shown = shlex.quote(email)
    outgoing.queue_gm_notice(session, config, game, f"{name} <{email}> asks to join",
                             f"{name} <{email}> asks to join {game.name}.\n\n"
                             f"  moderator player approve {game.name} {shown} --reason ...\n"
                             f"  moderator player reject {game.name} {shown} --reason ...\n")
    return "queued"


def pending_joins(session: Session, game: Game) -> list[JoinRequest]:
    """Join requests no GM has decided yet, oldest first."""
    rows = list(session.exec(select(AuditEntry).where(
        AuditEntry.game_id == game.id,
        col(AuditEntry.action).in_((JOIN_REQUEST, *JOIN_DECIDED))).order_by(col(AuditEntry.id))))
    decided = {r.detail for r in rows if r.action in JOIN_DECIDED}
    found = []
    for row in rows:
        if row.action == JOIN_REQUEST and f"request {row.id}" not in decided:
            data = jsonio.loads(row.detail)
            found.append(JoinRequest(row.id, data["email"], data["name"]))  # type: ignore[arg-type]
    return found


def decide_join(session: Session, config: Config, game: Game, email: str, approve: bool,
                who: str, reason: str) -> JoinRequest:
    """The GM's answer to a join request: approved, the player is signed up (his welcome
    mail goes out, whatever ``joining`` says now); rejected, he is told why."""
    email = email.strip().lower()
    request = next((r for r in pending_joins(session, game) if r.email == email), None)
    if request is None:
        raise DeskError(f"no pending join request from {email} in {game.name}")
    action = JOIN_DECIDED[0] if approve else JOIN_DECIDED[1]
    audit.record(session, action, reason, who, game=game, detail=f"request {request.entry_id}")
    if approve:
        admin.add_player(session, config, game.name, email, request.name, force=True)
    else:
        outgoing.queue(session, config, game=game, kind="notice", to=email,
                       subject=f"[{game.name}] Your request to join",
                       text=f"The GM of {game.name} did not accept your request to join: "
                            f"{reason}\n")
    return request
