"""Issue 12: the archive as a static site (`moderator site build`).

Built from games played through the real service: the index, each game's issues with
previous/next links, a corrected issue beside the original it supersedes, a page per
character, SVG charts, an Atom feed and an iCalendar file.  Every link resolves; no turn
sheet reaches the site; a rebuild writes the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.desk import admin
from moderator.intake.process import process_message
from moderator.publish.site import build_site, feeds
from moderator.settings.config import Config
from moderator.store.db import session_scope
from moderator.store.models import Newsletter
from moderator.turn.run import run_turn
from tests.publish.conftest import Played
from tests.publish.payloads import PAYLOADS, html_problems

from support import order_mail


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


def broken_links(site: Path) -> list[str]:
    """Every relative href/src of every page that names no file of the site."""
    broken = []
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("#"):
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(site)} -> {link}")
    return broken


@pytest.fixture
def site(played_games: Played) -> Path:
    return played_games.site


def test_the_site_has_an_index_issues_people_charts_feed_and_calendar(site: Path) -> None:
    files = set(tree(site))
    for game, charts in (("paris", ["pole.svg"]), ("fandonia", ["support.svg", "power.svg"])):
        assert {f"{game}/index.html", f"{game}/feed.atom", f"{game}/deadlines.ics",
                f"{game}/issue-001.html", f"{game}/issue-002.html"} <= files
        assert {f"{game}/charts/{c}" for c in charts} <= files
        assert any(f.startswith(f"{game}/people/") for f in files)
    index = (site / "index.html").read_text()
    assert 'href="paris/index.html"' in index and 'href="fandonia/index.html"' in index
    issue2 = (site / "paris/issue-002.html").read_text()
    assert 'href="issue-001.html"' in issue2 and 'href="issue-003.html"' in issue2
    assert 'rel="prev"' not in (site / "paris/issue-001.html").read_text()
    person = (site / "paris/people/jacques-de-lyon.html").read_text()
    assert "Jacques de Lyon" in person and 'src="../charts/people/jacques-de-lyon.svg"' in person
    assert "falls to SL" in person or "rises to SL" in person or "holds SL" in person
    game = (site / "paris/index.html").read_text()
    assert 'src="charts/pole.svg"' in game and 'href="people/jacques-de-lyon.html"' in game


def test_every_link_in_the_site_resolves(site: Path) -> None:
    assert broken_links(site) == []


def test_a_correction_keeps_the_original_marked_superseded(site: Path,
                                                          played_games: Played) -> None:
    corrected_page = (site / "paris/issue-002.html").read_text()
    original_page = (site / "paris/issue-002-original-1.html").read_text()
    assert "Corrected issue." in corrected_page
    assert 'href="issue-002-original-1.html"' in corrected_page
    assert "Superseded." in original_page and 'href="issue-002.html"' in original_page
    assert "CORRECTION: this issue replaces" in corrected_page
    assert "CORRECTION: this issue replaces" not in original_page
    # Both printings of the month, with their different results.
    assert re.search(r"Jacques de Lyon falls to SL 8", corrected_page)
    assert not re.search(r"Jacques de Lyon falls to SL 8", original_page)
    listing = (site / "paris/index.html").read_text()
    assert "original printing" in listing
    feed = ET.fromstring((site / "paris/feed.atom").read_bytes())
    ns = {"a": "http://www.w3.org/2005/Atom"}
    titles = [e.findtext("a:title", namespaces=ns) for e in feed.findall("a:entry", ns)]
    assert sum("(superseded)" in (t or "") for t in titles) == 2  # months 2 and 3
    assert len(titles) == 5
    # The private archive keeps the original printing too.
    archive = played_games.folder / "archive" / "paris" / "turn-002"
    assert (archive / "superseded-1" / "gazette.html").is_file()
    assert (archive / "gazette.md").read_text() != \
        (archive / "superseded-1" / "gazette.md").read_text()


def test_no_turn_sheet_reaches_the_site(site: Path, played_games: Played) -> None:
    with Session(played_games.db) as session:
        sheets = list(session.exec(select(Newsletter).where(Newsletter.kind == "turnsheet")))
    assert sheets
    pages = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*")
                      if p.is_file() and p.suffix in (".html", ".atom", ".ics"))
    for marker in ("Turn sheet for", "Dice rolled for you", "Closing balance",
                   "Your hand and draws", "PASSWORD"):
        assert marker not in pages
    assert not [p for p in site.rglob("*") if "sheet" in p.name]


def test_a_rebuild_writes_the_same_bytes(site: Path, played_games: Played,
                                         tmp_path: Path) -> None:
    first = tree(site)
    config = played_games.config
    with Session(played_games.db) as session:
        assert build_site(session, config, site) == []  # nothing to write
        build_site(session, config, tmp_path / "again")
        build_site(session, config, site, ["paris"])  # one game: the rest is kept
    assert tree(tmp_path / "again") == first
    assert tree(site) == first
    svg = (site / "paris/charts/pole.svg").read_text()
    assert svg.startswith("<?xml") and "<dc:date>" not in svg


def test_the_feed_and_the_calendar_are_well_formed(site: Path) -> None:
    feed = ET.fromstring((site / "fandonia/feed.atom").read_bytes())
    assert feed.tag == "{http://www.w3.org/2005/Atom}feed"
    calendar = (site / "paris/deadlines.ics").read_bytes()
    lines = calendar.decode().split("\r\n")
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR"
    assert all(len(line.encode()) <= 75 for line in lines)
    assert calendar.count(b"BEGIN:VEVENT") >= 3
    assert b"SUMMARY:paris: orders for" in calendar


def _script_problems(path: Path) -> list[str]:
    """What in a chart, feed or calendar file could run a script or fetch something: an
    SVG opened on its own runs its scripts, so the names in it must stay text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ics":  # a name must not end a line and start a field of its own
        fields = [line for line in text.split("\r\n") if line and not line.startswith(" ")]
        return [f"not a field: {line[:40]}" for line in fields
                if not re.match(r"^[A-Z][A-Z-]*[:;]", line)]
    problems = []
    for element in ET.fromstring(text.encode("utf-8")).iter():
        tag = str(element.tag).rsplit("}", 1)[-1].lower()
        if tag in ("script", "foreignobject", "iframe", "img", "a", "image", "use"):
            problems.append(f"<{tag}>")
        for name, value in element.attrib.items():
            name = name.rsplit("}", 1)[-1].lower()
            if name.startswith("on"):
                problems.append(f"<{tag} {name}=>")
            if name == "href" and re.match(r"^\s*([a-z][a-z0-9+.-]*:|//)", value, re.I):
                problems.append(f"<{tag} href={value[:30]}>")
    return problems


