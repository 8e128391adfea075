"""What crosses the boundary between the mail layer and the campaign service.

The mail layer turns a raw mail into an `Envelope` (plain text, quotes and signatures
already removed) and hands it to the service; the service answers with `OutgoingMail`
values, each carrying an idempotency key so the outbox sends it exactly once.
Nothing here knows a game.
"""

from __future__ import annotations

import base64
import zlib

from pydantic import BaseModel, ConfigDict, Field


class Attachment(BaseModel):
    # Kept whole in a `Dispatch` (JSON): a picture's bytes travel as base64.
    model_config = ConfigDict(frozen=True, ser_json_bytes="base64", val_json_bytes="base64")

    filename: str
    content_type: str
    data: bytes


class Envelope(BaseModel):
    """One received mail, parsed once.

    `text` holds only what the sender wrote in this mail: quoted replies, forwarded
    history and signatures are gone. `json_orders` holds the decoded contents of a JSON
    attachment, if any, and `json_problem` why an attachment could not be read. `source_key` identifies the copy on the server (for IMAP
    `imap:<UIDVALIDITY>:<UID>`); `raw` is the whole mail as received.
    """

    model_config = ConfigDict(frozen=True)

    sender: str
    message_id: str
    subject: str = ""
    text: str = ""
    json_orders: list | dict | None = None
    json_problem: str = ""
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    source_key: str | None = None
    raw: bytes = b""

    def raw_compressed(self) -> str:
        """The raw mail, zlib-compressed and base64-encoded, for keeping in a fact."""
        return base64.b64encode(zlib.compress(self.raw, 9)).decode("ascii")


def decompress_raw(stored: str) -> bytes:
    """Inverse of `Envelope.raw_compressed`."""
    return zlib.decompress(base64.b64decode(stored))


class OutgoingMail(BaseModel):
    """One mail to send. `key` names what caused it (e.g. `receipt:<campaign>:<event>`),
    so sending the same key twice is a no-op."""

    model_config = ConfigDict(frozen=True)

    key: str
    to: str
    subject: str
    text: str
    html: str | None = None
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    attachments: tuple[Attachment, ...] = Field(default_factory=tuple)


class MailOutcome(BaseModel):
    """What the service did with one envelope."""

    model_config = ConfigDict(frozen=True)

    duplicate: bool = False
    campaign: str | None = None
    replies: tuple[OutgoingMail, ...] = ()
    first_source_key: str | None = None
    """For a mail recorded before: the copy it was recorded from. The very copy again is no
    second delivery but the same mail handled again after a crash."""
