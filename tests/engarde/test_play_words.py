"""Words a new player met by mail that read wrongly (a play-through of the Elan variant):
the SL floor (EG §E), the article before a house type (EG §P), the source of a favour on
the turn sheet's summary (EG §S)."""

from __future__ import annotations

from tests.engarde.conftest import make_char, make_state
from tests.engarde.test_sheet_words import _month
from tests.engarde.test_templates_purity import ENGINE, ENV, _contexts, _run

EVENTS = ENV.get_template("engarde/events.md.j2").module
NAMES = {"pierre": "Pierre"}


def _line(macro: str, args: dict[str, object]) -> str:
    event = {"id": macro.replace("_", ".", 1), "actor": "pierre", "args": args}
    return str(getattr(EVENTS, macro)(event, NAMES)).strip()


def test_a_man_at_the_lowest_sl_does_not_fall_to_it() -> None:
    """EG §E: failing to hold loses one SL, but there is none below the lowest: at SL 1
    he stays at SL 1, and the line must not say he falls to it."""
    line = _line("status_fell", {"sl_before": 1, "sl_after": 1, "sp": -2, "hold": 1})
    assert "falls" not in line
    assert line == "Pierre stays at SL 1, the lowest (-2 SP; 1 needed to hold)."


def test_a_real_fall_still_reads_as_a_fall() -> None:
    line = _line("status_fell", {"sl_before": 4, "sl_after": 3, "sp": 0, "hold": 4})
    assert line == "Pierre falls to SL 3 (0 SP; 4 needed to hold)."


def test_an_apartment_takes_an() -> None:
    """EG §P housing types: 'an Apartment', 'a Town House'."""
    for macro in ("housing_rented", "housing_bought", "housing_sold"):
        line = _line(macro, {"house": "Apartment", "area": "Belleville"})
        assert " an Apartment in Belleville" in line, line
    assert _line("housing_sp", {"house": "Apartment", "area": "Passy"}) == \
        "Living in an Apartment in Passy."
    assert _line("housing_sp", {"house": "Town House", "area": "Passy"}) == \
        "Living in a Town House in Passy."



def test_the_summary_names_where_a_favour_came_from_in_words() -> None:
    """EG §S, Influence table B: the summary said 'class 2 (sl, ...)', the engine's code."""
    state, result = _run()
    game = {"name": "Paris 1625", "kind": "engarde", "title": "En Garde!"}
    turn = {"number": 1, "label": ENGINE.turn_label(state)}
    contexts = _contexts(state, result)
    held = [k for k, c in result.state["characters"].items()
            if any(f["source"] == "sl" for f in c.get("favours", ()))]
    assert held  # the sample month grants a favour for SL (Table B)
    for key in held:
        sheet = ENV.get_template("engarde/turnsheet.md.j2").render(
            game=game, turn=turn, next_deadline=None, character=key,
            events=[e.to_dict() for e in result.events if e.actor == key], dice=[],
            order_form="", ctx=contexts.sheets[key])
        favours = next(line for line in sheet.splitlines() if line.startswith("- Favours:"))
        assert "(your standing, until the end of" in favours, favours


def test_a_dead_man_gets_no_order_form() -> None:
    """Reference §5.4: the dead are out of the game.  Found by mail: Pierre fell at the front
    and his sheet still ended with 'Orders for next month' and a form for August."""
    state, result = _run()
    game = {"name": "Paris 1625", "kind": "engarde", "title": "En Garde!"}
    turn = {"number": 1, "label": ENGINE.turn_label(state)}
    ctx = _contexts(state, result).sheets["jacques"]
    ctx["army"]["dead"] = True
    sheet = ENV.get_template("engarde/turnsheet.md.j2").render(
        game=game, turn=turn, next_deadline=None, character="jacques",
        events=[e.to_dict() for e in result.events if e.actor == "jacques"], dice=[],
        order_form="# En Garde! orders for Jacques", ctx=ctx)
    assert "Orders for next month" not in sheet and "orders for Jacques" not in sheet
    assert "Jacques is dead: no more orders are taken for him." in sheet


def test_a_lady_no_longer_listed_is_not_mistaken_for_another() -> None:
    """EG §L: the ladies change every month.  Found by mail: a player courting last month's
    'Mlle Adelaide de Sully' was asked 'did you mean Mlle Célestine de Clermont?', a lady
    who shares only 'Mlle ... de'.  He is told the list changed, and shown it."""
    from moderator.games.engarde.lookup import LadyTable
    ladies = LadyTable("lady", {"lady2": "Mlle Gabrielle de Rohan",
                                "lady8": "Mlle Célestine de Clermont"})
    assert ladies.hint("Mlle Adelaide de Sully") == (
        "the ladies change every month; this month's are Mlle Célestine de Clermont, "
        "Mlle Gabrielle de Rohan")
    assert ladies.hint("Gabriele de Rohan") == "did you mean Mlle Gabrielle de Rohan?"


