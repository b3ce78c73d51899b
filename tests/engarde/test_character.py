"""EG §A–B character creation with scripted dice (reference §2 birth tables)."""

from __future__ import annotations

from moderator.dice import ScriptedDice
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import _TABLES, assert_event

STATS = [3, 4, 5, 6, 6, 6, 2, 2, 2, 4]  # Str 12, Con 18, Exp 6, MA 4


def create(faces: list[int], key: str = "gaston") -> tuple[dict, tuple]:
    state = ENGINE.new_game("Test", _TABLES, ScriptedDice([]))
    rolls = ScriptedDice({f"birth:{key}": STATS + faces})
    state, events = ENGINE.add_character(state, key, "Gaston", _TABLES, rolls)
    assert rolls.remaining() == {}
    return state["characters"][key], events


def test_stats_endurance_and_expertise_per_weapon() -> None:
    """EG §A: Str, Con, Exp on 3d6; End = Str x Con; MA on 1d6; Exp per weapon."""
    c, _ = create([3, 3, 3])  # gentleman, second son, impoverished
    assert (c["strength"], c["constitution"], c["endurance"]) == (12, 18, 216)
    assert c["military_ability"] == 4
    assert c["expertise"] == {"rapier": 6, "sabre": 6, "cutlass": 6}


def test_orphan_first_son_of_a_noble_inherits_title_and_family_home() -> None:
    """EG §B: an orphaned first son gets the inheritance, no allowance, the father's
    title and +3 SL; EG §P: a Comte keeps a family mansion."""
    c, events = create([5, 1, 1, 4, 4])  # noble, first son, orphan, wealthy, Comte
    assert c["title"] == "comte" and c["orphan"] is True
    assert c["sl"] == 9 + 1 + 3
    assert (c["crowns"], c["allowance"]) == (4000, 0)
    assert c["home"] == {"area": "ile_de_la_cite", "kind": "mansion", "tenure": "family"}
    assert_event(events, "character.created", "gaston", title="Comte")
    assert_event(events, "housing.family_home", "gaston", house="Mansion")


def test_first_son_not_orphaned_gets_ten_percent_more() -> None:
    """EG §B: first son: funds and allowance +10%, SL +1."""
    c, _ = create([3, 1, 4, 6])  # gentleman, first son, not orphan, very wealthy
    assert (c["sl"], c["crowns"], c["allowance"], c["title"]) == (6, 825, 137, None)


def test_noble_second_son_has_no_title_or_home() -> None:
    c, _ = create([6, 3, 1, 6])  # noble, second son, impoverished, Duc
    assert (c["sl"], c["title"], c["home"]) == (11, None, None)


def test_peasant_bastard_starts_at_the_bottom() -> None:
    """EG §B; reference §2: bastards lose 10% and 1 SL (a peasant's bastard is SL 1)."""
    c, _ = create([1, 6, 2])
    assert (c["sl"], c["crowns"], c["allowance"]) == (1, 9, 0)
