"""Read a family's order text (fief-email.md §2.4, docs/fief-orders.md).

One order a line, ``#`` starts a comment, keywords in any case; ``GAME:`` and
``PASSWORD:`` lines belong to the service.  Every line is read; every problem is kept with
its line number and a hint (never just the first), and every accepted line is read back
in normal form (`orders.format`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from moderator.games.base import OrderError
from moderator.games.fief.orders import names
from moderator.games.fief.orders.errors import BadNumber, BadSyntax, OrderParseError, UnknownOrder
from moderator.games.fief.orders.values import (
    AcceptRansom,
    AidInvaders,
    Allow,
    AllowEnter,
    Ambush,
    Appoint,
    Assassinate,
    Attack,
    Betray,
    Build,
    BuildRoyal,
    BuildTrebuchet,
    Buy,
    BuyTitle,
    Candidate,
    Cavalcade,
    Chasuble,
    Convene,
    Danegeld,
    DanegeldReaction,
    DestroyEngines,
    Discard,
    Draw,
    DrawExcalibur,
    EndBattle,
    Escape,
    GarterPolicy,
    Give,
    Grant,
    HelpInvaders,
    Hire,
    HireFrom,
    HireInBattle,
    Interdict,
    Intervene,
    Join,
    Justice,
    LeaveRelic,
    Lend,
    LiftSiege,
    Losses,
    Marry,
    Mata,
    Move,
    Order,
    ParliamentVote,
    PermitRelinquish,
    Pillage,
    PlayClergy,
    PlayFortune,
    PlayNoble,
    PlaySlot,
    PlayTax,
    PlayTithe,
    Present,
    Quell,
    RansomOffer,
    Reaction,
    Rebellion,
    RebelsReaction,
    RebuildAbbey,
    Relinquish,
    RetainerDeal,
    RoyalAbbeyMove,
    RoyalMove,
    Sally,
    Scorch,
    Shinbone,
    Siege,
    Skull,
    Spoils,
    Start,
    StrikeLeader,
    Surrender,
    TakeRelic,
    Target,
    Transfer,
    Truce,
    Vote,
    Withdraw,
    WithdrawPassage,
)
from moderator.games.fief.tables import Tables

RELICS = ("Holy Grail", "Chasuble of Thomas Becket", "Skull of Saint Caradoc",
          "Saint Eanswith's Shinbone")
SERVICE_LINES = re.compile(r"^\s*(GAME|PASSWORD|PLAYER|CHARACTER)\s*:", re.I)


@dataclass(frozen=True)
class Context:
    """What names mean for this family: the map, the cards, the players and families."""

    tables: Tables
    players: Mapping[str, str]            # player key -> name
    families: tuple[str, ...]             # this player's colours
    all_families: tuple[str, ...]
    hand: tuple[str, ...]

    def city(self, text: str) -> str:
        return names.match(text, self.tables.city_names, "city")

    def region(self, text: str) -> str:
        t = text.strip()
        t = re.sub(r"^(sea|region)\s+", "", t, flags=re.I)
        if t.upper() in names.NUMERALS:
            return self.tables.region(names.NUMERALS[t.upper()]).key
        if t.isdigit() and 1 <= int(t) <= len(self.tables.regions):
            return self.tables.region(int(t)).key
        known = {r.name: r.key for r in self.tables.regions}
        return known[names.match(t, known, "region")]

    def sea(self, text: str) -> int:
        return self.tables.region(self.region(text)).number

    def district(self, text: str) -> str:
        t = re.sub(r"^(the\s+)?((arch)?bishopric\s+of\s+)", "", text.strip(), flags=re.I)
        known = {d.cathedral: d.key for d in self.tables.districts}
        return known[names.match(t, known, "Bishopric or Archbishopric")]

    def noble(self, text: str) -> str:
        return names.match(text, [n.name for n in self.tables.nobles], "noble")

    def player(self, text: str) -> str:
        if text.strip().upper() == "ANYONE":
            return "ANYONE"
        by_name = {**{v: k for k, v in self.players.items()}, **{k: k for k in self.players}}
        return by_name[names.match(text, by_name, "player")]

    def card(self, text: str) -> str:
        try:
            return names.match(text, self.hand, "card in your hand")
        except OrderParseError as e:
            raise OrderParseError(e.message, f"your hand: {', '.join(self.hand) or 'empty'}") from e


def _count(text: str) -> int:
    if not text.strip().isdigit():
        raise BadNumber(f"{text.strip()!r} is not a number")
    return int(text)


def _list(text: str) -> list[str]:
    return [p.strip() for p in re.split(r",|\bAND\b", text, flags=re.I) if p.strip()]


def _units(ctx: Context, text: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for part in _list(text):
        m = re.match(r"^(\d+)\s+(.+)$", part)
        if not m:
            raise BadSyntax(f"{part!r}: write a count and a troop", "e.g. 2 KNIGHT, 3 ARCHER")
        out.append((names.unit(m.group(2)), int(m.group(1))))
    return tuple(out)


def _start(ctx: Context, rest: str) -> Order:
    return Start(cities=tuple(ctx.city(c) for c in _list(rest)))


def _discard(ctx: Context, rest: str) -> Order:
    return Discard(cards=tuple(ctx.card(c) for c in _list(rest)))


def _draw_excalibur(ctx: Context, rest: str) -> Order:
    return DrawExcalibur(noble=ctx.noble(rest))


def _draw(ctx: Context, rest: str) -> Order:
    limit = None
    m = re.search(r"\s*\bDISASTERS\s+AT\s+MOST\s+(\S+)\s*$", rest, re.I)
    if m:
        limit = _count(m.group(1))
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
    if if_first is not None and len(decks) < 2:
        raise BadSyntax("IF FIRST IS needs a second draw to choose",
                        "DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE (FE 2.0)")
    return Draw(decks=decks, disasters_at_most=limit, if_first=if_first, else_deck=else_deck)


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


def _intervene(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("INTERVENE AT <city> BY <cleric>")
    return Intervene(city=ctx.city(m.group(1)), cleric=ctx.noble(m.group(2)))


def _surrender(ctx: Context, rest: str) -> Order:
    m = re.match(r"^IF\s+TROOPS\s+BELOW\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("SURRENDER IF TROOPS BELOW <n> (0: never)")
    return Surrender(below=_count(m.group(1)))


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


def _quell(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("PAY", "PRAY"):
        raise BadSyntax("QUELL PAY or QUELL PRAY")
    return Quell(how=rest.strip().lower())


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


def _pillage(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+(MILL|ABBEY|ENGINES)(?:\s+BY\s+(.+))?$", rest, re.I)
    if not m:
        raise BadSyntax("PILLAGE <city> MILL|ABBEY|ENGINES [BY <noble>]", "PILLAGE Oxford MILL")
    return Pillage(city=ctx.city(m.group(1)), what=m.group(2).lower(),
                   by=ctx.noble(m.group(3)) if m.group(3) else None)


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


def _present(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(?:RELIC\s+)?(.+?)\s+BY\s+(.+?)(?:\s+TO\s+(?:THE\s+)?SOVEREIGN)?$",
                 rest, re.I)
    if not m:
        raise BadSyntax("PRESENT <relic> BY <noble>", "PRESENT Holy Grail BY Hugh")
    return Present(relic=names.match(m.group(1), RELICS, "relic"), noble=ctx.noble(m.group(2)))


def _convene(ctx: Context, rest: str) -> Order:
    m = re.match(r"^PARLIAMENT(?:\s+SHARES\s+(.+))?$", rest, re.I)
    if not m:
        raise BadSyntax("CONVENE PARLIAMENT [SHARES <player> <n>, ...]")
    shares = []
    for part in _list(m.group(1) or ""):
        pm = re.match(r"^(.+?)\s+(\d+)$", part)
        if not pm:
            raise BadSyntax(f"{part!r}: a player and a number", "SHARES Dave 4, Kirsten 8")
        shares.append((ctx.player(pm.group(1)), int(pm.group(2))))
    if sum(n for _, n in shares) > 12:
        raise BadNumber("the Royal Tax is 12 Shillings (FE 9.2)")
    return Convene(shares=tuple(shares))


def _parliament(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(FOR|AGAINST)(\s+WITH\s+BURGHER)?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("PARLIAMENT FOR or PARLIAMENT AGAINST [WITH BURGHER]")
    return ParliamentVote(vote=m.group(1).lower(), burgher=bool(m.group(2)))


def _hire(ctx: Context, rest: str) -> Order:
    f = re.match(r"^(\d+)\s+CROSSBOW\w*\s+FROM\s+(.+?)\s+FOR\s+(\S+)\s+AT\s+(.+)$",
                 rest.strip(), re.I)
    if f:
        return HireFrom(count=int(f.group(1)), lender=ctx.player(f.group(2)),
                        price=_count(f.group(3)), city=ctx.city(f.group(4)))
    b = re.match(r"^(\d+)\s+CROSSBOW\w*\s+AT\s+(.+?)\s+IN\s+BATTLE$", rest.strip(), re.I)
    if b:
        return HireInBattle(count=int(b.group(1)), city=ctx.city(b.group(2)))
    m = re.match(r"^(\d+)\s+CROSSBOW\w*\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("HIRE <n> CROSSBOWMEN AT <city>", "HIRE 2 CROSSBOWMEN AT York")
    return Hire(count=int(m.group(1)), city=ctx.city(m.group(2)))


def _siege(ctx: Context, rest: str) -> Order:
    return Siege(city=ctx.city(re.sub(r"^(?:OF|AT)\s+", "", rest.strip(), flags=re.I)))


def _lift(ctx: Context, rest: str) -> Order:
    m = re.match(r"^SIEGE\s+(?:OF|AT)\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("LIFT SIEGE AT <city>")
    return LiftSiege(city=ctx.city(m.group(1)))


def _garter(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("FIRST", "NONE"):
        raise BadSyntax("GARTER FIRST or GARTER NONE")
    return GarterPolicy(award=rest.strip().upper() == "FIRST")


def _losses(ctx: Context, rest: str) -> Order:
    units = tuple(dict.fromkeys(names.unit(u) for u in _list(rest)))
    if not units or any(u in ("bombard", "trebuchet") for u in units):
        raise BadSyntax("LOSSES lists troops: KNIGHT, MAN-AT-ARMS, ARCHER, CROSSBOWMAN",
                        "LOSSES ARCHER, MAN-AT-ARMS, KNIGHT")
    return Losses(units=units)


def _give(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(?:(\d+)\s+SHILLINGS?)?(?:\s*(?:AND\s+)?(?!TO\b)(.+?))?\s+TO\s+(.+)$",
                 rest.strip(), re.I)
    if not m or not (m.group(1) or m.group(2)):
        raise BadSyntax("GIVE <n> SHILLINGS [AND <card>] TO <player>", "GIVE 3 SHILLINGS TO Dave")
    card = ctx.card(m.group(2)) if m.group(2) else None
    return Give(amount=int(m.group(1) or 0), card=card, to=ctx.player(m.group(3)))


def _scorch(ctx: Context, rest: str) -> Order:
    return Scorch(cities=tuple(ctx.city(c) for c in _list(rest)))


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
    count = _count(m.group(1)) if m.group(1) else 1
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
    nobles = tuple(ctx.noble(n) for n in _list(who))
    parts = re.split(r"\s+([-=~])\s+", " " + path.strip() + " ")
    tokens = [p.strip() for p in parts]
    if len(tokens) < 3:
        raise BadSyntax("a path needs at least two places", "Oxford - London")
    start = ctx.city(tokens[0])
    steps: list[str] = []
    leave: list[tuple[str, str, int]] = []
    for i in range(1, len(tokens), 2):
        sep_, place = tokens[i], tokens[i + 1]
        lm = re.match(r"^(.+?)\s+LEAVE\s+(.+)$", place, re.I)
        left: tuple[tuple[str, int], ...] = ()
        if lm:
            place, left = lm.group(1), _units(ctx, lm.group(2))
        if re.match(r"^SEA\s+", place, re.I):
            if sep_ != "=":
                raise BadSyntax("a sea is reached with '=' (FE 5.4)",
                                "Whitby = Sea V = King's Lynn")
            steps.append(f"sea:{ctx.sea(place)}")
            continue
        city = ctx.city(place)
        if sep_ == "~" and city not in ctx.tables.bandit_cities:
            raise BadSyntax(f"{city} is not on a Sherwood bandit path (FE 13.4)",
                            f"the paths join {', '.join(ctx.tables.bandit_cities)}")
        steps.append(("~" if sep_ == "~" else "") + city)
        leave.extend((city, u, n) for u, n in left)
    return Move(nobles=nobles, units=_units(ctx, units) if units else (), start=start,
                path=tuple(steps), leave=tuple(leave), if_denied=denied)


def _allow(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(PASS|ENTER)(?:\s+AT\s+(.+?))?(?:\s+EVERYWHERE)?$", rest,
                 re.I)
    if not m:
        raise BadSyntax(f"cannot read ALLOW {rest}",
                        "ALLOW <player|ANYONE> TO PASS|ENTER [AT <city>]")
    kind = AllowEnter if m.group(2).upper() == "ENTER" else Allow
    return kind(who=ctx.player(m.group(1)), city=ctx.city(m.group(3)) if m.group(3) else None)


def _attack(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+AGAINST\s+(.+?))?(\s+WITH\s+PASSAGE)?$", rest.strip(), re.I)
    assert m
    if m.group(3):
        ctx.card("Passage")
    return Attack(city=ctx.city(m.group(1)),
                  against=ctx.player(m.group(2)) if m.group(2) else None,
                  tunnels=bool(m.group(3)))


def _marry(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+TO\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("MARRY <your noble> TO <noble>")
    return Marry(noble=ctx.noble(m.group(1)), to=ctx.noble(m.group(2)))


def _candidate(ctx: Context, rest: str) -> Order:
    return Candidate(lord=ctx.noble(rest))


def _vote(ctx: Context, rest: str) -> Order:
    return Vote(candidates=tuple(ctx.noble(n) for n in _list(rest)))


def _danegeld(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+BY\s+(.+)$", rest, re.I)
    if not m:
        raise BadSyntax("DANEGELD AT <city> BY <noble>")
    return Danegeld(city=ctx.city(m.group(1)), noble=ctx.noble(m.group(2)))


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


def _interdict(ctx: Context, rest: str) -> Order:
    if not rest.strip():
        raise BadSyntax("INTERDICT <captive of the Bandits>", "INTERDICT Hugh")
    return Interdict(captive=ctx.noble(rest))


def _royal(ctx: Context, rest: str) -> Order:
    m = re.match(r"^MOVE\s+(.+?)(?:\s+TO\s+(?:THE\s+)?ROYAL\s+STRONGHOLD)?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("ROYAL MOVE <noble>[, <noble>] TO ROYAL STRONGHOLD")
    return RoyalMove(nobles=tuple(ctx.noble(n) for n in _list(m.group(1))))


def _mata(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+WITH\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("MATA <your card> WITH <player>", "MATA Tax WITH Dave")
    return Mata(card=ctx.card(m.group(1)), player=ctx.player(m.group(2)))


def _withdraw(ctx: Context, rest: str) -> Order:
    if re.match(r"^FROM\s", rest.strip(), re.I):
        return _withdraw_passage(ctx, rest)
    return Withdraw(number=_count(rest))


# FAQ P2 F10: the Opportunity cards a player may play instead of discarding them.
DISCARD_WINDOW = (Assassinate, Justice, Ambush, Escape, Rebellion, PlaySlot)

PARSERS: dict[str, Callable[[Context, str], Order]] = {
    "START": _start, "DISCARD": _discard, "DRAW": _draw, "PLAY": _play,
    "ASSASSINATE": _assassinate, "SCORCH": _scorch, "BUY": _buy, "BUILD": _build,
    "MOVE": _move, "ALLOW": _allow, "ATTACK": _attack, "MARRY": _marry,
    "CANDIDATE": _candidate, "VOTE": _vote, "DANEGELD": _danegeld, "WITHDRAW": _withdraw,
    "JUSTICE": _justice, "AMBUSH": _ambush, "PASSAGE": _passage, "REBELLION": _rebellion,
    "PILLAGE": _pillage, "GRANT": _grant, "TRANSFER": _transfer, "PRESENT": _present,
    "CONVENE": _convene, "PARLIAMENT": _parliament, "LOSSES": _losses, "GIVE": _give,
    "HIRE": _hire, "GARTER": _garter, "SIEGE": _siege, "BESIEGE": _siege, "LIFT": _lift,
    "INTERVENE": _intervene, "QUELL": _quell, "SURRENDER": _surrender,
    "CHASUBLE": _chasuble, "SHINBONE": _shinbone, "SKULL": _skull, "IF": _if,
    "MATA": _mata, "ROYAL": _royal, "BURGHER": _burgher,
    "INTERDICT": _interdict,
}


# -- the land share (FE 5.2, 12.0) ---------------------------------------------------------

def _cavalcade(ctx: Context, rest: str) -> Order:
    move = _move(ctx, rest)
    assert isinstance(move, Move)
    if any(u != "knight" for u, _ in move.units):
        raise BadSyntax("a Cavalcade is of nobles and Knights only (FE 5.2)",
                        "CAVALCADE Lucia WITH 2 KNIGHT: Winchester - Canterbury - London")
    return Cavalcade(nobles=move.nobles, units=move.units, start=move.start, path=move.path,
                     leave=move.leave)


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


PARSERS.update({"CAVALCADE": _cavalcade, "LEAVE": _leave, "TAKE": _take})


def parse_line(ctx: Context, text: str) -> Order:
    line = text.strip()
    family = None
    m = re.match(r"^(\w+)\s*:\s*(.+)$", line)
    if m and m.group(1).title() in ctx.all_families:
        if m.group(1).title() not in ctx.families:
            raise OrderParseError(f"{m.group(1).title()} is not your family")
        family, line = m.group(1).title(), m.group(2)
    at = re.match(r"^AT\s+(\S+)\s+(.+)$", line, re.I)
    if at:
        return _window_line(ctx, at.group(1), at.group(2), family)
    word, _, rest = line.partition(" ")
    parser = PARSERS.get(word.upper())
    if parser is None:
        raise UnknownOrder(f"unknown order {word!r}")
    order = parser(ctx, rest.strip())
    if family is not None:
        order = replace(order, family=family)
    return order


def parse_text(ctx: Context, text: str) -> tuple[list[tuple[int, Order]], list[OrderError]]:
    orders: list[tuple[int, Order]] = []
    errors: list[OrderError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or SERVICE_LINES.match(line):
            continue
        try:
            orders.append((number, parse_line(ctx, line)))
        except OrderParseError as e:
            errors.append(OrderError(number, raw.strip(), e.message, e.hint))
    return orders, errors


# -- the cards share (issue 17): windows, reactions, retainers, the Abbess ---------------

# fief-email.md §3.2: the windows by name and id (cards.windows.WINDOWS has the same list).
WINDOWS = {"HEAR-YE": "hear-ye", "ELECTION": "election", "PARLIAMENT": "parliament",
           "DISCARD": "discard", "DISASTERS": "disasters", "CARDS": "cards",
           "INCOME": "income", "PURCHASE": "purchase", "MOVE": "move",
           "INVADERS": "invaders", "BATTLES": "battles", "PILLAGE": "pillage", "END": "end"}
WINDOW_IDS = {"W1": "hear-ye", "W2": "election", "W3": "parliament", "W4": "discard",
              "W5": "disasters", "W6": "cards", "W7": "income", "W8": "purchase",
              "W9": "move", "W10": "invaders", "W11": "battles", "W13": "pillage",
              "W14": "end"}
# FE 2.6, 10.0, 11.0, 2.15, 12.2-12.4, 2.12: what may be played outside Phase 2D.
ANY_TIME = (*DISCARD_WINDOW, PlayFortune, Chasuble, Shinbone, Mata, Give)


def _window(text: str) -> str:
    key = text.strip().upper()
    if key in WINDOWS:
        return WINDOWS[key]
    if key in WINDOW_IDS:
        return WINDOW_IDS[key]
    raise BadSyntax(f"no window called {text.strip()!r}",
                    "one of: " + ", ".join(WINDOWS) + " (docs/fief-by-email.md)")


def _card_order(ctx: Context, text: str, window: str) -> Order:
    """The card order of a window line; `PLAY` before it is optional."""
    word = text.split(" ", 1)[0].upper()
    line = text if word in PARSERS else f"PLAY {text}"
    order = parse_line(ctx, line)
    if not isinstance(order, ANY_TIME) or (
            isinstance(order, PlayFortune) and (order.card != "Good Weather"
                                                 or order.window != "cards")):
        if window == "discard":
            raise BadSyntax("only an Opportunity card is played at the Discard (FAQ P2 F10)",
                            "AT DISCARD ASSASSINATE William BY Lucia")
        raise BadSyntax("outside Phase 2D only Opportunity cards (Good Weather, Rebellion, "
                        "Passage, Assassination, Justice, Ambush, Mercenaries, Burghers), "
                        "relic and retainer powers and gifts are played (FE 2.6, 10.0, 11.0)",
                        "AT END JUSTICE Godfrey")
    return order


def _condition(ctx: Context, text: str) -> tuple[str, ...]:
    t = text.strip()
    m = re.match(r"^INVADERS\s+AT\s+(.+)$", t, re.I)
    if m:
        return ("invaders", ctx.city(m.group(1)))
    m = re.match(r"^(STORMS|FAMINE)\s+ON\s+(.+)$", t, re.I)
    if m:
        return (m.group(1).lower(), ctx.region(m.group(2)))
    m = re.match(r"^(.+?)\s+IS\s+(HERETIC|CAPTIVE)$", t, re.I)
    if m:
        return (m.group(2).lower(), ctx.noble(m.group(1)))
    m = re.match(r"^(.+?)\s+IS\s+LORD\s+OF\s+(.+)$", t, re.I)
    if m:
        return ("lord", ctx.noble(m.group(1)), ctx.region(m.group(2)))
    m = re.match(r"^(.+?)\s+AT\s+(.+)$", t, re.I)
    if m:
        return ("at", ctx.noble(m.group(1)), ctx.city(m.group(2)))
    raise BadSyntax(f"cannot read the condition {t!r}",
                    "<noble> IS HERETIC | <noble> IS CAPTIVE | <noble> AT <city> | "
                    "<noble> IS LORD OF <region> | INVADERS AT <city> | STORMS ON <region> | "
                    "FAMINE ON <region>")


def _jsonish(value: Any) -> Any:
    """The stored (JSON) form: tuples as lists, so a stored reaction equals a re-read one."""
    if isinstance(value, dict):
        return {k: _jsonish(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonish(v) for v in value]
    return value


def _window_line(ctx: Context, window_text: str, rest: str, family: str | None) -> Order:
    """`AT <window> [PLAY] <card order>` (one-shot, this turn) or
    `AT <window> IF <condition> PLAY|THEN <card order>` (a standing reaction)."""
    window = _window(window_text)
    m = re.match(r"^IF\s+(.+?)\s+(?:THEN|PLAY)\s+(.+)$", rest.strip(), re.I)
    order = _card_order(ctx, m.group(2) if m else rest, window)
    if family is not None:
        order = replace(order, family=family)
    if m:
        return Reaction(window=window, condition=_condition(ctx, m.group(1)),
                        play=_jsonish(order.to_dict()), family=family)
    return order if window == "cards" else replace(order, at=window)


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


def _aid(ctx: Context, rest: str) -> Order:
    m = re.match(r"^INVADERS\s+AT\s+(.+?)\s+WITH\s+PASSAGE$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("AID INVADERS AT <city> WITH PASSAGE")
    ctx.card("Passage")
    return AidInvaders(city=ctx.city(m.group(1)))


def _royal_or_abbey(ctx: Context, rest: str) -> Order:
    """`ROYAL MOVE <nobles> TO ROYAL ABBEY` (FE 2.13), else the Royal Stronghold's."""
    m = re.match(r"^MOVE\s+(.+?)\s+TO\s+(?:THE\s+)?ROYAL\s+ABBEY$", rest.strip(), re.I)
    if m:
        return RoyalAbbeyMove(nobles=tuple(ctx.noble(n) for n in _list(m.group(1))))
    return _royal(ctx, rest)


