"""Sender checks: DKIM/DMARC failures for the sender's own domain are refused."""

from __future__ import annotations

import pytest

from moderator.intake.sender import authentication_failure


def mail(*results: str, sender: str = "jacques@lyon.example") -> bytes:
    headers = "".join(f"Authentication-Results: {r}\r\n" for r in results)
    return (f"{headers}From: {sender}\r\nTo: moderator@paris.example\r\n"
            "Subject: orders\r\n\r\nWEEK 1: PRACTICE rapier\r\n").encode()


@pytest.mark.parametrize("result", [
    "mx.paris.example; dkim=fail (bad signature) header.d=lyon.example header.i=@lyon.example",
    "mx.paris.example; spf=pass smtp.mailfrom=lyon.example; dmarc=fail header.from=lyon.example",
    "mx.paris.example; dkim=permerror header.d=mail.lyon.example",
])
def test_dkim_or_dmarc_failure_for_the_sender_domain_is_refused(result: str) -> None:
    reason = authentication_failure(mail(result), "jacques@lyon.example")
    assert reason is not None and "lyon.example" in reason


@pytest.mark.parametrize("result", [
    "mx.paris.example; dkim=pass header.d=lyon.example; dmarc=pass header.from=lyon.example",
    "mx.paris.example; dkim=fail header.d=mailinglist.example",  # a third party's signature
    "mx.paris.example; spf=fail smtp.mailfrom=lyon.example",  # SPF alone is not enough
    "mx.paris.example; none",
])
def test_passes_and_unrelated_failures_are_accepted(result: str) -> None:
    assert authentication_failure(mail(result), "jacques@lyon.example") is None


def test_no_header_means_no_verdict() -> None:
    assert authentication_failure(mail(), "jacques@lyon.example") is None


def test_only_the_topmost_header_counts() -> None:
    """Lower headers came with the message (e.g. through a forwarder): ours is on top."""
    raw = mail("mx.paris.example; dkim=pass header.d=lyon.example",
               "relay.example; dkim=fail header.d=lyon.example")
    assert authentication_failure(raw, "jacques@lyon.example") is None
