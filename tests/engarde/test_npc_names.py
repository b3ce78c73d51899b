"""`reserved_names` (EG §L): every name a lady of Paris has or may be given, which no
player's character may take (tests/players/test_npc_names.py: the desk's refusals)."""

from __future__ import annotations

from moderator.dice import Dice
from moderator.games.aliases import folded
from moderator.games.engarde import ENGINE
from moderator.games.engarde.tables import Tables
from tests.engarde.conftest import make_char, make_lady, make_state


def _reserved(state: dict[str, object], tables: Tables) -> set[str]:
    return {folded(n) for n in ENGINE.reserved_names(state, tables)}


def test_every_lady_a_month_draws_has_a_reserved_name(tables: Tables) -> None:
    state = make_state(*(make_char(k) for k in ("athos", "porthos", "aramis")))
    after = ENGINE.adjudicate(state, {}, tables, Dice.for_turn(7, 1)).state
    ladies = [lady["name"] for lady in after["ladies"].values()]
    assert ladies and {folded(n) for n in ladies} <= _reserved({}, tables)


def test_each_table_name_with_and_without_its_honorific(tables: Tables) -> None:
    s = tables.society
    reserved = ENGINE.reserved_names({}, tables)
    assert len(reserved) == len(s.given_names) * len(s.family_names) * (len(s.honorifics) + 1)
    assert {"Mlle Ninon de Lenclos", "Mme Ninon de Lenclos", "Ninon de Lenclos"} <= set(reserved)
    assert "Ninon" not in reserved and "Jacques de Lyon" not in reserved


def test_a_ladys_name_now_though_no_table_makes_it(tables: Tables) -> None:
    state = make_state(make_char("athos"), ladies=[make_lady("lady1", "Mme Zoé Zola (41)")])
    reserved = _reserved(state, tables)
    assert folded("Mme Zoé Zola (41)") in reserved and folded("Zoe Zola 41") in reserved
