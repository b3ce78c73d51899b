"""Rule cases for Abroad, DWTK 20 (13.4.18 travel, 7.10.1 war, 20.3 Ministers, 20.4
Ambassadors, 20.6 the advantages, 20.7 those never abroad).  The dealt game (seed 1): Ann's
PC is 24, Bob's 64, Cid's 26; the Minister of the Navy is 36, the Ambassador to Epalin 33."""

from __future__ import annotations

import pytest

from moderator.games.dwtk import duels, player, problems
from moderator.games.dwtk.acts import Refused
from moderator.games.dwtk.orders.activity import Activity, ActivityKind
from moderator.games.dwtk.state import OpenProblem, Situation
from moderator.games.dwtk.state.court import Court
from tests.dwtk.conftest import checked_court, court, dealt, events, with_player


def _travel(c: Court, who: str, place: str) -> None:
    player.do(c, "ann", Activity(ActivityKind.TRAVEL, (who,), place=place))


def _own(c: Court, cid: int) -> None:
    c.set_char(cid, owner="ann")


def test_travel_abroad_and_home_is_an_activity() -> None:
    """DWTK 20.1, 20.2, 13.4.18: a PC goes to a named country and comes home; each is an
    activity (one each way: the same activity only once a turn, 13.1)."""
    c = checked_court({})
    _travel(c, "pc", "epalin")
    assert c.char(24).location == "epalin" and c.char(24).abroad
    assert events(c, "activity.travel")[0].args == {"character": "24", "to": "epalin"}
    with pytest.raises(Refused, match="already_there"):
        _travel(c, "pc", "epalin")
    _travel(c, "pc", "fandonia")
    assert not c.char(24).abroad


def test_no_travel_to_or_from_a_country_at_war() -> None:
    """DWTK 20.1, 7.10.1: not to a country at war with Fandonia, nor back from one."""
    c = checked_court({})
    c.wars.append("cronos")
    with pytest.raises(Refused, match="at_war"):
        _travel(c, "pc", "cronos")
    c.set_char(24, location="cronos")
    with pytest.raises(Refused, match="at_war"):
        _travel(c, "pc", "fandonia")
    assert c.char(24).location == "cronos"


def test_the_banished_hiding_or_imprisoned_may_not_travel() -> None:
    """DWTK 20.1: characters who are banished, in hiding or imprisoned may not travel."""
    for situation in (Situation.BANISHED, Situation.HIDING, Situation.IMPRISONED):
        c = checked_court({})
        c.set_char(24, situation=situation)
        with pytest.raises(Refused):
            _travel(c, "pc", "epalin")
        assert c.char(24).location == "fandonia"


def test_officials_clergy_and_ambassadors_never_travel() -> None:
    """DWTK 20.7 (Magistrate 45, Judges 46/51, Sheriff 52, Archbishop 55 never abroad) and
    20.4 (an Ambassador is in his country and may not travel)."""
    for cid in (45, 46, 51, 52, 55):
        c = checked_court({})
        _own(c, cid)
        with pytest.raises(Refused, match="never_abroad"):
            _travel(c, str(cid), "epalin")
    c = checked_court({})
    _own(c, 33)
    with pytest.raises(Refused, match="ambassador"):
        _travel(c, "33", "sandarkan")


def test_a_failed_minister_may_not_travel_and_one_abroad_comes_home_for_his_problem() -> None:
    """DWTK 20.3: a Minister who failed to resolve a problem may not travel; a Minister
    abroad when his problem must be tried returns to Fandonia (not an activity)."""
    c = checked_court({"problems": [6]})
    _own(c, 36)
    c.problems.append(OpenProblem("pirates", failures=1, unresolved=1))
    with pytest.raises(Refused, match="failed_minister"):
        _travel(c, "36", "epalin")
    c.set_char(36, location="epalin")  # he was abroad when the problem came to be tried
    problems.attempt(c, "pirates", {})
    assert c.char(36).location == "fandonia"
    assert events(c, "problem.unresolved")  # the scripted 6 always fails (7.5)


def test_a_duel_abroad_only_against_someone_in_the_same_country() -> None:
    """DWTK 20.6.2, 19.7.4: abroad the opponent is picked among the possible duellists in
    the same country (no dice count over the whole court); with none there, no duel."""

    c = court(dealt(3), {"duel": [2] + [3, 4] * 20})
    c.set_char(24, location="sandarkan")
    there = [cid for cid in sorted(c.characters) if c.char(cid).owner is None
             and c.office_of(str(cid)) is None and duels.can_fight(c, c.char(cid))][:2]
    for cid in there:
        c.set_char(cid, location="sandarkan")
    duels.required(c, 24, "duel_counter")
    picked = events(c, "duel.opponent")
    assert picked and int(picked[0].args["opponent"]) == there[1]  # index 2 of 1..2 -> 2nd

    alone = court(dealt(3), {})
    alone.set_char(24, location="besyzan")
    duels.required(alone, 24, "duel_counter")
    assert events(alone, "duel.none") and not events(alone, "duel.opponent")


def test_a_wrongdoer_living_abroad_does_one_activity_unless_extra() -> None:
    """DWTK 20.8: a PC who is a wrongdoer living abroad (not hiding) is limited to one
    activity a turn, unless an Extra Activity counter (or card) is used."""

    c = checked_court({})
    with_player(c, "ann", opportunity=())
    assert player.allowance(c, "ann") == 2
    c.set_char(24, location="epalin", wrongdoer=True)
    assert player.allowance(c, "ann") == 1
    with_player(c, "ann", opportunity=("extra_activity-1",))
    assert player.allowance(c, "ann") == 2
    c.set_char(24, location="fandonia", wrongdoer=False)
    assert player.allowance(c, "ann") == 3
