"""Phase 2 and the cards (FE 2.0-2.15, 10.0-12.4), by theme:

- `deck`: 2A discard, 2B draw, the decks, 2C disasters and the Plague;
- `play`: 2D, the cards played in player order, the Opportunity space (11.0-11.2);
- `intrigue`: Assassination, Justice, Ambush, Passage (10.2-10.5);
- `rebellion`: Rebellions and their quelling (10.1, 9.3, 11.2);
- `relics`, `retainers`: the Chasuble and Shinbone (12.2, 12.4); Mata and the exchange of
  Retainers (2.12);
- `windows`: the any-time windows and standing reactions (2.6, 10.0, 11.0).
"""

from moderator.games.fief.cards.abbey import royal_abbey
from moderator.games.fief.cards.deck import (
    DISASTERS,
    disasters_phase,
    discard_phase,
    draw_phase,
    is_disaster,
    plague,
    plague_roll,
    region_has,
)
from moderator.games.fief.cards.intrigue import aid_invaders
from moderator.games.fief.cards.play import clear_slot, crossbows_home, play_fortune, play_phase
from moderator.games.fief.cards.rebellion import quelled, rebellion

__all__ = ["DISASTERS", "aid_invaders", "clear_slot", "crossbows_home", "disasters_phase",
           "discard_phase", "draw_phase", "is_disaster", "plague", "plague_roll",
           "play_fortune", "play_phase", "quelled", "rebellion", "region_has", "royal_abbey"]
