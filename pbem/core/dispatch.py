"""The mail a piece of work caused, committed with the facts that cause it (issue 13).

A receipt, an explanation, a GM announcement or a report is rendered before the work is
saved and kept, whole, in a `Dispatch` saved in the same transaction as the campaign's
facts (and the `InboundMail` that caused them). So after a crash at any point either both
exist or neither does: a mail received again is answered with exactly the stored replies,
and the mail layer relays every dispatch into its outbox (`pending_dispatches`) — a
deadline's reports cannot be lost between the clock's facts and the outbox.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Iterable
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import get_topic
from pydantic import TypeAdapter

from pbem.core.messages import OutgoingMail

_MAIL = TypeAdapter(list[OutgoingMail])


def mail_cause(mail_id: UUID | str) -> str:
    """The cause of the work a received mail started."""
    return f"mail:{mail_id}"


def work_cause(campaign: str, before: int) -> str:
    """The cause of other work on a campaign (the clock, a GM command): where it began."""
    return f"campaign:{campaign}:{before}"


def encode_mail(mail: Iterable[OutgoingMail]) -> str:
    return base64.b64encode(zlib.compress(_MAIL.dump_json(list(mail)), 6)).decode("ascii")


def decode_mail(stored: str) -> list[OutgoingMail]:
    return _MAIL.validate_json(zlib.decompress(base64.b64decode(stored)))


class Dispatch(Aggregate):
    """The rendered mail of one piece of work, by its cause (see `mail_cause`, `work_cause`)."""

    @staticmethod
    def create_id(cause: str, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:dispatch:{cause}")

    class Written(Aggregate.Created):
        cause: str
        campaign: str | None
        mail: str

    @event(Written)
    def __init__(self, cause: str, campaign: str | None, mail: str):
        self.cause = cause
        self.campaign = campaign
        self.mail = mail

    @property
    def outgoing(self) -> list[OutgoingMail]:
        return decode_mail(self.mail)


def dispatch(cause: str, campaign: str | None, mail: Iterable[OutgoingMail]) -> Dispatch:
    return Dispatch(cause=cause, campaign=campaign, mail=encode_mail(mail))


class LineDone(Aggregate):
    """One command line of a received mail (a GM's), done: saved with the facts it caused,
    so the mail handled again (after a kill between two lines, or submitted twice) skips it
    and answers it with the same `reply`, its announcements kept under `cause`. Out of the
    campaign's log because a reply may tell a new SIGNON token."""

    @staticmethod
    def create_id(mail_id: UUID | str, number: int, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:line-done:{mail_id}:{number}")

    class Written(Aggregate.Created):
        mail_id: str
        number: int
        reply: str
        before: int
        cause: str

    @event(Written)
    def __init__(self, mail_id: str, number: int, reply: str, before: int, cause: str):
        self.mail_id = mail_id
        self.number = number
        self.reply = reply
        self.before = before
        self.cause = cause


def pending_dispatches(store: Any, after: int, limit: int = 100) -> tuple[list[OutgoingMail], int]:
    """The mail of the dispatches committed after notification `after` (at most `limit`
    of them), and the notification to continue from."""
    batch = store.recorder.select_notifications(start=after + 1, limit=limit, topics=[get_topic(Dispatch.Written)])
    mail: list[OutgoingMail] = []
    for notification in batch:
        mail.extend(decode_mail(store.mapper.to_domain_event(notification).mail))
    return mail, (batch[-1].id if batch else after)
