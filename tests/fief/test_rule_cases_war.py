"""Rule cases of the war share (FE 7.0-7.10, 10.2, 11.1, 13.3): coalitions, truces,
withdrawals, targeted archers, engines, sallies, lower ransoms.  Each scripts its dice
(`bd`: battle-die results) and cites its example or section.  Kirsten plays Green, Dave
Blue, George Red, Lucy Yellow."""

from __future__ import annotations

from moderator.games.fief import (
    battle,
    cards,
    economy,
    invaders,
    movement,
    phases,
    projectiles,
    siege,
    victory,
)
from moderator.games.fief.battle import Side, fight
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, InvaderArmy
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops


def _ids(r: object, event: str) -> list[dict[str, object]]:
    return [e.args for e in r.events if e.id == event]  # type: ignore[attr-defined]


def _actors(r: object, event: str) -> set[str | None]:
    return {e.actor for e in r.events if e.id == event}  # type: ignore[attr-defined]


# -- FE 7.0: coalitions ----------------------------------------------------------------------

def _coventry() -> GameState:
    """Ex 7-1: Dave and George are allied by marriage and occupy Coventry together;
    Kirsten's army arrives."""
    s = board()
    philippa = noble(s, "Philippa", "Blue", "Coventry")
    troops(s, "Coventry", "Blue", men_at_arms=1)
    william = noble(s, "William", "Red", "Coventry")
    troops(s, "Coventry", "Red", men_at_arms=3, knight=1)
    philippa.spouse, william.spouse = "william", "philippa"
    s.families["Blue"].ring, s.families["Red"].ring = "philippa", "william"
    noble(s, "Edward", "Green", "Coventry")
    troops(s, "Coventry", "Green", knight=2)
    return s


def test_ex_7_1_george_joins_kirsten_and_his_spouse_falls() -> None:
    """Ex 7-1 (FE 7.0 Ally Attacks): George's JOIN and Kirsten's match; they combine
    their SP (7 + 7 = 14: three dice) and defeat Dave's army, slaying George's spouse;
    George is no longer allied to Dave."""
    s = _coventry()
    r = realm(s, bd(3, 2, 1) + bd(0))
    assert r.allied("Red", "Blue")
    give_orders(r, {"kirsten": "ATTACK Coventry AGAINST Dave\nJOIN George AT Coventry",
                    "george": "JOIN Kirsten AGAINST Dave AT Coventry"})
    battle.battles_phase(r)
    begins = _ids(r, "battle.begins")[0]
    assert begins["allies"] == {"attacker": ["Red"], "defender": []}
    assert len(_ids(r, "battle.round")[0]["attacker_faces"]) == 3   # type: ignore[arg-type]
    assert not s.nobles["philippa"].alive
    assert s.nobles["william"].spouse is None and not r.allied("Red", "Blue")
    assert _ids(r, "battle.ends")[0]["winner"] == "Green"


def test_fe_7_0_a_join_not_matched_is_noted_to_both_and_he_stays_out() -> None:
    """FE 7.0 by email (fief-email.md §4): George writes JOIN, Kirsten does not: Kirsten
    fights alone (7 SP: two dice) and both are told on their sheets."""
    s = _coventry()
    r = realm(s, bd(3, 3) + bd(0))
    give_orders(r, {"kirsten": "ATTACK Coventry AGAINST Dave",
                    "george": "JOIN Kirsten AT Coventry"})
    battle.battles_phase(r)
    assert "allies" not in _ids(r, "battle.begins")[0]
    assert len(_ids(r, "battle.round")[0]["attacker_faces"]) == 2   # type: ignore[arg-type]
    assert _actors(r, "coalition.mismatch") == {"george", "kirsten"}
    assert s.cities["Coventry"].units_of("Red") == {"men_at_arms": 3, "knight": 1}


def test_fe_7_0_the_coalition_leader_takes_the_hits_on_his_partner_first() -> None:
    """FE 7.0: the member with the most SP decides which troops take hits: Edward's side
    (Green, 10 SP) leads and Dave's one hit falls on George's Man-at-Arms (PROPOSED: the
    leader's own last)."""
    s = _coventry()
    troops(s, "Coventry", "Green", knight=1)
    r = realm(s, bd(1, 0, 0) + bd(1))
    give_orders(r, {"kirsten": "ATTACK Coventry\nJOIN George AT Coventry",
                    "george": "JOIN Kirsten AT Coventry"})
    battle.battles_phase(r)
    assert s.cities["Coventry"].units_of("Green")["knight"] == 3
    assert s.cities["Coventry"].units_of("Red")["men_at_arms"] == 2