def test_hostile_names_and_press_are_inert_on_the_site(site_db: Engine, site_config: Config,
                                                       tmp_path: Path) -> None:
    hostile = ("Eve <img src=x onerror=alert(1)>", "Mal [a](javascript:x)",
               "Zed </text><script>alert(1)</script>\r\nX-EVIL:1")
    with session_scope(site_db) as session:
        admin.create_game(session, site_config, "xss", "engarde", seed=3)
        admin.create_game(session, site_config, "xsk", "dwtk", seed=7)
        for game in ("xss", "xsk"):
            for k, name in enumerate(hostile):
                admin.add_player(session, site_config, game, f"p{k}@x.example", name,
                                 password=f"pw{k}")
    press = "\n".join(f'ANNOUNCE "{p}"' for p in PAYLOADS[:8])
    process_message(site_db, site_config, order_mail(
        "p0@x.example", f"PASSWORD: pw0\nANYTIME:\n{press}\n", subject="[xss] orders",
        to="moderator+xss@paris.example"))
    for _ in range(2):
        run_turn(site_db, site_config, "xss")
        run_turn(site_db, site_config, "xsk")
    out = tmp_path / "site"
    with Session(site_db) as session:
        build_site(session, site_config, out)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        assert html_problems(page.read_text(encoding="utf-8")) == [], page
    issue = (out / "xss/issue-001.html").read_text()
    assert "onerror&#61;alert(1)" in issue or "onerror&#61;" in issue
    # The characters' pages, charts, feeds and calendars carry the names as text only.
    others = sorted(p for p in out.rglob("*") if p.suffix in (".svg", ".atom", ".ics"))
    assert any("/people/" in p.as_posix() for p in others)
    for path in others:
        assert _script_problems(path) == [], path
    charts = "\n".join(p.read_text(encoding="utf-8") for p in others if p.suffix == ".svg")
    assert "Eve &lt;img src=x onerror=alert(1)&gt;" in charts  # drawn, as text
    people = "\n".join(p.read_text(encoding="utf-8")
                        for p in sorted(out.glob("*/people/*.html")))
    assert "Eve &lt;img" in people and "Zed &lt;/text&gt;" in people
    assert broken_links(out) == []


