"""The order language: parse and format are a pair; every error has its line and a hint."""

from __future__ import annotations

from moderator.games.fief import ENGINE
from moderator.games.fief.orders import context, format_order
from moderator.games.fief.orders.parse import parse_text
from tests.fief.conftest import TABLES, mustered

LINES = (
    "DISCARD Tax",
    "DRAW FORTUNE THEN CHARACTER",
    "DRAW FORTUNE DISASTERS AT MOST 1",
    "DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE",
    "DRAW CHARACTER THEN FORTUNE IF FIRST IS NOBLE ELSE CHARACTER DISASTERS AT MOST 1",
    "DRAW NONE",
    "PLAY GOOD WEATHER ON North",
    "PLAY TAX ON Marches",
    "SCORCH London, York",
    "BUY 2 KNIGHTS AT King's Lynn",
    "BUILD MILL AT London",
    "BUILD STRONGHOLD AT York",
    "BUY TITLE Midlands FOR Lucia",
    "MOVE Lucia, Hugh WITH 2 KNIGHTS, 1 MAN-AT-ARMS: Winchester - Canterbury LEAVE 1 KNIGHT"
    " - London IF DENIED RETURN",
    "MOVE Hugh: Whitby = Sea V = King's Lynn - Coventry",
    "MOVE Hugh: Whitby = Sea V = Sea VI = London",
    "ALLOW ANYONE TO PASS AT Oxford",
    "ATTACK Lincoln AGAINST bob",
    "MARRY Lucia TO Hugh",
    "CANDIDATE Lucia",
    "VOTE Lucia, Hugh",
    "DECOY Lucia",
    "DANEGELD AT Whitby BY Hugh",
    "WITHDRAW 2",
    "START Durham, York",
    "PLAY TAX TITHE ON Exeter",
    "JUSTICE Lucia",
    "AMBUSH Lucia BY Hugh",
    "PASSAGE FREE Hugh",
    "REBELLION AT London",
    "PILLAGE Oxford MILL",
    "PILLAGE Oxford ABBEY BY Hugh",
    "GRANT Wales TO Hugh",
    "TRANSFER Marches TO Lucia",
    "PRESENT Holy Grail BY Hugh",
    "CONVENE PARLIAMENT SHARES bob 4",
    "PARLIAMENT FOR WITH BURGHER",
    "LOSSES KNIGHT, MAN-AT-ARMS",
    "DRAW EXCALIBUR Hugh",
    "GIVE 3 SHILLINGS AND Tax TO bob",
    "GIVE Tax TO bob",
    "HIRE 2 CROSSBOWMEN AT York",
    "GARTER FIRST",
    "SIEGE London",
    "BUILD 2 TREBUCHETS AT London",
    "LIFT SIEGE AT London",
    "INTERVENE AT York BY Hugh",
    "AMBUSH LEADER AT York BY Hugh",
    "ASSASSINATE LEADER AT York",
    "QUELL PRAY",
    "MOVE Hugh WITH 1 KNIGHT: York ~ King's Lynn - Norwich IF DENIED CAVALCADE",
    "PLAY FRENCH CROSSBOWMEN",
    "REBELLION AT Norwich WITH PASSAGE AND BURGHER REBELLION",
    "BURGHER REBELLION AT Norwich WITH BURGHER PASSAGE AND REBELLION",
    "IF ANYONE REBELS Norwich THEN PLAY REBELLION",
    "IF AN OPPONENT REBELS ANY THEN PLAY BURGHER PASSAGE",
    "ATTACK Lincoln AGAINST bob WITH PASSAGE",
    "ATTACK Lincoln WITH PASSAGE",
    "AT DISCARD PASSAGE FREE Hugh",
    "RED: AT DISCARD JUSTICE Lucia",
    "INTERDICT Hugh",
)


def _state() -> dict[str, object]:
    state = mustered(4)
    state["players"]["ann"]["hand"] = ["Tax", "Good Weather", "Justice", "Ambush",  # type: ignore[index]
                                       "Passage", "Rebellion", "Assassination",
                                       "French Crossbowmen"]
    return state


def round_trip(lines: tuple[str, ...]) -> None:
    """Each line parses without error, formats back to itself, and reparses the same."""
    state = _state()
    ctx = context(state, "ann", TABLES)  # type: ignore[arg-type]
    orders, errors = parse_text(ctx, "\n".join(lines))
    assert errors == []
    assert [format_order(TABLES, o) for _, o in orders] == list(lines)
    again, _ = parse_text(ctx, "\n".join(format_order(TABLES, o) for _, o in orders))
    assert [o for _, o in again] == [o for _, o in orders]


