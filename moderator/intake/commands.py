"""Player commands by mail, one a line (the Diplomacy judges' and Eressea's convention).

``HELP``, ``ORDERS``, ``CHECK``, ``RESEND [turn]``, ``STATUS``, ``FORM``,
``DEADLINE [IN zone]``, ``TIME ZONE zone``, ``ABSENCE UNTIL yyyy-mm-dd``, ``PASSWORD
new`` (after the PASSWORD line that proves who writes), ``TO GM`` (the rest of the
mail), ``RESIGN``, ``ADDRESS new``, and from anyone ``JOIN GAME [game] [AS name]`` and
``GAMES``.  Every command but JOIN and GAMES goes through the same checks as orders
(`moderator.intake.identify`: game, registered sender, mail authentication, password);
JOIN and GAMES come from someone not registered yet (`moderator.intake.newcomers`).
Answers go in one reply, to the registered address (RESEND's newsletters too: never to
another address).

`find_commands` only reads the text; `answer_commands` acts, and is the intake step's
body (`moderator.intake.process`): it returns ``None`` for a message without commands,
else what remains of the message for the order steps (orders sent beside commands are
still stored), or nothing when the commands were all.  Beside orders to store, the
commands are answered once they are stored (`answer_after_orders`): ``ORDERS`` and
``STATUS`` read back what stands after this mail, which is what its writer asks.
The answers of the commands that change nothing in the game (HELP, ORDERS, RESEND,
STATUS) are written by `moderator.intake.readback`, the newer ones (GAMES, FORM,
DEADLINE, TIME ZONE and the requests to the GM) by `moderator.intake.selfservice`; this
module keeps ABSENCE and PASSWORD.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlmodel import Session

from moderator.clock import as_utc, format_deadline
from moderator.desk import players as desk_players
from moderator.desk.errors import DeskError
from moderator.intake import newcomers, readback, selfservice
from moderator.intake.checking import check_orders, parse_orders
from moderator.intake.extract import ExtractedMessage
from moderator.intake.identify import identify
from moderator.intake.route import Directives, subject_words
from moderator.publish import outgoing
from moderator.publish.receipts import bracketed
from moderator.publish.render import render
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, Player, ReceivedMessage, Turn
from moderator.store.passwords import as_written, masked_text, passwords_in
from moderator.store.statuses import GameStatus
from moderator.turn.deadlines import set_deadlines
from moderator.turn.over import over_words

__all__ = ["COMMANDS", "Command", "CommandsDone", "answer_after_orders", "answer_commands",
           "find_commands"]

COMMANDS = ("HELP", "ORDERS", "CHECK", "RESEND", "STATUS", "JOIN", "ABSENCE", "PASSWORD",
            "GAMES", "FORM", "DEADLINE", "TIME ZONE", "TO GM", "RESIGN", "ADDRESS",
            "LOST PASSWORD")

_LINE = re.compile(
    r"^\s*(?:"
    r"(?P<help>HELP)"
    r"|(?P<orders>ORDERS)"
    r"|(?P<check>CHECK)"
    r"|(?P<resend>RESEND)(?:\s+(?P<turn>\S.*?))?"
    r"|(?P<status>STATUS)"
    r"|(?P<join>JOIN\s+GAME)(?:\s+(?P<game>[a-z0-9_-]+))?(?:\s+AS\s+(?P<name>\S.*?))?"
    r"|(?P<absence>ABSENCE)(?:\s+UNTIL)?(?:\s+(?P<until>\S.*?))?"
    r"|(?:SET\s+|NEW\s+)(?P<setpw>PASSWORD)\s*[:=]?\s*(?P<newpw>\S+)"
    r"|(?P<games>GAMES|LIST(?:\s+GAMES)?)"
    r"|(?P<form>(?:ORDER\s+)?FORM)"
    r"|(?P<deadline>DEADLINES?)(?:\s+IN\s+(?P<zone>\S+?))?"
    r"|(?P<tz>TIME\s*ZONE)(?:\s*[:=]?\s*(?P<newzone>\S+?))?"
    r"|(?P<gm>TO\s+GM)(?:\s*:\s*(?P<note>.*?))?"
    r"|(?P<resign>RESIGN)"
    r"|(?P<lost>(?:LOST|FORGOT(?:TEN)?)\s+(?:MY\s+)?PASSWORD)"
    r"|(?:SET\s+|NEW\s+|CHANGE\s+)?(?P<address>ADDRESS)(?:\s*[:=]?\s*(?P<newaddr>\S+?))?"
    # "HELP!", "status?": a command still, not an unknown order.
    r")\s*[.!?]*\s*$",
    re.IGNORECASE,
)
# RESEND's argument is a turn's name as its gazette prints it, after an optional TURN
# ("RESEND April 1625", "RESEND TURN 1": `readback.published_turn`).  RESEND and ABSENCE
# with anything else after them are still the command (no game has such orders), answered
# with how to write it rather than read as an unknown order with the game's order hints.
_PASSWORD_LINE = re.compile(r"^\s*(?:PASSWORD|PW)\s*(?:[:=]\s*|\s+)(\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Command:
    name: str
    """One of `COMMANDS`."""
    line: int
    argument: str = ""
    game: str = ""
    """The game a ``JOIN GAME name`` line names (lower case), else empty."""
    lines: int = 0
    """How many lines after its own the command takes (TO GM: the rest of the mail)."""


def find_commands(text: str) -> tuple[tuple[Command, ...], frozenset[int]]:
    """The commands in a message and the numbers of their lines.

    ``PASSWORD new`` is a command only after a first password line with another value
    (the first proves who writes; a lone ``PASSWORD xyz`` is that proof, not a change).
    """
    found: list[Command] = []
    first_password: str | None = None
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        match = _LINE.match(line)
        if match is not None and match.group("gm"):  # the rest of the mail is for the GM
            note = "\n".join([match.group("note") or "", *lines[number:]])
            found.append(Command("TO GM", number, note, lines=len(lines) - number))
            break
        if match is not None:
            found.append(_command(match, number))
            continue
        given = _PASSWORD_LINE.match(line)
        if given is None:
            continue
        if first_password is None:
            first_password = given.group(1)
        elif as_written(given.group(1)) != as_written(first_password):
            found.append(Command("PASSWORD", number, given.group(1)))
    return tuple(found), frozenset(n for c in found for n in range(c.line, c.line + c.lines + 1))


# The commands a subject may give (``[paris] HELP``, Eressea's and pbmserv's way): those
# that only read, when the body gives none.  Not ORDERS nor CHECK: "Orders" is what
# many players write in the subject of their orders.
_IN_SUBJECT = frozenset({"HELP", "STATUS", "RESEND", "GAMES", "FORM", "DEADLINE"})


def subject_command(subject: str) -> tuple[Command, ...]:
    """The command a subject gives, line 0, when it is nothing else (not a reply)."""
    match = _LINE.match(subject_words(subject))
    if match is None or match.group("gm"):
        return ()
    command = _command(match, 0)
    return (command,) if command.name in _IN_SUBJECT else ()


def _command(match: re.Match[str], number: int) -> Command:
    if match.group("resend"):
        return Command("RESEND", number, match.group("turn") or "")
    if match.group("join"):
        return Command("JOIN", number, (match.group("name") or "").strip(),
                       (match.group("game") or "").lower())
    if match.group("absence"):
        return Command("ABSENCE", number, match.group("until") or "")
    if match.group("setpw"):
        return Command("PASSWORD", number, match.group("newpw"))
    if match.group("deadline"):
        return Command("DEADLINE", number, match.group("zone") or "")
    if match.group("tz"):
        return Command("TIME ZONE", number, match.group("newzone") or "")
    if match.group("address"):
        return Command("ADDRESS", number, match.group("newaddr") or "")
    if match.group("lost"):
        return Command("LOST PASSWORD", number)
    name = next(k for k in ("help", "orders", "check", "status", "games", "form", "resign")
                if match.group(k))
    return Command(name.upper(), number)


@dataclass(frozen=True)
class CommandsDone:
    """What the commands step leaves for the steps after it."""

    detail: str
    """For the GM's table and the stored message: e.g. ``commands HELP, STATUS``."""
    game: Game | None = None
    player: Player | None = None
    rest: Directives | None = None
    """The message without its command lines when it also holds orders to store."""
    later: tuple[Command, ...] = ()
    """With ``rest``: the commands, answered by `answer_after_orders` once the orders
    are stored."""


