"""The archive as a static site (`moderator site build`); see `build`."""

from moderator.publish.site.build import build_site

__all__ = ["build_site"]
