"""Storm guards the mail layer applies around the campaign service.

Auto-mail (bounces, auto-replies, list mail, our own mail) is never handed to the service
and never answered (`envelope.auto_mail_reason`). Oversized mail is answered with a short
refusal without being parsed. An address whose mail keeps being refused (the core's
refusals have keys starting `refusal:`) gets at most `failure_limit` refusals per window:
beyond that its mail is still recorded by the core, but no longer answered, which stops
a loop with a misconfigured robot or a spammer. Refusals are counted per address and per
player and campaign the SIGNON claims, so guessing tokens from ever new addresses meets
the same limit.
"""

from __future__ import annotations

from pbem.core.messages import Envelope, OutgoingMail
from pbem.core.orders import signon_blocks, split_orders
from pbem.core.outcomes import reply_subject
from pbem.mail.envelope import raw_digest

REFUSAL_PREFIXES = ("refusal:", "mail-refused:")


def is_refusal(mail: OutgoingMail) -> bool:
    return mail.key.startswith(REFUSAL_PREFIXES)


def size_refusal(envelope: Envelope, *, max_bytes: int) -> OutgoingMail:
    """The answer to a mail over the size limit; keyed by the mail's digest (stable on re-reads)."""
    limit = f"{max_bytes / 1024 / 1024:.1f} MB" if max_bytes >= 1024 * 1024 else f"{max_bytes // 1024} kB"
    return OutgoingMail(
        key=f"mail-refused:size:{raw_digest(envelope.raw)[:40]}",
        to=envelope.sender,
        subject=reply_subject(envelope.subject, "your mail"),
        text=(f"Your mail was not read: it is {len(envelope.raw) / 1024 / 1024:.1f} MB, and this game "
              f"accepts at most {limit}. Send your orders as plain text, without large attachments.\n"),
        in_reply_to=envelope.message_id,
        references=envelope.references,
    )


def refusal_counters(envelope: Envelope) -> list[str]:
    """What a refusal of this mail counts against: its address, and each player/campaign its
    SIGNON lines claim (`signon:<campaign>/<player>`)."""
    claims = {f"signon:{p.signon.campaign}/{p.signon.player}".lower()
              for p in (split_orders(block.text) for block in signon_blocks(envelope.text)) if p.signon}
    return [envelope.sender, *sorted(claims)]


def over_failure_limit(recent_refusals: int, *, limit: int) -> bool:
    """True when one of a mail's counters (`refusal_counters`: its address or a SIGNON claim)
    already had `limit` refusals in the window: stop answering."""
    return recent_refusals >= limit
