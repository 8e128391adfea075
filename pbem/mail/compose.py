"""`OutgoingMail` → RFC 5322 bytes, composed once when the mail enters the outbox.

The Message-ID is derived from the idempotency key, and the bytes are stored, so a resend
after a crash is byte-for-byte the same mail: a recipient (or its client) that got it twice
sees one message. Replies carry `Auto-Submitted: auto-replied` (RFC 3834) so that other
robots do not answer them.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from pbem.core.messages import OutgoingMail
from pbem.mail.envelope import printable


def message_id_for(key: str, from_address: str) -> str:
    """A stable Message-ID for an idempotency key."""
    domain = from_address.rpartition("@")[2] or "pbem.invalid"
    return f"<pbem.{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain}>"


def compose(mail: OutgoingMail, *, from_address: str, date: datetime, from_name: str = "pbem") -> bytes:
    """The mail as bytes: text, or text+HTML alternatives, plus attachments."""
    msg = EmailMessage()
    msg["From"] = formataddr((from_name, from_address))
    msg["To"] = printable(mail.to)
    msg["Subject"] = printable(mail.subject)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id_for(mail.key, from_address)
    references = list(mail.references)
    if mail.in_reply_to:
        msg["In-Reply-To"] = mail.in_reply_to
        if mail.in_reply_to not in references:
            references.append(mail.in_reply_to)
    if references:
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = "auto-replied"
    msg["X-Pbem-Key"] = mail.key
    msg.set_content(mail.text)
    if mail.html is not None:
        msg.add_alternative(mail.html, subtype="html")
    for attachment in mail.attachments:
        maintype, _, subtype = attachment.content_type.partition("/")
        msg.add_attachment(attachment.data, maintype=maintype or "application",
                           subtype=subtype or "octet-stream", filename=attachment.filename)
    seed = hashlib.sha256(mail.key.encode()).hexdigest()[:24]
    for number, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{seed}_{number}")  # fixed, so composing again gives the same bytes
    return msg.as_bytes()