def test_ex_13_3_kirsten_combines_her_green_and_blue_armies() -> None:
    """Ex 13-3 (FE 13.7, 7.0): in the two-player game Kirsten attacks with Green and
    Blue together: 4 + 4 SP, two dice instead of one each; Henri is captured by the
    leading family's noble and George's one hit falls on Blue."""
    s = board(pairs={"kirsten": ["Green", "Blue"], "george": ["Red", "Yellow"]})
    noble(s, "Henri", "Red", "York")
    troops(s, "York", "Red", men_at_arms=2)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=1)
    noble(s, "William", "Blue", "York")
    troops(s, "York", "Blue", men_at_arms=3)
    r = realm(s, bd(1, 1) + bd(1))
    give_orders(r, {"kirsten": "ATTACK York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.begins")[0]["allies"] == {"attacker": ["Blue"], "defender": []}
    assert len(_ids(r, "battle.round")[0]["attacker_faces"]) == 2   # type: ignore[arg-type]
    assert s.nobles["henri"].captor == "edward"
    assert s.cities["York"].units_of("Blue")["men_at_arms"] == 2
    assert s.cities["York"].units_of("Green")["knight"] == 1


def test_fe_7_0_an_ally_switches_sides_mid_battle() -> None:
    """FE 7.0: "allies may betray each other anytime during the Battle, even switching
    sides mid-Battle": George joins Dave's defence, then BETRAYs after the first roll and
    fights the second for Kirsten (three dice against Dave's two)."""
    s = _coventry()
    troops(s, "Coventry", "Blue", men_at_arms=7)
    r = realm(s, bd(0, 0) + bd(0, 0, 0) + bd(3, 3, 3) + bd(0, 0))
    give_orders(r, {"kirsten": "ATTACK Coventry AGAINST Dave",
                    "dave": "JOIN George AT Coventry",
                    "george": "JOIN Dave AT Coventry\nBETRAY AT Coventry AFTER ROUND 1"})
    battle.battles_phase(r)
    assert _ids(r, "battle.begins")[0]["allies"] == {"attacker": [], "defender": ["Red"]}
    assert _ids(r, "betrayal")[0]["joined"] == "Green"
    second = _ids(r, "battle.round")[1]
    assert len(second["attacker_faces"]) == 3 and len(second["defender_faces"]) == 2  # type: ignore[arg-type]
    assert not s.nobles["philippa"].alive
    assert _ids(r, "battle.ends")[0]["winner"] == "Green"


def test_fe_7_0_an_attacking_ally_who_betrays_crosses_once() -> None:
    """FE 7.0 "even switching sides mid-Battle", from the attacking side: George joins
    Kirsten's attack, then BETRAYs after the first roll: he crosses to Dave's side once
    (and is not read again there and sent back)."""
    s = _coventry()
    troops(s, "Coventry", "Blue", men_at_arms=7)
    r = realm(s, bd(0, 0) + bd(0, 0, 0) + bd(3, 3, 3) + bd(0, 0)
              + bd(0, 0, 0, 0, 0, 0, 0, 0, 0, 0) * 5)
    give_orders(r, {"kirsten": "ATTACK Coventry AGAINST Dave\nJOIN George AT Coventry",
                    "george": "JOIN Kirsten AT Coventry\nBETRAY AT Coventry AFTER ROUND 1"})
    battle.battles_phase(r)
    assert _ids(r, "battle.begins")[0]["allies"]["attacker"] == ["Red"]  # type: ignore[index]
    crossed = _ids(r, "betrayal")
    assert len(crossed) == 1 and crossed[0]["left"] == "Green"
    assert crossed[0]["family"] == "Red"


# -- FE 13.3: the Garter's ban -------------------------------------------------------------

def _garter(s: GameState) -> None:
    henri = noble(s, "Henri", "Blue", "York", titles=["north"])
    troops(s, "York", "Blue", men_at_arms=2)
    s.sovereign = henri.key
    noble(s, "William", "Red", "York", titles=["midlands"], garter=True)
    troops(s, "York", "Red", knight=2)


def test_fe_13_3_a_lord_of_the_garter_may_not_attack_his_sovereign() -> None:
    """FE 13.3: William of the Garter cannot lead an attack on the King's army."""
    s = board()
    _garter(s)
    r = realm(s)
    give_orders(r, {"george": "ATTACK York"})
    battle.battles_phase(r)
    assert "a Lord of the Garter may not attack his Sovereign (FE 13.3)" in refusals(r)
    assert not _ids(r, "battle.begins")


def test_fe_13_3_nor_take_part_in_a_coalition_against_him() -> None:
    """FE 13.3: George's matching JOIN against the King is void while his Garter Lord
    stands there: Kirsten fights alone."""
    s = board()
    _garter(s)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=2)
    r = realm(s, bd(1, 1) + bd(0) + bd(0, 0) + bd(0) + bd(0, 0) + bd(0))
    give_orders(r, {"kirsten": "ATTACK York\nJOIN George AT York",
                    "george": "JOIN Kirsten AT York"})
    battle.battles_phase(r)
    assert "allies" not in _ids(r, "battle.begins")[0]
    assert s.cities["York"].units_of("Red") == {"knight": 2}


