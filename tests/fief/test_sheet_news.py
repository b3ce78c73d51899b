"""What happens to a player's nobles reaches his own sheet, not only the gazette."""

from __future__ import annotations

from moderator.games.base import Severity
from moderator.games.fief import cards, court, economy, movement
from moderator.games.fief.cards import play_phase
from moderator.games.fief.orders import parse_orders
from moderator.games.fief.views import names
from tests.fief.board import board, give_orders, noble, realm, refusals, troops
from tests.fief.conftest import TABLES, told


def test_fe_10_3_the_assassination_is_on_both_players_sheets() -> None:
    """FE 10.3, 4.8: found playing by mail: George's Assassination killed Kirsten's Edward,
    and neither turn sheet's "What happened to you" said so (only the gazette did).  The
    assassin's player is told his card was played, the victim's player that his noble
    died."""
    s = board()
    noble(s, "William", "Blue", "Norwich", titles=["midlands"])
    noble(s, "Lucia", "Green", "York")
    s.players["kirsten"].hand = ["Assassination"]
    r = realm(s)
    give_orders(r, {"kirsten": "ASSASSINATE William BY Lucia"})
    play_phase(r)
    victim = s.player_of("Blue")
    assert victim != "kirsten"
    assert [e.id for e in r.events if e.actor == "kirsten"] == ["assassination"]
    assert "noble.slain" in [e.id for e in r.events if e.actor == victim]
    assert all(e.public for e in r.events if e.id in ("assassination", "noble.slain"))


def test_fe_13_2_a_draw_excalibur_refused_is_told_once_not_twice() -> None:
    """FE 13.2: `DRAW EXCALIBUR` is tried after the moves and again after the battles.
    Found playing by mail: a noble away from the sword had "Not done: DRAW EXCALIBUR
    Arthur: Excalibur is not at Oxford" twice on his sheet; and a noble who drew it in
    Phase 5 would be told in Phase 7 that Excalibur is not in his city."""
    from moderator.games.fief import excalibur

    s = board()
    noble(s, "William", "Blue", "Oxford")
    s.excalibur_city = "Winchester"
    r = realm(s)
    give_orders(r, {"dave": "DRAW EXCALIBUR William"})
    excalibur.attempts(r, "Phase 5")
    excalibur.attempts(r, "Phase 7")
    assert refusals(r) == ["Excalibur is not at Oxford"]

    s = board()
    noble(s, "William", "Blue", "Coventry")
    s.excalibur_city = "Coventry"
    r = realm(s, {"excalibur": [6]})
    give_orders(r, {"dave": "DRAW EXCALIBUR William"})
    excalibur.attempts(r, "Phase 5")
    excalibur.attempts(r, "Phase 7")
    assert s.excalibur_holder == "william" and refusals(r) == []


def test_fe_10_4_justice_on_a_dead_noble_says_he_is_dead() -> None:
    """FE 10.4.  Found playing by mail: `AT END JUSTICE Anabel` when Anabel, who bore the
    Heresy marker, had died in battle that round was refused with "Justice strikes only a
    noble bearing the Heresy marker", which reads as if she had never borne it."""
    from moderator.games.fief.cards import intrigue
    from moderator.games.fief.orders.values import Justice

    s = board()
    noble(s, "William", "Blue", "Norwich", heresy=True)
    s.nobles["william"].status = "dead"
    s.players["kirsten"].hand = ["Justice"]
    r = realm(s)
    intrigue.justice(r, "kirsten", Justice(target="William"))
    assert refusals(r) == ["William is dead"]
    assert s.players["kirsten"].hand == ["Justice"]


def test_fe_4_2_4_3_a_building_and_a_title_bought_are_on_the_buyers_sheet() -> None:
    """FE 4.2, 4.3.  Found playing by mail: Kirsten built a Stronghold at Durham and
    bought the Barony of the Marches; the gazette said so, her own sheet's "What
    happened to you" did not (while her troops bought were there)."""
    from moderator.games.fief import economy
    from tests.fief.board import troops

    s = board()
    noble(s, "William", "Blue", "Durham")
    troops(s, "Durham", "Blue", men_at_arms=1)
    troops(s, "Berwick", "Blue", men_at_arms=1)
    buyer = s.player_of("Blue")
    s.players[buyer].cash = 20
    r = realm(s)
    give_orders(r, {buyer: "BUILD STRONGHOLD AT Durham\nBUY TITLE Marches FOR William"})
    economy.purchase_phase(r)
    assert refusals(r) == []
    mine = [e.id for e in r.events if e.actor == buyer]
    assert "built" in mine and "title.bought" in mine


