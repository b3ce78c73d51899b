"""The answers of the player commands a judge's player expects beside HELP and STATUS
(`moderator.intake.commands` finds and dispatches them): ``GAMES`` (the games open to
join, to anyone), ``FORM`` (a fresh order form), ``DEADLINE [IN zone]`` (the deadlines,
in the player's own time zone too), ``TIME ZONE zone`` (that zone kept for him: every
deadline told to him shows it beside the game's), and the requests a player makes of the
GM by mail:
``TO GM`` (the rest of the mail is passed on), ``RESIGN`` (the player asks to leave)
and ``ADDRESS new@address`` (the player asks to move the game's mail there).

A request is passed on, never carried out by mail: leaving ends a character's play and a
new address takes every private sheet, so the GM decides (`player eject`, `player
address`); a password alone (njudge's ``SET ADDRESS``) would let whoever learnt it take a
player's mail.  Each request is a notice to the GM and a line in his log; the player's
text goes to the GM in plain text only, its password lines left out.
"""

from __future__ import annotations

import re
import shlex

from sqlmodel import Session

from moderator import jsonio
from moderator.clock import UnknownZone, format_deadline, zone_named
from moderator.desk import players as desk_players
from moderator.desk.errors import DeskError
from moderator.games import find_engine
from moderator.intake.sender import usable_address
from moderator.publish import outgoing
from moderator.settings.config import Config, game_tables
from moderator.store import repo
from moderator.store.models import Game, Player, Turn
from moderator.store.statuses import GameStatus

__all__ = ["ask_gm", "ask_new_address", "ask_to_leave", "deadline_text", "form_text",
           "games_text", "set_time_zone"]


def games_text(session: Session, config: Config) -> str:
    """The games a newcomer may join by mail (``joining`` open or approval, not over),
    each with what he writes to join it."""
    lines = []
    for name in sorted(repo.game_names(session)):
        game = repo.find_game(session, name)
        joining = config.game(name).joining
        if game is None or joining == "closed" or game.status == GameStatus.FINISHED:
            continue
        turn = repo.open_turn(session, game)
        due = format_deadline(turn.deadline, game.time_zone)
        how = "at once" if joining == "open" else "after the GM's approval"
        lines.append(f"  {name}: {find_engine(game.kind).title}, {turn.label}, "
                     f"{len(repo.members(session, game))} players;\n    "
                     f"{f'orders due {due}' if due else 'no deadline set yet'};\n    joins {how}.")
    if not lines:
        return "No game is open to new players just now; write to the GM to be told."
    return ("Games open to new players:\n\n" + "\n".join(lines) + "\n\nTo join one, "
            "send the line JOIN GAME and its name, e.g.\n\n    JOIN GAME "
            f"{lines[0].split(':')[0].strip()} AS Jacques de Lyon\n\n(with the name you "
            "want for your character).")


def form_text(config: Config, game: Game, player: Player, turn: Turn) -> str:
    """A fresh order form for the open turn, as HELP's last section gives it."""
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    return engine.order_form(jsonio.loads(turn.state_before), player.character_key, tables)


def deadline_text(game: Game, player: Player, turn: Turn, zone: str = "") -> str:
    """The open turn's deadlines in the game's zone, and in ``zone`` when the player
    names one (``DEADLINE IN America/New_York``), else in his own (``TIME ZONE``): the
    same moments, written for him."""
    zones = [game.time_zone]
    if zone:
        try:
            zones.append(zone_named(zone))
        except UnknownZone as bad:
            raise DeskError(f"{bad}; write DEADLINE IN and the zone's name, e.g. DEADLINE "
                            "IN America/New_York") from bad
    elif player.time_zone:
        zones.append(player.time_zone)
    lines = []
    for label, moment in (("Announcements", turn.announcement_deadline),
                          ("Orders", turn.deadline)):
        if moment is None:
            continue
        shown = " = ".join(dict.fromkeys(format_deadline(moment, z) or "" for z in zones))
        lines.append(f"{label} for {turn.label} are due {shown}.")
    if not lines:
        return f"No deadline is set yet for {turn.label}; the GM will announce it."
    return "\n".join(lines)


# What TIME ZONE takes to go back to the game's zone alone.
_NO_ZONE = frozenset({"NONE", "OFF", "GAME"})


