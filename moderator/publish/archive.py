"""The archive: every published newsletter as files, one folder per game and turn.

Written after the turn's commit, from what was committed; rewriting it with the same
newsletters is harmless.  A correction never overwrites what was sent: the printing it
replaces moves to ``superseded-N/`` in the turn's folder first.  The archive is the GM's
private record (it holds every turn sheet); the public site is `moderator site build`.
"""

from __future__ import annotations

from pathlib import Path

from moderator.publish.newsletter import Reader, Rendered, RenderedTurn
from moderator.settings.config import Config


def archive_dir(config: Config, game_name: str, number: int) -> Path:
    return config.archive_dir / game_name / f"turn-{number:03d}"


def write_archive(folder: Path, rendered: RenderedTurn, people: list[Reader]) -> None:
    """The newsletters as files (after commit; rewriting them is harmless)."""
    folder.mkdir(parents=True, exist_ok=True)
    gazette = folder / "gazette.md"
    if gazette.exists() and gazette.read_text(encoding="utf-8") != rendered.gazette.markdown:
        _set_aside(folder)
    _write_three(folder / "gazette", rendered.gazette)
    sheets = folder / "sheets"
    sheets.mkdir(exist_ok=True)
    for reader in people:
        _write_three(sheets / reader.character, rendered.sheets[reader.player_id])


def _set_aside(folder: Path) -> None:
    """Move the printing a correction replaces into ``superseded-N/`` (N from 1)."""
    n = 1
    while (folder / f"superseded-{n}").exists():
        n += 1
    old = folder / f"superseded-{n}"
    old.mkdir()
    for path in sorted(folder.iterdir()):
        if path.name.startswith("superseded-"):
            continue
        path.rename(old / path.name)


def _write_three(stem: Path, r: Rendered) -> None:
    stem.with_suffix(".md").write_text(r.markdown, encoding="utf-8")
    stem.with_suffix(".html").write_text(r.html, encoding="utf-8")
    stem.with_suffix(".txt").write_text(r.text, encoding="utf-8")
