"""The archive: every published newsletter as files, one folder per game and turn.

Written after the turn's commit, from what was committed; rewriting it is harmless.
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
    _write_three(folder / "gazette", rendered.gazette)
    sheets = folder / "sheets"
    sheets.mkdir(exist_ok=True)
    for reader in people:
        _write_three(sheets / reader.character, rendered.sheets[reader.player_id])


def _write_three(stem: Path, r: Rendered) -> None:
    stem.with_suffix(".md").write_text(r.markdown, encoding="utf-8")
    stem.with_suffix(".html").write_text(r.html, encoding="utf-8")
    stem.with_suffix(".txt").write_text(r.text, encoding="utf-8")
