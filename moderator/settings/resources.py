"""Where the files that ship with moderator are: game tables (``data/``), jinja2
templates (``templates/``), blank order forms (``orders/forms/``) and the commented
``config.toml`` that `moderator init` copies.

In the repository they live at the top level; the wheel maps them into the package
(``moderator/_resources/``, pyproject's force-include).  The installed copy wins, so an
installed moderator never needs a checkout; in a checkout (or an editable install)
there is no ``_resources`` folder and the repository's own folders are used.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
INSTALLED = PACKAGE / "_resources"
CHECKOUT = PACKAGE.parent

__all__ = ["config_template", "data_dir", "forms_dir", "resource", "templates_dir"]


def resource(name: str) -> Path:
    """The shipped file or folder ``name`` (a path relative to the repository root)."""
    for root in (INSTALLED, CHECKOUT):
        candidate = root / name
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        f"moderator's {name} is missing: looked in {INSTALLED} (installed) and {CHECKOUT} "
        "(checkout); reinstall moderator"
    )


def data_dir() -> Path:
    """The shipped game tables: ``data/<game>/*.toml``."""
    return resource("data")


def templates_dir() -> Path:
    """The shipped templates: ``templates/<game>/`` and ``templates/mail/``."""
    return resource("templates")


def forms_dir() -> Path:
    """The shipped blank order forms: ``orders/forms/<game>.txt``."""
    return resource("orders/forms")


def config_template() -> Path:
    """The commented ``config.toml`` (every setting, its default and what it does)."""
    return resource("config.toml")
