"""More rule cases: Tithe, the Opportunity cards played in Phase 2D, pillage, King's Will,
title transfers, relics and Parliament (FE 2.8, 4.5, 4.6, 7.10, 9.2-9.3, 10.1-10.5, 12.0)."""

from __future__ import annotations

from moderator.games.fief import battle, cards, court, economy, income, movement
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops


def test_u10_a_tithe_takes_the_mills_of_the_district() -> None:
    """U10 (FE 2.8, 3.2): Kirsten's prelate of the Exeter district Tithes; Good Weather on
    the South West; Dave's 3 Mills there and George's 1 in Wales: Kirsten 11, the Mill
    owners nothing from them."""
    s = board()
    noble(s, "Hugh", "Green", "York", clergy="exeter")
    for city in ("Plymouth", "Exeter", "Bristol"):
        troops(s, city, "Blue", men_at_arms=1)
        s.cities[city].mill = True
    troops(s, "Cardiff", "Red", men_at_arms=1)
    s.cities["Cardiff"].mill = True
    s.seas["1"] = ["Good Weather"]
    s.players["kirsten"].hand = ["Tax"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY TAX TITHE ON Exeter"})
    cards.play_phase(r)
    assert income.forecast(r, "kirsten")["tithe"] == 11
    assert income.forecast(r, "dave")["mills"] == 0
    assert income.forecast(r, "george")["mills"] == 0


def test_faq_p3_f13_a_dead_prelate_collects_no_tithe() -> None:
    """FAQ P3 (F13): the Bishop died before Phase 3: the Mill owners are paid as normal."""
    s = board()
    hugh = noble(s, "Hugh", "Green", "York", clergy="exeter")
    troops(s, "Exeter", "Blue", men_at_arms=1)
    s.cities["Exeter"].mill = True
    s.taxes = [{"district": "exeter", "player": "kirsten"}]
    r = realm(s)
    r.kill(hugh, "assassination")
    assert income.forecast(r, "dave")["mills"] == 2
    assert income.forecast(r, "kirsten")["tithe"] == 0


def test_fe_10_4_justice_strikes_the_bearer_of_the_heresy_marker() -> None:
    s = board()
    noble(s, "William", "Blue", "Oxford", heresy=True)
    noble(s, "Lucia", "Green", "York")
    s.players["george"].hand = ["Justice"]
    r = realm(s)
    give_orders(r, {"george": "JUSTICE Lucia\nJUSTICE William"})
    cards.play_phase(r)
    assert refusals(r) == ["Justice strikes only a noble bearing the Heresy marker (FE 10.4)"]
    assert s.nobles["william"].status == "dead"


def test_fe_10_4_the_crown_is_above_justice() -> None:
    s = board()
    noble(s, "William", "Blue", "Oxford", heresy=True, titles=["wales"])
    s.sovereign = "william"
    s.players["george"].hand = ["Justice"]
    r = realm(s)
    give_orders(r, {"george": "JUSTICE William"})
    cards.play_phase(r)
    assert s.nobles["william"].alive
    assert refusals(r) == ["not the King, the Sovereign Queen or the Queen (FE 10.4)"]


def test_ex_10_5_an_ambush_takes_a_noble_captive() -> None:
    """Ex 10-5 (FE 10.5): Dave ambushes Lord Edward who has moved into Exeter."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter")
    troops(s, "Exeter", "Blue", men_at_arms=1)
    noble(s, "Edward", "Green", "Exeter")
    troops(s, "Exeter", "Green", knight=2, bombard=1)
    s.players["dave"].hand = ["Ambush"]
    r = realm(s)
    give_orders(r, {"dave": "AMBUSH Edward BY Henri"})
    cards.play_phase(r)
    assert s.nobles["edward"].status == "captive" and s.nobles["edward"].captor == "henri"


def test_fe_10_5_no_ambush_inside_a_stronghold() -> None:
    s = board()
    noble(s, "Henri", "Blue", "London")
    noble(s, "Edward", "Green", "London")
    s.cities["London"].holder = "Green"
    s.cities["London"].building = "stronghold"
    s.players["dave"].hand = ["Ambush"]
    r = realm(s)
    give_orders(r, {"dave": "AMBUSH Edward BY Henri"})
    cards.play_phase(r)
    assert refusals(r) == ["a noble in a Stronghold cannot be ambushed (FE 10.5)"]


def test_fe_10_2_passage_frees_a_captive() -> None:
    s = board()
    noble(s, "Henri", "Blue", "London")
    troops(s, "Oxford", "Green", men_at_arms=1)
    s.cities["Oxford"].building = "stronghold"
    noble(s, "Edward", "Green", "London", status="captive", captor="henri")
    s.players["kirsten"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"kirsten": "PASSAGE FREE Edward"})
    cards.play_phase(r)
    assert s.nobles["edward"].free and s.nobles["edward"].city == "Oxford"   # FE 7.6


def test_ex_10_3_one_rebellion_one_die_and_one_bonus_hit() -> None:
    """Ex 10-3 (FE 10.1): Kirsten's Rebellion on a famished London; Dave's 2 Men-at-Arms and
    Philippa; a blank and the +1 bonus make 1 hit: one Man-at-Arms falls (the example's "1
    Hit" is the total, bonus included)."""
    s = board()
    noble(s, "Philippa", "Blue", "London")
    troops(s, "London", "Blue", men_at_arms=2)
    s.seas["6"] = ["Famine"]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {"rebellion": bd(0)})
    give_orders(r, {"kirsten": "REBELLION AT London"})
    cards.play_phase(r)
    assert s.cities["London"].units_of("Blue") == {"men_at_arms": 1}
    assert s.nobles["philippa"].alive


def test_fe_10_1_a_stronghold_cancels_one_rebellion() -> None:
    """Ex 10-2: one Rebellion against a Stronghold is cancelled."""
    s = board()
    troops(s, "Norwich", "Blue", men_at_arms=2)
    s.cities["Norwich"].building = "stronghold"
    s.seas["5"] = ["Famine"]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {})
    give_orders(r, {"kirsten": "REBELLION AT Norwich"})
    cards.play_phase(r)
    assert s.cities["Norwich"].units_of("Blue") == {"men_at_arms": 2}


