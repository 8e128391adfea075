"""Raw mail bytes → `Envelope`, and which mail must never be answered.

`parse_mail` is pure and total: whatever the bytes, it returns an Envelope (at worst with an
empty text), because every mail gets an answer from the core and a parser exception would
leave a player without one. `auto_mail_reason` spots bounces, auto-replies and list mail,
which are never answered: answering them is how two robots start a mail storm.
"""

from __future__ import annotations

import hashlib
import json
import re
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses

from pbem.core.mailidentity import synthetic_message_id
from pbem.core.messages import Envelope
from pbem.mail.flowed import is_hard_wrapped, unflow, unwrap
from pbem.mail.htmltext import html_to_text
from pbem.mail.replytext import strip_reply

DEFAULT_MAX_BYTES = 2 * 1024 * 1024
MAX_MULTIPARTS = 100  # no client nests or lists that many; the stdlib walks them recursively, slowly
MAX_PARTS = 500
# The stdlib's header parser costs ~0.1 ms per byte of a Content-* header: one 60 kB header
# took 3 s. Real ones are under 1 kB (Content-*) and 16 kB (References of a long thread).
MAX_CONTENT_HEADER = 1000
MAX_HEADER = 16_384
_HEADER_START = re.compile(rb"^[!-9;-~]+:")
_MSG_ID = re.compile(r"<[^<>\s]+>")


def raw_digest(raw: bytes) -> str:
    """sha256 of the raw bytes: names a mail when it has no usable Message-ID."""
    return hashlib.sha256(raw).hexdigest()


def parse_mail(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, source_key: str | None = None) -> Envelope:
    """Parse `raw` into an Envelope. A mail over `max_bytes` keeps its headers but no text;
    so does a mail of more than `MAX_MULTIPARTS` multiparts (nested a thousand deep, say) and
    one whose body the parser cannot walk: its sender still gets an answer."""
    try:
        return _parse(raw, max_bytes=max_bytes, source_key=source_key)
    except Exception:  # noqa: BLE001 - whatever the stdlib trips over, the player still gets an answer
        try:
            return _parse(raw, max_bytes=-1, source_key=source_key)
        except Exception:  # noqa: BLE001
            return Envelope(sender="", message_id=synthetic_message_id(raw), source_key=source_key, raw=raw)


def _parse(raw: bytes, *, max_bytes: int, source_key: str | None) -> Envelope:
    lowered = raw.lower()
    oversize = (len(raw) > max_bytes or lowered.count(b"multipart/") > MAX_MULTIPARTS
                or lowered.count(b"content-type:") > MAX_PARTS)
    msg = _message(raw, headers_only=oversize)
    message_ids = _MSG_ID.findall(_header(msg, "Message-ID"))
    in_reply_to = _MSG_ID.findall(_header(msg, "In-Reply-To"))
    attached, json_problem = (None, "") if oversize else _safe(lambda: json_attachment(msg), (None, ""))
    return Envelope(
        sender=sender_address(msg),
        message_id=message_ids[0] if message_ids else synthetic_message_id(raw),
        subject=" ".join(_header(msg, "Subject").split()),
        text="" if oversize else _safe(lambda: strip_reply(body_text(msg)), ""),
        json_orders=attached,
        json_problem=json_problem,
        in_reply_to=in_reply_to[0] if in_reply_to else None,
        references=tuple(_MSG_ID.findall(_header(msg, "References"))),
        source_key=source_key,
        raw=raw,
    )


