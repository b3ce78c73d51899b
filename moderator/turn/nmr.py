"""The NMR policy: a player who misses ``nmr_limit`` turns in a row (absences excused,
and a character out of the game owes none: `inputs.out_of_play_at`) falls into civil
disorder or is removed, as the game's settings say; the next gazette announces it, and
his own sheet of the turn says it (`nmr_outcomes`, worked out before the sheets are
rendered; `sheet_notices`).  A rollback puts every player back as the snapshot taken
before had him.
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class NmrOutcome:
    """What the policy does to one player after a turn: his misses in a row and status
    then, and the step it took (``civil-disorder``, ``remove``, ``back``: back from civil
    disorder; None: only the count moved)."""

    player: Player
    missed: int
    status: str
    action: str | None
    limit: int  # the game's nmr_limit (0: none)
    policy: str  # the game's nmr_action


def nmr_outcomes(session: Session, config: Config, game: Game, turn: Turn,
                 inputs: dict[str, Any]) -> list[NmrOutcome]:
    """What `apply_nmr_policy` will do after this turn, changing nothing: each player's
    misses (absences excused) and the action at ``nmr_limit``.  The turn's sheets are
    rendered before the policy runs, so they tell it from this."""
    settings = config.game(game.name)
    at = as_utc(turn.deadline) if turn.deadline else None
    limit = settings.nmr_limit
    found = []
    gone = out_of_play_at(game, turn)
    for player in repo.players(session, game):
        if player.status == PlayerStatus.REMOVED or player.character_key in gone:
            continue
        missed, status, action = player.missed_turns, player.status, None
        if player.character_key in inputs:
            missed = 0
            if status == PlayerStatus.CIVIL_DISORDER:
                status, action = PlayerStatus.ACTIVE, "back"
        elif at is None or not is_absent(player, at):
            missed += 1
        if limit and missed >= limit and status == PlayerStatus.ACTIVE:
            action = settings.nmr_action
            status = (PlayerStatus.REMOVED if action == "remove"
                      else PlayerStatus.CIVIL_DISORDER)
        found.append(NmrOutcome(player, missed, status, action, limit,
                                settings.nmr_action))
    return found


def sheet_notices(outcomes: list[NmrOutcome]) -> dict[int, str]:
    """What each affected player's own sheet says of the policy, by player id: the step
    it took, or, in a game with a limit, how many months he has missed toward it."""
    notices = {}
    for outcome in outcomes:
        text = _sheet_notice(outcome)
        if text and outcome.player.id is not None:
            notices[outcome.player.id] = text
    return notices


def _sheet_notice(o: NmrOutcome) -> str | None:
    months = f"{o.missed} month{'s' if o.missed != 1 else ''} in a row without orders"
    if o.action == "back":
        return ("**Your orders came in: you are back from civil disorder**, and your "
                "character acts on your orders again.")
    if o.action == "remove":
        return f"**After {months}, you are removed from the game.**"
    if o.action is not None:
        return (f"**After {months}, you are in civil disorder:** your character follows "
                "your standing orders until orders from you come in again.")
    if o.limit and o.missed and o.status == PlayerStatus.ACTIVE:
        then = ("you are removed from the game" if o.policy == "remove"
                else "your character falls into civil disorder")
        return f"You have now had {months}; at {o.limit}, {then}."
    return None


def apply_nmr_policy(session: Session, config: Config, game: Game, turn: Turn,
                     inputs: dict[str, Any]) -> list[str]:
    """Count each player's misses (absences excused) and act at ``nmr_limit``
    (`nmr_outcomes`)."""
    done = []
    for outcome in nmr_outcomes(session, config, game, turn, inputs):
        player = outcome.player
        player.missed_turns = outcome.missed
        session.add(player)
        if outcome.action == "back":
            player.status = PlayerStatus.ACTIVE
            done.append(f"{player.name} is back from civil disorder")
        elif outcome.action is not None:
            done.append(_act(session, outcome.action, game, player, turn))
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
