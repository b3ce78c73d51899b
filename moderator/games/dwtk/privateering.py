"""Privateering (DWTK 13.4.17.1): a privateer launched from the Prestige Tables activity,
its voyage over the turns, the cargo and the return to port.

``DO PRESTIGE Privateering [CAPTAIN <henchman>] [BUY +1]`` launches it (prestige.py pays
the IP and calls `sail`); the voyage is `Player.voyage`.  Every later turn the free,
mandatory roll comes first in his Player Turn (`voyage_turn`, from player.py).  While at
sea the captain takes part in no other action (`status.at_sea`: no duels, no henchman
work) and cannot be assassinated.

Also the Prestige modifier helpers that prestige.py shares (13.4.17, 20.5, 24.3, 29.2).
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.dwtk import faction
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.death import kill_character
from moderator.games.dwtk.duels import henchmen
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse
from moderator.games.dwtk.shared import resolve_who
from moderator.games.dwtk.state import Situation, Voyage
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import RangeRow

TABLE = "privateering"
ROUGH_SEAS = ("foreign_war", "pirates")  # 13.4.17.1: the problems that allow privateers


# -- Prestige modifiers and halving (13.4.17, 20.5, 24.3, 29.2), shared with prestige.py --


def modifier(court: Court, player: str, table: str) -> int:
    return court.players[player].prestige_mods.get(table, 0)


def record(court: Court, player: str, table: str, delta: int) -> int:
    """13.4.17: results' modifiers are cumulative to ±2 (the Record Sheet, 2.4)."""
    cap = court.t.rule("prestige_modifier_cap")
    mods = dict(court.players[player].prestige_mods)
    mods[table] = max(-cap, min(cap, mods.get(table, 0) + delta))
    court.set_player(player, prestige_mods=mods)
    return mods[table]


def halved(court: Court, player: str) -> bool:
    """20.5, 24.3, 29.2: gains and losses are cut in half while his PC is abroad, in
    hiding or banished."""
    pc = court.pc_of(player)
    return pc is not None and (pc.abroad or pc.situation in (Situation.HIDING,
                                                             Situation.BANISHED))


def half(amount: int, cut: bool) -> int:
    """Half of a gain or a loss, rounded down in size (PROPOSED: -3 -> -1, +3 -> +1)."""
    if not cut:
        return amount
    return amount // 2 if amount >= 0 else -((-amount) // 2)


# -- launching -----------------------------------------------------------------------


def seas_open(court: Court) -> bool:
    """13.4.17.1: only while a Foreign War or the Pirates problem is ongoing."""
    return bool(court.wars) or any(p.key in ROUGH_SEAS for p in court.problems)


def captain_for(court: Court, player: str, by: str | None) -> int | None:
    """May he launch a privateer now, and under whom?  None is the anonymous captain.

    One privateer at a time, and not again in the turn a voyage ended (13.4.17.1).  A
    henchman captain must be free and in Fandonia, not an Office Holder nor a Monarch's
    Counselor (PROPOSED: at sea he could serve in neither).
    """
    p = court.players[player]
    if not seas_open(court):
        raise Refused("no_war_or_pirates")
    if p.voyage is not None:
        raise Refused("privateer_at_sea")
    if p.voyage_ended == court.turn:
        raise Refused("voyage_ended_this_turn")
    if by is None:
        return None
    cid = resolve_who(court, player, by)
    captain = next((h for h in henchmen(court, player) if h.key == cid), None)
    if captain is None or not captain.free or captain.abroad \
            or captain.face_down_until is not None:
        raise Refused("not_a_henchman")
    if court.office_of(captain.key) is not None or captain.counselor is not None:
        raise Refused("office_holder")
    return captain.id


def sail(court: Court, player: str, captain: int | None, bonus: int, cost: int) -> None:
    """13.4.17.1: the voyage begins (its IP paid by prestige.py) with its first roll."""
    court.set_player(player, voyage=Voyage(captain, 0, court.turn))
    court.emit(EventId.PRIVATEER_SAILS, {"player": player, "cost": cost,
                                         "captain": None if captain is None else str(captain)},
               actor=player)
    roll(court, player, bonus)


# -- the voyage ------------------------------------------------------------------------


def voyage_turn(court: Court, player: str) -> None:
    """13.4.17.1: the free, mandatory roll first in each later Player Turn; the ship is
    home at once when neither a Foreign War nor the Pirates problem goes on (checked
    here, at the start of his Player Turn: PROPOSED timing)."""
    v = court.players[player].voyage
    if v is None or v.launched == court.turn:
        return
    if v.captain is not None and not _alive(court, v.captain):
        _lost(court, player, "captain_dead")  # PROPOSED: no captain, no voyage
    elif not seas_open(court):
        _home(court, player, "peace")
    else:
        roll(court, player, 0)