def test_feed_and_calendar_text_never_becomes_markup_or_a_field() -> None:
    hostile = "Zed <script>alert(1)</script> & co\r\nX-EVIL:1\rBEGIN:VEVENT\n;,\\"
    at = datetime(2026, 12, 10, 18, tzinfo=UTC)
    calendar = feeds.ics("g", hostile, [feeds.Deadline("k", hostile, at)])
    fields = [line for line in calendar.split("\r\n") if line and not line.startswith(" ")]
    assert not [f for f in fields if f.startswith(("X-EVIL", "BEGIN:VEVENT\\"))]
    assert fields.count("BEGIN:VEVENT") == 1 and "\r" not in calendar.replace("\r\n", "")
    feed = feeds.atom("g", hostile, [feeds.FeedEntry("k", hostile, "issue-001.html", at,
                                                     hostile)])
    assert "<script" not in feed
    entry = ET.fromstring(feed.encode()).find("{http://www.w3.org/2005/Atom}entry")
    assert entry is not None
    as_read = hostile.replace("\r\n", "\n").replace("\r", "\n")  # XML reads any break as LF
    assert entry.findtext("{http://www.w3.org/2005/Atom}title") == as_read


@pytest.mark.parametrize("kind", ["engarde", "dwtk"])
@pytest.mark.parametrize("how", ["UNSIGNED", "AS The Masked Rapier"])
def test_an_unsigned_or_alias_announcement_is_on_no_character_s_page(
    site_db: Engine, site_config: Config, tmp_path: Path, how: str, kind: str,
) -> None:
    """The gazette prints an unsigned or alias announcement without its author (the
    press, reference §13); the site listed it on the author's own page (his history:
    every public event he is the actor of), so anyone could read who wrote it."""
    with session_scope(site_db) as session:
        admin.create_game(session, site_config, "anon", kind, seed=3)
        for k, name in enumerate(("Jacques de Lyon", "Cyrano de Bergerac", "Porthos")):
            admin.add_player(session, site_config, "anon", f"p{k}@x.example", name,
                             password=f"pw{k}")
    process_message(site_db, site_config, order_mail(
        "p0@x.example", f'PASSWORD: pw0\n{"ANYTIME:" if kind == "engarde" else ""}\n'
                        f'ANNOUNCE "Cyrano cheats at cards" {how}\n',
        subject="[anon] orders", to="moderator+anon@paris.example"))
    run_turn(site_db, site_config, "anon")
    run_turn(site_db, site_config, "anon")  # a DWTK court assembles at the first deadline
    out = tmp_path / "site"
    with Session(site_db) as session:
        build_site(session, site_config, out)
    issues = "".join(p.read_text(encoding="utf-8") for p in out.glob("anon/issue-*.html"))
    assert "Cyrano cheats at cards" in issues
    for page in sorted((out / "anon/people").glob("*.html")):
        assert "Cyrano cheats at cards" not in page.read_text(encoding="utf-8"), page.name
