"""Shared fixtures: a real config file, a real SQLite file, real Maildirs in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from moderator.settings.config import Config, load_config
from moderator.store.db import open_store

from support import write_config


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return load_config(write_config(tmp_path))


@pytest.fixture
def db(config: Config) -> Engine:
    return open_store(config.database_url)
