"""`moderator site build`: the archive as a static site, plain files for any web server.

::

    site/index.html                         every game
    site/style.css
    site/GAME/index.html                    its issues, charts, characters; feed; calendar
    site/GAME/issue-003.html                a gazette (previous / next)
    site/GAME/issue-003-original-1.html     a printing a correction superseded
    site/GAME/people/KEY.html               a character's public history and chart
    site/GAME/charts/*.svg                  matplotlib, deterministic
    site/GAME/feed.atom, site/GAME/deadlines.ics

Only gazettes and public events are read (`records`): the private turn sheets never
reach the site.  Every page's body passes the site's nh3 allowlist.  The output depends
only on the database and the templates: a rebuild writes the same bytes (files that did
not change are not rewritten, files no game produces any more are removed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from sqlmodel import Session

from moderator.clock import format_local
from moderator.games import find_engine
from moderator.games.base import GameEngine, label_in_sentence
from moderator.publish.render import CSS, markdown_body, render
from moderator.publish.sanitize import SITE_POLICY, escape_text, sanitize
from moderator.publish.site import charts, feeds
from moderator.publish.site.output import Output, locked, write_changed
from moderator.publish.site.records import (
    GameRecord,
    TurnResult,
    html_body,
    read_games,
    read_summaries,
)
from moderator.settings.config import Config, game_tables
from moderator.store import repo

_SITE_CSS = CSS + """
body { margin: 0; background-color: #fffdf7; }
nav.crumbs { font-size: 0.9em; margin: 0.8em 0; display: flex; flex-wrap: wrap;
  gap: 0.4em 1.2em; }
nav.crumbs a { color: #1b4f72; }
p.notice { border: 1px solid #a93226; background-color: #fbeee6; padding: 0.5em 0.8em; }
figure { margin: 0.8em 0; }
figure img { max-width: 100%; height: auto; }
ul.issues li, ul.people li { margin: 0.1em 0; }
section.issue { border-top: 1px solid #dddddd; margin-top: 1em; }
@media (max-width: 480px) { div.page { font-size: 16px; padding: 0 8px; } }
"""
# The twelve highest at the last issue: a chart of more lines cannot be read.
POLE_LINES = 12


@dataclass(frozen=True)
class Person:
    key: str
    name: str


@lru_cache(maxsize=4)
def _html_env(templates_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir)),
                              undefined=jinja2.StrictUndefined, autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


def _page(config: Config, name: str, root: str, title: str, **context: Any) -> str:
    """One site page: the template's body through the allowlist, in our own <head>."""
    env = _html_env(config.templates_dir.resolve())
    body = env.get_template(name).render(root=root, title=title, **context)
    feed = context.get("feed")
    return env.get_template("site/layout.html.j2").render(
        title=Markup(escape_text(title)), root=root, feed=feed,
        body=Markup(sanitize(body, SITE_POLICY)))


# ---- per game kind: who has a page, what is charted ---------------------------------

def _people(kind: str, state: dict[str, Any]) -> dict[str, str]:
    if kind == "engarde":
        return {k: str(c["name"]) for k, c in state.get("characters", {}).items()}
    return {k: str(p["name"]) for k, p in state.get("players", {}).items()}


def _person_values(kind: str, state: dict[str, Any], key: str) -> dict[str, float | None]:
    if kind == "engarde":
        c = state.get("characters", {}).get(key)
        return {"SL": c["sl"], "SP this month": c.get("sp_month", 0)} if c else {}
    p = state.get("players", {}).get(key)
    return {"PP": p.get("pp", 0), "IP": p.get("ip", 0)} if p else {}


def _game_charts(game: GameRecord, names: dict[str, str]) -> list[tuple[str, str, str]]:
    """(file, alt text, svg) of the game page's charts."""
    labels = [t.label for t in game.turns]
    if not game.turns:
        return []
    last = game.turns[-1].after
    if game.kind == "engarde":
        rows = [{k: c["sl"] for k, c in t.after["characters"].items()} for t in game.turns]
        top = sorted(last["characters"], key=lambda k: (-last["characters"][k]["sl"],
                                                        names.get(k, k), k))[:POLE_LINES]
        svg = charts.line_chart("The greasy pole", labels, charts.by_key(rows, top, names), "SL")
        return [("pole.svg", f"Social levels over time of the {len(top)} highest at the "
                             f"last issue", svg)]
    support = charts.line_chart("The Monarch's Support", labels,
                                [charts.Series("Support", [t.after.get("support", 0)
                                                           for t in game.turns])],
                                "Support", legend=False)
    rows = [{k: p.get("pp", 0) for k, p in t.after.get("players", {}).items()}
            for t in game.turns]
    keys = sorted(last.get("players", {}), key=lambda k: (names.get(k, k), k))
    power = charts.line_chart("Power Points of each faction", labels,
                              charts.by_key(rows, keys, names), "PP")
    return [("support.svg", "The Monarch's Support over time", support),
            ("power.svg", "Each faction's Power Points over time", power)]


# ---- events as prose ------------------------------------------------------------------

_ITEM = re.compile(r"<li>(.*?)</li>", re.S)


def _event_lines(config: Config, game: GameRecord, turn: TurnResult,
                 names: dict[str, str]) -> list[str]:
    """Each public event of a turn as one line of HTML, in the events' order."""
    if not turn.events:
        return []
    markdown = render(config.templates_dir, "site/events.md.j2", kind=game.kind,
                      events=list(turn.events), names=names)
    lines = _ITEM.findall(markdown_body(markdown))
    return lines if len(lines) == len(turn.events) else [""] * len(turn.events)


# An announcement's actor is its author, whom the gazette names only when he signed it
# (the press, reference §13, in both games): an unsigned or alias one is about no one,
# on the site either.
_ANNOUNCEMENT = "press.announcement"


def _mentions(event: dict[str, Any], people: dict[str, str]) -> set[str]:
    """The people an event is about: its actor and anyone named in its arguments; an
    announcement, only its signer."""
    if event.get("id") == _ANNOUNCEMENT:
        signer = event.get("args", {}).get("signed")
        return {signer} if signer in people else set()
    found = {event["actor"]} if event.get("actor") in people else set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value in people:
                found.add(value)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(event.get("args", {}))
    return found


# ---- the build ------------------------------------------------------------------------

def _issue_file(number: int) -> str:
    return f"issue-{number:03d}.html"


def _original_file(number: int, k: int) -> str:
    return f"issue-{number:03d}-original-{k}.html"


def _local(moment: datetime | None, zone: str) -> str:
    if moment is None:
        return ""
    return format_local(moment, zone, "%d %B %Y, %H:%M").lstrip("0")


def _names_of(engine: GameEngine, tables: Any, turn: TurnResult) -> dict[str, str]:
    context = engine.newsletter_context(turn.before, turn.after, [], [], tables)
    return {str(k): str(v) for k, v in context.gazette.get("names", {}).items()}


def _build_game(config: Config, game: GameRecord, out: Output) -> None:
    engine = find_engine(game.kind)
    tables = game_tables(config, game.name, game.kind)
    base = game.name
    people: dict[str, str] = {}
    for t in game.turns:
        people.update(_people(game.kind, t.after))
    history: dict[str, list[tuple[TurnResult, list[str]]]] = {k: [] for k in people}
    names: dict[str, str] = {}
    for t in game.turns:
        names = _names_of(engine, tables, t)
        lines = _event_lines(config, game, t, names)
        per: dict[str, list[str]] = {}
        for event, line in zip(t.events, lines, strict=True):
            for key in sorted(_mentions(event, people)):
                per.setdefault(key, []).append(line)
        for key, found in per.items():
            history[key].append((t, found))
    labels = {**people}
    roster = sorted((Person(k, v) for k, v in people.items()), key=lambda p: (p.name, p.key))
    chart_files = _game_charts(game, labels)
    for file, _alt, svg in chart_files:
        out.add(f"{base}/charts/{file}", svg)
    _issue_pages(config, game, engine, out)
    _people_pages(config, game, engine, roster, history, out)
    paper = engine.gazette_title
    out.add(f"{base}/index.html", _page(
        config, "site/game.html.j2", "../", f"{paper}: {game.name}", game=game, paper=paper,
        engine=engine, issues=list(reversed(game.issues)), people=roster,
        charts=[(f"charts/{f}", alt) for f, alt, _ in chart_files],
        issue_file=_issue_file, original_file=_original_file,
        when=lambda m: _local(m, game.time_zone), feed="feed.atom"))
    out.add(f"{base}/feed.atom", feeds.atom(game.name, f"{paper}: {game.name}",
                                            list(_entries(game, paper))))
    out.add(f"{base}/deadlines.ics", feeds.ics(game.name, f"{game.name} deadlines",
                                               list(_deadlines(game))))


def _entries(game: GameRecord, paper: str) -> Iterable[feeds.FeedEntry]:
    for issue in game.issues:
        yield feeds.FeedEntry(f"issue-{issue.number:03d}", issue.current.subject,
                              _issue_file(issue.number), issue.current.published,
                              f"{paper} no. {issue.number}, {issue.label}"
                              + (" (corrected)" if issue.superseded else ""))
        for k, old in enumerate(issue.superseded, 1):
            yield feeds.FeedEntry(f"issue-{issue.number:03d}-original-{k}",
                                  f"{old.subject} (superseded)",
                                  _original_file(issue.number, k), old.published,
                                  f"{paper} no. {issue.number}, {issue.label}: the printing "
                                  "a correction replaced")


def _deadlines(game: GameRecord) -> Iterable[feeds.Deadline]:
    rows = [(t.number, t.label, t.deadline, t.announcement_deadline) for t in game.turns]
    if game.open_turn:
        rows.append(game.open_turn)
    for number, label, orders, announcements in rows:
        if announcements is not None:
            yield feeds.Deadline(f"turn-{number}-announcements",
                                 f"{game.name}: announcements and challenges for "
                                 f"{label_in_sentence(label)}",
                                 announcements)
        if orders is not None:
            yield feeds.Deadline(f"turn-{number}-orders",
                                 f"{game.name}: orders for {label_in_sentence(label)}", orders)


def _issue_pages(config: Config, game: GameRecord, engine: GameEngine, out: Output) -> None:
    issues = list(game.issues)
    for i, issue in enumerate(issues):
        prev = issues[i - 1] if i > 0 else None
        nxt = issues[i + 1] if i + 1 < len(issues) else None
        common = {"game": game, "issue": issue, "paper": engine.gazette_title,
                  "prev": _issue_file(prev.number) if prev else None,
                  "next": _issue_file(nxt.number) if nxt else None,
                  "feed": "feed.atom", "when": lambda m: _local(m, game.time_zone)}
        out.add(f"{game.name}/{_issue_file(issue.number)}", _page(
            config, "site/issue.html.j2", "../", issue.current.subject,
            body=html_body(issue.current.html), superseded=False,
            originals=[(_original_file(issue.number, k), e)
                       for k, e in enumerate(issue.superseded, 1)],
            this=None, corrected=None, **common))
        for k, old in enumerate(issue.superseded, 1):
            out.add(f"{game.name}/{_original_file(issue.number, k)}", _page(
                config, "site/issue.html.j2", "../", f"{old.subject} (superseded)",
                body=html_body(old.html), superseded=True, originals=[], this=old,
                corrected=_issue_file(issue.number), **common))


def _people_pages(config: Config, game: GameRecord, engine: GameEngine,
                  roster: Sequence[Person],
                  history: dict[str, list[tuple[TurnResult, list[str]]]], out: Output) -> None:
    labels = [t.label for t in game.turns]
    by_label = {i.label: i.number for i in game.issues}
    for person in roster:
        values = [_person_values(game.kind, t.after, person.key) for t in game.turns]
        measures = sorted({m for v in values for m in v})
        series = [charts.Series(m, [v.get(m) for v in values]) for m in measures]
        chart = charts.line_chart(person.name, labels, series, " / ".join(measures),
                                  height=260)
        out.add(f"{game.name}/charts/people/{person.key}.svg", chart)
        out.add(f"{game.name}/people/{person.key}.html", _page(
            config, "site/person.html.j2", "../../", f"{person.name}: {game.name}",
            game=game, person=person, paper=engine.gazette_title,
            chart=f"../charts/people/{person.key}.svg", history=[
                (t, _issue_file(by_label[t.label]) if t.label in by_label else None, lines)
                for t, lines in history.get(person.key, [])],
            feed="../feed.atom"))


def build_site(session: Session, config: Config, out_dir: Path,
               games: Sequence[str] | None = None,
               progress: Callable[[str], None] | None = None) -> list[str]:
    """Build (or rebuild) the site into ``out_dir``; the files written or changed.

    ``games``: only those games' folders are built (the rebuild after a turn); the index
    of games is always rewritten, from every game's issues (`read_summaries`, which
    reads no states), so it is the same as a full build's.  A game not built yet (new, or
    the site switched on late) is built with them, so that every link of the index
    resolves.

    One build at a time writes a folder (`locked`), reading the database once it holds
    it: two workers publishing two games at once would otherwise race, the one that read
    first writing an index without the other's new issue."""
    with locked(out_dir):
        session.expire_all()  # read what was committed until the lock was ours
        if games is not None:
            games = [*games, *(g.name for g in repo.games(session)
                               if not (out_dir / g.name / "index.html").is_file())]
        out = Output()
        records = read_games(session, games)
        for game in records:
            if progress:
                progress(game.name)
            _build_game(config, game, out)
        listed = [_summary(g) for g in (records if games is None else read_summaries(session))]
        out.add("index.html", _page(config, "site/index.html.j2", "", "The archive",
                                    games=listed, issue_file=_issue_file, feed=None))
        out.add("style.css", _SITE_CSS.lstrip())
        built = sorted(g.name for g in records)
        return write_changed(out_dir, out, only=built if games is not None else None)


def _summary(game: GameRecord) -> dict[str, Any]:
    engine = find_engine(game.kind)
    return {"name": game.name, "paper": engine.gazette_title, "title": engine.title,
            "issues": len(game.issues), "latest": game.issues[-1] if game.issues else None}