def test_every_order_reads_back_in_normal_form_and_parses_to_the_same_value() -> None:
    round_trip(LINES)


def test_names_match_loosely() -> None:
    state = _state()
    p = ENGINE.parse_orders("buy 2 knights at kings lynn\nmove lucia: york - whitby\n"
                            "play good weather on iv", state, "ann", TABLES)  # type: ignore[arg-type]
    assert p.normal_form == ("BUY 2 KNIGHTS AT King's Lynn", "MOVE Lucia: York - Whitby",
                             "PLAY GOOD WEATHER ON North")


def test_every_bad_line_is_reported_with_its_number_and_a_hint() -> None:
    state = _state()
    text = ("PASSWORD: x\nBUY 2 KNIGHT AT Atlantis\nFLY AWAY\nBUY two KNIGHT AT York\n"
            "PLAY ASSASSINATION\nMOVE Lucia York - Whitby\nDISCARD Excalibur\n# a comment\n"
            "BUY 1 CROSSBOWMAN AT York\nRED: BUY 1 KNIGHT AT York\nGREEN: BUY 1 KNIGHT AT York\n")
    p = ENGINE.parse_orders(text, state, "ann", TABLES)  # type: ignore[arg-type]
    assert [e.line for e in p.errors] == [2, 3, 4, 5, 6, 7, 9, 11]
    assert all(e.hint for e in p.errors[:6]), p.errors
    assert p.normal_form == ("RED: BUY 1 KNIGHT AT York",)


def test_a_card_not_in_the_hand_is_refused_by_the_parser() -> None:
    state = _state()
    p = ENGINE.parse_orders("PLAY BOUNTIFUL HARVEST ON Wales\nPLAY NOBLE Lucia AT York",
                            state, "ann", TABLES)  # type: ignore[arg-type]
    assert len(p.hard_errors) == 2


def test_a_move_along_no_road_is_refused_on_the_receipt_with_the_roads_there() -> None:
    """FE 5.0: a noble moves along the roads of the map; York and Lincoln have no road
    between them, only a Sherwood bandit path (FE 13.4).  The map is known when the
    orders are read, so the receipt says so at once (the player can still correct it)
    instead of the turn sheet saying afterwards "no road from York to Lincoln"."""
    p = ENGINE.parse_orders("MOVE Lucia WITH 1 KNIGHT: York - Lincoln\n"
                            "MOVE Hugh: London - York",
                            _state(), "ann", TABLES)  # type: ignore[arg-type]
    assert [e.line for e in p.hard_errors] == [1, 2]
    york, london = p.hard_errors
    assert york.message == "no road from York to Lincoln (FE 5.0)"
    assert york.hint is not None and "Whitby" in york.hint and "York ~ Lincoln" in york.hint
    assert london.hint is not None and "Oxford" in london.hint
    assert "~" not in london.hint      # London is on no bandit path


def test_an_order_out_of_the_muster_window_is_flagged_on_the_receipt() -> None:
    """Setup, FE 1.0: the muster founds the families and plays Round 1's draws (FE 2.0)
    and nothing else, so a BUY written then does nothing; START is read only at the
    muster.  Found playing by mail: both were read back as accepted and then silently
    ignored.  The receipt now warns (the line still stands, it only does nothing)."""
    from moderator.games.base import Severity
    from tests.fief.conftest import signed_up

    muster = ENGINE.parse_orders("START York\nBUY 1 KNIGHT AT York\nDRAW FORTUNE\n"
                                 "ALLOW ANYONE TO PASS", signed_up(4), "ann", TABLES)  # type: ignore[arg-type]
    assert [(e.line, e.severity) for e in muster.errors] == [(2, Severity.WARNING)]
    assert "muster" in muster.errors[0].message
    later = ENGINE.parse_orders("START York\nBUY 1 KNIGHT AT York", _state(), "ann", TABLES)  # type: ignore[arg-type]
    assert [(e.line, e.severity) for e in later.errors] == [(1, Severity.WARNING)]
    assert later.hard_errors == ()
    assert len(later.normal_form) == 2