@dataclass
class _Reply:
    """One reply's sections, in the order of the commands."""

    sections: list[tuple[str, str]] = field(default_factory=list)

    def add(self, title: str, body: str) -> None:
        self.sections.append((title, body.rstrip()))


def answer_commands(session: Session, config: Config, message: ExtractedMessage,
                    stored: ReceivedMessage, now: datetime) -> CommandsDone | None:
    """Carry out the commands of one message and queue the answers (see module doc)."""
    commands, lines = find_commands(message.text)
    commands = commands or subject_command(message.subject)
    if not commands:
        return None
    if any(c.name == "JOIN" for c in commands):
        join = next(c for c in commands if c.name == "JOIN")
        outcome, game = newcomers.join(session, config, message, stored, join.game,
                                       join.argument)
        return CommandsDone(f"JOIN GAME: {outcome}", game, None)
    if any(c.name == "LOST PASSWORD" for c in commands):  # no password to give
        game, player = newcomers.lost_password(session, config, message, stored,
                                               len(commands) - 1)
        return CommandsDone("LOST PASSWORD: the GM is asked", game, player)
    if all(c.name == "GAMES" for c in commands):  # to anyone: no game, no password
        newcomers.list_games(session, config, message, stored)
        return CommandsDone("commands GAMES", None, None)
    game, player, directives = identify(session, config, message, stored.raw)
    rest = _without(directives, lines)
    turn = repo.open_turn(session, game)
    names = ", ".join(dict.fromkeys(c.name for c in commands))
    done = CommandsDone(f"commands {names}", game, player)
    checked = any(c.name == "CHECK" for c in commands)  # CHECK: the orders are not stored
    beside = not checked and _has_orders(session, config, game, player, turn, rest)
    if beside and game.status != GameStatus.FINISHED:
        return replace(done, rest=rest, later=commands)
    # Orders beside commands for a game that is over: the commands are answered, and the
    # reply says the orders were not read (the orders' refusal would drop the commands).
    _answer(_Context(session, config, game, player, turn, now, _given(message)), commands,
            rest, message, orders_beside=beside)
    return done


