"""Rule cases: the worked examples of the rulebook (fief-email.md §10), each with scripted
dice and the rule it cites.  Kirsten plays Green, Dave Blue, George Red (Ex 13-2)."""

from __future__ import annotations

from moderator.games.fief import (
    battle,
    cards,
    court,
    economy,
    income,
    invaders,
    movement,
    passage,
    phases,
    projectiles,
    victory,
)
from moderator.games.fief.battle import Side, fight, melee_dice
from moderator.games.fief.orders.values import Marry, TurnOrders
from moderator.games.fief.state import GameState
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops

# -- FE 5.0-5.4: movement ------------------------------------------------------------------

def test_ex_5_1_troops_dropped_on_the_way_and_control_follows_occupation() -> None:
    """Ex 5-1 and In Ex 5-1 (FE 5.0, 5.1): William and 3 Archers Oxford - London (one
    Archer left) - Canterbury; Oxford left empty is Independent again."""
    s = board()
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", archer=3)
    r = realm(s)
    give_orders(r, {"dave": "MOVE William WITH 3 ARCHER: Oxford - London LEAVE 1 ARCHER"
                            " - Canterbury\nBUY TITLE South East FOR William"})
    movement.movement_phase(r)
    assert s.cities["London"].units_of("Blue") == {"archer": 1}
    assert s.cities["Canterbury"].units_of("Blue") == {"archer": 2}
    assert s.nobles["william"].city == "Canterbury"
    assert (s.cities["London"].holder, s.cities["Canterbury"].holder) == ("Blue", "Blue")
    assert s.cities["Oxford"].holder is None
    economy.purchase_phase(r)
    assert "your family must control every city of the region (FE 4.3)" in refusals(r)


def test_ex_5_2_denied_passage_waits_on_the_outskirts() -> None:
    """Ex 5-2 (FE 5.0): George refuses; Lucia stays at Canterbury, George keeps it."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester", titles=["wales"])
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Canterbury"
    assert s.cities["Canterbury"].holder == "Red"
    assert s.cities["Canterbury"].units_of("Green") == {"knight": 2}


def test_ex_5_2_denied_then_return_goes_back_with_the_second_move() -> None:
    """Ex 5-2 (Move 2B): she returns the army to Winchester."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London "
                               "IF DENIED RETURN"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Winchester"
    assert s.cities["Winchester"].units_of("Green") == {"knight": 2}


def test_ex_5_2_permission_given_she_goes_on_to_london() -> None:
    """Ex 5-2: "If George had given permission, Lord Lucia would ... complete her move"."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    s.players["george"].standing.append({"kind": "allow", "who": "kirsten", "city": None,
                                         "family": None})
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "London"
    assert s.cities["London"].holder == "Green"


def test_faq_p5_only_the_controller_gives_permission() -> None:
    """FAQ P5 (F16): the controlling player's permission is the one needed."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Canterbury", "Red", men_at_arms=1)
    troops(s, "Canterbury", "Blue", men_at_arms=1)
    s.players["george"].standing.append({"kind": "allow", "who": "ANYONE", "city": "Canterbury",
                                         "family": None})
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia: Winchester - Canterbury - London"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "London"


def test_ex_5_3_naval_move_then_a_road_move() -> None:
    """Ex 5-3 (FE 5.4): Whitby = Sea V = King's Lynn, then by road to Coventry."""
    s = board()
    noble(s, "Hugh", "Green", "Whitby")
    troops(s, "Whitby", "Green", knight=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh WITH 1 KNIGHT: Whitby = Sea V = King's Lynn - Coventry"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Coventry"
    assert s.cities["Coventry"].units_of("Green") == {"knight": 1}


def test_ex_5_4_two_seas_are_two_moves() -> None:
    """Ex 5-4: Whitby = Sea V = Sea VI = London uses both moves; nothing further."""
    s = board()
    noble(s, "Hugh", "Green", "Whitby")
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Whitby = Sea V = Sea VI = London - Oxford"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "London"
    assert any("two moves" in e.args.get("reason", "") for e in r.events)


def test_ex_5_5_around_northern_scotland() -> None:
    """Ex 5-5: Berwick on Sea III to Cardiff on Sea II, then by road to Harlech."""
    s = board()
    noble(s, "Hugh", "Green", "Berwick")
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Berwick = Sea II = Cardiff - Harlech"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Harlech"


def test_ex_5_6_no_naval_move_after_a_road_move() -> None:
    """Ex 5-6: Durham - Berwick, then no naval move: the army stays at Berwick."""
    s = board()
    noble(s, "Hugh", "Green", "Durham")
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Durham - Berwick = Sea II = Cardiff"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Berwick"


def test_fe_5_5_no_naval_move_out_of_storms() -> None:
    """FE 5.5 and 2.5 STORMS: no movement into or out of the Region."""
    s = board()
    noble(s, "Hugh", "Green", "Whitby")
    s.seas["4"] = ["Storms"]
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Whitby = Sea V = King's Lynn\n"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].city == "Whitby"


# -- FE 6: invaders ------------------------------------------------------------------------

def test_ex_6_1_fff_lands_three_armies() -> None:
    """Ex 6-1 (FE 6.2): an fff result lands three armies at the port."""
    s = board()
    s.seas["5"] = ["Invasion"]
    r = realm(s, {"invaders": bd(3)})
    invaders.land(r)
    assert sorted(a.city for a in s.invaders.values()) == ["King's Lynn"] * 3


def test_ex_6_1_a_blank_is_a_false_alarm_and_the_card_is_discarded() -> None:
    """Ex 6-1 variant (FE 6.2): "If the die roll shows no 'f' result, it is a false alarm
    and the INVASION Card is discarded"."""
    s = board()
    s.seas["5"] = ["Invasion"]
    r = realm(s, {"invaders": bd(0)})
    invaders.land(r)
    assert not s.invaders and "Invasion" not in s.seas["5"]
    assert "Invasion" in s.fortune_discard


def test_ex_6_1_never_more_than_four_armies() -> None:
    """Ex 6-1 variant (FE 6.2): "There can never be more than 4 Armies on the Map": two
    armies already in England, an fff lands only two more; two fff invasions land four."""
    s = board()
    s.seas["5"] = ["Invasion"]
    s.seas["1"] = ["Invasion"]
    r = realm(s, {"invaders": bd(3, 3)})
    invaders.land(r)
    assert len(s.invaders) == 4
    s = board()
    for key in invaders.ARMY_KEYS[:2]:
        s.invaders[key] = invaders.InvaderArmy(key, "York")
    s.seas["5"] = ["Invasion"]
    r = realm(s, {"invaders": bd(3)})
    invaders.land(r)
    assert len(s.invaders) == 4
    assert sorted(a.city for a in s.invaders.values()) == ["King's Lynn", "King's Lynn",
                                                           "York", "York"]


def test_fe_6_2_storms_delay_the_invasion() -> None:
    s = board()
    s.seas["5"] = ["Invasion", "Storms"]
    r = realm(s, {})
    invaders.land(r)
    assert not s.invaders and "Invasion" in s.seas["5"]


def test_ex_6_2_the_compass_is_a_choice_among_the_roads() -> None:
    """Ex 6-2 (FE 6.3): from King's Lynn, N Lincoln, W Coventry, E Norwich; no road S,
    so the draw is a uniform choice among the three (sorted: Coventry, Lincoln, Norwich)."""
    for face, city, label in ((1, "Coventry", "W"), (2, "Lincoln", "N"), (3, "Norwich", "E")):
        s = board()
        s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "King's Lynn")
        r = realm(s, {"compass": [face, 1]})
        invaders.march(r, "Black Raven")
        first = next(e for e in r.events if e.id == "invaders.move")
        assert (first.args["to"], first.args["direction"]) == (city, label)


