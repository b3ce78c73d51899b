"""Whole seeded games for the tests and the benchmark: the order generator and the loop.

`sheets_for` writes every player a full order sheet from the state (every activity, counsel,
reaction and, for a player holding three Support cards, a usurpation); the engine does the
first legal ones, so the orders are legal whatever the state.  Given an ``rng`` the
activity lines (``DO ...``) are shuffled, so the priority order, and hence which activities
are done, varies from player to player and turn to turn.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from moderator.dice import Dice
from moderator.games.base import Event
from moderator.games.capabilities import StateTurn
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.state import GameState, Phase, Player
from tests.dwtk.conftest import TABLES, muster

ORDERS = ("DO ASSASSINATE King George WITH 2 CARDS\nDO ASSASSINATE Earl Maxwell\n"
          "DO SCANDAL Earl Maxwell\nDO TITLE PC\nDO DRAW EVENT\nBUY 1 PP\n"
          "ALIGN Prince Alan\nALIGN Jane\n"
          "BID High Minister : PC\nBID Minister Of Justice : PC\nPROBLEM Pirates -\n"
          "DO HENCHMAN {fac}\nDO COUNSELOR {fac}\nDO TRAVEL {fac} TO Epalin\n"
          "IF ANYONE HEARS MINE THEN HIDE\nIF ANYONE TRIES ANYONE THEN PLAY Evidence\n"
          "IF ANYONE HEARS MINE THEN PLAY Alibi\nIF ANYONE JAILS MINE THEN PAY\n"
          "IF ANYONE TRIES ANYONE THEN MODIFY -\nIF ANYONE HUNTS ANYONE THEN OBSTRUCT\n"
          "IF ANYONE BANISHES ANYONE THEN CHOOSE Epalin\n"
          "IF ANYONE INTERROGATES MINE THEN PLAY Prison Guards -\n"
          "IF AN OPPONENT COURTS ANYONE THEN PLAY Treachery\n"
          "IF ANYONE EXPOSES MINE THEN PLAY Informer\n"
          "IF AN OPPONENT DUELS MINE THEN PLAY Treachery -\nIF ANYONE DUELS PC THEN PAY\n"
          "IF AN OPPONENT COUNSELS ANYONE THEN MODIFY -\n"
          "IF AN OPPONENT ASSASSINATES MINE THEN PLAY Personal Guards\n"
          "IF AN OPPONENT ASSASSINATES ANYONE THEN PLAY Palace Guards -\n"
          "COUNSEL Make An Example ON Lawlessness NAMING 32\n"
          "COUNSEL Send Out The Fleet ON Pirates\nCOUNSEL Demand A Hearing ON Scandal\n"
          "COUNSEL Recommend A Title ON Court Ball NAMING PC\n"
          "COUNSEL Sue For Peace ON Foreign War\n"
          "DO ESCAPE PC TO Cronos\nDO INTRIGUE {opponent}\nUNHIDE {fac}\nSUICIDE PC\n"
          "IF AN OPPONENT FREES ANYONE THEN PLAY Prison Guards\n"
          "IF AN OPPONENT FREES ANYONE THEN PLAY Port Guards\n"
          # 13.4.14-13.4.16, 13.4.20, 17.2.4, 15 (AS), 24.7/35.5 (LOSE FIRST below)
          "DO TREACHERY Earl Maxwell\nDO SEDUCE Duke Roland BY PC\n"
          "IF AN OPPONENT SEDUCES MINE THEN PLAY Treachery\nDO PARDON PC\nDO AMNESTY\n"
          "SOLICIT BRIBE 3\nBRIBE 22 WITH 3 IP\nDO FAVOR Prince Alan BY {fac}\n"
          "PROBLEM Lawlessness +\nATTEND WEDDINGS\n"
          "COUNSEL Recommend An Appointment ON Court Ball NAMING {fac} AS Minister Of Trade\n"
          "COUNSEL Recommend An Appointment ON Court Ball NAMING PC\n")
# One Prestige Table a turn (13.4.17), by turn.
PRESTIGE = ("Carousing BUY +1", "Privateering", "Romance", "Privateering CAPTAIN {fac}",
            "Socializing BUY +1", "Sporting")
SUPPORT = ("clergy", "peasant", "townsmen", "trade_guild", "army", "navy", "merchant")


def _shuffle_activities(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    slots = [i for i, line in enumerate(lines) if line.startswith("DO ")]
    dos = [lines[i] for i in slots]
    rng.shuffle(dos)
    for i, line in zip(slots, dos, strict=True):
        lines[i] = line
    return "\n".join(lines) + "\n"


def _standing_once(text: str, p: Player) -> str:
    """Reactions are standing orders (kept until withdrawn): send them while none stand."""
    if not p.reactions:
        return text
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("IF "))


def sheets_for(state: GameState, rng: random.Random | None = None,
               resend: bool = True) -> dict[str, str]:
    """Every player's order sheet for ``state`` (shuffled activity priority with ``rng``;
    without ``resend`` the reaction orders only while the player has none standing)."""
    out = {}
    for key, p in state.players.items():
        facs = [str(k) for k, c in state.characters.items() if c.owner == key and not c.pc]
        others = [p2.name for k2, p2 in sorted(state.players.items()) if k2 != key]
        text = ORDERS.format(fac=facs[0] if facs else "PC", opponent=others[0])
        fac, fac2 = (facs[0], facs[-1]) if facs else ("PC", "PC")
        text += "DO PRESTIGE " + PRESTIGE[state.turn % len(PRESTIGE)].format(fac=fac) + "\n"
        if facs:  # 18.4, 13.4.16
            text += (f"PROPOSE {fac} TO {fac2}\nPROPOSE PC TO {fac2}\n"
                     f"PROPOSE {fac2} TO {fac}\nPROPOSE {fac} TO Princess Anne\n"
                     f"PROPOSE {fac2} TO PC IF FREE\n")
            text += (f"DO WEDDING {fac} AND {fac2}\n" if state.turn % 2 else
                     f"DO WEDDING PC AND {fac2}\n")
        if state.turn % 3 == 0 and facs:
            text += f"HIDE {facs[-1]}\n"  # 24.2; UNHIDE of facs[0] comes first
            text += f"LOSE FIRST {facs[-1]}\n"  # 35.5; the one in hiding: 24.7 when lost
        elif state.turn % 5 == 4:
            text += "LOSE FIRST NONE\n"
        supports = [c for c in p.hand if c.rsplit("-", 1)[0].removesuffix("_support")
                    in SUPPORT]
        if len(supports) >= 3:
            text += "USURP SUPPORT ALL\nRESTORE PC\nDISSOLVE\nAPPOINT High Minister : PC\n"
        if p.loyalty:
            text = f"DO RECRUIT {p.loyalty[0]}\n" + text
        if not resend:
            text = _standing_once(text, p)
        if rng is not None:
            text = _shuffle_activities(text, rng)
        out[key] = text
    return out


def orders_for(state: dict[str, Any], rng: random.Random | None = None,
               resend: bool = True) -> dict[str, Any]:
    """`sheets_for` parsed the service's way (`parse_orders`): the orders' JSON forms."""
    return {key: ENGINE.parse_orders(text, state, key, TABLES).orders
            for key, text in sheets_for(GameState.from_dict(state), rng, resend).items()}


def players_for(seed: int) -> int:
    """2-6 players, varying with the seed."""
    return 2 + seed % 5


AfterTurn = Callable[[int, GameState, StateTurn[GameState]], None]


def play(seed: int, players: int, turns: int = 30, *, shuffle: bool = False,
         resend: bool = True, roundtrip: bool = True, checked: bool = True,
         after_turn: AfterTurn | None = None) -> tuple[dict[str, Any], list[Event]]:
    """Play ``turns`` turns (or until the game is over) from seeded dice, with orders from
    `sheets_for` (``shuffle``: a ``random.Random(seed)`` for it; ``resend``), on the
    engine's frozen values from turn to turn (`Batching`: `read_orders`, `run_turn`);
    after every turn assert every invariant of `invariants.check` (and, with
    ``roundtrip``, that the state survives JSON unchanged: its stored form read back is
    the same value, field by field and in the same order), naming the seed and turn on
    failure; ``after_turn(turn, state_before, turn_result)`` is called after every turn.
    Returns the last state's JSON form and every event."""
    rng = random.Random(seed) if shuffle else None
    state = ENGINE.load_state(muster(players))
    seen: list[Event] = []
    for n in range(1, turns + 1):
        before = state
        orders = {key: ENGINE.read_orders(text, state, key, TABLES).orders
                  for key, text in sheets_for(state, rng, resend).items()}
        result = ENGINE.run_turn(state, orders, TABLES, Dice.for_turn(seed, n))
        state = result.state
        seen.extend(result.events)
        if checked:
            if roundtrip:
                stored = ENGINE.store_state(state)
                assert repr(ENGINE.load_state(stored)) == repr(state) and \
                    json.loads(json.dumps(stored)) == stored, (
                        f"seed {seed}, turn {n}: state does not round-trip")
            problems = check(state, TABLES)
            assert problems == [], f"seed {seed}, turn {n} ({players} players): {problems}"
        if after_turn is not None:
            after_turn(n, before, result)
        if state.phase is Phase.OVER:
            break
    return ENGINE.store_state(state), seen
