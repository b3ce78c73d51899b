"""What the service renders: the newsletter contexts (`newsletter`: the gazette and each
turn sheet, EG §13 "Le Sport de Paris") and the order forms (`forms`)."""

from __future__ import annotations

from moderator.games.engarde.views.forms import month_label, order_form
from moderator.games.engarde.views.newsletter import decisions_due, newsletter_context

__all__ = ["decisions_due", "month_label", "newsletter_context", "order_form"]
