"""The Fief: England golden game: four players, orders as text, seeded dice (no die forced),
gazettes and sheets rendered by the real publisher, played to a victory in Round 7.

The story (seed 1429; tests/fief/golden/orders/):

1. Muster: Ann at Durham (Red), Bob at London (Green), Cid at Exeter (Blue), Dan at Norwich
   (Yellow).  Round 1: each spreads out; Arthur of Blue becomes Archbishop of York.
2. Round 2: Simon buys the Barony of the Marches (Durham fortified); Dan's Cecily joins.
3. Round 3: Ann's Tallage on the Marches; Cid's County of the South West and Dan's Duchy of
   the Midlands; Isabel takes York and Whitby.  Lucia of Yellow is elected Sovereign Queen
   (3 votes to 1); the Plague falls on the Marches and kills Simon: Isabel is Baroness.
4. Round 4: Bob's Duchy of the South East; Ann builds at York, takes Lincoln.
5. Round 5: Isabel's County of the North: Ann leads with 2 VP.  Dan's Hugh attacks Lincoln
   and is captured; Bob's Philippa kills Arthur at Oxford.
6. Round 6: Cid's Anabel has Isabel assassinated: both titles go back to the deck, and her
   troops at Lincoln fall back to Ann's cities (FE 10.3).
7. Round 7: three invader armies land at Whitby; they take Whitby and King's Lynn, stall
   before York's walls, and one sails home.  Bob, Cid and Dan end on 1 VP each: the
   Sovereign Queen's family wins the tie (FE 8.5).
"""

from __future__ import annotations

import json

from tests.fief.golden_game import GOLDEN, play


def test_the_golden_game_renders_exactly_what_is_committed() -> None:
    produced = play()
    folders = sorted(p for p in (GOLDEN / "expected").iterdir() if p.is_dir())
    assert len(folders) == len(produced)
    for folder, files in zip(folders, produced, strict=True):
        for name, text in files.items():
            assert (folder / name).read_text() == text, f"{folder.name}/{name}"


def test_the_golden_game_ends_in_a_victory() -> None:
    final = json.loads(play()[-1]["state.json"])
    assert final["phase"] == "over" and final["winners"] == ["dan"] and final["round"] == 7
    assert "Dan wins Fief: England in Round 7: the tie is broken" in play()[-1]["gazette.md"]


def test_the_golden_game_reruns_byte_identically() -> None:
    assert play() == play()
