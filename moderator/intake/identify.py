"""Who sent this, and may he? Size, game, player, mail authentication and password.

Every check that fails raises `Refusal`, whose reason goes back to the sender and whose
event goes in the GM's log (see `moderator.intake.process`).
"""

from __future__ import annotations

from sqlmodel import Session

from moderator.intake.extract import ExtractedMessage
from moderator.intake.route import Directives, find_directives, find_game_name
from moderator.intake.sender import authentication_failure
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, Player, ReceivedMessage
from moderator.store.passwords import server_key, verify_written
from moderator.store.statuses import PlayerStatus


class Refusal(Exception):
    """The message cannot be used; ``reason`` goes back to the sender."""

    def __init__(self, event: str, reason: str, hint: str | None = None) -> None:
        super().__init__(reason)
        self.event = event
        self.reason = reason
        self.hint = hint


def check_size(config: Config, stored: ReceivedMessage) -> None:
    if len(stored.raw) > config.max_bytes:
        raise Refusal(
            "intake.too-large",
            f"Your message is {len(stored.raw):,} bytes; the moderator reads at most"
            f" {config.max_bytes:,}.",
            "Send your orders as plain text in the body, without attachments.",
        )


def identify(
    session: Session, config: Config, message: ExtractedMessage, raw: bytes
) -> tuple[Game, Player, Directives]:
    name = game_name(session, config, message)
    if name is None:
        raise Refusal(
            "intake.no-game",
            "The moderator could not tell which game your message is for.",
            "Put the game's name in the subject in brackets, e.g. [paris], or add a line"
            " 'GAME: paris', or write to the game's own address.",
        )
    game = repo.find_game(session, name)
    if game is None:
        raise Refusal("intake.unknown-game", f"There is no game called {name!r} here.")
    player = repo.player_by_address(session, game, message.sender)
    if player is None:
        raise Refusal(
            "intake.unknown-sender",
            f"{message.sender or 'Your address'} is not registered in {game.name}.",
            "Send orders from the address you registered with, or ask the GM to add this one.",
        )
    if player.status == PlayerStatus.REMOVED:
        raise Refusal(
            "intake.removed-player",
            f"{player.name} no longer plays in {game.name}.",
            "Write to the GM if you think this is a mistake.",
        )
    failure = authentication_failure(raw, message.sender, config.authserv_id)
    if failure:
        raise Refusal(
            "intake.authentication-failed",
            f"This message may not come from {message.sender}: {failure}.",
            "If you sent it, check your mail provider's DKIM/DMARC settings or write to the GM.",
        )
    directives = find_directives(message.text)
    if directives.password is None:
        raise Refusal(
            "intake.no-password",
            "Your message has no PASSWORD: line.",
            "Add a line 'PASSWORD: yourpassword' to your orders.",
        )
    if not verify_written(directives.password, player.password_hash,
                          server_key(config.key_file)):
        raise Refusal("intake.bad-password", "The password in your message is not correct.")
    return game, player, directives


def game_name(session: Session, config: Config, message: ExtractedMessage) -> str | None:
    return find_game_name(message, config.moderator_address, repo.game_names(session))
