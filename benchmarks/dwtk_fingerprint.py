"""Fingerprint of seeded DWTK games: proof that a speed-up changed no result.

Plays seeds 1..N (default 40) the way `bench_dwtk.bench_games` does (2-6 players by seed,
shuffled activity priority, reactions sent once, 30 turns) and prints one SHA-256 over the
JSON of every turn's parsed orders (orders, canonical lines, problems), result state, events
and dice log, key order included.  An optimisation must leave the value unchanged.

The order generator is a frozen copy of tests/dwtk/games.py `orders_for` (as of the speed
work), so that new order lines added there for new rules do not move the fingerprint; new
*rules* landing in the engine still may, legitimately (then re-record it).

With ``--batch`` the same games run on the engine's typed batch path (`Batching`: the
frozen state from turn to turn, its JSON form made only for the record): the same hash.

Run:  .venv/bin/python benchmarks/dwtk_fingerprint.py [--seeds 40] [--per-seed] [--batch]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the muster helper lives with the tests

from moderator.dice import Dice  # noqa: E402
from moderator.games.base import ParsedOrders  # noqa: E402
from moderator.games.dwtk import ENGINE  # noqa: E402
from tests.dwtk.conftest import TABLES, muster  # noqa: E402

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
          "IF AN OPPONENT FREES ANYONE THEN PLAY Port Guards\n")
SUPPORT = ("clergy", "peasant", "townsmen", "trade_guild", "army", "navy", "merchant")


def _shuffle(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    slots = [i for i, line in enumerate(lines) if line.startswith("DO ")]
    dos = [lines[i] for i in slots]
    rng.shuffle(dos)
    for i, line in zip(slots, dos, strict=True):
        lines[i] = line
    return "\n".join(lines) + "\n"


def _text(state: dict[str, Any], key: str, rng: random.Random) -> str:
    """One player's order sheet, as tests/dwtk/games.py `orders_for` (resend=False)."""
    p = state["players"][key]
    facs = [k for k, c in state["characters"].items() if c["owner"] == key and not c["pc"]]
    others = [p2["name"] for k2, p2 in sorted(state["players"].items()) if k2 != key]
    text = ORDERS.format(fac=facs[0] if facs else "PC", opponent=others[0])
    if state["turn"] % 3 == 0 and facs:
        text += f"HIDE {facs[-1]}\n"
    supports = [c for c in p["hand"] if c.rsplit("-", 1)[0].removesuffix("_support")
                in SUPPORT]
    if len(supports) >= 3:
        text += "USURP SUPPORT ALL\nRESTORE PC\nDISSOLVE\nAPPOINT High Minister : PC\n"
    if p["loyalty"]:
        text = f"DO RECRUIT {p['loyalty'][0]}\n" + text
    if p["reactions"]:  # reactions are standing orders: sent while none stand
        text = "".join(line for line in text.splitlines(keepends=True)
                       if not line.startswith("IF "))
    return _shuffle(text, rng)


def _parsed(p: ParsedOrders) -> list[Any]:
    return [p.orders, list(p.normal_form),
            [e.to_dict() for e in p.errors]]


def _event(stored: dict[str, Any]) -> dict[str, Any]:
    """An event as the fingerprint sees it: without the zero ``sp``/``crowns`` that the
    shared Event carried for every game until the engine contract lost them (a stored
    form, not a result), so the fingerprint compares results across that change."""
    return {k: v for k, v in stored.items() if k not in ("sp", "crowns") or v != 0}


def game(seed: int, turns: int = 30, batch: bool = False) -> str:
    """The SHA-256 of one seeded game; with ``batch`` the turns run on the engine's typed
    batch path (`Batching`: `read_orders`, `run_turn` on the frozen state from turn to
    turn), each turn's record made of the JSON forms it stores, which must hash alike."""
    digest = hashlib.sha256()
    rng = random.Random(seed)
    state = muster(2 + seed % 5)
    typed = ENGINE.load_state(state)
    for n in range(1, turns + 1):
        texts = {key: _text(state, key, rng) for key in state["players"]}
        parsed = {key: ENGINE.parse_orders(text, state, key, TABLES)
                  for key, text in texts.items()}
        dice = Dice.for_turn(seed, n)
        if batch:
            read = {key: ENGINE.read_orders(text, typed, key, TABLES)
                    for key, text in texts.items()}
            parsed = {key: ParsedOrders(ENGINE.store_orders(r.orders), p.normal_form, r.errors)
                      for (key, r), p in zip(read.items(), parsed.values(), strict=True)}
            turn = ENGINE.run_turn(typed, {k: r.orders for k, r in read.items()}, TABLES, dice)
            typed, events = turn.state, turn.events
            after = ENGINE.store_state(typed)
        else:
            result = ENGINE.adjudicate(state, {k: p.orders for k, p in parsed.items()},
                                       TABLES, dice)
            after, events = result.state, result.events
        record = {"parsed": {k: _parsed(p) for k, p in parsed.items()},
                  "state": after, "events": [_event(e.to_dict()) for e in events],
                  "dice": dice.log_dicts()}
        digest.update(json.dumps(record).encode())  # key order counts too
        state = after
        if state["phase"] == "over":
            break
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--per-seed", action="store_true", help="print each game's hash")
    parser.add_argument("--batch", action="store_true",
                        help="the turns on the engine's typed batch path (the same hash)")
    args = parser.parse_args()
    total = hashlib.sha256()
    for seed in range(1, args.seeds + 1):
        h = game(seed, batch=args.batch)
        total.update(h.encode())
        if args.per_seed:
            print(f"seed {seed}: {h}")
    print(f"seeds 1..{args.seeds}: {total.hexdigest()}")


if __name__ == "__main__":
    main()
