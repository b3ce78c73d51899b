"""Who sent this, read the way a mail server reads it, and what our server said about it.

`mailbox_address` takes the sender's address from the raw ``From`` header as RFC 5322
defines it: a mailbox is ``[display-name] <addr-spec>`` or a bare ``addr-spec``, so when
there is an angle-addr the address is what is inside it, whatever the display name looks
like.  ``From: cyrano@bergerac.example <evil@x.example>`` is evil@x.example (the standard
library's parser takes the display name for the address there, and with it the player's
identity and the domain the DMARC verdict is read for).

`authentication_failure` reads the receiving server's verdict (RFC 8601
``Authentication-Results``) with the maintained `authres` parser.  Only a header whose
authserv-id is our own server's (``intake.authserv_id``) counts, and of those only the
topmost: our server adds its header above everything that came with the message, and a
header the sender wrote (with our id, below ours) could say anything.  With no authserv-id
configured, the topmost header is read (only safe where the server strips look-alikes).
A DKIM or DMARC failure for the sender's own domain refuses the mail.
"""

from __future__ import annotations

import re

import authres

_FOLD = re.compile(r"\r?\n[ \t]+")
_HEADER_END = re.compile(rb"\r?\n\r?\n")


def split_head(raw: bytes) -> tuple[bytes, bytes]:
    """The header block and the body (no body when there is no blank line)."""
    gap = _HEADER_END.search(raw)
    return (raw[:gap.start()], raw[gap.end():]) if gap else (raw, b"")


def header_values(raw: bytes, name: str) -> list[str]:
    """Every value of one header of a raw message, unfolded, in order (top first)."""
    text = _FOLD.sub(" ", split_head(raw)[0].decode("utf-8", "replace"))
    wanted = name.lower()
    values = []
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() == wanted and " " not in key.strip():
            values.append(value.strip())
    return values


def _mailboxes(value: str) -> list[str]:
    """The top-level comma-separated mailboxes of an address header, quoting respected."""
    parts: list[str] = []
    current: list[str] = []
    quoted, depth, angle = False, 0, False
    escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quoted:
            quoted = char != '"'
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth:
            pass
        elif char == "<":
            angle = True
        elif char == ">":
            angle = False
        elif char in ",;" and not angle:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [p for p in (part.strip() for part in parts) if p]


def _unquoted_outside(text: str) -> str:
    """The text with quoted strings and comments blanked out (angle brackets kept)."""
    out, quoted, depth, escaped = [], False, 0, False
    for char in text:
        if escaped:
            escaped = False
            out.append(" ")
        elif char == "\\":
            escaped = True
            out.append(" ")
        elif quoted:
            quoted = char != '"'
            out.append(" ")
        elif char == '"':
            quoted = True
            out.append(" ")
        elif char == "(":
            depth += 1
            out.append(" ")
        elif char == ")" and depth:
            depth -= 1
            out.append(" ")
        else:
            out.append(" " if depth else char)
    return "".join(out)


def mailbox_address(raw: bytes) -> str:
    """The first From mailbox's address, lower case; "" when there is none usable."""
    values = header_values(raw, "From")
    if not values:
        return ""
    value = values[0]
    if ":" in _unquoted_outside(value).split("<")[0]:  # group syntax "Name: a@b, c@d;"
        value = value.split(":", 1)[1]
    for mailbox in _mailboxes(value):
        plain = _unquoted_outside(mailbox)
        angles = re.findall(r"<([^<>]*)>", plain)
        address = angles[-1] if angles else plain
        address = "".join(address.split()).strip("<>")
        if address.startswith("@") and ":" in address:  # obsolete source route
            address = address.split(":", 1)[1]
        if address:
            return address.lower()
    return ""


# An address we can write to: a dot-atom local part and a domain of dotted labels (what
# the email package's header parser and every MTA accept; mutated bytes are not).
_USABLE = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                     r"@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$")


def usable_address(address: str) -> bool:
    """Whether an answer can be addressed to this (at most 254 characters, RFC 5321).
    Not with "=?" in it: the email package reads an encoded word there, and one that
    decodes to a line break made composing the answer raise (the message ended
    "failed", the GM mailed about a crash)."""
    return len(address) <= 254 and "=?" not in address and bool(_USABLE.match(address))


def _domain_of(value: str) -> str:
    return value.rpartition("@")[2].strip("<> ").lower()


def _aligned(domain: str, sender_domain: str) -> bool:
    """Relaxed alignment (as DMARC): the same domain, or one a subdomain of the other."""
    return (domain == sender_domain or sender_domain.endswith("." + domain)
            or domain.endswith("." + sender_domain))


def our_authentication_results(
    raw: bytes, authserv_id: str = ""
) -> authres.AuthenticationResultsHeader | None:
    """The topmost Authentication-Results header our server wrote, parsed; None if none.

    A header that does not parse is skipped only if it is not ours: when the topmost
    candidate is unreadable we have no verdict (None), never a lower, forgeable one.
    """
    wanted = authserv_id.strip().lower()
    for value in header_values(raw, "Authentication-Results"):
        server = value.split(";", 1)[0].split()[0].lower() if value.strip() else ""
        if wanted and server != wanted:
            continue
        try:
            return authres.AuthenticationResultsHeader.parse_value(value)
        except Exception:  # authres.AuthResError and the odd ValueError on garbage
            return None
    return None


def authentication_failure(raw: bytes, sender: str, authserv_id: str = "") -> str | None:
    """Why the receiving server's verdict refuses this sender, or None."""
    header = our_authentication_results(raw, authserv_id)
    if header is None or "@" not in sender:
        return None
    sender_domain = _domain_of(sender)
    for result in header.results:
        method, verdict = str(result.method).lower(), str(result.result).lower()
        if method not in ("dkim", "dmarc") or verdict not in ("fail", "permerror"):
            continue
        domains = [_domain_of(str(p.value)) for p in result.properties
                   if str(p.type).lower() == "header"
                   and str(p.name).lower() in ("d", "from", "i")]
        if any(_aligned(d, sender_domain) for d in domains) or (method == "dmarc" and not domains):
            return f"the receiving server reports {method}={verdict} for {sender_domain}"
    return None