def test_ex_6_3_outnumbered_defenders_are_attacked() -> None:
    """Ex 6-3 (FE 6.4): Leader + 4 Foot (5 units) against 2 Knights, 1 Archer, 1 Man-at-
    Arms (4 troops; Lucia and the Trebuchet do not count): the invaders attack."""
    s = board()
    noble(s, "Lucia", "Green", "Coventry")
    troops(s, "Coventry", "Green", knight=2, archer=1, men_at_arms=1, trebuchet=1)
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Coventry", True, 4)
    r = realm(s, [1] * 40)
    invaders._arrive(r, ["Black Raven"], "Coventry")
    assert any(e.id == "battle.begins" for e in r.events)


def test_ex_6_4_six_defenders_are_not_attacked() -> None:
    """Ex 6-4: 6 invader units against 6 troops: no attack; they move on."""
    s = board()
    troops(s, "King's Lynn", "Blue", men_at_arms=6)
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "King's Lynn")
    r = realm(s, {"compass": [2, 2]})
    invaders._arrive(r, ["Black Raven"], "King's Lynn")
    assert not any(e.id == "battle.begins" for e in r.events)
    invaders.march(r, "Black Raven")
    assert s.invaders["Black Raven"].city != "King's Lynn"


def test_ex_6_5_invaders_ransom_is_two_plus_two_a_title() -> None:
    """Ex 6-5 (FE 6.7): a Duke, Baron and Archbishop costs 8."""
    s = board()
    henri = noble(s, "Henri", "Blue", "Norwich", titles=["midlands", "marches"],
                  clergy="canterbury")
    assert realm(s).ransom(henri) == 8


def test_ex_7_5_a_bishop_and_baron_is_worth_six() -> None:
    """Ex 7-5 (FE 7.7)."""
    s = board()
    n = noble(s, "Godfrey", "Blue", "Norwich", titles=["marches"], clergy="norwich")
    assert realm(s).ransom(n) == 6


def test_fe_6_9_an_army_reaching_an_empty_port_from_inland_leaves() -> None:
    s = board()
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Coventry")
    r = realm(s, {"compass": [2]})   # Coventry's roads: Harlech, King's Lynn, Nottingham, Oxford
    invaders.march(r, "Black Raven")
    assert not s.invaders


def test_fe_6_9_danegeld_sends_the_army_home() -> None:
    s = board()
    noble(s, "Henri", "Blue", "Norwich")
    s.players["dave"].cash = 6
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Norwich")
    r = realm(s)
    give_orders(r, {"dave": "DANEGELD AT Norwich BY Henri"})
    invaders.danegeld(r)
    assert not s.invaders and s.players["dave"].cash == 1


# -- FE 7: battles -------------------------------------------------------------------------

def test_ex_7_3_a_stronghold_takes_one_die_from_the_attacker() -> None:
    """Ex 7-3 (FE 7.3-7.4): 15 SP is 3 dice, 2 against a Stronghold."""
    s = board()
    noble(s, "William", "Red", "Bristol")
    troops(s, "Bristol", "Red", knight=3, men_at_arms=5)
    troops(s, "Bristol", "Blue", knight=3, men_at_arms=2)
    r = realm(s)
    attacker = Side(r, "Bristol", "Red")
    assert attacker.sp() == 15
    assert melee_dice(r, attacker, Side(r, "Bristol", "Blue", fortified=1)) == (2, 2)


def test_ex_7_3_continued_losses_take_as_many_hits_as_possible() -> None:
    """Ex 7-3 continued (FE 7.5): 4 hits on 2 Men-at-Arms + 3 Knights take 1 Man-at-Arms
    and 1 Knight; 5 hits on George's army take 5 hit points (his choice of which; the
    default plan spares Knights, fief-email.md §5.1)."""
    s = board()
    troops(s, "Bristol", "Blue", knight=3, men_at_arms=2)
    troops(s, "Bristol", "Red", knight=3, men_at_arms=6)
    r = realm(s)
    assert Side(r, "Bristol", "Blue").take_hits(4) == 0
    assert s.cities["Bristol"].units_of("Blue") == {"knight": 2, "men_at_arms": 1}
    red = Side(r, "Bristol", "Red")
    before = red.sp()
    assert red.take_hits(5) == 0 and before - red.sp() == 5


def test_ex_7_4_hits_and_the_nobles_behind_the_troops() -> None:
    """Ex 7-4 (FE 7.5): Anabel, Herbert, 1 Man-at-Arms, 1 Knight."""
    expected = {1: ({"knight": 1}, 2, 0), 2: ({"knight": 1}, 2, 1), 3: ({"men_at_arms": 1}, 2, 0)}
    for hits, (left, nobles, spare) in expected.items():
        s = board()
        troops(s, "York", "Green", knight=1, men_at_arms=1)
        r = realm(s)
        assert Side(r, "York", "Green").take_hits(hits) == spare
        assert s.cities["York"].units_of("Green") == left
        assert nobles == 2
    for hits, slain, captured in ((4, 0, 2), (5, 1, 1), (6, 2, 0)):
        s = board()
        noble(s, "Anabel", "Green", "York")
        noble(s, "Herbert", "Green", "York")
        troops(s, "York", "Green", knight=1, men_at_arms=1)
        noble(s, "William", "Red", "York")
        troops(s, "York", "Red", knight=3)
        r = realm(s, bd(*{4: (3, 1), 5: (3, 2), 6: (3, 3)}[hits]) + bd(0))
        assert fight(r, Side(r, "York", "Red"), Side(r, "York", "Green"), "attack") == "Red"
        dead = [n for n in ("anabel", "herbert") if s.nobles[n].status == "dead"]
        held = [n for n in ("anabel", "herbert") if s.nobles[n].status == "captive"]
        assert (len(dead), len(held)) == (slain, captured), hits
        assert all(s.nobles[n].captor == "william" for n in held)


