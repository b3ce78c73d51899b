"""What the gazette and the private sheets show (fief-email.md §7)."""

from moderator.games.fief.views.context import newsletter_context, names

__all__ = ["names", "newsletter_context"]
