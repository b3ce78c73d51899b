"""The driver of the DWTK golden game (tests/dwtk/test_golden.py): the script as data, the
fixed deal, forced dice, and one whole game played and rendered through the publisher.

The script lives in ``tests/dwtk/golden/``:

- ``deal.txt`` — the fixed deal: after the seeded deal (DWTK 3), cards are swapped so the
  story's decisive hands do not hinge on the shuffle.  ``bob: army_support FOR informer``
  gives Bob the first Army Support found (the Event pile from the top, then the other
  hands in seat order) and puts his Informer exactly where that card was; so every card
  stays accounted for (2.1.4) and no hand changes size.
- ``orders/NN.txt`` — turn NN's orders as the players email them: ``=== <player>``
  sections of order text (parsed by ``ENGINE.parse_orders``; no line may be refused by
  the parser), and an optional ``=== dice`` section of forced faces, ``<subsystem> =
  5, 6, 4``: the first rolls of that subsystem in this adjudication get these faces,
  the rest come from the seeded dice (``Dice.for_turn(SEED, turn)``).  Every forced face
  must be used.
- ``expected/NN/`` — the gazette and the six private turn sheets rendered from turn NN's
  adjudication (``00``: the deal and the start of turn 1), in Markdown (the HTML is
  rendered too, and compared by the rerun, but not committed).
"""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moderator.dice import Dice, SeededFaces
from moderator.games.base import TurnResult
from moderator.games.dwtk import ENGINE
from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.tables import kind_of
from moderator.publish.newsletter import Reader, TurnData, render_turn
from tests.dwtk.conftest import TABLES

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 1981
GAME = "Golden Fandonia"
PLAYERS = (("ann", "Ann"), ("bob", "Bob"), ("cid", "Cid"), ("dan", "Dan"), ("eve", "Eve"),
           ("fay", "Fay"))
READERS = tuple(Reader(i, key, name, f"{key}@golden.example")
                for i, (key, name) in enumerate(PLAYERS, 1))
JSON = dict[str, Any]


class ScriptError(AssertionError):
    """The golden script itself is wrong (a typo, a card not found, a die left over)."""


@dataclass
class ForcedFaces:
    """Seeded faces, but the first faces of some subsystems are forced (documented in the
    turn's ``=== dice`` section)."""

    seeded: SeededFaces
    forced: dict[str, list[int]]

    def face(self, subsystem: str, sides: int) -> int:
        queue = self.forced.get(subsystem)
        if queue:
            value = queue.pop(0)
            if not 1 <= value <= sides:
                raise ScriptError(f"forced face {value} impossible on a d{sides} ({subsystem})")
            return value
        return self.seeded.face(subsystem, sides)


@dataclass(frozen=True)
class Script:
    """One turn's orders (by player) and forced dice (by subsystem)."""

    orders: Mapping[str, str]
    dice: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


def read_script(path: Path) -> Script:
    sections: dict[str, list[str]] = defaultdict(list)
    key = None
    for line in path.read_text().splitlines():
        if line.startswith("=== "):
            key = line[4:].strip()
            sections[key]
        elif key is not None:
            sections[key].append(line)
    dice: dict[str, tuple[int, ...]] = {}
    for line in sections.pop("dice", []):
        text = line.split("#", 1)[0].strip()
        if text:
            subsystem, _, faces = text.partition("=")
            dice[subsystem.strip()] = tuple(int(f) for f in faces.split(","))
    unknown = set(sections) - {key for key, _ in PLAYERS}
    if unknown:
        raise ScriptError(f"{path.name}: unknown sections {sorted(unknown)}")
    return Script({k: "\n".join(v) + "\n" for k, v in sections.items()}, dice)


def scripts() -> list[Script]:
    """Every turn's script, turn 1 first (``orders/01.txt`` ...)."""
    paths = sorted((GOLDEN / "orders").glob("*.txt"))
    if [p.stem for p in paths] != [f"{n:02d}" for n in range(1, len(paths) + 1)]:
        raise ScriptError(f"orders files must be 01.txt, 02.txt ...: {[p.name for p in paths]}")
    return [read_script(p) for p in paths]


def initial_state() -> JSON:
    """The six players seated, nothing dealt yet (the deal is the first adjudication)."""
    state = ENGINE.new_game(GAME, TABLES, Dice.for_turn(SEED, 0))
    for key, name in PLAYERS:
        state, _ = ENGINE.add_character(state, key, name, TABLES, Dice.for_turn(SEED, 0))
    return state


# -- the fixed deal ----------------------------------------------------------------------