def test_players_are_read_back_by_their_names_not_their_keys() -> None:
    """Found playing by mail: 'ALLOW Kirsten TO PASS' (FE 5.0) was read back on the
    receipt and the sheet's standing orders as 'ALLOW kirsten TO PASS', the player's key
    (made from the mail address, so it may be anything); the name is what players write."""
    state = _state()
    state["players"]["bob"]["name"] = "Robert of Kent"  # type: ignore[index]
    p = ENGINE.parse_orders("ALLOW robert of kent TO PASS\nATTACK Lincoln AGAINST bob\n"
                            "GIVE 3 SHILLINGS TO Robert of Kent\nALLOW ANYONE TO ENTER\n"
                            "AT END IF Hugh IS LORD OF Marches PLAY GIVE 2 SHILLINGS TO bob",
                            state, "ann", TABLES)  # type: ignore[arg-type]
    assert p.normal_form == ("ALLOW Robert of Kent TO PASS",
                             "ATTACK Lincoln AGAINST Robert of Kent",
                             "GIVE 3 SHILLINGS TO Robert of Kent", "ALLOW ANYONE TO ENTER",
                             "AT END IF Hugh IS LORD OF Marches PLAY GIVE 2 SHILLINGS TO "
                             "Robert of Kent")
    again = ENGINE.parse_orders("\n".join(p.normal_form), state, "ann", TABLES)  # type: ignore[arg-type]
    assert again.orders == p.orders
    from moderator.games.fief.state import GameState
    from moderator.games.fief.views.context import sheet

    game = GameState.from_dict(state)
    game.players["ann"].standing = [p.orders["orders"][0]]
    assert sheet(game, TABLES, "ann")["standing"][0]["text"] == "ALLOW Robert of Kent TO PASS"
    assert "#  1 ALLOW Robert of Kent TO PASS" in ENGINE.order_form(game.to_dict(), "ann", TABLES)


def test_two_character_draws_are_refused_on_the_receipt_but_at_two_players() -> None:
    """FE 2.0: "They may never draw two Character Cards" (two of four in the two-player
    game, FE 13.7).  Found playing by mail: 'DRAW CHARACTER THEN CHARACTER' was accepted
    on the receipt and only the sheet said the second draw was refused."""
    from tests.fief.conftest import mustered

    three = ENGINE.parse_orders("DRAW CHARACTER THEN CHARACTER\n"
                                "DRAW FORTUNE THEN FORTUNE THEN FORTUNE",
                                mustered(3), "ann", TABLES)  # type: ignore[arg-type]
    assert [e.line for e in three.hard_errors] == [1, 2]
    assert "FE 2.0" in three.hard_errors[0].message
    two = ENGINE.parse_orders("DRAW CHARACTER THEN FORTUNE THEN CHARACTER",
                              mustered(2), "ann", TABLES)  # type: ignore[arg-type]
    assert two.hard_errors == ()


def test_losses_reads_a_first_and_its_error_names_the_troops_it_takes() -> None:
    """FE 7.5.  Found playing by mail: `LOSSES ARCHER FIRST` was refused with "no troop
    called 'ARCHER FIRST'" and a hint listing BOMBARD and TREBUCHET, which LOSSES
    refuses."""
    state = _state()
    p = ENGINE.parse_orders("LOSSES ARCHER FIRST\nLOSSES ARCHER THEN KNIGHT\n", state, "ann",
                            TABLES)  # type: ignore[arg-type]
    assert p.normal_form == ("LOSSES ARCHER",)
    (error,) = p.errors
    assert error.line == 2 and error.message.startswith("LOSSES lists troops: KNIGHT,")
    assert error.hint is not None and "BOMBARD" not in error.hint


def test_play_before_an_opportunity_card_names_its_own_order() -> None:
    """FE 10.0.  Found playing by mail: `PLAY REBELLION ON London` was refused with a
    hint listing PLAY NOBLE, GOOD WEATHER, TAX, ABBESS and BISHOP, none of them the way
    to play a Rebellion."""
    p = ENGINE.parse_orders("PLAY REBELLION ON London\nPLAY JUSTICE ON Lucia\n", _state(),
                            "ann", TABLES)  # type: ignore[arg-type]
    assert [(e.message, e.hint) for e in p.errors] == [
        ("Rebellion is played by its own order, without PLAY (FE 10.0)", "REBELLION AT <city>"),
        ("Justice is played by its own order, without PLAY (FE 10.0)", "JUSTICE <noble>")]


def test_a_new_players_natural_lines_read_or_say_how_to_write_them() -> None:
    """FE 9.1, 7.0, 2.15.  Found playing by mail: `VOTE FOR Simon` ("no noble called 'FOR
    Simon'"), `ATTACK Bristol WITH Margery` ("no city called 'Bristol WITH Margery'"),
    `GIVE 2 TO Bob` ("no card in your hand called '2'")."""
    p = ENGINE.parse_orders("VOTE FOR Lucia, Hugh\nATTACK York WITH Lucia\nGIVE 2 TO Ann\n",
                            _state(), "ann", TABLES)  # type: ignore[arg-type]
    assert p.normal_form == ("VOTE Lucia, Hugh",)
    assert [(e.line, e.hint) for e in p.errors] == [
        (2, "ATTACK <city> [AGAINST <player>] [WITH PASSAGE]"),
        (3, "GIVE 2 SHILLINGS TO Dave")]
    assert p.errors[0].message.startswith("ATTACK names the city only")