def test_fe_9_1_a_dead_nobles_standing_candidacy_is_dropped() -> None:
    """FE 9.1 (a candidate is a living Lord), 4.8.  Found playing by mail: after Edward's
    assassination Kirsten's sheet still listed "2: CANDIDATE Edward" among her standing
    orders, round after round."""
    s = board()
    noble(s, "William", "Blue", "Norwich", titles=["midlands"])
    player = s.player_of("Blue")
    s.players[player].standing = [{"kind": "allow", "who": "ANYONE"},
                                  {"kind": "candidate", "lord": "William"}]
    s.candidates = ["william"]
    r = realm(s)
    r.kill(s.nobles["william"], "battle")
    assert s.players[player].standing == [{"kind": "allow", "who": "ANYONE"}]
    assert s.candidates == []


def test_fe_4_0_a_purchase_where_you_arrive_this_round_says_purchases_come_first() -> None:
    """FE 4.0, 4.2 (Phase 4 before Phase 5).  Found playing by mail: Cid moved Simon to
    Durham and wrote `BUILD STRONGHOLD AT Durham`; "you do not control Durham" did not
    say why, as he would by the end of the round."""
    from moderator.games.fief.economy import purchase_phase

    r = realm(board())
    noble(r.s, "Simon", "Blue", "York")
    give_orders(r, {"dave": "MOVE Simon: York - Durham\nBUILD STRONGHOLD AT Durham\n"
                            "BUY 1 KNIGHT AT Durham"})
    purchase_phase(r)
    assert refusals(r) == [
        "you do not control Durham in Phase 4, before this round's moves (FE 4.2)",
        "you do not control Durham in Phase 4, before this round's moves (FE 4.0)"]


def test_fe_10_2_passage_free_for_a_dead_noble_says_he_is_dead() -> None:
    """FE 10.2.  Found playing by mail: `PASSAGE FREE Edward`, Edward slain the round
    before, was refused with "Edward is no captive", as if he were free somewhere."""
    from moderator.games.fief.cards import intrigue
    from moderator.games.fief.orders.values import Escape

    s = board()
    noble(s, "Edward", "Green", "Oxford").status = "dead"
    s.players["dave"].hand = ["Passage"]
    r = realm(s)
    intrigue.escape(r, "dave", Escape(captive="Edward"))
    intrigue.escape(r, "dave", Escape(captive="Lucia"))
    assert refusals(r) == ["Edward is dead", "Lucia is not in play"]
    assert s.players["dave"].hand == ["Passage"]


def test_fe_2_13_a_refused_abbess_quotes_the_whole_line() -> None:
    """FE 2.13, 4.2.  Found playing by mail: "Not done: “PLAY ABBESS ON Margery”: Cardiff
    already has a building" (the line's "AT Cardiff" dropped from the quote)."""
    from moderator.games.fief.cards import play_phase

    s = board()
    noble(s, "Margery", "Blue", "Cardiff")
    s.cities["Cardiff"].building = "stronghold"
    s.players["dave"].hand = ["Abbess"]
    r = realm(s)
    give_orders(r, {"dave": "PLAY ABBESS ON Margery AT Cardiff"})
    play_phase(r)
    assert [e.args["order"] for e in r.events if e.id == "order.refused"] == [
        "PLAY ABBESS ON Margery AT Cardiff"]