# -- FE 7.8: truce and withdrawal -----------------------------------------------------------

def _york() -> GameState:
    s = board()
    noble(s, "William", "Blue", "York")
    troops(s, "York", "Blue", knight=2)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=2)
    return s


def test_fe_7_8_a_truce_both_wrote_ends_the_battle_after_the_roll() -> None:
    """FE 7.8 Truce: at the end of the first roll both sides' TRUCE lines match: all stay
    and Dave, who held York, keeps it."""
    s = _york()
    r = realm(s, bd(1, 1) + bd(1, 1))
    give_orders(r, {"kirsten": "ATTACK York\nTRUCE WITH Dave AT York",
                    "dave": "TRUCE WITH Kirsten AT York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.ends")[0]["outcome"] == "truce"
    assert len(_ids(r, "battle.round")) == 1
    assert s.cities["York"].holder == "Blue"
    assert s.cities["York"].units_of("Green") == {"knight": 2}


def test_fe_7_8_a_truce_may_pass_the_city() -> None:
    """FE 7.8: control of the city may be transferred as part of the Truce: Kirsten TAKEs
    York, Dave CEDEs it."""
    s = _york()
    r = realm(s, bd(1, 1) + bd(1, 1))
    give_orders(r, {"kirsten": "ATTACK York\nTRUCE WITH Dave AT York TAKE",
                    "dave": "TRUCE WITH Kirsten AT York CEDE"})
    battle.battles_phase(r)
    assert s.cities["York"].holder == "Green"
    assert _ids(r, "truce")[0]["terms"] == "take"


def test_fe_7_8_a_one_sided_truce_is_noted_and_the_battle_goes_on() -> None:
    """FE 7.8 by email (fief-email.md §4): only Kirsten wrote TRUCE: three quiet rolls, a
    deadlock, and both are told why no truce was made."""
    s = _york()
    r = realm(s, (bd(1, 1) + bd(1, 1)) * 3)
    give_orders(r, {"kirsten": "ATTACK York\nTRUCE WITH Dave AT York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.ends")[0]["outcome"] == "deadlock"
    assert _actors(r, "truce.mismatch") == {"kirsten", "dave"}


def test_fe_7_8_withdraw_with_passage_takes_the_nobles_out_with_a_troop_each() -> None:
    """FE 7.8, 10.2 Withdraw: after the first roll Dave plays Passage: William and Henri
    ride to Whitby, each with one troop (the Knight first, PROPOSED); the two
    Men-at-Arms left fight on alone and are defeated, with no captive to take."""
    s = board()
    noble(s, "William", "Blue", "York")
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", men_at_arms=4, knight=1)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=3)
    s.players["dave"].hand = ["Passage"]
    r = realm(s, bd(1, 0) + bd(0, 0) + bd(3, 0) + bd(0))
    give_orders(r, {"kirsten": "ATTACK York",
                    "dave": "WITHDRAW FROM York WITH PASSAGE TO Whitby"})
    battle.battles_phase(r)
    assert s.nobles["william"].city == s.nobles["henri"].city == "Whitby"
    assert s.cities["Whitby"].units_of("Blue") == {"knight": 1, "men_at_arms": 1}
    assert s.cities["York"].units_of("Blue") == {}
    assert "Passage" in s.fortune_discard and not s.players["dave"].hand
    assert _ids(r, "battle.ends")[0]["winner"] == "Green"


def test_fe_7_8_the_attacker_of_a_stronghold_ends_the_battle_alone() -> None:
    """FE 7.8 note: attacking Dave in his Stronghold, Kirsten may alone decide to end the
    battle: after the first roll, both stay."""
    s = _york()
    s.cities["York"].building = "stronghold"
    r = realm(s, bd(1) + bd(1, 1))
    give_orders(r, {"kirsten": "ATTACK York\nEND BATTLE AT York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.ends")[0]["outcome"] == "ended"
    assert s.cities["York"].units_of("Green") == {"knight": 2}


def test_fe_7_8_no_ending_alone_in_the_open_against_a_noble() -> None:
    """FE 7.8: in the open, against an army with its noble, END BATTLE does nothing: the
    battle goes on to its deadlock."""
    s = _york()
    r = realm(s, (bd(1, 1) + bd(1, 1)) * 3)
    give_orders(r, {"kirsten": "ATTACK York\nEND BATTLE AT York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.ends")[0]["outcome"] == "deadlock"


def test_fe_7_8_assassination_an_army_without_a_noble_may_be_left() -> None:
    """FE 7.8 Assassination: Dave's troops have no noble: Kirsten alone ends the battle."""
    s = board()
    troops(s, "York", "Blue", knight=2)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=2)
    r = realm(s, bd(1, 1) + bd(1, 1))
    give_orders(r, {"kirsten": "ATTACK York\nEND BATTLE AT York"})
    battle.battles_phase(r)
    assert _ids(r, "battle.ends")[0]["outcome"] == "ended"


# -- FE 7.2: targeting, tactical destruction, spoils ---------------------------------------

def _archers() -> tuple[GameState, Side, Side]:
    s = board()
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", archer=3)
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", men_at_arms=2)
    r = realm(s)
    return s, Side(r, "York", "Green"), Side(r, "York", "Blue")


def test_fe_7_2_archers_targeting_a_noble_slay_him_on_fff() -> None:
    """FE 7.2 Targeting a Noble: announced before the roll; an fff slays Henri and the
    Men-at-Arms take nothing."""
    s, a, d = _archers()
    r = realm(s, bd(3))
    a.realm = d.realm = r
    give_orders(r, {"kirsten": "TARGET Henri AT York"})
    projectiles.fire(r, a, d, {})
    assert not s.nobles["henri"].alive
    assert s.cities["York"].units_of("Blue")["men_at_arms"] == 2


def test_fe_7_2_any_other_result_on_a_target_is_no_loss() -> None:
    """FE 7.2: all other results equal NO losses (not even the +1 for three archers)."""
    s, a, d = _archers()
    r = realm(s, bd(2))
    a.realm = d.realm = r
    give_orders(r, {"kirsten": "TARGET Henri AT York"})
    projectiles.fire(r, a, d, {})
    assert s.nobles["henri"].alive
    assert s.cities["York"].units_of("Blue")["men_at_arms"] == 2


def test_fe_7_2_archers_targeting_an_invading_leader() -> None:
    """FE 7.2: "an opposing Noble or Invading Leader": `TARGET LEADER`, an fff and the
    Black Raven's Leader is gone; his Foot Soldiers stay."""
    s, a, _ = _archers()
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York", True, 4)
    r = realm(s, bd(3))
    a.realm = r
    give_orders(r, {"kirsten": "TARGET LEADER AT York"})
    projectiles.fire(r, a, Side(r, "York", armies=["Black Raven"]), {})
    assert not s.invaders["Black Raven"].leader and s.invaders["Black Raven"].foot == 4


def test_fe_7_2_tactical_destruction_at_the_end_of_a_round() -> None:
    """FE 7.2 Tactical Destruction: Dave's standing DESTROY ENGINES IF TROOPS BELOW 2:
    after the first round, one Man-at-Arms left, his Bombard goes back to his stockpile
    before the battle is lost, so Kirsten cannot take it."""
    s = board()
    noble(s, "William", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", bombard=1, men_at_arms=1)
    noble(s, "Edward", "Green", "Oxford")
    troops(s, "Oxford", "Green", knight=2)
    before = s.families["Blue"].stock["bombard"]
    r = realm(s, bd(1) + bd(0, 0) + bd(0) + bd(1, 0) + bd(0))
    give_orders(r, {"dave": "DESTROY ENGINES IF TROOPS BELOW 2"})
    phases.store_standing(r)
    fight(r, Side(r, "Oxford", "Green"), Side(r, "Oxford", "Blue"), "attack")
    assert s.families["Blue"].stock["bombard"] == before + 1
    assert s.cities["Oxford"].units_of("Green") == {"knight": 2}
    assert _ids(r, "engines.destroyed")[0]["units"] == {"bombard": 1}


def _spoils_board() -> GameState:
    s = board()
    noble(s, "William", "Red", "Oxford")
    troops(s, "Oxford", "Red", bombard=1, men_at_arms=1)
    noble(s, "Henri", "Blue", "Oxford")
    troops(s, "Oxford", "Blue", knight=2)
    return s


def test_ex_7_2_the_winner_takes_the_losers_bombard() -> None:
    """Ex 7-2 (FE 7.2 Winner's Spoils): the battle won, Dave takes George's Bombard,
    replacing it with one of his own markers; George's goes back to his stockpile."""
    s = _spoils_board()
    red, blue = s.families["Red"].stock["bombard"], s.families["Blue"].stock["bombard"]
    r = realm(s, bd(1) + bd(1, 0) + bd(0))
    fight(r, Side(r, "Oxford", "Blue"), Side(r, "Oxford", "Red"), "attack")
    assert s.cities["Oxford"].units_of("Blue") == {"knight": 2, "bombard": 1}
    assert s.families["Red"].stock["bombard"] == red + 1
    assert s.families["Blue"].stock["bombard"] == blue - 1
    assert s.nobles["william"].captor == "henri"


def test_fe_7_2_spoils_destroy_leaves_no_engine() -> None:
    s = _spoils_board()
    red = s.families["Red"].stock["bombard"]
    r = realm(s, bd(1) + bd(1, 0) + bd(0))
    give_orders(r, {"dave": "SPOILS DESTROY"})
    phases.store_standing(r)
    fight(r, Side(r, "Oxford", "Blue"), Side(r, "Oxford", "Red"), "attack")
    assert s.cities["Oxford"].units_of("Blue") == {"knight": 2}
    assert s.families["Red"].stock["bombard"] == red + 1


# -- FE 7.6, 7.7: escape and lower ransoms ---------------------------------------------------

def _captive(cash: int) -> GameState:
    s = board()
    noble(s, "William", "Red", "London")
    noble(s, "Henri", "Blue", "London", titles=["midlands"], clergy="canterbury",
          status="captive", captor="william")
    s.players["dave"].cash = cash
    return s


def test_ex_7_6_a_lower_ransom_both_agreed_frees_henri() -> None:
    """Ex 7-6 (FE 7.7): Dave has 5, the ransom is 6; he offers 4 and George accepts at
    least 4: Henri goes free for 4 (no pigeon needed)."""
    s = _captive(5)
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Henri OFFER 4",
                    "george": "ACCEPT RANSOM FOR Henri AT LEAST 4"})
    economy.ransoms(r)
    assert s.nobles["henri"].free
    assert s.players["dave"].cash == 1 and s.players["george"].cash == 4


def test_ex_7_6_if_george_disagrees_henri_remains_a_captive() -> None:
    """Ex 7-6: George asks at least 5: no deal, both told; Dave keeps his 5."""
    s = _captive(5)
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Henri OFFER 4",
                    "george": "ACCEPT RANSOM FOR Henri AT LEAST 5"})
    economy.ransoms(r)
    assert s.nobles["henri"].status == "captive" and s.players["dave"].cash == 5
    assert _actors(r, "ransom.mismatch") == {"dave", "george"}


