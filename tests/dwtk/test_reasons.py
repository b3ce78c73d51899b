"""Every reason a player reads is words, not an engine code (moderator/games/dwtk/reasons.py):
the turn sheet, the gazette and the receipt's forecast read the one table (the forecast's
lines: tests/players/test_forecast.py).

The codes are found in the engine's sources: each ``Refused(...)``, each call that passes
on a reason (a discharge, a death, a faction member lost, cards discarded), each event's
``"reason"`` argument, and what `may_fill_office` and romance's `_why_not` return.  A new
code without words fails `test_every_code_the_engine_can_emit_has_words`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from moderator.games.dwtk.reasons import CARD_REASONS, REASONS, phrase
from moderator.games.dwtk.state import GameState
from moderator.games.dwtk.views import names
from tests.dwtk.conftest import EVENTS, ROOT, TABLES, dealt

ENGINE = ROOT / "moderator" / "games" / "dwtk"

# The callee -> the position of its reason argument (or its keyword ``reason``).
_PASSES_A_REASON = {"Refused": 0, "kill_character": 2, "kill_pc": 2, "lose_member": 3,
                    "forced_discards": 3, "release_cards": 2, "discharge": 1, "leave_posts": 2}
# Functions whose string returns are reasons (`Refused(reason)`, an office bid's reason,
# why a player has no Player Turn) -> the prefix the reader's code gets (events.md.j2).
_RETURN_A_REASON = {"may_fill_office": "", "_why_not": "", "has_player_turn": "no_turn:"}
# Assignments that hold a reason on its way to an event (start.py, counseling.py).
_REASON_NAMES = {"reason", "why"}
# The codes built with an f-string, and how the test expands each (below).
_BUILT = {"no_card:{kind}", "no_card:{card}", "no_{counter}_counter", "counselor_{reason}"}


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _strings(node: ast.AST) -> Iterator[str]:
    """Each literal a reason expression may yield; an f-string as its template."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        yield "".join(v.value if isinstance(v, ast.Constant) else
                      "{" + ast.unparse(v.value) + "}"
                      for v in node.values)
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body)
        yield from _strings(node.orelse)


def _reason_args(node: ast.Call) -> Iterator[ast.AST]:
    at = _PASSES_A_REASON.get(_callee(node))
    if at is None:
        return
    if at < len(node.args):
        yield node.args[at]
    yield from (k.value for k in node.keywords if k.arg in ("reason", "cause"))


