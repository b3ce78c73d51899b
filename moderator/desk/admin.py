"""GM actions on games and players: creating a game, signing a player up."""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlmodel import Session

from moderator import jsonio
from moderator.clock import format_deadline
from moderator.desk import names
from moderator.dice import Dice
from moderator.games import find_engine
from moderator.games.base import JSON
from moderator.publish import outgoing
from moderator.settings.config import Config, game_tables
from moderator.settings.deadline_rule import Rule
from moderator.store import repo
from moderator.store.models import Game, Player, PlayerAddress, Turn
from moderator.store.passwords import server_key, stored_form
from moderator.turn.deadlines import now_utc

_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class AdminError(ValueError):
    """A GM command that cannot be carried out, with the reason."""


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "character"


def create_game(
    session: Session,
    config: Config,
    name: str,
    kind: str,
    *,
    seed: int | None = None,
    deadline: datetime | None = None,
) -> Game:
    """A new game with its first turn open for orders."""
    name = name.lower()
    if not _GAME_NAME.match(name):
        raise AdminError(f"game name {name!r}: use letters, digits, '-' or '_' (max 40)")
    if repo.find_game(session, name) is not None:
        raise AdminError(f"a game named {name!r} already exists")
    engine = find_engine(kind)
    tables = game_tables(config, name, engine.kind)
    settings = config.game(name)
    if settings.kind and find_engine(settings.kind).kind != engine.kind:
        raise AdminError(f"config.toml [games.{name}] is for kind {settings.kind!r}, "
                         f"not {kind!r}")
    rule = Rule(**dict(settings.deadline)) if settings.deadline else None
    game = Game(
        name=name,
        kind=engine.kind,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        time_zone=settings.time_zone or config.zone.key,
        schedule_json=rule.to_json() if rule else None,
    )
    session.add(game)
    session.flush()
    announcements = None
    if deadline is None and rule is not None:  # the game's rule from config.toml
        deadline = rule.next_after(now_utc(), ZoneInfo(game.time_zone))
        announcements = rule.announcements_for(deadline, ZoneInfo(game.time_zone))
    if settings.deadlines == 1:
        announcements = None
    state = engine.new_game(name, tables, Dice.for_turn(game.seed, 0))
    session.add(
        Turn(
            game_id=game.id,  # type: ignore[arg-type]
            number=1,
            label=engine.turn_label(state),
            seed=game.seed,
            deadline=deadline,
            announcement_deadline=announcements,
            state_before=jsonio.dumps(state),
        )
    )
    detail = f"{engine.title} game {name} (seed {game.seed})"
    repo.log_gm(session, "game.created", detail, game=game)
    return game


def refuse_npc_name(config: Config, game: Game, state: JSON, name: str,
                    error: Callable[[str], Exception]) -> None:
    """Raise ``error(why)`` when no player's character may take ``name`` in ``game``: a
    non-player character has it or may be given it (`names.npc_problem` on the engine's
    `reserved_names`, e.g. EG §L's ladies).  Every path to a new name asks (`add_player`,
    a JOIN by mail, a replacement's new name)."""
    engine = find_engine(game.kind)
    problem = names.npc_problem(name, engine.reserved_names(
        state, game_tables(config, game.name, game.kind)))
    if problem is not None:
        raise error(problem)


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    password: str


def add_player(
    session: Session,
    config: Config,
    game_name: str,
    email: str,
    name: str,
    *,
    password: str | None = None,
    force: bool = False,
) -> NewPlayer:
    """Sign a player up: create the character in the open turn and mail a welcome.
    Refused when the game's ``joining`` is ``closed``, unless ``force``."""
    game = repo.game_by_name(session, game_name)
    name = names.tidy(name)
    if not name:
        raise AdminError("the character's name is empty: give one (--name \"Jacques de Lyon\")")
    others = repo.players(session, game)
    same = names.clash(name, (p.name for p in others))
    if same is not None:  # one name, two characters: orders and gazettes could not tell
        raise AdminError(f"{name!r} reads as {same!r}, a character of {game.name} already: "
                         "choose another name")
    if config.game(game.name).joining == "closed" and not force:
        raise AdminError(f"{game.name} is closed to new players (joining = \"closed\" "
                         "in config.toml); add --force to add one anyway")
    email = email.strip().lower()
    if "@" not in email:
        raise AdminError(f"{email!r} is not an email address")
    if repo.player_by_address(session, game, email) is not None:
        raise AdminError(f"{email} already plays in {game.name}")
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    turn = repo.open_turn(session, game)
    state = jsonio.loads(turn.state_before)
    refuse_npc_name(config, game, state, name, AdminError)
    key = _free_key(slug(name), {p.character_key for p in others})
    dice = Dice.for_turn(game.seed, 0)
    try:
        state, _events = engine.add_character(state, key, name, tables, dice)
    except ValueError as refused:  # the rules' own refusal (DWTK 3: the court assembled)
        raise AdminError(str(refused)) from refused
    turn.state_before = jsonio.dumps(state)
    session.add(turn)
    # A generated token is kept as its HMAC under the server key, a GM's choice slow-hashed.
    password, stored = stored_form(password, server_key(config.key_file))
    player = Player(
        game_id=game.id,  # type: ignore[arg-type]
        name=name,
        character_key=key,
        email=email,
        password_hash=stored,
    )
    session.add(player)
    session.flush()
    session.add(PlayerAddress(game_id=game.id, player_id=player.id, email=email))  # type: ignore[arg-type]
    rolls = "; ".join(roll.describe() for roll in dice.log)
    repo.log_gm(session, "player.added", f"{name} <{email}> as {key}: {rolls}", game=game)
    form = engine.order_form(state, key, tables)
    outgoing.queue_welcome(session, config, game, player, password, form, turn.label,
                           format_deadline(turn.deadline, game.time_zone))
    return NewPlayer(player, password)


def _free_key(base: str, taken: set[str]) -> str:
    key, n = base, 2
    while key in taken:
        key, n = f"{base}-{n}", n + 1
    return key


def add_address(session: Session, game_name: str, email: str, address: str) -> PlayerAddress:
    """Let a player also send orders from ``address`` (receipts still go to his main one)."""
    game = repo.game_by_name(session, game_name)
    player = repo.player_by_email(session, game, email)
    address = address.strip().lower()
    if "@" not in address or any(c.isspace() for c in address):
        raise AdminError(f"{address!r} is not an email address")
    if repo.player_by_address(session, game, address) is not None:
        raise AdminError(f"{address} is already registered in {game.name}")
    link = PlayerAddress(game_id=game.id, player_id=player.id, email=address)  # type: ignore[arg-type]
    session.add(link)
    repo.log_gm(session, "player.address-added", f"{player.name}: {address}", game=game)
    return link
