"""Read the orders of Fief that spend or pass on wealth (FE 2.15, 3.4, 4.0-4.9, 11.1).

SCORCH, BUY, BUILD, HIRE (every form), GRANT, TRANSFER and GIVE.  The values they read
are in `orders.kinds.economy` (and, for Crossbowmen hired in battle, `orders.kinds.war`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadNumber, BadSyntax, OrderParseError
from moderator.games.fief.orders.readers.context import Context, read_count, read_list
from moderator.games.fief.orders.values import (
    Build,
    BuildRoyal,
    BuildTrebuchet,
    Buy,
    BuyTitle,
    Give,
    Grant,
    Hire,
    HireFrom,
    HireInBattle,
    Order,
    Scorch,
    Transfer,
)


def _scorch(ctx: Context, rest: str) -> Order:
    return Scorch(cities=tuple(ctx.city(c) for c in read_list(rest)))


def _buy(ctx: Context, rest: str) -> Order:
    m = re.match(r"^TITLE\s+(.+?)\s+FOR\s+(.+)$", rest, re.I)
    if m:
        return BuyTitle(region=ctx.region(m.group(1)), noble=ctx.noble(m.group(2)))
    m = re.match(r"^(?:(\S+)\s+)?(.+?)\s+AT\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax(f"cannot read BUY {rest}",
                        "BUY 2 KNIGHT AT <city>, BUY TITLE <region> FOR <noble>")
    what = m.group(2).strip()
    if what.upper() in ("MILL", "STRONGHOLD"):
        return Build(building=what.lower(), city=ctx.city(m.group(3)))
    count = read_count(m.group(1)) if m.group(1) else 1
    unit = names.unit(what)
    if unit == "crossbow":
        raise OrderParseError("Crossbowmen are hired from a Mercenary card, not bought (FE 11.1)")
    if count < 1:
        raise BadNumber("buy at least one")
    return Buy(count=count, unit=unit, city=ctx.city(m.group(3)))


def _build(ctx: Context, rest: str) -> Order:
    royal = re.match(r"^ROYAL\s+STRONGHOLD\s+AT\s+(.+)$", rest.strip(), re.I)
    if royal:
        return BuildRoyal(city=ctx.city(royal.group(1)))
    t = re.match(r"^(?:(\d)\s+)?TREBUCHETS?\s+AT\s+(.+)$", rest.strip(), re.I)
    if t:
        return BuildTrebuchet(city=ctx.city(t.group(2)), count=int(t.group(1) or 1))
    m = re.match(r"^(MILL|STRONGHOLD)\s+AT\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax(f"cannot read BUILD {rest}",
                        "BUILD MILL AT <city> or BUILD STRONGHOLD AT <city>")
    return Build(building=m.group(1).lower(), city=ctx.city(m.group(2)))


def _hire(ctx: Context, rest: str) -> Order:
    f = re.match(r"^(\d+)\s+CROSSBOW\w*\s+FROM\s+(.+?)\s+FOR\s+(\S+)\s+AT\s+(.+)$",
                 rest.strip(), re.I)
    if f:
        return HireFrom(count=int(f.group(1)), lender=ctx.player(f.group(2)),
                        price=read_count(f.group(3)), city=ctx.city(f.group(4)))
    b = re.match(r"^(\d+)\s+CROSSBOW\w*\s+AT\s+(.+?)\s+IN\s+BATTLE$", rest.strip(), re.I)
    if b:
        return HireInBattle(count=int(b.group(1)), city=ctx.city(b.group(2)))
    m = re.match(r"^(\d+)\s+CROSSBOW\w*\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("HIRE <n> CROSSBOWMEN AT <city>", "HIRE 2 CROSSBOWMEN AT York")
    return Hire(count=int(m.group(1)), city=ctx.city(m.group(2)))


def _grant(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("GRANT <region> TO <noble>")
    return Grant(region=ctx.region(m.group(1)), noble=ctx.noble(m.group(2)))


def _transfer(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("TRANSFER <region> TO <noble>")
    return Transfer(region=ctx.region(m.group(1)), noble=ctx.noble(m.group(2)))


def _give(ctx: Context, rest: str) -> Order:
    if re.match(r"^\d+\s+TO\s", rest.strip(), re.I):
        # Found playing by mail: `GIVE 2 TO Bob` read "no card in your hand called '2'".
        raise BadSyntax("say what you give: GIVE <n> SHILLINGS [AND <card>] TO <player>",
                        "GIVE 2 SHILLINGS TO Dave")
    m = re.match(r"^(?:(\d+)\s+SHILLINGS?)?(?:\s*(?:AND\s+)?(?!TO\b)(.+?))?\s+TO\s+(.+)$",
                 rest.strip(), re.I)
    if not m or not (m.group(1) or m.group(2)):
        raise BadSyntax("GIVE <n> SHILLINGS [AND <card>] TO <player>", "GIVE 3 SHILLINGS TO Dave")
    card = ctx.card(m.group(2)) if m.group(2) else None
    return Give(amount=int(m.group(1) or 0), card=card, to=ctx.player(m.group(3)))


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "SCORCH": _scorch,
    "BUY": _buy,
    "BUILD": _build,
    "HIRE": _hire,
    "GRANT": _grant,
    "TRANSFER": _transfer,
    "GIVE": _give,
}
