"""What makes two deliveries the same mail (DESIGN §6: a mail is applied exactly once).

The same mail can arrive twice by two paths (an alias and a forwarder, a retried relay, a
re-fetch after a mailbox move); each hop prepends its own trace headers (`Received:`,
`Delivered-To:`, `X-Original-To:`, `Return-Path:`, ARC seals, spam scores …), so the raw
bytes differ while the mail the player wrote does not. A mail is named by its Message-ID and
a digest of what its author's client produced: the headers other than trace headers, in
order, and the body, with line endings and trailing blanks normalised (relays rewrite both).
A mail without Message-ID is named by that digest alone, so it too survives the trace.

Upgrade: mail recorded before this naming was keyed by the digest of the whole raw mail
(`legacy_digest`). The inbox looks a mail up under its legacy key as well as its content
key, so an old mail delivered again byte for byte is still recognised. A copy of an
old mail that gained a trace header *after* the upgrade matches neither key and is recorded
once more: that is the one case the upgrade cannot close, since the old key kept no trace of
which headers were trace.
"""

from __future__ import annotations

import hashlib
import re

TRACE_HEADERS = frozenset({
    "received", "return-path", "delivered-to", "x-original-to", "x-delivered-to", "envelope-to",
    "x-envelope-from", "x-envelope-to", "received-spf", "authentication-results", "dkim-signature",
    "x-virus-scanned", "x-virus-status", "x-gm-message-state", "x-google-smtp-source", "x-received",
    "x-forwarded-to", "x-forwarded-for", "x-forwarded-encrypted", "x-resent-by", "resent-from", "resent-to",
    "resent-date", "resent-message-id", "resent-sender", "status", "x-status", "x-keywords", "x-uid",
    "lines", "content-length", "x-mozilla-status", "x-mozilla-status2", "x-mailer-queue-id",
})
TRACE_PREFIXES = ("arc-", "x-spam", "x-ham", "x-ms-exchange-", "x-microsoft-antispam", "x-rspamd", "x-mimecast",
                  "x-proofpoint", "x-barracuda", "x-originating-ip", "x-source", "x-ovh-", "x-cmae", "x-mail-from")
_HEADER_LINE = re.compile(rb"^([!-9;-~]+)[ \t]*:(.*)$")


def is_trace_header(name: str) -> bool:
    """True for a header a relay or mailbox adds in transit (not written by the author's client)."""
    name = name.strip().lower()
    return name in TRACE_HEADERS or name.startswith(TRACE_PREFIXES)


def content_digest(raw: bytes) -> str:
    """sha256 of the mail as its author's client wrote it (trace headers left out)."""
    text = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    head, _, body = text.partition(b"\n\n")
    if not _HEADER_LINE.match(head.split(b"\n", 1)[0]):  # no header block: all of it is body
        head, body = b"", text
    digest = hashlib.sha256()
    for name, value in _headers(head):
        if not is_trace_header(name.decode("latin-1")):
            digest.update(name.lower() + b":" + b" ".join(value.split()) + b"\n")
    digest.update(b"\n")
    for line in body.rstrip().split(b"\n"):
        digest.update(line.rstrip() + b"\n")
    return digest.hexdigest()


def synthetic_message_id(raw: bytes) -> str:
    """The Message-ID of a mail that has none (or none usable): named by its content."""
    return f"<{content_digest(raw)[:40]}@pbem.invalid>"


def legacy_digest(raw: bytes) -> str:
    """The digest mail was keyed by before trace headers were left out: the whole raw mail."""
    return hashlib.sha256(raw).hexdigest()


def _headers(head: bytes) -> list[tuple[bytes, bytes]]:
    """(name, unfolded value) for each header line; a line that is neither is kept as a value."""
    headers: list[tuple[bytes, bytes]] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and headers:
            name, value = headers[-1]
            headers[-1] = (name, value + b" " + line.strip())
            continue
        match = _HEADER_LINE.match(line)
        headers.append((match.group(1), match.group(2)) if match else (b"", line))
    return headers