def test_fe_7_7_a_ransom_line_for_no_captive_of_yours_is_refused_not_ignored() -> None:
    """FE 7.7.  Found playing by mail: Bob's `RANSOM Edward OFFER 3`, Edward being
    another player's free noble, did nothing and his sheet said nothing."""
    s = _captive(5)
    noble(s, "Edward", "Green", "York")
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Edward OFFER 3\nRANSOM William OFFER 1",
                    "kirsten": "ACCEPT RANSOM FOR Henri AT LEAST 2"})
    economy.ransoms(r)
    assert sorted(refusals(r)) == ["Edward is not of your family (FE 7.7)",
                                   "Henri is not held by a noble of yours (FE 7.7)",
                                   "William is not of your family (FE 7.7)"]
    assert {e.actor for e in r.events if e.id == "order.refused"} == {"dave", "kirsten"}
    s = _captive(5)
    noble(s, "Philippa", "Blue", "Exeter")
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Philippa OFFER 2"})
    economy.ransoms(r)
    assert refusals(r) == ["Philippa is not a captive (FE 7.7)"]


def test_ex_7_6_with_ten_shillings_and_no_deal_the_full_ransom_is_paid() -> None:
    """Ex 7-6: "if Dave had 10 Shillings and he could not negotiate with George to pay
    less than 6 Shillings, then Dave would have had to pay the full amount"."""
    s = _captive(10)
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Henri OFFER 4",
                    "george": "ACCEPT RANSOM FOR Henri AT LEAST 5"})
    economy.ransoms(r)
    assert s.nobles["henri"].free and s.players["dave"].cash == 4
    assert s.players["george"].cash == 6


