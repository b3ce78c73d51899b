"""The forecast in every receipt (issue 11, item 4): the week a character runs out of
money (En Garde!) or IP (Down with the King), and each action the rules will refuse."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.games import find_engine
from moderator.games.capabilities import forecaster
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store.models import Outbox
from tests.dwtk.conftest import PLAYERS, TABLES, dealt

from support import make_game, order_mail

SPENDTHRIFT = ("PASSWORD: rapier\nPREMONTH: SUPPORT CONSPICUOUS\nBOX\n"
               "ANYTIME: JOIN CLUB Hunters\n"
               "WEEK 1: BAWDYHOUSE; GAMBLE 50 x3\nWEEK 2: BAWDYHOUSE; GAMBLE 50 x3\n"
               "WEEK 3: BAWDYHOUSE; GAMBLE 50 x3\nWEEK 4: HOST PARTY AT HOME\n")


def receipt_text(db: Engine) -> str:
    with Session(db) as session:
        row = session.exec(select(Outbox).where(Outbox.kind == "receipt")).one()
    part = message_from_bytes(row.raw, policy=policy.default).get_body(("plain",))
    assert part is not None
    return part.get_content()  # type: ignore[no-any-return,attr-defined]


def test_engarde_receipt_forecasts_the_week_money_runs_out_and_refusals(
        db: Engine, config: Config) -> None:
    make_game(db, config)  # Jacques: SL 3, 500 crowns, allowance 100, no club, no home
    assert process_message(db, config, order_mail("jacques@lyon.example", SPENDTHRIFT)) \
        .status == "accepted"
    text = receipt_text(db)
    forecast = text.split("Forecast (")[1]
    assert "other\nplayers' actions can change it" in text
    assert "Before week 1: 500 -> 441 crowns" in forecast  # +100 allowance, -9, -150 box
    assert "gambling stake at risk -150" in forecast
    assert "You run out of money: week 3." in forecast
    assert "JOIN CLUB Hunter's: refused, the club needs SL 9" in forecast
    assert "Week 4: HOST PARTY AT HOME: cancelled, you have no lodgings" in forecast


def test_engarde_forecast_is_the_same_every_time(db: Engine, config: Config) -> None:
    make_game(db, config)
    process_message(db, config, order_mail("jacques@lyon.example", SPENDTHRIFT))
    first = receipt_text(db).split("Forecast (")[1]
    process_message(db, config, order_mail("jacques@lyon.example",
                                           "PASSWORD: rapier\nCHECK\n" + SPENDTHRIFT[17:]))
    with Session(db) as session:
        checked = session.exec(select(Outbox).where(Outbox.kind == "receipt")
                               .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
    assert checked is not None
    body = message_from_bytes(checked.raw, policy=policy.default).get_body(("plain",))
    assert first.split("\n\n")[0] in body.get_content()  # type: ignore[union-attr]


def _ann_forecast(orders: str, **ann_now: object) -> tuple[str, ...]:
    """The forecast of these orders for Ann (PC 24, IP 3, PP 10, Loyalty counter 34:
    the seeded deal; ``ann_now`` changes her player's fields, ``support`` the court's),
    checked to be the same when run again."""
    state = dealt()
    ann = PLAYERS[0]
    state["support"] = ann_now.pop("support", state["support"])
    state["players"][ann].update(ann_now)
    engine = forecaster(find_engine("dwtk"))
    assert engine is not None
    parsed = find_engine("dwtk").parse_orders(orders, state, ann, TABLES)
    lines = engine.forecast(state, {ann: parsed.orders}, TABLES)[ann]
    assert engine.forecast(state, {ann: parsed.orders}, TABLES)[ann] == lines
    return lines


def test_dwtk_forecast_names_where_ip_run_out_and_each_refused_activity() -> None:
    lines = _ann_forecast("DO TITLE PC\nDO DRAW EVENT\nDO RECRUIT 23\nBUY 1 PP\n")
    assert lines[0] == "IP 3, PP 10 now."
    assert "BUY 1 PP: -2 IP, +1 PP -> IP 1, PP 11." in lines
    assert "DO DRAW EVENT: -1 IP -> IP 0." in lines
    assert "You run out of IP at DO TITLE." in lines
    assert any(line.startswith("  - DO TITLE: not enough IP left to spend") for line in lines)
    assert "  - DO RECRUIT: you hold no Loyalty counter for that character, DWTK 11, 13.4.13" \
        in lines
    assert "Your Loyalty counters allow: DO RECRUIT 34." in lines


def test_dwtk_forecast_gives_each_refusal_in_words_and_the_order_as_written() -> None:
    """DWTK 13.4.4, 14.5.19, 18.4 (moderator/games/dwtk/reasons.py): the refusals of a
    favor, an alignment and a proposal; a proposal is no DO activity, and says who
    proposes as the order did ("PROPOSE PC", not "DO PROPOSE:PC")."""
    lines = _ann_forecast("DO FAVOR Alan\nALIGN Alan\nPROPOSE PC TO 23\n")
    assert ("  - DO FAVOR: FAVOR and USURP need a royal who is your FARC and not the "
            "Monarch, DWTK 13.4.4, 36.2") in lines
    assert ("  - ALIGN Prince Alan: you hold no Royal Alignment card for that royal, "
            "DWTK 14.5.19") in lines
    # 23 is not hers, her PC is: the phrase said "PROPOSE PC: not a living character of
    # your faction", as if of her PC (a player read it so); it speaks of either now.
    assert ("  - PROPOSE PC: a character it names is not a living character of your "
            "faction, DWTK 6.1, 18.4") in lines
    assert not any("_" in line for line in lines)


def test_dwtk_forecast_names_the_opportunity_counters_as_the_turn_sheet_does() -> None:
    """DWTK 12.3.8: Ann's counter is "Gain One IP" on her sheet; her receipt said
    "Your Opportunity counters: gain ip." (the table key with its '_' made a space)."""
    lines = _ann_forecast("DO DRAW EVENT\n")
    assert "Your Opportunity counters: Gain One IP." in lines


def test_dwtk_forecast_says_a_crisis_halves_the_ip_that_may_be_spent() -> None:
    """DWTK 33.2.1: with 3 IP in a crisis Ann may spend 1, so BUY 1 PP (2 IP) is refused;
    'not enough IP left to spend' alone read as wrong to a player holding 3."""
    lines = _ann_forecast("BUY 1 PP\n", support=0)
    refusal = next(line for line in lines if line.startswith("  - BUY PP:"))
    assert "at most half while the government is in crisis" in refusal, lines


@pytest.mark.parametrize("counter", ["duel-1", "gout-1"])
def test_dwtk_forecast_says_a_duel_or_gout_counter_leaves_no_activity(counter: str) -> None:
    """DWTK 12.3.6, 12.3.7: with the Duel (or Gout) counter Ann may do no activity; the
    refusal said 'your activities for the turn are used up' of a turn she did none in."""
    lines = _ann_forecast("DO DRAW EVENT\n", opportunity=[counter])
    refusal = next(line for line in lines if line.startswith("  - DO DRAW:"))
    assert "none with a Duel or Gout counter" in refusal and "used up" not in refusal
