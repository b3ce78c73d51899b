"""Read the orders of the Church and the Relics of Fief (FE 2.13, 6.10, 10.1, 12.0-12.4).

INTERVENE, QUELL, the Abbess's RELINQUISH, PERMIT, APPOINT and REBUILD, and the Relics:
PRESENT, CHASUBLE, SHINBONE, SKULL, LEAVE RELIC, TAKE RELIC.  The values they read are
in `orders.kinds.church`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadSyntax
from moderator.games.fief.orders.readers.context import RELICS, Context
from moderator.games.fief.orders.values import (
    Appoint,
    Chasuble,
    Intervene,
    LeaveRelic,
    Order,
    PermitRelinquish,
    Present,
    Quell,
    RebuildAbbey,
    Relinquish,
    Shinbone,
    Skull,
    TakeRelic,
)


def _intervene(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("INTERVENE AT <city> BY <cleric>")
    return Intervene(city=ctx.city(m.group(1)), cleric=ctx.noble(m.group(2)))


def _quell(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("PAY", "PRAY"):
        raise BadSyntax("QUELL PAY or QUELL PRAY")
    return Quell(how=rest.strip().lower())


def _relinquish(ctx: Context, rest: str) -> Order:
    return Relinquish(abbess=ctx.noble(rest))


def _permit(ctx: Context, rest: str) -> Order:
    m = re.match(r"^RELINQUISH\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("PERMIT RELINQUISH <abbess>")
    return PermitRelinquish(abbess=ctx.noble(m.group(1)))


def _appoint(ctx: Context, rest: str) -> Order:
    m = re.match(r"^ABBESS\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("APPOINT ABBESS <noblewoman>")
    return Appoint(noble=ctx.noble(m.group(1)))


def _rebuild(ctx: Context, rest: str) -> Order:
    m = re.match(r"^ABBEY\s+(?:OF\s+(?:THE\s+)?)?(.+?)\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("REBUILD ABBEY <abbey> AT <city>", "REBUILD ABBEY Autumn AT Oxford")
    return RebuildAbbey(abbey=names.match(m.group(1), ctx.tables.abbey_names, "Abbey"),
                        city=ctx.city(m.group(2)))


def _present(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(?:RELIC\s+)?(.+?)\s+BY\s+(.+?)(?:\s+TO\s+(?:THE\s+)?SOVEREIGN)?$",
                 rest, re.I)
    if not m:
        raise BadSyntax("PRESENT <relic> BY <noble>", "PRESENT Holy Grail BY Hugh")
    return Present(relic=names.match(m.group(1), RELICS, "relic"), noble=ctx.noble(m.group(2)))


def _chasuble(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(?:MOVES?\s+)?(?:STORMS\s+)?FROM\s+(.+?)\s+TO\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("CHASUBLE STORMS FROM <sea> TO <sea>", "CHASUBLE STORMS FROM III TO IV")
    return Chasuble(source=ctx.sea(m.group(1)), target=ctx.sea(m.group(2)))


def _shinbone(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("", "FAMINE"):
        raise BadSyntax("SHINBONE (it ends the Famines of your noble's district)")
    return Shinbone()


def _skull(ctx: Context, rest: str) -> Order:
    """FE 12.3, A77: `SKULL` (your own family's nobles), `SKULL ANY`, `SKULL FOR <noble>`."""
    word = rest.strip()
    if word.upper() in ("", "MINE"):
        return Skull()
    if word.upper() == "ANY":
        return Skull(whom="any")
    m = re.match(r"^FOR\s+(.+)$", word, re.I)
    if not m:
        raise BadSyntax("SKULL, SKULL ANY or SKULL FOR <noble>")
    return Skull(whom=ctx.noble(m.group(1)))


def _leave(ctx: Context, rest: str) -> Order:
    m = re.match(r"^RELIC\s+(.+?)\s+BY\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("LEAVE RELIC <relic> BY <noble>", "LEAVE RELIC Holy Grail BY Agnes")
    return LeaveRelic(relic=names.match(m.group(1), RELICS, "relic"), noble=ctx.noble(m.group(2)))


def _take(ctx: Context, rest: str) -> Order:
    m = re.match(r"^RELIC\s+(.+?)\s+BY\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("TAKE RELIC <relic> BY <noble>", "TAKE RELIC Holy Grail BY Agnes")
    return TakeRelic(relic=names.match(m.group(1), RELICS, "relic"), noble=ctx.noble(m.group(2)))


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "INTERVENE": _intervene,
    "QUELL": _quell,
    "RELINQUISH": _relinquish,
    "PERMIT": _permit,
    "APPOINT": _appoint,
    "REBUILD": _rebuild,
    "PRESENT": _present,
    "CHASUBLE": _chasuble,
    "SHINBONE": _shinbone,
    "SKULL": _skull,
    "LEAVE": _leave,
    "TAKE": _take,
}
