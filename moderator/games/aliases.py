"""What an alias under a player's press may be (reference §13, in both games that print
press): its own, never someone else's signature.

The gazette prints an alias where a signature goes.  So an alias may not read as the
name of anyone in the game (in any case, with or without accents, spaces, punctuation or
invisible characters), nor look like one through a letter of another script (a Cyrillic
"а" in "Jаcques") or a character no reader sees (a bidi override reorders the line).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

LONGEST = 60
HINT = 'ANNOUNCE "text" AS <alias>: an alias of your own, e.g. AS A Friend of Truth'


def folded(text: str) -> str:
    """``text`` as names are compared: no case, accents, spaces or punctuation."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if c.isalnum()).casefold()


def latin_letter(char: str) -> bool:
    """A letter of the Latin script (accented or not)."""
    return char.isalpha() and unicodedata.name(char, "").startswith("LATIN ")


def alias_problem(alias: str, names: Iterable[str]) -> str | None:
    """Why ``alias`` cannot sign press where ``names`` are the game's names, else None."""
    if len(alias) > LONGEST:
        return f"the alias has {len(alias)} characters; at most {LONGEST}"
    odd = next((c for c in alias if unicodedata.category(c) in ("Cc", "Cf")
                or (c.isalpha() and not latin_letter(c))), None)
    if odd is not None:
        return (f"the alias holds {odd!r} (U+{ord(odd):04X}); an alias is written in "
                "Latin letters, with no invisible characters")
    mine = folded(alias)
    if mine and any(folded(name) == mine for name in names):
        return (f"the alias {alias!r} is the name of someone in the game: sign with your "
                "own (leave out AS) or choose another alias")
    return None
