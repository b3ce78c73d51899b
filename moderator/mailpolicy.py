"""`email.policy.default` with each header value parsed once (issue 16, goal 3).

The default policy parses a header's value into its structured object again on every
read (``msg[name]``) and every write (``msg[name] = value``).  Reading one order email
asked for its Content-Type a dozen times (the parser, each part's type, its charset and
its ``format`` parameter), and composing each receipt parses the same From, MIME and
Auto-Submitted headers as the last: together a fifth of intake's CPU.  The parse is a
function of the header's name and value alone, and the header objects are read-only
(changing a header replaces its object), so `CACHED` keeps the objects of recent values
and hands the same one out again.  Everything else is the default policy's.
"""

from __future__ import annotations

from email.policy import EmailPolicy
from functools import lru_cache
from typing import Any

# Longer values (rare, and what a hostile mail would use to fill the cache) are parsed as
# before; 998 is the longest header line RFC 5322 allows.
_LONGEST_CACHED = 998
_KEPT = 1024


class CachedHeaderPolicy(EmailPolicy):
    """`email.policy.default`, with a value's structured header made once (see above)."""

    def header_fetch_parse(self, name: str, value: Any) -> Any:
        if type(value) is not str or len(value) > _LONGEST_CACHED:
            return super().header_fetch_parse(name, value)
        return _fetched(self, name, value)

    def header_store_parse(self, name: str, value: Any) -> Any:
        if type(value) is not str or len(value) > _LONGEST_CACHED:
            return super().header_store_parse(name, value)
        return _stored(self, name, value)


@lru_cache(maxsize=_KEPT)
def _fetched(policy: CachedHeaderPolicy, name: str, value: str) -> Any:
    return EmailPolicy.header_fetch_parse(policy, name, value)


@lru_cache(maxsize=_KEPT)
def _stored(policy: CachedHeaderPolicy, name: str, value: str) -> Any:
    return EmailPolicy.header_store_parse(policy, name, value)


CACHED = CachedHeaderPolicy()
