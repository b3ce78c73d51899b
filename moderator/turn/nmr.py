"""The NMR policy: a player who misses ``nmr_limit`` turns in a row (absences excused,
and a character out of the game owes none: `inputs.out_of_play_at`) falls into civil
disorder or is removed, as the game's settings say; the next gazette announces it.
A rollback puts every player back as the snapshot taken before had him.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from moderator.clock import as_utc
from moderator.settings.config import Config
from moderator.store import audit, repo
from moderator.store.models import Game, Player, Turn
from moderator.store.statuses import PlayerStatus
from moderator.turn.inputs import MODERATOR, is_absent, out_of_play_at


def players_snapshot(session: Session, game: Game) -> dict[str, list[Any]]:
    """How every player stands (status, misses in a row), by player id."""
    return {str(p.id): [p.status, p.missed_turns] for p in repo.players(session, game)}


def restore_players(session: Session, game: Game, snapshot: dict[str, list[Any]]) -> None:
    """Put the players back as a snapshot had them (a rollback undoes NMR removals)."""
    for player in repo.players(session, game):
        if str(player.id) in snapshot:
            player.status, player.missed_turns = snapshot[str(player.id)]
            session.add(player)


def apply_nmr_policy(session: Session, config: Config, game: Game, turn: Turn,
                     inputs: dict[str, Any]) -> list[str]:
    """Count each player's misses (absences excused) and act at ``nmr_limit``."""
    settings = config.game(game.name)
    at = as_utc(turn.deadline) if turn.deadline else None
    done = []
    gone = out_of_play_at(game, turn)
    for player in repo.players(session, game):
        if player.status == PlayerStatus.REMOVED or player.character_key in gone:
            continue
        if player.character_key in inputs:
            player.missed_turns = 0
            if player.status == PlayerStatus.CIVIL_DISORDER:
                player.status = PlayerStatus.ACTIVE
                done.append(f"{player.name} is back from civil disorder")
        elif at is None or not is_absent(player, at):
            player.missed_turns += 1
        session.add(player)
        limit = settings.nmr_limit
        if limit and player.missed_turns >= limit and player.status == PlayerStatus.ACTIVE:
            done.append(_act(session, settings.nmr_action, game, player, turn))
    return done


def _act(session: Session, action: str, game: Game, player: Player, turn: Turn) -> str:
    """Civil disorder or removal after too many misses; announced in the next gazette."""
    if action == "remove":
        player.status = PlayerStatus.REMOVED
        note = f"{player.name} has been removed from the game after " \
               f"{player.missed_turns} months without orders."
    else:
        player.status = PlayerStatus.CIVIL_DISORDER
        note = f"{player.name} is in civil disorder after {player.missed_turns} months " \
               "without orders; his character follows his standing orders."
    session.add(player)
    audit.record(session, f"player.{action}", "NMR policy", MODERATOR, game=game,
                 player=player, turn_number=turn.number, detail=note, note=note)
    return note
