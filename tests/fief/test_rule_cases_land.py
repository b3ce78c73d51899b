"""Rule cases of the land share: disasters on the move, titles changing hands with their
troops, movement's restrictions, and the income of Abbeys (FE 2.5, 4.8, 4.9, 5.0-5.4,
10.2, 11.2, 12.0, 13.2).  Dice are scripted (tests/fief/board.py)."""

from __future__ import annotations

from moderator.games.fief import battle, cards, income, invaders, movement, phases
from moderator.games.fief.state import GameState, InvaderArmy
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES
from tests.fief.test_rule_cases_4 import _henri_besieged_in_london


def _disaster(s: GameState, city: str, card: str) -> None:
    s.seas.setdefault(str(TABLES.region_of(city).number), []).append(card)


# -- FE 2.5: Plague on the move, Famine's rebellions --------------------------------------

def test_fe_2_5_an_army_entering_the_plague_is_halved_and_its_noble_rolls() -> None:
    """FE 2.5 (fief-email.md A26): William rides from Oxford into the plague-struck
    Midlands with 3 Men-at-Arms and 2 Knights: the five lose two, the Men-at-Arms first
    (his LOSSES default), and he rolls the d6: a 5, he lives."""
    s = board()
    noble(s, "William", "Red", "Oxford")
    troops(s, "Oxford", "Red", men_at_arms=3, knight=2)
    _disaster(s, "Coventry", "Plague")
    stock = s.families["Red"].stock["men_at_arms"]
    r = realm(s, {"plague": [5]})
    give_orders(r, {"george": "MOVE William WITH 3 MAN-AT-ARMS, 2 KNIGHT: Oxford - Coventry"})
    movement.movement_phase(r)
    assert s.cities["Coventry"].units_of("Red") == {"men_at_arms": 1, "knight": 2}
    assert s.families["Red"].stock["men_at_arms"] == stock + 2
    assert s.nobles["william"].alive and s.nobles["william"].city == "Coventry"


def test_fe_2_5_a_noble_rolling_three_on_entering_the_plague_dies() -> None:
    """FE 2.5: the entry roll is the card's: 1-3 and the noble dies (his lone Man-at-Arms,
    half of one rounded down, is spared)."""
    s = board()
    noble(s, "William", "Red", "Oxford")
    troops(s, "Oxford", "Red", men_at_arms=1)
    _disaster(s, "Coventry", "Plague")
    r = realm(s, {"plague": [3]})
    give_orders(r, {"george": "MOVE William WITH 1 MAN-AT-ARMS: Oxford - Coventry"})
    movement.movement_phase(r)
    assert s.nobles["william"].status == "dead"
    assert s.cities["Coventry"].units_of("Red") == {"men_at_arms": 1}


def test_fe_2_5_leaving_and_reentering_the_plague_region_rolls_no_more() -> None:
    """FE 2.5: a group that leaves the Plague region and comes back in the same move does
    not roll again; nor does one coming from an adjacent Plague region."""
    s = board()
    noble(s, "William", "Red", "Coventry")
    troops(s, "Coventry", "Red", men_at_arms=4)
    noble(s, "Lucia", "Green", "London")
    troops(s, "London", "Green", men_at_arms=4)
    _disaster(s, "Coventry", "Plague")
    _disaster(s, "London", "Plague")
    s.seas["6"].remove("Plague")
    r = realm(s)                             # no plague die is scripted: none may be rolled
    give_orders(r, {"george": "MOVE William WITH 4 MAN-AT-ARMS: Coventry - Oxford - Coventry"})
    movement.movement_phase(r)
    assert s.cities["Coventry"].units_of("Red") == {"men_at_arms": 4}
    s.seas["6"] = ["Plague"]
    give_orders(r, {"kirsten": "MOVE Lucia WITH 4 MAN-AT-ARMS: London - Norwich"})
    movement.movement_phase(r)
    assert s.cities["Norwich"].units_of("Green") == {"men_at_arms": 4}


def test_fe_2_5_invaders_marching_into_the_plague_roll_too() -> None:
    """FE 2.5, 6.3: an invader army marching from Oxford into the plague-struck Midlands
    loses half its Foot (5 to 3) and its Leader rolls: a 2, he dies and his Foot march no
    further."""
    s = board()
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "Oxford")
    _disaster(s, "Coventry", "Plague")
    r = realm(s, {"compass": [2], "plague": [2]})
    invaders.march(r, "Black Raven")
    army = s.invaders["Black Raven"]
    assert (army.city, army.foot, army.leader) == ("Coventry", 3, False)


