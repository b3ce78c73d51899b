"""Rule cases of the cards share (issue 17): the any-time windows and standing reactions
(FE 2.6, 10.0, 11.0), the Chasuble and the Skull (12.2, 12.3), Retainers (2.12), the
Abbess (2.13), gifts in any window (2.15), the King's Will for a price (FAQ P4 F15) and
the Burgher's votes (9.2, Ex 9-2).  Dice are scripted; each docstring cites its rule."""

from __future__ import annotations

import json

from moderator.games.base import TurnResult
from moderator.games.fief import ENGINE, cards, court, economy, invaders, movement, phases
from moderator.games.fief.cards import abbey, windows
from moderator.games.fief.orders import parse
from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.parse import Context, parse_line
from moderator.games.fief.orders.values import Reaction
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import GameState, Noble
from tests.fief.board import bd, board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES, mustered, render_all, run


def _ctx(hand: tuple[str, ...] = ()) -> Context:
    players = {"george": "George", "kirsten": "Kirsten", "dave": "Dave", "lucy": "Lucy"}
    return Context(TABLES, players, ("Green",), ("Red", "Green", "Blue", "Yellow"), hand)


# -- the order forms ------------------------------------------------------------------

def test_window_lines_read_back_in_normal_form() -> None:
    """fief-email.md §3.1: `AT <window> [PLAY] <card order>` and the standing
    `AT <window> IF <condition> PLAY <card order>` read back to the same value."""
    ctx = _ctx(("Justice", "Good Weather", "Rebellion", "French Crossbowmen", "Passage"))
    for text in ("AT END IF Godfrey IS HERETIC PLAY JUSTICE Godfrey",
                 "AT MOVE IF STORMS ON Wales PLAY GOOD WEATHER ON Wales",
                 "AT INCOME REBELLION AT Norwich",
                 "AT BATTLES PLAY FRENCH CROSSBOWMEN",
                 "AT PILLAGE IF INVADERS AT Lincoln PLAY REBELLION AT Lincoln",
                 "AT W14 IF Henri IS LORD OF Midlands PLAY GIVE 2 SHILLINGS TO George",
                 "AT ELECTION IF Hugh AT York PLAY JUSTICE Hugh",
                 "RETAINER Mata FROM Alienor TO Godfrey FOR 3",
                 "RELINQUISH Lucia", "PERMIT RELINQUISH Lucia", "APPOINT ABBESS Estrid",
                 "REBUILD ABBEY Autumn AT Oxford", "SKULL ANY", "SKULL FOR Henri", "SKULL",
                 "AID INVADERS AT Coventry WITH PASSAGE", "ROYAL MOVE William TO ROYAL ABBEY"):
        order = parse_line(ctx, text)
        again = parse_line(ctx, format_order(TABLES, order))
        assert again == order, text
    assert parse_line(ctx, "AT W14 JUSTICE Godfrey").at == "end"
    assert parse_line(ctx, "AT CARDS JUSTICE Godfrey").at == ""


def test_fe_2_6_tax_and_nobles_are_not_played_in_a_window() -> None:
    """FE 2.6: "These Cards, with the exception of Opportunity Cards, must be played now"
    (Phase 2D): a Tax in another window is refused when read."""
    s = board()
    s.players["kirsten"].hand = ["Tax"]
    parsed = ENGINE.parse_orders("AT END PLAY TAX ON North", s.to_dict(), "kirsten", TABLES)
    assert parsed.errors and "outside Phase 2D only Opportunity cards" in parsed.errors[0].message


def test_the_round_opens_its_windows_in_order() -> None:
    """fief-email.md §3.2: the windows stand in the phase table in round order."""
    titles = [p.name for p in phases.ROUND_TABLE.ordered()]
    order = [t.split()[1] for t in titles if t.startswith("window")]
    assert order == ["W7", "W8", "W9", "W10", "W11", "W13", "W14"]
    nxt = [p.name.split()[1] for p in phases.NEXT_ROUND_TABLE.ordered()
           if p.name.startswith("window")]
    assert nxt == ["W1", "W5"]
    assert [w.name for w in windows.WINDOWS][:6] == ["hear-ye", "election", "parliament",
                                                     "discard", "disasters", "cards"]
    assert set(parse.WINDOWS.values()) == set(windows.NAMES)    # the parser knows them all
    assert set(parse.WINDOW_IDS) == {w.id for w in windows.WINDOWS}


# -- one-shot lines in a window (FE 2.6, 10.0, 11.0) ------------------------------------

