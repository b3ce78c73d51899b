"""The commands that come without a password: ``JOIN GAME`` (as the game's ``joining``
says) and ``GAMES`` (the games open to join, njudge's LIST) from someone not registered,
and ``LOST PASSWORD`` from a player who cannot give his.  No password proves who writes,
so the answer goes to the mail's From, which the receiving server must not call forged
(`moderator.intake.sender`); LOST PASSWORD's to the player's registered address.
"""

from __future__ import annotations

import shlex

from sqlmodel import Session

from moderator.desk import players as desk_players
from moderator.desk.admin import AdminError
from moderator.desk.errors import DeskError
from moderator.intake.extract import ExtractedMessage
from moderator.intake.identify import Refusal, game_name
from moderator.intake.selfservice import games_text
from moderator.intake.sender import authentication_failure
from moderator.publish import outgoing
from moderator.publish.receipts import bracketed
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.models import Game, Player, ReceivedMessage
from moderator.store.statuses import PlayerStatus

__all__ = ["join", "list_games", "lost_password"]


def join(session: Session, config: Config, message: ExtractedMessage,
         stored: ReceivedMessage, named: str, chosen: str) -> tuple[str, Game]:
    """JOIN GAME [named] [AS chosen] from an address not yet registered, as the game's
    ``joining`` says: what came of it ("added", "queued", "already-queued"), and the
    game."""
    # The game the line names comes first: the player said it in so many words.
    name = named or game_name(session, config, message)
    game = repo.find_game(session, name or "")
    if game is None:
        unknown = (f"There is no game {named} here." if named else
                   "The moderator could not tell which game you want to join.")
        raise Refusal("intake.join-no-game", unknown, "Write JOIN GAME to the game's own "
                      "address, or put its name in the subject in brackets, e.g. [paris].")
    _check_sender(message, stored)
    character = chosen or message.sender_name or message.sender.split("@")[0]
    try:
        outcome = desk_players.request_join(session, config, game, message.sender, character)
    except desk_players.BadName as refused:
        chosen = "" if chosen else " (the name of your mail's From line)"
        raise Refusal("intake.join-bad-name", f"{refused}{chosen}",
                      "Write JOIN GAME AS and the name you want, e.g. JOIN GAME AS Jacques "
                      "d'Artagnan: Latin letters (accents welcome), digits, single spaces "
                      "and ' - . only, 2 to 40 characters, beginning with a letter, and "
                      "not another character's name.") from refused
    except (DeskError, AdminError) as refused:
        raise Refusal("intake.join-refused", str(refused),
                      "Write to the GM if you would like a place.") from refused
    text = {
        "added": f"Welcome! {character} joins {game.name}: your password and your order "
                 "form come in a separate mail.",
        "queued": f"Your request to join {game.name} as {character} waits for the GM's "
                  "approval; you will get a mail either way.",
        "already-queued": f"Your request to join {game.name} already waits for the GM.",
    }[outcome]
    outgoing.queue_reply(session, config, game=game, to=message.sender,
                   subject=f"[{game.name}] JOIN GAME: {outcome.replace('-', ' ')}",
                   text=text + "\n", in_reply_to=bracketed(message.message_id),
                   auto_submitted="auto-replied")
    return outcome, game


def list_games(session: Session, config: Config, message: ExtractedMessage,
               stored: ReceivedMessage) -> None:
    """GAMES from anyone (njudge's LIST): the games open to join, to the sender, whose
    mail server must not call his From forged (the answer would be backscatter)."""
    _check_sender(message, stored)
    outgoing.queue_reply(session, config, game=None, to=message.sender,
                   subject="[moderator] GAMES open to join",
                   text=games_text(session, config) + "\n",
                   in_reply_to=bracketed(message.message_id), auto_submitted="auto-replied")


def _check_sender(message: ExtractedMessage, stored: ReceivedMessage) -> None:
    """A reply to someone not registered goes to his From: it must be his."""
    if "@" not in message.sender:
        raise Refusal("intake.no-sender", "Your message has no usable From address.")
    failure = authentication_failure(stored.raw, message.sender)
    if failure:  # a forged From must not sign someone else up, nor get mail he never asked
        raise Refusal("intake.authentication-failed",
                      f"This message may not come from {message.sender}: {failure}.")


def lost_password(session: Session, config: Config, message: ExtractedMessage,
                  stored: ReceivedMessage, others: int) -> tuple[Game, Player]:
    """LOST PASSWORD from a registered address: the GM is asked to reset it (`player
    password --reset` mails a new one); the player is told so at his registered
    address.  Without a password he could not reach the GM by mail at all (TO GM needs
    one).  ``others``: how many other commands the mail holds, which are not done."""
    game = repo.find_game(session, game_name(session, config, message) or "")
    if game is None:
        raise Refusal("intake.no-game", "The moderator could not tell which game your "
                      "password is for.", "Put the game's name in the subject in brackets, "
                      "e.g. [paris].")
    player = repo.player_by_address(session, game, message.sender)
    if player is None or player.status == PlayerStatus.REMOVED:
        raise Refusal("intake.unknown-sender",
                      f"{message.sender or 'Your address'} is not registered in {game.name}.",
                      "Write from the address you registered with.")
    _check_sender(message, stored)
    repo.log_gm(session, "player.password-lost", f"{player.name} ({message.sender})", game=game)
    # The address is quoted for the shell the GM pastes the line into (an RFC 5322
    # address may hold ` & | $: `moderator.desk.players.request_join`).
    outgoing.queue_gm_notice(
        session, config, game, f"{player.name}: password lost",
        f"{player.name} <{player.email}> asks for a new password (LOST PASSWORD by mail from "
        f"{message.sender}).  To mail a new one:\n\n  moderator player password "
        f"{game.name} {shlex.quote(player.email)} --reset --reason \"lost it\"\n")
    skipped = ("\n\nThe other commands in your mail need your password: they were not "
               "done." if others else "")
    outgoing.queue_reply(session, config, game=game, to=player.email,
                   subject=f"[{game.name}] LOST PASSWORD for {player.name}",
                   text="The GM is asked to give you a new password; it will come to this "
                        f"address in a mail of its own.{skipped}\n",
                   in_reply_to=bracketed(message.message_id), auto_submitted="auto-replied")
    return game, player
