"""Read the card orders of Fief (FE 2.0-2.14, 10.0-11.2; docs/fief-orders.md).

DISCARD, DRAW, PLAY, the Opportunity cards (ASSASSINATE, JUSTICE, AMBUSH, PASSAGE,
[BURGHER] REBELLION), the standing reactions (IF ...), Mata, retainers and AID INVADERS.
The values they read are in `orders.kinds.cards`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadSyntax, OrderParseError
from moderator.games.fief.orders.readers.context import Context, read_count, read_list
from moderator.games.fief.orders.values import (
    AidInvaders,
    Ambush,
    Assassinate,
    DanegeldReaction,
    Discard,
    Draw,
    DrawExcalibur,
    Escape,
    Justice,
    Mata,
    Order,
    PlayClergy,
    PlayFortune,
    PlayNoble,
    PlaySlot,
    PlayTax,
    PlayTithe,
    Rebellion,
    RebelsReaction,
    RetainerDeal,
    StrikeLeader,
)


def _discard(ctx: Context, rest: str) -> Order:
    return Discard(cards=tuple(ctx.card(c) for c in read_list(rest)))


def _draw(ctx: Context, rest: str) -> Order:
    limit = None
    m = re.search(r"\s*\bDISASTERS\s+AT\s+MOST\s+(\S+)\s*$", rest, re.I)
    if m:
        limit = read_count(m.group(1))
        rest = rest[:m.start()]
    m = re.match(r"^EXCALIBUR\s+(?:BY\s+)?(.+)$", rest.strip(), re.I)
    if m:
        return _draw_excalibur(ctx, m.group(1))
    if rest.strip().upper() == "NONE":
        return Draw(decks=(), disasters_at_most=limit)
    if_first = else_deck = None
    m = re.search(r"\s+IF\s+FIRST\s+IS\s+(.+?)\s+ELSE\s+(\S+)\s*$", rest, re.I)
    if m:  # U2: the later draws chosen after looking at the first card
        if_first, else_deck = _first_card(ctx, m.group(1)), _deck(m.group(2))
        rest = rest[:m.start()]
    decks = tuple(_deck(word) for word in re.split(r"\s+THEN\s+", rest.strip(), flags=re.I))
    _check_draw_limits(ctx, decks)
    if if_first is not None and len(decks) < 2:
        raise BadSyntax("IF FIRST IS needs a second draw to choose",
                        "DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE (FE 2.0)")
    return Draw(decks=decks, disasters_at_most=limit, if_first=if_first, else_deck=else_deck)


def _check_draw_limits(ctx: Context, decks: tuple[str, ...]) -> None:
    """FE 2.0 (13.7 at two players): at most two draws, never two Character cards; the
    number of players is known when the orders are read, so the receipt says so."""
    most, most_character = ctx.tables.draw_limits(len(ctx.players))
    if decks.count("CHARACTER") > most_character:
        raise BadSyntax(f"at most {most_character} Character card{'s' * (most_character > 1)}"
                        " a round (FE 2.0)", "DRAW FORTUNE THEN CHARACTER")
    if len(decks) > most:
        raise BadSyntax(f"at most {most} draws a round (FE 2.0)", "DRAW FORTUNE THEN CHARACTER")


def _draw_excalibur(ctx: Context, rest: str) -> Order:
    return DrawExcalibur(noble=ctx.noble(rest))


def _deck(word: str) -> str:
    w = word.strip().upper()
    if w not in ("FORTUNE", "CHARACTER"):
        raise BadSyntax(f"{word!r} is not a deck", "DRAW FORTUNE THEN CHARACTER, or DRAW NONE")
    return w


def _first_card(ctx: Context, text: str) -> str:
    """A card a first draw can bring: a Fortune or Character card's name, or NOBLE."""
    if text.strip().upper() in ("NOBLE", "A NOBLE"):
        return "NOBLE"
    known = [name for name, _ in ctx.tables.fortune_cards + ctx.tables.character_cards]
    return names.match(text, known, "card")


# Opportunity cards a new player writes after PLAY (found playing by mail: `PLAY
# REBELLION ON London`), with the order each is played by.
OWN_WORD = {"REBELLION": "REBELLION AT <city>",
            "ASSASSINATION": "ASSASSINATE <noble> BY <your noble>",
            "JUSTICE": "JUSTICE <noble>",
            "AMBUSH": "AMBUSH <noble> BY <your noble>",
            "PASSAGE": "PASSAGE FREE <captive>, or IF DENIED PASSAGE after a MOVE"}


