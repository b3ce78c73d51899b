"""Consult The Prestige Tables (DWTK 13.4.17; tables in data/dwtk/prestige.toml, PROPOSED).

``DO PRESTIGE <table> [BUY +1]``: the table's IP cost (and Two IP for the bought +1,
only while his modifier there is below +2), then 2d6 + his cumulative modifier on that
table (±2, `Player.prestige_mods`).  A female PC never consults Sporting.  One table a
turn (the parser refuses a second DO PRESTIGE; checked here too).  Privateering
(13.4.17.1) is privateering.py.  The Socializing roll of a wedding guest (13.4.16) is
`roll_on(..., wedding=True)`, free and not an activity.

Effects: IP/PP (never below zero, the PP limit by `faction.gain`), cut in half while his PC
is abroad, hiding or banished (20.5, 24.3, 29.2); a duel (19; "duel_drunk" +1 on the
PC's die, 19.9), ignored while hiding or banished (24.3, 29.2), abroad only with an
opponent in the same country (20.5, in `duels.required`); a scandal about the PC (22);
the PC accused (23.1); Proposal Automatically Accepted (18.4.5, `romance.free_proposal`).
"""

from __future__ import annotations

from moderator.games.dwtk import duels, faction, privateering, romance
from moderator.games.dwtk.acts import Refused, pay
from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.justice import accuse
from moderator.games.dwtk.orders.activity import Activity
from moderator.games.dwtk.privateering import half, halved, modifier, record
from moderator.games.dwtk.scandals import apply_scandal
from moderator.games.dwtk.state import Character, Situation
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import RangeRow, Sex


def consult(court: Court, player: str, a: Activity) -> None:
    """13.4.17: choose the table, pay, roll, apply the row and its modifier."""
    table = court.t.prestige.get(a.table or "")
    if table is None:
        raise Refused("no_such_table")
    pc = court.pc_of(player)
    if pc is None or not pc.alive or pc.face_down_until is not None:
        raise Refused("no_pc")
    if table.male_only and court.t.noble(pc.id).sex is Sex.FEMALE:
        raise Refused("female_pc")  # 13.4.17: never the Sporting Table
    if _consulted(court, player):
        raise Refused("one_table_a_turn")
    captain = privateering.captain_for(court, player, a.by) if a.table == "privateering" \
        else None
    if a.buy and modifier(court, player, table.key) >= court.t.rule("prestige_modifier_cap"):
        raise Refused("modifier_at_plus_two")
    cost = table.cost + (court.t.rule("prestige_modifier_cost") if a.buy else 0)
    pay(court, player, cost)
    bonus = 1 if a.buy else 0  # 13.4.17: the bought +1 is used on this roll only
    if table.key == "privateering":
        privateering.sail(court, player, captain, bonus, cost)
        return
    roll_on(court, player, table.key, bonus, cost=cost, bought=a.buy)


def _consulted(court: Court, player: str) -> bool:
    """13.4.17: one table a Player Turn (a wedding guest's roll and a voyage roll are not
    consultations: PROPOSED)."""
    for e in court.events:  # a plain loop over the turn's events: runs for every DO PRESTIGE
        eid = e.id
        if eid is _ROLL or eid == _ROLL:
            if not e.args.get("wedding") and e.args.get("player") == player:
                return True
        elif (eid is _SAILS or eid == _SAILS) and e.args.get("player") == player:
            return True
    return False


_ROLL, _SAILS = EventId.PRESTIGE_ROLL.value, EventId.PRIVATEER_SAILS.value


def roll_on(court: Court, player: str, key: str, bonus: int, *, cost: int = 0,
            bought: bool = False, wedding: bool = False, character: int | None = None) -> None:
    """2d6 + modifier on a Prestige Table and its row; ``character`` is whom the roll is
    for (his PC, or at his PC's wedding the spouse, 13.4.16)."""
    table = court.t.prestige[key]
    total = court.dice.roll("prestige", "2d6", f"{table.name} Table (DWTK 13.4.17)",
                            actor=player, modifier=modifier(court, player, key) + bonus).total
    row = table.table.lookup(total)
    mod = record(court, player, key, row.mod)
    cut = halved(court, player)
    pc = court.pc_of(player)
    who = court.char(character) if character is not None else pc
    skipped = _duel_ignored(pc, row)
    with faction.cause_first(court):  # the roll is told before whom its PP loss costs him
        ip, pp = faction.gain(court, player, ip=half(row.total("ip"), cut),
                              pp=half(row.total("pp"), cut))
        args = {"player": player, "table": key, "total": total, "ip": ip, "pp": pp,
                "mod": mod, "cost": cost, "bought": bought, "wedding": wedding,
                "halved": cut and bool(row.total("ip") or row.total("pp")),
                "effects": [str(e) for e in row.effects
                            if not (skipped and e.name.startswith("duel"))]
                + (["duel_ignored"] if skipped else [])}
        if character is not None:
            args["character"] = str(character)
        court.emit(EventId.PRESTIGE_ROLL, args, actor=player)
    if who is not None:
        _effects(court, player, key, who.id, row, skipped)


def _duel_ignored(pc: Character | None, row: RangeRow) -> bool:
    """24.3, 29.2: 'Fight A Duel' is ignored while his PC is in hiding or banished."""
    return pc is not None and pc.situation in (Situation.HIDING, Situation.BANISHED) \
        and (row.has("duel") or row.has("duel_drunk"))


def _present(court: Court, cid: int) -> bool:
    """31.5: a dead PC (face down) takes part in nothing, for neither gain nor loss."""
    c = court.char(cid)
    return c.alive and c.face_down_until is None


def _effects(court: Court, player: str, key: str, cid: int, row: RangeRow,
             skip_duel: bool) -> None:
    """The row's other effects, in the order the row lists them (IP/PP are done)."""
    for effect in row.effects:
        if effect.name in ("pp", "ip"):
            continue
        if effect.name == "proposal":
            romance.free_proposal(court, player, f"{key}_table")  # 18.4.5
            continue
        if not _present(court, cid):
            return
        if effect.name in ("duel", "duel_drunk") and not skip_duel:
            drunk = effect.name == "duel_drunk"  # 19.9: Carousing adds +1 to his die
            duels.required(court, cid, "carousing" if drunk else key, bonus=1 if drunk else 0)
        elif effect.name == "scandal":
            apply_scandal(court, cid, exposed=False)  # 22: a scandal from a Prestige Table
        elif effect.name == "accused":
            accuse(court, cid, f"prestige:{key}")  # 23.1 (25.11: abroad, a foreign one)