def set_time_zone(session: Session, game: Game, player: Player, turn: Turn,
                  argument: str) -> str:
    """TIME ZONE zone: the player's own zone, kept; the DEADLINE answer, his receipts'
    deadline and his turn sheets' next deadline show it beside the game's (``TIME ZONE
    NONE``: the game's alone again)."""
    if not argument:
        now = player.time_zone or f"none, the game's ({game.time_zone}) only"
        raise DeskError(f"no zone given (yours now: {now}): write TIME ZONE and your "
                        "zone's name, e.g. TIME ZONE Europe/Paris, or TIME ZONE NONE")
    if argument.upper() in _NO_ZONE:
        desk_players.set_time_zone(session, game, player, None, player.email,
                                   "TIME ZONE by mail")
        return (f"Your own time zone is forgotten: deadlines are told to you in the "
                f"game's ({game.time_zone}) only.")
    try:
        zone = zone_named(argument)
    except UnknownZone as bad:
        raise DeskError(f"{bad}; or TIME ZONE NONE for the game's zone only") from bad
    desk_players.set_time_zone(session, game, player, zone, player.email,
                               "TIME ZONE by mail")
    return (f"Your time zone is now {zone}: the deadlines told to you (DEADLINE, STATUS, "
            f"your receipts, your turn sheets) show it beside the game's ({game.time_zone}).\n"
            + deadline_text(game, player, turn))


# A password line (`moderator.intake.commands`) stays out of what the GM is sent.
_PASSWORD_LINE = re.compile(r"^\s*(?:PASSWORD|PW)\b", re.IGNORECASE)


def ask_gm(session: Session, config: Config, game: Game, player: Player, text: str) -> str:
    """TO GM: the lines after it go to the GM, with the player's name and address."""
    kept = "\n".join(line for line in text.split("\n")
                     if not _PASSWORD_LINE.match(line)).strip()
    if not kept:
        raise DeskError("nothing to pass on: write TO GM and your message on the lines "
                        "after it")
    _to_gm(session, config, game, player, "writes to the GM", "player.to-gm",
           f"{player.name} <{player.email}> writes (TO GM by mail; answer at that "
           f"address):\n\n{kept}\n", f"{len(kept.splitlines())} lines")
    return ("Your message is passed on to the GM (the lines after TO GM, without your\n"
            "password); the GM answers you directly.")


def ask_to_leave(session: Session, config: Config, game: Game, player: Player) -> str:
    """RESIGN: the GM is asked to take the player out (`player eject`), or to find a
    new player for the character (`player replace`)."""
    _to_gm(session, config, game, player, "asks to leave", "player.resign-request",
           f"{player.name} <{player.email}> asks to leave {game.name} (RESIGN by mail).\n\n"
           f"  moderator player eject {game.name} {shlex.quote(player.email)} --reason ...\n"
           f"  moderator player replace {game.name} {shlex.quote(player.email)} NEW-ADDRESS "
           "--reason ...\n",
           "RESIGN")
    return ("Your wish to leave is passed on to the GM, who will take you out of the\n"
            "game or find a new player for your character, and write to you.  Until\n"
            "then you are still in the game: orders you send are read as before.")


def ask_new_address(session: Session, config: Config, game: Game, player: Player,
                    address: str) -> str:
    """ADDRESS new: the GM is asked to add the address (`player address`)."""
    address = address.strip().lower().rstrip(".,;:!?")
    # Only an address mail can go to; it is quoted besides in the lines the GM pastes:
    # RFC 5322 lets an address hold ` $ & |, which a shell would run.
    if not usable_address(address):
        raise DeskError(f"{address!r} is not a mail address: write ADDRESS and your new "
                        "address, e.g. ADDRESS jacques@example.org")
    quoted = shlex.quote(player.email)
    _to_gm(session, config, game, player, f"asks to move the game's mail to {address}",
           "player.address-request",
           f"{player.name} <{player.email}> asks to receive the game's mail at {address} "
           "(ADDRESS by mail).  To let that address send orders as well:\n\n"
           f"  moderator player address {game.name} {quoted} {shlex.quote(address)} "
           "--reason ...\n\n"
           "To move all the player's mail there (a new password goes to the new address):\n\n"
           f"  moderator player replace {game.name} {quoted} {shlex.quote(address)} "
           "--reason ...\n",
           address)
    return (f"Your wish to receive the game's mail at {address} is passed on to the GM;\n"
            "until the GM makes the change, the game writes to the address it has, and\n"
            "reads your orders only from the addresses registered now.")


def _to_gm(session: Session, config: Config, game: Game, player: Player, what: str,
           event: str, text: str, detail: str) -> None:
    repo.log_gm(session, event, f"{player.name}: {detail}", game=game)
    outgoing.queue_gm_notice(session, config, game, f"{player.name} {what}", text)
