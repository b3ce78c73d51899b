"""Rule cases written by the adversarial audit of issue 17: each tries to break the
engine's reading of one rule section (scripted dice where dice roll).  Kirsten plays
Green, Dave Blue, George Red."""

from __future__ import annotations

from moderator.games.fief import cards, court, income, invaders, victory
from moderator.games.fief.state import GameState
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops


def _york_besieged(lucia: list[str], henri: list[str]) -> GameState:
    """Kirsten's Lucia in her York Stronghold, besieged by Dave's Henri and 2 Knights."""
    s = board()
    noble(s, "Lucia", "Green", "York", titles=lucia)
    troops(s, "York", "Green", men_at_arms=2)
    s.cities["York"].building = "stronghold"
    noble(s, "Henri", "Blue", "York", titles=henri)
    troops(s, "York", "Blue", knight=2)
    s.cities["York"].besieged_by = "Blue"
    return s


def test_fe_9_1_a_besieged_lord_adds_no_votes() -> None:
    """FE 9.1: "Each Player's Vote Marker represents the sum of ALL of their
    non-captive/besieged Lords, Bishops, and Archbishops": Lucia, Duchess, besieged in
    York, adds nothing; Hugh, free at Whitby, adds his one."""
    s = _york_besieged(["midlands"], [])
    noble(s, "Hugh", "Green", "Whitby", titles=["north"])
    r = realm(s)
    assert court.votes_of(r, "kirsten") == 1


def test_fe_9_1_the_besiegers_lord_still_votes_and_may_stand() -> None:
    """FE 9.1: only the besieged lose their votes and candidacy; Henri, Lord of the South
    West besieging York from its outskirts, still votes and may be a candidate."""
    r = realm(_york_besieged([], ["south-west"]))
    assert court.votes_of(r, "dave") == 1
    assert r.s.cannot_stand("Henri") is None


def test_fe_9_1_a_besieged_lord_is_no_candidate() -> None:
    """FE 9.1: "A Captive or Besieged Lord cannot be a Candidate"."""
    assert _york_besieged(["midlands"], []).cannot_stand("Lucia") == "Lucia is besieged"


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
    s.cities["York"].besieged_by = "Blue"
    lines = income.forecast(realm(s), "kirsten")
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
    dave = income.forecast(r, "dave")
    assert dave["mills"] == 0 and dave["abbeys"] == 2 + 2 + 3
    assert income.forecast(r, "kirsten")["tithe"] == 2


def test_fe_4_8_a_dead_bishops_card_is_shuffled_back_with_the_character_deck() -> None:
    """FE 4.8: "A Bishop, Archbishop, or Abbess Title is discarded. Then all cards in the
    Character Deck are reshuffled" (A72: the draw pile and its discards together): the
    scripted shuffle puts the dead Hugh's Bishop card on top."""
    s = board()
    hugh = noble(s, "Hugh", "Green", "York", clergy="exeter")
    s.character_deck = ["Noble Isabel", "Abbess"]
    s.character_discard = ["Noble Joan"]
    r = realm(s, {"deck": [1, 1, 1]})
    r.kill(hugh, "plague")
    assert not s.character_discard
    assert s.character_deck == ["Bishop of Exeter", "Noble Isabel", "Noble Joan", "Abbess"]
    assert any(e.id == "deck.reshuffled" for e in r.events)


def test_fe_4_8_a_lay_nobles_death_reshuffles_nothing() -> None:
    s = board()
    henri = noble(s, "Henri", "Blue", "York")
    s.character_deck = ["Noble Isabel", "Abbess"]
    s.character_discard = ["Noble Joan"]
    r = realm(s)
    r.kill(henri, "plague")
    assert (s.character_deck, s.character_discard) == (["Noble Isabel", "Abbess"],
                                                       ["Noble Joan"])


def test_fe_7_6_captives_count_towards_the_three_noble_limit() -> None:
    """FE 7.6: "Captives still count towards a Player's three Noble limit" (2.11): two free
    nobles and one captive of George's: a fourth is refused."""
    s = board()
    noble(s, "Lucia", "Green", "York")
    noble(s, "Hugh", "Green", "York")
    noble(s, "Edward", "Green", "Durham", status="captive", captor="henri")
    noble(s, "Henri", "Red", "Durham")
    s.players["kirsten"].hand = ["Noble Isabel"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY NOBLE Isabel AT York"})
    cards.play_phase(r)
    assert "isabel" not in s.nobles
    assert refusals(r) and "3 nobles" in refusals(r)[0]


def test_fe_7_6_a_captive_lord_may_still_levy_his_tallage() -> None:
    """FE 7.6: "A tax associated with their Title (2.8) may still be levied by a captive
    Noble (to collect money to pay their ransom, for example!)"."""
    s = board()
    noble(s, "Hugh", "Red", "Durham", titles=["marches"], status="captive", captor="henri")
    noble(s, "Henri", "Blue", "Durham")
    troops(s, "Berwick", "Red", men_at_arms=1)
    s.players["george"].hand = ["Tax"]
    r = realm(s)
    give_orders(r, {"george": "PLAY TAX ON Marches"})
    cards.play_phase(r)
    assert refusals(r) == []
    assert income.forecast(r, "george")["tallage"] == 4


def test_fe_6_4_invaders_who_would_roll_no_die_do_not_attack_a_stronghold() -> None:
    """FE 6.4: "In order to attack a Stronghold or Fortified City, the Invaders must
    outnumber the Defending Troops and be able to roll at least one Battle Die (7.3)": a
    Leader and 1 Foot (5 SP, 1 die, less 1 for the walls) outnumber Kirsten's lone
    Man-at-Arms in her Norwich Stronghold but roll nothing: no battle, and they are free to
    move on."""
    s = board()
    troops(s, "Norwich", "Green", men_at_arms=1)
    s.cities["Norwich"].building = "stronghold"
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Norwich", foot=1)
    r = realm(s)
    assert invaders._arrive(r, ["Black Raven"], "Norwich") is False   # not stopped: moves on
    assert s.cities["Norwich"].units_of("Green") == {"men_at_arms": 1}
    assert s.cities["Norwich"].building == "stronghold"
    assert not [e for e in r.events if e.id.startswith("battle.")]


def test_fe_6_9_invaders_who_destroy_the_port_troops_leave_england() -> None:
    """FE 6.9: "If Player Troops do occupy the Port, a Battle occurs. If the Invaders
    destroy all of the Port Troops, they will then also leave England": from Coventry to
    King's Lynn (compass 2 of Harlech, King's Lynn, Nottingham, Oxford), fff fff fff against
    Dave's lone Man-at-Arms' blank."""
    s = board()
    troops(s, "King's Lynn", "Blue", men_at_arms=1)
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Coventry")
    r = realm(s, {"compass": [2], "battle": bd(3, 3, 3) + bd(0)})
    invaders.march(r, "Black Raven")
    assert not s.cities["King's Lynn"].units_of("Blue")
    assert "Black Raven" not in s.invaders