def answer_after_orders(session: Session, config: Config, message: ExtractedMessage,
                        game: Game, player: Player, commands: tuple[Command, ...],
                        now: datetime) -> None:
    """The commands of a message whose orders were stored (`CommandsDone.later`): the
    intake step after ``store``, before the receipt."""
    session.flush()  # the new version takes part in choosing the orders that stand
    turn = repo.open_turn(session, game)
    _answer(_Context(session, config, game, player, turn, now, _given(message)), commands,
            None, message)


def _answer(ctx: _Context, commands: tuple[Command, ...], rest: Directives | None,
            message: ExtractedMessage, *, orders_beside: bool = False) -> None:
    """Carry out ``commands`` in their order and queue the one reply; ``orders_beside``:
    the message holds orders too, which a game that is over does not read."""
    reply = _Reply()
    over = (over_words(ctx.session, ctx.game, ctx.turn)
            if ctx.game.status == GameStatus.FINISHED else None)
    checked = False
    for command in commands:
        if over is not None and command.name in _FOR_A_NEXT_TURN:
            reply.add(command.name, _over_answer(over))
        elif command.name == "CHECK":  # one receipt, however many CHECK lines
            assert rest is not None, "CHECK is answered before any orders are stored"
            if not checked:
                check_orders(ctx.session, ctx.config, ctx.game, ctx.player, ctx.turn, rest,
                             message)
            checked = True
        else:
            try:
                _HANDLERS[command.name](ctx, command, reply)
            except DeskError as refused:
                reply.add(command.name, f"Not done: {refused}")
    if over is not None and orders_beside:
        reply.add("Your orders", f"Not read: {_over_answer(over).removeprefix('Not done: ')}")
    if reply.sections:
        _queue_reply(ctx.session, ctx.config, ctx.game, ctx.player, message, reply)


def _over_answer(over: str) -> str:
    return (f"Not done: {over}; no more orders are read.  RESEND sends a printed issue "
            "again; for anything else write TO GM and your message: the GM gets it.")


# What acts on a turn to come, which a game that is over never runs (DWTK 37, FE 8):
# refused there with the reason; HELP, RESEND, STATUS and PASSWORD are still answered.
_FOR_A_NEXT_TURN = frozenset({"ORDERS", "CHECK", "ABSENCE", "FORM", "DEADLINE", "RESIGN"})


@dataclass(frozen=True)
class _Context:
    session: Session
    config: Config
    game: Game
    player: Player
    turn: Turn
    now: datetime
    passwords: tuple[str, ...]
    """The passwords the mail gives (`passwords_in`): masked in what TO GM passes on."""


def _given(message: ExtractedMessage) -> tuple[str, ...]:
    return tuple(passwords_in(message.text))


def _without(directives: Directives, lines: frozenset[int]) -> Directives:
    text = "\n".join("" if n in lines else line for n, line in
                     enumerate(directives.text_for_parser.split("\n"), start=1))
    return replace(directives, text_for_parser=text)


def _has_orders(session: Session, config: Config, game: Game, player: Player, turn: Turn,
                rest: Directives) -> bool:
    """Whether the lines beside the commands hold orders (then they are stored too)."""
    if not rest.text_for_parser.strip():
        return False
    parsed, _ = parse_orders(session, config, game, player, turn, rest.text_for_parser)
    return bool(parsed.normal_form)


# --- the commands ------------------------------------------------------------------------

def _help(ctx: _Context, command: Command, reply: _Reply) -> None:
    for title, body in readback.help_sections(ctx.config, ctx.game, ctx.player, ctx.turn):
        reply.add(title, body)


def _orders(ctx: _Context, command: Command, reply: _Reply) -> None:
    reply.add("ORDERS", readback.orders_text(ctx.session, ctx.config, ctx.game, ctx.player,
                                             ctx.turn))


