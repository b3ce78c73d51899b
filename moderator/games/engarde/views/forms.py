"""The order form a player fills in (reference §12), pre-filled with his standing orders."""

from __future__ import annotations

from collections.abc import Mapping

from moderator.games.engarde.lookup import Lookup
from moderator.games.engarde.orderset import OrderSet, format_order_set
from moderator.games.engarde.state import GameState
from moderator.games.engarde.tables import Tables


def month_label(state: GameState, tables: Tables) -> str:
    return f"{tables.months[state.month - 1]} {state.year}"


def order_form(state: GameState, key: str, tables: Tables, names: Mapping[str, str],
               ladies: Mapping[str, str] | None = None, look: Lookup | None = None) -> str:
    """The canonical form for ``key``'s next month; it parses without errors as it stands.

    ``state`` needs only this character, the ladies with child by him and the challenges
    to him; ``names`` maps every character key to a name.  ``look``, when given, is
    ``Lookup(names, tables, ladies)`` built once for a whole turn's forms.
    """
    c = state.characters[key]
    extra_notes: list[str] = []
    look = look or Lookup(names, tables, ladies)
    normal = tables.rule("support", "normal_per_sl") * c.sl
    concon = tables.rule("support", "conspicuous_per_sl") * c.sl
    club = look.club(c.club) if c.club else "none"
    for lady in state.ladies.values():
        if lady.pregnant_by == key and not lady.answered:
            extra_notes.append(f"# {lady.name} is with child by you: answer with ANYTIME: "
                               f"PREGNANCY {lady.name} <answer>")
    army = tables.army
    post = f"{army.rank_name(c.rank)}, {army.regiment(c.regiment).name}" if c.regiment \
        and c.rank else "no regiment"
    for ch in state.challenges:
        if ch.challenged == key:
            extra_notes.append(f"# {names.get(ch.challenger, ch.challenger)} has challenged you:"
                               f" ANYTIME: ACCEPT|REFUSE CHALLENGE FROM <name>")
    lines = [
        f"# En Garde! orders for {c.name}, {month_label(state, tables)}",
        "# One order per line; '#' starts a comment; keywords may be in any case.",
        "# The full order language: send HELP to the moderator (it mails you the guide).",
        f"GAME: {state.name}",
        f"CHARACTER: {c.name}",
        f"# SL {c.sl}, {c.crowns} crowns, club: {club}; {post}"
        + ("; AT THE FRONT: no week actions, two weekends" if c.at_front else ""),
        *extra_notes,
        "",
        "PREMONTH:",
        f"# SUPPORT NORMAL ({normal} cr) | SUPPORT CONSPICUOUS ({concon} cr, +1 SP) | BOX (150)",
        "ANYTIME:",
        "# clubs, houses, favours, loans, PREGNANCY, the army, duels, the courts, posts,",
        "# pardons, ANNOUNCE, deals (SELL|BUY <type> IN <area> / COMMISSION <rank> TO|FROM",
        "# <name> FOR <n>): send HELP for the whole order language",
    ]
    for n in range(1, 5):
        lines += [f"WEEK {n}:", f"WEEKEND {n}:"]
    lines[-8:-8] = [
        "# WEEK: CLUB; GUEST OF/BRING/TOADY/CAROUSE/GAMBLE s xn CUT k | BAWDYHOUSE | PRACTICE w",
        "#  | HOST PARTY AT CLUB|HOME [; EXCLUDE names; COHOST names] | PARTY <host> | MOVE",
        "#  | COURT <lady> | VISIT MISTRESS | REGIMENTAL DUTY | IF WEEK n FAILED THEN a ELSE b",
        "# WEEKEND: THEATRE [FIRST NIGHT] [WITH MISTRESS] | RENT|BUY <type> IN <area>",
        "#  | LIAISE <lady> [GIFT DOUBLE] [REVEAL] | PROPOSE | MARRY [x<n>]",
    ]
    lines += ["", "# Standing orders: used every month for any slot you leave empty.",
              "# Write STANDING: NONE to clear them."]
    standing = format_order_set(OrderSet.from_dict(c.standing), look, "STANDING")
    lines += standing or ["# STANDING WEEK 4: BAWDYHOUSE"]
    lines += ["", "# NMR orders: used in a month when you send no orders at all."]
    lines += format_order_set(OrderSet.from_dict(c.nmr), look, "NMR") or [
        "# NMR WEEK 1: PRACTICE rapier"]
    return "\n".join(lines) + "\n"