def test_fe_2_5_famine_opens_its_cities_to_rebellion() -> None:
    """FE 2.5, 10.1: FAMINE can cause a Rebellion: George's Rebellion on famished Coventry
    runs (an f and the bonus: 2 hits); on Oxford, neither taxed nor in Famine, it is
    refused."""
    s = board()
    noble(s, "Lucia", "Green", "Coventry")
    troops(s, "Coventry", "Green", men_at_arms=3)
    troops(s, "Oxford", "Green", men_at_arms=3)
    _disaster(s, "Coventry", "Famine")
    s.players["george"].hand = ["Rebellion"]
    s.players["dave"].hand = ["Rebellion"]
    r = realm(s, {"rebellion": bd(1)})
    give_orders(r, {"george": "REBELLION AT Coventry", "dave": "REBELLION AT Oxford"})
    phases.store_standing(r)
    cards.play_phase(r)
    assert s.cities["Coventry"].units_of("Green") == {"men_at_arms": 1}
    assert s.cities["Oxford"].units_of("Green") == {"men_at_arms": 3}
    assert any("Famine" in why for why in refusals(r))


# -- FE 4.8: the spouse's Fortified City ---------------------------------------------------

def _widowed_marches(green_men_at_arms: int | None = None) -> GameState:
    s = board()
    noble(s, "William", "Red", "Berwick", titles=["marches"], spouse="lucia")
    noble(s, "Lucia", "Green", "London", spouse="william")
    troops(s, "Durham", "Red", men_at_arms=3, knight=1, bombard=1)
    s.cities["Durham"].building = "fortified"
    if green_men_at_arms is not None:
        s.families["Green"].stock["men_at_arms"] = green_men_at_arms
    return s


def test_fe_4_8_the_spouse_takes_the_title_and_her_troops_replace_his() -> None:
    """FE 4.8: William, Baron of the Marches and the last of the Reds, dies married to
    Lucia: the title goes to her, and his 3 Men-at-Arms and Knight in Durham, the
    Fortified City, are exchanged for Green's own, and his Bombard too (PROPOSED, as in
    Ex 10-5): Green holds Durham and its title."""
    s = _widowed_marches()
    red, green = dict(s.families["Red"].stock), dict(s.families["Green"].stock)
    r = realm(s)
    r.kill(s.nobles["william"], "battle")
    durham = s.cities["Durham"]
    assert s.nobles["lucia"].titles == ["marches"]
    assert durham.units_of("Green") == {"men_at_arms": 3, "knight": 1, "bombard": 1}
    assert durham.units_of("Red") == {}
    assert durham.holder == "Green"
    assert s.families["Red"].stock["men_at_arms"] == red["men_at_arms"] + 3
    assert s.families["Green"].stock["knight"] == green["knight"] - 1


def test_fe_4_8_the_exchange_goes_as_far_as_the_spouses_stockpile() -> None:
    """FE 4.8 "up to the number available": Green has only 2 Men-at-Arms left in its
    stockpile: two are exchanged, the third stays Red."""
    s = _widowed_marches(green_men_at_arms=2)
    r = realm(s)
    r.kill(s.nobles["william"], "battle")
    durham = s.cities["Durham"]
    assert durham.units_of("Green") == {"men_at_arms": 2, "knight": 1, "bombard": 1}
    assert durham.units_of("Red") == {"men_at_arms": 1}
    assert s.families["Green"].stock["men_at_arms"] == 0


# -- FE 4.9: the Royal Stronghold changes sides with the crown -----------------------------

def _royal_lincoln(**units: int) -> GameState:
    s = board()
    noble(s, "Henri", "Blue", "Exeter", titles=["wales"])
    s.sovereign = "henri"
    troops(s, "Lincoln", "Blue", **units)
    s.cities["Lincoln"].building = "royal"
    noble(s, "William", "Red", "London", titles=["south-east"])
    return s


