"""What players read on their turn sheets and in Le Sport de Paris after a month by
mail: each statement made once, in words (never the engine's keys)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.dice import Dice
from moderator.games.capabilities import decisions_due
from moderator.games.engarde import ENGINE
from tests.engarde.conftest import _TABLES, give_orders, make_char, make_state
from tests.engarde.test_golden import ENV, render


def _month(state: dict, seed: int = 7, **texts: str) -> dict[str, str]:
    """One month run with the real parser, engine and templates: gazette and sheets."""
    orders = give_orders(state, **texts)
    dice = Dice.for_turn(seed, state["turn"])
    return render(state, ENGINE.adjudicate(state, orders, _TABLES, dice), dice, 1)


def _summary_sl(sheet: str) -> str:
    return next(line for line in sheet.splitlines() if line.startswith("- SL "))


def test_the_summary_does_not_say_held_when_the_month_says_stays_at_the_lowest() -> None:
    """EG §E: a man at SL 1 who fails to hold stays at SL 1.  The month says so ("stays
    at SL 1, the lowest"); the summary said "SL 1 (held)" beside it, which he had not."""
    sheet = _month(make_state(make_char("pierre", "Pierre", sl=1)), pierre="")["pierre"]
    assert "You stay at SL 1, the lowest" in sheet
    assert _summary_sl(sheet) == "- SL 1, -2 SP this month"


def test_the_summary_says_a_change_of_sl_with_where_it_came_from() -> None:
    """EG §E: a fall is shown with the SL it fell from."""
    sheet = _month(make_state(make_char("pierre", "Pierre", sl=4)), pierre="")["pierre"]
    assert _summary_sl(sheet) == "- SL 3 (fell from 4), -2 SP this month"


def test_a_guest_seen_at_a_club_several_weeks_is_one_line_in_the_gazette() -> None:
    """EG §I: a guest each week at his host's club.  Le Sport de Paris tells the month
    without its weeks, so the same sentence came once a week: "Jacques is seen at
    Bothwell's as the guest of Cyrano." printed three times in "About town"."""
    state = make_state(make_char("cyrano", "Cyrano", sl=7, club="bothwells"),
                       make_char("jacques", "Jacques", sl=3))
    gazette = _month(state, cyrano="WEEK 1: CLUB; BRING Jacques\nWEEK 2: CLUB; BRING Jacques\n"
                     "WEEK 3: CLUB; BRING Jacques\n",
                     jacques="WEEK 1: CLUB Bothwell's; GUEST OF Cyrano\n"
                     "WEEK 2: CLUB Bothwell's; GUEST OF Cyrano\n"
                     "WEEK 4: CLUB Bothwell's; GUEST OF Cyrano\n")["gazette"]
    town = gazette.split("### About town", 1)[1].split("##", 1)[0]
    assert town.count("as the guest of Cyrano") == 1, town
    assert "Jacques is seen at Bothwell's as the guest of Cyrano (twice this month)." in town


KEY = re.compile(r"\b(cause|admit|appoint|plea|plotting|verdict|arrest|sentence|watch):\S")
EVENTS = ENV.get_template("engarde/events.md.j2").module


def _two_months(decisions: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Cyrano challenges Jacques with no cause on record (reference §6): the GM's
    decision ``cause:cyrano:jacques`` is due, and next month it is applied."""
    state = make_state(make_char("cyrano", "Cyrano", sl=7), make_char("jacques", "Jacques"))
    orders = give_orders(state, cyrano="ANYTIME: CHALLENGE Jacques WEAPON rapier WEEK 2\n")
    dice = Dice.for_turn(7, 1)
    first = ENGINE.adjudicate(state, orders, _TABLES, dice)
    later = dict(first.state, decisions=decisions)
    orders = give_orders(later, jacques="ANYTIME: ACCEPT CHALLENGE FROM Cyrano\n")
    dice2 = Dice.for_turn(7, 2)
    second = ENGINE.adjudicate(later, orders, _TABLES, dice2)
    return render(state, first, dice, 1), render(later, second, dice2, 2)


def test_the_gazette_shows_players_no_gm_decision_keys() -> None:
    """The decisions due are the GM's business: Le Sport de Paris listed their keys
    ("`cause:cyrano:jacques`: does the challenger have cause?") to every player."""
    first, _ = _two_months({})
    assert not KEY.search(first["gazette"]), first["gazette"]
    assert "Decisions the GM may record" not in first["gazette"]


@pytest.mark.parametrize("recorded", [True, False])
def test_a_sheet_tells_the_gm_s_ruling_in_words(recorded: bool) -> None:
    """Reference §6: the GM judges whether a challenger had cause.  The challenger's
    sheet said "GM decision cause:cyrano:jacques: no (default: none recorded)."."""
    _, second = _two_months({"cause:cyrano:jacques": "yes"} if recorded else {})
    sheet = second["cyrano"]
    assert not KEY.search(sheet), sheet
    lines = [x.removeprefix("- Week 2: ").removeprefix("- ") for x in sheet.splitlines()
             if "cause to" in x]
    assert lines and set(lines) == {
        "The GM ruled on whether you had cause to challenge Jacques: yes." if recorded else
        "The GM made no ruling on whether you had cause to challenge Jacques, so the rule's "
        "default holds: no cause."}


@pytest.mark.parametrize("key, args", [
    ("cause:a:b", {"challenged": "jacques"}), ("admit:guards:pierre", {"colonel": "jacques"}),
    ("appoint:minister:pierre", {"appointer": "jacques"}), ("plea:3:pierre", {}),
    ("plotting:3", {}), ("verdict:3:pierre", {"judge": "jacques"}),
    ("arrest:3:jacques", {"accused": "jacques"}), ("sentence:3:pierre", {})])
def test_every_gm_decision_reads_as_words(key: str, args: dict[str, str]) -> None:
    """Each decision the engine asks of the GM (docs/engarde-orders.md, "The GM's
    decisions"), recorded or left to its default, is told without its key."""
    for recorded in (True, False):
        event = {"id": "decision.applied", "actor": "pierre",
                 "args": {"key": key, "value": "yes", "recorded": recorded, **args}}
        line = str(EVENTS.decision_applied(event, {"jacques": "Jacques"})).strip()
        assert not KEY.search(line) and key.split(":")[1] not in line.split(), line
        assert line.startswith("The GM "), line


def test_the_gm_alone_is_told_the_decisions_due() -> None:
    """Reference §6: the decisions due go to the GM's side (`turn run`, `turn preview`
    print `decisions_due`), with their keys, as `moderator decide` takes them."""
    state = make_state(make_char("cyrano", "Cyrano", sl=7), make_char("jacques", "Jacques"))
    orders = give_orders(state, cyrano="ANYTIME: CHALLENGE Jacques WEAPON rapier WEEK 2\n")
    after = ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(7, 1)).state
    assert decisions_due(ENGINE, after) == (
        "cause:cyrano:jacques: does the challenger have cause? (default no)",)
    assert decisions_due(object(), after) == ()


@pytest.mark.parametrize("reason", ["no_regiment", "funds", "no_club", "no_news", "family",
                                    "not_owned", "lives_there", "no_loan", "none", "prison",
                                    "not at the front", "already disguised"])
def test_an_order_not_carried_out_says_why_in_words(reason: str) -> None:
    """Every reason the engine gives for an order not carried out (orders.skipped) reads
    as words: the sheet said "REGIMENTAL DUTY was not carried out: no&#95;regiment." and
    "JOIN&#95;CLUB was not carried out: prison."."""
    event = {"id": "orders.skipped", "actor": "pierre",
             "args": {"order": "join_club", "reason": reason}}
    line = str(EVENTS.orders_skipped(event, {}))
    assert "&#95;" not in line and line.split(": ", 1)[1].rstrip(".") != reason, line
    assert line.startswith("JOIN CLUB was not carried out: "), line


def test_regimental_duty_without_a_regiment_is_told_in_words() -> None:
    """Reference §4.5: duty is done in one's regiment; Jacques has none."""
    sheet = _month(make_state(make_char("jacques", "Jacques", sl=3)),
                   jacques="WEEK 1: REGIMENTAL DUTY\n")["jacques"]
    assert "- Week 1: REGIMENTAL DUTY was not carried out: you are in no regiment." in sheet


@pytest.mark.parametrize("reason", ["rival_suitors", "courting_caught", "liaison",
                                    "liaison_attempt", "enemy_regiment"])
def test_every_cause_for_a_duel_reads_as_words(reason: str) -> None:
    """Reference §6: members of enemy regiments have cause for a duel.  The gazette and
    both sheets said "Athos has cause for a duel with Porthos (enemy&#95;regiment)."."""
    event = {"id": "honour.cause", "actor": "athos",
             "args": {"offended": "athos", "offender": "porthos", "reason": reason}}
    line = str(EVENTS.honour_cause(event, {"athos": "Athos", "porthos": "Porthos"}))
    assert "&#95;" not in line and f"({reason})" not in line, line


def test_the_receipt_warns_of_regimental_duty_without_a_regiment() -> None:
    """Reference §4.5: duty is done in one's regiment.  The receipt took REGIMENTAL DUTY
    from a man in none without a word; the sheet then said it was not carried out."""
    state = make_state(make_char("jacques", "Jacques", sl=3))
    parsed = ENGINE.parse_orders("WEEK 1: REGIMENTAL DUTY\n", state, "jacques", _TABLES)
    assert [e.message for e in parsed.errors] == [
        "you are in no regiment: REGIMENTAL DUTY will not be carried out unless a JOIN "
        "REGIMENT this month admits you (reference §4.5)"]
    army = make_state(make_char("jacques", "Jacques", sl=8, regiment="rfg",
                                rank="private"))
    assert not ENGINE.parse_orders("WEEK 1: REGIMENTAL DUTY\n", army, "jacques", _TABLES).errors


def test_a_duel_names_the_seconds_as_such() -> None:
    """Reference §6: the gazette read "Cyrano's seconds Aramis: Cyrano won"."""
    names = {"cyrano": "Cyrano", "jacques": "Jacques", "aramis": "Aramis", "porthos": "Porthos",
             "athos": "Athos"}
    for seconds, words in (({"cyrano": ["aramis"]}, "first blood (Cyrano's second: Aramis): "),
                           ({"cyrano": ["aramis", "porthos"], "jacques": ["athos"]},
                            "(Cyrano's seconds: Aramis, Porthos; Jacques's second: Athos): "),
                           ({"cyrano": []}, "first blood: Cyrano won")):
        event = {"id": "duel.fought", "actor": "cyrano",
                 "args": {"challenger": "cyrano", "challenged": "jacques", "weapon": "rapier",
                          "to_death": False, "seconds": seconds, "winner": "cyrano",
                          "loser": "jacques", "passes": 1, "killed": False,
                          "wounds": {"cyrano": 0, "jacques": 3}}}
        assert words in str(EVENTS.duel_fought(event, names))


def test_a_verdict_says_what_the_numbers_are() -> None:
    """Reference §8: 2d6 plus modifiers must reach the SL-based number to convict.  The
    gazette said "Cyrano, tried for blackmail: not guilty (6 against 7)"."""
    event = {"id": "trial.verdict", "actor": "cyrano",
             "args": {"crime": "blackmail", "convicted": False, "total": 6, "needs": 7,
                      "judge": None, "retrial": False}}
    assert str(EVENTS.trial_verdict(event, {"cyrano": "Cyrano"})) == (
        "Cyrano, tried for blackmail: not guilty (the court's roll 6; 7 needed to convict).")


@pytest.mark.parametrize(("text", "message"), [
    ("ANYTIME: PRACTICE rapier", "PRACTICE is a weekly action: put it under WEEK n:"),
    ("ANYTIME: THEATRE", "THEATRE is a weekend order: put it under WEEKEND n:"),
    ("ANYTIME: RENT Apartment IN Passy", "RENT is a weekend order: put it under WEEKEND n:"),
    ("WEEKEND 1: BAWDYHOUSE", "BAWDYHOUSE is a weekly action: put it under WEEK n:"),
    ("WEEKEND 1: JOIN CLUB Hunter's", "JOIN CLUB is an anytime order: put it under ANYTIME:"),
])
def test_an_order_in_the_wrong_section_says_where_it_goes(text: str, message: str) -> None:
    """EG §D: week, weekend and anytime orders.  'ANYTIME: THEATRE' was refused as
    "unknown order 'THEATRE'" with the hint "did you mean CHARGE?"; only week orders told
    a player which section an order belongs in."""
    state = make_state(make_char("jacques", "Jacques", sl=3))
    errors = ENGINE.parse_orders(text + "\n", state, "jacques", _TABLES).errors
    assert [e.message for e in errors] == [message]
    assert "did you mean" not in str(errors[0].hint)


@pytest.mark.parametrize("value, words", [
    ("fine=300,prison=2,disgrace=yes,costs=yes",
     "a fine of 300 crowns, 2 months in prison, disgrace, the court's costs"),
    ("prison=1", "1 month in prison"), ("fine=50,disgrace=no,costs=no", "a fine of 50 crowns"),
    ("none", "no sentence")])
def test_a_recorded_sentence_reads_as_words(value: str, words: str) -> None:
    """EG §R: the sentence the GM recorded (``moderator decide ... sentence:<charge>:<him>
    fine=N,prison=M,...``) reached the player in the GM's syntax, "fine=3,prison=2"."""
    event = {"id": "decision.applied", "actor": "pierre",
             "args": {"key": "sentence:3:pierre", "value": value, "recorded": True}}
    line = str(EVENTS.decision_applied(event, {})).strip()
    assert line == f"The GM ruled on your sentence: {words}.", line


def test_notices_say_which_week_they_are_about() -> None:
    """EG §D: 'WEEKS 2-3: REGIMENTAL DUTY' out of a regiment gave two identical notices,
    'REGIMENTAL DUTY was not carried out: you are in no regiment.', with no week to tell
    them apart (the month's lines had it)."""
    sheet = _month(make_state(make_char("rene", "Rene", sl=3)),
                   rene="WEEKS 2-3: REGIMENTAL DUTY\n")["rene"]
    notices = sheet.split("## Notices")[1].split("##")[0]
    assert "- Week 2: REGIMENTAL DUTY was not carried out: you are in no regiment." in notices
    assert "- Week 3: REGIMENTAL DUTY was not carried out: you are in no regiment." in notices


def _own_lines(sheet: str) -> list[str]:
    """A sheet's lines about the month (not the dice purposes nor the order form), without
    the letters he signed ("..." — Aramis: a signature, not a sentence about him)."""
    body = sheet.split("## The month", 1)[1].split("## Dice rolled", 1)[0]
    return [line for line in body.splitlines() if line.startswith("- ")
            and not line.startswith('- "')]


def test_a_reader_s_own_lines_speak_to_him_in_the_second_person() -> None:
    """Reference §13.2: a turn sheet is written to its reader.  Found by audit: Athos's own
    sheet read "Athos holds SL 11", "Athos joins Hunter's", "Athos leaves for the front",
    while his notices said "you".  No line of the golden game's sheets names their reader;
    the gazette still names everyone."""
    expected = Path(__file__).resolve().parent / "golden" / "expected"
    found = []
    for path in sorted(expected.glob("*/*.md")):
        if path.stem == "gazette":
            continue
        sheet = path.read_text(encoding="utf-8")
        name = sheet.split("\n", 1)[0].removeprefix("# ").split(" — ")[0].split(",")[0]
        found += [(path.parent.name, line) for line in _own_lines(sheet) if name in line]
    assert not found, found[:10]


def test_the_reader_s_own_lines_read_you_and_the_gazette_still_names_him() -> None:
    """Reference §13.2: the same public line is his on his sheet ("You join Hunter's") and
    the town's in the gazette ("Cyrano joins Hunter's"); a duel reads as each man's own."""
    state = make_state(make_char("cyrano", "Cyrano", sl=9, crowns=500),
                       make_char("jacques", "Jacques", sl=3))
    pages = _month(state, cyrano="ANYTIME: JOIN CLUB Hunter's", jacques="WEEK 1: REST")
    assert "- You join Hunter's (dues 20 crowns)." in pages["cyrano"], pages["cyrano"]
    assert "Cyrano joins Hunter's (dues 20 crowns)." in pages["gazette"]
    event = {"id": "duel.fought", "actor": "cyrano",
             "args": {"challenger": "cyrano", "challenged": "jacques", "weapon": "rapier",
                      "to_death": False, "seconds": {"cyrano": ["aramis"]},
                      "winner": "cyrano", "loser": "jacques", "passes": 1, "killed": False,
                      "wounds": {"cyrano": 0, "jacques": 4}}}
    names = {"cyrano": "Cyrano", "jacques": "Jacques", "aramis": "Aramis"}
    assert str(EVENTS.duel_fought(event, {**names, "reader:": "jacques"})) == (
        "You and Cyrano fought with rapiers to first blood (Cyrano's second: Aramis): Cyrano "
        "won after 1 pass, wounding you for 4 Endurance.")
    assert str(EVENTS.duel_fought(event, {**names, "reader:": "cyrano"})) == (
        "You and Jacques fought with rapiers to first blood (your second: Aramis): you won "
        "after 1 pass, wounding Jacques for 4 Endurance.")
    assert str(EVENTS.duel_fought(event, names)).startswith("Cyrano and Jacques fought")


def test_the_greasy_pole_does_not_call_a_dead_man_indisposed() -> None:
    """Reference §13.2 item 8 (the pole's flags) and EG §D (indisposed: a living man who
    sent no orders).  Found by playing on by mail: the dead, who send no orders, read
    "Porthos, dead, indisposed" month after month."""
    state = make_state(make_char("athos", "Athos", sl=9),
                       make_char("porthos", "Porthos", sl=6, dead=True, missed_months=2),
                       make_char("jacques", "Jacques", sl=3, missed_months=1))
    pole = _month(state, athos="WEEK 1: REST")["gazette"].split("The Greasy Pole", 1)[1]
    row = next(line for line in pole.splitlines() if line.startswith("| Porthos"))
    assert row.startswith("| Porthos, dead |"), row
    assert next(line for line in pole.splitlines()
                if line.startswith("| Jacques")).startswith("| Jacques, indisposed |")


def test_why_he_is_disgraced_and_why_he_has_cause_speak_to_the_reader() -> None:
    """Reference §9 (PROPOSED) and §6: his own sheet said "You are disgraced (divorced by his
    wife)", its summary "**Disgraced** (he abandoned a lady with child)", and "You have cause
    for a duel with D (a liaison with his lady)" of his own lady."""
    names = {"pierre": "Pierre", "didier": "Didier", "reader:": "pierre"}
    disgraced = {"id": "honour.disgraced", "actor": "pierre",
                 "args": {"reason": "divorced", "sl_after": 4, "club": None}}
    assert str(EVENTS.honour_disgraced(disgraced, names)) == (
        "You are disgraced (divorced by your wife) and fall to SL 4.")
    cause = {"id": "honour.cause", "actor": "pierre",
             "args": {"offended": "pierre", "offender": "didier", "reason": "liaison",
                      "lady": "Mlle Roxanne"}}
    assert str(EVENTS.honour_cause(cause, names)) == (
        "You have cause for a duel with Didier (a liaison with your lady: Mlle Roxanne).")
    assert "(a liaison with his lady" in str(EVENTS.honour_cause(
        cause, {**names, "reader:": "didier"}))
    gazette = {k: v for k, v in names.items() if k != "reader:"}
    assert "(divorced by his wife)" in str(EVENTS.honour_disgraced(disgraced, gazette))
    sheet = _month(make_state(make_char("pierre", "Pierre", disgraced="ignored_pregnancy")),
                   pierre="WEEK 1: REST")["pierre"]
    assert "- **Disgraced** (you abandoned a lady with child)" in sheet, sheet


def test_cutlasses_are_not_cutlasss() -> None:
    """Reference §6 (the Royal Marines' weapon, EG §M): "fought with cutlasss"."""
    names = {"a": "Armand", "b": "Bruno"}
    fought = {"id": "duel.fought", "actor": "a",
              "args": {"challenger": "a", "challenged": "b", "weapon": "cutlass",
                       "to_death": False, "seconds": {}, "winner": "a", "loser": "b",
                       "passes": 1, "killed": False, "wounds": {"a": 0, "b": 3}}}
    challenged = {"id": "duel.challenged", "actor": "a",
                  "args": {"challenger": "a", "challenged": "b", "weapon": "cutlass",
                           "to_death": False, "week": 2, "cause": None}}
    for reader in ({}, {"reader:": "a"}, {"reader:": "b"}):
        for macro, event in ((EVENTS.duel_fought, fought), (EVENTS.duel_challenged, challenged)):
            line = str(macro(event, {**names, **reader}))
            assert "with cutlasses" in line and "cutlasss" not in line, line
    assert "with rapiers" in str(EVENTS.duel_fought({**fought, "args": {
        **fought["args"], "weapon": "rapier"}}, names))
