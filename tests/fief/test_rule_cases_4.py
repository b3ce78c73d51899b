"""Rule cases for the supported Rebellions: Rebellion cards joining one another, the
Burgher's Rebellion and Passage, a Passage ignoring the walls (FE 10.1, 10.2, 11.2, 11.3;
Ex 10-1, 10-2, 11-1)."""

from __future__ import annotations

from moderator.games.fief import ENGINE, battle, cards, economy, movement, phases
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES


def _famine(s: GameState, city: str) -> None:
    s.seas[str(TABLES.region_of(city).number)] = ["Famine"]


def _kirstens_coventry(building: str = "") -> GameState:
    s = board()
    noble(s, "Lucia", "Green", "Coventry")
    troops(s, "Coventry", "Green", men_at_arms=5)
    s.cities["Coventry"].building = building
    _famine(s, "Coventry")
    s.players["george"].hand = ["Rebellion"]
    s.players["dave"].hand = ["Rebellion"]
    return s


def test_ex_10_1_a_second_rebellion_joins_the_first() -> None:
    """Ex 10-1 (FE 10.1): George's Rebellion on Kirsten's famished Coventry; Dave's standing
    support adds his card: 2 Battle Dice +2 (f, f: 4 hits), four of five Men-at-Arms fall."""
    s = _kirstens_coventry()
    r = realm(s, {"rebellion": bd(1, 1)})
    give_orders(r, {"george": "REBELLION AT Coventry",
                    "dave": "IF ANYONE REBELS Coventry THEN PLAY REBELLION"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 1}
    assert "Rebellion" not in s.players["dave"].hand
    assert s.fortune_discard.count("Rebellion") == 2
    assert s.nobles["lucia"].alive


def test_ex_10_2_the_stronghold_cancels_one_of_the_two() -> None:
    """Ex 10-2 (FE 10.1): the same two Rebellions against a Stronghold: 1 Battle Die +1 (an
    f: 2 hits), two Men-at-Arms fall."""
    s = _kirstens_coventry("stronghold")
    r = realm(s, {"rebellion": bd(1)})
    give_orders(r, {"george": "REBELLION AT Coventry",
                    "dave": "IF ANYONE REBELS ANY THEN PLAY REBELLION"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 3}
    assert s.cities["Coventry"].building == "stronghold"


def test_ex_11_1_the_burghers_rebellion_drowns_estrid() -> None:
    """Ex 11-1 (FE 11.2, 10.1, 10.2): George's Burgher starts a Rebellion on Dave's famished
    Norwich Stronghold with one Treasure and ignores the walls with the second (a Burgher
    passage), adds his Rebellion card; Kirsten adds hers: 3 Battle Dice +3, an f, a blank
    and fff for 7 hits; the Knight (3), Archer (1) and two Men-at-Arms (2) fall, the last
    hit drowns Estrid, and the Mill and the Stronghold burn."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.players["george"].slot = "Burgher (3 votes)"
    s.players["george"].hand = ["Rebellion"]
    s.players["kirsten"].hand = ["Rebellion"]
    noble(s, "Estrid", "Blue", "Norwich")
    troops(s, "Norwich", "Blue", knight=1, archer=1, men_at_arms=2)
    s.cities["Norwich"].building = "stronghold"
    s.cities["Norwich"].mill = True
    _famine(s, "Norwich")
    r = realm(s, {"rebellion": bd(1, 0, 3)})
    give_orders(r, {"george": "BURGHER REBELLION AT Norwich WITH BURGHER PASSAGE AND REBELLION",
                    "kirsten": "IF AN OPPONENT REBELS Norwich THEN PLAY REBELLION"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert refusals(r) == []
    assert s.nobles["estrid"].status == "dead"
    assert s.cities["Norwich"].units_of("Blue") == {}
    assert s.cities["Norwich"].building == "" and not s.cities["Norwich"].mill
    assert s.players["george"].treasures == 0
    assert s.players["george"].hand == [] and s.players["kirsten"].hand == []


def test_fe_10_2_a_passage_ignores_the_walls_of_a_rebellion() -> None:
    """FE 10.2 Played at Any Time, Rebellion: with Dave's standing Passage, one Rebellion
    against a Fortified City is not cancelled: 1 Battle Die +1 (blank: 1 hit)."""
    s = _kirstens_coventry("fortified")
    s.players["dave"].hand = ["Passage"]
    r = realm(s, {"rebellion": bd(0)})
    give_orders(r, {"george": "REBELLION AT Coventry",
                    "dave": "IF ANYONE REBELS Coventry THEN PASSAGE"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 4}
    assert s.players["dave"].hand == []


def test_fe_11_3_a_burgher_action_needs_a_treasure() -> None:
    """FE 11.2, 11.3: one Treasure left, two Burgher actions asked: the whole line is
    refused and nothing is spent."""
    s = _kirstens_coventry()
    s.players["george"].slot = "Burgher (5 votes)"
    s.players["george"].treasures = 1
    r = realm(s)
    give_orders(r, {"george": "BURGHER REBELLION AT Coventry WITH BURGHER REBELLION"})
    cards.play_phase(r)
    assert refusals(r) == ["a Treasure for each Burgher action (FE 11.2, 11.3)"]
    assert s.players["george"].treasures == 1
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 5}


def test_fe_10_1_no_support_under_ones_own_tax() -> None:
    """FE 10.1: Dave taxed the region himself: his standing support does not fire and he
    keeps his card; George's Rebellion alone: 1 Battle Die +1."""
    s = _kirstens_coventry()
    s.seas = {}
    s.taxes = [{"region": TABLES.region_of("Coventry").key, "player": "dave"}]
    r = realm(s, {"rebellion": bd(1)})
    give_orders(r, {"george": "REBELLION AT Coventry",
                    "dave": "IF ANYONE REBELS Coventry THEN PLAY REBELLION"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 3}
    assert s.players["dave"].hand == ["Rebellion"]


def _kirsten_before_daves_stronghold(hand: list[str]) -> GameState:
    s = board()
    noble(s, "William", "Blue", "Norwich")
    troops(s, "Norwich", "Blue", men_at_arms=1)
    s.cities["Norwich"].building = "stronghold"
    noble(s, "Lucia", "Green", "Norwich")
    troops(s, "Norwich", "Green", men_at_arms=5)
    s.players["kirsten"].hand = hand
    return s


def _melee_dice(r: Realm) -> list[int]:
    return [len(e.args["attacker_faces"]) for e in r.events if e.id == "battle.round"]


def test_ex_10_4_a_passage_attacks_from_the_tunnels() -> None:
    """Ex 10-4 (FE 10.2, 7.4): Kirsten's 5 SP against a Stronghold would roll 1 - 1 = 0
    Battle Dice; with the Passage she ignores the penalty and rolls 1 (an f: Dave's lone
    Man-at-Arms falls)."""
    s = _kirsten_before_daves_stronghold(["Passage"])
    r = realm(s, {"battle": bd(1, 0)})
    give_orders(r, {"kirsten": "ATTACK Norwich WITH PASSAGE"})
    battle.battles_phase(r)
    assert _melee_dice(r)[0] == 1
    assert s.players["kirsten"].hand == [] and "Passage" in s.fortune_discard
    assert s.cities["Norwich"].units_of("Blue") == {}


def test_ex_10_4_without_the_passage_the_attack_stalls() -> None:
    """Ex 10-4's other half (FE 7.4): no Passage, 0 melee dice: the attack stalls before the
    walls; a Passage asked for in the open is not spent."""
    s = _kirsten_before_daves_stronghold([])
    r = realm(s)
    give_orders(r, {"kirsten": "ATTACK Norwich"})
    battle.battles_phase(r)
    assert _melee_dice(r) == []
    assert [e.args["outcome"] for e in r.events if e.id == "battle.ends"] == ["stalled"]
    assert s.cities["Norwich"].units_of("Blue") == {"men_at_arms": 1}
    s.cities["Norwich"].building = ""
    s.players["kirsten"].hand = ["Passage"]
    r = realm(s, {"battle": bd(1, 0)})
    give_orders(r, {"kirsten": "ATTACK Norwich WITH PASSAGE"})
    battle.battles_phase(r)
    assert s.players["kirsten"].hand == ["Passage"]


def test_faq_p2_f10_an_opportunity_card_played_instead_of_discarded() -> None:
    """FAQ Phase 2 (F10): "the Player may play it instead of discarding it": Kirsten's
    Assassination at the Discard (window W4) kills William then, before the draw; the card
    goes to the discard pile as played, not as discarded, and Phase 2D does not play it
    again."""
    s = board()
    noble(s, "William", "Blue", "Norwich")
    noble(s, "Lucia", "Green", "York")
    s.players["kirsten"].hand = ["Assassination", "Tax"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT DISCARD ASSASSINATE William BY Lucia\nDISCARD Tax"})
    cards.discard_phase(r)
    assert s.nobles["william"].status == "dead" and s.nobles["lucia"].heresy
    assert s.players["kirsten"].hand == []
    assert [e.args["card"] for e in r.events if e.id == "card.discarded"] == ["Tax"]
    cards.play_phase(r)
    assert refusals(r) == []


def test_faq_p2_f10_only_opportunity_cards_at_the_discard() -> None:
    """FAQ Phase 2 (F10) is about Opportunity cards: a Tax card (played in Phase 2D only)
    written AT DISCARD is a parse error with a hint."""
    s = board()
    noble(s, "Lucia", "Green", "York", titles=["north"])
    s.players["kirsten"].hand = ["Tax"]
    parsed = ENGINE.parse_orders("AT DISCARD PLAY TAX ON North", s.to_dict(), "kirsten",
                                 TABLES)
    assert [e.message for e in parsed.errors] == [
        "only an Opportunity card is played at the Discard (FAQ P2 F10)"]


def _henri_besieged_in_london(**units: int) -> GameState:
    s = board()
    noble(s, "Henri", "Red", "London")
    troops(s, "London", "Red", **units)
    noble(s, "William", "Blue", "London")
    troops(s, "London", "Blue", men_at_arms=2)
    london = s.cities["London"]
    london.holder, london.occupants, london.building = "Red", ["Red", "Blue"], "fortified"
    london.besieged_by, london.siege_engines = "Blue", 1
    return s


def test_faq_p5_f19_a_cavalcade_breaks_out_of_a_siege() -> None:
    """FAQ Phase 5 (F19): George's Henri and 3 Knights cavalcade out of besieged London:
    they fight Dave's besiegers at once, melee only (2 dice: fff, fff), Dave's 2 Men-at-Arms
    fall, and the winners must go on: Henri rides to Oxford with his Knights."""
    s = _henri_besieged_in_london(knight=3)
    r = realm(s, {"battle": bd(3, 3, 0) * 3})
    give_orders(r, {"george": "MOVE Henri WITH 3 KNIGHT: London - Oxford IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert [e.args["passed"] for e in r.events if e.id == "cavalcade"] == [True]
    assert s.cities["London"].units_of("Blue") == {}
    assert s.nobles["henri"].city == "Oxford"
    assert s.cities["Oxford"].units_of("Red") == {"knight": 3}


def test_faq_p5_f19_only_a_cavalcade_leaves_a_besieged_city() -> None:
    """FE 7.9 with FAQ P5 F19: without `IF DENIED CAVALCADE` no one leaves; a Cavalcade
    with Men-at-Arms is no Cavalcade (FE 5.2): the army stays inside, nothing fought."""
    s = _henri_besieged_in_london(knight=1, men_at_arms=1)
    r = realm(s)
    give_orders(r, {"george": "MOVE Henri WITH 1 KNIGHT: London - Oxford"})
    movement.movement_phase(r)
    assert refusals(r) == ["a besieged army needs leave to go out (FE 7.9), "
                           "or a Cavalcade (FAQ P5 F19)"]
    r = realm(s)
    give_orders(r, {"george": "MOVE Henri WITH 1 KNIGHT, 1 MAN-AT-ARMS: London - Oxford"
                              " IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert s.nobles["henri"].city == "London"
    assert s.cities["London"].units_of("Red") == {"knight": 1, "men_at_arms": 1}
    assert not [e for e in r.events if e.id.startswith("battle")]


def test_fe_13_4_the_kings_interdiction_frees_a_bandits_captive() -> None:
    """FE 13.4 King's Interdiction: Dave's King William spends a Carrier Pigeon and
    Kirsten's Hugh, held in Sherwood, goes free before the ransoms: her 10 Shillings stay
    in her purse.  George, no royal, cannot; a captive of a noble is no Bandits' captive."""
    s = board()
    noble(s, "William", "Blue", "London", titles=["south-east"])
    s.sovereign = "william"
    hugh = noble(s, "Hugh", "Green", "York", titles=["north"])
    noble(s, "Lucia", "Green", "York")
    troops(s, "Lincoln", "Green", men_at_arms=1)
    s.cities["Lincoln"].building = "stronghold"
    henri = noble(s, "Henri", "Red", "Oxford")
    s.players["kirsten"].cash = 10
    r = realm(s)
    r.capture(hugh, "bandits", "York")
    r.capture(henri, "lucia", "York")
    give_orders(r, {"dave": "INTERDICT Hugh\nINTERDICT Henri", "george": "INTERDICT Hugh"})
    economy.ransoms(r)
    assert hugh.free and hugh.city == "Lincoln"
    assert s.players["kirsten"].cash == 10 and s.players["dave"].pigeons == 2
    assert sorted(refusals(r)) == ["not a captive of the Bandits (FE 13.4)",
                                   "only a free King or Queen interdicts (FE 13.4)"]
    assert henri.status == "captive"