def test_a_guest_carousing_at_a_party_at_home_is_not_at_his_own_home() -> None:
    """EG §J: drinks at a party are on the host.  At a party held at the host's home the
    guest's sheet read 'Carousing at home, on Henri', as if at the guest's own home (at a
    joint party the home is the senior host's, who need not be the one named)."""
    event = {"id": "carouse.drink", "actor": "pierre",
             "args": {"venue": "home", "cost": 7, "paid_by": "henri"}}
    line = str(EVENTS.carouse_drink(event, {"henri": "Henri"})).strip()
    assert line == "Carousing at the party, on Henri."


def test_an_unpaid_post_does_not_say_zero_crowns() -> None:
    """Reference §7: an aide's post brings standing (SP) but no pay; the sheet read
    'As Aide to a Brigadier-General: 0 crowns. (+3 SP, total 11)'."""
    assert _line("appointment_pay", {"position": "Aide to a Brigadier-General", "pay": 0}) \
        == "Standing as Aide to a Brigadier-General (no pay)."
    assert _line("appointment_pay", {"position": "Military Governor of Paris", "pay": 75}) \
        == "As Military Governor of Paris: 75 crowns."


def test_a_failed_application_does_not_invent_a_rival() -> None:
    """Reference §7 (PROPOSED 6+ on 1d6 at the appointer's level): an application the
    appointer turns down read 'another was preferred', though no one else had applied
    (found playing on: Athos, alone for Aide to a General, failed his roll).  A post given
    to a better candidate reads 'the post is filled'."""
    line = _line("appointment_refused", {"position": "Aide to a General", "reason": "roll"})
    assert line == "Not appointed Aide to a General: you were passed over."
    assert _line("appointment_refused", {"position": "Aide to a General",
                                         "reason": "vacancy"}).endswith("the post is filled.")


def test_a_favour_that_does_not_lapse_says_until_used() -> None:
    """EG §S: a favour from a bribe is held until it is used; the summary said 'class 1
    (a grateful official, kept)', which tells a player nothing of when it goes."""
    state = make_state(make_char("pierre", "Pierre", sl=5, favours=[
        {"id": "pierre.1", "cls": 1, "source": "npc", "expires": None, "lady": None}]))
    sheet = _month(state, pierre="")["pierre"]
    assert "- Favours: class 1 (a grateful official, until used)" in sheet, sheet


def test_a_rent_free_garret_says_there_is_no_rent() -> None:
    """EG §P: a garret costs nothing a month.  The sheet read 'Rent of the Garret in La
    Villette.' with no sum beside it, as though a charge had been left out."""
    event = {"id": "housing.rent", "actor": "pierre", "crowns": 0,
             "args": {"house": "Garret", "area": "La Villette"}}
    assert str(EVENTS.housing_rent(event, NAMES)).strip() == \
        "No rent to pay for the Garret in La Villette."
    event = dict(event, crowns=-20, args={"house": "Town House", "area": "Passy"})
    assert str(EVENTS.housing_rent(event, NAMES)).strip() == "Rent of the Town House in Passy."


def test_the_list_of_ladies_in_a_hint_is_the_gazettes() -> None:
    """EG §L: an unknown lady's name is answered with this month's ladies, and those are
    the gazette's list: a lady kept as a mistress or expecting a child is not on it, and a
    stranger's receipt named her.  She is still found by her name (courting another's
    mistress is an order the rules allow)."""
    from moderator.games.engarde.lookup import LadyTable, listed_ladies
    state = {"characters": {"pierre": {"mistress": "lady8", "wife": None}},
             "ladies": {"lady2": {"name": "Mlle Gabrielle de Rohan"},
                        "lady5": {"name": "Mme Anne de Vergy", "pregnant_by": "henri"},
                        "lady8": {"name": "Mlle Célestine de Clermont"}}}
    assert listed_ladies(state) == {"lady2"}
    ladies = LadyTable("lady", {k: v["name"] for k, v in state["ladies"].items()},
                       listed_ladies(state))
    assert ladies.hint("Mlle Adelaide de Sully") == (
        "the ladies change every month; this month's are Mlle Gabrielle de Rohan")
    assert ladies.find("Célestine de Clermont") == "lady8"