PARSERS.update({"RETAINER": _retainer, "RELINQUISH": _relinquish, "PERMIT": _permit,
                "APPOINT": _appoint, "REBUILD": _rebuild, "AID": _aid,
                "ROYAL": _royal_or_abbey})


# -- war share (battles, sieges, captives): FE 7.0-7.10, 10.2, 11.1, 13.3 ---------------
def _join(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+AGAINST\s+(.+?))?\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("JOIN <player> [AGAINST <player>] AT <city>", "JOIN Kirsten AT Coventry")
    return Join(player=ctx.player(m.group(1)), city=ctx.city(m.group(3)),
                against=ctx.player(m.group(2)) if m.group(2) else None)


def _truce(ctx: Context, rest: str) -> Order:
    m = re.match(r"^WITH\s+(.+?)\s+AT\s+(.+?)(?:\s+(CEDE|TAKE))?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("TRUCE WITH <player> AT <city> [CEDE|TAKE]", "TRUCE WITH Dave AT York")
    return Truce(player=ctx.player(m.group(1)), city=ctx.city(m.group(2)),
                 terms=(m.group(3) or "").lower())


def _target(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("TARGET <noble>|LEADER AT <city>", "TARGET Henri AT London")
    who = "LEADER" if m.group(1).strip().upper() == "LEADER" else ctx.noble(m.group(1))
    return Target(noble=who, city=ctx.city(m.group(2)))


def _destroy(ctx: Context, rest: str) -> Order:
    m = re.match(r"^ENGINES\s+IF\s+TROOPS\s+BELOW\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("DESTROY ENGINES IF TROOPS BELOW <n> (0: never)",
                        "DESTROY ENGINES IF TROOPS BELOW 2")
    return DestroyEngines(below=_count(m.group(1)))


def _spoils(ctx: Context, rest: str) -> Order:
    if rest.strip().upper() not in ("TAKE", "DESTROY"):
        raise BadSyntax("SPOILS TAKE or SPOILS DESTROY", "SPOILS DESTROY")
    return Spoils(how=rest.strip().lower())


def _withdraw_passage(ctx: Context, rest: str) -> Order:
    m = re.match(r"^FROM\s+(.+?)\s+WITH\s+PASSAGE(?:\s+TO\s+(.+))?$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("WITHDRAW FROM <city> WITH PASSAGE [TO <city>]",
                        "WITHDRAW FROM York WITH PASSAGE TO Whitby")
    ctx.card("Passage")
    return WithdrawPassage(city=ctx.city(m.group(1)),
                           to=ctx.city(m.group(2)) if m.group(2) else None)


def _sally(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)(?:\s+BACK\s+IF\s+LOST\s+(\S+))?$", rest.strip(), re.I)
    assert m
    return Sally(city=ctx.city(m.group(1)), back=_count(m.group(2)) if m.group(2) else 0)


def _ransom(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(.+?)\s+OFFER\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("RANSOM <captive> OFFER <n>", "RANSOM Henri OFFER 4")
    return RansomOffer(captive=ctx.noble(m.group(1)), amount=_count(m.group(2)))


def _accept(ctx: Context, rest: str) -> Order:
    m = re.match(r"^RANSOM\s+FOR\s+(.+?)\s+AT\s+LEAST\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("ACCEPT RANSOM FOR <captive> AT LEAST <n>",
                        "ACCEPT RANSOM FOR Henri AT LEAST 4")
    return AcceptRansom(captive=ctx.noble(m.group(1)), amount=_count(m.group(2)))


def _betray(ctx: Context, rest: str) -> Order:
    m = re.match(r"^AT\s+(.+?)\s+AFTER\s+ROUND\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("BETRAY AT <city> AFTER ROUND <n>", "BETRAY AT Coventry AFTER ROUND 1")
    return Betray(city=ctx.city(m.group(1)), after=max(1, _count(m.group(2))))


def _end(ctx: Context, rest: str) -> Order:
    m = re.match(r"^BATTLE\s+AT\s+(.+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("END BATTLE AT <city>", "END BATTLE AT London")
    return EndBattle(city=ctx.city(m.group(1)))


def _help(ctx: Context, rest: str) -> Order:
    m = re.match(r"^INVADERS\s+AT\s+(.+?)\s+WITH\s+PASSAGE$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("HELP INVADERS AT <city> WITH PASSAGE",
                        "HELP INVADERS AT Lincoln WITH PASSAGE")
    ctx.card("Passage")
    return HelpInvaders(city=ctx.city(m.group(1)))


def _lend(ctx: Context, rest: str) -> Order:
    m = re.match(r"^(\d+)\s+CROSSBOW\w*\s+TO\s+(.+?)\s+FOR\s+(\S+)$", rest.strip(), re.I)
    if not m:
        raise BadSyntax("LEND <n> CROSSBOWMEN TO <player> FOR <price>",
                        "LEND 2 CROSSBOWMEN TO Dave FOR 3")
    return Lend(count=int(m.group(1)), to=ctx.player(m.group(2)), price=_count(m.group(3)))


PARSERS.update({"JOIN": _join, "TRUCE": _truce, "TARGET": _target, "DESTROY": _destroy,
                "SPOILS": _spoils, "SALLY": _sally, "RANSOM": _ransom, "ACCEPT": _accept,
                "BETRAY": _betray, "END": _end, "LEND": _lend, "HELP": _help})
