"""Rule cases written by the adversarial audit of issue 17: each tries to break the
engine's reading of one rule section (scripted dice where dice roll).  Kirsten plays
Green, Dave Blue, George Red."""

from __future__ import annotations

from moderator.games.fief import cards, court, economy, victory
from tests.fief.board import board, give_orders, noble, realm, troops


def _besiege(s: object, city: str, besieger: str) -> None:
    s.cities[city].besieged_by = besieger  # type: ignore[attr-defined]


def test_fe_9_1_a_besieged_lord_adds_no_votes() -> None:
    """FE 9.1: "Each Player's Vote Marker represents the sum of ALL of their
    non-captive/besieged Lords, Bishops, and Archbishops": Lucia, Duchess, besieged in
    York, adds nothing; Hugh, free at Whitby, adds his one."""
    s = board()
    noble(s, "Lucia", "Green", "York", titles=["midlands"])
    noble(s, "Hugh", "Green", "Whitby", titles=["north"])
    troops(s, "York", "Green", men_at_arms=2)
    s.cities["York"].building = "stronghold"
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", knight=2)
    _besiege(s, "York", "Blue")
    r = realm(s)
    assert court.votes_of(r, "kirsten") == 1


def test_fe_9_1_the_besiegers_lord_still_votes_and_may_stand() -> None:
    """FE 9.1: only the besieged lose their votes and candidacy; Henri, Lord of the South
    West besieging York from its outskirts, still votes and may be a candidate."""
    s = board()
    noble(s, "Lucia", "Green", "York")
    troops(s, "York", "Green", men_at_arms=2)
    s.cities["York"].building = "stronghold"
    noble(s, "Henri", "Blue", "York", titles=["south-west"])
    troops(s, "York", "Blue", knight=2)
    _besiege(s, "York", "Blue")
    r = realm(s)
    assert court.votes_of(r, "dave") == 1
    assert court.eligible(r, "henri")


def test_fe_9_1_a_besieged_lord_is_no_candidate() -> None:
    """FE 9.1: "A Captive or Besieged Lord cannot be a Candidate"."""
    s = board()
    noble(s, "Lucia", "Green", "York", titles=["midlands"])
    troops(s, "York", "Green", men_at_arms=2)
    s.cities["York"].building = "stronghold"
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", knight=2)
    _besiege(s, "York", "Blue")
    assert not court.eligible(realm(s), "lucia")


def test_fe_9_1_an_archbishop_who_is_also_a_lord_is_worth_two() -> None:
    """FE 9.1: "A Noble with multiple Titles is still only worth 1 Vote or 2 Votes if an
    Archbishop"."""
    s = board()
    noble(s, "Hugh", "Green", "York", titles=["north"], clergy="york")
    assert court.votes_of(realm(s), "kirsten") == 2


def test_fe_8_2_an_allied_player_has_no_solo_victory() -> None:
    """FE 8.2: "A Player may not have a Solo Victory if they are in an alliance": Dave,
    married to George, has 3 VP at the End of Round 5, George 0: together 3 < 4, no one
    wins."""
    s = board(round_=5)
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales", "marches"],
          spouse="philippa")
    noble(s, "Philippa", "Red", "York", spouse="henri")
    victory.end_round(realm(s))
    assert s.winners == []


def test_fe_8_3_the_alliance_with_four_wins_together() -> None:
    """FE 8.3: Dave 3 VP and his ally George 1 VP: 4, both win at the End of Round 5."""
    s = board(round_=5)
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales", "marches"],
          spouse="philippa")
    noble(s, "Philippa", "Red", "York", titles=["north"], spouse="henri")
    victory.end_round(realm(s))
    assert sorted(s.winners) == ["dave", "george"]


def test_fe_3_0_a_besieged_city_pays_neither_its_shilling_nor_its_mill() -> None:
    """FE 3.0, 7.9: "1 Shilling for each Controlled City that is not under siege" and "not
    collected from a Besieged City's Mills"."""
    s = board()
    noble(s, "Lucia", "Green", "York")
    troops(s, "York", "Green", men_at_arms=1)
    troops(s, "Whitby", "Green", men_at_arms=1)
    s.cities["York"].mill = True
    s.cities["York"].building = "stronghold"
    _besiege(s, "York", "Blue")
    lines = economy.forecast(realm(s), "kirsten")
    assert (lines["cities"], lines["mills"]) == (1, 0)


def test_fe_3_2_a_tithe_spares_the_mill_of_an_abbey_city() -> None:
    """FE 3.2: "Abbeys and their Mills are not affected by a Tithe": Dave's Abbey city
    Mill in the tithed district still pays its Abbey; the Mill of his other city goes to
    the tithing Archbishop."""
    s = board()
    noble(s, "Hugh", "Green", "Canterbury", clergy="canterbury")
    s.players["kirsten"].hand = ["Tax"]
    noble(s, "Lucia", "Blue", "Oxford", abbess=["Autumn"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    s.cities["Oxford"].mill = True
    troops(s, "London", "Blue", men_at_arms=1)
    s.cities["London"].mill = True
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY TAX TITHE ON Canterbury"})
    cards.play_phase(r)
    dave = economy.forecast(r, "dave")
    assert dave["mills"] == 0 and dave["abbeys"] == 2 + 2 + 3
    assert economy.forecast(r, "kirsten")["tithe"] == 2