def test_fe_7_2_archers_need_three_against_a_fortified_city() -> None:
    """FE 7.2 and Ex 7-2: one Archer cannot fire at a Fortified City."""
    s = board()
    noble(s, "William", "Blue", "London")
    troops(s, "London", "Blue", archer=1, knight=1)
    troops(s, "London", "Red", men_at_arms=1)
    r = realm(s, bd(0) * 6)
    record: dict[str, object] = {}
    projectiles.fire(r, Side(r, "London", "Blue"), Side(r, "London", "Red", fortified=2),
                        record)
    assert "projectiles" not in record


def test_fe_7_2_three_archers_in_the_open_add_one_hit() -> None:
    s = board()
    troops(s, "Oxford", "Blue", archer=3)
    troops(s, "Oxford", "Red", men_at_arms=3)
    r = realm(s, bd(1))
    projectiles.fire(r, Side(r, "Oxford", "Blue"), Side(r, "Oxford", "Red"), {})
    assert s.cities["Oxford"].units_of("Red") == {"men_at_arms": 1}


def test_fe_7_2_trebuchets_fire_two_dice_and_a_second_adds_one() -> None:
    """Ex 7-2's first step: ff + f = 3, the second Trebuchet makes it 4."""
    s = board()
    troops(s, "London", "Blue", trebuchet=2, men_at_arms=1)
    troops(s, "London", "Red", archer=3, men_at_arms=2)
    r = realm(s, bd(2, 1, 0))
    rec: dict[str, list[dict[str, object]]] = {}
    projectiles.fire(r, Side(r, "London", "Blue"), Side(r, "London", "Red", fortified=2),
                        rec)  # type: ignore[arg-type]
    assert rec["projectiles"][0]["hits"] == 4
    assert Side(r, "London", "Red").troops() == 1


def test_fe_7_2_a_blank_explodes_a_bombard_and_a_man_at_arms() -> None:
    s = board()
    troops(s, "London", "Red", bombard=2, men_at_arms=2)
    troops(s, "London", "Blue", knight=1)
    r = realm(s, bd(1, 0))
    projectiles.fire(r, Side(r, "London", "Red"), Side(r, "London", "Blue"), {})
    assert s.cities["London"].units_of("Red") == {"bombard": 1, "men_at_arms": 1}


def test_faq_p7_a_lone_noble_is_captured_at_the_start_of_battles() -> None:
    """U22 and FAQ P7 (F20): Kirsten's Knight arrives; Dave's lone noble is captured."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=1)
    noble(s, "William", "Blue", "Oxford")
    r = realm(s)
    battle.lone_nobles(r)
    assert s.nobles["william"].status == "captive" and s.nobles["william"].captor == "lucia"


def test_fe_7_0_troops_without_a_noble_cannot_declare_battle() -> None:
    s = board()
    troops(s, "Oxford", "Green", knight=1)
    troops(s, "Oxford", "Blue", knight=1)
    r = realm(s)
    give_orders(r, {"kirsten": "ATTACK Oxford"})
    battle.battles_phase(r)
    assert refusals(r) == ["an attack needs a free noble with troops there (FE 7.0)"]


def test_fe_7_8_deadlock_after_three_rolls_without_loss() -> None:
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=1)
    troops(s, "Oxford", "Blue", knight=1)
    r = realm(s, bd(0) * 6)
    assert fight(r, Side(r, "Oxford", "Green"), Side(r, "Oxford", "Blue"), "attack") == ""
    assert r.battles[-1]["outcome"] == "deadlock"


def test_faq_f5_an_ally_may_be_attacked_and_his_fortified_city_takes_the_title() -> None:
    """FAQ P1 (F5) and FE 4.7: the Fortified City falls, its title goes with it."""
    s = board()
    lord = noble(s, "Henri", "Blue", "Durham", titles=["marches"])
    s.cities["Durham"].building = "fortified"
    noble(s, "Lucia", "Green", "Durham")
    troops(s, "Durham", "Green", knight=5)
    troops(s, "Durham", "Blue", men_at_arms=1)
    lucia = s.nobles["lucia"]
    lucia.spouse, lord.spouse = lord.key, lucia.key
    r = realm(s, bd(1) + bd(0))       # 15 SP: 3 dice, 1 against a Fortified City
    assert fight(r, Side(r, "Durham", "Green"), Side(r, "Durham", "Blue", fortified=2),
                 "attack") == "Green"
    assert s.cities["Durham"].holder == "Green" and lord.status == "captive"
    assert "marches" in lucia.titles and not lord.titles


# -- FE 2: cards ---------------------------------------------------------------------------

def _deck(s: object, fortune: list[str], character: list[str] | None = None) -> None:
    s.fortune_deck = list(fortune)  # type: ignore[attr-defined]
    s.character_deck = list(character or ["Noble Isabel"])  # type: ignore[attr-defined]


def test_u2_the_second_draw_chosen_after_looking_at_the_first() -> None:
    """U2 (FE 2.0): "Dave draws a Fortune Card, looks at it, and then decides to draw a
    Character Card for his second draw": by email, `IF FIRST IS <card> ELSE <deck>`."""
    plan = "DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE"
    for top, second in (("Tax", "Noble Isabel"), ("Passage", "Justice")):
        s = board()
        _deck(s, [top, "Justice"], ["Noble Isabel"])
        r = realm(s)
        give_orders(r, {"dave": plan})
        cards.draw_phase(r)
        assert s.players["dave"].hand == [top, second]
    s = board()
    _deck(s, ["Tax"], ["Noble Isabel", "Abbess"])
    r = realm(s)
    give_orders(r, {"dave": "DRAW CHARACTER THEN FORTUNE IF FIRST IS NOBLE ELSE CHARACTER"})
    cards.draw_phase(r)
    assert s.players["dave"].hand == ["Noble Isabel", "Tax"]


def test_u3_red_cards_go_to_the_track_and_do_not_count() -> None:
    """U3 (FE 2.3): Kirsten discards Good Weather, draws a Character, then two red cards
    go face down on the track, then a Fortune card (Dave's turn of U3 is the next test)."""
    s = board()
    s.players["kirsten"].hand = ["Good Weather", "Tax"]
    _deck(s, ["Famine", "Storms", "Passage"])
    r = realm(s)
    give_orders(r, {"kirsten": "DISCARD Good Weather\nDRAW CHARACTER THEN FORTUNE"})
    cards.discard_phase(r)
    cards.draw_phase(r)
    assert s.players["kirsten"].hand == ["Tax", "Noble Isabel", "Passage"]
    assert s.track == ["Famine", "Storms"] and s.fortune_discard == ["Good Weather"]


