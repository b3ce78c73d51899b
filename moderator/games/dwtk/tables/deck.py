"""Loading the components of DWTK 2: the Royalty and Nobles Decks (2.1.1-2.1.2), the
Office Deck and countries (2.1.3), the Event Deck (2.1.4) and the Opportunity counters
(2.2.2).  Part of `table_loader.load_tables`; every problem goes to the shared `Reader`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.games.dwtk.tables.values import (
    CardKind,
    Country,
    NobleCard,
    NobleKind,
    Office,
    OfficeKind,
    Opportunity,
    RoyalCard,
    Sex,
    SupportValue,
)
from moderator.games.table_reader import Reader

DICE_COUNTS = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))


def characters(r: Reader, data: Mapping[str, Any]) -> tuple[
        tuple[RoyalCard, ...], tuple[NobleCard, ...], tuple[str, ...]]:
    royals = []
    for i, row in enumerate(r.rows(data, "royal", "characters.royal")):
        w = f"characters.royal[{i}]"
        usurp = row.get("usurpation", {})
        if not isinstance(usurp, Mapping):
            r.problem(w, "usurpation must be a table")
            usurp = {}
        sex = row.get("sex")
        if sex not in ("m", "f"):
            r.problem(w, f"sex must be 'm' or 'f', got {sex!r}")
        royals.append(RoyalCard(r.str(row, "key", w), r.str(row, "name", w),
                                Sex(sex) if sex in ("m", "f") else Sex.MALE,
                                r.int(row, "status", w), r.dice(usurp, "dice", w),
                                r.int(usurp, "times", w), r.bool(usurp, "halve", w, False),
                                r.ints(row, "deaths", w)))
    r.unique([x.key for x in royals], "characters.royal")
    deaths = sorted(d for x in royals for d in x.deaths)
    if deaths != sorted(DICE_COUNTS):
        r.problem("characters.royal", "death numbers must cover each dice count 11-66 "
                                      "exactly once (DWTK 8.4.1)")
    nobles = []
    for i, row in enumerate(r.rows(data, "noble", "characters.noble")):
        w = f"characters.noble[{i}]"
        kind = row.get("kind")
        if kind not in {k.value for k in NobleKind}:
            r.problem(w, f"kind must be one of noble, official, clergy, lady; got {kind!r}")
            kind = "noble"
        card = NobleCard(r.int(row, "id", w), r.str(row, "name", w), NobleKind(kind),
                         r.int(row, "status", w), r.opt_int(row, "ability", w),
                         r.opt_int(row, "dueling", w), r.opt_int(row, "seduction", w),
                         r.ints(row, "trial_numbers", w) if "trial_numbers" in row else (),
                         r.provenance(row, w, "rulebook"))
        if card.kind is NobleKind.NOBLE and (card.ability is None or card.dueling is None):
            r.problem(w, "a noble (11-44) needs ability and dueling")
        if card.kind is NobleKind.LADY and card.seduction is None:
            r.problem(w, "a lady needs a seduction rating")
        nobles.append(card)
    ids = sorted(n.id for n in nobles)
    r.unique(ids, "characters.noble")
    if ids != sorted(DICE_COUNTS):
        missing = sorted(set(DICE_COUNTS) - set(ids))
        r.problem("characters.noble", f"ids must be the 36 dice counts; missing {missing}")
    keys = {x.key for x in royals}
    succession = r.strs(data.get("meta", {}), "succession", "characters.meta")
    for key in succession:
        if key not in keys:
            r.problem("characters.meta", f"succession names unknown royal {key!r}")
    return tuple(royals), tuple(nobles), succession


def offices(r: Reader, data: Mapping[str, Any]) -> tuple[tuple[Country, ...],
                                                           tuple[Office, ...]]:
    countries = tuple(Country(r.str(row, "key", f"offices.country[{i}]"),
                              r.str(row, "name", f"offices.country[{i}]"))
                      for i, row in enumerate(r.rows(data, "country", "offices.country")))
    offices = []
    for i, row in enumerate(r.rows(data, "office", "offices.office")):
        w = f"offices.office[{i}]"
        kind = row.get("kind")
        if kind not in {k.value for k in OfficeKind}:
            r.problem(w, f"kind must be monarch, minister or ambassador; got {kind!r}")
            kind = "minister"
        country = row.get("country")
        if kind == "ambassador" and country not in {c.key for c in countries}:
            r.problem(w, f"an ambassador needs a known country, got {country!r}")
        offices.append(Office(r.str(row, "key", w), r.str(row, "name", w), OfficeKind(kind),
                              r.int(row, "status", w), str(row.get("portfolio", "")),
                              country if isinstance(country, str) else None))
    r.unique([o.key for o in offices], "offices.office")
    if sum(o.kind is OfficeKind.MONARCH for o in offices) != 1:
        r.problem("offices.office", "there must be exactly one monarch office")
    return countries, tuple(offices)


def support(r: Reader, value: Any, where: str) -> SupportValue | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        r.problem(where, "support must be a table")
        return None
    when = r.strs(value, "when", where)
    for cond in when:
        kind, _, arg = cond.partition(":")
        if kind not in ("fac", "problem", "crown", "ambassador") or not arg:
            r.problem(where, f"unknown support condition {cond!r}")
    return SupportValue(r.dice(value, "dice", where), r.int(value, "times", where),
                        r.int(value, "boosted", where), when, r.opt_int(value, "at_war", where),
                        r.opt_int(value, "pirates", where))


def cards(r: Reader, data: Mapping[str, Any], royal_keys: set[str]) -> tuple[CardKind, ...]:
    cards = []
    for i, row in enumerate(r.rows(data, "card", "cards.card")):
        w = f"cards.card[{i}]"
        royal = row.get("royal")
        if royal is not None and royal not in royal_keys:
            r.problem(w, f"royal {royal!r} is not a royal card")
        card = CardKind(r.str(row, "key", w), r.str(row, "name", w), r.int(row, "count", w),
                        r.bool(row, "legal", w, True), support(r, row.get("support"), w),
                        royal if isinstance(royal, str) else None,
                        r.provenance(row, w, "rulebook"))
        if card.count < 1:
            r.problem(w, "count must be at least 1")
        cards.append(card)
    r.unique([c.key for c in cards], "cards.card")
    total = sum(c.count for c in cards)
    expected = data.get("meta", {}).get("total", 120)
    if total != expected:
        r.problem("cards", f"the deck holds {total} cards, not {expected} (DWTK 2.1.4)")
    if not any(c.key == "dwtk" for c in cards):
        r.problem("cards", "the DOWN WITH THE KING card (key 'dwtk') is required (3.9)")
    return tuple(cards)


def opportunities(r: Reader, data: Mapping[str, Any]) -> tuple[Opportunity, ...]:
    out = []
    for i, row in enumerate(r.rows(data, "opportunity", "counters.opportunity")):
        w = f"counters.opportunity[{i}]"
        r.provenance(row, w, "rulebook")
        out.append(Opportunity(r.str(row, "key", w), r.str(row, "name", w),
                               r.int(row, "count", w)))
    r.unique([o.key for o in out], "counters.opportunity")
    total = sum(o.count for o in out)
    expected = data.get("meta", {}).get("total", 24)
    if total != expected:
        r.problem("counters", f"{total} opportunity counters, not {expected} (DWTK 2.2.2)")
    return tuple(out)
