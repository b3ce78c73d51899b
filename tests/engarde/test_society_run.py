"""A multi-month seeded run of EG §L, §Q, §S together: invariants and rendering.

No man keeps two mistresses, no lady is kept twice, a favour spent never comes
back, ledgers balance, SL >= 1; every event emitted renders with its macro.
"""

from __future__ import annotations

from collections import defaultdict

from moderator.dice import Dice
from moderator.games.engarde import ENGINE
from moderator.games.engarde.events import macro_name
from tests.engarde.conftest import _TABLES, give_orders, make_char, make_state
from tests.engarde.test_templates_purity import ENV

NAMES = ("athos", "porthos", "aramis", "dartagnan", "cyrano", "jacques")


def _orders(state: dict, month: int) -> dict:
    chars = state["characters"]
    kept = {c.get("mistress") for c in chars.values()} | {c.get("wife") for c in chars.values()}
    free = [lady for key, lady in state["ladies"].items() if key not in kept]
    texts = {}
    for i, key in enumerate(sorted(chars)):
        c = chars[key]
        lines = ["PREMONTH: SUPPORT NORMAL"]
        if free and not c.get("mistress"):
            target = min(free, key=lambda lady: abs(lady["sl"] - c["sl"] + i % 3))
            lines.append(f"WEEK 1: COURT {target['name']} EXTRA {i % 2}")
        lines.append("WEEK 2: VISIT MISTRESS" if c.get("mistress") else "WEEK 2: BAWDYHOUSE")
        other = next((chars[k].get("mistress") for k in sorted(chars) if k != key
                      and chars[k].get("mistress")), None)
        if other and month % 2:
            name = state["ladies"][other]["name"]
            lines.append(f"WEEKEND 2: LIAISE {name}" + (" REVEAL" if i % 2 else ""))
        if c.get("mistress") and month > 6:
            lines.append("WEEKEND 3: PROPOSE")
        lines.append("WEEKEND 4: THEATRE WITH MISTRESS" if c.get("mistress")
                     else "WEEKEND 4: THEATRE")
        if c["favours"]:
            lines.append(f"ANYTIME: USE FAVOUR {c['favours'][0]['cls']} ON FIRST NIGHT FOR")
        if key == "jacques" and month == 1:
            lines.append("ANYTIME: BORROW 200 FROM Athos\nANYTIME: BORROW 100 FROM SHYLOCK")
        if key == "athos" and month == 1:
            lines.append("ANYTIME: LEND 200 TO Jacques")
        if key == "athos" and month == 4:
            lines.append("ANYTIME: DEMAND REPAYMENT FROM Jacques")
        if key == "cyrano" and month == 2:
            lines.append("ANYTIME: BRIBE Colonel CLASS 1")
        for lady in state["ladies"].values():
            if lady.get("pregnant_by") == key and not lady.get("answered"):
                answer = ("ACKNOWLEDGE", "PAY OFF", "ASSASSINS", "MARRY")[month % 4]
                lines.append(f"ANYTIME: PREGNANCY {lady['name']} {answer}")
        texts[key] = "\n".join(lines)
    return give_orders(state, **texts)


def test_a_year_of_society_keeps_its_invariants_and_renders() -> None:
    chars = [make_char(k, k.capitalize(), sl=4 + 3 * i, crowns=3000, allowance=150)
             for i, k in enumerate(NAMES)]
    state = make_state(*chars)
    state = ENGINE.adjudicate(state, {}, _TABLES, Dice.for_turn(5, 0)).state  # draw the list
    module = ENV.get_template("engarde/events.md.j2").module
    spent: set[str] = set()
    seen_ids: set[str] = set()
    names = {k: k.capitalize() for k in NAMES}
    for month in range(1, 13):
        orders = _orders(state, month)
        result = ENGINE.adjudicate(state, orders, _TABLES, Dice.for_turn(5, month))
        after = result.state
        # ledgers balance
        crowns, sp = defaultdict(int), defaultdict(int)
        for e in result.events:
            if e.actor:
                crowns[e.actor] += e.crowns
                sp[e.actor] += e.sp
            text = str(getattr(module, macro_name(e.id))(e.to_dict(), names))
            assert text.strip() and "\n" not in text.strip(), e
        for key, c in after["characters"].items():
            assert c["crowns"] - state["characters"][key]["crowns"] == crowns[key]
            assert c["sp_month"] == sp[key]
            assert c["sl"] >= 1
        # one mistress per man, one man per lady, and she exists
        kept = [k for c in after["characters"].values() for k in (c["mistress"], c["wife"]) if k]
        assert len(kept) == len(set(kept))
        assert all(k in after["ladies"] for k in kept)
        # a favour once gone never returns
        now = {f["id"] for c in after["characters"].values() for f in c["favours"]}
        before = {f["id"] for c in state["characters"].values() for f in c["favours"]}
        spent |= before - now
        assert not (now & spent)
        seen_ids |= now
        contexts = ENGINE.newsletter_context(state, after, result.events, sorted(names),
                                             _TABLES)
        game = {"name": "Paris", "kind": "engarde", "title": "En Garde!"}
        turn = {"number": month, "label": ENGINE.turn_label(state)}
        gazette = ENV.get_template("engarde/gazette.md.j2").render(
            game=game, turn=turn, next_deadline=None, events=[], ctx=contexts.gazette)
        assert "## Ladies of Paris" in gazette
        for key in NAMES:
            ENV.get_template("engarde/turnsheet.md.j2").render(
                game=game, turn=turn, next_deadline=None, character=key,
                events=[e.to_dict() for e in result.events if e.actor == key], dice=[],
                order_form=ENGINE.order_form(after, key, _TABLES), ctx=contexts.sheets[key])
        state = after
    assert seen_ids  # favours did flow
