"""Alembic environment: migrations run on the connection `moderator.store.db` hands in."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import moderator.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from moderator.store.db import include_object

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite can't ALTER most things
    include_object=include_object,  # autogenerate keeps APScheduler's apscheduler_jobs
)
with context.begin_transaction():
    context.run_migrations()