def test_ex_9_3_the_royal_tax_adds_a_rebellion() -> None:
    """Ex 9-3 (FE 9.3): with the Parliament card on its Rebellion side, a Rebellion on any
    city is 2 Battle Dice +2; all troops gone, the nobles die and the buildings burn (FE
    10.1 No Captives)."""
    s = board()
    noble(s, "Philippa", "Blue", "London")
    troops(s, "London", "Blue", men_at_arms=2)
    s.cities["London"].mill = True
    s.parliament_rebellion = True
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {"rebellion": bd(0, 1)})
    give_orders(r, {"kirsten": "REBELLION AT London"})
    cards.play_phase(r)
    assert not s.cities["London"].troops and s.nobles["philippa"].status == "dead"
    assert not s.cities["London"].mill


def test_fe_10_1_never_on_ones_own_tax() -> None:
    s = board()
    noble(s, "William", "Green", "Durham", titles=["marches"])
    troops(s, "Berwick", "Blue", men_at_arms=1)
    s.taxes = [{"region": "marches", "player": "kirsten"}]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s)
    give_orders(r, {"kirsten": "REBELLION AT Berwick"})
    cards.play_phase(r)
    assert refusals(r) == ["never on a city under your own Tax (FE 10.1)"]


def test_fe_7_10_pillage_a_mill_and_an_abbey() -> None:
    """FE 7.10, 2.13: +2 for the Mill; +10, the Relic and the Heresy marker for the Abbey."""
    s = board()
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", men_at_arms=1)
    s.cities["Oxford"].mill = True
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    s.cities["Oxford"].relic, s.cities["Oxford"].relic_up = "Holy Grail", True
    r = realm(s)
    give_orders(r, {"dave": "PILLAGE Oxford MILL\nPILLAGE Oxford ABBEY BY William"})
    battle.battles_phase(r)
    assert s.players["dave"].cash == 12 and not s.cities["Oxford"].mill
    assert s.nobles["william"].heresy and s.nobles["william"].relics == ["Holy Grail"]


