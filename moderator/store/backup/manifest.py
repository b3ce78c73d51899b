"""What a backup is made of: its manifest, its members, and how values are written."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect

from moderator.store.db import FOREIGN_TABLES, alembic_config

FORMAT = 1
MANIFEST = "manifest.json"
# Tables a backup leaves out: Alembic's (the manifest names the revision) and those of
# libraries (`FOREIGN_TABLES`: APScheduler's jobs, derived from the games again).
SKIPPED_TABLES = FOREIGN_TABLES | {"alembic_version"}


class BackupError(ValueError):
    """A backup that cannot be written, read or trusted; the message says why."""


@dataclass(frozen=True)
class Member:
    """One file of a backup as its manifest lists it."""

    name: str
    sha256: str
    size: int
    rows: int | None = None  # a table's rows; None for a file


@dataclass(frozen=True)
class Manifest:
    format: int
    created: datetime
    moderator: str
    backend: str
    schema: tuple[str, ...]
    key_id: str
    members: tuple[Member, ...]

    @property
    def has_key(self) -> bool:
        return any(m.name == "key" for m in self.members)

    @property
    def tables(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.name.startswith("tables/"))

    def as_json(self) -> bytes:
        return json.dumps({
            "format": self.format, "created": self.created.isoformat(),
            "moderator": self.moderator, "backend": self.backend,
            "schema": list(self.schema), "key_id": self.key_id,
            "members": [{"name": m.name, "sha256": m.sha256, "size": m.size,
                         **({"rows": m.rows} if m.rows is not None else {})}
                        for m in self.members],
        }, indent=1).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes) -> Manifest:
        try:
            data = json.loads(raw)
            if data["format"] != FORMAT:
                raise BackupError(f"backup format {data['format']} is not one this "
                                  f"moderator reads (it reads {FORMAT})")
            return cls(FORMAT, datetime.fromisoformat(data["created"]), str(data["moderator"]),
                       str(data["backend"]), tuple(str(r) for r in data["schema"]),
                       str(data["key_id"]),
                       tuple(Member(str(m["name"]), str(m["sha256"]), int(m["size"]),
                                    m.get("rows")) for m in data["members"]))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BackupError):
                raise
            raise BackupError(f"the manifest is unreadable ({exc!r})") from exc


def encode_value(value: Any) -> Any:
    """A column's value as JSON: bytes and instants tagged, the rest as they are."""
    if isinstance(value, bytes | memoryview):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, datetime):
        return {"$t": value.isoformat()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise BackupError(f"a column holds a {type(value).__name__}, which a backup cannot keep")


def decode_value(value: Any) -> Any:
    """`encode_value` undone."""
    if isinstance(value, dict):
        if "$b" in value:
            return base64.b64decode(value["$b"])
        return datetime.fromisoformat(value["$t"])
    return value


def key_id(key_file: Path) -> str:
    """The fingerprint of a server key file: enough to tell two keys apart, nothing to
    find the key by (it is 256 random bits).  A host without a key file (no password
    generated yet) has none: "" in the manifest."""
    return hashlib.sha256(key_file.read_bytes().strip()).hexdigest()[:16]


def digest_of(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as source:
        while block := source.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


@cache
def schema_tables(revisions: tuple[str, ...]) -> frozenset[str]:
    """The tables our migrations make at ``revisions`` (built once in an in-memory
    SQLite store to find out): a database shared with another program keeps that
    program's tables out of a backup, and out of a restore's reach."""
    from alembic import command  # imported on use: a tenth of a second

    scratch = create_engine("sqlite://")
    try:
        with scratch.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            for revision in revisions:
                command.upgrade(config, revision)
            return frozenset(inspect(connection).get_table_names()) - SKIPPED_TABLES
    finally:
        scratch.dispose()
