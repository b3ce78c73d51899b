"""Robots that set no robot headers: out-of-office subjects, our own addresses, and the
per-sender limit on refusals.

`moderator.intake.extract` already recognises mail that says it is automated (RFC 3834
``Auto-Submitted``, ``Precedence``, Microsoft's ``X-Auto-Response-Suppress`` ...).  Many
robots say nothing: Exchange set-ups that send "Automatische Antwort: …" bare, home-made
vacation scripts ("I am away until Monday"), ticket systems that answer everything.
Answering one invites a loop, so:

* an out-of-office subject in one of the common languages, at the start of the subject
  (after ``Re:``/``AW:`` prefixes and ``[tags]``, so a player writing "[paris] orders, out
  of office next week" is still read) marks the mail as a robot's;
* a delivery-failure subject ("Mail delivery failed", "Undeliverable: …") marks a bounce
  that no detector recognised;
* mail from the moderator's own addresses (``moderator@``, ``moderator+paris@``, or a
  bare local part with no domain) is never answered: it is our own mail come back;
* whatever slips through, a sender gets at most ``intake.refusals_per_hour`` refusals an
  hour (`refusal_allowed`); beyond that the moderator stays silent and the GM log says so.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from moderator.intake.sender import usable_address
from moderator.store.models import ReceivedMessage
from moderator.store.statuses import MessageStatus

# Reply/forward prefixes in the common clients' languages, and [tags], ahead of the words.
_PREFIX = re.compile(
    r"^\s*(?:(?:re|aw|sv|vs|wg|fw|fwd|tr|rv|rif|antw|odp|vá|ynt|ответ|回复|答复)\s*(?:\[\d+\])?"
    r"\s*[:：]\s*|\[[^\]]*\]\s*|\([^)]*\)\s*)+",
    re.IGNORECASE,
)
# Out-of-office and auto-reply phrases as clients and vacation scripts write them.
_OUT_OF_OFFICE = re.compile(
    r"^(?:"
    # English
    r"auto(?:matic|mated)?[ -]?(?:reply|response|answer)|autoreply|autoresponse"
    r"|out of (?:the )?office|ooo\b|on (?:vacation|holiday|leave)|vacation (?:reply|notice)"
    r"|(?:i am|i'm|im) (?:currently )?(?:away|out|on (?:vacation|holiday|leave)|absent)"
    r"|away (?:from|until|till|on)|absence (?:notice|message)|away message"
    # German
    r"|automatische antwort|abwesenheitsnotiz|au(?:ß|ss)er haus"
    r"|nicht im b(?:ü|ue)ro|ich bin (?:bis|nicht|im urlaub|abwesend)"
    # French
    r"|r[ée]ponse automatique|message d'absence|absence du bureau"
    r"|je suis (?:absent|en cong[ée])"
    # Spanish, Portuguese, Italian
    r"|respuesta autom[áa]tica|fuera de (?:la )?oficina|resposta autom[áa]tica"
    r"|fora do escrit[óo]rio|risposta automatica|fuori (?:sede|ufficio)"
    # Dutch, Scandinavian, Finnish
    r"|automatisch antwoord|niet aanwezig|buiten kantoor|automatiskt svar"
    r"|automatisk svar|autosvar|fr[åa]nvaro|frav(?:æ|ae)r|ikke p[åa] kontoret"
    r"|automaattinen vastaus"
    # Single words only as a label ("Abwesend: Re: [paris] ..."), never inside a sentence.
    r"|(?:abwesend|abwesenheit|urlaub|absent|absente|absence|ausente|assente|afwezig"
    r"|poissa|vacation|holiday)\s*(?:[:\-–]|$)"
    # Polish, Czech, Russian, Turkish, Japanese, Chinese
    r"|odpowied[źz] automatyczna|nieobecno[śs][ćc]|poza biurem|automatick[áa] odpov[ěe]d"
    r"|mimo kancel[áa][řr]|автоматический ответ|автоответ|вне офиса|нет на месте"
    r"|otomatik (?:yan[ıi]t|cevap)|ofis d[ıi][şs][ıi]nda|自動応答|自動返信|不在|自动回复|自動回覆"
    r")",
    re.IGNORECASE,
)


# Delivery failure reports, for the bounces no detector recognises ("Mail delivery failed").
_DELIVERY_FAILURE = re.compile(
    r"^(?:mail delivery failed|mail could not be delivered|undeliverable|undelivered mail"
    r"|returned mail|return(?:ed)? to sender|delivery status notification \((?:failure|delay)\)"
    r"|delivery (?:failure|failed|notification)"
    r"|failure notice|non[- ]?deliver(?:able|y)|message not delivered|unzustellbar"
    r"|nicht zustellbar|non remis|non distribu[ée]|no se puede entregar|no entregado"
    r"|impossibile recapitare|onbestelbaar|kan ikke leveres|kunde inte levereras"
    r"|не доставлено|配信不能)\b",
    re.IGNORECASE,
)


def delivery_failure_subject(subject: str) -> str | None:
    """The subject's delivery-failure phrase, if the subject starts with one."""
    rest = _PREFIX.sub("", subject or "", count=1).strip()
    match = _DELIVERY_FAILURE.match(rest)
    return match.group(0) if match else None


def out_of_office_subject(subject: str) -> str | None:
    """The subject's out-of-office phrase, if the subject starts with one."""
    rest = _PREFIX.sub("", subject or "", count=1).strip()
    match = _OUT_OF_OFFICE.match(rest)
    return match.group(0) if match else None


def own_address(sender: str, moderator_address: str) -> bool:
    """Our own mail come back: the moderator's address, any +tag of it, a bare local part."""
    local, at, domain = sender.strip().lower().rpartition("@")
    if not at:  # "moderator", "", a name without a domain: no address a person reads
        return True
    ours_local, _, ours_domain = moderator_address.lower().rpartition("@")
    return domain == ours_domain and local.partition("+")[0] == ours_local.partition("+")[0]


def robot_reason(subject: str, sender: str, moderator_address: str) -> str | None:
    """Why this mail (without robot headers) must not be answered, or None."""
    if not usable_address(sender):
        return "no usable sender address in From: nobody to answer"
    if own_address(sender, moderator_address):
        return f"sent from the moderator's own address ({sender})"
    phrase = out_of_office_subject(subject)
    if phrase:
        return f"out-of-office subject ({phrase!r})"
    failure = delivery_failure_subject(subject)
    if failure:
        return f"delivery failure report ({failure!r})"
    return None


def refusal_allowed(session: Session, sender: str, now: datetime, per_hour: int) -> bool:
    """Whether one more refusal may go to ``sender`` (at most ``per_hour`` an hour)."""
    if per_hour <= 0:
        return False
    since = now - timedelta(hours=1)
    sent = session.exec(
        select(func.count()).select_from(ReceivedMessage).where(
            col(ReceivedMessage.sender) == sender.lower(),
            col(ReceivedMessage.status) == MessageStatus.REFUSED,
            col(ReceivedMessage.answered_at).is_not(None),
            col(ReceivedMessage.answered_at) > since,
        )
    ).one()
    return int(sent) < per_hour