def roll(court: Court, player: str, bonus: int) -> None:
    """One roll on the Privateering Table (2d6 + his modifier, +1 if bought this turn)."""
    t = court.t.prestige[TABLE]
    total = court.dice.roll("prestige", "2d6", "Privateering Table (DWTK 13.4.17.1)",
                            actor=player, modifier=modifier(court, player, TABLE) + bonus).total
    row = t.table.lookup(total)
    mod = record(court, player, TABLE, row.mod)
    ok = _ability(court, player, row)
    cargo = _cargo(court, player) + (row.total("cargo") if ok else 0)
    _set_cargo(court, player, cargo)
    court.emit(EventId.PRIVATEER_ROLL, {"player": player, "total": total, "cargo": cargo,
                                        "effects": [str(e) for e in row.effects], "mod": mod},
               actor=player)
    if row.has("storm") and not ok:
        _lost(court, player, "founders", captain_dies=True)  # as row 2
    elif row.has("armed_ship") and not ok:
        _lost(court, player, "armed_ship")
    elif row.has("voyage_ends"):
        _lost(court, player, "confiscated" if row.has("accused") else "founders",
              captain_dies=row.has("captain_dies"))
    elif row.has("returns"):
        _home(court, player, "port")
    if row.has("accused"):
        pc = court.pc_of(player)
        if pc is not None:
            accuse(court, pc.id, "prestige:privateering")  # 23.1: fired on a neutral ship


def _ability(court: Court, player: str, row: RangeRow) -> bool:
    """The captain's Ability roll for a storm or an armed ship: 1d6 below his Ability
    (PROPOSED, as for political problems 7.5); the anonymous captain has Ability 3."""
    if not (row.has("storm") or row.has("armed_ship")):
        return True
    v = court.players[player].voyage
    captain = v.captain if v is not None else None
    ability = court.t.privateering["anonymous_captain_ability"]
    if captain is not None:
        printed = court.t.noble(captain).ability
        ability = printed if printed is not None else court.t.privateering["no_ability_captain"]
    die = court.roll("prestige", "1d6", "privateer captain's Ability (DWTK 13.4.17.1)", player)
    ok = die < ability
    court.emit(EventId.PRIVATEER_ABILITY, {
        "player": player, "captain": None if captain is None else str(captain), "roll": die,
        "ability": ability, "ok": ok, "why": "storm" if row.has("storm") else "armed_ship"},
        actor=player)
    return ok


def _alive(court: Court, cid: int) -> bool:
    c = court.char(cid)
    return c.alive and c.face_down_until is None


def _cargo(court: Court, player: str) -> int:
    v = court.players[player].voyage
    return 0 if v is None else v.cargo


def _set_cargo(court: Court, player: str, cargo: int) -> None:
    v = court.players[player].voyage
    if v is not None:
        court.set_player(player, voyage=replace(v, cargo=cargo))


def _end(court: Court, player: str) -> Voyage | None:
    v = court.players[player].voyage
    court.set_player(player, voyage=None, voyage_ended=court.turn)
    return v


def _home(court: Court, player: str, why: str) -> None:
    """13.4.17.1: in port the cargo becomes IP of the player who sent the ship out
    (halved while his PC is abroad, hiding or banished: 20.5, 24.3, 29.2)."""
    v = _end(court, player)
    cargo = 0 if v is None else v.cargo
    cut = halved(court, player)
    ip, _ = faction.gain(court, player, ip=half(cargo, cut))
    court.emit(EventId.PRIVATEER_HOME, {"player": player, "ip": ip, "why": why,
                                        "halved": cut and cargo > 1}, actor=player)


def _lost(court: Court, player: str, why: str, captain_dies: bool = False) -> None:
    """The voyage ends unsuccessfully: the cargo is lost; on row 2 a henchman captain dies."""
    v = _end(court, player)
    captain = None if v is None else v.captain
    dies = captain_dies and captain is not None and _alive(court, captain)
    court.emit(EventId.PRIVATEER_LOST, {
        "player": player, "why": why, "cargo": 0 if v is None else v.cargo,
        "captain": None if captain is None else str(captain), "captain_died": dies},
        actor=player)
    if dies and captain is not None:
        kill_character(court, captain, "privateering")