def test_ex_7_6_with_ten_shillings_a_lower_deal_still_stands() -> None:
    """Ex 7-6, FE 7.7 "a Captor may accept or refuse a lower Ransom amount": with 10 in
    his purse Dave may still negotiate; George accepts 4, and 4 is what he pays."""
    s = _captive(10)
    r = realm(s)
    give_orders(r, {"dave": "RANSOM Henri OFFER 4",
                    "george": "ACCEPT RANSOM FOR Henri AT LEAST 4"})
    economy.ransoms(r)
    assert s.nobles["henri"].free and s.players["dave"].cash == 6
    assert s.players["george"].cash == 4


def test_fe_7_6_escape_by_passage_goes_to_a_family_city() -> None:
    """FE 7.6, 10.2 Escape: a captive set free by a Passage goes to one of his family's
    cities (the nearest: Oxford, next to London)."""
    s = _captive(0)
    troops(s, "Oxford", "Blue", men_at_arms=1)
    s.players["lucy"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"lucy": "PASSAGE FREE Henri"})
    cards.play_phase(r)
    assert s.nobles["henri"].free and s.nobles["henri"].city == "Oxford"


# -- FE 7.9, 10.2: sieges ---------------------------------------------------------------------

def _besieged() -> tuple[GameState, object]:
    s = board()
    noble(s, "Henri", "Red", "London")
    troops(s, "London", "Red", men_at_arms=3, archer=3)
    noble(s, "William", "Blue", "London")
    troops(s, "London", "Blue", knight=1, men_at_arms=2)
    london = s.cities["London"]
    london.holder, london.occupants, london.building = "Red", ["Red", "Blue"], "fortified"
    london.besieged_by = "Blue"
    return s, london


