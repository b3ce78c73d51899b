"""Character creation from the birth tables (EG §A–B; reference §2).

Rolls, in this order, on the ``birth:<key>`` dice stream: Str, Con, Exp (3d6
each), MA (1d6), class, sibling rank, [orphan check for a first son], father's
position, [father's title for a noble].  Tests script the faces in that order.
"""

from __future__ import annotations

from moderator.dice import DiceStream
from moderator.games.engarde.events import EnGardeEvent, EventId, event
from moderator.games.engarde.state import Character, Home, Tenure
from moderator.games.engarde.tables import BirthRow, Tables


def _pick(rows: tuple[BirthRow, ...], face: int) -> BirthRow:
    return next(r for r in rows if face in r.faces)


def roll_character(key: str, name: str, tables: Tables,
                   dice: DiceStream) -> tuple[Character, tuple[EnGardeEvent, ...]]:
    """A new character and the events announcing him (and his family home)."""
    stats = tables.birth_stats

    def roll(spec: str, purpose: str) -> int:
        return dice.roll(spec, f"{name}: {purpose}", actor=key).total

    strength = roll(stats["strength"], "strength")
    constitution = roll(stats["constitution"], "constitution")
    expertise = roll(stats["expertise"], "expertise")
    military = roll(stats["military_ability"], "military ability")
    social = _pick(tables.classes, roll("1d6", "class (birth table A)"))
    sibling = _pick(tables.siblings, roll("1d6", "sibling rank (birth table B)"))
    orphan = False
    if sibling.values.get("orphan_on"):
        orphan = roll("1d6", "orphan? (birth table B)") in sibling.values["orphan_on"]
    father = _pick(tables.positions[social.key], roll("1d6", "father's position (table C)"))
    title_row = None
    sl = father.get("sl")
    if social.key == "noble":
        title_row = _pick(tables.titles, roll("1d6", "father's title (table D)"))
        sl = title_row.get("sl")
    sl += sibling.get("sl")
    pct = sibling.get("funds_pct", 100)
    if orphan:
        funds, allowance = father.get("inheritance"), 0
        if title_row:
            sl += sibling.get("orphan_noble_sl")
    else:
        funds, allowance = father.get("funds") * pct // 100, father.get("allowance") * pct // 100
    title = title_row.key if (orphan and title_row) else None
    home = None
    if title_row and title:
        home = Home(tables.housing["family_home_area"], str(title_row.values["home"]),
                    Tenure.FAMILY)
    character = Character(
        key=key, name=name, social_class=social.key, sibling=sibling.key, orphan=orphan,
        father=father.key, title=title, sl=max(1, sl), strength=strength,
        constitution=constitution, endurance=strength * constitution,
        military_ability=military, expertise={w: expertise for w in tables.weapons},
        crowns=funds, allowance=allowance, home=home,
    )
    events = [event(EventId.CHARACTER_CREATED, {
        "name": name, "social_class": social.name, "sibling": sibling.name, "orphan": orphan,
        "father": father.name, "father_title": title_row.name if title_row else None,
        "title": title_row.name if title_row and title else None, "sl": character.sl,
        "crowns": funds, "allowance": allowance}, key, True)]
    if home:
        events.append(event(EventId.HOUSING_FAMILY_HOME, {
            "house": tables.housing_type(home.kind).name,
            "area": tables.area(home.area).name}, key, False))
    return character, tuple(events)
