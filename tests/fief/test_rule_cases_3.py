"""Rule cases: battle plans, Excalibur, the Prince of Wales, gifts and pigeons, random
setup (FE 7.2, 7.5, 13.2, 2.15, 9.0, 13.6, FAQ P2)."""

from __future__ import annotations

from dataclasses import replace

from moderator.dice import Dice
from moderator.games.fief import (
    ENGINE,
    battle,
    cards,
    court,
    economy,
    excalibur,
    income,
    movement,
    projectiles,
    victory,
)
from moderator.games.fief.battle import Side
from moderator.games.fief.orders.values import DrawExcalibur
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, InvaderArmy
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES, signed_up


def test_ex_7_3_continued_with_a_plan_knights_first() -> None:
    """Ex 7-3 continued (FE 7.5): George chooses to lose 2 Men-at-Arms and 1 Knight for his
    5 hits: `LOSSES KNIGHT, MAN-AT-ARMS` writes that choice."""
    s = board()
    troops(s, "Bristol", "Red", knight=3, men_at_arms=6)
    s.players["george"].standing.append({"kind": "losses", "family": None,
                                         "units": ["knight", "men_at_arms"]})
    r = realm(s)
    assert Side(r, "Bristol", "Red").take_hits(5) == 0
    assert s.cities["Bristol"].units_of("Red") == {"knight": 2, "men_at_arms": 4}


def test_ex_7_2_the_siege_of_london_with_daves_plan() -> None:
    """Ex 7-2 (FE 7.2): Trebuchets ff + f + 1 = 4: George loses 3 Archers and a Man-at-Arms
    (his plan); Bombards: Dave's f kills George's last Man-at-Arms, George's f and blank
    cost Dave an Archer (his plan) and explode a Bombard; Dave's last Archer cannot fire
    at the Fortified City."""
    s = board()
    noble(s, "William", "Blue", "London")
    troops(s, "London", "Blue", trebuchet=2, bombard=1, archer=2, men_at_arms=1)
    noble(s, "Henri", "Red", "London")
    troops(s, "London", "Red", bombard=2, archer=3, men_at_arms=2)
    s.players["dave"].standing.append({"kind": "losses", "family": None, "units": ["archer"]})
    s.players["george"].standing.append({"kind": "losses", "family": None,
                                         "units": ["archer"]})
    r = realm(s, bd(2, 1) + bd(1) + bd(1, 0))
    rec: dict[str, object] = {}
    projectiles.fire(r, Side(r, "London", "Blue"), Side(r, "London", "Red", fortified=2),
                        rec)
    assert s.cities["London"].units_of("Red") == {"bombard": 1}
    assert s.cities["London"].units_of("Blue") == {"trebuchet": 2, "bombard": 1, "archer": 1,
                                                  "men_at_arms": 1}


def test_fe_13_2_a_six_draws_excalibur_and_crowns_a_king() -> None:
    s = board()
    noble(s, "William", "Blue", "Coventry")
    s.excalibur_city = "Coventry"
    r = realm(s, {"excalibur": [6]})
    excalibur.attempt(r, "dave", DrawExcalibur(noble="William"), "Phase 5")
    assert s.excalibur_holder == "william" and s.sovereign == "william"


def test_fe_13_2_arthur_draws_on_four_to_six_others_only_on_six() -> None:
    s = board()
    noble(s, "William", "Blue", "Coventry")
    noble(s, "Arthur", "Green", "Coventry")
    s.excalibur_city = "Coventry"
    r = realm(s, {"excalibur": [4, 4]})
    excalibur.attempt(r, "dave", DrawExcalibur(noble="William"), "Phase 5")
    assert s.excalibur_holder is None
    excalibur.attempt(r, "kirsten", DrawExcalibur(noble="Arthur"), "Phase 5")
    assert s.excalibur_holder == "arthur"


def test_fe_13_2_no_bishop_draws_the_sword() -> None:
    s = board()
    noble(s, "Hugh", "Green", "Coventry", clergy="york")
    s.excalibur_city = "Coventry"
    r = realm(s)
    excalibur.attempt(r, "kirsten", DrawExcalibur(noble="Hugh"), "Phase 5")
    assert refusals(r) == ["only a nobleman, not a Bishop or Archbishop (FE 13.2)"]


