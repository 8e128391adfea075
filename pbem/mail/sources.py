"""What every mail source offers the daemon (IMAP, Maildir).

All methods block; the daemon runs them in a worker thread. `ack` is called only after the
mail and its replies are committed to the outbox, so a source never forgets a mail that
was not yet handled.
"""

from __future__ import annotations

import threading
from typing import NamedTuple, Protocol


class IncomingMail(NamedTuple):
    source_key: str
    """Stable name of this copy: `imap:<UIDVALIDITY>:<UID>` or `maildir:<unique name>`."""
    raw: bytes
    ref: object
    """What the source needs to acknowledge it (a UID, a file name)."""


class Source(Protocol):
    def describe(self) -> str: ...

    def fetch(self, limit: int) -> list[IncomingMail]:
        """Up to `limit` waiting mails, oldest first, without marking them read."""

    def ack(self, mails: list[IncomingMail]) -> None:
        """Move handled mail out of the way (Processed folder, `cur/`)."""

    def wait(self, timeout: float, stop: threading.Event) -> None:
        """Block until new mail may be waiting, `stop` is set, or `timeout` seconds pass."""

    def close(self) -> None: ...