def test_fe_7_9_a_sally_is_melee_only_and_goes_back_inside() -> None:
    """FE 7.9 Sally: George attacks out: no projectiles (his three archers stay silent),
    no walls for either side; after the roll he has lost his two and goes back in."""
    s, london = _besieged()
    r = realm(s, bd(1, 1) + bd(2))
    give_orders(r, {"george": "SALLY London BACK IF LOST 2"})
    battle.battles_phase(r)
    rounds = _ids(r, "battle.round")
    assert len(rounds) == 1 and "projectiles" not in rounds[0]
    assert _ids(r, "battle.ends")[0]["outcome"] == "sally back"
    assert s.cities["London"].units_of("Blue") == {"knight": 1}
    assert london.besieged_by == "Blue" and london.holder == "Red"   # type: ignore[attr-defined]


def test_fe_7_9_reinforcements_enter_the_besieged_city_without_a_fight() -> None:
    """FE 7.9: the besieged may move troops in from an adjacent city directly."""
    s, _ = _besieged()
    noble(s, "Richard", "Red", "Oxford")
    troops(s, "Oxford", "Red", men_at_arms=2)
    r = realm(s)
    give_orders(r, {"george": "MOVE Richard WITH 2 MAN-AT-ARMS: Oxford - London"})
    movement.movement_phase(r)
    assert s.nobles["richard"].city == "London"
    assert s.cities["London"].units_of("Red")["men_at_arms"] == 5
    assert not _ids(r, "battle.begins")


def test_fe_7_9_a_new_noble_may_be_placed_in_the_besieged_city() -> None:
    """FE 7.9 (2.11): purchased troops cannot be placed in a besieged city, new nobles can."""
    s, _ = _besieged()
    s.players["george"].hand = ["Noble Richard"]
    r = realm(s)
    give_orders(r, {"george": "PLAY NOBLE Richard AT London"})
    cards.play_phase(r)
    assert s.nobles["richard"].city == "London" and s.nobles["richard"].family == "Red"


def test_fe_7_9_a_trebuchet_taken_from_the_map_for_a_new_siege() -> None:
    """FE 7.9: no Trebuchet in the stockpile: Dave destroys his one at Oxford to place
    it before London."""
    s, london = _besieged()
    london.besieged_by = None   # type: ignore[attr-defined]
    s.families["Blue"].stock["trebuchet"] = 0
    troops(s, "Oxford", "Blue", trebuchet=1)
    s.families["Blue"].stock["trebuchet"] = 0
    r = realm(s)
    give_orders(r, {"dave": "SIEGE London"})
    siege.declare(r)
    assert london.besieged_by == "Blue"   # type: ignore[attr-defined]
    assert s.cities["Oxford"].units_of("Blue") == {}
    assert s.families["Blue"].stock["trebuchet"] == 0


def test_fe_10_2_a_passage_escapes_the_siege_as_a_first_move() -> None:
    """FE 10.2 Escape from a Besieged Fortified City: Henri and a Man-at-Arms leave
    London by their first move, the Passage spent."""
    s, _ = _besieged()
    s.players["george"].hand = ["Passage"]
    r = realm(s)
    give_orders(r, {"george": "MOVE Henri WITH 1 MAN-AT-ARMS: London - Oxford IF DENIED PASSAGE"})
    movement.movement_phase(r)
    assert s.nobles["henri"].city == "Oxford"
    assert s.cities["Oxford"].units_of("Red") == {"men_at_arms": 1}
    assert "Passage" in s.fortune_discard


