"""moderator: a play-by-email moderator for monthly-turn games of intrigue."""

__version__ = "0.1.0"
