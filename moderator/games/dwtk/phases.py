"""One adjudication as a declared table of phases (style rule 2; DWTK 4).

At turn N's deadline the Player Turns of turn N are played from the orders received;
then turn N+1 begins: first player, Office Phase, Political Problems, Crown Events and
the draws, so that players write turn N+1's orders knowing their draws
(docs/dwtk-by-email.md).  The first adjudication deals the game (DWTK 3) and begins
turn 1.  A Royal Death that crowns a new Monarch ends the turn at once (9.4): the
phases after it are skipped and the next adjudication has no Player Turns.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.games.base import Phase as TurnStep
from moderator.games.base import PhaseTable
from moderator.games.dwtk import (
    crown,
    faction,
    fugitives,
    hiding,
    player,
    problems,
    reactions,
    setup,
    start,
)
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.shared import Orders
from moderator.games.dwtk.state import Phase
from moderator.games.dwtk.state.court import Court


def play_turn(court: Court) -> None:
    """DWTK 10: the Player Turns of the turn whose orders arrived (none in mourning)."""
    if court.phase is Phase.ORDERS:
        player.player_turns(court)


def end_of_turn(court: Court) -> None:
    """DWTK 30.10 (NCs' prison roll), 31.6 (executions), then 37: a FARC on the throne
    for three full turns wins.  Suicides (29.9, 30.10) first.  Also after a
    Monarch killed during the Player Turns (9.4: mourning has begun)."""
    if court.phase is not Phase.ORDERS and not (court.phase is Phase.MOURNING
                                                and court.turn_over):
        return
    hiding.suicides(court)
    fugitives.end_of_turns(court)
    monarch = court.monarch()
    owner = court.royals[monarch].owner if monarch else None
    court.farc_monarch_turns = court.farc_monarch_turns + 1 if owner else 0
    if owner and court.farc_monarch_turns >= court.t.rule("victory_turns"):
        court.winner = owner
        court.phase = Phase.OVER
        court.emit(EventId.VICTORY, {"player": owner, "royal": monarch})


def begin_turn(court: Court) -> None:
    """A new turn: per-turn records cleared; dead PCs' heirs turn face up (31.5)."""
    if court.phase is Phase.OVER:
        return
    court.turn += 1
    court.phase = Phase.ORDERS
    court.crown_event = None
    court.scandal_object = None
    for key, p in court.players.items():
        court.set_player(key, drawn=(), free_counsel=False, ip_spent=0, ip_at_start=p.ip)
    for c in list(court.characters.values()):
        if c.face_down_until is not None and court.turn >= c.face_down_until:
            court.set_char(c.id, face_down_until=None)


def _while_running(step: Callable[[Court], None]) -> Callable[[Court], None]:
    """Skip a start-of-turn step once mourning has ended the turn (9.4) or the game."""
    def run(court: Court) -> None:
        if not court.turn_over and court.phase is not Phase.OVER:
            step(court)
    run.__doc__ = step.__doc__
    return run


def _start(step: Callable[[Court, Orders], None]) -> Callable[[Court], None]:
    return _while_running(lambda court: step(court, court.orders))


# One step of the adjudication; the table runs them by ascending priority.
Step = TurnStep

PHASES: tuple[Step[Court], ...] = (
    # DWTK 14.1: WITHDRAW REACTION and new IF ... THEN reactions take effect first.
    Step(5, "reactions", reactions.install),
    # DWTK 10-15: the Player Turns of the turn just ended (orders received).
    Step(10, "player_turns", play_turn),
    # DWTK 30.10, 31.6, 37: the end of the turn.
    Step(20, "end_of_turn", end_of_turn),
    # DWTK 4.1-4.4 for the next turn.
    Step(30, "begin_turn", _while_running(begin_turn)),
    Step(40, "first_player", _start(start.first_player)),  # 5
    Step(50, "office", _start(start.office_phase)),  # 6, 16
    Step(60, "problems", _start(problems.problems_phase)),  # 7
    Step(70, "crown_events", _start(crown.crown_events)),  # 8, 9
    Step(80, "draws", _start(start.draws)),  # 10-12
)


def table() -> PhaseTable[Court]:
    """The declared turn order (the engine's ``phases``), as `run` takes it."""
    return PhaseTable("DWTK adjudication (DWTK 4)", PHASES)


def run(court: Court) -> None:
    """DWTK 3 first (the deal, once every player has joined), then the table."""
    if court.phase is Phase.MUSTER:
        if not setup.deal(court):
            return
        court.phase = Phase.MOURNING  # like a mourning turn: no Player Turns before turn 1
    for step in table().ordered():  # the priorities, not the lines' order
        step.step(court)
        faction.enforce_all(court)  # 35.5 after Status moved (random offices, crisis, deaths)