def test_fe_4_9_a_new_sovereigns_troops_replace_those_in_the_royal_stronghold() -> None:
    """FE 4.9: King Henri (Blue) keeps 2 Men-at-Arms and a Knight in the Royal Stronghold
    of Lincoln; William of Red is crowned: they change sides, replaced by Red's own, and
    Red's Royal Family holds the Royal Stronghold."""
    s = _royal_lincoln(men_at_arms=2, knight=1)
    blue = s.families["Blue"].stock["men_at_arms"]
    r = realm(s)
    r.crown("william")
    lincoln = s.cities["Lincoln"]
    assert lincoln.units_of("Red") == {"men_at_arms": 2, "knight": 1}
    assert lincoln.units_of("Blue") == {}
    assert (lincoln.holder, lincoln.building) == ("Red", "royal")
    assert s.families["Blue"].stock["men_at_arms"] == blue + 2


def test_fe_4_9_an_empty_royal_stronghold_passes_to_the_new_sovereign() -> None:
    """FE 4.9: with nothing in it the Royal Stronghold passes to the new Sovereign's family
    (its troops "as available"); the same King crowned again changes nothing."""
    s = _royal_lincoln()
    s.cities["Lincoln"].holder = "Blue"
    r = realm(s)
    r.crown("henri")
    assert s.cities["Lincoln"].holder == "Blue"
    r.crown("william")
    assert (s.cities["Lincoln"].holder, s.cities["Lincoln"].building) == ("Red", "royal")


# -- FE 5.0: the road the opponent came in by, leave to enter a building --------------------

def _william_awaits_lucia(william_at: str, lucia_at: str, knights: int) -> GameState:
    """Dave's William and 2 Men-at-Arms hold a city; Kirsten (before Dave in player order)
    has Lucia and her Knights elsewhere."""
    s = board()
    noble(s, "William", "Blue", william_at)
    troops(s, william_at, "Blue", men_at_arms=2)
    noble(s, "Lucia", "Green", lucia_at)
    troops(s, lucia_at, "Green", knight=knights)
    return s


def _lucia_rides_into_oxford() -> GameState:
    return _william_awaits_lucia("Oxford", "London", knights=2)


def test_fe_5_0_no_leaving_by_the_road_the_opponent_came_in_by() -> None:
    """FE 5.0: Lucia entered Dave's Oxford from London this round; William, moving after
    her, may not leave along the London road without her leave, but may take any other."""
    s = _lucia_rides_into_oxford()
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: London - Oxford",
                    "dave": "MOVE William WITH 2 MAN-AT-ARMS: Oxford - London"})
    movement.movement_phase(r)
    assert s.nobles["william"].city == "Oxford"
    assert any("came into Oxford" in str(e.args.get("reason")) for e in r.events
               if e.id == "move.stopped")
    s = _lucia_rides_into_oxford()
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: London - Oxford",
                    "dave": "MOVE William WITH 2 MAN-AT-ARMS: Oxford - Winchester"})
    movement.movement_phase(r)
    assert s.nobles["william"].city == "Winchester"


def test_fe_5_0_the_newcomers_leave_opens_their_road() -> None:
    """FE 5.0 "unless that Opponent gives the Player permission to move through their
    Troops": Kirsten's standing ALLOW Dave TO PASS lets William out by the London road."""
    s = _lucia_rides_into_oxford()
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: London - Oxford\n"
                               "ALLOW Dave TO PASS AT Oxford",
                    "dave": "MOVE William WITH 2 MAN-AT-ARMS: Oxford - London"})
    phases.store_standing(r)
    movement.movement_phase(r)
    assert s.nobles["william"].city == "London"


def _kirsten_at_daves_stronghold(allow: str = "") -> GameState:
    s = board()
    noble(s, "William", "Blue", "Norwich")
    troops(s, "Norwich", "Blue", men_at_arms=1)
    s.cities["Norwich"].building = "stronghold"
    noble(s, "Lucia", "Green", "London")
    troops(s, "London", "Green", men_at_arms=5)
    r = realm(s)
    give_orders(r, {"dave": allow} if allow else {})
    phases.store_standing(r)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 5 MAN-AT-ARMS: London - Norwich"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "Norwich"
    outside = [e for e in r.events if e.id == "move.stopped"
               and "not let into the Stronghold of Norwich" in str(e.args["reason"])]
    assert len(outside) == (0 if allow else 1)
    return s