def test_fe_13_2_excalibur_adds_a_hit_in_melee() -> None:
    s = board()
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", men_at_arms=1)
    s.excalibur_holder = "william"
    troops(s, "Oxford", "Red", men_at_arms=2)
    r = realm(s, bd(1) + bd(0))
    battle.fight(r, Side(r, "Oxford", "Blue"), Side(r, "Oxford", "Red"), "attack")
    assert not s.cities["Oxford"].units_of("Red")


def test_faq_p2_the_queens_son_is_prince_of_wales_and_succeeds() -> None:
    """FAQ P2 (F12): the Queen's family places a male noble; the King dies; he is King."""
    s = board()
    king = noble(s, "Henri", "Blue", "London", titles=["south-east"])
    queen = noble(s, "Lucia", "Green", "York")
    king.spouse, queen.spouse = queen.key, king.key
    s.sovereign, s.queen = "henri", "lucia"
    s.players["kirsten"].hand = ["Noble Edward"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY NOBLE Edward AT York"})
    cards.play_phase(r)
    assert s.prince == "edward"
    r.kill(king, "battle")
    assert s.sovereign == "edward" and s.prince is None


def test_fe_2_15_nobles_in_one_city_exchange_freely() -> None:
    s = board()
    noble(s, "Henri", "Blue", "London")
    noble(s, "Lucia", "Green", "London")
    s.players["dave"].cash = 5
    s.players["dave"].hand = ["Tax"]
    r = realm(s)
    give_orders(r, {"dave": "GIVE 3 SHILLINGS AND Tax TO Kirsten"})
    economy.gifts(r)
    assert s.players["kirsten"].cash == 3 and s.players["kirsten"].hand == ["Tax"]
    assert s.players["dave"].pigeons == 3


def test_u11_a_pigeon_between_fortifications() -> None:
    """U11 (FE 2.15): George sends Dave 1 Shilling by pigeon; a 3 arrives; a pigeon spent."""
    s = board()
    noble(s, "William", "Red", "Durham")
    s.cities["Durham"].building = "fortified"
    noble(s, "Henri", "Blue", "Exeter")
    s.cities["Exeter"].building = "stronghold"
    s.players["george"].cash = 1
    r = realm(s, {"pigeon": [3]})
    give_orders(r, {"george": "GIVE 1 SHILLINGS TO Dave"})
    economy.gifts(r)
    assert (s.players["dave"].cash, s.players["george"].pigeons) == (1, 2)


def test_fe_2_15_a_stray_pigeon_keeps_the_shillings_home() -> None:
    s = board()
    noble(s, "William", "Red", "Durham")
    s.cities["Durham"].building = "fortified"
    noble(s, "Henri", "Blue", "Exeter")
    s.cities["Exeter"].building = "abbey"
    s.players["george"].cash = 4
    r = realm(s, {"pigeon": [6]})
    give_orders(r, {"george": "GIVE 4 SHILLINGS TO Dave"})
    economy.gifts(r)
    assert (s.players["dave"].cash, s.players["george"].cash) == (0, 4)


def test_fe_2_15_no_pigeon_from_an_open_city() -> None:
    s = board()
    noble(s, "William", "Red", "Oxford")
    noble(s, "Henri", "Blue", "Exeter")
    s.cities["Exeter"].building = "stronghold"
    s.players["george"].cash = 4
    r = realm(s)
    give_orders(r, {"george": "GIVE 4 SHILLINGS TO Dave"})
    economy.gifts(r)
    assert s.players["dave"].cash == 0 and refusals(r)


def test_fe_13_6_random_setup_rolls_the_region() -> None:
    """FE 13.6: each family's Region by the d6, re-rolled when taken; then its city."""
    tables = replace(TABLES, setup=replace(TABLES.setup, random_start=True))
    state = signed_up(2)
    orders = {k: ENGINE.parse_orders("START York", state, k, TABLES).orders for k in state["seats"]}
    result = ENGINE.adjudicate(state, orders, tables, Dice.for_turn(3, 1))
    starts = {n["city"] for n in result.state["nobles"].values()}
    regions = {TABLES.region_of(c).number for c in starts}
    assert len(regions) == 4


def test_fe_11_1_mercenaries_are_hired_and_go_home_at_the_end_of_the_round() -> None:
    """FE 11.1, 8.0: the card with its 3 Crossbowmen; 2 hired for 4 at York; at End Round
    the survivors go back to the card; all three dead, the card is discarded."""
    s = board()
    noble(s, "Hugh", "Green", "York")
    s.players["kirsten"].hand = ["French Crossbowmen"]
    s.players["kirsten"].cash = 5
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY FRENCH CROSSBOWMEN\nHIRE 2 CROSSBOWMEN AT York"})
    cards.play_phase(r)
    economy.purchase_phase(r)
    assert s.cities["York"].units_of("Green") == {"crossbow": 2}
    assert (s.players["kirsten"].cash, s.players["kirsten"].crossbows) == (1, 1)
    Side(r, "York", "Green").take_hits(2)        # one falls in battle
    cards.crossbows_home(r)
    assert s.players["kirsten"].crossbows == 2 and not s.cities["York"].units_of("Green")


def test_fe_11_2_a_burgher_needs_a_lord_and_adds_votes_for_a_treasure() -> None:
    """FE 11.2, Ex 9-2: Dave's Countess (1) and his 3-vote Burgher make 4 for the Royal Tax."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Philippa", "Blue", "York", titles=["north"])
    noble(s, "Hugh", "Green", "York", clergy="york")          # 2 votes against
    s.players["dave"].hand = ["Burgher (3 votes)"]
    s.players["kirsten"].hand = ["Burgher (5 votes)"]
    r = realm(s)
    give_orders(r, {"dave": "PLAY BURGHER", "kirsten": "PLAY BURGHER"})
    cards.play_phase(r)
    assert s.players["dave"].slot == "Burgher (3 votes)"
    assert refusals(r) == ["a Burgher serves only a family with a titled Lord (FE 11.2)"]
    give_orders(r, {"george": "CONVENE PARLIAMENT", "dave": "PARLIAMENT FOR WITH BURGHER"})
    court.parliament_phase(r)
    assert s.parliament_rebellion and s.players["dave"].treasures == 1   # 5 of 7 votes


def test_fe_13_3_the_sovereign_awards_the_garter_to_a_lord_who_beat_invaders() -> None:
    s = board(round_=3)
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    s.players["george"].standing.append({"kind": "garter", "award": True, "family": None})
    noble(s, "Henri", "Blue", "Lincoln", titles=["north"])
    troops(s, "Lincoln", "Blue", knight=4)
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "Lincoln", True, 1)
    r = realm(s, bd(0) + bd(3, 3, 3))
    assert battle.fight(r, Side(r, "Lincoln", armies=["Black Raven"]),
                        Side(r, "Lincoln", "Blue"), "invaders") == "Blue"
    victory.end_round(r)
    assert s.nobles["henri"].garter


def test_ex_8_2_the_garter_breaks_the_tie_before_the_crown() -> None:
    """Ex 8-2 (FE 8.5): Duke + Count + Garter beats King + Count beats Duke + Relic."""
    s = board(("Red", "Green", "Blue"), round_=7)
    noble(s, "Henri", "Blue", "Exeter", titles=["midlands", "south-west"], garter=True)
    noble(s, "Hugh", "Red", "York", titles=["north"])
    noble(s, "Richard", "Red", "York", titles=["south-east"])
    s.sovereign = "hugh"
    noble(s, "Lucia", "Green", "Norwich", titles=["wales"])
    s.players["kirsten"].relic_vp = True
    victory.end_round(realm(s))
    assert s.winners == ["dave"]


def _siege_board() -> tuple[GameState, Realm]:
    s = board()
    noble(s, "William", "Blue", "London")
    troops(s, "London", "Blue", knight=2, men_at_arms=2)
    noble(s, "Henri", "Red", "London")
    troops(s, "London", "Red", men_at_arms=2)
    s.cities["London"].holder = "Red"
    s.cities["London"].occupants = ["Red", "Blue"]
    s.cities["London"].building = "fortified"
    return s, realm(s)


def test_fe_7_9_a_siege_is_declared_and_its_trebuchet_built() -> None:
    """FE 7.9: the besieger's Trebuchet goes up in Phase 7 and is built for 5 in Phase 4;
    the besieged city pays no revenue, takes no new troops, and no one leaves it."""
    s, r = _siege_board()
    give_orders(r, {"dave": "SIEGE London"})
    battle.battles_phase(r)
    london = s.cities["London"]
    assert london.besieged_by == "Blue" and london.siege_engines == 1
    assert s.families["Blue"].stock["trebuchet"] == 1
    s.players["dave"].cash = 6
    s.players["george"].cash = 5
    give_orders(r, {"george": "BUY 1 KNIGHT AT London", "dave": ""})
    economy.purchase_phase(r)
    assert london.units_of("Blue")["trebuchet"] == 1 and s.players["dave"].cash == 1
    assert "no troops can be placed in a besieged city (FE 7.9)" in refusals(r)
    assert income.forecast(r, "george")["cities"] == 0
    give_orders(r, {"george": "MOVE Henri WITH 1 MAN-AT-ARMS: London - Oxford"})
    movement.movement_phase(r)
    assert s.nobles["henri"].city == "London"


def test_fe_7_9_an_unpaid_trebuchet_lifts_the_siege() -> None:
    s, r = _siege_board()
    give_orders(r, {"dave": "SIEGE London"})
    battle.battles_phase(r)
    economy.purchase_phase(r)
    assert s.cities["London"].besieged_by is None
    assert s.families["Blue"].stock["trebuchet"] == 2


def test_fe_7_9_the_siege_ends_when_the_besieging_noble_leaves() -> None:
    s, r = _siege_board()
    give_orders(r, {"dave": "SIEGE London"})
    battle.battles_phase(r)
    s.nobles["william"].city = "Oxford"
    victory.end_round(r)
    assert s.cities["London"].besieged_by is None


def test_ex_13_1_the_bandit_path_is_one_move_york_to_kings_lynn() -> None:
    """Ex 13-1 (FE 13.4): York to King's Lynn through Sherwood in one move; a 3 passes."""
    s = board()
    noble(s, "Hugh", "Green", "York")
    troops(s, "York", "Green", knight=1)
    r = realm(s, {"bandits": [3]})
    give_orders(r, {"kirsten": "MOVE Hugh WITH 1 KNIGHT: York ~ King's Lynn - Norwich"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Norwich"


def test_fe_13_4_bandits_hold_who_cannot_pay_and_the_foot_desert() -> None:
    """FE 13.4: on a 1 the Bandits ask 4 for a Lord; with 3 Shillings he is held; his
    Men-at-Arms desert, his Knight stays; the ransom is paid in Phase 4 when he can."""
    s = board()
    noble(s, "Hugh", "Green", "York", titles=["north"])
    troops(s, "York", "Green", knight=1, men_at_arms=2)
    s.players["kirsten"].cash = 3
    r = realm(s, {"bandits": [1]})
    give_orders(r, {"kirsten": "MOVE Hugh WITH 1 KNIGHT, 2 MAN-AT-ARMS: York ~ Lincoln"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].status == "captive" and s.nobles["hugh"].captor == "bandits"
    assert s.cities["York"].units_of("Green") == {"knight": 1}
    assert s.families["Green"].stock["men_at_arms"] == 12
    s.players["kirsten"].cash = 4
    economy.ransoms(r)
    assert s.nobles["hugh"].free and s.players["kirsten"].cash == 0


def test_fe_13_4_the_king_rides_through_sherwood_free() -> None:
    s = board()
    noble(s, "Hugh", "Green", "York", titles=["north"])
    s.sovereign = "hugh"
    r = realm(s, {"bandits": [2]})
    give_orders(r, {"kirsten": "MOVE Hugh: York ~ Nottingham"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Nottingham" and s.nobles["hugh"].free


def test_fe_7_8_an_army_surrenders_by_its_plan() -> None:
    """FE 7.8 Surrender: `SURRENDER IF TROOPS BELOW 2`: after a roll leaves one troop, the
    rest leave the map and the noble is taken captive."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=3)
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", men_at_arms=3)
    s.players["dave"].standing.append({"kind": "surrender", "below": 2, "family": None})
    r = realm(s, bd(2) + bd(0) + bd(0))
    assert battle.fight(r, Side(r, "Oxford", "Green"), Side(r, "Oxford", "Blue"),
                        "attack") == "Green"
    assert not s.cities["Oxford"].units_of("Blue") and s.nobles["william"].captor == "lucia"


def test_fe_13_1_the_new_king_and_queen_take_their_royal_guard() -> None:
    """FE 13.1, 9.1: elected, the King has 2 Royal Knights, his wife the Queen 2 Royal
    Men-at-Arms."""
    s = board()
    henri = noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy=None)
    lucia = noble(s, "Lucia", "Green", "York", titles=["north"])
    henri.spouse, lucia.spouse = lucia.key, henri.key
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"], clergy="york")
    s.candidates = ["henri"]
    r = realm(s)
    give_orders(r, {"dave": "VOTE Henri"})
    court.election_phase(r)
    assert (s.sovereign, s.queen) == ("henri", "lucia")
    assert (henri.royal_knights, lucia.royal_men_at_arms) == (2, 2)


def test_fe_13_1_the_royal_guard_fights_adds_a_hit_each_and_falls_last() -> None:
    """FE 13.1: each Royal Knight 3 SP and 3 hits; +1 hit a marker on each melee roll; the
    family's own troops are lost first (PROPOSED)."""
    s = board()
    king = noble(s, "Henri", "Blue", "Oxford", titles=["south-east"], royal_knights=2)
    s.sovereign = "henri"
    troops(s, "Oxford", "Blue", men_at_arms=1)
    troops(s, "Oxford", "Red", men_at_arms=5)
    noble(s, "William", "Red", "Oxford")
    # Blue 1 + 6 + 1 = 8 SP: 2 dice, f and blank, +2 for the guard: 3 hits; Red 6 SP, 1 die.
    r = realm(s, bd(1, 0) + bd(0) + bd(1, 1) + bd(0))
    blue = Side(r, "Oxford", "Blue")
    assert blue.sp() == 8 and blue.troops() == 3
    battle.fight(r, blue, Side(r, "Oxford", "Red"), "attack")
    rounds = r.battles[-1]["rounds"]
    assert [x["attacker_hits"] for x in rounds] == [3, 4]
    assert not s.cities["Oxford"].units_of("Red") and s.nobles["william"].status == "dead"
    assert Side(r, "Oxford", "Blue").take_hits(4) == 0
    assert s.cities["Oxford"].units_of("Blue") == {} and king.royal_knights == 1


def test_fe_4_9_the_royal_stronghold_leaves_its_region_and_royals_ride_to_it() -> None:
    """FE 4.9, 5.0 Royal Movement: King Henri builds it at Lincoln (5); the North's title
    needs only Whitby and York now; the Queen rides to it from Exeter for her two moves."""
    s = board()
    henri = noble(s, "Henri", "Blue", "Lincoln", titles=["wales"], royal_knights=2)
    s.sovereign = "henri"
    lucia = noble(s, "Lucia", "Green", "Exeter")
    henri.spouse, lucia.spouse = lucia.key, henri.key
    s.queen = "lucia"
    s.players["dave"].cash = 5
    noble(s, "Hugh", "Red", "York")
    troops(s, "Whitby", "Red", men_at_arms=1)
    s.cities["York"].building = "stronghold"
    s.players["george"].cash = 6
    r = realm(s)
    give_orders(r, {"dave": "BUILD ROYAL STRONGHOLD AT Lincoln",
                    "george": "BUY TITLE North FOR Hugh",
                    "kirsten": "ROYAL MOVE Lucia TO ROYAL STRONGHOLD"})
    s.first = 2                          # Dave plays first: he builds before George buys
    economy.purchase_phase(r)
    assert s.cities["Lincoln"].building == "royal" and s.cities["Lincoln"].holder == "Blue"
    assert s.nobles["hugh"].titles == ["north"]
    movement.movement_phase(r)
    assert lucia.city == "Lincoln"