def auto_mail_reason(raw: bytes, *, own_addresses: tuple[str, ...] = ()) -> str | None:
    """Why this mail must not be answered (`bounce`, `auto-submitted`, …), or None.

    Follows RFC 3834: never answer `Auto-Submitted` other than `no`, delivery reports, the
    null return path, `Precedence: bulk/list/junk`, list traffic, or our own mail.
    """
    try:
        msg = _message(raw, headers_only=True)
    except Exception:  # noqa: BLE001
        return None
    sender = sender_address(msg)
    local = sender.partition("@")[0]
    content_type = _header(msg, "Content-Type").lower()
    checks = [
        ("own-address", sender and sender in {a.lower() for a in own_addresses}),
        ("bounce", "multipart/report" in content_type or "delivery-status" in content_type),
        ("bounce", local in {"mailer-daemon", "postmaster"} or _header(msg, "Return-Path").strip() == "<>"),
        ("auto-submitted", _header(msg, "Auto-Submitted").strip().lower() not in {"", "no"}),
        ("auto-reply", any(_header(msg, h) for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply"))),
        ("precedence", _header(msg, "Precedence").strip().lower() in {"bulk", "list", "junk", "auto_reply"}),
        ("list", bool(_header(msg, "List-Id") or _header(msg, "List-Unsubscribe"))),
        ("no-sender", not sender),
    ]
    return next((reason for reason, hit in checks if hit), None)


def sender_address(msg: Message) -> str:
    """The bare, lower-cased address of the author (From, else Sender, else Return-Path).

    Read from the header as sent, before encoded words are decoded: a display name
    `=?utf-8?q?=0D=0ABcc=3A_x=40evil?=` must not decode into a second address."""
    for name in ("From", "Sender", "Return-Path"):
        raw = next((str(value) for key, value in msg.raw_items() if key.lower() == name.lower()), "")
        addresses = [addr for _, addr in getaddresses([printable(raw)]) if "@" in addr and addr.isprintable()]
        if addresses:
            return addresses[0].strip().lower()
    return ""


def raw_sender(raw: bytes) -> str:
    """`sender_address` of a mail not yet parsed, from its headers alone (cheap, never raises)."""
    return _safe(lambda: sender_address(_message(raw, headers_only=True)), "")


def body_text(msg: Message) -> str:
    """The readable body: text/plain preferred, else HTML converted, format=flowed undone,
    and the text of `.txt` attachments after it (orders sent as a file).

    The HTML alternative is taken instead of the plain one when the plain part is empty
    (some webmail sends an empty text/plain beside the real HTML) or hard-wrapped (webmail
    breaks plain text at 76–78 columns; the HTML keeps each line whole). Plain text with no
    HTML beside it has its hard wraps undone (`unwrap`)."""
    plain, html = _alternative(msg, "plain"), _alternative(msg, "html")
    plain_text = _plain_text(plain) if plain is not None else ""
    if html is not None and (not plain_text.strip() or is_hard_wrapped(plain_text)):
        text = html_to_text(_decoded_text(html))
    elif plain is not None:
        text = plain_text if _is_flowed(plain) else unwrap(plain_text)
    else:
        text = ""
    attached = [_decoded_text(part) for part in text_attachments(msg) if part is not plain and part is not html]
    return "\n".join([text, *attached]) if attached else text


def _alternative(msg: Message, subtype: str) -> Message | None:
    """The body part of `subtype`; a lone text part counts even when marked as an attachment."""
    part = msg.get_body(preferencelist=(subtype,)) if isinstance(msg, EmailMessage) else None
    if part is None and not msg.is_multipart() and msg.get_content_type() == f"text/{subtype}":
        part = msg
    return part


def _is_flowed(part: Message) -> bool:
    return str(part.get_param("format", "")).lower() == "flowed"


def _plain_text(part: Message) -> str:
    """A text/plain part's text, format=flowed undone."""
    text = _decoded_text(part)
    if _is_flowed(part):
        text = unflow(text, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    return text


def text_attachments(msg: Message) -> list[Message]:
    """Plain-text attachments (`*.txt`, or text/plain marked as an attachment): orders
    written in an editor and attached. Their names are only looked at, never used as paths."""
    found = []
    for part in msg.walk():
        if part.is_multipart() or part.get_content_disposition() != "attachment":
            continue
        filename = (part.get_filename() or "").lower()
        if part.get_content_type() == "text/plain" or filename.endswith(".txt"):
            found.append(part)
    return found


def json_attachment(msg: Message) -> tuple[list | dict | None, str]:
    """The first JSON attachment (`application/json` or `*.json`) that decodes to a list or
    an object, or why the one found cannot be read (so the player is told, not ignored)."""
    problem = ""
    for part in msg.walk():
        if part.is_multipart():
            continue
        filename = (part.get_filename() or "").lower()
        if part.get_content_type() != "application/json" and not filename.endswith(".json"):
            continue
        payload = part.get_payload(decode=True) or b""
        try:
            value = json.loads(payload.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as error:
            problem = f"the JSON attachment {part.get_filename() or ''} cannot be read: {error}".replace("  ", " ")
            continue
        if isinstance(value, (list, dict)):
            return value, ""
        problem = "the JSON attachment must be a list of order lines or an object with \"orders\""
    return None, problem


def _message(raw: bytes, *, headers_only: bool) -> Message:
    return BytesParser(policy=policy.default).parsebytes(bound_headers(raw), headersonly=headers_only)


def bound_headers(raw: bytes) -> bytes:
    """`raw` with every header (of the mail or of a part) cut to `MAX_HEADER` bytes, and a
    Content-* header to `MAX_CONTENT_HEADER`: a mail's size must bound the time it costs."""
    if len(raw) <= MAX_CONTENT_HEADER:
        return raw
    out: list[bytes] = []
    limit = used = 0
    for line in raw.split(b"\n"):
        if limit and line[:1] in (b" ", b"\t"):
            if used + len(line) > limit:
                continue
            used += len(line)
        elif _HEADER_START.match(line):
            limit = MAX_CONTENT_HEADER if line[:8].lower() == b"content-" else MAX_HEADER
            line = line[:limit]
            used = len(line)
        else:
            limit = 0
        out.append(line)
    return b"\n".join(out)


def _header(msg: Message, name: str) -> str:
    """A header as text, control characters removed (they would travel into the answer's
    headers and the logs); a header the stdlib cannot parse falls back to its decoded raw value."""
    try:
        value = msg.get(name)
        text = "" if value is None else str(value)
    except Exception:  # noqa: BLE001 - policy.default chokes on some broken headers
        raw = next((value for key, value in msg.raw_items() if key.lower() == name.lower()), "")
        try:
            text = str(make_header(decode_header(raw)))
        except Exception:  # noqa: BLE001
            text = str(raw)
    return printable(text)


def printable(text: str) -> str:
    """`text` without control or format characters (NUL, CR, LF, escape, bidi overrides …);
    tabs and line breaks become spaces."""
    return "".join(c if c.isprintable() else " " for c in text if c.isprintable() or c in "\t\r\n")


def _decoded_text(part: Message) -> str:
    """The part's text: its declared charset when the bytes really are in it, else UTF-8,
    else Windows-1252 (a client that labels 8-bit UTF-8 as ASCII is common; replacement
    characters in an order line would make it unreadable)."""
    try:
        payload = part.get_payload(decode=True) or b""
    except Exception:  # noqa: BLE001 - a broken transfer encoding
        payload = str(part.get_payload()).encode("utf-8", "replace")
    if not isinstance(payload, bytes):
        payload = str(payload).encode("utf-8", "replace")
    for charset in (part.get_content_charset() or "utf-8", "utf-8", "cp1252"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("latin-1")


def _safe(compute, fallback):  # type: ignore[no-untyped-def]
    try:
        return compute()
    except Exception:  # noqa: BLE001 - a broken part must not cost the player an answer
        return fallback


