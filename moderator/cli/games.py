"""``moderator game new|list|show``: create and inspect games."""

from __future__ import annotations

from datetime import datetime
from typing import TextIO
from zoneinfo import ZoneInfo

import click
from rich.table import Table
from sqlmodel import Session, col, select

from moderator.cli.app import (
    WHEN_OR_DATE,
    App,
    console,
    desk,
    note_option,
    pass_app,
    send_option,
    styled,
)
from moderator.clock import as_utc, format_deadline, format_local
from moderator.desk import actions, admin, letters
from moderator.games import find_engine, game_kinds
from moderator.settings.game import GAME_SETTINGS
from moderator.store import audit, repo
from moderator.store.db import session_scope
from moderator.store.models import GmLog
from moderator.store.statuses import GameStatus, PlayerStatus
from moderator.turn.deadlines import note_change, now_utc, rule_of
from moderator.turn.inputs import standing
from moderator.turn.over import why_over


@click.group()
def game() -> None:
    """Games: create, inspect, pause, resume and end them; write to their players."""


@game.command("new")
@click.argument("name")
@click.option("--kind", type=click.Choice(game_kinds()),
              help="Which game (default: kind in [games.NAME] of config.toml).")
@click.option("--seed", type=int, help="Dice seed (default: random).")
@click.option(
    "--deadline", type=WHEN_OR_DATE,
    help="First deadline, in the game's time zone ([games.NAME] time_zone, else [time] "
         "zone; e.g. '2026-12-12 18:00').",
)
@click.option("--reason", default=None, help="Why, for the audit log (`moderator log`).")
@click.option("--as", "actor", metavar="NAME", help="Who acts (audit log).")
@pass_app
def game_new(app: App, name: str, kind: str | None, seed: int | None,
             deadline: datetime | None, reason: str | None, actor: str | None) -> None:
    """Create game NAME with its first turn open for orders (audited as game.new)."""
    kind = kind or app.config.game(name).kind
    if kind is None:
        raise click.UsageError(f"which game? add --kind ({', '.join(game_kinds())}), or "
                               f'kind = "..." under [games.{name.lower()}] in config.toml')
    zone = ZoneInfo(app.config.game(name).time_zone or app.config.zone.key)  # the game's
    when = as_utc(deadline.replace(tzinfo=zone)) if deadline else None
    now = now_utc()
    if when is not None and when <= now:
        # A year typed wrong at the turn of the year: the first turn would run at once.
        raise click.BadParameter(
            f"{format_deadline(when, zone.key)} is in the past (now "
            f"{format_deadline(now, zone.key)}): the first turn would run at once, with no "
            "orders; give a date to come (or set it after with `deadline set --force`)",
            param_hint="--deadline")
    with session_scope(app.db) as session:
        created = admin.create_game(session, app.config, name, kind, seed=seed, deadline=when)
        audit.record(session, "game.new", reason or "game new", app.who(actor), game=created,
                     detail=f"{kind}, seed {created.seed}")
        note_change(session)
        turn = repo.open_turn(session, created)
        deadline_set = turn.deadline is not None
        due = format_deadline(turn.deadline, created.time_zone)
    console.print(styled("Created {kind} game [bold]{name}[/] (seed {seed}), taking orders "
                         "for {label}.", kind=kind, name=created.name, seed=created.seed,
                         label=turn.label))
    if deadline_set:
        console.print(f"Orders due {due}.")
    else:
        console.print(styled("[yellow]No deadline and no deadline rule[/]: the turn runs "
                             "only when you run it.  Set one with `moderator deadline set "
                             "{name} 'YYYY-MM-DD HH:MM'` or `moderator deadline rule {name} "
                             "...`.", name=created.name))