def _codes_in(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """(code, what passes it on), for each reason literal in this module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in _reason_args(node):
                yield from ((s, _callee(node)) for s in _strings(arg))
            if _callee(node) == "counter_or_any" and len(node.args) > 2:
                yield from ((f"no_{s}_counter", "counter_or_any")
                            for s in _strings(node.args[2]))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "reason":
                    yield from ((s, "event") for s in _strings(value))
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in _REASON_NAMES for t in node.targets):
            yield from ((s, "assigned") for s in _strings(node.value))
        elif isinstance(node, ast.FunctionDef) and node.name in _RETURN_A_REASON:
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    yield from ((_RETURN_A_REASON[node.name] + s, node.name)
                                for s in _strings(ret.value))


def engine_codes() -> set[tuple[str, str]]:
    """Every reason code in the DWTK engine's sources, with what passes it on."""
    return {found for path in sorted(ENGINE.rglob("*.py"))
            for found in _codes_in(ast.parse(path.read_text(), str(path)))}


def _expanded(found: set[tuple[str, str]]) -> set[str]:
    """The codes as the players may meet them: each f-string template expanded."""
    plain = {c for c, _ in found if "{" not in c}
    built = {c for c, _ in found if "{" in c}
    assert built == _BUILT, f"a new code built at run time: {built - _BUILT}; give it words"
    discharged_for = {c for c, via in found if via == "leave_posts"}  # counselor_{reason}
    return plain | {f"counselor_{c}" for c in discharged_for} | {
        f"no_card:{card.key}" for card in TABLES.cards}


def test_the_scan_finds_codes_of_every_kind() -> None:
    """The scan itself: a refusal, a returned reason, a death, a discard, an event's."""
    codes = {code for code, _ in engine_codes()}
    for code in ("not_farc", "rotation", "not_vacant", "pc_to_royal", "duel", "hand_limit",
                 "three_failures", "same_activity_twice", "no_character", "pp_limit",
                 "no_scandal_counter", "usurpation_failed", "hiding", "no_turn:lost"):
        assert code in codes, code


def test_every_code_the_engine_can_emit_has_words() -> None:
    missing = sorted(c for c in _expanded(engine_codes())
                     if c not in REASONS and c.partition(":")[0] not in CARD_REASONS)
    assert not missing, f"reason codes with no words in dwtk/reasons.py: {missing}"


def test_every_phrase_has_a_code_and_cites_the_rules() -> None:
    """No dead entry; each says where in the rulebook it comes from (but an order's own
    IF condition, which is this service's, and a seat whose PC is not yet dealt)."""
    codes = _expanded(engine_codes()) | {f"cause:{c}" for c in _causes()}
    assert sorted(set(REASONS) - codes) == []
    uncited = [c for c, text in {**REASONS, **CARD_REASONS}.items()
               if "DWTK " not in text and c not in ("condition_not_met", "no_turn:no_pc")]
    assert uncited == []


def test_a_card_code_names_the_card() -> None:
    cards = {c.key: c.name for c in TABLES.cards}
    assert phrase("no_card:monarchs_counselor", cards).startswith(
        "you hold no Monarch's Counselor card")
    assert phrase("no_card:pardon", cards).startswith("you hold no Pardon card")


def _sheet_line(macro: str, args: dict[str, object]) -> str:
    nm = names(GameState.from_dict(dealt(3)), TABLES)
    return str(getattr(EVENTS, macro)({"id": macro, "args": args}, nm)).strip()


def test_the_turn_sheet_reads_the_words_not_the_code() -> None:
    """The reason in words (reasons.py), and what was not done as the order was written
    (the sheet said 'Not done: buy pp', 'Not done: title'; the receipt 'BUY PP', 'DO
    TITLE')."""
    assert _sheet_line("activity_skipped", {"what": "buy_pp", "reason": "ip"}).startswith(
        "Not done: BUY PP (not enough IP left to spend")
    assert _sheet_line("activity_skipped", {"what": "align:jane", "reason": "pp"}).startswith(
        "Not done: ALIGN Jane (the Mistress) (your PP")
    assert _sheet_line("activity_skipped", {"what": "favor", "reason": "not_farc"}) == (
        "Not done: DO FAVOR (FAVOR and USURP need a royal who is your FARC and not the "
        "Monarch, DWTK 13.4.4, 36.2).")
    assert _sheet_line("activity_skipped", {"what": "counselor",
                                            "reason": "no_card:monarchs_counselor"}) == (
        "Not done: DO COUNSELOR (you hold no Monarch's Counselor card, DWTK 13.2, 14.5).")
    assert _sheet_line("activity_skipped", {"what": "propose:pc", "reason": "not_yours"}) \
        == ("Not done: PROPOSE PC (a character it names is not a living character of your "
            "faction, DWTK 6.1, 18.4).")
    assert _sheet_line("counsel_refused", {"table": "famine", "counsel": "x",
                                           "reason": "rotation"}).endswith(
        "was not made (the same counsel again only after every counsel of that table, "
        "DWTK 15.9).")
    assert _sheet_line("turn_no_player_turn", {"player": "ann", "why": "at_war"}) == (
        "Ann has no Player Turn this turn (the PC is stuck in a country at war with "
        "Fandonia, DWTK 7.10.3).")
    assert _sheet_line("faction_lost", {"player": "ann", "member": "23", "reason": "pp_limit"}
                       ).endswith("(over the faction's PP limit, DWTK 35.4, 35.5).")


def _causes() -> set[str]:
    """Each literal cause given to `accuse` (23.1) or `duels.required` (19.1), the third
    argument, with the bribery module's CAUSE; a prestige table's key stands for each."""
    found: set[str] = {"bribery"}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _callee(node) in ("accuse", "required") \
                    and len(node.args) > 2:
                found.update(_strings(node.args[2]))
    tables = sorted(TABLES.prestige)
    # `duels.required(.., key)`: the Prestige Table whose row calls for a (sober) duel
    found |= {t for t, p in TABLES.prestige.items()
              if any(row.has("duel") for row in p.table.rows)}
    return {f.replace("{key}", t) for f in found for t in tables} | {
        f for f in found if "{" not in f}


def test_every_cause_of_an_accusation_or_a_duel_has_words() -> None:
    """DWTK 23.1 and 19.1: why a character is accused of wrongdoing or must fight a duel
    is printed in words (``cause:<code>``), not as the engine's code: the Courier said
    "accused of wrongdoing (prestige:carousing)"."""
    causes = _causes()
    assert {"scandal", "prestige:carousing", "court_ball", "duel_counter"} <= causes
    missing = sorted(c for c in causes if f"cause:{c}" not in REASONS)
    assert not missing, missing
    state = GameState.from_dict(dealt())
    nm = names(state, TABLES)
    event = {"id": "justice.accused", "args": {"character": "23", "cause": "prestige:carousing",
                                               "result": "ignored"}}
    text = str(EVENTS.justice_accused(event, nm))
    assert "(the Carousing Table, DWTK 13.4.17, 23.1)" in text, text