def test_fe_5_1_the_ride_is_told_before_the_city_it_wins() -> None:
    """FE 5.1.  Found playing by mail (and in the golden gazettes): "Green (Bob) now
    holds Oxford." was printed before "Robert of Green (Bob) rides London - Oxford"."""
    from moderator.games.fief.movement import movement_phase

    r = realm(board())
    noble(r.s, "Robert", "Green", "London")
    give_orders(r, {"kirsten": "MOVE Robert: London - Oxford"})
    movement_phase(r)
    assert [e.id for e in r.events if e.id in ("moved", "city.taken")] == ["moved",
                                                                            "city.taken"]


def test_fe_13_4_the_bandits_toll_is_on_the_movers_sheet_with_its_price() -> None:
    """FE 13.4.  Found playing by mail: Dave's Matilda was stopped in Sherwood and paid;
    the gazette said "Green (Dave) buys free Matilda" with no price, and Dave's own sheet
    said nothing (his Shillings were two short)."""
    s = board()
    noble(s, "Hugh", "Green", "York", titles=["north"])
    noble(s, "Lucia", "Green", "York")
    noble(s, "Simon", "Green", "York")
    s.players["kirsten"].cash = 6
    r = realm(s, {"bandits": [2, 1]})
    give_orders(r, {"kirsten": "MOVE Hugh, Lucia: York ~ Lincoln\nMOVE Simon: York ~ Lincoln"})
    movement.movement_phase(r)
    names = {"Green": "Green (Kirsten)", "hugh": "Hugh", "lucia": "Lucia", "simon": "Simon"}
    assert told([e.to_dict() for e in r.events], "bandits", names) == [
        ("kirsten", True, "BANDITS in Sherwood (rolled 2): Green (Kirsten) pays the outlaws "
                          "6 Shillings for Hugh and Lucia."),
        ("kirsten", True, "BANDITS in Sherwood (rolled 1): Green (Kirsten) loses Simon to "
                          "the outlaws, held for ransom (FE 13.4).")]


def test_fe_10_1_the_rebels_player_is_told_and_named() -> None:
    """FE 10.1, 9.3.  Found playing by mail: Kirsten's `REBELLION AT York` after the Royal
    Tax read on the gazette "REBELLION at York (2 of 2 held off by its walls): the walls
    hold."; her sheet said nothing, her card gone, and no one learned whose it was."""
    s = board()
    noble(s, "Lucia", "Green", "Coventry")
    troops(s, "Coventry", "Green", men_at_arms=5)
    s.cities["Coventry"].building = "fortified"
    s.parliament_rebellion = True
    s.players["george"].hand = ["Rebellion"]
    r = realm(s)
    give_orders(r, {"george": "REBELLION AT Coventry"})
    play_phase(r)
    assert told([e.to_dict() for e in r.events], "rebellion", {"george": "George"}) == [
        ("george", True, "George raises a REBELLION at Coventry (2 Rebellions, the Royal "
                         "Tax's among them; its walls cancel 2, FE 10.1): the walls hold.")]


def test_fe_13_8_a_marriage_at_three_is_refused_on_the_receipt_in_plain_names() -> None:
    """FE 13.8.  Found playing by mail (three players): `MARRY Godfrey TO Joan` was read
    back with no word, and the sheet said "No marriage of godfrey to Joan" (the key of a
    noble not in play)."""
    s = board(("Red", "Green", "Blue"))
    noble(s, "Joan", "Blue", "London")
    parsed = parse_orders("MARRY Godfrey TO Joan\n", s.to_dict(), "kirsten", TABLES)
    assert [(e.line, e.message, e.severity) for e in parsed.errors] == [
        (1, "no marriages in the three-player game (FE 13.8)", Severity.ERROR)]
    assert parsed.normal_form == ()
    event = {"id": "marriage.mismatch", "actor": "kirsten", "public": False,
             "args": {"noble": "Godfrey", "to": "Joan", "reason": "no such living noble"}}
    assert told([event], "marriage.mismatch", {"joan": "Joan"}) == [
        ("kirsten", False, "No marriage of Godfrey to Joan: no such living noble.")]


