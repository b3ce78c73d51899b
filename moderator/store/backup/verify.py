"""Reading a backup: every member proved against the manifest before it is trusted."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from moderator.store.backup.manifest import MANIFEST, BackupError, Manifest

# A file being restored, until it is whole and renamed into place.
PARTIAL_SUFFIX = ".restoring"


def verify_backup(path: Path) -> Manifest:
    """Read the whole backup and prove it whole: every member the manifest lists is
    there with its SHA-256 and size (a table with its rows), and nothing else is.
    Raises `BackupError` naming the first member that is not."""
    seen: dict[str, tuple[str, int, int]] = {}
    manifest_bytes: bytes | None = None
    with open_members(path) as members:
        for name, handle in members:
            if name == MANIFEST:
                manifest_bytes = handle.read()
                continue
            seen[name] = _read_digest(handle, counting_lines=name.startswith("tables/"))
    if manifest_bytes is None:
        raise BackupError(f"{path.name} has no manifest: not a whole moderator backup")
    manifest = Manifest.from_json(manifest_bytes)
    for member in manifest.members:
        if member.name not in seen:
            raise BackupError(f"{member.name} is missing from {path.name}")
        digest, size, lines = seen.pop(member.name)
        if (digest, size) != (member.sha256, member.size):
            raise BackupError(f"{member.name} in {path.name} is damaged (its SHA-256 or "
                              "size is not the manifest's)")
        if member.rows is not None and lines != member.rows + 1:
            raise BackupError(f"{member.name} holds {lines - 1} rows, the manifest says "
                              f"{member.rows}")
    if seen:
        raise BackupError(f"{path.name} holds files its manifest does not list: "
                          + ", ".join(sorted(seen)))
    return manifest


@contextmanager
def open_members(path: Path) -> Iterator[Iterator[tuple[str, IO[bytes]]]]:
    """The backup's regular files in their order, each as (name, readable), read once.
    Anything else (a link, a device, a name that climbs out) makes it untrusted."""
    try:
        tar = tarfile.open(path, mode="r:gz")  # noqa: SIM115 (closed below, after the reads)
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise BackupError(f"{path.name} is not a readable backup ({exc})") from exc

    damaged = (OSError, tarfile.TarError, EOFError, zlib.error)

    def members() -> Iterator[tuple[str, IO[bytes]]]:
        try:
            for info in tar:
                if not info.isfile() or not _safe_name(info.name):
                    raise BackupError(f"{path.name} holds {info.name!r}, which no "
                                      "moderator backup holds")
                handle = tar.extractfile(info)
                assert handle is not None  # a regular file
                yield info.name, io.BufferedReader(_Reading(handle, path.name, damaged))
        except damaged as exc:
            raise BackupError(f"{path.name} is damaged ({exc})") from exc

    try:
        yield members()
    finally:
        tar.close()


class _Reading(io.RawIOBase):
    """A member as its reader reads it: damage found while reading (a cut file, a bad
    compressed block) is a `BackupError`, and only that (an error writing what was read
    is the writer's)."""

    def __init__(self, inner: IO[bytes], backup: str,
                 damaged: tuple[type[BaseException], ...]) -> None:
        self.inner, self.backup, self.damaged = inner, backup, damaged

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self.inner.read(len(buffer))
        except self.damaged as exc:
            raise BackupError(f"{self.backup} is damaged ({exc})") from exc
        buffer[:len(data)] = data
        return len(data)


def _safe_name(name: str) -> bool:
    parts = name.split("/")
    return not name.startswith("/") and ".." not in parts and "" not in parts and (
        name in (MANIFEST, "key", "config.toml")
        or (parts[0] == "tables" and len(parts) == 2 and name.endswith(".jsonl"))
        or (parts[0] == "archive" and len(parts) > 1))


def _read_digest(handle: IO[bytes], *, counting_lines: bool) -> tuple[str, int, int]:
    digest, size, lines = hashlib.sha256(), 0, 0
    while block := handle.read(1 << 20):
        digest.update(block)
        size += len(block)
        if counting_lines:
            lines += block.count(b"\n")
    return digest.hexdigest(), size, lines


def copy_member(handle: IO[bytes], target: Path) -> None:
    """Write a member to ``target`` (0600, beside it first, synced, then renamed)."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}{PARTIAL_SUFFIX}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(handle, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, target)
