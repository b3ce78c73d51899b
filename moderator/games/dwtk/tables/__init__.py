"""The game's tables: the frozen values (`values`: `Tables` and what it holds), read
from ``data/dwtk/*.toml`` and checked by `loader` and `deck` (with `validation.Reader`);
rule modules only read them."""

from __future__ import annotations

from moderator.games.dwtk.tables.values import (
    EFFECTS,
    CardKind,
    Counsel,
    Country,
    Effect,
    NobleCard,
    NobleKind,
    Office,
    OfficeKind,
    Opportunity,
    PrestigeTable,
    Problem,
    RangeRow,
    RangeTable,
    RoyalCard,
    Sex,
    SupportValue,
    Tables,
    Title,
    kind_of,
)

__all__ = ["EFFECTS", "CardKind", "Counsel", "Country", "Effect", "NobleCard", "NobleKind",
           "Office", "OfficeKind", "Opportunity", "PrestigeTable", "Problem", "RangeRow",
           "RangeTable", "RoyalCard", "Sex", "SupportValue", "Tables", "Title", "kind_of"]
