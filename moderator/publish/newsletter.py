"""Rendering one turn's newsletters: the public gazette and each private turn sheet.

Pure apart from reading templates: the same turn data always renders the same
bytes, which is what lets `turn rerun` compare newsletters byte for byte.

The GM's desk adds two things to every gazette's context: ``gm_notes`` (a list of
strings: the notes of results-changing GM actions since the last gazette, and the
correction note of a reissue) and ``correction`` (that note, or None).  A corrected
reissue's subjects start with ``CORRECTION:``.  Every game's gazette template prints
``gm_notes`` (and both templates show ``correction`` at the top).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moderator.games.base import Event, GameEngine, NewsletterContext
from moderator.games.capabilities import RecordReading, TurnRecord
from moderator.publish import pool
from moderator.publish.render import markdown_to_parts, render, warm


@dataclass(frozen=True)
class Rendered:
    subject: str
    markdown: str
    html: str
    text: str


@dataclass(frozen=True)
class Reader:
    """Who a turn sheet is for."""

    player_id: int
    character: str
    name: str
    email: str
    time_zone: str | None = None  # his own (``TIME ZONE``); None: the game's only


@dataclass(frozen=True)
class TurnData:
    game_name: str
    turn_number: int
    turn_label: str
    next_deadline: str | None
    before: dict[str, Any]
    after: dict[str, Any]
    events: Sequence[Event]
    dice: Sequence[Mapping[str, Any]]
    gm_notes: Sequence[str] = ()
    correction: str | None = None  # a corrected reissue: the note saying so
    # Whose orders came in (character keys); None: not known, and the sheets say nothing.
    orders_from: frozenset[str] | None = None
    # Each character's own orders of the turn, as parsed (for an engine that reads them,
    # `RecordReading`: a sheet says what became of them); None: not known.
    orders: Mapping[str, Any] | None = None
    # The next deadline in a reader's own zone, by player id, for the readers who have
    # one that writes it otherwise (`clock.format_deadline_for`): his sheet shows both.
    own_deadlines: Mapping[int, str] = field(default_factory=dict)
    # What the NMR policy does to a reader after this turn, by player id (Markdown,
    # `moderator.turn.nmr.sheet_notices`): his sheet says it beside the no-orders notice.
    notices: Mapping[int, str] = field(default_factory=dict)
    # Characters out of the game (En Garde!'s dead): they owe no orders, and their
    # sheets say nothing of having sent none.
    out_of_play: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RenderedTurn:
    gazette: Rendered
    sheets: Mapping[int, Rendered]  # by player id


CORRECTION_PREFIX = "CORRECTION: "


def gm_notes(data: TurnData) -> list[str]:
    """The notes the gazette prints: the correction first, then the GM's notes."""
    return ([data.correction] if data.correction else []) + list(data.gm_notes)


def _subject(data: TurnData, subject: str) -> str:
    return CORRECTION_PREFIX + subject if data.correction else subject


def _finish(subject: str, markdown: str) -> Rendered:
    """The three forms of one newsletter; the text part is written from the HTML."""
    return Rendered(subject, markdown, *markdown_to_parts(markdown, subject))


@dataclass(frozen=True)
class _SheetJob:
    """Everything one turn's sheets need, shared by all of them (and, under fork, by the
    worker processes, which inherit it instead of receiving it pickled)."""

    templates_dir: Path
    template: str
    common: Mapping[str, Any]  # the context every sheet shares
    data: TurnData
    readers: Sequence[Reader]
    own_events: Mapping[str, list[dict[str, Any]]]
    own_dice: Mapping[str, list[Mapping[str, Any]]]
    forms: Mapping[str, str]
    contexts: Mapping[str, Any]
    no_orders: str | None
    """The game's no-orders notice template (`no_orders_template`), None if it has none."""

    def warm(self) -> None:
        """Compile the template and build the converter (before workers fork)."""
        warm(self.templates_dir, self.template)

    def sheet(self, reader: Reader) -> Rendered:
        sheet_md = render(
            self.templates_dir, self.template, **self.common,
            character=reader.character,
            events=self.own_events.get(reader.character, []),
            dice=self.own_dice.get(reader.character, []),
            order_form=self.forms[reader.character],
            ctx=self.contexts[reader.character],
            own_deadline=self.data.own_deadlines.get(reader.player_id),
        )
        notices = [self.data.notices.get(reader.player_id, "")]
        if self.data.orders_from is not None and reader.character not in self.data.orders_from \
                and reader.character not in self.data.out_of_play:
            notices.insert(0, self._no_orders(reader))
        sheet_md = _with_notice(sheet_md, "\n\n".join(n.strip() for n in notices if n.strip()))
        subject = _subject(self.data, f"[{self.data.game_name}] Turn sheet for {reader.name}, "
                                      f"{self.data.turn_label}")
        return _finish(subject, sheet_md)

    def _no_orders(self, reader: Reader) -> str:
        """What the sheet of a reader who sent no orders says about it: the game's own
        ``no-orders.md.j2``, given the reader's events (none: the game's sheet says it
        itself, as Fief's does)."""
        if self.no_orders is None:
            return ""
        return render(self.templates_dir, self.no_orders, game=self.common["game"],
                      turn=self.common["turn"],
                      events=self.own_events.get(reader.character, []))