@game.command("list")
@pass_app
def game_list(app: App) -> None:
    """All games on this host."""
    table = Table("game", "kind", "status", "turn", "deadline", "players")
    with Session(app.db) as session:
        for g in repo.games(session):
            turn = repo.open_turn(session, g)
            over = g.status == GameStatus.FINISHED  # its open turn will not run
            table.add_row(g.name, g.kind, g.status,
                          "-" if over else f"{turn.number}: {turn.label}",
                          "-" if over else format_deadline(turn.deadline, g.time_zone) or "-",
                          str(len(repo.members(session, g))))
    console.print(table)


@game.command("show")
@click.argument("name")
@pass_app
def game_show(app: App, name: str) -> None:
    """One game: its turn, deadline and who has sent orders."""
    with Session(app.db) as session:
        g = repo.game_by_name(session, name)
        turn = repo.open_turn(session, g)
        console.print(styled("[bold]{name}[/] ({title}), {status}, seed {seed}", name=g.name,
                             title=find_engine(g.kind).title, status=g.status, seed=g.seed))
        if g.status == GameStatus.FINISHED:  # its open turn will not run
            console.print(styled("Over: {why}; turn {number} ({label}) will not run",
                                 why=why_over(session, g, turn) or "finished",
                                 number=turn.number, label=turn.label))
        else:
            console.print(f"Turn {turn.number}: {turn.label}; deadline "
                          f"{format_deadline(turn.deadline, g.time_zone) or 'not set'}")
        table = Table("player", "email", "character", "orders this turn")
        for p in repo.players(session, g):
            stands = None if p.status == PlayerStatus.REMOVED \
                else standing(session, app.config, g, turn, p)
            table.add_row(p.name, p.email, p.character_key,
                          "removed" if p.status == PlayerStatus.REMOVED
                          else f"v{stands.version} stands" if stands else "-")
        console.print(table)


@game.command("pause")
@click.argument("game_name", metavar="GAME")
@desk
@pass_app
def game_pause(app: App, game_name: str, reason: str, actor: str | None) -> None:
    """Stop GAME's clock: its turn does not run (orders are still received).

    \b
    moderator game pause paris --reason "GM on holiday until the 20th"
    """
    with session_scope(app.db) as session:
        actions.pause(session, repo.game_by_name(session, game_name), app.who(actor), reason)
    console.print(f"{game_name} is paused; `moderator game resume {game_name} --reason ...` "
                  "restarts it.")


