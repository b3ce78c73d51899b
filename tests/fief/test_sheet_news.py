"""What happens to a player's nobles reaches his own sheet, not only the gazette."""

from __future__ import annotations

from moderator.games.fief.cards import play_phase
from tests.fief.board import board, give_orders, noble, realm


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