def test_fe_4_5_the_kings_will_grants_a_title_free() -> None:
    s = board()
    noble(s, "William", "Green", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Henri", "Blue", "Durham")
    troops(s, "Berwick", "Blue", men_at_arms=1)
    s.cities["Durham"].building = "stronghold"
    r = realm(s)
    give_orders(r, {"kirsten": "GRANT Marches TO Henri"})
    economy.purchase_phase(r)
    assert s.nobles["henri"].titles == ["marches"] and s.players["dave"].cash == 0
    assert s.cities["Durham"].building == "fortified"


def test_u19_a_lord_keeps_his_largest_fiefdom() -> None:
    """U19 (FE 4.6): Henri, Duke of the Midlands and Baron of the Marches, may pass the
    Marches to William, never the Midlands."""
    s = board()
    noble(s, "Henri", "Blue", "Norwich", titles=["midlands", "marches"], clergy="canterbury")
    noble(s, "William", "Blue", "Norwich")
    r = realm(s)
    give_orders(r, {"dave": "TRANSFER Midlands TO William\nTRANSFER Marches TO William"})
    economy.purchase_phase(r)
    assert refusals(r) == ["the Lord keeps the largest fiefdom himself (FE 4.6)"]
    assert s.nobles["william"].titles == ["marches"]


def test_fe_12_0_a_prelate_finds_his_cathedrals_relic_and_presents_it() -> None:
    """FE 12.0, 8.1: the Archbishop of York entering York takes its Relic; handed to the
    Sovereign, it wins the Relic VP marker for good."""
    s = board()
    noble(s, "Hugh", "Green", "Durham", clergy="york")
    noble(s, "William", "Red", "York", titles=["north"])
    s.sovereign = "william"
    s.cities["York"].relic = "Holy Grail"
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Durham - York\nPRESENT Holy Grail BY Hugh"})
    movement.movement_phase(r)
    assert s.nobles["william"].relics == ["Holy Grail"] and s.players["kirsten"].relic_vp
    assert r.vp("kirsten") == 1


def test_fe_12_0_another_districts_bishop_passes_the_relic_by() -> None:
    s = board()
    noble(s, "Hugh", "Green", "Durham", clergy="norwich")
    s.cities["York"].relic = "Holy Grail"
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Hugh: Durham - York"})
    movement.movement_phase(r)
    assert s.nobles["hugh"].relics == [] and s.cities["York"].relic == "Holy Grail"


def test_fe_12_0_an_abbess_reveals_any_cathedrals_relic() -> None:
    s = board()
    noble(s, "Lucia", "Green", "King's Lynn", abbess=["Autumn"])
    s.cities["Norwich"].relic = "Holy Grail"
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia: King's Lynn - Norwich"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].relics == ["Holy Grail"]


def _parliament_board() -> tuple[GameState, Realm]:
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Hugh", "Green", "York", clergy="york")          # 2 votes
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"])  # 1 vote
    return s, realm(s)


def test_fe_9_2_parliament_passes_the_royal_tax_by_a_majority() -> None:
    """FE 9.2: George (1) and Kirsten (2) FOR, Dave (1) AGAINST: 3 of 4 votes; the 12
    Shillings shared as the King wrote, the rest to him; the card turns (9.3)."""
    s, r = _parliament_board()
    give_orders(r, {"george": "CONVENE PARLIAMENT SHARES kirsten 5",
                    "kirsten": "PARLIAMENT FOR"})
    court.parliament_phase(r)
    assert (s.players["george"].cash, s.players["kirsten"].cash) == (7, 5)
    assert s.parliament_rebellion


def test_fe_9_2_without_a_majority_no_royal_tax() -> None:
    s, r = _parliament_board()
    give_orders(r, {"george": "CONVENE PARLIAMENT"})
    court.parliament_phase(r)
    assert s.players["george"].cash == 0 and not s.parliament_rebellion


def test_fe_9_2_only_the_sitting_sovereign_convenes_the_others_are_told() -> None:
    """FE 9.2.  Found playing by mail: Cid's CONVENE PARLIAMENT, Cid holding no crown,
    did nothing and his sheet said nothing; nor was a captive King's player told."""
    s, r = _parliament_board()
    give_orders(r, {"dave": "CONVENE PARLIAMENT", "george": "CONVENE PARLIAMENT"})
    court.parliament_phase(r)
    assert [e.actor for e in r.events if e.id == "order.refused"] == ["dave"]
    assert refusals(r) == ["only a free King or Sovereign Queen, neither captive nor "
                           "besieged, convenes Parliament (FE 9.2)"]
    s, r = _parliament_board()
    s.nobles["william"].status = "captive"
    give_orders(r, {"george": "CONVENE PARLIAMENT"})
    court.parliament_phase(r)
    assert [e.actor for e in r.events if e.id == "order.refused"] == ["george"]


def test_fe_3_1_an_abbey_pays_for_its_visitors_and_lifts_the_mills_around() -> None:
    """FE 3.1, 2.13: the Abbess Lucia and Lord William in the Abbey of Oxford, a Relic
    carried there and its Mill: 2 + 2 + 2 + 3 + (2 + 1) = 12 for the Abbess's family;
    London's Mill, a road away, pays its holder 2 + 1."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford", abbess=["Autumn"], relics=["Holy Grail"])
    noble(s, "William", "Blue", "Oxford", titles=["wales"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    s.cities["Oxford"].mill = True
    troops(s, "London", "Red", men_at_arms=1)
    s.cities["London"].mill = True
    # FE 5.0: William is inside the Abbey, let in by Kirsten (else on its outskirts).
    s.players["kirsten"].standing.append({"kind": "allow_enter", "who": "dave", "city": None})
    r = realm(s)
    assert income.forecast(r, "kirsten")["abbeys"] == 12
    assert income.forecast(r, "george")["mills"] == 3


def test_fe_6_10_church_intervention_sends_the_army_home_for_good() -> None:
    from moderator.games.fief import invaders
    from moderator.games.fief.state import InvaderArmy
    s = board()
    noble(s, "Hugh", "Green", "York", clergy="york")
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York")
    r = realm(s, {"intervention": [2]})
    give_orders(r, {"kirsten": "INTERVENE AT York BY Hugh"})
    invaders.interventions(r)
    assert not s.invaders and s.invaders_gone == 1
    s.seas["4"] = ["Invasion"]
    r = realm(s, {"invaders": bd(3, 3)})
    invaders.land(r)
    assert len(s.invaders) == 3                      # one army fewer in the game


def test_fe_6_10_a_failed_intervention_costs_the_cleric() -> None:
    from moderator.games.fief import invaders
    from moderator.games.fief.state import InvaderArmy
    s = board()
    noble(s, "Hugh", "Green", "York", clergy="york")
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York")
    r = realm(s, {"intervention": [5]})
    give_orders(r, {"kirsten": "INTERVENE AT York BY Hugh"})
    invaders.interventions(r)
    assert s.nobles["hugh"].status == "dead" and s.invaders


def test_fe_6_12_an_assassinated_leader_leaves_his_foot_behind() -> None:
    """FE 6.12 (and 6.11): no sponsor; the Leader leaves the game; his Foot join another
    Leader in the city, or stay without moving."""
    from moderator.games.fief import invaders
    from moderator.games.fief.state import InvaderArmy
    s = board()
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York", True, 5)
    s.invaders["Red Lion"] = InvaderArmy("Red Lion", "York", True, 2)
    s.players["kirsten"].hand = ["Assassination"]
    r = realm(s)
    give_orders(r, {"kirsten": "ASSASSINATE LEADER AT York"})
    invaders.interventions(r)
    assert not s.invaders["Black Raven"].leader
    assert s.invaders["Red Lion"].foot == 5 and s.invaders["Black Raven"].foot == 2
    invaders.march(r, "Black Raven")
    assert s.invaders["Black Raven"].city == "York"


def test_fe_10_1_a_bishop_quells_the_rebellion_for_three_shillings() -> None:
    s = board()
    noble(s, "Hugh", "Blue", "London", clergy="canterbury")
    troops(s, "London", "Blue", men_at_arms=2)
    s.players["dave"].cash = 3
    s.players["dave"].standing.append({"kind": "quell", "how": "pay", "family": None})
    s.seas["6"] = ["Famine"]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s)
    give_orders(r, {"kirsten": "REBELLION AT London"})
    cards.play_phase(r)
    assert s.players["dave"].cash == 0 and s.cities["London"].units_of("Blue") == {"men_at_arms": 2}


def test_fe_10_1_a_praying_cleric_may_be_stoned() -> None:
    s = board()
    noble(s, "Hugh", "Blue", "London", clergy="canterbury")
    troops(s, "London", "Blue", men_at_arms=2)
    s.players["dave"].standing.append({"kind": "quell", "how": "pray", "family": None})
    s.seas["6"] = ["Famine"]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {"quell": [6], "rebellion": bd(0)})
    give_orders(r, {"kirsten": "REBELLION AT London"})
    cards.play_phase(r)
    assert s.nobles["hugh"].status == "dead"
    assert s.cities["London"].units_of("Blue") == {"men_at_arms": 1}


def test_u8_good_weather_in_movement_ends_the_storms_and_she_rides_in() -> None:
    """U8 (FE 2.7, 2.6): Kirsten plays Good Weather in her Phase 5 turn on a region with
    Storms: both cards are discarded and her move into it is legal."""
    from moderator.games.fief import movement
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=1)
    s.seas["1"] = ["Storms"]
    s.players["kirsten"].hand = ["Good Weather"]
    r = realm(s)
    give_orders(r, {"kirsten": "PLAY GOOD WEATHER ON South West IN MOVEMENT\n"
                               "MOVE Lucia WITH 1 KNIGHT: Oxford - Bristol"})
    cards.play_phase(r)
    assert s.seas["1"] == ["Storms"]                 # not played in Phase 2D
    movement.movement_phase(r)
    assert s.seas["1"] == [] and s.nobles["lucia"].city == "Bristol"
    assert sorted(s.fortune_discard) == ["Good Weather", "Storms"]


def test_fe_10_2_a_passage_card_slips_through_a_held_city() -> None:
    """FE 10.2 (Avoid a Battle): denied at Canterbury, the Passage card takes Lucia through."""
    from moderator.games.fief import movement
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    troops(s, "Winchester", "Green", men_at_arms=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    s.players["kirsten"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 MAN-AT-ARMS: Winchester - Canterbury - London"
                               " IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "London" and s.players["kirsten"].hand == []


def test_ex_10_5_ambushed_lord_edwards_troops_fall_back_and_leave_the_bombard() -> None:
    """Ex 10-5 (FE 10.5): Lord Edward is ambushed at Exeter; Kirsten's troops go in groups
    of 4 to her nobles at Winchester and Canterbury; the Bombard stays behind."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter")
    troops(s, "Exeter", "Blue", men_at_arms=1)
    noble(s, "Edward", "Green", "Exeter", titles=["wales"])
    troops(s, "Exeter", "Green", knight=2, men_at_arms=4, bombard=1)
    noble(s, "Lucia", "Green", "Winchester")
    noble(s, "Hugh", "Green", "Canterbury")
    s.players["dave"].hand = ["Ambush"]
    r = realm(s)
    give_orders(r, {"dave": "AMBUSH Edward BY Henri"})
    cards.play_phase(r)
    assert s.cities["Exeter"].units_of("Green") == {"bombard": 1}
    assert s.cities["Winchester"].units_of("Green") == {"knight": 2, "men_at_arms": 2}
    assert s.cities["Canterbury"].units_of("Green") == {"men_at_arms": 2}


