"""The one error a desk action raises when it cannot be carried out."""

from __future__ import annotations

from moderator.store.audit import AuditError


class DeskError(AuditError):
    """A desk action that cannot be carried out, with the reason."""