def test_u3_dave_a_full_track_discards_the_red_card() -> None:
    """U3 continued (FE 2.3), Dave's turn: his two nobles go to the Character discard; the
    third track space is filled, the next red card is discarded face up; hand 3."""
    s = board()
    s.players["dave"].hand = ["Noble Isabel", "Noble Joan", "Tax"]
    s.track = ["Plague", "Famine"]
    _deck(s, ["Invasion", "Storms", "Passage", "Plague", "Justice"], ["Abbess"])
    r = realm(s)
    give_orders(r, {"dave": "DISCARD Noble Isabel, Noble Joan\nDRAW FORTUNE THEN FORTUNE"})
    cards.discard_phase(r)
    cards.draw_phase(r)
    assert s.track == ["Plague", "Famine", "Invasion"]
    assert s.fortune_discard == ["Storms", "Plague"]
    assert s.players["dave"].hand == ["Tax", "Passage", "Justice"]
    assert s.character_discard == ["Noble Isabel", "Noble Joan"]


def test_fe_2_0_never_two_character_cards() -> None:
    """FE 2.0: "never two Character Cards": a second Character draw is refused (the
    receipt refuses the line as written, tests/fief/test_orders.py; the engine still
    guards the draw an `IF FIRST IS ... ELSE CHARACTER` can bring)."""
    from moderator.games.fief.orders.values import Draw, TurnOrders

    s = board()
    _deck(s, ["Passage"], ["Noble Isabel", "Abbess"])
    r = realm(s)
    r.orders["dave"] = TurnOrders((Draw(decks=("CHARACTER", "CHARACTER")),))
    cards.draw_phase(r)
    assert s.players["dave"].hand == ["Noble Isabel"]
    assert refusals(r) == ["never two Character cards (FE 2.0)"]


def test_faq_p2_an_exhausted_deck_is_its_shuffled_discards() -> None:
    """FAQ P2 (F11) and FE 2.1."""
    s = board()
    s.character_deck = []
    s.character_discard = ["Noble Isabel"]
    r = realm(s)
    give_orders(r, {"dave": "DRAW CHARACTER"})
    cards.draw_phase(r)
    assert s.players["dave"].hand == ["Noble Isabel"] and not s.character_discard


def test_u5_the_plague_joins_the_storms_on_sea_vi() -> None:
    """U4 and U5 (FE 2.4): FAMINE on a 3 is on the Marches, STORMS on a 6 on the South East,
    and U5's PLAGUE on a 6 joins them: two kinds may share a sea."""
    s = board(round_=2)
    s.track = ["Famine", "Storms", "Plague"]
    r = realm(s, {"disaster": [3, 6, 6]})
    cards.disasters_phase(r)
    assert s.seas == {"3": ["Famine"], "6": ["Storms", "Plague"]}


def test_fe_2_4_round_one_disasters_sleep_until_round_two() -> None:
    s = board(round_=1)
    s.track = ["Plague"]
    noble(s, "Lucia", "Green", "London")
    r = realm(s, {"disaster": [6]})
    cards.disasters_phase(r)
    assert s.seas.get("6", []) == [] and s.dormant == [[6, "Plague"]]
    s.round = 2
    r = realm(s, {"plague": [5]})
    cards.disasters_phase(r)
    assert s.seas["6"] == ["Plague"] and not s.dormant


def test_fe_2_4_a_second_disaster_of_a_kind_is_discarded() -> None:
    """U5 variant (FE 2.4): a second card of a kind already on that sea is discarded."""
    s = board()
    s.seas["2"] = ["Famine"]
    s.track = ["Famine"]
    r = realm(s, {"disaster": [2]})
    cards.disasters_phase(r)
    assert s.seas["2"] == ["Famine"] and s.fortune_discard == ["Famine"]


def test_u6_plague_halves_each_army_and_nobles_roll() -> None:
    """U6 (FE 2.5): 3 Men-at-Arms + 2 Knights lose 2 (Men-at-Arms); a lone Man-at-Arms
    loses none; a noble rolling 2 dies, one rolling 5 lives; engines are spared."""
    s = board()
    noble(s, "William", "Red", "Oxford")
    noble(s, "Herbert", "Red", "London")
    troops(s, "Oxford", "Red", men_at_arms=3, knight=2, bombard=1)
    troops(s, "London", "Red", men_at_arms=1)
    r = realm(s, {"plague": [2, 5]})
    cards.plague(r, 6)
    assert s.cities["Oxford"].units_of("Red") == {"men_at_arms": 1, "knight": 2, "bombard": 1}
    assert s.cities["London"].units_of("Red") == {"men_at_arms": 1}
    assert s.nobles["herbert"].status == "dead" and s.nobles["william"].alive


def test_u7_bountiful_harvest_cancels_famine() -> None:
    """U7 (FE 2.7): both cards discarded; the Marches Mills pay 2, no bonus."""
    s = board()
    s.seas["3"] = ["Famine"]
    s.players["george"].hand = ["Bountiful Harvest"]
    troops(s, "Durham", "Red", men_at_arms=1)
    s.cities["Durham"].mill = True
    r = realm(s)
    give_orders(r, {"george": "PLAY BOUNTIFUL HARVEST ON Marches"})
    cards.play_phase(r)
    assert s.seas["3"] == [] and sorted(s.fortune_discard) == ["Bountiful Harvest", "Famine"]
    assert income.forecast(r, "george")["mills"] == 2


def test_u12_two_good_weathers_against_storms() -> None:
    """U12 (FE 2.9): the first cancels the Storms, the second is placed (+1 a Mill);
    without Storms the second would be refused (one card of a kind a region)."""
    s = board()
    s.seas["1"] = ["Storms"]
    s.players["dave"].hand = ["Good Weather", "Good Weather"]
    troops(s, "Exeter", "Blue", men_at_arms=1)
    s.cities["Exeter"].mill = True
    r = realm(s)
    give_orders(r, {"dave": "PLAY GOOD WEATHER ON South West\nPLAY GOOD WEATHER ON I"})
    cards.play_phase(r)
    assert s.seas["1"] == ["Good Weather"]
    assert income.forecast(r, "dave")["mills"] == 3
    s.players["dave"].hand = ["Good Weather"]
    give_orders(r, {"dave": "PLAY GOOD WEATHER ON South West"})
    cards.play_phase(r)
    assert refusals(r)[-1] == "one card of each kind a region a round (FE 2.9)"