def test_fe_12_1_the_holy_grail_turns_the_attackers_ff() -> None:
    """FE 12.1: the defender's noble carries the Grail: the attacker's ff faces do nothing."""
    from moderator.games.fief.battle import Side, fight
    s = board()
    noble(s, "Lucia", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=3)
    noble(s, "Hugh", "Blue", "Oxford", relics=["Holy Grail"])
    troops(s, "Oxford", "Blue", men_at_arms=2)
    r = realm(s, bd(2, 2) + bd(0) + bd(2, 1) + bd(0) + bd(1, 1) + bd(0))
    fight(r, Side(r, "Oxford", "Green"), Side(r, "Oxford", "Blue"), "attack")
    assert [x["attacker_hits"] for x in r.battles[-1]["rounds"]][:2] == [0, 1]


def test_fe_12_2_the_chasuble_moves_the_storms_to_a_neighbouring_sea() -> None:
    """FE 12.2 and U21: from Sea III to II or IV, not to V; once a round a card."""
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Chasuble of Thomas Becket"])
    s.seas["3"] = ["Storms"]
    r = realm(s)
    give_orders(r, {"kirsten": "CHASUBLE STORMS FROM III TO V\nCHASUBLE STORMS FROM III TO IV\n"
                               "CHASUBLE STORMS FROM IV TO V"})
    cards.play_phase(r)
    assert s.seas["3"] == [] and s.seas["4"] == ["Storms"]
    assert refusals(r) == ["only to an adjacent sea (FE 12.2)",
                           "that Storms card has moved this round (FE 12.2)"]