NO_ORDERS_TEMPLATE = "no-orders.md.j2"


def no_orders_template(templates_dir: Path, kind: str) -> str | None:
    """The game's no-orders notice template, if it has one: looked for once a turn, not
    once a sheet."""
    name = f"{kind}/{NO_ORDERS_TEMPLATE}"
    return name if (templates_dir / name).exists() else None


def _with_notice(sheet_md: str, notice: str) -> str:
    """The sheet with a notice paragraph after its title (at the top if it has none)."""
    if not notice.strip():
        return sheet_md
    lines = sheet_md.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    return "\n".join([*lines[:at], "", notice.strip(), "", *lines[at:]])


def render_turn(
    templates_dir: Path,
    engine: GameEngine,
    tables: Any,
    data: TurnData,
    readers: Sequence[Reader],
    workers: int | None = None,
) -> RenderedTurn:
    """The gazette and every reader's sheet.  ``workers``: processes for the sheets (None:
    the machine's cores for a turn of ``pool.PARALLEL_FROM`` sheets or more, else this
    process); the bytes are the same whichever renders them."""
    game = {"name": data.game_name, "kind": engine.kind, "title": engine.title}
    contexts = _contexts(engine, tables, data, [r.character for r in readers])
    turn = {"number": data.turn_number, "label": data.turn_label}
    event_dicts = [event.to_dict() for event in data.events]
    # The same for every sheet: computed once (the engine's label may read the whole state).
    next_label = engine.turn_label(data.after)
    notes = gm_notes(data)
    # Index events and dice by character once: filtering per sheet would be O(n²).
    own_events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in event_dicts:
        if e["actor"] is not None:
            own_events[e["actor"]].append(e)
    own_dice: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for roll in data.dice:
        if roll.get("actor") is not None:
            own_dice[roll["actor"]].append(roll)
    job = _SheetJob(
        templates_dir, f"{engine.kind}/turnsheet.md.j2",
        {"game": game, "turn": turn, "next_deadline": data.next_deadline,
         "next_label": next_label, "gm_notes": notes, "correction": data.correction},
        data, readers, own_events, own_dice,
        _order_forms(engine, data.after, [r.character for r in readers], tables),
        contexts.sheets, no_orders_template(templates_dir, engine.kind))
    with pool.SheetPool(job, len(readers), workers) as sheets:
        gazette_md = render(
            templates_dir,
            f"{engine.kind}/gazette.md.j2",
            game=game,
            turn=turn,
            next_deadline=data.next_deadline,
            events=[e for e in event_dicts if e["public"]],
            next_label=next_label,
            ctx=contexts.gazette,
            gm_notes=notes,
            correction=data.correction,
        )
        gazette = _finish(_subject(data, f"[{data.game_name}] {_paper(engine)}, "
                                         f"{data.turn_label}"), gazette_md)
        rendered = sheets.results()
    return RenderedTurn(gazette, {r.player_id: sheet
                                  for r, sheet in zip(readers, rendered, strict=True)})


def _contexts(engine: GameEngine, tables: Any, data: TurnData,
              characters: Sequence[str]) -> NewsletterContext:
    """The engine's contexts: from the turn's whole record (its orders and dice log too)
    when the engine reads it (`RecordReading`), else from the states and events."""
    if isinstance(engine, RecordReading):
        return engine.record_newsletter_context(data.before, data.after, data.events,
                                                TurnRecord(data.orders, data.dice),
                                                characters, tables)
    return engine.newsletter_context(data.before, data.after, data.events, characters,
                                     tables)


def _order_forms(engine: GameEngine, state: dict[str, Any], characters: Sequence[str],
                 tables: Any) -> Mapping[str, str]:
    """Every reader's order form: through the engine's ``order_forms`` when it has one
    (one shared index for the whole turn), else `GameEngine.order_form` one by one."""
    batch = getattr(engine, "order_forms", None)
    if batch is not None:
        return batch(state, characters, tables)  # type: ignore[no-any-return]
    return {c: engine.order_form(state, c, tables) for c in characters}


def _paper(engine: GameEngine) -> str:
    return engine.gazette_title