@game.command("resume")
@click.argument("game_name", metavar="GAME")
@desk
@send_option
@pass_app
def game_resume(app: App, game_name: str, reason: str, actor: str | None,
                send: bool) -> None:
    """Restart GAME's clock; a deadline that passed meanwhile runs at once (extend it
    first with `deadline extend` if that is not wanted).  A game ended by `game end`
    takes orders again, and its players are told.

    \b
    moderator game resume paris --reason "back from holiday"
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = actions.resume(session, app.config, g, app.who(actor), reason)
        due = format_deadline(turn.deadline, g.time_zone) or "not set"
    console.print(f"{game_name} is active again; turn {turn.number} orders due {due}.")
    app.deliver(send)


@game.command("end")
@click.argument("game_name", metavar="GAME")
@desk
@click.option("--note", default=None,
              help="What the players are told, and what STATUS and refused orders say "
                   "(the --reason stays in the audit log).")
@send_option
@pass_app
def game_end(app: App, game_name: str, reason: str, note: str | None, actor: str | None,
             send: bool) -> None:
    """End GAME by the GM's decision: its open turn is not played, no turn runs any more,
    mailed orders are refused, and every player is told.  Down with the King and Fief
    end by their own rules; En Garde! ends only so.  `game resume` reopens it.

    \b
    moderator game end paris --reason "campaign over" --note "The campaign closes with 1627."
    """
    with session_scope(app.db) as session:
        g = repo.game_by_name(session, game_name)
        turn = actions.end(session, app.config, g, app.who(actor), reason, note)
    console.print(f"{game_name} is over; its open turn {turn.number} will not run. "
                  f"`moderator game resume {game_name} --reason ...` reopens it.")
    app.deliver(send)


@game.command("mail")
@click.argument("game_name", metavar="GAME")
@click.option("--subject", required=True, help="The subject (the game's name is put before it).")
@click.option("--file", "file_", type=click.File("r", encoding="utf-8"), required=True,
              help="The letter, plain text ('-' reads standard input).")
@click.option("--to", "to", multiple=True, metavar="PLAYER",
              help="A player's address (repeatable); default: every player still in GAME.")
@desk
@send_option
@pass_app
def game_mail(app: App, game_name: str, subject: str, file_: TextIO, to: tuple[str, ...],
              reason: str, actor: str | None, send: bool) -> None:
    """Mail a letter of the GM's to GAME's players now, from the game's address.

    \b
    moderator game mail paris --subject "A word from the GM" --file letter.txt --reason "move"
    moderator game mail paris --subject "Your duel" --to a@b.example --file - --reason "ruling"
    """
    with session_scope(app.db) as session:
        sent = letters.mail_players(session, app.config, repo.game_by_name(session, game_name),
                                    subject, file_.read(), app.who(actor), reason, to=to)
    console.print(f"Queued to {len(sent)} player{'s' if len(sent) != 1 else ''}: "
                  f"{', '.join(sent)}")
    app.deliver(send)


@game.command("note")
@click.argument("game_name", metavar="GAME")
@click.argument("text")
@desk
@pass_app
def game_note(app: App, game_name: str, text: str, reason: str, actor: str | None) -> None:
    """A note of the GM's in GAME's next gazette (its GM notes), printed once.

    \b
    moderator game note paris "Welcome to our two new players." --reason "new players"
    """
    with session_scope(app.db) as session:
        letters.note_for_gazette(session, repo.game_by_name(session, game_name), text,
                                 app.who(actor), reason)
    console.print(f"The next gazette of {game_name} prints the note.")


@game.command("settings")
@click.argument("game_name", metavar="GAME")
@pass_app
def game_settings(app: App, game_name: str) -> None:
    """GAME's settings from config.toml ([games.GAME]), defaults filled in.  GAME is a
    game on this host or a [games.GAME] section (a game not created yet).  A created
    game's kind, time zone and deadline rule are its own (the section's, at `game new`;
    `deadline rule` changes the rule); a game without reminder_hours gets the service's."""
    settings = app.config.game(game_name)
    values = settings.effective()
    notes: dict[str, str] = {}
    if "reminder_hours" not in settings.values:
        values["reminder_hours"] = app.config.reminder_hours_of(game_name)
        notes["reminder_hours"] = " ([service] reminder_hours)"
    with Session(app.db) as session:
        created = repo.find_game(session, game_name)
        if created is None and game_name.lower() not in app.config.games:
            repo.game_by_name(session, game_name)  # refused: a typo would show the defaults
        rule = rule_of(created) if created is not None else None
        if created is not None:
            values["kind"], values["time_zone"] = created.kind, created.time_zone
            notes["kind"] = notes["time_zone"] = " (the game's, set at game new)"
    table = Table("setting", "value", title=f"[games.{game_name}]")
    for s in GAME_SETTINGS:
        table.add_row(s.key, repr(values[s.key]) + notes.get(s.key, ""))
    if created is not None:  # the section's rule was only the first; `deadline rule` rules
        table.add_row("deadline", (rule.describe() if rule else "none (set by hand)")
                      + " (the game's: `deadline rule`)")
    else:
        table.add_row("deadline", repr(dict(settings.deadline)) if settings.deadline else "-")
    table.add_row("tables", ", ".join(sorted(settings.tables)) or "-")
    console.print(table)