def test_u9_tallage_of_the_south_east_pays_eight() -> None:
    """U9 (FE 2.8, 3.2): George, Lord of the South East, holds 3 cities, David 1: George
    collects 8 and David nothing for his city (his Mill still pays him)."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    for city in ("London", "Canterbury", "Oxford"):
        troops(s, city, "Red", men_at_arms=1)
    troops(s, "Winchester", "Blue", men_at_arms=1)
    s.cities["Winchester"].mill = True
    s.players["george"].hand = ["Tax"]
    r = realm(s)
    give_orders(r, {"george": "PLAY TAX ON South East"})
    cards.play_phase(r)
    assert income.forecast(r, "george")["total"] == 8
    dave = income.forecast(r, "dave")
    assert (dave["cities"], dave["mills"]) == (0, 2)


def test_u16_invaders_halve_every_income_rounded_up() -> None:
    """U16 (FE 3.3): 8 becomes 4 and 7 becomes 4."""
    s = board()
    for city in ("Berwick", "Durham"):
        troops(s, city, "Red", men_at_arms=1)
        s.cities[city].mill = True
    for city in ("Cardiff", "Harlech", "Plymouth"):
        troops(s, city, "Blue", men_at_arms=1)
    s.cities["Cardiff"].mill = s.cities["Harlech"].mill = True
    s.cities["Plymouth"].building = "abbey"
    r = realm(s)
    assert income.forecast(r, "george")["total"] == 6
    assert income.forecast(r, "dave")["total"] == 9
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "York")
    assert income.forecast(r, "george")["total"] == 3
    assert income.forecast(r, "dave")["total"] == 5


def test_u14_an_abbess_founds_an_abbey_where_there_is_no_stronghold() -> None:
    """U14 (FE 2.13): refused in a Stronghold's city and for a married noblewoman."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", men_at_arms=1)
    s.players["kirsten"].hand = ["Abbess", "Abbess"]
    s.cities["London"].building = "stronghold"
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY ABBESS ON Lucia AT London\nPLAY ABBESS ON Lucia AT Oxford"})
    cards.play_phase(r)
    assert refusals(r) == ["London already has a building (FE 2.13, 4.2)"]
    assert s.cities["Oxford"].building == "abbey" and s.nobles["lucia"].abbess == ["Autumn"]


def test_u14_refused_for_a_married_noblewoman() -> None:
    """U14 refused (FE 2.13): a married Lucia may not become Abbess."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford", spouse="william")
    noble(s, "William", "Blue", "Oxford", spouse="lucia")
    s.players["kirsten"].hand = ["Abbess"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY ABBESS ON Lucia AT Oxford"})
    cards.play_phase(r)
    assert refusals(r) == ["a married noble cannot take holy orders (FE 2.13, 2.14)"]
    assert not s.cities["Oxford"].building and s.nobles["lucia"].abbess == []


def test_u15_archbishop_of_york_and_the_one_religious_title() -> None:
    """U15 (FE 2.14, FAQ P1 F8): Godfrey becomes Archbishop of York; a Bishop card on him
    afterwards is refused; an Archbishop card replaces a Bishop's."""
    s = board()
    noble(s, "Godfrey", "Green", "York")
    noble(s, "Hugh", "Green", "York", clergy="norwich")
    s.players["kirsten"].hand = ["Archbishop of York", "Bishop of Exeter",
                                 "Archbishop of Canterbury"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY ARCHBISHOP OF YORK ON Godfrey\n"
                               "PLAY BISHOP OF EXETER ON Godfrey\n"
                               "PLAY ARCHBISHOP OF CANTERBURY ON Hugh"})
    cards.play_phase(r)
    assert s.nobles["godfrey"].clergy == "york"
    assert refusals(r) == ["one religious title at a time (FE 2.14, FAQ P1)"]
    assert s.nobles["hugh"].clergy == "canterbury" and "Bishop of Norwich" in s.character_discard


def test_fe_2_11_a_fourth_noble_is_refused() -> None:
    s = board()
    for name in ("William", "Henri", "Lucia"):
        noble(s, name, "Blue", "Norwich")
    s.players["dave"].hand = ["Noble Isabel"]
    r = realm(s)
    give_orders(r, {"dave": "PLAY NOBLE Isabel AT Norwich"})
    cards.play_phase(r)
    assert refusals(r) == ["a family has at most 3 nobles (FE 2.11)"]


def test_fe_10_3_assassination_kills_and_marks_the_sponsor() -> None:
    s = board()
    noble(s, "William", "Blue", "Norwich", titles=["midlands"])
    noble(s, "Henri", "Blue", "Norwich")
    noble(s, "Lucia", "Green", "York")
    s.players["kirsten"].hand = ["Assassination"]
    r = realm(s)
    give_orders(r, {"kirsten": "ASSASSINATE William BY Lucia"})
    cards.play_phase(r)
    assert s.nobles["william"].status == "dead" and s.nobles["lucia"].heresy
    assert s.nobles["henri"].titles == ["midlands"]      # FE 4.8: the title stays in the family


# -- FE 4: purchasing ----------------------------------------------------------------------

def test_u17_four_new_units_a_city() -> None:
    """U17 (FE 4.0): 2 Men-at-Arms + 2 Knights at Bristol and 1 elsewhere cost 9; a fifth
    new unit at Bristol is refused."""
    s = board()
    noble(s, "Henri", "Blue", "Bristol")
    troops(s, "Bristol", "Blue", men_at_arms=4, knight=3)
    troops(s, "Exeter", "Blue", men_at_arms=1)
    s.players["dave"].cash = 12
    r = realm(s)
    give_orders(r, {"dave": "BUY 2 MAN-AT-ARMS AT Bristol\nBUY 2 KNIGHT AT Bristol\n"
                            "BUY 1 MAN-AT-ARMS AT Bristol\nBUY 1 MAN-AT-ARMS AT Exeter"})
    economy.purchase_phase(r)
    assert s.players["dave"].cash == 3
    assert s.cities["Bristol"].units_of("Blue") == {"men_at_arms": 6, "knight": 5}
    assert refusals(r) == ["at most 4 new units a city each Phase 4 (FE 4.0)"]


def test_u18_the_barony_of_the_marches_costs_four_and_fortifies() -> None:
    """U18 (FE 4.3-4.4, 8.1): both cities and a Stronghold; the title is 1 VP."""
    s = board()
    noble(s, "Hugh", "Red", "Durham")
    troops(s, "Berwick", "Red", men_at_arms=1)
    s.cities["Durham"].building = "stronghold"
    s.players["george"].cash = 5
    r = realm(s)
    give_orders(r, {"george": "BUY TITLE Marches FOR Hugh"})
    economy.purchase_phase(r)
    assert s.nobles["hugh"].titles == ["marches"] and s.players["george"].cash == 1
    assert s.cities["Durham"].building == "fortified" and r.vp("george") == 1