def test_fe_12_3_the_skull_raises_a_noble_once() -> None:
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Skull of Saint Caradoc"])
    lucia = noble(s, "Lucia", "Green", "York", titles=["north"])
    s.players["kirsten"].standing.append({"kind": "skull", "family": None})
    r = realm(s)
    r.kill(lucia, "battle")
    assert lucia.alive and lucia.titles == ["north"] and s.skull_used
    r.kill(lucia, "battle")
    assert not lucia.alive


def test_fe_12_4_the_shinbone_ends_the_famines_of_its_district() -> None:
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Saint Eanswith's Shinbone"])
    s.seas["3"] = ["Famine"]
    s.seas["4"] = ["Famine", "Storms"]
    s.seas["5"] = ["Famine"]
    r = realm(s)
    give_orders(r, {"kirsten": "SHINBONE"})
    cards.play_phase(r)
    assert (s.seas["3"], s.seas["4"], s.seas["5"]) == ([], ["Storms"], ["Famine"])


def test_fe_6_9_a_standing_danegeld_pays_when_the_invaders_come() -> None:
    """FE 6.9 ("at any time during Phase 6") as a standing reaction: the army lands at
    King's Lynn and Lucia, there, pays it to go at once."""
    from moderator.games.fief import invaders
    s = board()
    noble(s, "Lucia", "Green", "King's Lynn")
    troops(s, "King's Lynn", "Green", men_at_arms=1)
    s.players["kirsten"].cash = 5
    s.players["kirsten"].standing.append({"kind": "danegeld_reaction", "city": "King's Lynn",
                                          "noble": "Lucia", "family": None})
    s.seas["5"] = ["Invasion"]
    r = realm(s, {"invaders": bd(1)})
    invaders.land(r)
    assert not s.invaders and s.players["kirsten"].cash == 0
    assert s.cities["King's Lynn"].units_of("Green") == {"men_at_arms": 1}


