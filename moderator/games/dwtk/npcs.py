"""The names of Down with the King's non-player characters, which no player may take
(`GameEngine.reserved_names`; moderator/desk/names.py).

Every character of Fandonia is a card of the Royalty or the Nobles Deck (DWTK 2.1.1,
2.1.2), and any of them may be a non-player character (an NC) while the game lasts, so
every card's name is reserved ("King George", "Sir Drew", "John (the Brother)", which
reads as "John the Brother").  A title a noble acquires (13.4.1) is printed beside his
card's name, never instead of it, so the cards' names are all there are; the state adds
none.  So are the words a reaction reads where a player's name may stand (``IF ANYONE
...``, ``IF I ...``, ``... MINE``: `orders.reaction`): a player called "Me" could not be
named in a reaction.
"""

from __future__ import annotations

from moderator.games.base import JSON
from moderator.games.dwtk.orders.reaction import REACTION_WORDS
from moderator.games.dwtk.tables import Tables

ROYAL = "the name of a royal character of Fandonia (DWTK 2.1.1)"
NOBLE = "the name of a noble of Fandonia (DWTK 2.1.2)"
WORD = "a word the reactions read where a player's name may stand (docs/dwtk-orders.md)"


def reserved_names(state: JSON, tables: Tables) -> dict[str, str]:
    """Every character card's name -> what it names (`ROYAL`, `NOBLE`), and the
    reactions' words (`WORD`)."""
    return {**{word: WORD for word in REACTION_WORDS},
            **{r.name: ROYAL for r in tables.royals}, **{n.name: NOBLE for n in tables.nobles}}
