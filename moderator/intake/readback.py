"""The answers of the player commands that read back and change nothing in the game
(`moderator.intake.commands` finds and dispatches them): ``HELP`` (the guides and a
fresh order form), ``ORDERS`` (the orders that stand), ``RESEND [turn]`` (a published
turn's newsletters, again, to the registered address) and ``STATUS`` (where the game
stands).  Each gives the text of its section of the one reply.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from sqlmodel import Session

from moderator import jsonio
from moderator.clock import as_utc, deadline_for, format_deadline
from moderator.desk import actions as desk_actions
from moderator.desk.errors import DeskError
from moderator.games import find_engine
from moderator.settings.config import Config, game_tables
from moderator.store import repo
from moderator.store.models import Game, Player, Turn
from moderator.store.statuses import GameStatus
from moderator.turn.inputs import standing
from moderator.turn.over import over_words

__all__ = ["help_sections", "orders_text", "published_turn", "resend_text", "status_text"]


def help_sections(config: Config, game: Game, player: Player,
                  turn: Turn) -> tuple[tuple[str, str], ...]:
    """The player's guide, the game's order language and a fresh form, all in the mail."""
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    form = engine.order_form(jsonio.loads(turn.state_before), player.character_key, tables)
    return (("HELP: the player's guide", _doc(config, "players-guide.md")),
            (f"HELP: {engine.title} orders", _doc(config, f"{game.kind}-orders.md")),
            ("HELP: your order form", form))


# A section of a doc written for the GM or for developers ("## The orders JSON (for
# developers)"): HELP mails players the rest.
_NOT_FOR_PLAYERS = re.compile(r"^## .*\(for (?:the GM|developers)\)\s*$")


def _doc(config: Config, name: str) -> str:
    """A file of the project's docs/ folder (beside templates/), as text for a mail to a
    player: without its sections for the GM and for developers."""
    for folder in (config.templates_dir.parent / "docs",
                   Path(__file__).resolve().parents[2] / "docs"):
        if (folder / name).is_file():
            return _for_players(folder.joinpath(name).read_text(encoding="utf-8"))
    return f"({name} is missing from this moderator's installation; ask the GM.)"


def _for_players(text: str) -> str:
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            skipping = bool(_NOT_FOR_PLAYERS.match(line))
        if not skipping:
            kept.append(line)
    return "".join(kept)


def orders_text(session: Session, config: Config, game: Game, player: Player,
                turn: Turn) -> str:
    stands = standing(session, config, game, turn, player)
    if stands is None:
        return f"You have no orders standing for {turn.label}."
    lines = "\n".join(f"    {line}" for line in jsonio.loads(stands.submission.normal_form_json))
    return (f"Your orders v{stands.version} stand for {turn.label} "
            f"({stands.reason}):\n\n{lines or '    (none)'}")


def resend_text(session: Session, config: Config, game: Game, player: Player,
                argument: str) -> str:
    """The gazette and one's own turn sheet, to the registered address whoever asks.

    The turn is named as its gazette names it (`published_turn`): in Down with the King
    the set-up (DWTK 3, Prepare for Play) is printed as "The court assembles" and the
    first turn of play as "Turn 1", so ``RESEND TURN 1`` is the second turn run."""
    number = published_turn(session, game, argument) if argument else None
    queued = desk_actions.resend(session, config, game, number, player.email,
                                 player.email, "RESEND by mail")
    shown = "\n".join(f"  {q.split(': ', 1)[1]}" for q in queued)
    return f"Sent again to {player.email}:\n{shown}"


def _turn_key(name: str) -> str:
    """A turn's name as a player may write it: case and spacing do not matter, and a
    leading TURN is the keyword (``RESEND TURN 1`` names "Turn 1", ``RESEND 1`` too)."""
    return " ".join(name.casefold().split()).removeprefix("turn ")


# How many of the latest turns' names a refused RESEND lists.
_NAMES_SHOWN = 6


def published_turn(session: Session, game: Game, name: str) -> int:
    """The number of the turn whose newsletters were printed under ``name``: the turn's
    label, which titles its gazette and turn sheets (`moderator.publish.newsletter`).
    The latest such turn when several share a label (a muster that waited for players).
    Refused with the names that exist."""
    turns = repo.done_turn_labels(session, game)
    wanted = _turn_key(name)
    found = [number for number, label in turns if _turn_key(label) == wanted]
    if found and wanted != "turn":
        return found[-1]
    latest = list(dict.fromkeys(label for _, label in reversed(turns)))
    if not latest:
        raise DeskError(f"{game.name} has not published a turn yet")
    shown = ", ".join(reversed(latest[:_NAMES_SHOWN]))
    which = ("Which turn?" if wanted == "turn" else
             f"No turn of {game.name} was published as {name!r}.")
    raise DeskError(f"{which} Write RESEND for the last turn, or RESEND and the turn's "
                    f"name as its gazette prints it, e.g. RESEND {latest[0]} (turns "
                    f"published: {'... ' if len(latest) > _NAMES_SHOWN else ''}{shown}).")


def status_text(session: Session, config: Config, game: Game, player: Player, turn: Turn,
                now: datetime) -> str:
    zone = game.time_zone
    last = repo.last_done_turn_label(session, game)
    published = f"Last turn published: {last} (RESEND sends it again)."
    if game.status == GameStatus.FINISHED:  # its last turn ended it: no orders, no deadline
        return "\n".join([f"{over_words(session, game, turn)}.", published])
    # Turns are named as the players' gazettes name them, never by the internal number.
    lines = [f"{game.name}: {turn.label}, {game.status}."]
    if last is not None:
        lines.append(published)
    zones = (zone, player.time_zone)  # the game's, and his own (TIME ZONE) beside it
    if turn.announcement_deadline:
        lines.append(f"Announcements due: {deadline_for(turn.announcement_deadline, *zones)}")
    lines.append(f"Orders due: {deadline_for(turn.deadline, *zones) or 'not set yet'}")
    mine = standing(session, config, game, turn, player)
    lines.append(f"Your orders: v{mine.version} stand." if mine else "Your orders: none yet.")
    if player.absent_until is not None and as_utc(player.absent_until) > now:
        lines.append(f"You are absent until {format_deadline(player.absent_until, zone)}.")
    sent: list[str] = []
    waiting: list[str] = []
    for p in repo.members(session, game):
        got = standing(session, config, game, turn, p)
        (sent if got else waiting).append(p.name)
    if config.game(game.name).status_who_sent:
        lines.append(f"Orders received from: {', '.join(sent) or 'nobody yet'}.")
        lines.append(f"Not yet: {', '.join(waiting) or 'nobody'}.")
    else:  # who is kept private; how many is not
        lines.append(f"Orders received: {len(sent)} of {len(sent) + len(waiting)}.")
    return "\n".join(lines)

