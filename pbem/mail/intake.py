"""One received mail, from raw bytes to "handled, replies queued".

The order of effects is what makes a crash harmless: (1) the handler records the mail (the
core dedups by Message-ID + digest and answers a repeat with the same replies); (2) the
replies, the refusal count and "source handled" are committed together to `mail.sqlite3`;
(3) only then does the source move the mail to Processed. A crash before (2) repeats (1),
which changes nothing; a crash before (3) finds the source key already handled.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from pbem.core.messages import Envelope, MailOutcome, OutgoingMail
from pbem.mail.compose import compose, message_id_for
from pbem.mail.envelope import auto_mail_reason, parse_mail
from pbem.mail.guards import is_refusal, over_failure_limit, refusal_counters, size_refusal
from pbem.mail.logs import log_event
from pbem.mail.outbox import Outbox, QueuedMail
from pbem.mail.settings import MailSettings
from pbem.mail.sources import IncomingMail

logger = logging.getLogger("pbem.mail.intake")

MailHandler = Callable[[Envelope], MailOutcome]
"""`pbem.core.inbox.handle_mail` bound to a campaign service (or anything with its contract)."""


def queue_item(mail: OutgoingMail, *, from_address: str, now: float) -> QueuedMail:
    """An outgoing mail composed for the outbox (its bytes are fixed from now on)."""
    date = datetime.fromtimestamp(now, tz=UTC)
    return QueuedMail(mail.key, mail.to, message_id_for(mail.key, from_address),
                      compose(mail, from_address=from_address, date=date))


class Intake:
    def __init__(self, settings: MailSettings, handler: MailHandler, outbox: Outbox,
                 clock: Callable[[], float]) -> None:
        self.settings = settings
        self.handler = handler
        self.outbox = outbox
        self.clock = clock

    def process(self, mail: IncomingMail) -> bool:
        """Handle one mail; True when it may be acknowledged at the source."""
        if self.outbox.is_processed(mail.source_key):
            return True
        now = self.clock()
        settings = self.settings
        reason = auto_mail_reason(mail.raw, own_addresses=(settings.from_address,))
        envelope = parse_mail(mail.raw, max_bytes=settings.max_mail_bytes, source_key=mail.source_key)
        fields = {"source_key": mail.source_key, "sender": envelope.sender, "message_id": envelope.message_id,
                  "bytes": len(mail.raw)}
        if reason:
            self.outbox.commit_handled(source_key=mail.source_key, message_id=envelope.message_id,
                                       disposition=f"ignored:{reason}", replies=[], refusals=[], now=now)
            log_event(logger, "mail.ignored", reason=reason, **fields)
            return True
        if len(mail.raw) > settings.max_mail_bytes:
            replies: tuple[OutgoingMail, ...] = (size_refusal(envelope, max_bytes=settings.max_mail_bytes),)
            disposition = "refused:size"
        else:
            try:
                outcome = self.handler(envelope)
            except Exception as error:  # noqa: BLE001 - a bug in the service must not stop the daemon
                log_event(logger, "mail.handler_error", level=logging.ERROR, error=f"{type(error).__name__}: {error}",
                          **fields)
                return False
            replies = outcome.replies
            # The very copy recorded before is this mail handled again after a crash, not a
            # second delivery: handled, as the uninterrupted run would have it.
            again = outcome.duplicate and outcome.first_source_key != mail.source_key
            disposition = "duplicate" if again else "handled"
        refusals = [r for r in replies if is_refusal(r)]
        counted = refusal_counters(envelope)
        since = now - settings.failure_window_seconds
        if refusals and over_failure_limit(max(self.outbox.refusals_since(c, since) for c in counted),
                                           limit=settings.failure_limit):
            replies = tuple(r for r in replies if not is_refusal(r))
            log_event(logger, "mail.refusal_suppressed", count=len(refusals), **fields)
        queued = [queue_item(r, from_address=settings.from_address, now=now) for r in replies]
        self.outbox.commit_handled(source_key=mail.source_key, message_id=envelope.message_id,
                                   disposition=disposition, replies=queued,
                                   refusals=[(c, r.key) for c in counted for r in refusals], now=now)
        log_event(logger, "mail.handled", disposition=disposition, replies=len(queued), **fields)
        return True
