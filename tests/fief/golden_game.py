"""The driver of the Fief: England golden game (tests/fief/test_golden.py).

- ``golden/orders/NN.txt``: adjudication NN's orders as the players email them, in
  ``=== <player>`` sections (every line must parse without an error; a warning stands).
  ``00`` is the muster.  Every die comes from ``Dice.for_turn(SEED, NN + 1)``: none is forced.
- ``golden/expected/NN/``: what the players receive from adjudication NN, rendered by the
  real publisher (``render_turn``): ``gazette.md`` and one sheet a player.

Regenerate after an intended change with ``python -m tests.fief.golden_game --write`` and
read the diff: it is the story of the change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from moderator.dice import Dice
from moderator.games.fief import ENGINE
from moderator.publish.newsletter import Reader, TurnData, render_turn
from tests.fief.conftest import TABLES
from tests.fief.invariants import problems

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 1429
GAME = "Golden England"
PLAYERS = (("ann", "Ann"), ("bob", "Bob"), ("cid", "Cid"), ("dan", "Dan"))
READERS = tuple(Reader(i, key, name, f"{key}@golden.example")
                for i, (key, name) in enumerate(PLAYERS, 1))


def read_orders(path: Path) -> dict[str, str]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in path.read_text().splitlines():
        if line.startswith("=== "):
            current = line[4:].strip()
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return {k: "\n".join(v) + "\n" for k, v in sections.items()}


def initial_state() -> dict[str, Any]:
    state = ENGINE.new_game(GAME, TABLES, Dice.for_turn(SEED, 0))
    for key, name in PLAYERS:
        state, _ = ENGINE.add_character(state, key, name, TABLES, Dice.for_turn(SEED, 0))
    return state


def play() -> list[dict[str, str]]:
    """Every adjudication's rendered gazette and sheets, in order."""
    state = initial_state()
    out = []
    for path in sorted((GOLDEN / "orders").glob("*.txt")):
        number = int(path.stem)
        orders = {}
        for player, text in read_orders(path).items():
            parsed = ENGINE.parse_orders(text, state, player, TABLES)
            # A warning keeps its line (the receipt's "please check"), as by mail: Dan's
            # PLAY NOBLE Herbert in 04.txt, his family full, is refused on his sheet.
            if parsed.hard_errors:
                raise AssertionError(f"{path.name} {player}: {parsed.hard_errors}")
            orders[player] = parsed.orders
        dice = Dice.for_turn(SEED, number + 1)
        before = state
        result = ENGINE.adjudicate(before, orders, TABLES, dice)
        state = json.loads(json.dumps(result.state))
        assert problems(state, TABLES) == [], (number, problems(state, TABLES))
        data = TurnData(GAME, number + 1, ENGINE.turn_label(before), None, before, state,
                        result.events, dice.log_dicts())
        rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, READERS)
        files = {"gazette.md": rendered.gazette.markdown}
        for reader in READERS:
            files[f"{reader.character}.md"] = rendered.sheets[reader.player_id].markdown
        files["state.json"] = json.dumps(state, sort_keys=True, indent=1) + "\n"
        out.append(files)
    return out


def write() -> None:
    for number, files in enumerate(play()):
        folder = GOLDEN / "expected" / f"{number:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text)


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
    else:
        final = play()[-1]
        print(final["gazette.md"])