def test_a_path_written_with_to_says_how_places_are_joined() -> None:
    """FE 5.0.  Found playing by mail: `MOVE Lucia: York to Whitby` read "a path needs at
    least two places", which it had."""
    p = ENGINE.parse_orders("MOVE Lucia: York to Whitby\n", _state(), "ann",
                            TABLES)  # type: ignore[arg-type]
    assert "joined by ' - ' (a road)" in p.errors[0].message


def test_abstain_says_what_to_write_instead() -> None:
    """FAQ P1.  Found playing by mail: a player who read the rulebook wrote `ABSTAIN`
    and got "unknown order"; `DECOY` is an order (FE 9.1, tests/fief/test_decoy.py)."""
    p = ENGINE.parse_orders("ABSTAIN\n", _state(), "ann", TABLES)  # type: ignore[arg-type]
    assert [e.message.split(":")[0] for e in p.errors] == [
        "to abstain, write no VOTE (FAQ P1)"]


def test_a_player_is_named_by_name_or_family_and_parliament_decoy_is_against() -> None:
    """FE 9.2 ("either a FOR or DECOY (against) Vote Marker"); the gazette writes "Green
    (Bob)".  Found playing by mail: `PARLIAMENT DECOY` and `ATTACK Lincoln AGAINST Green`
    were refused, and the hint for an unknown player listed the internal keys ("ann,
    bob") beside the names."""
    p = ENGINE.parse_orders("PARLIAMENT DECOY\nATTACK Lincoln AGAINST Green\n"
                            "ALLOW Zed TO PASS\n", _state(), "ann",
                            TABLES)  # type: ignore[arg-type]
    assert p.normal_form == ("PARLIAMENT AGAINST", "ATTACK Lincoln AGAINST Bob")
    assert [(e.line, e.message, e.hint) for e in p.errors] == [
        (3, "no player called 'Zed'",
         "a player: Ann, Bob, Cid, Dan or a family: Blue, Green, Red, Yellow")]


def test_an_unknown_noble_is_answered_with_the_nobles_a_player_could_mean() -> None:
    """Found playing by mail: a misspelt noble was answered with all 20 nobles of the
    Character deck (FE 1.0), most never in play.  A near spelling is offered; else the
    player's own nobles and the others in play."""
    state = _state()
    in_play = sorted(str(n["name"]) for n in state["nobles"].values())  # type: ignore[attr-defined]
    mine = sorted(str(n["name"]) for n in state["nobles"].values()  # type: ignore[attr-defined]
                  if n["family"] in state["players"]["ann"]["families"])  # type: ignore[index]
    near = ENGINE.parse_orders(f"MOVE {mine[0][:-1]}x: York - Whitby", state, "ann", TABLES)  # type: ignore[arg-type]
    assert near.errors[0].hint == f"did you mean {mine[0]}?"
    far = ENGINE.parse_orders("MOVE Zebedee: York - Whitby", state, "ann", TABLES)  # type: ignore[arg-type]
    others = [n for n in in_play if n not in mine]
    assert far.errors[0].hint == (f"your nobles: {', '.join(mine)}; "
                                  f"the others in play: {', '.join(others)}")
    assert len(in_play) < len(TABLES.nobles)


def test_a_noble_card_for_a_full_family_is_flagged_on_the_receipt() -> None:
    """FE 2.11: a family has at most 3 nobles.  Found playing a game by mail: Dave's
    `PLAY NOBLE Hugh`, his family at 3 nobles, was read back with no word and refused a
    turn later on the sheet."""
    state = _state()
    red = [n for n in state["nobles"].values() if n["family"] == "Red"]  # type: ignore[attr-defined]
    spare = next(c.name for c in TABLES.nobles if c.key not in state["nobles"])  # type: ignore[operator]
    third = next(c for c in TABLES.nobles if c.key not in state["nobles"] and c.name != spare)  # type: ignore[operator]
    state["nobles"][third.key] = {**red[0], "key": third.key, "name": third.name}  # type: ignore[index]
    state["players"]["ann"]["hand"] = [f"Noble {spare}"]  # type: ignore[index]
    p = ENGINE.parse_orders(f"PLAY NOBLE {spare} AT London", state, "ann", TABLES)  # type: ignore[arg-type]
    assert [(e.severity.value, e.message) for e in p.errors] == [
        ("warning", "as things stand, the Red family has 3 nobles, the most a family has "
                    "(FE 2.11)")]
    assert p.normal_form == (f"PLAY NOBLE {spare} AT London",)
