"""Fief: England's tables: ``data/fief/*.toml`` in, validated frozen values out."""

from moderator.games.fief.tables.loader import load_tables
from moderator.games.fief.tables.values import Tables

__all__ = ["Tables", "load_tables"]
