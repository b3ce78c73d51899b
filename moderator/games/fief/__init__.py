"""Fief: England, the third engine (issue 17): docs/fief-by-email.md."""

from moderator.games.fief.engine import FiefEngine

ENGINE = FiefEngine()

__all__ = ["ENGINE", "FiefEngine"]
