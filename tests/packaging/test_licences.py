"""Every runtime dependency (and theirs) is under a licence that lets moderator be
distributed under MIT (issue 15): permissive licences, or the LGPL (a library moderator
imports unmodified and does not bundle; pygal, for the charts), never the GPL or AGPL."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, distribution

from packaging.markers import default_environment
from packaging.requirements import Requirement

# Words that name a permissive licence in a package's License-Expression, License or
# classifiers.  Matched case-insensitively against the whole licence text.
PERMISSIVE = ("MIT", "BSD", "Apache", "PSF", "Python Software Foundation", "ISC", "MPL",
              "Mozilla Public License", "Zope Public License", "Unlicense", "CC0", "LGPL",
              "GNU Lesser General Public")
# The GPL and AGPL, not the LGPL (Lesser).
COPYLEFT = re.compile(r"\b(A?GPL|GNU (Affero )?General Public)", re.IGNORECASE)
# Packages whose installed metadata names no licence; checked by hand at their source.
KNOWN = {"imapclient": "BSD-3-Clause"}


def _licence(name: str) -> str:
    meta = distribution(name).metadata
    classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    return " ".join(filter(None, [meta.get("License-Expression"), meta.get("License"),
                                  *classifiers])) or KNOWN.get(name.lower(), "")


def _runtime_closure() -> dict[str, str]:
    """Each installed runtime dependency of moderator, transitively, with its licence."""
    env = default_environment()
    found: dict[str, str] = {}
    todo = ["moderator"]
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in found:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue  # an optional one not installed here
        found[key] = "" if key == "moderator" else _licence(name)
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
                todo.append(req.name)
    found.pop("moderator")
    return found


def test_every_runtime_dependency_is_permissive() -> None:
    licences = _runtime_closure()
    assert {"inscriptis", "sqlmodel", "jinja2", "apscheduler"} <= set(licences)
    assert "html2text" not in licences  # GPL-3.0-or-later: replaced by inscriptis
    bad = {name: text for name, text in licences.items()
           if COPYLEFT.search(text) or not any(w.lower() in text.lower() for w in PERMISSIVE)}
    assert bad == {}, f"not known to be MIT-compatible: {bad}"


def test_the_project_itself_is_mit() -> None:
    meta = distribution("moderator").metadata
    assert meta.get("License-Expression") == "MIT"