def _play(ctx: Context, rest: str) -> Order:
    m = re.match(r"^NOBLE\s+(.+?)\s+AT\s+(.+)$", rest, re.I)
    if m:
        noble = ctx.noble(m.group(1))
        if f"Noble {noble}" not in ctx.hand:
            raise OrderParseError(f"Noble {noble} is not in your hand",
                                  f"your hand: {', '.join(ctx.hand) or 'empty'}")
        return PlayNoble(noble=noble, city=ctx.city(m.group(2)))
    m = re.match(r"^(BOUNTIFUL HARVEST|GOOD WEATHER)\s+ON\s+(.+?)(\s+IN\s+MOVEMENT)?$",
                 rest, re.I)
    if m:
        card = m.group(1).title()
        ctx.card(card)
        if m.group(3) and card != "Good Weather":
            raise BadSyntax("only Good Weather is an Opportunity card (FE 2.7)",
                            "PLAY GOOD WEATHER ON <region> IN MOVEMENT")
        return PlayFortune(card=card, region=ctx.region(m.group(2)),
                           window="movement" if m.group(3) else "cards")
    m = re.match(r"^((?:FRENCH|FLEMISH)\s+CROSSBOWMEN|BURGHER(?:\s*\(\s*[35]\s+VOTES\s*\))?)$",
                 rest.strip(), re.I)
    if m:
        return PlaySlot(card=ctx.card(m.group(1)))
    m = re.match(r"^TAX\s+TITHE\s+ON\s+(.+)$", rest, re.I)
    if m:
        ctx.card("Tax")
        return PlayTithe(district=ctx.district(m.group(1)))
    m = re.match(r"^TAX(?:\s+TALLAGE)?\s+ON\s+(.+)$", rest, re.I)
    if m:
        ctx.card("Tax")
        return PlayTax(region=ctx.region(m.group(1)))
    m = re.match(r"^(ABBESS|(?:ARCH)?BISHOP\s+OF\s+\S+)\s+ON\s+(.+?)(?:\s+AT\s+(.+))?$", rest, re.I)
    if m:
        card = ctx.card(m.group(1))
        city = ctx.city(m.group(3)) if m.group(3) else None
        return PlayClergy(card=card, noble=ctx.noble(m.group(2)), city=city)
    first = rest.split()[0].upper() if rest.split() else ""
    if first in OWN_WORD:
        raise BadSyntax(f"{first.title()} is played by its own order, without PLAY (FE 10.0)",
                        OWN_WORD[first])
    raise BadSyntax(f"cannot read PLAY {rest}",
                    "PLAY NOBLE <name> AT <city>, PLAY GOOD WEATHER ON <region>, "
                    "PLAY TAX ON <region>, PLAY ABBESS ON <noble> AT <city>, "
                    "PLAY BISHOP OF <city> ON <noble>")


