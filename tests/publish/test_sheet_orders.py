"""The service hands each DWTK sheet its player's own orders (TurnData.orders,
`RecordReading`): a bid the Office Phase never reached is named there (DWTK 6.1.1),
though the engine records nothing of it; the rerun is byte-identical."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator import jsonio
from moderator.intake.process import process_message
from moderator.settings.config import Config
from moderator.store import repo
from moderator.store.db import session_scope
from moderator.store.models import Newsletter
from moderator.turn.rerun import rerun_turn
from moderator.turn.run import run_turn

from support import make_dwtk_game, order_mail

BIDDERS = ("p1@f.example", "p2@f.example")


def _vacate(db: Engine) -> None:
    """High Minister vacant and every player with IP to bid, before the second turn."""
    with session_scope(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "fandonia"))
        state = jsonio.loads(turn.state_before)
        state["offices"]["high_minister"] = None
        for p in state["players"].values():
            p["ip"] = 6
        turn.state_before = jsonio.dumps(state)
        session.add(turn)


def test_a_bid_never_reached_is_named_on_the_sheet_the_service_sends(
        db: Engine, config: Config) -> None:
    make_dwtk_game(db, config)
    run_turn(db, config, "fandonia")
    _vacate(db)
    for email in BIDDERS:
        result = process_message(db, config, order_mail(
            email, "PASSWORD: pw\nBID High Minister : PC\n", subject="[fandonia] orders"))
        assert result.status == "accepted", result
    second = run_turn(db, config, "fandonia")
    with Session(db) as session:
        game = repo.game_by_name(session, "fandonia")
        keys = {p.id: p.character_key for p in repo.players(session, game)}
        sheets = {keys[n.player_id]: " ".join(n.text.split()) for n in session.exec(
            select(Newsletter).where(Newsletter.game_id == game.id,
                                     Newsletter.turn_number == second.number,
                                     Newsletter.kind == "turnsheet"))}
    reached = [k for k, text in sheets.items() if "for High Minister was never reached" in text]
    assert len(reached) == 1 and reached[0] != "noble-three", sheets
    assert "Your bid of " in sheets[reached[0]] and "cost you nothing" in sheets[reached[0]]
    assert "never reached" not in sheets["noble-three"]  # he made no bid
    assert rerun_turn(db, config, "fandonia", second.number).identical