def test_u18_no_title_without_a_stronghold() -> None:
    """U18 refused (FE 4.3): both cities of the Marches but no Stronghold."""
    s = board()
    noble(s, "Hugh", "Red", "Durham")
    troops(s, "Berwick", "Red", men_at_arms=1)
    s.players["george"].cash = 5
    r = realm(s)
    give_orders(r, {"george": "BUY TITLE Marches FOR Hugh"})
    economy.purchase_phase(r)
    assert refusals(r) == ["one of its cities must have a Stronghold (FE 4.3)"]


def test_faq_p4_no_markers_left_no_purchase() -> None:
    """FAQ P4 (F14)."""
    s = board()
    troops(s, "Oxford", "Blue", archer=4)
    s.players["dave"].cash = 10
    r = realm(s)
    give_orders(r, {"dave": "BUY 1 ARCHER AT Oxford"})
    economy.purchase_phase(r)
    assert refusals(r) == ["only 0 left in your stockpile (FAQ P4)"]


def test_faq_p1_f1_an_empty_stronghold_still_takes_new_troops() -> None:
    """FAQ Extinction (F1, fief-email.md A86): a family with nothing on the map buys
    troops into the Stronghold it still holds."""
    s = board()
    s.cities["Exeter"].building = "stronghold"
    s.cities["Exeter"].holder = "Blue"
    s.players["dave"].cash = 1
    r = realm(s)
    give_orders(r, {"dave": "BUY 1 MAN-AT-ARMS AT Exeter"})
    economy.purchase_phase(r)
    assert s.cities["Exeter"].units_of("Blue") == {"men_at_arms": 1}


def test_fe_7_7_a_full_ransom_is_paid_when_affordable() -> None:
    """FE 7.7, Ex 7-6: Dave with 10 must pay George 6 for Henri."""
    s = board()
    noble(s, "William", "Red", "London")
    henri = noble(s, "Henri", "Blue", "London", titles=["midlands"], clergy="canterbury",
                  status="captive", captor="william")
    s.players["dave"].cash = 10
    r = realm(s)
    economy.ransoms(r)
    assert henri.free and s.players["dave"].cash == 4 and s.players["george"].cash == 6


def test_ex_7_6_a_short_purse_keeps_the_captive() -> None:
    s = board()
    noble(s, "William", "Red", "London")
    henri = noble(s, "Henri", "Blue", "London", titles=["midlands"], clergy="canterbury",
                  status="captive", captor="william")
    s.players["dave"].cash = 5
    economy.ransoms(realm(s))
    assert henri.status == "captive" and s.players["dave"].cash == 5


# -- FE 9: marriages and elections ---------------------------------------------------------

def test_fe_9_0_a_marriage_needs_both_orders() -> None:
    s = board()
    noble(s, "William", "Blue", "Norwich")
    noble(s, "Lucia", "Green", "York")
    r = realm(s)
    give_orders(r, {"dave": "MARRY William TO Lucia"})
    court.marriage_phase(r)
    assert s.nobles["william"].spouse is None
    assert {e.actor for e in r.events if e.id == "marriage.mismatch"} == {"dave", "kirsten"}
    give_orders(r, {"dave": "MARRY William TO Lucia", "kirsten": "MARRY Lucia TO William"})
    r.events.clear()
    court.marriage_phase(r)
    assert s.nobles["william"].spouse == "lucia" and r.allied("Blue", "Green")
    # Found playing by mail: the second order of the matched pair was then refused on
    # its player's sheet, "No marriage of Lucia to William: already married".
    assert [e.id for e in r.events] == ["marriage"]


def test_faq_p1_f6_no_marriage_in_a_three_player_game() -> None:
    """F6 (FAQ P1): no marriages in a three-player game; both MARRY lines refused (on the
    receipt, tests/fief/test_sheet_news.py; and by the engine, should one be stored)."""
    s = board(("Red", "Green", "Blue"))
    noble(s, "William", "Blue", "Norwich")
    noble(s, "Lucia", "Green", "York")
    r = realm(s)
    r.orders = {"dave": TurnOrders((Marry(noble="William", to="Lucia"),)),
                "kirsten": TurnOrders((Marry(noble="Lucia", to="William"),))}
    court.marriage_phase(r)
    assert s.nobles["william"].spouse is None
    assert refusals(r) == [] and {e.args["reason"] for e in r.events} == {
        "no marriages in the three-player game (FE 13.8)"}


def test_faq_p1_f4_no_order_ends_a_marriage() -> None:
    """FAQ P1 (F4): there is no DIVORCE; only a spouse's death ends the alliance."""
    from moderator.games.fief.orders import parse_orders
    from tests.fief.conftest import TABLES
    s = board()
    parsed = parse_orders("DIVORCE Lucia", s.to_dict(), "dave", TABLES)
    assert parsed.hard_errors and parsed.hard_errors[0].message == "unknown order 'DIVORCE'"


def test_u20_vote_strength() -> None:
    """U20 (FE 9.1): Hugh Archbishop 2 + Lucia Duchess and Baroness 1 = 3; Philippa
    Countess 1; with Hugh captive, Kirsten has 1."""
    s = board()
    noble(s, "Hugh", "Green", "York", clergy="york")
    noble(s, "Lucia", "Green", "York", titles=["midlands", "wales"])
    noble(s, "Philippa", "Blue", "Whitby", titles=["north"])
    r = realm(s)
    assert (court.votes_of(r, "kirsten"), court.votes_of(r, "dave")) == (3, 1)
    s.nobles["hugh"].status = "captive"
    assert court.votes_of(r, "kirsten") == 1