@click.command()
@click.option("--off", is_flag=True, help="Resume: everything waiting is processed.")
@desk
@pass_app
def panic(app: App, off: bool, reason: str, actor: str | None) -> None:
    """Stop ALL processing on this host at once (or, with --off, resume it).

    While stopped, `serve` reads no mail, runs no turn, sends nothing; `inbox process`,
    `turn run` and `outbox send` refuse.  Nothing is lost: mail waits in the inbox,
    queued mail stays queued, due turns run after `panic --off`.

    \b
    moderator panic --reason "wrong tables deployed"
    moderator panic --off --reason "tables fixed"
    """
    with session_scope(app.db) as session:
        actions.panic(session, not off, app.who(actor), reason)
    console.print("The host runs again." if off else
                  styled("[red]PANIC[/]: all processing on this host is stopped "
                         "(`moderator panic --off --reason ...` resumes)."))


@click.command()
@click.argument("game_name", metavar="GAME")
@click.argument("key")
@click.argument("value")
@note_option("the decision itself")
@desk
@pass_app
def decide(app: App, game_name: str, key: str, value: str, note: str | None, reason: str,
           actor: str | None) -> None:
    """Record a GM decision KEY = VALUE for GAME's next run (the rules' default applies
    without one; the turn sheet says which applied).  En Garde! keys are listed in
    docs/engarde-orders.md, e.g. cause:<challenger>:<challenged> yes,
    plea:<charge>:<accused> 2, verdict:<charge>:<accused> guilty,
    sentence:<charge>:<accused> fine=3,prison=2.

    \b
    moderator decide paris cause:athos:rochefort yes --reason "he spilt wine on her"
    """
    with session_scope(app.db) as session:
        turn = actions.decide(session, app.config, repo.game_by_name(session, game_name),
                              key, value, app.who(actor), reason, note=note)
    console.print(f"Recorded {key} = {value} for turn {turn.number} ({turn.label}).")


@click.command("log")
@click.argument("game_name", metavar="GAME")
@click.option("--since", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%d %H:%M"]),
              help="Only entries from this date (the game's time zone).")
@click.option("--service", "with_service", is_flag=True,
              help="Also the service's GM log of GAME: each message's fate (accepted, "
                   "refused and why, ignored), mail failed or bounced, turns run "
                   "(`status` shows only its warnings and errors).")
@pass_app
def log(app: App, game_name: str, since: datetime | None, with_service: bool) -> None:
    """The audit trail of GAME: every GM action, who, when and why.

    \b
    moderator log paris --since 2026-12-01
    moderator log paris --service
    """
    lines: list[tuple[datetime, str, str]] = []  # (when, line, detail line)
    with Session(app.db) as session:
        g = repo.game_by_name(session, game_name)
        start = since.replace(tzinfo=_zone(g.time_zone)) if since else None
        for e in audit.entries(session, g, start):
            turn = f" turn {e.turn_number}" if e.turn_number else ""
            noted = (f" [in the gazette of turn {e.noted_in_turn}]" if e.noted_in_turn
                     else " [in the next gazette]" if e.note else "")
            lines.append((as_utc(e.at), f"{_short(e.at, g.time_zone)}  {e.who}  {e.action}"
                                        f"{turn}: {e.reason}{noted}", e.detail))
        if with_service:
            query = select(GmLog).where(GmLog.game_id == g.id).order_by(col(GmLog.id))
            lines += [(as_utc(e.at), f"{_short(e.at, g.time_zone)}  service  {e.event}"
                                     f"{'' if e.level == 'info' else f' ({e.level})'}", e.detail)
                      for e in session.exec(query)
                      if start is None or as_utc(e.at) >= as_utc(start)]
    for _when, line, detail in sorted(lines, key=lambda entry: entry[0]):
        console.print(line, markup=False, highlight=False)
        if detail:
            console.print(f"    {detail}", markup=False, highlight=False)
    if not lines:
        console.print(f"No GM actions logged for {game_name}.")


def _short(moment: datetime, zone: str) -> str:
    return format_local(moment, zone, "%Y-%m-%d %H:%M")


def _zone(name: str):  # type: ignore[no-untyped-def]
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)