def test_fe_9_2_the_gazette_shows_each_familys_parliament_vote_and_strength() -> None:
    """FE 9.2, fief-email.md §7.1: the Parliament line gave only totals ("3 votes of 4");
    the markers are revealed, so the gazette names each family's vote and its strength."""
    s = board()
    noble(s, "William", "Red", "London", titles=["south-east"])
    s.sovereign = "william"
    noble(s, "Hugh", "Green", "York", clergy="york")          # 2 votes
    noble(s, "Henri", "Blue", "Exeter", titles=["south-west"])  # 1 vote
    r = realm(s)
    give_orders(r, {"george": "CONVENE PARLIAMENT", "kirsten": "PARLIAMENT FOR"})
    court.parliament_phase(r)
    table = names(s, TABLES)
    [(_, public, line)] = [t for t in told([e.to_dict() for e in r.events], "parliament", table)
                           if t[1]]
    red, green, blue = (table[s.player_of(c)] for c in ("Red", "Green", "Blue"))
    assert public and f"{red} FOR with 1 vote" in line and f"{green} FOR with 2 votes" in line
    assert f"{blue} AGAINST with 1 vote" in line and "(3 votes of 4: " in line


def test_fe_2_4_the_player_who_turned_up_a_disaster_reads_which_on_his_sheet() -> None:
    """FE 2.3-2.4: found in the golden game's muster: Dan turned up a red card, and his
    sheet said nothing of it, nor which Disaster it proved to be; only the gazette told
    "STORMS falls on the South East".  The drawer's sheet now has both lines, and the
    gazette names who turned each Disaster up (a duplicate too)."""
    s = board(round_=2)
    s.fortune_deck = ["Storms", "Storms", "Passage", "Justice"]
    r = realm(s, {"disaster": [6, 6]})
    give_orders(r, {"dave": "DRAW FORTUNE"})
    cards.draw_phase(r)
    cards.disasters_phase(r)
    table = names(s, TABLES)
    mine = [e.id for e in r.events if e.actor == "dave"]
    assert mine.count("disaster.tracked") == 2 and "disaster.placed" in mine
    assert "disaster.duplicate" in mine
    [(_, public, line)] = told([e.to_dict() for e in r.events], "disaster.placed", table)
    assert public and line.startswith(f"STORMS, turned up by {table['dave']}, falls on ")
    [(_, _, again)] = told([e.to_dict() for e in r.events], "disaster.duplicate", table)
    assert again.startswith(f"A second STORMS, turned up by {table['dave']}, falls on ")


def test_fe_13_4_a_safe_road_through_sherwood_is_told_on_the_movers_sheet() -> None:
    """FE 13.4.  Found playing a game by mail: Dave's Godfrey rode York ~ Lincoln; his
    sheet's "Your dice" read "the road through Sherwood: 1d6 = 6" and nothing said what
    the die was for.  The roll that lets him pass is told on his sheet only."""
    s = board()
    noble(s, "Hugh", "Green", "York")
    r = realm(s, {"bandits": [6]})
    give_orders(r, {"kirsten": "MOVE Hugh: York ~ Lincoln"})
    movement.movement_phase(r)
    names = {"Green": "Green (Kirsten)", "hugh": "Hugh"}
    assert told([e.to_dict() for e in r.events], "bandits", names) == [
        ("kirsten", False, "Through Sherwood from York (rolled 6): the outlaws strike only "
                           "on 1 or 2 (FE 13.4), and let Green (Kirsten) pass.")]
    assert s.nobles["hugh"].city == "Lincoln"


def test_fe_11_1_a_hire_without_a_mercenary_card_in_play_names_the_one_in_hand() -> None:
    """FE 11.1.  Found playing a game by mail: Lucy wrote `HIRE 2 CROSSBOWMEN AT London`
    holding Flemish Crossbowmen, and was told only "you have no Mercenary card in play"."""
    s = board()
    noble(s, "Hugh", "Green", "York")
    s.cities["York"].holder = "Green"
    s.players["kirsten"].cash = 9
    s.players["kirsten"].hand = ["Flemish Crossbowmen"]
    r = realm(s)
    give_orders(r, {"kirsten": "HIRE 2 CROSSBOWMEN AT York"})
    economy.purchase_phase(r)
    assert refusals(r) == [
        "you have no Mercenary card in play (FE 11.1): PLAY FLEMISH CROSSBOWMEN in the same "
        "orders puts it in play first"]