def test_fe_10_1_a_rebellion_played_in_the_income_window() -> None:
    """FE 10.1 ("A REBELLION Card can be played at ANY time"), 2.6: Kirsten's Rebellion
    on famished Norwich at W7, before income: one die, a blank +1 kills Dave's Man-at-Arms;
    the card is spent and not played again in Phase 2D."""
    s = board()
    s.seas["5"] = ["Famine"]
    noble(s, "Estrid", "Blue", "Norwich")
    troops(s, "Norwich", "Blue", men_at_arms=2)
    s.players["kirsten"].hand = ["Rebellion"]
    r = realm(s, {"rebellion": bd(0)})
    give_orders(r, {"kirsten": "AT INCOME REBELLION AT Norwich"})
    cards.play_phase(r)
    assert s.players["kirsten"].hand == ["Rebellion"]      # not a Phase 2D line
    windows.open_window(r, "income")
    assert s.cities["Norwich"].units_of("Blue") == {"men_at_arms": 1}
    assert s.players["kirsten"].hand == [] and "Rebellion" in s.fortune_discard


def test_fe_2_7_good_weather_in_movement_clears_the_storms() -> None:
    """FE 2.7 example: "Kirsten plays GOOD WEATHER on a Region an Opponent occupies that
    is burdened with STORMS during Phase 5 - Movement. The STORMS and GOOD WEATHER Cards
    are both discarded" (W9)."""
    s = board()
    s.seas["2"] = ["Storms"]
    s.players["kirsten"].hand = ["Good Weather"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT MOVE PLAY GOOD WEATHER ON Wales"})
    windows.open_window(r, "move")
    assert s.seas["2"] == [] and {"Storms", "Good Weather"} <= set(s.fortune_discard)


def test_a75_after_income_good_weather_only_cancels_storms() -> None:
    """A75 (PROPOSED, FE 2.7): placed after Phase 3 a Good Weather would earn nothing: it
    is refused where there are no Storms, and stays in hand."""
    s = board()
    s.players["kirsten"].hand = ["Good Weather"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT BATTLES GOOD WEATHER ON Wales"})
    windows.open_window(r, "battles")
    assert s.players["kirsten"].hand == ["Good Weather"]
    assert refusals(r) == ["after Phase 3 Good Weather only cancels Storms (A75, PROPOSED)"]


def test_fe_11_1_mercenaries_placed_at_the_start_of_the_battles() -> None:
    """FE 11.1: "MERCENARY Cards can be placed at any time onto a Family Board": at W11."""
    s = board()
    s.players["dave"].hand = ["Flemish Crossbowmen"]
    r = realm(s)
    give_orders(r, {"dave": "AT BATTLES PLAY FLEMISH CROSSBOWMEN"})
    windows.open_window(r, "battles")
    assert (s.players["dave"].slot, s.players["dave"].crossbows) == ("Flemish Crossbowmen", 3)


def test_fe_11_2_a_burgher_placed_in_the_hear_ye_window() -> None:
    """FE 11.2: "As an Opportunity Card, it can be placed ... at any time" (with a titled
    Lord): Dave places his Burgher at W1, then its votes count in the same Parliament."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Philippa", "Blue", "York", titles=["north"])
    noble(s, "Hugh", "Green", "York", clergy="york")
    s.players["dave"].hand = ["Burgher (3 votes)"]
    r = realm(s)
    give_orders(r, {"dave": "AT HEAR-YE PLAY BURGHER (3 VOTES)\nPARLIAMENT FOR WITH BURGHER",
                    "george": "CONVENE PARLIAMENT"})
    windows.step("hear-ye")(r)
    court.parliament_phase(r)
    assert s.players["dave"].slot == "Burgher (3 votes)" and s.parliament_rebellion


def test_fe_2_15_a_gift_by_pigeon_in_the_battles_window() -> None:
    """FE 2.15: "Carrier Pigeons can be played at any time": George's pigeon flies at W11
    (a 2: it arrives), not at the start of Phase 4."""
    s = board()
    noble(s, "William", "Red", "Durham")
    s.cities["Durham"].building = "fortified"
    noble(s, "Henri", "Blue", "Exeter")
    s.cities["Exeter"].building = "stronghold"
    s.players["george"].cash = 3
    r = realm(s, {"pigeon": [2]})
    give_orders(r, {"george": "AT BATTLES GIVE 3 SHILLINGS TO Dave"})
    economy.gifts(r)
    assert s.players["dave"].cash == 0
    windows.open_window(r, "battles")
    assert (s.players["dave"].cash, s.players["george"].pigeons) == (3, 2)


def test_fe_2_15_what_the_players_learn_of_a_gift() -> None:
    """FE 2.15 ("The Players can exchange information, Shillings, and Cards"): a gift is
    told to the giver and the receiver only, never in the gazette."""
    s = board()
    noble(s, "William", "Red", "York")
    noble(s, "Hugh", "Green", "York")
    s.players["george"].cash = 2
    r = realm(s)
    give_orders(r, {"george": "AT END GIVE 2 SHILLINGS TO Kirsten"})
    windows.open_window(r, "end")
    gifts = [e for e in r.events if e.id == "gift"]
    assert sorted(str(e.actor) for e in gifts) == ["george", "kirsten"]
    assert not any(e.public for e in gifts)


# -- standing reactions -----------------------------------------------------------------

def test_fe_10_4_a_standing_reaction_waits_for_its_heretic() -> None:
    """FE 10.4, fief-email.md §3.1: `AT PILLAGE IF Godfrey IS HERETIC PLAY JUSTICE Godfrey`
    is kept while Godfrey is clean; once he bears the Heresy marker it fires at the window
    and is spent."""
    s = board()
    godfrey = noble(s, "Godfrey", "Blue", "Oxford")
    s.players["kirsten"].hand = ["Justice"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT PILLAGE IF Godfrey IS HERETIC PLAY JUSTICE Godfrey"})
    phases.store_standing(r)
    windows.open_window(r, "pillage")
    assert godfrey.alive and [d["kind"] for d in s.players["kirsten"].standing] == ["reaction"]
    godfrey.heresy = True
    r.orders = {}
    windows.open_window(r, "end")                   # another window: not its own
    assert godfrey.alive
    windows.open_window(r, "pillage")
    assert not godfrey.alive and s.players["kirsten"].standing == []


def test_fe_2_6_reactions_in_player_order_each_card_once() -> None:
    """FE 2.6, fief-email.md §3.1: at a window players act in player order from the First
    Player; George (first) ambushes Hugh; Dave's reaction on Hugh then fails and stays."""
    s = board()
    noble(s, "William", "Red", "Coventry")
    noble(s, "Henri", "Blue", "Coventry")
    hugh = noble(s, "Hugh", "Green", "Coventry")
    s.players["george"].hand = ["Ambush"]
    s.players["dave"].hand = ["Assassination"]
    r = realm(s)
    give_orders(r, {"dave": "AT END IF Hugh AT Coventry PLAY ASSASSINATE Hugh BY Henri",
                    "george": "AT END IF Hugh AT Coventry PLAY AMBUSH Hugh BY William"})
    phases.store_standing(r)
    windows.open_window(r, "end")
    assert hugh.status == "captive" and hugh.captor == "william"
    assert s.players["george"].standing == []
    assert [d["kind"] for d in s.players["dave"].standing] == ["reaction"]   # Hugh not free
    assert s.players["dave"].hand == ["Assassination"]


def test_a_refused_reaction_stays_stored() -> None:
    """fief-email.md §3.1: "A play whose conditions fail ... does nothing and the card
    stays in hand; a standing reaction stays stored": Justice on a heretic in an Abbey."""
    s = board()
    godfrey = noble(s, "Godfrey", "Blue", "Oxford", heresy=True)
    s.cities["Oxford"].building = "abbey"
    s.players["kirsten"].hand = ["Justice"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT END IF Godfrey IS HERETIC PLAY JUSTICE Godfrey"})
    phases.store_standing(r)
    windows.open_window(r, "end")
    assert godfrey.alive and len(s.players["kirsten"].standing) == 1
    assert refusals(r) == ["an Abbey protects its nobles from Justice (FE 2.13)"]


def test_fe_10_3_assassination_of_a_candidate_in_the_election_window() -> None:
    """FE 10.3 ("played at any time"), 9.1, W2: Kirsten assassinates the candidate Hugh
    after the candidacies, before the tally: Anabel is elected on her vote alone."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"], clergy="exeter")
    noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
    noble(s, "Hugh", "Red", "Berwick", titles=["marches"])
    s.candidates = ["anabel", "hugh"]
    s.players["kirsten"].hand = ["Assassination"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT ELECTION ASSASSINATE Hugh BY Anabel\nVOTE Anabel",
                    "george": "VOTE Hugh", "dave": "VOTE Hugh"})
    court.election_phase(r)
    assert not s.nobles["hugh"].alive and s.sovereign == "anabel"


def test_fe_9_2_a_sovereign_ambushed_in_the_parliament_window_does_not_sit() -> None:
    """FE 9.2 ("if they are not Captive"), 10.5, W3: Dave ambushes King William at London
    (no walls) after he convened: no vote, no Royal Tax."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Henri", "Blue", "London")
    noble(s, "Hugh", "Green", "York", clergy="york")
    s.players["dave"].hand = ["Ambush"]
    r = realm(s)
    give_orders(r, {"george": "CONVENE PARLIAMENT", "kirsten": "PARLIAMENT FOR",
                    "dave": "AT PARLIAMENT AMBUSH William BY Henri"})
    court.parliament_phase(r)
    assert s.nobles["william"].status == "captive"
    assert not s.parliament_rebellion and s.players["george"].cash == 0


def test_faq_p2_f10_a_discard_window_reaction() -> None:
    """FAQ P2 F10 ("the Player may play it instead of discarding it"), W4: a standing
    reaction at the Discard frees Kirsten's captive before her discards."""
    s = board()
    noble(s, "William", "Red", "York")
    hugh = noble(s, "Hugh", "Green", "York")
    hugh.status, hugh.captor = "captive", "william"
    s.cities["Lincoln"].holder = "Green"
    s.cities["Lincoln"].building = "stronghold"
    s.players["kirsten"].hand = ["Passage", "Tax"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT DISCARD IF Hugh IS CAPTIVE PLAY PASSAGE FREE Hugh\n"
                               "DISCARD Tax"})
    phases.store_standing(r)
    cards.discard_phase(r)
    assert hugh.free and hugh.city == "Lincoln" and s.players["kirsten"].hand == []


# -- relics in other phases (FE 12.2, 12.3) --------------------------------------------

def test_fe_12_2_the_chasuble_in_any_phase_once_a_round_a_card() -> None:
    """FE 12.2 ("once per Round, per Card, and in any Phase"; Ex: from Sea III to II or
    IV): the Storms go from III to IV at W9; moving that card again at W14 is refused."""
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Chasuble of Thomas Becket"])
    s.seas["3"] = ["Storms"]
    r = realm(s)
    give_orders(r, {"kirsten": "AT MOVE CHASUBLE STORMS FROM III TO IV\n"
                               "AT END CHASUBLE STORMS FROM IV TO V"})
    windows.open_window(r, "move")
    assert (s.seas["3"], s.seas["4"]) == ([], ["Storms"])
    windows.open_window(r, "end")
    assert s.seas["4"] == ["Storms"]
    assert refusals(r) == ["that Storms card has moved this round (FE 12.2)"]


def test_fe_12_3_skull_any_raises_another_familys_noble() -> None:
    """FE 12.3 ("resurrect any Noble in the City where they just died"), A77: Kirsten's
    Hugh holds the Skull at York with `SKULL ANY`: Dave's Henri, slain there, lives on with
    his title; the Skull is spent."""
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Skull of Saint Caradoc"])
    henri = noble(s, "Henri", "Blue", "York", titles=["north"])
    r = realm(s)
    give_orders(r, {"kirsten": "SKULL ANY"})
    phases.store_standing(r)
    r.kill(henri, "battle")
    assert henri.alive and henri.titles == ["north"] and s.skull_used


def test_fe_12_3_skull_for_a_named_noble_only() -> None:
    """FE 12.3, A77: `SKULL FOR Henri` spares Henri, not Godfrey, who dies first."""
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Skull of Saint Caradoc"])
    godfrey = noble(s, "Godfrey", "Blue", "York")
    henri = noble(s, "Henri", "Blue", "York")
    s.players["kirsten"].standing.append({"kind": "skull", "family": None, "whom": "Henri"})
    r = realm(s)
    r.kill(godfrey, "battle")
    assert not godfrey.alive and not s.skull_used
    r.kill(henri, "battle")
    assert henri.alive and s.skull_used


def test_fe_12_3_a_plain_skull_keeps_to_its_own_family() -> None:
    """FE 12.3: a plain `SKULL` (the default, MINE) does not raise another family's noble."""
    s = board()
    noble(s, "Hugh", "Green", "York", relics=["Skull of Saint Caradoc"])
    henri = noble(s, "Henri", "Blue", "York")
    s.players["kirsten"].standing.append({"kind": "skull", "family": None})
    r = realm(s)
    r.kill(henri, "battle")
    assert not henri.alive and not s.skull_used


# -- Retainers (FE 2.12) ----------------------------------------------------------------

def test_fe_2_12_a_retainer_sold_to_another_family() -> None:
    """FE 2.12 ("Nobles may give, exchange, or sell their Retainers to any other Noble
    (theirs or another Family's) during Phase 2 and this does not require a Pigeon"):
    Kirsten sells Alienor's Mata to Dave's Godfrey for 3; both wrote the line; no pigeon,
    no shared city (A73)."""
    s = board()
    alienor = noble(s, "Alienor", "Green", "York", retainer="Mata")
    godfrey = noble(s, "Godfrey", "Blue", "Exeter")
    s.players["dave"].cash = 5
    r = realm(s)
    line = "RETAINER Mata FROM Alienor TO Godfrey FOR 3"
    give_orders(r, {"kirsten": line, "dave": line})
    cards.play_phase(r)
    assert (alienor.retainer, godfrey.retainer) == (None, "Mata")
    assert (s.players["kirsten"].cash, s.players["dave"].cash) == (3, 2)
    assert s.players["dave"].pigeons == 3


def test_fe_2_12_without_the_buyers_line_nothing_moves() -> None:
    """fief-email.md §4: a deal between players needs both lines; both are told."""
    s = board()
    alienor = noble(s, "Alienor", "Green", "York", retainer="Mata")
    noble(s, "Godfrey", "Blue", "Exeter")
    r = realm(s)
    give_orders(r, {"kirsten": "RETAINER Mata FROM Alienor TO Godfrey FOR 3"})
    cards.play_phase(r)
    assert alienor.retainer == "Mata"
    told = sorted(str(e.actor) for e in r.events if e.id == "order.refused")
    assert told == ["dave", "kirsten"]


def test_fe_2_12_an_exchange_between_two_nobles_with_retainers() -> None:
    """FE 2.12 ("A Noble may have only one Retainer"): an exchange is two matching lines,
    carried out together; a gift to a noble who has one already is refused."""
    s = board()
    alienor = noble(s, "Alienor", "Green", "York", retainer="Mata")
    godfrey = noble(s, "Godfrey", "Blue", "Exeter", retainer="Loyal Servant")
    lines = "RETAINER Mata FROM Alienor TO Godfrey\nRETAINER Loyal Servant FROM Godfrey TO Alienor"
    r = realm(s)
    give_orders(r, {"kirsten": lines, "dave": lines})
    cards.play_phase(r)
    assert (alienor.retainer, godfrey.retainer) == ("Loyal Servant", "Mata")
    hugh = noble(s, "Hugh", "Green", "York", retainer="Loyal Servant")
    r = realm(s)
    give_orders(r, {"kirsten": "RETAINER Loyal Servant FROM Alienor TO Hugh"})
    cards.play_phase(r)
    assert (alienor.retainer, hugh.retainer) == ("Loyal Servant", "Loyal Servant")
    assert refusals(r) == ["Hugh has a Retainer already: one a noble (FE 2.12)"]


def test_fe_2_12_a_retainer_given_within_the_family() -> None:
    """FE 2.12 ("theirs or another Family's"): between one player's own nobles one line is
    enough, and no money moves."""
    s = board()
    alienor = noble(s, "Alienor", "Green", "York", retainer="Mata")
    hugh = noble(s, "Hugh", "Green", "Durham")
    r = realm(s)
    give_orders(r, {"kirsten": "RETAINER Mata FROM Alienor TO Hugh FOR 2"})
    cards.play_phase(r)
    assert (alienor.retainer, hugh.retainer, s.players["kirsten"].cash) == (None, "Mata", 0)


# -- the Abbess (FE 2.13) ---------------------------------------------------------------

def _abbess_board() -> tuple[GameState, Noble]:
    s = board()
    lucia = noble(s, "Lucia", "Green", "Oxford", abbess=["Autumn"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn"
    noble(s, "Godfrey", "Blue", "Canterbury", clergy="canterbury")
    return s, lucia


def test_fe_2_13_an_abbess_relinquishes_with_her_archbishops_leave() -> None:
    """FE 2.13 ("an Abbess must ask the Bishop or Archbishop ... for permission to
    relinquish her Title. If they agree, the Abbess loses her Title"): Oxford is in the
    Archbishopric of Canterbury; Dave's Godfrey permits; the card goes to the Character
    discards (A71); the Abbey stays."""
    s, lucia = _abbess_board()
    r = realm(s)
    give_orders(r, {"kirsten": "RELINQUISH Lucia", "dave": "PERMIT RELINQUISH Lucia"})
    abbey.relinquish_phase(r)
    assert lucia.abbess == [] and s.character_discard == ["Abbess"]
    assert s.cities["Oxford"].abbey == "Autumn"


def test_fe_2_13_without_leave_she_keeps_the_title() -> None:
    """FE 2.13, fief-email.md §4: no `PERMIT RELINQUISH` from her prelate: she stays Abbess
    (so cannot marry, FE 9.0); both players are told."""
    s, lucia = _abbess_board()
    r = realm(s)
    give_orders(r, {"kirsten": "RELINQUISH Lucia"})
    abbey.relinquish_phase(r)
    assert lucia.abbess == ["Autumn"]
    assert sorted(str(e.actor) for e in r.events if e.id == "order.refused") == ["dave",
                                                                                 "kirsten"]


def test_fe_2_13_the_sovereign_gives_the_title_on() -> None:
    """FE 2.13 ("The King or Queen can immediately give this Title to any non-married
    Noblewoman of their choice"): King William appoints Estrid Abbess of the Autumn."""
    s, lucia = _abbess_board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    estrid = noble(s, "Estrid", "Yellow", "Norwich")
    s.sovereign = "william"
    r = realm(s)
    give_orders(r, {"kirsten": "RELINQUISH Lucia", "dave": "PERMIT RELINQUISH Lucia",
                    "george": "APPOINT ABBESS Estrid"})
    abbey.relinquish_phase(r)
    assert (lucia.abbess, estrid.abbess) == ([], ["Autumn"])


def test_fe_2_13_a_destroyed_abbey_is_rebuilt_free() -> None:
    """FE 2.13 ("the Abbey can be rebuilt in any City, free of charge, by its Abbess during
    the next Purchase Phase"): the rebels burnt the Autumn at Oxford; Lucia rebuilds it at
    Independent Winchester for nothing; a city with a Stronghold is refused."""
    s, _ = _abbess_board()
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "", None
    s.cities["Coventry"].building = "stronghold"
    r = realm(s)
    give_orders(r, {"kirsten": "REBUILD ABBEY Autumn AT Coventry\nREBUILD ABBEY Autumn AT "
                               "Winchester"})
    abbey.rebuild_phase(r)
    c = s.cities["Winchester"]
    assert (c.building, c.abbey, s.players["kirsten"].cash) == ("abbey", "Autumn", 0)
    assert refusals(r) == ["Coventry already has a building (FE 2.13, 4.2)"]


def test_fe_2_13_a_royal_abbey() -> None:
    """FE 2.13 ("A Royal Abbey is founded by an Abbess who is a member of the Royal
    Family", PROPOSED: of the King's family): King William's sister Lucia founds the Royal
    Abbey of the Autumn; another Abbess's would be a plain one."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Lucia", "Red", "Oxford")
    s.players["george"].hand = ["Abbess"]
    r = realm(s)
    give_orders(r, {"george": "PLAY ABBESS ON Lucia AT Oxford"})
    cards.play_phase(r)
    assert abbey.royal_abbey(r) == "Oxford"
    assert s.nobles["lucia"].abbess == ["Autumn (Royal)"]


# -- the King's Will for a price (FAQ P4 F15) --------------------------------------------

def _will_board(script: dict[str, list[int]] | None = None) -> tuple[GameState, Realm]:
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Henri", "Blue", "Durham")
    troops(s, "Berwick", "Blue", men_at_arms=1)
    s.cities["Durham"].building = "stronghold"
    return s, realm(s, script or {})


def test_faq_p4_f15_the_kings_will_for_a_price() -> None:
    """FAQ P4 F15 ("The King can give my Noble a Fiefdom Title but demands that I give him
    2 Shillings ... Can he do this? A: Yes"): the grant and the price are two lines, each
    on its own (no escrow, fief-email.md §4): William grants the Marches in Phase 4; Dave's
    standing `AT END IF Henri IS LORD OF Marches PLAY GIVE 2 SHILLINGS TO George` pays
    once the title is his (same city not needed: a pigeon; a 1 arrives)."""
    s, r = _will_board({"pigeon": [1]})
    s.cities["London"].building = "fortified"
    s.players["dave"].cash = 2
    give_orders(r, {"george": "GRANT Marches TO Henri",
                    "dave": "AT END IF Henri IS LORD OF Marches PLAY GIVE 2 SHILLINGS TO "
                            "George"})
    phases.store_standing(r)
    windows.open_window(r, "end")
    assert s.players["dave"].cash == 2
    economy.purchase_phase(r)
    windows.open_window(r, "end")
    assert s.nobles["henri"].titles == ["marches"]
    assert (s.players["dave"].cash, s.players["george"].cash) == (0, 2)


def test_faq_p4_f15_or_pay_the_stockpile_the_full_price() -> None:
    """FAQ P4 F15 ("If you do not want to pay him, you can always pay the full price for
    the Fiefdom Title to the money Stockpile"): Dave buys the Marches for 4."""
    s, r = _will_board()
    s.players["dave"].cash = 4
    give_orders(r, {"dave": "BUY TITLE Marches FOR Henri"})
    economy.purchase_phase(r)
    assert s.nobles["henri"].titles == ["marches"] and s.players["dave"].cash == 0


# -- Parliament (FE 9.2, Ex 9-2) ----------------------------------------------------------

def test_ex_9_2_the_burghers_three_votes_carry_the_royal_tax() -> None:
    """Ex 9-2 (FE 9.2, 11.2): "Dave's Vote Marker represents 4 Votes ... Lord Philippa ...
    adds 1 Vote, plus he activates his BURGHER Card which adds 3".  With George's 1 they
    make 5 of 8 (Kirsten's Archbishop 2 and Lord 1 against): passed; without the Burgher
    2 of 5 fails."""
    def run(burgher: bool) -> bool:
        s = board()
        noble(s, "William", "Red", "London", titles=["south-east"])
        s.sovereign = "william"
        noble(s, "Philippa", "Blue", "York", titles=["north"])
        noble(s, "Hugh", "Green", "York", clergy="york")
        noble(s, "Anabel", "Green", "Cardiff", titles=["wales"])
        s.players["dave"].slot = "Burgher (3 votes)"
        r = realm(s)
        vote = "PARLIAMENT FOR WITH BURGHER" if burgher else "PARLIAMENT FOR"
        give_orders(r, {"george": "CONVENE PARLIAMENT", "dave": vote})
        court.parliament_phase(r)
        tally = next(e for e in r.events if e.id == "parliament" and e.public)
        assert tally.args["total"] == (8 if burgher else 5)
        return s.parliament_rebellion
    assert run(True) and not run(False)


def test_reaction_is_an_order_of_its_own() -> None:
    """A reaction keeps its card order's JSON form (stored standing, fief-email.md §9)."""
    order = parse_line(_ctx(("Justice",)), "AT END IF Godfrey IS HERETIC PLAY JUSTICE Godfrey")
    assert isinstance(order, Reaction)
    assert order.play == {"family": None, "target": "Godfrey", "kind": "justice"}


# -- Passage: aiding invaders (FE 10.2) ---------------------------------------------------

def _raven_at_coventry(aid_by: str | None, walls: str = "stronghold") -> tuple[GameState, Realm]:
    s = board()
    noble(s, "Lucia", "Green", "Coventry")
    troops(s, "Coventry", "Green", men_at_arms=2)
    s.cities["Coventry"].building = walls
    s.invaders["Black Raven"] = invaders.InvaderArmy("Black Raven", "Coventry", True, 5)
    s.players["dave"].hand = ["Passage"]
    s.players["kirsten"].hand = ["Passage"]
    r = realm(s, [1] * 60)
    if aid_by:
        give_orders(r, {aid_by: "AID INVADERS AT Coventry WITH PASSAGE"})
    invaders._arrive(r, ["Black Raven"], "Coventry")
    return s, r


def _first_round_dice(r: Realm) -> int:
    first = next(e for e in r.events if e.id == "battle.round")
    return len(first.args["attacker_faces"])


def test_fe_10_2_a_passage_aids_the_invaders_against_a_stronghold() -> None:
    """FE 10.2 Aid Invaders ("A Player can help Invaders attacking other Players who are
    defending a Stronghold or Fortified City"): Dave's Passage shows the Black Raven (5 foot
    and a leader) the tunnels under Kirsten's Stronghold at Coventry: 3 melee dice instead
    of 2 (no Stronghold penalty, FE 7.4); the card is spent."""
    s, r = _raven_at_coventry("dave")
    assert _first_round_dice(r) == 3 and s.players["dave"].hand == []
    _, plain = _raven_at_coventry(None)
    assert _first_round_dice(plain) == 2


def test_fe_10_2_no_aid_against_oneself_nor_without_walls() -> None:
    """FE 10.2: the help is against "other Players ... defending a Stronghold or Fortified
    City": Kirsten's own line does nothing; before an open city no Passage is spent."""
    s, r = _raven_at_coventry("kirsten")
    assert _first_round_dice(r) == 2 and s.players["kirsten"].hand == ["Passage"]
    s, r = _raven_at_coventry("dave", walls="")
    assert s.players["dave"].hand == ["Passage"]


# -- through the engine -------------------------------------------------------------------

def _renders(r: Realm) -> None:
    render_all(TurnResult(r.s.to_dict(), tuple(r.events)))


def test_a_reaction_is_kept_on_the_sheet_and_fires_in_a_later_round() -> None:
    """fief-email.md §3.1 through the service's engine: the reaction written with Round 1's
    orders stands numbered on the order form; it fires at W14 of the round its condition
    first holds, and is gone from the next form."""
    state = mustered(4)
    player = state["seats"][0]
    fams = state["players"][player]["families"]
    target = sorted((n for n in state["nobles"].values() if n["family"] not in fams),
                    key=lambda n: n["key"])[0]
    state["players"][player]["hand"] = ["Justice"]
    line = f"AT END IF {target['name']} IS HERETIC PLAY JUSTICE {target['name']}"
    first = run(state, {player: line})
    assert f"#  1 {line}" in ENGINE.order_form(first.state, player, TABLES)
    assert first.state["nobles"][target["key"]]["status"] != "dead"
    later = json.loads(json.dumps(first.state))
    later["nobles"][target["key"]]["heresy"] = True
    later["cities"][later["nobles"][target["key"]]["city"]]["building"] = ""
    second = run(later, {})
    assert second.state["nobles"][target["key"]]["status"] == "dead"
    assert second.state["players"][player]["standing"] == []
    assert line not in ENGINE.order_form(second.state, player, TABLES)


def test_the_new_events_render() -> None:
    """Every event of the cards share renders on one line (gazette and sheets)."""
    s = board()
    alienor = noble(s, "Alienor", "Green", "York", retainer="Mata")
    noble(s, "Hugh", "Green", "York")
    lucia = noble(s, "Lucia", "Green", "Oxford", abbess=["Autumn"])
    r = realm(s)
    give_orders(r, {"kirsten": "RETAINER Mata FROM Alienor TO Hugh\nRELINQUISH Lucia\n"
                               "REBUILD ABBEY Autumn AT Winchester"})
    cards.play_phase(r)
    abbey.rebuild_phase(r)
    abbey.relinquish_phase(r)
    assert alienor.retainer is None and lucia.abbess == []
    _, aided = _raven_at_coventry("dave")
    r.events.extend(aided.events)
    _renders(r)
    assert {"retainer.passed", "abbey.rebuilt", "abbess.relinquished",
            "passage.tunnels"} <= {e.id for e in r.events}


def test_ex_10_5_the_ambush_written_in_advance() -> None:
    """Ex 10-5 (FE 10.5; fief-email.md §10.1 writes it as a reaction): Dave cannot see
    Kirsten's move coming, so he writes `AT BATTLES IF Edward AT Exeter PLAY AMBUSH Edward
    BY Henri`; Edward has moved into Exeter: at W11, before any battle, he is Henri's
    captive, Kirsten's troops fall back in fours to Winchester and Canterbury and the
    Bombard stays behind."""
    s = board()
    noble(s, "Henri", "Blue", "Exeter")
    troops(s, "Exeter", "Blue", men_at_arms=1)
    edward = noble(s, "Edward", "Green", "Exeter", titles=["wales"])
    troops(s, "Exeter", "Green", knight=2, men_at_arms=4, bombard=1)
    noble(s, "Lucia", "Green", "Winchester")
    noble(s, "Hugh", "Green", "Canterbury")
    s.players["dave"].hand = ["Ambush"]
    r = realm(s)
    give_orders(r, {"dave": "AT BATTLES IF Edward AT Exeter PLAY AMBUSH Edward BY Henri"})
    phases.store_standing(r)
    windows.open_window(r, "move")
    assert edward.free
    windows.open_window(r, "battles")
    assert edward.status == "captive" and edward.captor == "henri"
    assert s.cities["Exeter"].units_of("Green") == {"bombard": 1}
    assert s.cities["Winchester"].units_of("Green") == {"knight": 2, "men_at_arms": 2}
    assert s.cities["Canterbury"].units_of("Green") == {"men_at_arms": 2}


def test_fe_2_13_relinquished_before_the_marriages_she_may_marry() -> None:
    """FE 2.13 ("To marry ... an Abbess must ask ... permission to relinquish her Title"),
    9.0: the relinquishing runs before Phase 1A, so Lucia marries Henri the same round."""
    s, lucia = _abbess_board()
    noble(s, "Henri", "Blue", "Exeter")
    r = realm(s)
    give_orders(r, {"kirsten": "RELINQUISH Lucia\nMARRY Lucia TO Henri",
                    "dave": "PERMIT RELINQUISH Lucia\nMARRY Henri TO Lucia"})
    abbey.relinquish_phase(r)
    court.marriage_phase(r)
    assert lucia.spouse == "henri"
    titles = [p.name for p in phases.NEXT_ROUND_TABLE.ordered()]
    assert titles.index("Phase 1: Abbesses relinquish (FE 2.13)") < titles.index(
        "Phase 1A: marriages (FE 9.0)")


def test_fe_2_13_royal_moves_to_the_royal_abbey() -> None:
    """FE 2.13 Royal Moves ("the Royal Family, their Royal Guards, and both of their
    Families' Nobles (with NO Troops) can travel to the Royal Abbey from ANY City for a
    total cost of 2 moves"): King William rides from Durham to the Royal Abbey at Oxford;
    Dave's Henri, of no royal family, is refused; with no Royal Abbey on the map, refused."""
    s = board()
    noble(s, "William", "Red", "Durham", titles=["marches"])
    s.sovereign = "william"
    noble(s, "Lucia", "Red", "Oxford", abbess=["Autumn (Royal)"])
    s.cities["Oxford"].building, s.cities["Oxford"].abbey = "abbey", "Autumn (Royal)"
    noble(s, "Henri", "Blue", "Exeter")
    r = realm(s)
    give_orders(r, {"george": "ROYAL MOVE William TO ROYAL ABBEY",
                    "dave": "ROYAL MOVE Henri TO ROYAL ABBEY"})
    movement.movement_phase(r)
    assert s.nobles["william"].city == "Oxford" and s.nobles["henri"].city == "Exeter"
    assert refusals(r) == ["only the Royal Family and their families (FE 5.0)"]
    s.cities["Oxford"].abbey = "Autumn"
    r = realm(s)
    give_orders(r, {"george": "ROYAL MOVE Lucia TO ROYAL ABBEY"})
    movement.movement_phase(r)
    assert refusals(r) == ["there is no Royal Abbey"]
