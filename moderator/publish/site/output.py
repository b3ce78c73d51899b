"""The files of a site build (`moderator.publish.site.build`): collected in memory, then
written where they changed, under the folder's lock, so a web server never shows half a
page and two builds never interleave."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Output:
    """The files of one build, by path relative to the site's root."""

    files: dict[str, bytes] = field(default_factory=dict)

    def add(self, path: str, text: str) -> None:
        self.files[path] = text.encode("utf-8")


@contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir/.lock`` (an flock: other processes and threads wait; a process that
    dies lets go of it)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / ".lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_changed(out_dir: Path, out: Output, only: Sequence[str] | None) -> list[str]:
    """Write what changed; remove what is no longer built (only under the games built).

    Each file is written beside itself and renamed into place, so a web server never
    shows half a page.  Dot-files and dot-folders are never removed: a GM's ``.htaccess`` or
    ``.well-known/`` stays, and so does another writer's file in the making."""
    changed = []
    for rel, data in sorted(out.files.items()):
        path = out_dir / rel
        if path.exists() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        staging.write_bytes(data)
        os.replace(staging, path)
        changed.append(rel)
    roots = [out_dir / name for name in only] if only is not None else [out_dir]
    for root in roots:
        if not root.exists():
            continue
        for path in sorted(root.rglob("*"), reverse=True):
            parts = path.relative_to(out_dir).parts
            if any(part.startswith(".") for part in parts):
                continue
            rel = "/".join(parts)
            if path.is_file() and rel not in out.files:
                path.unlink()
                changed.append(f"{rel} (removed)")
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return changed