def _assassinate(ctx: Context, rest: str) -> Order:
    lm = re.match(r"^LEADER\s+AT\s+(.+)$", rest, re.I)
    if lm:
        ctx.card("Assassination")
        return StrikeLeader(card="Assassination", city=ctx.city(lm.group(1)))
    m = re.match(r"^(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("ASSASSINATE <noble> BY <your noble>")
    ctx.card("Assassination")
    return Assassinate(target=ctx.noble(m.group(1)), sponsor=ctx.noble(m.group(2)))


def _justice(ctx: Context, rest: str) -> Order:
    ctx.card("Justice")
    return Justice(target=ctx.noble(rest))


def _ambush(ctx: Context, rest: str) -> Order:
    lm = re.match(r"^LEADER\s+AT\s+(.+?)\s+BY\s+(.+)$", rest, re.I)
    if lm:
        ctx.card("Ambush")
        return StrikeLeader(card="Ambush", city=ctx.city(lm.group(1)), by=ctx.noble(lm.group(2)))
    m = re.match(r"^(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("AMBUSH <noble> BY <your noble>")
    ctx.card("Ambush")
    return Ambush(target=ctx.noble(m.group(1)), by=ctx.noble(m.group(2)))


def _passage(ctx: Context, rest: str) -> Order:
    m = re.match(r"^FREE\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("PASSAGE FREE <captive>: the other uses of Passage are not yet open",
                        "PASSAGE FREE Hugh")
    ctx.card("Passage")
    return Escape(captive=ctx.noble(m.group(1)))


_SUPPORT = {"REBELLION": "rebellion", "PASSAGE": "passage",
            "BURGHER REBELLION": "burgher rebellion", "BURGHER PASSAGE": "burgher passage"}


def _support(text: str) -> str:
    key = re.sub(r"\s+", " ", text.strip().upper())
    if key not in _SUPPORT:
        raise BadSyntax(f"{text.strip()!r}: REBELLION, PASSAGE, BURGHER REBELLION or "
                        "BURGHER PASSAGE")
    return _SUPPORT[key]


def _rebellion(ctx: Context, rest: str, burgher: bool = False) -> Order:
    m = re.match(r"^(?:AT|ON)\s+(.+?)(?:\s+WITH\s+(.+))?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("[BURGHER] REBELLION AT <city> [WITH REBELLION AND PASSAGE ...]",
                        "REBELLION AT Norwich WITH BURGHER PASSAGE")
    extras = tuple(_support(x) for x in re.split(r"\s+AND\s+|\s*,\s*", m.group(2) or "")
                   if x.strip())
    if not burgher:
        ctx.card("Rebellion")
    for extra in extras:
        if not extra.startswith("burgher"):
            ctx.card(extra.title())
    return Rebellion(city=ctx.city(m.group(1)), burgher=burgher, extras=extras)


def _burgher(ctx: Context, rest: str) -> Order:
    m = re.match(r"^REBELLION\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("BURGHER REBELLION AT <city> [WITH ...]")
    return _rebellion(ctx, m.group(1), burgher=True)


def _if(ctx: Context, rest: str) -> Order:
    m = re.match(r"^INVADERS\s+ENTER\s+(.+?)\s+THEN\s+DANEGELD\s+BY\s+(.+)$", rest.strip(),
                 re.I)
    if m:
        return DanegeldReaction(city=ctx.city(m.group(1)), noble=ctx.noble(m.group(2)))
    m = re.match(r"^(ANYONE|AN\s+OPPONENT)\s+REBELS\s+(.+?)\s+THEN\s+(?:PLAY\s+)?(.+)$",
                 rest.strip(), re.I)
    if not m:
        raise BadSyntax("the standing reactions open so far: "
                        "IF INVADERS ENTER <city> THEN DANEGELD BY <noble>; "
                        "IF ANYONE|AN OPPONENT REBELS <city>|ANY THEN PLAY REBELLION|PASSAGE"
                        "|BURGHER REBELLION|BURGHER PASSAGE")
    where = m.group(2).strip()
    return RebelsReaction(city="" if where.upper() == "ANY" else ctx.city(where),
                          actor="anyone" if m.group(1).upper() == "ANYONE" else "opponent",
                          response=_support(m.group(3)))


def _mata(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+WITH\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("MATA <your card> WITH <player>", "MATA Tax WITH Dave")
    return Mata(card=ctx.card(m.group(1)), player=ctx.player(m.group(2)))


def _retainer(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+FROM\s+(.+?)\s+TO\s+(.+?)(?:\s+FOR\s+(\d+)(?:\s+SHILLINGS?)?)?$",
                 rest.strip(), re.I)
    if not m:
        raise BadSyntax("RETAINER <retainer> FROM <noble> TO <noble> [FOR <n>]",
                        "RETAINER Mata FROM Alienor TO Godfrey FOR 3")
    known = [name for name, _, _ in ctx.tables.retainers]
    return RetainerDeal(retainer=names.match(m.group(1), known, "retainer"),
                        giver=ctx.noble(m.group(2)), receiver=ctx.noble(m.group(3)),
                        price=int(m.group(4) or 0))


def _aid(ctx: Context, rest: str) -> Order:
    m = re.match(r"^INVADERS\s+AT\s+(.+?)\s+WITH\s+PASSAGE$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("AID INVADERS AT <city> WITH PASSAGE")
    ctx.card("Passage")
    return AidInvaders(city=ctx.city(m.group(1)))


KEYWORDS: dict[str, Callable[[Context, str], Order]] = {
    "DISCARD": _discard,
    "DRAW": _draw,
    "PLAY": _play,
    "ASSASSINATE": _assassinate,
    "JUSTICE": _justice,
    "AMBUSH": _ambush,
    "PASSAGE": _passage,
    "REBELLION": _rebellion,
    "BURGHER": _burgher,
    "IF": _if,
    "MATA": _mata,
    "RETAINER": _retainer,
    "AID": _aid,
}