def test_u13_mata_swaps_a_card_once_a_round() -> None:
    """U13 (FE 2.12): Alienor's Mata: Tax to Dave, one of Dave's cards at random to
    Kirsten; a second use the same round is refused."""
    s = board()
    noble(s, "Alienor", "Green", "York", retainer="Mata")
    s.players["kirsten"].hand = ["Tax", "Passage"]
    s.players["dave"].hand = ["Justice", "Ambush"]
    r = realm(s, {"deck": [2]})
    give_orders(r, {"kirsten": "MATA Tax WITH Dave\nMATA Passage WITH Dave"})
    cards.play_phase(r)
    assert s.players["kirsten"].hand == ["Passage", "Justice"]
    assert s.players["dave"].hand == ["Ambush", "Tax"]
    assert refusals(r) == ["Mata is spent until the end of the round (FE 2.12)"]


def test_faq_p1_f7_a_player_may_abstain() -> None:
    """FAQ P1 (F7): no VOTE, no votes counted: Kirsten's 2 stay out, Anabel wins 1 to 0."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"])
    noble(s, "Godfrey", "Yellow", "York", clergy="york")
    s.candidates = ["anabel", "hugh"]
    r = realm(s)
    give_orders(r, {"kirsten": "VOTE Anabel"})
    court.election_phase(r)
    elected = next(e for e in r.events if e.id == "election.elected")
    assert elected.args["tally"] == {"anabel": 1, "hugh": 0} and s.sovereign == "anabel"


def test_fe_6_13_rebels_fall_on_the_invaders_too() -> None:
    """FE 6.13, 10.1: a Rebellion on a famished city the invaders hold: 1 die +1 (ff + 1 =
    3 hits) kills one Foot Soldier (2 hits each)."""
    from moderator.games.fief.state import InvaderArmy
    s = board()
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "Lincoln", True, 5)
    s.seas["4"] = ["Famine"]
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {"rebellion": bd(2)})
    give_orders(r, {"kirsten": "REBELLION AT Lincoln"})
    cards.play_phase(r)
    assert s.invaders["Black Raven"].foot == 4
