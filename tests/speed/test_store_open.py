"""Opening a store (issue 16, goal 5): a store already at head opens without importing
Alembic; an older one is upgraded, Alembic imported then."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory

from moderator.store.db import alembic_config, engine_url, head_revisions, open_store

PROBE = ("import sys\nfrom moderator.store.db import open_store\n"
         "engine = open_store(sys.argv[1])\n"
         "with engine.connect() as c:\n"
         "    print('VERSION', c.exec_driver_sql('SELECT version_num FROM alembic_version')"
         ".scalar())\n"
         "print('ALEMBIC', 'alembic' in sys.modules)\n")


def _open_in_a_new_process(url: str) -> tuple[str, bool]:
    out = subprocess.run([sys.executable, "-c", PROBE, url], capture_output=True, text=True,
                         check=True).stdout
    version = out.split("VERSION ", 1)[1].split()[0]
    return version, "ALEMBIC True" in out


def test_the_head_read_from_the_files_is_alembics() -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert head_revisions() == frozenset(head)
    assert len(head_revisions()) == 1


@pytest.mark.backends
def test_a_current_store_opens_without_alembic(empty_database_url: str) -> None:
    open_store(empty_database_url).dispose()  # creates the schema at head
    version, alembic_loaded = _open_in_a_new_process(empty_database_url)
    assert {version} == head_revisions()
    assert not alembic_loaded


@pytest.mark.backends
def test_an_old_store_is_upgraded(empty_database_url: str) -> None:
    (head,) = head_revisions()
    old = sa.create_engine(engine_url(empty_database_url))
    config = alembic_config()
    with old.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
    old.dispose()
    version, alembic_loaded = _open_in_a_new_process(empty_database_url)
    assert version == head != "0006"
    assert alembic_loaded


def test_an_empty_store_gets_the_schema(empty_database_url: str) -> None:
    engine = open_store(empty_database_url)
    assert "game" in sa.inspect(engine).get_table_names()
    engine.dispose()