def test_fe_7_10_engines_pillaged_the_opponents_taken_over() -> None:
    """FE 7.10: George pillages the engines at Oxford: Dave's Bombard is exchanged for
    one of George's; George's own Trebuchet is destroyed."""
    s = board()
    noble(s, "Henri", "Red", "Oxford")
    troops(s, "Oxford", "Red", men_at_arms=1, trebuchet=1)
    troops(s, "Oxford", "Blue", bombard=1, men_at_arms=1)
    blue, red = s.families["Blue"].stock["bombard"], s.families["Red"].stock["bombard"]
    r = realm(s)
    give_orders(r, {"george": "PILLAGE Oxford ENGINES"})
    battle.battles_phase(r)
    assert s.cities["Oxford"].units_of("Red") == {"men_at_arms": 1, "bombard": 1}
    assert s.cities["Oxford"].units_of("Blue") == {"men_at_arms": 1}
    assert s.families["Blue"].stock["bombard"] == blue + 1
    assert s.families["Red"].stock["bombard"] == red - 1


def test_ex_10_5_a_bombard_left_alone_is_taken_by_the_army_there() -> None:
    """FE 7.5 (last line), Ex 10-5: Kirsten's troops had to leave their Bombard behind at
    Exeter; it is quickly replaced with Dave's available Bombard marker."""
    s = board()
    noble(s, "William", "Blue", "Exeter")
    troops(s, "Exeter", "Blue", men_at_arms=1)
    troops(s, "Exeter", "Green", bombard=1)
    green, blue = s.families["Green"].stock["bombard"], s.families["Blue"].stock["bombard"]
    r = realm(s)
    battle.battles_phase(r)
    assert s.cities["Exeter"].units_of("Blue") == {"men_at_arms": 1, "bombard": 1}
    assert s.cities["Exeter"].units_of("Green") == {}
    assert s.families["Green"].stock["bombard"] == green + 1
    assert s.families["Blue"].stock["bombard"] == blue - 1


# -- FE 11.1: Crossbowmen hired in battle ---------------------------------------------------

def test_fe_11_1_crossbowmen_hired_in_the_middle_of_a_battle() -> None:
    """FE 11.1: "they may be hired in the middle of a Battle": George hires two into the
    battle at York for 4; they fire with the archers (one die) and fall in the melee."""
    s = board()
    noble(s, "Henri", "Red", "York")
    troops(s, "York", "Red", men_at_arms=1)
    noble(s, "Edward", "Green", "York")
    troops(s, "York", "Green", knight=1, men_at_arms=4)
    s.players["george"].slot, s.players["george"].crossbows = "French Crossbowmen", 3
    s.players["george"].cash = 4
    r = realm(s, bd(1) + bd(3, 3) + bd(0))
    give_orders(r, {"kirsten": "ATTACK York",
                    "george": "HIRE 2 CROSSBOWMEN AT York IN BATTLE"})
    battle.battles_phase(r)
    assert s.players["george"].cash == 0 and s.players["george"].crossbows == 1
    assert _ids(r, "hired")[0]["battle"] is True
    assert s.cities["York"].units_of("Green")["men_at_arms"] == 3
    assert not s.nobles["henri"].alive


def _lender() -> GameState:
    s = board()
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", men_at_arms=1)
    s.players["george"].slot, s.players["george"].crossbows = "Flemish Crossbowmen", 3
    s.players["dave"].cash = 5
    return s


def test_fe_11_1_crossbowmen_lent_for_a_price_and_home_at_end_round() -> None:
    """FE 11.1: "a Player can lend or rent their Mercenaries, in whole or in part, to
    other Players": George lends two to Dave for 3; they stand with Dave's Henri at York
    this round and go back to George's card at End Round."""
    s = _lender()
    r = realm(s)
    give_orders(r, {"george": "LEND 2 CROSSBOWMEN TO Dave FOR 3",
                    "dave": "HIRE 2 CROSSBOWMEN FROM George FOR 3 AT York"})
    economy.purchase_phase(r)
    assert s.cities["York"].units_of("Blue") == {"men_at_arms": 1, "crossbow": 2}
    assert s.players["dave"].cash == 2 and s.players["george"].cash == 3
    assert s.players["george"].crossbows == 1
    victory.end_round(r)
    assert s.cities["York"].units_of("Blue") == {"men_at_arms": 1}
    assert s.players["george"].crossbows == 3 and s.players["george"].slot


