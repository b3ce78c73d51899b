"""The COUNSEL order (DWTK 15): its value, canonical line and parser.

    COUNSEL <counsel> ON <table> [NAMING <character> [AS <office>]] [BY <character>]

e.g. ``COUNSEL Make An Example ON Lawlessness NAMING Sir Guy BY PC``.  The table is a
political problem or a Crown Event (15.4); the counsel one of that table's in
``data/dwtk/counseling.toml``; NAMING is required exactly by the counsels whose effect
names a character; BY names the counseling PC or FAC (default: the first one eligible).
AS names the office of "Recommend an appointment" (``office_named``), e.g. ``COUNSEL
Recommend An Appointment ON Court Ball NAMING 23 AS High Minister``; without it the
first vacant office he may fill is given (the old default, docs/dwtk-by-email.md).
Several COUNSEL lines are tried in the order written; the first one legal is made
(15.6: one counsel a turn).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moderator.games.dwtk.frozen import fast_init
from moderator.games.dwtk.orders.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError
from moderator.games.dwtk.orders.names import Names
from moderator.games.dwtk.tables import Counsel, Tables

JSON = dict[str, Any]
CROWN_TABLES = ("royal_death", "intrigue", "court_ball", "scandal")  # 15.4
_LINE = re.compile(r"^(?P<counsel>.+?)\s+ON\s+(?P<table>.+?)(?:\s+NAMING\s+(?P<named>.+?))?"
                   r"(?:\s+AS\s+(?P<office>.+?))?"  # the office of office_named (15.8)
                   r"(?:\s+BY\s+(?P<by>.+))?$", re.IGNORECASE)
_HINT = "e.g. COUNSEL Make An Example ON Lawlessness NAMING Sir Guy (docs/dwtk-orders.md)"


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class CounselOrder:
    """``COUNSEL``: one counsel the player would make, in priority order (15.6)."""

    table: str  # a problem key or a Crown Event key
    counsel: str  # the counsel's key in that table
    named: str | None = None  # the character the counsel names ("pc" or an id)
    by: str | None = None  # the counseling character ("pc" or an id)
    office: str | None = None  # AS: the office an appointment asks for (office_named)

    def to_dict(self) -> JSON:
        return {"table": self.table, "counsel": self.counsel, "named": self.named,
                "by": self.by, "office": self.office}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CounselOrder:
        return cls(d["table"], d["counsel"], d.get("named"), d.get("by"), d.get("office"))


def names_someone(counsel: Counsel) -> bool:
    """Does this counsel's effect take a character named in the order?"""
    return any(e.name.endswith("_named") for e in counsel.effects)


def table_name(tables: Tables, key: str) -> str:
    if key in CROWN_TABLES:
        return key.replace("_", " ").title()
    return tables.problem(key).name


@dataclass(frozen=True)
class _Index:
    """Written forms -> keys for one tables, built once (the first of equal forms wins, as
    the loops over the tables did)."""

    tables: Mapping[str, str]  # table key or name (lower case) -> table key
    counsels: Mapping[tuple[str, str], Counsel]  # (table, key or name) -> counsel
    by_key: Mapping[tuple[str, str], Counsel]  # (table, counsel key) -> counsel
    naming: frozenset[tuple[str, str]]  # (table, counsel key) of those naming someone


def _index(tables: Tables) -> _Index:
    found = tables.__dict__.get("_dwtk_counsel_index")
    if found is None:
        names: dict[str, str] = {}
        counsels: dict[tuple[str, str], Counsel] = {}
        by_key: dict[tuple[str, str], Counsel] = {}
        for k, table in tables.counseling.items():
            names.setdefault(k.replace("_", " "), k)
            names.setdefault(table_name(tables, k).lower(), k)
            for c in table:
                counsels.setdefault((k, c.key.replace("_", " ")), c)
                counsels.setdefault((k, c.name.lower()), c)
                by_key.setdefault((k, c.key), c)
        naming = frozenset((k, c.key) for k, table in tables.counseling.items()
                           for c in table if names_someone(c))
        found = _Index(names, counsels, by_key, naming)
        object.__setattr__(tables, "_dwtk_counsel_index", found)
    return found


def format_counsel(o: CounselOrder, n: Names) -> str:
    counsel = _index(n.tables).by_key[(o.table, o.counsel)]
    line = f"COUNSEL {counsel.name} ON {table_name(n.tables, o.table)}"
    if o.named is not None:
        line += f" NAMING {n.who(o.named)}"
    if o.office is not None:
        line += f" AS {n.office(o.office)}"
    if o.by is not None:
        line += f" BY {n.who(o.by)}"
    return line


def parse_counsel(rest: str, n: Names) -> CounselOrder:
    m = _LINE.match(rest.strip())
    if not m:
        raise OrderSyntaxError("COUNSEL needs a counsel ON a table", _HINT)
    counsel_text, table_text, named_text, office_text, by_text = m.groups()
    index = _index(n.tables)
    table = index.tables.get(" ".join(table_text.lower().replace("_", " ").split()))
    if table is None:
        tables = ", ".join(table_name(n.tables, k) for k in n.tables.counseling)
        raise UnknownNameError(f"no Counseling Table called {table_text!r}", f"one of: {tables}")
    word = " ".join(counsel_text.lower().replace("_", " ").split())
    counsel = index.counsels.get((table, word))
    if counsel is None:
        raise UnknownNameError(f"no counsel {counsel_text!r} on {table_name(n.tables, table)}",
                               "one of: " + ", ".join(c.name for c in n.tables.counseling[table]))
    named = None if named_text is None else _noble(named_text, n)
    by = None if by_text is None else _noble(by_text, n)
    naming = (table, counsel.key) in index.naming
    if naming != (named is not None):
        raise OrderSyntaxError(f"{counsel.name} {'needs' if naming else 'takes no'} "
                               "NAMING <character>", "DWTK 15.7; docs/dwtk-orders.md")
    return CounselOrder(table, counsel.key, named, by, _read_as(counsel, office_text, n))


def _noble(text: str, n: Names) -> str:
    """NAMING / BY: the PC or a noble by id or card name."""
    key = n.read_who(text)
    if key is None or not (key.isdigit() or key == "pc"):
        raise UnknownNameError(f"no noble called {text!r}", "write PC, an id or a card name")
    return key


def _read_as(counsel: Counsel, text: str | None, n: Names) -> str | None:
    """AS <office>: only for a counsel that appoints (office_named); never the Monarch."""
    if text is None:
        return None
    if not any(e.name == "office_named" for e in counsel.effects):
        raise OrderSyntaxError(f"{counsel.name} takes no AS <office>",
                               "AS names the office of Recommend An Appointment (DWTK 15.8)")
    office = n.read_office(text)
    if office == "monarch":
        raise IllegalOrderError("the Monarch is no appointment", "name a Minister or an Ambassador")
    if office is None:
        raise UnknownNameError(f"no office called {text.strip()!r}",
                               "e.g. COUNSEL Recommend An Appointment ON Court Ball NAMING 23 "
                               "AS High Minister")
    return office