def test_ex_9_1_an_election_needs_three_titles_one_of_them_clerical() -> None:
    """Ex 9-1 (FE 9.1): Henri Lord of the South West and Bishop, Anabel Lord of Wales,
    Hugh Lord of the Marches: elections proceed; Anabel wins a simple majority."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"])
    s.candidates = ["anabel", "hugh"]
    r = realm(s)
    give_orders(r, {"dave": "VOTE Anabel", "kirsten": "VOTE Anabel", "george": "VOTE Hugh"})
    court.election_phase(r)
    assert s.sovereign == "anabel"


def test_ex_9_1_variants_no_prelate_or_two_titles_no_election() -> None:
    """Ex 9-1 variants (FE 9.1): without a Bishop or Archbishop, or with only two titles in
    play, no election is held even though the votes are written."""
    for henri_titles, henri_clergy, hugh in ((["south-west"], None, True),
                                             ([], "exeter", False)):
        s = board()
        noble(s, "Henri", "Blue", "Exeter", titles=henri_titles, clergy=henri_clergy)
        noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
        if hugh:
            noble(s, "Hugh", "Red", "Berwick", titles=["marches"])
        s.candidates = ["anabel"]
        r = realm(s)
        give_orders(r, {"dave": "VOTE Anabel", "kirsten": "VOTE Anabel"})
        court.election_phase(r)
        assert s.sovereign is None
        assert not [e for e in r.events if e.id.startswith("election.")]


def test_fe_9_1_a_tie_elects_no_one() -> None:
    s = board()
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"])
    s.candidates = ["anabel", "hugh"]
    r = realm(s)
    give_orders(r, {"kirsten": "VOTE Anabel", "george": "VOTE Hugh"})
    court.election_phase(r)
    assert s.sovereign is None


def test_faq_p1_f9_the_crown_is_worth_no_vp() -> None:
    """F9 (FAQ P1): the King's crown is worth no VP; only Anabel's Wales counts."""
    s = board()
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    s.sovereign = "anabel"
    assert realm(s).vp("kirsten") == 1


# -- FE 8, 13: victory and the variants ----------------------------------------------------

def test_ex_8_1_three_fiefdoms_win_at_the_end_of_round_five() -> None:
    """Ex 8-1 (FE 8.2): three Fiefdom titles at the End of Round 5 win."""
    s = board(round_=5)
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales", "marches"])
    r = realm(s)
    victory.end_round(r)
    assert s.winners == ["dave"]


def test_ex_8_1_two_fiefdoms_and_the_relic_marker() -> None:
    """Ex 8-1 (FE 8.2): two Fiefdom titles and the Relic marker at the End of Round 5 win."""
    s = board(round_=5)
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales"])
    s.players["dave"].relic_vp = True
    victory.end_round(realm(s))
    assert s.winners == ["dave"]


def test_fe_8_1_no_victory_before_round_five() -> None:
    """Ex 8-1 variant (FE 8.2): the same three titles at the End of Round 4: no check."""
    s = board(round_=4)
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales", "marches"])
    victory.end_round(realm(s))
    assert s.winners == [] and s.first == 1


def test_fe_8_3_an_alliance_wins_with_four() -> None:
    s = board(round_=5)
    a = noble(s, "Henri", "Blue", "Exeter", titles=["south-west", "wales"])
    b = noble(s, "Lucia", "Green", "York", titles=["north", "marches"])
    a.spouse, b.spouse = b.key, a.key
    victory.end_round(realm(s))
    assert s.winners == ["dave", "kirsten"]


def test_ex_8_2_at_round_seven_the_king_breaks_the_tie_before_a_duke() -> None:
    """Ex 8-2 (FE 8.5): King + Count beats Duke + Relic (the Garter is not yet awarded)."""
    s = board(round_=7)
    noble(s, "Henri", "Blue", "Exeter", titles=["midlands"])
    s.players["dave"].relic_vp = True
    noble(s, "Hugh", "Red", "York", titles=["north", "marches"])
    s.sovereign = "hugh"
    victory.end_round(realm(s))
    assert s.winners == ["george"]


def test_ex_13_2_two_players_move_both_families_in_turn() -> None:
    """Ex 13-2 (FE 13.7): Kirsten (Green, Blue) first, then George (Red, Yellow)."""
    s = board(pairs={"kirsten": ["Green", "Blue"], "george": ["Red", "Yellow"]})
    assert s.family_order() == ["Green", "Blue", "Red", "Yellow"]
    s.first = 1
    assert s.family_order() == ["Red", "Yellow", "Green", "Blue"]


def test_fe_13_7_two_families_share_one_purse() -> None:
    s = board(pairs={"kirsten": ["Green", "Blue"], "george": ["Red", "Yellow"]})
    s.players["kirsten"].cash = 4
    r = realm(s)
    r.pay("Blue", 3)
    assert r.cash("Green") == 1


def _lucia_cavalcades(path: str) -> GameState:
    """Ex 5-2's board: Lucia and 2 Knights at Winchester, George's Man-at-Arms holding
    Canterbury; her Knights cavalcade through it (f f against a blank) along ``path``."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester", titles=["wales"])
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s, bd(1, 1) + bd(0))
    give_orders(r, {"kirsten": f"MOVE Lucia WITH 2 KNIGHT: {path} IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    return s


def test_in_ex_5_2_lucia_cavalcades_through_canterbury() -> None:
    """In Ex 5-2 (FE 5.2-5.3): refused, Lucia and her Knights force Canterbury: 7 SP, two
    dice f f; George's Man-at-Arms one die, blank +1 as defender, wasted on the Knights; she
    leaves a Knight holding Canterbury and rides on to London with the other."""
    s = _lucia_cavalcades("Winchester - Canterbury LEAVE 1 KNIGHT - London")
    assert s.nobles["lucia"].city == "London"
    assert s.cities["Canterbury"].units_of("Green") == {"knight": 1}
    assert s.cities["Canterbury"].holder == "Green" and not s.cities["Canterbury"].units_of("Red")
    assert s.cities["London"].units_of("Green") == {"knight": 1}


def test_fe_5_2_a_cavalcade_is_of_knights_only() -> None:
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=1, men_at_arms=1)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 1 KNIGHT, 1 MAN-AT-ARMS: Winchester - Canterbury"
                               " - London IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Canterbury"


def test_fe_5_2_a_cavalcade_rides_past_a_defended_stronghold() -> None:
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=1)
    troops(s, "Canterbury", "Red", men_at_arms=3)
    s.cities["Canterbury"].building = "stronghold"
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 1 KNIGHT: Winchester - Canterbury - London"
                               " IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "London"


