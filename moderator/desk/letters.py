"""The GM's own words to the players: a letter mailed now (`game mail`), and a note the
next gazette prints (`game note`).  Both are audited; like every desk action, the
``--reason`` stays in the audit log, and only the text reaches the players."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session

from moderator.desk.errors import DeskError
from moderator.publish import outgoing
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.store.models import AuditEntry, Game, Player
from moderator.store.statuses import PlayerStatus

# A subject line longer than this would be folded or cut by mail clients.
MAX_SUBJECT = 120


def mail_players(session: Session, config: Config, game: Game, subject: str, text: str,
                 who: str, reason: str, *, to: Sequence[str] = ()) -> list[str]:
    """Queue the GM's letter to every player still in the game, or to the players at the
    addresses ``to``; one mail each, from the game's address, the subject marked with the
    game's name.  The addresses written to."""
    subject, text = subject.strip(), text.strip()
    if not subject or "\n" in subject or len(subject) > MAX_SUBJECT:
        raise DeskError(f"give a --subject of one line, at most {MAX_SUBJECT} characters")
    if not text:
        raise DeskError("the letter is empty")
    readers = _addressed(session, game, to)
    for player in readers:
        outgoing.queue(session, config, game=game, kind="gm-letter", to=player.email,
                       subject=f"[{game.name}] {subject}", text=text + "\n")
    sent = [p.email for p in readers]
    audit.record(session, "game.mail", reason, who, game=game,
                 detail=f"{subject!r} to {', '.join(sent)}")
    return sent


def note_for_gazette(session: Session, game: Game, text: str, who: str,
                     reason: str) -> AuditEntry:
    """A note of the GM's the next gazette prints among its GM notes (once: a rerun or a
    replay of that turn prints it again, never a later turn)."""
    text = " ".join(text.split())
    if not text:
        raise DeskError("the note is empty")
    return audit.record(session, "game.note", reason, who, game=game, note=text)


def _addressed(session: Session, game: Game, to: Sequence[str]) -> list[Player]:
    members = repo.members(session, game)
    if not to:
        if not members:
            raise DeskError(f"{game.name} has no players to write to")
        return members
    chosen: list[Player] = []
    for address in to:
        player = repo.player_by_email(session, game, address)
        if player.status == PlayerStatus.REMOVED:
            raise DeskError(f"{address} has left {game.name}: the game mails that address no more")
        if player not in chosen:
            chosen.append(player)
    return chosen