def test_fe_5_0_a_stronghold_is_entered_only_with_its_holders_leave() -> None:
    """FE 5.0: Lucia rides into Norwich, where Dave's William holds the Stronghold; not let
    in, her army stays on the outskirts (told on her sheet) and must overcome the walls:
    5 SP roll 1 - 1 = 0 dice and the attack stalls (FE 7.4)."""
    s = _kirsten_at_daves_stronghold()
    r = realm(s)
    assert not r.inside("Norwich", "Green") and r.inside("Norwich", "Blue")
    give_orders(r, {"kirsten": "ATTACK Norwich"})
    battle.battles_phase(r)
    assert [e.args["outcome"] for e in r.events if e.id == "battle.ends"] == ["stalled"]


def test_fe_5_0_let_in_she_attacks_without_overcoming_the_defences() -> None:
    """FE 5.0 "could then attack the owner's Troops without having to overcome defenses":
    Dave's standing ALLOW Kirsten TO ENTER AT Norwich lets Lucia inside; her 5 SP roll one
    Battle Die with no penalty (an f: William's Man-at-Arms falls)."""
    s = _kirsten_at_daves_stronghold("ALLOW Kirsten TO ENTER AT Norwich")
    r = realm(s, {"battle": bd(1, 0)})
    assert r.inside("Norwich", "Green")
    give_orders(r, {"kirsten": "ATTACK Norwich"})
    battle.battles_phase(r)
    assert s.cities["Norwich"].units_of("Blue") == {}