def read_deal(path: Path) -> list[tuple[str, str, str]]:
    """``player: wanted FOR given`` lines (``#`` comments)."""
    swaps = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        player, _, rest = text.partition(":")
        wanted, _, given = rest.partition(" FOR ")
        if not given:
            raise ScriptError(f"deal.txt line {n}: write 'player: wanted FOR given'")
        swaps.append((player.strip(), wanted.strip(), given.strip()))
    return swaps


def fix_deal(state: JSON, swaps: list[tuple[str, str, str]]) -> JSON:
    """Swap cards as ``deal.txt`` says (see the module docstring); a card drawn at the
    start of turn 1 is never moved, so the draw events stay true."""
    state = copy.deepcopy(state)
    players = state["players"]
    seats = sorted(players, key=lambda k: players[k]["seat"])
    drawn = {c for p in players.values() for c in p["drawn"]}
    for player, wanted, given in swaps:
        hand = players[player]["hand"]
        mine = next((c for c in hand if kind_of(c) == given and c not in drawn), None)
        if mine is None:
            raise ScriptError(f"deal: {player} holds no {given}")
        places = [state["deck"], *(players[k]["hand"] for k in seats if k != player)]
        for place in places:
            theirs = next((c for c in place if kind_of(c) == wanted and c not in drawn), None)
            if theirs is not None:
                place[place.index(theirs)] = mine
                hand[hand.index(mine)] = theirs
                break
        else:
            raise ScriptError(f"deal: no {wanted} left to give {player}")
    return state


# -- one game ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One adjudication: the state before, the result and what the players received."""

    number: int
    before: JSON
    result: TurnResult
    outputs: Mapping[str, str]  # file name -> text (gazette.md, ann.md, ann.html ...)


def render(number: int, before: JSON, result: TurnResult, dice: Dice) -> dict[str, str]:
    """The gazette and each private sheet through the real publisher (render_turn)."""
    data = TurnData(GAME, number, ENGINE.turn_label(before), None, before, result.state,
                    result.events, dice.log_dicts())
    rendered = render_turn(ROOT / "templates", ENGINE, TABLES, data, READERS)
    out = {"gazette.md": rendered.gazette.markdown, "gazette.html": rendered.gazette.html}
    for reader in READERS:
        sheet = rendered.sheets[reader.player_id]
        out[f"{reader.character}.md"] = sheet.markdown
        out[f"{reader.character}.html"] = sheet.html
    return out


def parse(script: Script, state: JSON) -> dict[str, JSON]:
    orders = {}
    for key, text in sorted(script.orders.items()):
        parsed = ENGINE.parse_orders(text, state, key, TABLES)
        if parsed.errors:  # the script is written as players would: no error, no warning
            raise ScriptError(f"turn {state['turn']}, {key}: {list(parsed.errors)}")
        orders[key] = parsed.orders
    return orders


def adjudicate(number: int, state: JSON, script: Script) -> tuple[TurnResult, Dice]:
    forced = {k: list(v) for k, v in script.dice.items()}
    dice = Dice(ForcedFaces(SeededFaces(SEED, state["turn"]), forced))
    result = ENGINE.adjudicate(state, parse(script, state), TABLES, dice)
    left = {k: v for k, v in forced.items() if v}
    if left:
        raise ScriptError(f"turn {number}: forced dice never rolled: {left}")
    return result, dice


def invariants(number: int, state: JSON) -> None:
    game = GameState.from_dict(state)
    if game.to_dict() != state or json.loads(json.dumps(state)) != state:
        raise AssertionError(f"turn {number}: the state does not round-trip")
    problems = check(game, TABLES)
    if problems:
        raise AssertionError(f"turn {number}: invariants broken: {problems}")


def play(start: JSON | None = None) -> list[Turn]:
    """The whole golden game: the deal (turn 0, then the fixed deal) and every scripted
    turn until the game is over; the invariants are checked after every adjudication."""
    state = json.loads(json.dumps(start if start is not None else initial_state()))
    turns: list[Turn] = []
    result, dice = adjudicate(0, state, Script({}))
    result = TurnResult(fix_deal(result.state, read_deal(GOLDEN / "deal.txt")), result.events)
    for number, script in enumerate([Script({}), *scripts()]):
        if number:
            if state["phase"] == "over":
                raise ScriptError(f"orders/{number:02d}.txt: the game was already over")
            result, dice = adjudicate(number, state, script)
        invariants(number, result.state)
        turns.append(Turn(number, state, result, render(number, state, result, dice)))
        state = result.state
    return turns
