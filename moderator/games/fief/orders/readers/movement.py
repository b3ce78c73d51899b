"""Read the orders of Fief that move nobles and troops (FE 5.0-5.4, 6.9, 2.13).

START, MOVE (paths of roads, seas and bandit paths), CAVALCADE, ALLOW, ROYAL MOVE (to the
Royal Stronghold or the Royal Abbey) and DANEGELD.  The values they read are in
`orders.kinds.movement`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders.errors import BadSyntax
from moderator.games.fief.orders.readers.context import Context, read_list, read_units
from moderator.games.fief.orders.values import (
    Allow,
    AllowEnter,
    Cavalcade,
    Danegeld,
    Move,
    Order,
    RoyalAbbeyMove,
    RoyalMove,
    Start,
)


def _start(ctx: Context, rest: str) -> Order:
    return Start(cities=tuple(ctx.city(c) for c in read_list(rest)))


def _move(ctx: Context, rest: str) -> Order:
    head, sep, path = rest.partition(":")
    if not sep:
        raise BadSyntax("MOVE needs a colon before its path",
                        "MOVE William WITH 2 KNIGHT: Oxford - London - Canterbury")
    denied = "wait"
    m = re.search(r"\s+IF\s+DENIED\s+(?:THEN\s+)?(RETURN|WAIT|CAVALCADE|PASSAGE|BURGHER)\s*$",
                  path, re.I)
    if m:
        denied = m.group(1).lower()
        path = path[:m.start()]
    wm = re.match(r"^(.+?)\s+WITH\s+(.+)$", head.strip(), re.I)
    who, units = (wm.group(1), wm.group(2)) if wm else (head, "")
    nobles = tuple(ctx.noble(n) for n in read_list(who))
    parts = re.split(r"\s+([-=~])\s+", " " + path.strip() + " ")
    tokens = [p.strip() for p in parts]
    if len(tokens) < 3:
        # Found playing by mail: `MOVE Margery: Cardiff to Bristol`.
        raise BadSyntax("a path needs at least two places, joined by ' - ' (a road), "
                        "' = ' (a sea) or ' ~ ' (Sherwood)", "Oxford - London")
    start = ctx.city(tokens[0])
    steps: list[str] = []
    leave: list[tuple[str, str, int]] = []
    for i in range(1, len(tokens), 2):
        sep_, place = tokens[i], tokens[i + 1]
        lm = re.match(r"^(.+?)\s+LEAVE\s+(.+)$", place, re.I)
        left: tuple[tuple[str, int], ...] = ()
        if lm:
            place, left = lm.group(1), read_units(ctx, lm.group(2))
        if re.match(r"^SEA\s+", place, re.I):
            if sep_ != "=":
                raise BadSyntax("a sea is reached with '=' (FE 5.4)",
                                "Whitby = Sea V = King's Lynn")
            steps.append(f"sea:{ctx.sea(place)}")
            continue
        city = ctx.city(place)
        _check_road(ctx, steps[-1] if steps else start, sep_, city)
        if sep_ == "~" and city not in ctx.tables.bandit_cities:
            raise BadSyntax(f"{city} is not on a Sherwood bandit path (FE 13.4)",
                            f"the paths join {', '.join(ctx.tables.bandit_cities)}")
        steps.append(("~" if sep_ == "~" else "") + city)
        leave.extend((city, u, n) for u, n in left)
    return Move(nobles=nobles, units=read_units(ctx, units) if units else (), start=start,
                path=tuple(steps), leave=tuple(leave), if_denied=denied)


def _check_road(ctx: Context, here: str, sep: str, city: str) -> None:
    """FE 5.0: a `-` step follows a road of the map, which is known when the orders are
    read, so the receipt refuses a step along no road with the roads that are there
    (and the Sherwood path, FE 13.4), rather than the turn stopping the army."""
    if sep != "-" or here.startswith("sea:"):
        return                      # a landing, or a bandit path checked below
    here = here.lstrip("~")
    roads = ctx.tables.neighbours(here)
    if city in roads:
        return
    hint = f"roads from {here}: {', '.join(roads) or 'none'}"
    bandit = ctx.tables.bandit_cities
    if here in bandit and city in bandit:
        hint += f"; {here} ~ {city} is a Sherwood bandit path (FE 13.4)"
    raise BadSyntax(f"no road from {here} to {city} (FE 5.0)", hint)


def _cavalcade(ctx: Context, rest: str) -> Order:
    move = _move(ctx, rest)
    assert isinstance(move, Move)
    if any(u != "knight" for u, _ in move.units):
        raise BadSyntax("a Cavalcade is of nobles and Knights only (FE 5.2)",
                        "CAVALCADE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London")
    return Cavalcade(nobles=move.nobles, units=move.units, start=move.start, path=move.path,
                     leave=move.leave)


def _allow(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(PASS|ENTER)(?:\s+AT\s+(.+?))?(?:\s+EVERYWHERE)?$", rest,
                 re.I)
    if not m:
        raise BadSyntax(f"cannot read ALLOW {rest}",
                        "ALLOW <player|ANYONE> TO PASS|ENTER [AT <city>]")
    kind = AllowEnter if m.group(2).upper() == "ENTER" else Allow
    return kind(who=ctx.player(m.group(1)), city=ctx.city(m.group(3)) if m.group(3) else None)


def _royal(ctx: Context, rest: str) -> Order:
    m = re.match(r"^MOVE\s+(.+?)(?:\s+TO\s+(?:THE\s+)?ROYAL\s+STRONGHOLD)?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("ROYAL MOVE <noble>[, <noble>] TO ROYAL STRONGHOLD")
    return RoyalMove(nobles=tuple(ctx.noble(n) for n in read_list(m.group(1))))


def _royal_or_abbey(ctx: Context, rest: str) -> Order:
    """`ROYAL MOVE <nobles> TO ROYAL ABBEY` (FE 2.13), else the Royal Stronghold's."""
    m = re.match(r"^MOVE\s+(.+?)\s+TO\s+(?:THE\s+)?ROYAL\s+ABBEY$", rest.strip(), re.I)
    if m:
        return RoyalAbbeyMove(nobles=tuple(ctx.noble(n) for n in read_list(m.group(1))))
    return _royal(ctx, rest)


def _danegeld(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("DANEGELD AT <city> BY <noble>")
    return Danegeld(city=ctx.city(m.group(1)), noble=ctx.noble(m.group(2)))


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "START": _start,
    "MOVE": _move,
    "CAVALCADE": _cavalcade,
    "ALLOW": _allow,
    "ROYAL": _royal_or_abbey,
    "DANEGELD": _danegeld,
}
