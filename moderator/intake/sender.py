"""Sender checks beyond address and password (issue: mail for real, part 4).

Where the receiving mail server records its verdict in an ``Authentication-Results``
header (RFC 8601), a DKIM or DMARC failure for the sender's own domain means the
mail probably did not come from the player: it is refused.  Only the topmost such
header is read, because that is the one our own server added; headers further down
came with the message and could say anything.  A forged header can only make its own
message be refused, so reading it is safe.
"""

from __future__ import annotations

import re
from email.parser import BytesHeaderParser
from email.policy import default

_RESULT = re.compile(r"^\s*(dkim|dmarc)\s*=\s*(\w+)(.*)$", re.IGNORECASE | re.DOTALL)
_PROPERTY = re.compile(r"header\.(d|from|i)\s*=\s*([^\s;]+)", re.IGNORECASE)


def topmost_authentication_results(raw: bytes) -> str | None:
    headers = BytesHeaderParser(policy=default).parsebytes(raw)
    values = headers.get_all("Authentication-Results") or []
    return str(values[0]) if values else None


def _domain_of(value: str) -> str:
    return value.rpartition("@")[2].strip("<>").lower()


def _aligned(domain: str, sender_domain: str) -> bool:
    """Relaxed alignment (as DMARC): the same domain, or one a subdomain of the other."""
    return (domain == sender_domain or sender_domain.endswith("." + domain)
            or domain.endswith("." + sender_domain))


def authentication_failure(raw: bytes, sender: str) -> str | None:
    """Why the receiving server's verdict refuses this sender, or None."""
    header = topmost_authentication_results(raw)
    if not header or "@" not in sender:
        return None
    sender_domain = _domain_of(sender)
    for clause in header.split(";")[1:]:  # the first part names the server
        match = _RESULT.match(clause)
        if not match or match.group(2).lower() not in ("fail", "permerror"):
            continue
        method = match.group(1).lower()
        domains = [_domain_of(v) for _, v in _PROPERTY.findall(match.group(3))]
        if any(_aligned(d, sender_domain) for d in domains) or (
            method == "dmarc" and not domains
        ):
            verdict = match.group(2).lower()
            return f"the receiving server reports {method}={verdict} for {sender_domain}"
    return None
