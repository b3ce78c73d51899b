"""Read the orders of Fief at war (FE 7.0-7.10, 10.2, 11.1, 13.3).

ATTACK, JOIN, TARGET, the battle plan (LOSSES, SURRENDER, DESTROY ENGINES, SPOILS),
TRUCE, BETRAY, END BATTLE, WITHDRAW (a standing order by number, or FROM a battle WITH
PASSAGE), SIEGE, LIFT SIEGE, SALLY, PILLAGE, RANSOM, ACCEPT RANSOM, LEND and HELP
INVADERS.  The values they read are in `orders.kinds.war`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadSyntax, OrderParseError
from moderator.games.fief.orders.readers.context import Context, read_count, read_list
from moderator.games.fief.orders.values import (
    AcceptRansom,
    Attack,
    Betray,
    DestroyEngines,
    EndBattle,
    HelpInvaders,
    Join,
    Lend,
    LiftSiege,
    Losses,
    Order,
    Pillage,
    RansomOffer,
    Sally,
    Siege,
    Spoils,
    Surrender,
    Target,
    Truce,
    Withdraw,
    WithdrawPassage,
)


def _attack(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+AGAINST\s+(.+?))?(\s+WITH\s+PASSAGE)?$", rest.strip(), re.I)
    assert m
    if re.search(r"\s(WITH|BY)\s", m.group(1), re.I):
        # Found playing by mail: `ATTACK Bristol WITH Margery` read "no city called
        # 'Bristol WITH Margery'".
        raise BadSyntax("ATTACK names the city only: your free nobles with troops there "
                        "fight (FE 7.0)", "ATTACK <city> [AGAINST <player>] [WITH PASSAGE]")
    if m.group(3):
        ctx.card("Passage")
    return Attack(city=ctx.city(m.group(1)),
                  against=ctx.player(m.group(2)) if m.group(2) else None,
                  tunnels=bool(m.group(3)))


def _join(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+AGAINST\s+(.+?))?\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("JOIN <player> [AGAINST <player>] AT <city>", "JOIN Kirsten AT Coventry")
    return Join(player=ctx.player(m.group(1)), city=ctx.city(m.group(3)),
                against=ctx.player(m.group(2)) if m.group(2) else None)


def _target(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("TARGET <noble>|LEADER AT <city>", "TARGET Henri AT London")
    who = "LEADER" if m.group(1).strip().upper() == "LEADER" else ctx.noble(m.group(1))
    return Target(noble=who, city=ctx.city(m.group(2)))


def _losses(ctx: Context, rest: str) -> Order:
    """FE 7.5's plan: the troops in the order they are lost; "LOSSES ARCHER FIRST" (found
    playing by mail) reads as "LOSSES ARCHER", the others after it by the default."""
    wrong = BadSyntax("LOSSES lists troops: KNIGHT, MAN-AT-ARMS, ARCHER, CROSSBOWMAN",
                      "LOSSES ARCHER, MAN-AT-ARMS, KNIGHT: the first lost first")
    try:
        units = tuple(dict.fromkeys(names.unit(u) for u in
                                    read_list(re.sub(r"\s+FIRST\s*$", "", rest, flags=re.I))))
    except OrderParseError as e:
        raise wrong from e
    if not units or any(u in ("bombard", "trebuchet") for u in units):
        raise wrong
    return Losses(units=units)


def _surrender(ctx: Context, rest: str) -> Order:
    m = re.match(r"^IF\s+TROOPS\s+BELOW\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("SURRENDER IF TROOPS BELOW <n> (0: never)")
    return Surrender(below=read_count(m.group(1)))


def _destroy(ctx: Context, rest: str) -> Order:
    m = re.match(r"^ENGINES\s+IF\s+TROOPS\s+BELOW\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("DESTROY ENGINES IF TROOPS BELOW <n> (0: never)",
                        "DESTROY ENGINES IF TROOPS BELOW 2")
    return DestroyEngines(below=read_count(m.group(1)))


def _spoils(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("TAKE", "DESTROY"):
        raise BadSyntax("SPOILS TAKE or SPOILS DESTROY", "SPOILS DESTROY")
    return Spoils(how=rest.strip().lower())


def _truce(ctx: Context, rest: str) -> Order:
    m = re.match(r"^WITH\s+(.+?)\s+AT\s+(.+?)(?:\s+(CEDE|TAKE))?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("TRUCE WITH <player> AT <city> [CEDE|TAKE]", "TRUCE WITH Dave AT York")
    return Truce(player=ctx.player(m.group(1)), city=ctx.city(m.group(2)),
                 terms=(m.group(3) or "").lower())


def _betray(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+AFTER\s+ROUND\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("BETRAY AT <city> AFTER ROUND <n>", "BETRAY AT Coventry AFTER ROUND 1")
    return Betray(city=ctx.city(m.group(1)), after=max(1, read_count(m.group(2))))


def _end(ctx: Context, rest: str) -> Order:
    m = re.match(r"^BATTLE\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("END BATTLE AT <city>", "END BATTLE AT London")
    return EndBattle(city=ctx.city(m.group(1)))


def _withdraw(ctx: Context, rest: str) -> Order:
    if re.match(r"^FROM\s", rest.strip(), re.I):
        return _withdraw_passage(ctx, rest)
    return Withdraw(number=read_count(rest))


def _withdraw_passage(ctx: Context, rest: str) -> Order:
    m = re.match(r"^FROM\s+(.+?)\s+WITH\s+PASSAGE(?:\s+TO\s+(.+))?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("WITHDRAW FROM <city> WITH PASSAGE [TO <city>]",
                        "WITHDRAW FROM York WITH PASSAGE TO Whitby")
    ctx.card("Passage")
    return WithdrawPassage(city=ctx.city(m.group(1)),
                           to=ctx.city(m.group(2)) if m.group(2) else None)


def _siege(ctx: Context, rest: str) -> Order:
    return Siege(city=ctx.city(re.sub(r"^(?:OF|AT)\s+", "", rest.strip(), flags=re.I)))


def _lift(ctx: Context, rest: str) -> Order:
    m = re.match(r"^SIEGE\s+(?:OF|AT)\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("LIFT SIEGE AT <city>")
    return LiftSiege(city=ctx.city(m.group(1)))


def _sally(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+BACK\s+IF\s+LOST\s+(\S+))?$", rest.strip(), re.I)
    assert m
    return Sally(city=ctx.city(m.group(1)), back=read_count(m.group(2)) if m.group(2) else 0)


def _pillage(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+(MILL|ABBEY|ENGINES)(?:\s+BY\s+(.+))?$", rest, re.I)
    if not m:
        raise BadSyntax("PILLAGE <city> MILL|ABBEY|ENGINES [BY <noble>]", "PILLAGE Oxford MILL")
    return Pillage(city=ctx.city(m.group(1)), what=m.group(2).lower(),
                   by=ctx.noble(m.group(3)) if m.group(3) else None)


def _ransom(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+OFFER\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("RANSOM <captive> OFFER <n>", "RANSOM Henri OFFER 4")
    return RansomOffer(captive=ctx.noble(m.group(1)), amount=read_count(m.group(2)))


def _accept(ctx: Context, rest: str) -> Order:
    m = re.match(r"^RANSOM\s+FOR\s+(.+?)\s+AT\s+LEAST\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("ACCEPT RANSOM FOR <captive> AT LEAST <n>",
                        "ACCEPT RANSOM FOR Henri AT LEAST 4")
    return AcceptRansom(captive=ctx.noble(m.group(1)), amount=read_count(m.group(2)))


def _lend(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(\d+)\s+CROSSBOW\w*\s+TO\s+(.+?)\s+FOR\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("LEND <n> CROSSBOWMEN TO <player> FOR <price>",
                        "LEND 2 CROSSBOWMEN TO Dave FOR 3")
    return Lend(count=int(m.group(1)), to=ctx.player(m.group(2)), price=read_count(m.group(3)))


def _help(ctx: Context, rest: str) -> Order:
    m = re.match(r"^INVADERS\s+AT\s+(.+?)\s+WITH\s+PASSAGE$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("HELP INVADERS AT <city> WITH PASSAGE",
                        "HELP INVADERS AT Lincoln WITH PASSAGE")
    ctx.card("Passage")
    return HelpInvaders(city=ctx.city(m.group(1)))


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "ATTACK": _attack,
    "JOIN": _join,
    "TARGET": _target,
    "LOSSES": _losses,
    "SURRENDER": _surrender,
    "DESTROY": _destroy,
    "SPOILS": _spoils,
    "TRUCE": _truce,
    "BETRAY": _betray,
    "END": _end,
    "WITHDRAW": _withdraw,
    "SIEGE": _siege,
    "BESIEGE": _siege,
    "LIFT": _lift,
    "SALLY": _sally,
    "PILLAGE": _pillage,
    "RANSOM": _ransom,
    "ACCEPT": _accept,
    "LEND": _lend,
    "HELP": _help,
}
