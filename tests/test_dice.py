"""The dice module: seeded per (game seed, turn, subsystem), logged, scriptable."""

from __future__ import annotations

import pytest

from moderator.dice import Dice, DiceExhausted, DiceSpec, Roll, ScriptedDice, derive_seed


def test_same_seed_turn_and_subsystem_give_the_same_rolls() -> None:
    first = Dice.for_turn(1625, 3).stream("gambling")
    second = Dice.for_turn(1625, 3).stream("gambling")
    assert [first.roll("1d6", "x").total for _ in range(20)] == [
        second.roll("1d6", "x").total for _ in range(20)
    ]


def test_subsystems_are_independent() -> None:
    """Adding a theatre roll must not shift the gambling rolls."""
    plain = Dice.for_turn(7, 1)
    busy = Dice.for_turn(7, 1)
    busy.stream("theatre").roll("1d6", "first night")
    expected = [plain.stream("gambling").roll("1d6", "w").total for _ in range(10)]
    assert [busy.stream("gambling").roll("1d6", "w").total for _ in range(10)] == expected


def test_turns_and_seeds_differ() -> None:
    assert derive_seed(1, 1, "a") != derive_seed(1, 2, "a") != derive_seed(2, 1, "a")
    rolls = {tuple(Dice.for_turn(s, 1).stream("a").roll("3d6", "x").faces) for s in range(30)}
    assert len(rolls) > 10


def test_every_roll_is_logged_with_purpose_and_outcome() -> None:
    dice = ScriptedDice([4])
    roll = dice.stream("courting").roll("1d6", "courting Mlle Roxanne", actor="jacques", needs=3)
    assert roll.success is True
    assert dice.log == [roll]
    assert roll.describe() == "courting Mlle Roxanne: 1d6 = 4, needs 3: success"
    assert roll.to_dict()["actor"] == "jacques"


def test_multi_die_rolls_show_faces_and_modifier() -> None:
    roll = ScriptedDice([2, 5, 6]).roll("birth", "3d6", "strength", modifier=-1, needs=15)
    assert roll.total == 12
    assert roll.describe() == "strength: 3d6 = 2+5+6 = 13 -1 = 12, needs 15: failure"


def test_scripted_dice_per_subsystem_and_exhaustion() -> None:
    dice = ScriptedDice({"theatre": [6], "*": [1]})
    assert dice.stream("theatre").roll("1d6", "play").total == 6
    assert dice.stream("gambling").roll("1d6", "wager").total == 1
    with pytest.raises(DiceExhausted):
        dice.stream("theatre").roll("1d6", "play again")


def test_scripted_face_must_fit_the_die() -> None:
    with pytest.raises(ValueError):
        ScriptedDice([7]).stream("x").roll("1d6", "impossible")


@pytest.mark.parametrize(("text", "spec"), [("3d6", DiceSpec(3, 6)), ("d6", DiceSpec(1, 6)),
                                            ("2d6+4", DiceSpec(2, 6, 4)),
                                            ("1d100-1", DiceSpec(1, 100, -1))])
def test_dice_spec_round_trip(text: str, spec: DiceSpec) -> None:
    assert DiceSpec.parse(text) == spec
    assert DiceSpec.parse(str(spec)) == spec


@pytest.mark.parametrize("bad", ["", "d", "0d6", "2d1", "six", "1d6+x"])
def test_bad_dice_spec_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        DiceSpec.parse(bad)


def test_rolls_are_the_values_the_dataclass_builds() -> None:
    """`Dice.roll` builds its `Roll` without the dataclass's __init__ (speed): the same
    fields, in the same order, equal and hashed as `Roll(...)`; specs parsed once still
    come out canonical, and a wrong spec still raises."""
    from dataclasses import fields

    dice = ScriptedDice([3, 4, 5])
    one = dice.roll("duel", "d6", "why", actor="a", modifier=1)
    two = dice.roll("duel", " 2D6 + 0 ", "why", needs=7)
    assert one == Roll("duel", "why", "1d6", (3,), 1, "a", None)
    assert two == Roll("duel", "why", "2d6", (4, 5), 0, None, 7)
    assert list(vars(two)) == [f.name for f in fields(Roll)]
    assert hash(one) == hash(Roll("duel", "why", "1d6", (3,), 1, "a", None))
    assert (one.total, two.total, two.success) == (4, 9, True)
    with pytest.raises(ValueError):
        dice.roll("duel", "d1", "why")
