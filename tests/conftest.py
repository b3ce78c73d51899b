"""Shared fixtures: a real config file, a real SQLite file, real Maildirs in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from moderator.config import Config, load_config
from moderator.store.db import open_store

ROOT = Path(__file__).resolve().parents[1]


def write_config(folder: Path, **extra: str) -> Path:
    lines = [
        "[database]",
        f'url = "sqlite:///{folder / "moderator.sqlite"}"',
        "[paths]",
        f'data = "{ROOT / "data"}"',
        f'templates = "{ROOT / "templates"}"',
        'spool = "spool"',
        'archive = "archive"',
        "[mail]",
        'address = "moderator@paris.example"',
        'gm_address = "gm@paris.example"',
        "[mail.maildir]",
        'inbox = "mail/moderator"',
        'mailboxes = "mail"',
    ]
    path = folder / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return load_config(write_config(tmp_path))


@pytest.fixture
def db(config: Config) -> Engine:
    return open_store(config.database_url)
