"""One adjudication as a declared table of steps (fief-email.md §2.1.1).

The adjudication at deadline N plays Round N from Phase 2D to End Round, then Round N+1's
Phase 1 and Phase 2A-2C, and stops: players write their orders knowing their new cards,
where the disasters fell, who was elected and who married.  The first adjudication is the
muster: it founds the families and plays Round 1's draws.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.games.base import Phase as TableRow
from moderator.games.base import PhaseTable
from moderator.games.fief import (
    battle,
    cards,
    court,
    economy,
    excalibur,
    income,
    invaders,
    movement,
    setup,
    victory,
)
from moderator.games.fief.cards import abbey, windows
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    STANDING,
    Candidate,
    DestroyEngines,
    GarterPolicy,
    Losses,
    Quell,
    Skull,
    Spoils,
    Surrender,
    TurnOrders,
    Withdraw,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Phase

Step = tuple[str, str, Callable[[Realm], None]]


def store_standing(realm: Realm) -> None:
    """Standing lines (ALLOW, CANDIDATE) are kept until withdrawn; WITHDRAW n drops the
    n-th as numbered on the private sheet."""
    s = realm.s
    for player in s.player_order():
        orders = realm.orders.get(player, TurnOrders())
        standing = s.players[player].standing
        drop = sorted({o.number for o in orders.of(Withdraw)}, reverse=True)
        for n in drop:
            if 1 <= n <= len(standing):
                gone = standing.pop(n - 1)
                if gone["kind"] == "candidate" and gone["lord"].lower() in s.candidates:
                    s.candidates.remove(gone["lord"].lower())
        for order in orders.orders:
            if isinstance(order, Losses | GarterPolicy | Quell | Surrender | Skull
                          | DestroyEngines | Spoils):
                # One battle plan a family, one Garter policy: the new replaces the old.
                standing[:] = [d for d in standing if not (d["kind"] == order.kind
                                                           and d.get("family") == order.family)]
            if isinstance(order, STANDING):
                data = order.to_dict()
                if data not in standing:
                    standing.append(data)
            if isinstance(order, Candidate) and order.lord.lower() not in s.candidates:
                s.candidates.append(order.lord.lower())


ROUND: tuple[Step, ...] = (
    ("10", "standing orders", store_standing),
    ("20", "Phase 2D: play cards (FE 2.6-2.14)", cards.play_phase),
    ("25", "window W7 INCOME (FE 2.6)", windows.step("income")),
    ("30", "Phase 3: income (FE 3.0-3.4)", income.income_phase),
    ("35", "window W8 PURCHASE (FE 2.6)", windows.step("purchase")),
    ("37", "Phase 4: Abbeys rebuilt (FE 2.13)", abbey.rebuild_phase),
    ("40", "Phase 4: ransoms and purchases (FE 4, 7.7)", economy.purchase_phase),
    ("45", "window W9 MOVE (FE 2.6)", windows.step("move")),
    ("50", "Phase 5: movement (FE 5)", movement.movement_phase),
    ("55", "Phase 5: Excalibur (FE 13.2)", lambda realm: excalibur.attempts(realm, "Phase 5")),
    ("58", "window W10 INVADERS (FE 2.6)", windows.step("invaders")),
    ("60", "Phase 6: invaders (FE 6)", invaders.invaders_phase),
    ("65", "window W11 BATTLES (FE 2.6)", windows.step("battles")),
    ("70", "Phase 7: battles (FE 7)", battle.battles_phase),
    ("72", "window W13 PILLAGE (FE 2.6)", windows.step("pillage")),
    ("75", "Phase 7: Excalibur (FE 13.2)", lambda realm: excalibur.attempts(realm, "Phase 7")),
    ("78", "window W14 END (FE 2.6)", windows.step("end")),
    ("80", "End Round (FE 8)", victory.end_round),
)

NEXT_ROUND: tuple[Step, ...] = (
    ("87", "window W1 HEAR-YE (FE 2.6)", windows.step("hear-ye")),
    ("88", "Phase 1: Abbesses relinquish (FE 2.13)", abbey.relinquish_phase),
    ("90", "Phase 1A: marriages (FE 9.0)", court.marriage_phase),
    ("91", "Phase 1B: election (FE 9.1)", court.election_phase),
    ("92", "Phase 1C: Parliament (FE 9.2)", court.parliament_phase),
    ("95", "Phase 2A: discard (FE 2.0)", cards.discard_phase),
    ("96", "Phase 2B: draw (FE 2.0-2.3)", cards.draw_phase),
    ("97", "Phase 2C: disasters (FE 2.4-2.5)", cards.disasters_phase),
    ("98", "window W5 DISASTERS (FE 2.6)", windows.step("disasters")),
)


def _table(name: str, steps: tuple[Step, ...]) -> PhaseTable[Realm]:
    """The step rows as the contract's PhaseTable (moderator.games.base): the step ids are
    the priorities it runs by."""
    return PhaseTable(name, tuple(TableRow(int(key), title, step) for key, title, step in steps))


ROUND_TABLE = _table("round", ROUND)
NEXT_ROUND_TABLE = _table("next round", NEXT_ROUND)


def begin_round(realm: Realm) -> None:
    s = realm.s
    s.round += 1
    realm.emit(EventId.ROUND_BEGINS, {"round": s.round, "first": s.player_order()[0],
                                      "order": s.family_order()})
    for phase in NEXT_ROUND_TABLE.ordered():
        step = phase.step
        if s.round == 1 and step in (court.marriage_phase, court.election_phase,
                                     court.parliament_phase, abbey.relinquish_phase):
            continue   # FE 1.0: Phase 1 is skipped on the first Round
        step(realm)


def run(realm: Realm) -> None:
    s = realm.s
    if s.phase is Phase.MUSTER:
        if setup.muster(realm):
            store_standing(realm)
            begin_round(realm)
        return
    for phase in ROUND_TABLE.ordered():
        phase.step(realm)
        if s.phase is Phase.OVER:
            return
    begin_round(realm)
