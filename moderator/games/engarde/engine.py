"""`EnGardeEngine`: the `GameEngine` the service calls (moderator.games.base).

Pure: plain data in, plain data and events out; dice only from the `Dice` given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from moderator.dice import Dice
from moderator.games.base import JSON, Event, NewsletterContext, ParsedOrders, TurnResult
from moderator.games.engarde import forecast, npcs, phases, submission
from moderator.games.engarde.character import roll_character
from moderator.games.engarde.events import EventId
from moderator.games.engarde.forecast import World as ForecastWorld
from moderator.games.engarde.lookup import Lookup, character_names, lady_names, listed_ladies
from moderator.games.engarde.month import Month
from moderator.games.engarde.orders import Support
from moderator.games.engarde.orderset import MonthOrders, OrderSet
from moderator.games.engarde.state import Challenge, Character, GameState, Lady
from moderator.games.engarde.state.validate import validate_state
from moderator.games.engarde.tables import Tables, load_tables
from moderator.games.engarde.views import decisions_due, month_label, newsletter_context
from moderator.games.engarde.views import order_form as build_form

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def _tables(tables: Tables) -> Tables:
    if not isinstance(tables, Tables):
        raise TypeError("pass the value returned by ENGINE.load_tables(raw)")
    return tables


def _light(state: JSON, key: str) -> JSON:
    """The state with only ``key``, his ladies, and his loans (parsing and forms)."""
    c = state["characters"][key]
    mine = {c.get("mistress"), c.get("wife")}
    ladies = {k: v for k, v in state.get("ladies", {}).items()
              if k in mine or v.get("pregnant_by") == key}
    loans = [loan for loan in state.get("loans", ())
             if key in (loan["borrower"], loan.get("lender"))]
    return dict(state, characters={key: c}, ladies=ladies, loans=loans)


class _ParseContext:
    """What every order message of one state needs, built once for all of them: the
    names, the lookup tables, and who is in which lady's and loan's record.

    `parse_orders` runs once per message against the same state; building these per
    message made parsing a turn's orders quadratic (5 ms a message at 5,000 characters).
    A state is a value: nothing changes one in place, so the context is kept for the
    last state parsed, recognised by its collections (held here, so their ids cannot be
    reused) and their sizes.
    """

    def __init__(self, state: JSON, tables: Tables) -> None:
        self.parts = _parts(state)
        self.names = character_names(state)
        self.ladies = state.get("ladies", {})
        self.look = Lookup(self.names, tables, lady_names(state), listed_ladies(state))
        self.tables = tables
        position = {k: i for i, k in enumerate(self.ladies)}
        self.lady_position = position
        self.pregnant: dict[str, list[str]] = {}
        for k, lady in self.ladies.items():
            if lady.get("pregnant_by"):
                self.pregnant.setdefault(lady["pregnant_by"], []).append(k)
        self.loans: dict[str, list[JSON]] = {}
        for loan in state.get("loans", ()):
            for who in dict.fromkeys((loan["borrower"], loan.get("lender"))):
                if who is not None:
                    self.loans.setdefault(who, []).append(loan)

    def fits(self, state: JSON, tables: Tables) -> bool:
        return tables is self.tables and all(
            a is b and len(a) == n for (a, n), (b, _) in zip(self.parts, _parts(state),
                                                             strict=True))

    def light(self, state: JSON, key: str) -> JSON:
        """`_light` from the indexes: his ladies and loans without scanning them all."""
        c = state["characters"][key]
        mine = {k for k in (c.get("mistress"), c.get("wife")) if k in self.ladies}
        keys = sorted(mine.union(self.pregnant.get(key, ())),
                      key=self.lady_position.__getitem__)
        return dict(state, characters={key: c}, ladies={k: self.ladies[k] for k in keys},
                    loans=list(self.loans.get(key, ())))


def _parts(state: JSON) -> tuple[tuple[Any, int], ...]:
    """The collections a `_ParseContext` indexes, with their sizes."""
    parts = (state["characters"], state.get("ladies", {}), state.get("loans", ()))
    return tuple((part, len(part)) for part in parts)


def _forms_states(state: JSON, characters: Sequence[str]) -> dict[str, GameState]:
    """Each listed character's `_light` state for his order form, all in one pass: the
    form reads only him, the ladies with child by him and the challenges to him, so
    those are indexed once instead of scanning every lady and challenge per form."""
    ladies = state.get("ladies", {})
    by_father: dict[str, list[str]] = {}
    for lady_key, lady in ladies.items():
        if lady.get("pregnant_by"):
            by_father.setdefault(lady["pregnant_by"], []).append(lady_key)
    position = {lady_key: i for i, lady_key in enumerate(ladies)}
    challenged: dict[str, list[Challenge]] = {}
    for raw in state.get("challenges", ()):
        challenge = Challenge.from_dict(raw)
        challenged.setdefault(challenge.challenged, []).append(challenge)
    out = {}
    for key in characters:
        c = state["characters"][key]
        mine = {k for k in (c.get("mistress"), c.get("wife")) if k in ladies}
        keys = sorted(mine.union(by_father.get(key, ())), key=position.__getitem__)
        out[key] = GameState(state["name"], state["month"], state["year"], state["turn"],
                             {key: Character.from_dict(c)},
                             ladies={k: Lady.from_dict(ladies[k]) for k in keys},
                             challenges=tuple(challenged.get(key, ())))
    return out


def orders_for_month(c: Character, submitted: JSON | None) -> tuple[Character, OrderSet, bool]:
    """This month's effective orders (EG §D; reference §11 'indisposed').

    Sent orders replace the stored standing/NMR sets when they mention them; with no
    orders the NMR set is used, and with none of those he is indisposed: no actions,
    but support (at his standing level), dues and rent are still paid.
    """
    standing = OrderSet.from_dict(c.standing)
    nmr = c.nmr
    if submitted is not None:
        sent = MonthOrders.from_dict(submitted)
        standing = sent.standing if sent.standing is not None else standing
        if sent.nmr is not None:
            nmr = None if sent.nmr.is_empty() else sent.nmr.to_dict()
        month, indisposed, missed = sent.month, False, 0
    elif nmr:
        month, indisposed, missed = OrderSet.from_dict(nmr), False, c.missed_months + 1
    else:
        support = tuple(o for o in standing.premonth if isinstance(o, Support))
        month, indisposed, missed = OrderSet(premonth=support), True, c.missed_months + 1
    effective = month if indisposed else month.filled_from(standing)
    stored = None if standing.is_empty() else standing.to_dict()
    return replace(c, standing=stored, nmr=nmr, missed_months=missed), effective, indisposed


class EnGardeEngine:
    """En Garde! (Elan PBEM variant): Paris society, sections A–P in part."""

    kind = "engarde"
    title = "En Garde!"
    gazette_title = "Le Sport de Paris"
    takes_decisions = True  # cause, admit, appoint ... (docs/engarde-orders.md)
    phases = (phases.MONTH,)  # the month's turn order (EG §C–E), as `adjudicate` runs it
    reserved_names = staticmethod(npcs.reserved_names)  # names no player may take

    def load_tables(self, raw: Mapping[str, Mapping[str, Any]]) -> Tables:
        return load_tables(raw)

    def new_game(self, name: str, tables: Tables, dice: Dice) -> JSON:
        t = _tables(tables)
        return GameState(name, t.start_month, t.start_year, 1, {}).to_dict()

    def add_character(self, state: JSON, key: str, name: str, tables: Tables,
                      dice: Dice) -> tuple[JSON, tuple[Event, ...]]:
        game = GameState.from_dict(state)
        if key in game.characters:
            raise ValueError(f"character {key!r} already exists")
        character, events = roll_character(key, name, _tables(tables),
                                           dice.stream(f"birth:{key}"))
        game = replace(game, characters={**game.characters, key: character})
        return game.to_dict(), events

    _context: _ParseContext | None = None  # the last state's (see `_ParseContext`)

    def parse_orders(self, text: str, state: JSON, character: str,
                     tables: Tables) -> ParsedOrders:
        # Only the ordering character is built: parsing stays cheap in a big game.
        t = _tables(tables)
        context = self._context
        if context is None or not context.fits(state, t):
            context = self._context = _ParseContext(state, t)
        return submission.parse_orders(text, GameState.from_dict(context.light(state, character)),
                                       character, t, context.names, context.ladies,
                                       look=context.look)

    def adjudicate(self, state: JSON, orders: Mapping[str, JSON], tables: Tables,
                   dice: Dice) -> TurnResult:
        t = _tables(tables)
        game = GameState.from_dict(state)
        characters, resolved = {}, {}
        for key in sorted(game.characters):
            c, effective, indisposed = orders_for_month(game.characters[key], orders.get(key))
            characters[key], resolved[key] = c, (effective, indisposed)
        game = replace(game, characters=characters)
        m = Month(game, t, dice, resolved)
        for a in m:
            if a.indisposed:
                m.emit(a.key, EventId.CHARACTER_INDISPOSED, {"months": a.c.missed_months})
        phases.run(m)
        month, year = (game.month % 12) + 1, game.year + (game.month == 12)
        new = GameState(game.name, month, year, game.turn + 1, m.characters(), m.theatre,
                        m.ladies, m.lady_serial, tuple(m.loans), m.loan_serial,
                        tuple(m.matters), tuple(m.challenges), tuple(m.charges),
                        m.charge_serial, m.decisions, m.campaign)
        return TurnResult(new.to_dict(), tuple(m.events))

    def validate_state(self, state: JSON, tables: Tables) -> list[str]:
        return validate_state(state, _tables(tables))

    def finished(self, state: JSON) -> str | None:
        """Never: an En Garde! campaign has no end in its rules; it runs month after
        month for as long as its GM runs it."""
        return None

    def turn_label(self, state: JSON) -> str:
        # Read straight from the dict: building the whole `GameState` is O(characters).
        return f"{_MONTHS[state['month'] - 1]} {state['year']}"

    def out_of_play(self, state: JSON) -> frozenset[str]:
        """The optional `Retiring` capability: the dead take no further part (reference
        §5.5), so their players owe no orders."""
        return frozenset(k for k, c in state["characters"].items() if c.get("dead"))

    def character_name(self, state: JSON, character: str) -> str:
        return str(state["characters"][character]["name"])

    def order_form(self, state: JSON, character: str, tables: Tables) -> str:
        return build_form(GameState.from_dict(_light(state, character)), character,
                          _tables(tables), character_names(state), lady_names(state))

    def order_forms(self, state: JSON, characters: Sequence[str],
                    tables: Tables) -> dict[str, str]:
        """`order_form` for each of ``characters`` (a turn's sheets): the same forms, with
        the names, lookups and per-character states built once for all of them, where
        `order_form` builds them for every reader (quadratic over a turn)."""
        t = _tables(tables)
        names, ladies = character_names(state), lady_names(state)
        look = Lookup(names, t, ladies)
        return {key: build_form(light, key, t, names, ladies, look)
                for key, light in _forms_states(state, characters).items()}

    def newsletter_context(self, before: JSON, after: JSON, events: Sequence[Event],
                           characters: Sequence[str], tables: Tables) -> NewsletterContext:
        gazette, sheets = newsletter_context(before, after, events, characters,
                                             _tables(tables))
        return NewsletterContext(gazette, sheets)

    def decisions_due(self, state: JSON) -> list[str]:
        """The optional `Deciding` capability: the GM's decisions the next run looks for."""
        return decisions_due(GameState.from_dict(state))

    def month_label(self, state: JSON, tables: Tables) -> str:
        return month_label(GameState.from_dict(state), _tables(tables))

    def forecast(self, state: JSON, orders: Mapping[str, JSON], tables: Tables,
                 prepared: ForecastWorld | None = None) -> dict[str, tuple[str, ...]]:
        """The optional `Forecasting` capability (moderator.games.base): see forecast.py.
        ``prepared``: `prepare_forecast` of this very ``state`` (`PreparedForecasting`)."""
        return forecast.forecast(state, orders, _tables(tables), self.adjudicate, prepared)

    def prepare_forecast(self, state: JSON) -> ForecastWorld:
        return forecast.index(state)
