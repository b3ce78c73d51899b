"""Prepare for play (DWTK 3) and players joining by email.

By email the players sign up one at a time, and the two-player variant (3.1.1) can only
be chosen once everyone is in.  So `add_player` only takes a seat; the deal of 3.1-3.11
runs at the first adjudication (`deal`), when the number of players is known.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.state import Character, GameState, Phase, Player, Royal
from moderator.games.dwtk.state.court import Court
from moderator.games.dwtk.tables import NobleKind, OfficeKind, Tables, kind_of


def new_game(name: str, tables: Tables) -> GameState:
    """DWTK 3.5-3.7: George on the throne, Catherine his queen, every office vacant."""
    royals = {r.key: Royal(r.key) for r in tables.royals}
    royals["george"] = replace(royals["george"], spouse="catherine")  # 18.5
    royals["catherine"] = replace(royals["catherine"], spouse="george")
    offices: dict[str, str | None] = {o.key: None for o in tables.offices}
    offices["monarch"] = "george"
    return GameState(name=name, royals=royals, offices=offices)


def add_player(state: GameState, key: str, name: str, tables: Tables) -> GameState:
    """A player takes the next seat round the table (DWTK 1: two to six players)."""
    if state.phase is not Phase.MUSTER:
        raise ValueError("the court has assembled: no new nobles may join (DWTK 3)")
    if key in state.players:
        raise ValueError(f"player {key!r} already exists")
    if len(state.players) >= int(tables.setup["players_max"]):
        raise ValueError(f"Down with the King takes at most {tables.setup['players_max']} "
                         "players (DWTK 1)")
    player = Player(key=key, name=name, seat=len(state.players))
    return replace(state, players={**state.players, key: player})


def deal(court: Court) -> bool:
    """DWTK 3.1-3.11 for the players now seated; False if there are too few to start."""
    t = court.t
    seats = court.seats
    if len(seats) < int(t.setup["players_min"]):
        court.emit(EventId.SETUP_DONE, {"started": False, "players": len(seats)})
        return False
    two = len(seats) == 2
    court.characters = {n.id: Character(n.id) for n in t.nobles}
    # 3.1 / 3.1.1: each player's PC.
    pool = t.setup["pc_cards_two_players"] if two else t.setup["pc_cards"]
    pcs = court.shuffle(sorted(pool), "setup", "shuffle the PC cards")
    for key, pc in zip(seats, pcs, strict=False):
        lady = t.noble(pc).kind is NobleKind.LADY
        fixed = int(t.setup["two_player_lady_status"]) if two and lady else None
        court.characters[pc] = replace(court.characters[pc], owner=key, pc=True,
                                       fixed_status=fixed)
        court.set_player(key, pc=pc, ip=int(t.setup["start_ip"]), pp=int(t.setup["start_pp"]))
        court.emit(EventId.SETUP_PC, {"player": key, "pc": str(pc), "countess": fixed is not None},
                   actor=key)
    # 3.3: office holders from 11-44, less the PCs; one on each office but the Monarch.
    taken = {p.pc for p in court.players.values()}
    holders = court.shuffle([c for c in t.setup["office_holder_cards"] if c not in taken],
                            "setup", "shuffle the Office Holder pile")
    for office in (o for o in t.offices if o.kind is not OfficeKind.MONARCH):
        cid = holders.pop(0)
        court.seat_in_office(cid, office.key)
        court.emit(EventId.SETUP_OFFICE, {"office": office.key, "holder": str(cid)})
    # 3.9: one DOWN WITH THE KING card each; the rest of them leave the game.
    cards = t.card_instances()
    dwtk = [c for c in cards if kind_of(c) == "dwtk"]
    for key, card in zip(seats, dwtk, strict=False):
        court.set_player(key, hand=(card,))
    court.removed = dwtk[len(seats):]
    court.deck = court.shuffle([c for c in cards if kind_of(c) != "dwtk"], "shuffle",
                               "shuffle the Event Deck")
    for _ in range(int(t.setup["hand"])):
        for key in seats:
            court.draw_card(key)
    for key in seats:
        court.set_player(key, drawn=())
        court.emit(EventId.SETUP_HAND, {"cards": len(court.players[key].hand)}, actor=key,
                   public=False)
    # 3.10: the Monarch's Support.  3.11: counters.
    court.roll_support("the Monarch's Support (DWTK 3.10)")
    court.loyalty_pool = sorted(n.id for n in t.nobles if n.id not in taken)
    court.opportunity_pool = list(t.opportunity_instances())
    court.emit(EventId.SETUP_DONE, {"started": True, "players": len(seats),
                                    "two_player": two, "support": court.support})
    court.phase = Phase.ORDERS
    return True