def test_fe_5_0_only_those_inside_an_abbey_are_its_visitors() -> None:
    """FE 5.0, 3.1: a Lord of another family on the outskirts of Lucia's Abbey pays it
    nothing; let in (ALLOW Dave TO ENTER), he pays his 2."""
    s = board()
    noble(s, "Lucia", "Green", "Oxford", abbess=["Autumn"])
    noble(s, "William", "Blue", "Oxford", titles=["wales"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    r = realm(s)
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2
    give_orders(r, {"kirsten": "ALLOW Dave TO ENTER"})
    phases.store_standing(r)
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2 + 2


def test_the_land_shares_orders_read_back_in_normal_form() -> None:
    """The new lines parse and format back to themselves (docs/fief-orders.md)."""
    from moderator.games.fief.orders import parse_orders
    s = board()
    noble(s, "Lucia", "Green", "Winchester")
    lines = ["ALLOW Dave TO ENTER AT Norwich", "ALLOW ANYONE TO ENTER",
             "MOVE Lucia: Winchester - Canterbury - London IF DENIED BURGHER",
             "CAVALCADE Lucia WITH 2 KNIGHTS: Winchester - Canterbury - London",
             "LEAVE RELIC Holy Grail BY Lucia", "TAKE RELIC Skull of Saint Caradoc BY Lucia"]
    parsed = parse_orders("\n".join(lines), s.to_dict(), "kirsten", TABLES)
    assert not parsed.errors
    assert list(parsed.normal_form) == lines
    bad = parse_orders("CAVALCADE Lucia WITH 2 MAN-AT-ARMS: Winchester - Canterbury",
                       s.to_dict(), "kirsten", TABLES)
    assert bad.errors and "Knights only" in bad.errors[0].message


# -- FE 5.2: the surprise attack -----------------------------------------------------------

def _lucia_before_canterbury() -> GameState:
    s = board()
    noble(s, "Lucia", "Green", "Winchester", titles=["wales"])
    troops(s, "Winchester", "Green", knight=2)
    troops(s, "Canterbury", "Red", men_at_arms=1)
    return s


def test_fe_5_2_a_surprise_cavalcade_fights_even_where_it_may_pass() -> None:
    """FE 5.2 (a Cavalcade to "implement a surprise attack on a City"): George lets Kirsten
    pass Canterbury, but Lucia's CAVALCADE falls on his Man-at-Arms all the same: two dice
    f f against his blank +1; she leaves a Knight holding it and must ride on to London."""
    s = _lucia_before_canterbury()
    r = realm(s, bd(1, 1) + bd(0))
    give_orders(r, {"george": "ALLOW Kirsten TO PASS"})
    phases.store_standing(r)
    give_orders(r, {"kirsten": "CAVALCADE Lucia WITH 2 KNIGHT: Winchester - Canterbury "
                               "LEAVE 1 KNIGHT - London"})
    movement.movement_phase(r)
    assert [e.args["winner"] for e in r.events if e.id == "cavalcade"] == ["Green"]
    assert s.cities["Canterbury"].holder == "Green"
    assert s.cities["Canterbury"].units_of("Red") == {}
    assert s.nobles["lucia"].city == "London"


def test_fe_5_2_no_surprise_attack_on_the_last_city() -> None:
    """FAQ P5 F18: a Cavalcade needs a move after its fight: ending at Canterbury, Lucia
    only arrives on its outskirts; the battle, if any, waits for Phase 7."""
    s = _lucia_before_canterbury()
    r = realm(s)
    give_orders(r, {"kirsten": "CAVALCADE Lucia WITH 2 KNIGHT: Winchester - Canterbury"})
    movement.movement_phase(r)
    assert not [e for e in r.events if e.id == "cavalcade"]
    assert s.cities["Canterbury"].units_of("Red") == {"men_at_arms": 1}
    assert s.nobles["lucia"].city == "Canterbury"


def test_fe_5_3_note_a_cavalcade_from_its_own_city_through_the_newcomers() -> None:
    """FE 5.3 note, 5.0: George's William came into Kirsten's Winchester from Canterbury
    with 2 Men-at-Arms; Lucia may not leave by that road, so her Knights cavalcade from
    the city they start in: f f kill both Men-at-Arms (his blank +1 is wasted on a
    Knight), William is taken, and she rides on to London."""
    s = board()
    noble(s, "Lucia", "Green", "Winchester", titles=["wales"])
    troops(s, "Winchester", "Green", knight=2)
    noble(s, "William", "Red", "Canterbury")
    troops(s, "Canterbury", "Red", men_at_arms=2)
    r = realm(s, bd(1, 1) + bd(0))
    give_orders(r, {"george": "MOVE William WITH 2 MAN-AT-ARMS: Canterbury - Winchester",
                    "kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London "
                               "IF DENIED CAVALCADE"})
    movement.movement_phase(r)
    assert [e.args["winner"] for e in r.events if e.id == "cavalcade"] == ["Green"]
    assert s.nobles["william"].status == "captive"
    assert s.nobles["lucia"].city == "London"
    assert s.cities["London"].units_of("Green") == {"knight": 2}


# -- FE 5.4: port blocking -----------------------------------------------------------------

def _lucia_sails_into_london() -> GameState:
    return _william_awaits_lucia("London", "Whitby", knights=1)


def test_fe_5_4_an_army_arriving_at_a_port_keeps_the_others_in() -> None:
    """FE 5.4 (fief-email.md A66): Lucia's army lands at London (Ex 5-4's voyage); Dave's
    William, moving after her, may leave the port neither by sea nor by road without her
    leave."""
    for path in ("London = Sea V = King's Lynn", "London - Oxford"):
        s = _lucia_sails_into_london()
        r = realm(s)
        give_orders(r, {"kirsten": "MOVE Lucia WITH 1 KNIGHT: Whitby = Sea V = Sea VI = London",
                        "dave": f"MOVE William WITH 2 MAN-AT-ARMS: {path}"})
        movement.movement_phase(r)
        assert s.nobles["lucia"].city == "London"
        assert s.nobles["william"].city == "London", path
        assert any("out of the port" in str(e.args.get("reason")) for e in r.events
                   if e.id == "move.stopped")


def test_fe_5_4_with_the_arrivals_leave_the_port_opens() -> None:
    """FE 5.4 "without the arriving Player's permission": Kirsten's standing ALLOW Dave TO
    PASS AT London lets William sail out."""
    s = _lucia_sails_into_london()
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 1 KNIGHT: Whitby = Sea V = Sea VI = London\n"
                               "ALLOW Dave TO PASS AT London",
                    "dave": "MOVE William WITH 2 MAN-AT-ARMS: London = Sea V = King's Lynn"})
    phases.store_standing(r)
    movement.movement_phase(r)
    assert s.nobles["william"].city == "King's Lynn"


# -- FE 13.2, 12.0: what Excalibur and the Relics bring an Abbey ---------------------------

