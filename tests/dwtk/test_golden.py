"""The DWTK golden game: six players, scripted orders, seeded dice, played until Bob's
FARC has held the throne for three full turns (DWTK 37); orders in, gazettes out.

The plot (King George reigns; Support 80; seed 1981):

1. Turn 1: recruiting all round; Prince Alan declares for Bob (ALIGN); Ann's Sir Drew
   becomes a Monarch's Counselor; Bob's free Court Ball counsel pleases the King.
2. Turns 2-3: a plague empties the High Minister's seat; Eve's bid fails for want of IP;
   Dan intrigues Eve's DWTK card and her Sir Charles is tried (not guilty); Eve's
   henchman assassinates Queen Catherine; Peasant Unrest breaks out.
3. Turn 4: Dan's scandal gets Sir Charles tried again and banished to Sandarkan.
4. Turns 5-6, two famines: no IP spent; Fay's henchman kills the General; Bob bids for
   the Ministry of Trade and, its Minister, lets the Peasant Unrest fester (7.4).
5. The Court Balls of turns 7-8: Bob buys his way out of a duel (19.4); Dan's Knight
   William kills Ann's Sir Jeffrey, and at the next Ball the new General kills Sir Drew.
6. Turn 8: Cid's assassin misses Earl Duncan; Baroness Eleanor is tried, not guilty.
7. Turns 9-10: Bob bids for Trade again, buys the Treasury's Sir James and lets both
   problems stand (Knight William dies in a duel); the government falls into crisis (33).
8. Turn 11: Bob usurps with Prince Alan and six Support cards at their crisis maximum
   (36, 33.4); King George dies; Bob dissolves the government and appoints (36.14).
9. Turn 13: Cid's counter-coup with Phillip fails; her PC and Phillip die (36.7).
10. Turn 14 ends King Alan's third full turn: Bob wins and the game is over (37).

Files (tests/dwtk/golden/, read by tests/dwtk/golden_game.py):

- ``deal.txt`` — the fixed deal.  Bob's Army Support and two Peasant Support are swapped
  into his hand after the seeded deal (for two Informers and an Alibi), so the decisive
  Support hand does not hinge on the shuffle; he draws his Navy Support in turn 1.
- ``orders/NN.txt`` — each turn's orders, ``=== <player>`` sections as emailed (every line
  must parse without an error or a warning) and an optional ``=== dice`` section of forced
  faces.  **No die is forced**: every roll comes from ``Dice.for_turn(1981, turn)``.  The
  usurpation is decided by the crisis, not by luck: in a crisis each Support card counts
  at its maximum, unrolled (33.4), so Bob's 222 from his cards alone beat King George's
  largest possible rating.  Should an engine change move the story, force a roll with
  ``=== dice`` (e.g. ``usurpation = 6, 6``) and say so here.
- ``expected/NN/`` — what the players receive from adjudication NN (``00``: the deal and
  the start of turn 1): ``gazette.md`` and each player's sheet (``ann.md`` ...), rendered by
  the real publisher (``render_turn``).  Their HTML is rendered too and compared by the
  rerun, not committed.

To regenerate after an intended change of the engine, templates or data::

    DWTK_GOLDEN_REGEN=1 .venv/bin/python -m pytest -q tests/dwtk/test_golden.py

then read the diff of the gazettes.  test_the_story fails (and says why) if the new run no
longer reaches a three-turn reign: then adjust the orders (or force a die) and document it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from moderator.games.dwtk.invariants import check
from moderator.games.dwtk.state import GameState
from tests.dwtk import golden_game
from tests.dwtk.conftest import TABLES
from tests.dwtk.golden_game import GOLDEN, Turn

REGEN = os.environ.get("DWTK_GOLDEN_REGEN") == "1"
EXPECTED = GOLDEN / "expected"
USURPATION_TURN, VICTORY_TURN = 11, 14


@pytest.fixture(scope="module")
def game() -> list[Turn]:
    return golden_game.play()


def _folder(number: int) -> Path:
    return EXPECTED / f"{number:02d}"


def _stored(t: Turn) -> dict[str, str]:
    """The Markdown is committed; the HTML (derived from it) is compared by the rerun."""
    return {name: text for name, text in t.outputs.items() if name.endswith(".md")}


def _regenerate(turns: list[Turn]) -> None:
    EXPECTED.mkdir(parents=True, exist_ok=True)
    wanted = {_folder(t.number) / name for t in turns for name in _stored(t)}
    for stale in [p for p in EXPECTED.rglob("*") if p.is_file() and p not in wanted]:
        stale.unlink()
    for folder in [p for p in EXPECTED.iterdir() if p.is_dir() and not any(p.iterdir())]:
        folder.rmdir()
    for t in turns:
        _folder(t.number).mkdir(parents=True, exist_ok=True)
        for name, text in _stored(t).items():
            (_folder(t.number) / name).write_text(text)


def _first_difference(path: Path, text: str) -> str:
    if not path.exists():
        return f"{path.relative_to(GOLDEN)}: missing"
    old, new = path.read_text().splitlines(), text.splitlines()
    for n, (a, b) in enumerate(zip(old, new, strict=False), 1):
        if a != b:
            return f"{path.relative_to(GOLDEN)} line {n}: {a!r} -> {b!r}"
    return f"{path.relative_to(GOLDEN)}: {len(old)} lines -> {len(new)} lines"


def test_every_turn_matches_the_golden_files(game: list[Turn]) -> None:
    """DWTK 4, 10, 14.4: each adjudication's gazette and six private sheets (Markdown) are
    exactly the committed ones; no file is missing or left over."""
    if REGEN:
        _regenerate(game)
    differences = [_first_difference(_folder(t.number) / name, text)
                   for t in game for name, text in _stored(t).items()
                   if not (_folder(t.number) / name).exists()
                   or (_folder(t.number) / name).read_text() != text]
    produced = {_folder(t.number) / name for t in game for name in _stored(t)}
    extra = sorted(str(p.relative_to(GOLDEN)) for p in EXPECTED.rglob("*")
                   if p.is_file() and p not in produced)
    assert not differences and not extra, (
        f"golden files differ (DWTK_GOLDEN_REGEN=1 to accept): {len(differences)} files, "
        f"first: {differences[:3]}; left over: {extra[:5]}")
    assert len(game) == VICTORY_TURN + 1 and all(len(_stored(t)) == 7 for t in game)


def test_the_rerun_from_the_stored_start_is_byte_identical(game: list[Turn]) -> None:
    """The same initial state (through JSON, as stored) and orders give the same states,
    events and newsletters (Markdown and HTML), byte for byte (the service's ``turn
    rerun``)."""
    stored = json.loads(json.dumps(golden_game.initial_state()))
    again = golden_game.play(stored)
    assert [t.number for t in again] == [t.number for t in game]
    for first, second in zip(game, again, strict=True):
        assert second.result.state == first.result.state, first.number
        assert [e.to_dict() for e in second.result.events] == \
            [e.to_dict() for e in first.result.events], first.number
        for name, text in first.outputs.items():
            assert second.outputs[name].encode() == text.encode(), (first.number, name)


def test_invariants_hold_after_every_turn(game: list[Turn]) -> None:
    """issue 5 / DWTK 2.1.4, 14.2.8, 16.2, 32.1, 34.3, 35.3-35.4: `invariants.check` finds
    nothing after any adjudication, and the state round-trips through JSON."""
    for t in game:
        state = t.result.state
        assert check(GameState.from_dict(state), TABLES) == [], t.number
        assert GameState.from_dict(state).to_dict() == state, t.number


def _events(game: list[Turn], number: int, event_id: str) -> list[dict[str, Any]]:
    return [e.args for e in game[number].result.events if e.id == event_id]


def test_the_story(game: list[Turn]) -> None:
    """DWTK 33, 36.4-36.9, 36.14, 37: the key facts of the plot, asserted on the states.
    A failure here after a regeneration means the script no longer tells its story."""
    story = "the golden story no longer holds (see the test_golden docstring): "
    before = game[USURPATION_TURN].before
    assert before["support"] == 0, story + f"no crisis before turn {USURPATION_TURN}'s usurpation"
    attempts = _events(game, USURPATION_TURN, "usurp.attempt")
    assert [(a["player"], a["royal"], a["monarch"], a["success"]) for a in attempts] == [
        ("bob", "alan", "george", True)], story + f"Bob's usurpation: {attempts}"
    assert attempts[0]["attack"]["support_cards"] == 222, story + "six cards at their maximum"
    assert _events(game, USURPATION_TURN, "usurp.crowned")[0]["royal"] == "alan"
    assert not game[USURPATION_TURN].result.state["royals"]["george"]["alive"]
    assert _events(game, USURPATION_TURN, "office.dissolved"), story + "no dissolution"
    counter = _events(game, 13, "usurp.attempt")
    assert [(a["player"], a["royal"], a["success"]) for a in counter] == [
        ("cid", "phillip", False)], story + f"Cid's counter-coup: {counter}"
    assert not game[13].result.state["royals"]["phillip"]["alive"]
    for number, full_turns in ((11, 0), (12, 1), (13, 2)):
        state = game[number].result.state
        assert state["offices"]["monarch"] == "alan" and \
            state["royals"]["alan"]["owner"] == "bob", story + f"Alan's reign, turn {number}"
        assert state["farc_monarch_turns"] == full_turns and state["phase"] == "orders", (
            story + f"turn {number}: {state['farc_monarch_turns']} full turns, "
            f"{state['phase']}")
    last = game[VICTORY_TURN].result.state
    assert _events(game, VICTORY_TURN, "game.victory") == [{"player": "bob", "royal": "alan"}], \
        story + "no victory at the end of turn 14"
    assert last["phase"] == "over" and last["winner"] == "bob"
    assert last["farc_monarch_turns"] == 3 and last["turn"] == VICTORY_TURN
    assert all(not _events(game, n, "game.victory") for n in range(VICTORY_TURN)), \
        story + "the game ended early"


def test_forced_dice_come_first_then_the_seeded_ones(tmp_path: Path) -> None:
    """The ``=== dice`` section (documented forcing, DWTK 2.3 dice): the first faces of a
    subsystem are the forced ones, the rest are the seeded dice of that turn."""
    path = tmp_path / "01.txt"
    path.write_text("=== dice\nusurpation = 6, 1  # forced\n=== bob\nUSURP\n")
    script = golden_game.read_script(path)
    assert script.dice == {"usurpation": (6, 1)} and script.orders == {"bob": "USURP\n"}
    seeded = golden_game.SeededFaces(golden_game.SEED, 11)
    faces = golden_game.ForcedFaces(golden_game.SeededFaces(golden_game.SEED, 11),
                                    {"usurpation": [6, 1]})
    rolled = [faces.face("usurpation", 6) for _ in range(4)]
    assert rolled[:2] == [6, 1]
    assert rolled[2:] == [seeded.face("usurpation", 6) for _ in range(2)]
    with pytest.raises(golden_game.ScriptError):
        golden_game.ForcedFaces(seeded, {"crown": [7]}).face("crown", 6)