def test_faq_p5_f18_no_cavalcade_on_the_final_move() -> None:
    """FAQ P5 (F18): the army arrives on the outskirts; the fight waits for Phase 7."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=1)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 1 KNIGHT: Winchester - Canterbury"
                               " IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Canterbury" and s.cities["Canterbury"].units_of("Red")


def test_ex_5_2_next_round_after_no_battle_she_passes_without_permission() -> None:
    """Ex 5-2 and FE 5.0: Lucia waited on Canterbury's outskirts and no battle was fought;
    next round she passes through to London without asking."""
    from moderator.games.fief import victory
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Canterbury"
    victory.end_round(r)
    r = realm(s)
    assert passage.permits(r, "Red", "kirsten", "Canterbury")
    assert not passage.permits(r, "Red", "dave", "Canterbury")


def test_faq_extinction_f2_f3_cash_is_secret_and_troops_are_counts() -> None:
    """FAQ Extinction (F2, F3): no one else sees a player's Shillings; the gazette shows
    how many troops a family has in a city, never their types (FE 4.1)."""
    from moderator.games.fief.views.context import gazette, sheet
    from tests.fief.conftest import TABLES
    s = board()
    noble(s, "Lucia", "Green", "York")
    troops(s, "York", "Green", knight=2, archer=1)
    s.players["kirsten"].cash = 17
    paper = gazette(s, TABLES, [])
    york = next(c for c in paper["cities"] if c["city"] == "York")
    assert york["troops"] == {"Green": 3}
    assert "17" not in repr({k: v for k, v in paper.items() if k != "map_svg"})
    assert sheet(s, TABLES, "kirsten")["cash"] == 17
    assert sheet(s, TABLES, "dave")["cash"] == 0 and sheet(s, TABLES, "dave")["troops"] == []


# -- the worked examples the audit found without a test (docs/fief-examples.md) -----------

def test_u1_phase_two_discards_then_draws_then_disasters_then_plays() -> None:
    """U1 (FE 1.0, Phase 2): "Action A - Each Player discards cards in player-order. Action B
    - Then each Player draws ... C - Each Disaster Card is resolved in order. D - Each Player
    plays": four families, each a discard, a draw and a play; two disasters on the track."""
    s = board(round_=2)
    for player in s.players.values():
        player.hand = ["Passage", "Good Weather"]
    s.track = ["Famine", "Storms"]
    _deck(s, ["Justice", "Tax", "Ambush", "Passage"], ["Noble Isabel"])
    r = realm(s, {"disaster": [3, 6]})
    seas = {"george": "Midlands", "kirsten": "Wales", "dave": "South West", "lucy": "North"}
    give_orders(r, {p: f"DISCARD Passage\nDRAW FORTUNE\nPLAY GOOD WEATHER ON {region}"
                    for p, region in seas.items() if p in s.players})
    for phase in phases.NEXT_ROUND_TABLE.ordered():
        if phase.step in (cards.discard_phase, cards.draw_phase, cards.disasters_phase):
            phase.step(r)
    cards.play_phase(r)
    kinds = {"card.discarded": "A", "card.drawn": "B", "disaster.placed": "C",
             "fortune.played": "D"}
    seen = [(kinds[e.id], e.args.get("player")) for e in r.events if e.id in kinds
            and (e.id != "card.drawn" or "count" in e.args)]
    order = s.player_order()
    assert [k for k, _ in seen] == ["A"] * 4 + ["B"] * 4 + ["C"] * 2 + ["D"] * 4
    assert [p for k, p in seen if k == "A"] == order
    assert [p for k, p in seen if k == "B"] == order
    assert [p for k, p in seen if k == "D"] == order
    assert [e.args["card"] for e in r.events if e.id == "disaster.placed"] == ["Famine", "Storms"]


def test_u3_variant_disasters_at_most_one_stops_before_the_second_red_card() -> None:
    """U3 variant (FE 2.3): Kirsten's `DISASTERS AT MOST 1` stops her draw before the
    second red card: one card on the track, the Character in hand, hand 2."""
    s = board()
    s.players["kirsten"].hand = ["Good Weather", "Tax"]
    _deck(s, ["Famine", "Storms", "Passage"])
    r = realm(s)
    give_orders(r, {"kirsten": "DISCARD Good Weather\nDRAW CHARACTER THEN FORTUNE"
                               " DISASTERS AT MOST 1"})
    cards.discard_phase(r)
    cards.draw_phase(r)
    assert s.track == ["Famine"]
    assert s.players["kirsten"].hand == ["Tax", "Noble Isabel"]
    assert s.fortune_deck[:2] == ["Storms", "Passage"]


def test_u4_famine_on_the_marches_and_storms_on_the_south_east() -> None:
    """U4 (FE 2.4, 2.5): FAMINE on a 3 lies on Sea III: the Marches' Mills pay nothing this
    Round; STORMS on a 6 lies on Sea VI: no movement in the South East."""
    s = board(round_=2)
    s.track = ["Famine", "Storms"]
    troops(s, "Durham", "Red", men_at_arms=1)
    s.cities["Durham"].mill = True
    noble(s, "Lucia", "Green", "London")
    r = realm(s, {"disaster": [3, 6]})
    cards.disasters_phase(r)
    assert s.seas == {"3": ["Famine"], "6": ["Storms"]}
    assert income.forecast(r, "george")["mills"] == 0
    give_orders(r, {"kirsten": "MOVE Lucia: London - Oxford"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "London"


def test_faq_p5_f17_a_winning_cavalcade_must_move_on_and_may_come_back() -> None:
    """F17 (FAQ P5): a winning Cavalcade may not stay in the city it forced; with a move
    left it may come back: Lucia forces Canterbury, then returns to Winchester."""
    s = _lucia_cavalcades("Winchester - Canterbury - Winchester")
    assert not s.cities["Canterbury"].units_of("Red")
    assert s.nobles["lucia"].city == "Winchester"
    assert s.cities["Winchester"].units_of("Green") == {"knight": 2}


def test_u11_both_fortune_cards_on_the_marches_and_the_shilling_by_pigeon() -> None:
    """U11 (FE 2.9, 2.15): George plays Bountiful Harvest on his Marches, Dave Good Weather
    on the Marches for George's Shilling sent by Carrier Pigeon (a 3: it arrives): "He will
    now gain the added Mill income from both Fortune Cards": each Marches Mill pays 2 + 2."""
    s = board()
    noble(s, "William", "Red", "Durham")
    troops(s, "Berwick", "Red", men_at_arms=1)
    s.cities["Durham"].building = "fortified"
    for city in ("Durham", "Berwick"):
        s.cities[city].mill = True
    noble(s, "Henri", "Blue", "Exeter")
    s.cities["Exeter"].building = "stronghold"
    s.players["george"].hand = ["Bountiful Harvest"]
    s.players["dave"].hand = ["Good Weather"]
    s.players["george"].cash = 1
    r = realm(s, {"pigeon": [3]})
    give_orders(r, {"george": "PLAY BOUNTIFUL HARVEST ON Marches\nGIVE 1 SHILLINGS TO Dave",
                    "dave": "PLAY GOOD WEATHER ON Marches"})
    cards.play_phase(r)
    assert sorted(s.seas["3"]) == ["Bountiful Harvest", "Good Weather"]
    assert income.forecast(r, "george")["mills"] == 2 * 4
    economy.gifts(r)
    assert (s.players["dave"].cash, s.players["george"].pigeons) == (1, 2)
