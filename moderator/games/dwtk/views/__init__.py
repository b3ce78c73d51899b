"""Views for the newsletter and the order form: `newsletter` (the gazette *The Fandonian
Courier* and the private turn sheets) and `forms` (the order form)."""

from __future__ import annotations

from moderator.games.dwtk.views.forms import order_form
from moderator.games.dwtk.views.newsletter import (
    gazette_context,
    names,
    newsletter_context,
    sheet_context,
)

__all__ = ["gazette_context", "names", "newsletter_context", "order_form", "sheet_context"]