def _autumn_abbey_at_oxford() -> GameState:
    s = board()
    noble(s, "Lucia", "Green", "Oxford", abbess=["Autumn"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    return s


def test_fe_13_2_excalibur_in_an_abbey_brings_three_shillings() -> None:
    """FE 13.2 "Excalibur in an Abbey provides 3 Shillings income" (3.1): in its stone in
    the Abbey's city, 2 + 2 for the Abbess + 3 = 7 for her family."""
    s = _autumn_abbey_at_oxford()
    s.excalibur_city = "Oxford"
    assert income.forecast(realm(s), "kirsten")["abbeys"] == 2 + 2 + 3


def test_fe_13_2_a_holder_inside_the_abbey_brings_the_sword_with_him() -> None:
    """FE 13.2, 3.1: Dave's Henri, who drew Excalibur, in Lucia's Abbey: let in, the sword
    pays 3; on the outskirts it pays nothing (FE 5.0)."""
    s = _autumn_abbey_at_oxford()
    noble(s, "Henri", "Blue", "Oxford")
    s.excalibur_holder = "henri"
    r = realm(s)
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2
    give_orders(r, {"kirsten": "ALLOW Dave TO ENTER AT Oxford"})
    phases.store_standing(r)
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2 + 3


def test_fe_12_0_a_relic_left_in_an_abbey_brings_three_shillings() -> None:
    """FE 12.0, 3.1: Lucia lays the Holy Grail in her Abbey (LEAVE RELIC): 3 more a round,
    and 3 again for the Chasuble she still carries there ("even if a Noble possessing a
    Relic is in the Abbey"); the Grail stays when her kinsman rides in, and is taken up
    only by TAKE RELIC."""
    s = _autumn_abbey_at_oxford()
    s.nobles["lucia"].relics = ["Holy Grail", "Chasuble of Thomas Becket"]
    noble(s, "Edward", "Green", "London")
    r = realm(s)
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2 + 3 + 3
    give_orders(r, {"kirsten": "LEAVE RELIC Holy Grail BY Lucia"})
    movement.movement_phase(r)
    assert s.cities["Oxford"].relic == "Holy Grail" and s.cities["Oxford"].relic_up
    give_orders(r, {"kirsten": "MOVE Edward: London - Oxford"})
    movement.movement_phase(r)
    assert s.nobles["edward"].city == "Oxford" and s.nobles["edward"].relics == []
    assert income.forecast(r, "kirsten")["abbeys"] == 2 + 2 + 3 + 3
    give_orders(r, {"kirsten": "TAKE RELIC Holy Grail BY Edward"})
    movement.movement_phase(r)
    assert s.nobles["edward"].relics == ["Holy Grail"] and s.cities["Oxford"].relic is None


def test_fe_12_0_a_relic_in_a_stronghold_is_found_only_with_leave_to_enter() -> None:
    """FE 12.0 "If the Relic is in a Stronghold or Fortified City, a Church Noble needs the
    controlling Player's permission to enter": Hugh, Archbishop of York, rides into York
    where Dave's Stronghold is held: not let in, he finds nothing; let in, he reveals the
    Holy Grail and takes it."""
    for allow, found in (("", []), ("ALLOW Kirsten TO ENTER AT York", ["Holy Grail"])):
        s = board()
        noble(s, "Henri", "Blue", "York")
        troops(s, "York", "Blue", men_at_arms=1)
        s.cities["York"].building, s.cities["York"].relic = "stronghold", "Holy Grail"
        noble(s, "Hugh", "Green", "Durham", clergy="york")
        r = realm(s)
        give_orders(r, {"dave": allow} if allow else {})
        phases.store_standing(r)
        give_orders(r, {"kirsten": "MOVE Hugh: Durham - York"})
        movement.movement_phase(r)
        assert s.nobles["hugh"].city == "York"
        assert s.nobles["hugh"].relics == found


# -- FE 10.2 in movement: Storms and the enemy's road --------------------------------------

def test_fe_10_2_a_passage_takes_one_move_through_the_storms() -> None:
    """FE 10.2 "Move in STORMS": Storms on the South East; William's army at Coventry rides
    into Oxford by a Passage (IF DENIED PASSAGE), the card discarded; its second move,
    within the Storms, needs another card and stops."""
    s = board()
    noble(s, "William", "Red", "Coventry")
    troops(s, "Coventry", "Red", men_at_arms=2)
    _disaster(s, "Oxford", "Storms")
    s.players["george"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"george": "MOVE William WITH 2 MAN-AT-ARMS: Coventry - Oxford - London "
                              "IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["william"].city == "Oxford"
    assert s.cities["Oxford"].units_of("Red") == {"men_at_arms": 2}
    assert s.players["george"].hand == [] and "Passage" in s.fortune_discard


def test_fe_10_2_a_passage_sails_out_of_the_storms() -> None:
    """FE 10.2 "If any of these moves are from a Port City, a Naval Move may be made", 5.5:
    Storms on Sea VI; Lucia sails from London to King's Lynn by a Passage."""
    s = board()
    noble(s, "Lucia", "Green", "London")
    _disaster(s, "London", "Storms")
    s.players["kirsten"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia: London = Sea V = King's Lynn IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].city == "King's Lynn"


def test_fe_10_2_a_passage_leaves_by_the_road_the_opponent_came_in_by() -> None:
    """FE 10.2 "if an Opponent just moved into the City a Player occupies, the Player's
    Nobles and Troops can move out of the City along the same Road the Opponent entered
    from": Lucia came into Oxford from London; William leaves for London by a Passage."""
    s = _lucia_rides_into_oxford()
    s.players["dave"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: London - Oxford",
                    "dave": "MOVE William WITH 2 MAN-AT-ARMS: Oxford - London IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["william"].city == "London"
    assert s.players["dave"].hand == []


# -- FE 11.2: the Burgher's Secret Routes --------------------------------------------------

def _lucia_denied_at_canterbury(treasures: int) -> GameState:
    s = _lucia_before_canterbury()
    s.players["kirsten"].slot = "Burgher (3 votes)"
    s.players["kirsten"].treasures = treasures
    r = realm(s)
    give_orders(r, {"kirsten": "MOVE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London "
                               "IF DENIED BURGHER"})
    movement.movement_phase(r)
    return s


def test_fe_11_2_the_burghers_secret_routes_pass_a_held_city_for_a_treasure() -> None:
    """FE 11.2 "Take Secret Routes, just like a PASSAGE Card", 11.3: denied at George's
    Canterbury, Lucia (a titled Lord) slips through to London for one Treasure; the Burgher
    stays on her board."""
    s = _lucia_denied_at_canterbury(treasures=2)
    assert s.nobles["lucia"].city == "London"
    assert s.players["kirsten"].treasures == 1
    assert s.players["kirsten"].slot == "Burgher (3 votes)"


def test_fe_11_3_no_secret_route_without_a_treasure() -> None:
    """FE 11.3: with no Treasure left the Burgher cannot act: Lucia waits on Canterbury's
    outskirts."""
    s = _lucia_denied_at_canterbury(treasures=0)
    assert s.nobles["lucia"].city == "Canterbury"
    assert s.cities["Canterbury"].holder == "Red"


def test_fe_2_5_landing_in_a_plague_region_rolls_too() -> None:
    """FE 2.5, 5.4: Lucia sails from Whitby to King's Lynn in the plague-struck Midlands
    (Ex 5-3's voyage): she rolls on landing (a 1: she dies; PROPOSED, the seas on the way
    do not count)."""
    s = board()
    noble(s, "Lucia", "Green", "Whitby")
    _disaster(s, "King's Lynn", "Plague")
    r = realm(s, {"plague": [1]})
    give_orders(r, {"kirsten": "MOVE Lucia: Whitby = Sea V = King's Lynn"})
    movement.movement_phase(r)
    assert s.nobles["lucia"].status == "dead"


def test_fe_10_2_a_passage_escapes_the_siege_and_rides_on() -> None:
    """FE 10.2 "Escape from a Besieged Stronghold or Fortified City ... a first Move that
    normally would not be allowed. They then can take a second Move": Henri and his 2
    Men-at-Arms slip out of besieged London by a Passage, to Oxford and on to Coventry."""
    s = _henri_besieged_in_london(men_at_arms=2)
    s.players["george"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"george": "MOVE Henri WITH 2 MAN-AT-ARMS: London - Oxford - Coventry "
                              "IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["henri"].city == "Coventry"
    assert s.cities["Coventry"].units_of("Red") == {"men_at_arms": 2}
    assert s.players["george"].hand == []


def test_fe_10_2_without_the_card_the_besieged_stay() -> None:
    """FE 7.9, 10.2: `IF DENIED PASSAGE` with no Passage in hand: nobody leaves the siege."""
    s = _henri_besieged_in_london(men_at_arms=2)
    r = realm(s)
    give_orders(r, {"george": "MOVE Henri WITH 2 MAN-AT-ARMS: London - Oxford IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["henri"].city == "London"
    assert s.cities["London"].units_of("Red") == {"men_at_arms": 2}
