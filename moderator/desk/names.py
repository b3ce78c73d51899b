"""What a character's name may be (docs/players-guide.md, "Your character's name").

A name is printed in every gazette, on every turn sheet and in the subjects of its
player's mail, and other players write it in their orders.  So a name a player chooses
(``JOIN GAME AS ...``, or the name of his mail's From line) holds only what everyone can
read and type: Latin letters (accents welcome), digits, single spaces, and the
apostrophe, hyphen and full stop of names such as "Jacques d'Artagnan", "Anne-Marie" or
"St. Cyr"; it begins with a letter and is 2 to 40 characters long.  Nothing else: no
control character, no invisible one (a bidi override or a zero-width space that makes
a name look like another's), no letter of another script that looks like a Latin one
(a Cyrillic "а" in "Jаcques"), no markup.

And no two characters of a game share a name as the moderator reads names: in any case,
with or without accents, spaces and punctuation ("Jacques de Lyon", "JACQUES-DE-LYON" and
"Jacques de Lyón" are one name), whoever chose them (the GM's `player add` too).  Nor
may a player's character take, read so, a name a non-player character of the game has
or may be given (`npc_problem`, on the engine's `reserved_names`: every name of En
Garde!'s ladies' tables, EG §L; every DWTK character card; Fief's Noble and Retainer
cards), on every path to a new name (desk.admin.refuse_npc_name).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from moderator.games.aliases import folded, latin_letter

LONGEST = 40
_PUNCTUATION = frozenset("'-.")


def tidy(name: str) -> str:
    """The name with its runs of whitespace (any, line breaks included) as one space."""
    return " ".join(name.split())


def _allowed(char: str) -> bool:
    return (latin_letter(char) or char in "0123456789 " or char in _PUNCTUATION
            or unicodedata.category(char) == "Mn")  # a combining accent


def chosen_name_problem(name: str) -> str | None:
    """Why ``name`` (after `tidy`) cannot be a name a player chooses, else None."""
    if not name:
        return "it is empty"
    if len(name) > LONGEST:
        return f"it is {len(name)} characters long; a name has at most {LONGEST}"
    if len(name) < 2:
        return "a name has at least 2 characters"
    if not latin_letter(name[0]):
        return "a name begins with a letter"
    bad = next((c for c in name if not _allowed(c)), None)
    if bad is not None:
        shown = repr(bad) if not bad.isprintable() or bad.isspace() else f"'{bad}'"
        return (f"it holds {shown} (U+{ord(bad):04X}); a name holds only Latin letters, "
                "digits, single spaces and ' - .")
    return None


def clash(name: str, taken: Iterable[str]) -> str | None:
    """The name in ``taken`` that reads as ``name`` (`folded`), else None."""
    mine = folded(name)
    return next((other for other in taken if folded(other) == mine), None)


def npc_problem(name: str, reserved: Mapping[str, str]) -> str | None:
    """Why ``name`` cannot be a player's character's: it reads as a name in ``reserved``
    (a non-player character's, or a word the orders read -> what it is,
    `GameEngine.reserved_names`), else None."""
    same = clash(name, reserved)
    if same is None:
        return None
    reads = "is" if same == name else f"reads as {same!r},"
    return f"{name!r} {reads} {reserved[same]}, which no player may take: choose another name"
