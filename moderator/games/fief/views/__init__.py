"""What the gazette and the private sheets show (fief-email.md §7)."""

from moderator.games.fief.views.context import names, newsletter_context

__all__ = ["names", "newsletter_context"]
