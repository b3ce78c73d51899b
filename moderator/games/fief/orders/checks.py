"""What the receipt can tell from the game as it stands (FE 2.8, 9.1): lines that parse
but cannot do what they say.  An error refuses a line that never can; a warning keeps one
that may by the time it runs, when the engine checks again and tells the sheet."""

from __future__ import annotations

from typing import Any

from moderator.games.base import OrderError, Severity
from moderator.games.fief.orders.values import (
    Build,
    BuyTitle,
    Candidate,
    Decoy,
    Marry,
    Order,
    PlayNoble,
    PlayTax,
    Vote,
)
from moderator.games.fief.state import NO_MARRIAGE_AT_THREE, TALLAGE_RULE, GameState
from moderator.games.fief.tables import Tables


def state_checks(lines: list[tuple[int, Order]], raw: list[str], state: dict[str, Any],
                 player: str, tables: Tables) -> list[OrderError]:
    looked_up = Candidate | PlayTax | Vote | Decoy | BuyTitle | Marry | PlayNoble
    game = (GameState.from_dict(state) if state.get("nobles") and any(
        isinstance(o, looked_up) for _, o in lines) else None)
    titled = {o.noble.lower() for _, o in lines if isinstance(o, BuyTitle)}
    found = [OrderError(n, raw[n - 1].strip(), message, hint, severity=severity)
             for n, o in lines if (why := _candidacy(o, game, titled))
             for message, hint, severity in [why]]
    found += [OrderError(n, raw[n - 1].strip(), message, hint, severity=severity)
              for n, o in lines if (why := _marker(o, game))
              for message, hint, severity in [why]]
    if game is not None and len(game.seats) == 3:
        # Found playing by mail: MARRY here was read back with no word, refused a turn on.
        found += [OrderError(n, raw[n - 1].strip(), NO_MARRIAGE_AT_THREE, "leave it out")
                  for n, o in lines if isinstance(o, Marry)]
    refused = {e.line for e in found if e.severity is Severity.ERROR}
    found += _second_decoys([(n, o) for n, o in lines if n not in refused], raw)
    found += [OrderError(n, raw[n - 1].strip(), *tax, severity=Severity.WARNING)
              for n, o in lines if (tax := _tallage(o, game, player, tables))]
    if game is not None:
        found += [OrderError(n, raw[n - 1].strip(), *full, severity=Severity.WARNING)
                  for n, o in lines if (full := _no_room(o, game, player, tables))]
        strongholds = {o.city for _, o in lines if isinstance(o, Build)
                       and o.building == "stronghold"}
        found += [OrderError(n, raw[n - 1].strip(), *title, severity=Severity.WARNING)
                  for n, o in lines
                  if (title := _title(o, game, player, tables, strongholds))]
    return found


def _never_stands(game: GameState, name: str) -> str | None:
    """Why the noble named can never be a candidate: dead or of the clergy (one not yet
    in play may be played, titled and named in this very adjudication)."""
    noble = game.nobles.get(name.lower())
    if noble is not None and (not noble.alive or noble.clergy):
        return game.cannot_stand(name)
    return None


def _marker(order: Order, game: GameState | None) -> tuple[str, str, Severity] | None:
    """FE 9.1: a vote marker goes on a candidate.  Found playing by mail: `DECOY Godfrey`,
    an Archbishop, was read back with no word and refused on the sheet a round later.
    A DECOY on one who never can stand is refused; a VOTE naming one is warned (its FOR
    marker goes to the first name that stands)."""
    if game is None or not isinstance(order, Vote | Decoy):
        return None
    rule = "a vote marker goes on a candidate, a Lord not of the clergy (FE 9.1)"
    if isinstance(order, Decoy):
        why = _never_stands(game, order.candidate)
        return None if why is None else (f"{why}; {rule}", "DECOY a candidate", Severity.ERROR)
    never = [why for name in order.candidates if (why := _never_stands(game, name))]
    if not never:
        return None
    return ("; ".join(never) + f"; {rule}", "your FOR marker goes to the first name that "
            "stands; leave the others out", Severity.WARNING)


