"""`OutgoingMail` → RFC 5322 bytes, composed once when the mail enters the outbox.

The Message-ID is derived from the idempotency key, and the bytes are stored, so a resend
after a crash is byte-for-byte the same mail: a recipient (or its client) that got it twice
sees one message. Replies carry `Auto-Submitted: auto-replied` (RFC 3834) so that other
robots do not answer them.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email import policy
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from pbem.core.messages import OutgoingMail
from pbem.mail.envelope import printable


class MessageIdList(UnstructuredHeader):
    """In-Reply-To and References (RFC 5322 §3.6.4): msg-ids folded only between ids. The
    stdlib folds them as free text and, once an id is longer than a line (Outlook's often
    are), encodes it as an RFC 2047 word no client matches, so the answer does not thread."""

    max_count = 1

    def fold(self, *, policy: policy.Policy) -> str:  # type: ignore[override]
        lines = [f"{self.name}:"]
        for message_id in str(self).split():
            if len(lines[-1]) + 1 + len(message_id) > policy.max_line_length and lines[-1] != f"{self.name}:":
                lines.append("")
            lines[-1] += " " + message_id
        return policy.linesep.join(lines) + policy.linesep


_HEADERS = HeaderRegistry()
_HEADERS.map_to_type("in-reply-to", MessageIdList)
_HEADERS.map_to_type("references", MessageIdList)
_POLICY = policy.default.clone(header_factory=_HEADERS)


def _message_ids(ids: list[str]) -> list[str]:
    """The ids that can be written as they are (printable ASCII, in angle brackets)."""
    return [i for i in ids if i.isascii() and i.isprintable() and " " not in i and i.startswith("<")]


def message_id_for(key: str, from_address: str) -> str:
    """A stable Message-ID for an idempotency key."""
    domain = from_address.rpartition("@")[2] or "pbem.invalid"
    return f"<pbem.{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain}>"


def compose(mail: OutgoingMail, *, from_address: str, date: datetime, from_name: str = "pbem") -> bytes:
    """The mail as bytes: text, or text+HTML alternatives, plus attachments."""
    msg = EmailMessage(policy=_POLICY)
    msg["From"] = formataddr((from_name, from_address))
    msg["To"] = printable(mail.to)
    msg["Subject"] = printable(mail.subject)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id_for(mail.key, from_address)
    references = _message_ids(list(mail.references))
    in_reply_to = _message_ids([mail.in_reply_to] if mail.in_reply_to else [])
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to[0]
        if in_reply_to[0] not in references:
            references.append(in_reply_to[0])
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
