"""Drains the outbox into a sink: each due mail is sent, then marked sent.

A mail is marked sent only after the sink accepted it, so a crash between the two resends it
(the same bytes, the same Message-ID): SMTP offers no way to ask a server "did you already
take this one?", so that window — the server's "250 OK" to our commit — is the only place a
duplicate can come from, and it is kept as short as a single SQLite commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from pbem.mail.logs import log_event
from pbem.mail.outbox import Outbox, QueuedMail

logger = logging.getLogger("pbem.mail.sender")


class TransientSendError(Exception):
    """Try again later (server down, 4xx)."""


class PermanentSendError(Exception):
    """Never retry (5xx for this recipient)."""


class Sink(Protocol):
    async def send(self, mail: QueuedMail, from_address: str) -> None:
        """Deliver `mail` or raise TransientSendError / PermanentSendError."""

    async def close(self) -> None: ...


async def drain(outbox: Outbox, sink: Sink, *, from_address: str, clock: Callable[[], float],
                limit: int = 500, should_stop: Callable[[], bool] = lambda: False) -> int:
    """Send what is due now; returns how many were accepted. Stops at the first transient
    failure (the server is likely down: every other mail would fail the same way)."""
    sent = 0
    for mail in outbox.due(clock(), limit):
        if should_stop():
            break
        try:
            await sink.send(mail, from_address)
        except PermanentSendError as error:
            outbox.mark_failed(mail.key, clock(), str(error))
            log_event(logger, "mail.send_failed", key=mail.key, to=mail.recipient, error=str(error))
            continue
        except TransientSendError as error:
            at = outbox.mark_retry(mail.key, clock(), str(error))
            log_event(logger, "mail.send_deferred", key=mail.key, attempts=mail.attempts + 1,
                      retry_in=round(at - clock(), 1), error=str(error), level=logging.WARNING)
            break
        outbox.mark_sent(mail.key, clock())
        sent += 1
        log_event(logger, "mail.sent", key=mail.key, to=mail.recipient, message_id=mail.message_id)
    return sent