def test_fe_11_1_one_lend_answers_one_hire() -> None:
    """FE 11.1 by matching orders: George lends two once; Dave's second identical HIRE
    finds no LEND left and is told so (the lender is held to what he wrote)."""
    s = _lender()
    troops(s, "London", "Blue", men_at_arms=1)
    r = realm(s)
    give_orders(r, {"george": "LEND 2 CROSSBOWMEN TO Dave FOR 3",
                    "dave": "HIRE 2 CROSSBOWMEN FROM George FOR 3 AT York\n"
                            "HIRE 2 CROSSBOWMEN FROM George FOR 3 AT London"})
    economy.purchase_phase(r)
    assert s.cities["York"].units_of("Blue") == {"men_at_arms": 1, "crossbow": 2}
    assert s.cities["London"].units_of("Blue") == {"men_at_arms": 1}
    assert s.players["dave"].cash == 2 and s.players["george"].crossbows == 1
    assert _actors(r, "loan.mismatch") == {"dave", "george"}


def test_fe_11_1_a_loan_not_matched_is_told_to_both() -> None:
    """FE 11.1 by email (fief-email.md §4): George wrote no LEND: nothing moves."""
    s = _lender()
    r = realm(s)
    give_orders(r, {"dave": "HIRE 2 CROSSBOWMEN FROM George FOR 3 AT York"})
    economy.purchase_phase(r)
    assert s.cities["York"].units_of("Blue") == {"men_at_arms": 1}
    assert s.players["dave"].cash == 5 and s.players["george"].crossbows == 3
    assert _actors(r, "loan.mismatch") == {"dave", "george"}


def test_fe_10_2_a_passage_aids_the_invaders_against_the_walls() -> None:
    """FE 10.2 Aid Invaders: George plays his Passage for the Black Raven before Dave's
    Fortified City at York: the invaders' 3 dice (13 SP) keep all three, no -2."""
    s = board()
    noble(s, "Henri", "Blue", "York")
    troops(s, "York", "Blue", men_at_arms=2)
    s.cities["York"].building = "fortified"
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York", True, 5)
    s.players["george"].hand = ["Passage"]
    r = realm(s, bd(1, 1, 1) + bd(0))
    give_orders(r, {"george": "AID INVADERS AT York WITH PASSAGE"})
    invaders._arrive(r, ["Black Raven"], "York")
    assert len(_ids(r, "battle.round")[0]["attacker_faces"]) == 3   # type: ignore[arg-type]
    assert "Passage" in s.fortune_discard
    assert s.cities["York"].units_of("Blue") == {}


def _stormbound() -> tuple[GameState, Realm]:
    s = board()
    s.seas["4"] = ["Storms"]
    s.invaders["Black Raven"] = InvaderArmy("Black Raven", "York", True, 5)
    s.players["george"].hand = ["Passage"]
    return s, realm(s, {"compass": [1, 1]})


def test_fe_10_2_a_passage_helps_the_invaders_move_out_of_the_storms() -> None:
    """FE 10.2 "a Player may even help Invaders move if they choose": held at York by the
    Storms on the North (A74), the Black Raven takes George's Passage and one move, by the
    compass, to Durham; there, out of the Storms, it marches on as usual."""
    s, r = _stormbound()
    give_orders(r, {"george": "HELP INVADERS AT York WITH PASSAGE"})
    invaders.march(r, "Black Raven")
    assert _ids(r, "invaders.helped")[0]["city"] == "York"
    assert _ids(r, "invaders.move")[0]["to"] == "Durham"
    assert "Passage" in s.fortune_discard and not s.players["george"].hand


def test_fe_2_5_no_battle_in_the_storms_even_for_helped_invaders() -> None:
    """FE 2.5 STORMS "No battles are allowed in the Region": helped by George's Passage
    from York to Whitby, both in the stormbound North, the Black Raven finds Dave's
    Henri and a Man-at-Arms there and fights nothing (and pillages nothing)."""
    s, r = _stormbound()
    r = realm(s, {"compass": [2, 1]})
    noble(s, "Henri", "Blue", "Whitby")
    troops(s, "Whitby", "Blue", men_at_arms=1)
    s.cities["Whitby"].mill = True
    give_orders(r, {"george": "HELP INVADERS AT York WITH PASSAGE"})
    invaders.march(r, "Black Raven")
    assert s.invaders["Black Raven"].city == "Whitby"
    assert not _ids(r, "battle.begins") and not _ids(r, "battle.round")
    assert s.nobles["henri"].free and s.cities["Whitby"].units_of("Blue") == {"men_at_arms": 1}
    assert s.cities["Whitby"].mill


def test_fe_10_2_without_the_passage_the_storms_hold_the_invaders() -> None:
    s, r = _stormbound()
    invaders.march(r, "Black Raven")
    assert s.invaders["Black Raven"].city == "York" and s.players["george"].hand == ["Passage"]