def _candidacy(order: Order, game: GameState | None,
               titled: set[str]) -> tuple[str, str, Severity] | None:
    """FE 9.1 on the receipt: a candidate who may not stand as the state is now.  An
    error when he never can (dead, of the clergy); else a warning, for he may be a free
    Lord by the election (a ransom paid; not for the title these orders buy him), when
    the engine checks again."""
    if not isinstance(order, Candidate) or game is None:
        return None
    why = game.cannot_stand(order.lord)
    if why is None:
        return None
    noble = game.nobles.get(order.lord.lower())
    rule = ("a candidate is a Lord, not of the clergy, neither captive nor besieged "
            "when the election is held (FE 9.1)")
    if noble is not None and (not noble.alive or noble.clergy):
        return (f"{why}; {rule}", "name another Lord", Severity.ERROR)
    if order.lord.lower() in titled:
        return None
    return (f"as things stand, {why}; {rule}",
            "the line stands; at the election he is dropped, and you are told, unless he "
            "may stand by then", Severity.WARNING)


def _tallage(order: Order, game: GameState | None, player: str,
             tables: Tables) -> tuple[str, str] | None:
    """FE 2.8 on the receipt (found playing by mail: `PLAY TAX ON Midlands` by a player
    with no title was read back and only refused on the sheet).  A warning: the line
    stands, for the Lord may change before Phase 2D (a title granted by an ally)."""
    if not isinstance(order, PlayTax) or game is None or player not in game.players:
        return None
    region = tables.region(order.region)
    if game.may_tallage(player, region.key):
        return None
    return (f"as things stand, you are not the Lord of {region.name} nor a Sovereign on a "
            f"region with no Lord; {TALLAGE_RULE}",
            "the line stands; at Phase 2D it is refused, and you are told, unless it may "
            "be played then")


def _title(order: Order, game: GameState, player: str, tables: Tables,
           strongholds: set[str]) -> tuple[str, str] | None:
    """FE 4.3 on the receipt.  Found playing by mail: `BUY TITLE North FOR Philippa`, her
    family holding two of the North's three cities, was read back with no word.  Phase 4
    comes before the moves, so the cities held now are most likely those held then; a
    warning all the same (a Rebellion in Phase 2D may change them).  A Stronghold these
    orders build in the region answers the Stronghold condition."""
    if not isinstance(order, BuyTitle):
        return None
    noble = game.nobles.get(order.noble.lower())
    if noble is None or noble.family not in game.players[player].families:
        return None
    region = tables.region(order.region)
    why = game.title_refusal(noble.family, region.key, region.cities)
    if why is None or ("Stronghold" in why and strongholds & set(region.cities)):
        return None
    return (f"as things stand, {why}", "the line stands; at Phase 4 it is refused, and you "
            "are told, unless it may be bought then")


def _no_room(order: Order, game: GameState, player: str,
             tables: Tables) -> tuple[str, str] | None:
    """FE 2.11 on the receipt.  Found playing by mail: Dave's `PLAY NOBLE Hugh`, his
    family at 3 nobles, was read back with no word and refused on the sheet.  A warning:
    a noble may die or be wed away before Phase 2D."""
    if not isinstance(order, PlayNoble) or player not in game.players:
        return None
    families = game.players[player].families
    family = order.family if order.family in families else families[0] if families else None
    most = tables.cards.nobles_max
    if family is None or len(game.living(family)) < most:
        return None
    return (f"as things stand, the {family} family has {most} nobles, the most a family "
            "has (FE 2.11)", "the line stands; at Phase 2D it is refused, and you are told, "
            "unless a noble has left the family by then")


def _second_decoys(lines: list[tuple[int, Order]], raw: list[str]) -> list[OrderError]:
    """FE 9.1: each player has one DECOY marker; a second DECOY line is refused on the
    receipt rather than one of them silently ignored at the tally."""
    decoys = [n for n, o in lines if isinstance(o, Decoy)]
    return [OrderError(n, raw[n - 1].strip(), "you have one DECOY marker (FE 9.1): the "
                       f"DECOY on line {decoys[0]} places it", "leave one DECOY line")
            for n in decoys[1:]]