def _resend(ctx: _Context, command: Command, reply: _Reply) -> None:
    reply.add("RESEND", readback.resend_text(ctx.session, ctx.config, ctx.game, ctx.player,
                                             command.argument))


def _status(ctx: _Context, command: Command, reply: _Reply) -> None:
    reply.add("STATUS", readback.status_text(ctx.session, ctx.config, ctx.game, ctx.player,
                                             ctx.turn, ctx.now))


def _absence(ctx: _Context, command: Command, reply: _Reply) -> None:
    try:
        until = datetime.strptime(command.argument, "%Y-%m-%d")
    except ValueError as bad:
        wrong = f"{command.argument!r} is not a date" if command.argument else "no date given"
        raise DeskError(f"{wrong}: write ABSENCE UNTIL 2027-01-10 (year-month-day)") from bad
    end = desk_players.absence(ctx.session, ctx.config, ctx.game, ctx.player, until,
                               ctx.player.email, "ABSENCE by mail")
    zone = ctx.game.time_zone
    text = (f"You are absent until {format_deadline(end, zone)}: no reminders, and turns "
            "missed meanwhile do not count against you (your standing orders are used).")
    deadline = ctx.turn.deadline
    if (ctx.config.game(ctx.game.name).absence_moves_deadline and deadline is not None
            and as_utc(deadline) < end):
        set_deadlines(ctx.session, ctx.game, end, ctx.turn.announcement_deadline, now=ctx.now)
        repo.log_gm(ctx.session, "deadline.absence", f"{ctx.player.name} absent", game=ctx.game)
        text += f"\nThe deadline of {ctx.turn.label} moves to {format_deadline(end, zone)}."
    reply.add("ABSENCE", text)


def _password(ctx: _Context, command: Command, reply: _Reply) -> None:
    """The new password is the word after PASSWORD without the sentence punctuation after
    it (`as_written`: "NEW PASSWORD epee2." sets ``epee2``).  The reply is kept in the
    outbox, so it never shows the password (issue 16, goal 4): its length only, and the
    punctuation left out."""
    new = as_written(command.argument)
    desk_players.change_password(ctx.session, ctx.game, ctx.player, new)
    dropped = command.argument[len(new):]
    left_out = f" ({dropped!r} after it is not part of it)" if dropped else ""
    reply.add("PASSWORD", f"Your password is changed: the new one has {len(new)} "
                          f"characters{left_out}.  Use it from now on.")


_HANDLERS: dict[str, Callable[[_Context, Command, _Reply], None]] = {
    "HELP": _help, "ORDERS": _orders, "RESEND": _resend, "STATUS": _status,
    "ABSENCE": _absence, "PASSWORD": _password,
    "GAMES": lambda ctx, _c, reply: reply.add("GAMES", selfservice.games_text(
        ctx.session, ctx.config)),
    "FORM": lambda ctx, _c, reply: reply.add("FORM", selfservice.form_text(
        ctx.config, ctx.game, ctx.player, ctx.turn)),
    "DEADLINE": lambda ctx, c, reply: reply.add("DEADLINE", selfservice.deadline_text(
        ctx.game, ctx.player, ctx.turn, c.argument)),
    "TIME ZONE": lambda ctx, c, reply: reply.add("TIME ZONE", selfservice.set_time_zone(
        ctx.session, ctx.game, ctx.player, ctx.turn, c.argument)),
    # The GM's notice is kept and mailed: a password in the player's words is masked there
    # as in the stored message (`selfservice.ask_gm` leaves out the PASSWORD lines only).
    "TO GM": lambda ctx, c, reply: reply.add("TO GM", selfservice.ask_gm(
        ctx.session, ctx.config, ctx.game, ctx.player, masked_text(c.argument, ctx.passwords))),
    "RESIGN": lambda ctx, _c, reply: reply.add("RESIGN", selfservice.ask_to_leave(
        ctx.session, ctx.config, ctx.game, ctx.player)),
    "ADDRESS": lambda ctx, c, reply: reply.add("ADDRESS", selfservice.ask_new_address(
        ctx.session, ctx.config, ctx.game, ctx.player, c.argument)),
}


def _queue_reply(session: Session, config: Config, game: Game, player: Player,
                 message: ExtractedMessage, reply: _Reply) -> None:
    names = ", ".join(dict.fromkeys(title.split(":")[0] for title, _ in reply.sections))
    text = render(config.templates_dir, "mail/commands.txt.j2", game=game, player=player,
                  sections=reply.sections)
    outgoing.queue_reply(session, config, game=game, to=player.email,
                   subject=f"[{game.name}] {names} for {player.name}", text=text,
                   in_reply_to=bracketed(message.message_id),
                   references=tuple(bracketed(r) for r in message.references),
                   auto_submitted="auto-replied")
