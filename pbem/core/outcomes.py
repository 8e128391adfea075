"""What commands return and what the service says to players: receipts, outcomes, the
renderer port the report side implements, and the errors a user sees as one line."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Protocol

from pydantic import AfterValidator, BaseModel, ConfigDict

from pbem.core.contact import mail_address, time_zone
from pbem.core.decisions import LineVerdict
from pbem.core.messages import OutgoingMail

if TYPE_CHECKING:
    from pbem.core.projection import CampaignProjection


class CommandError(Exception):
    """A command that cannot be carried out; the message is for the user."""


class PlayerSpec(BaseModel):
    """A player as the GM lists them in a players file."""

    model_config = ConfigDict(extra="forbid")

    id: str
    name: str = ""
    address: Annotated[str, AfterValidator(mail_address)]
    timezone: Annotated[str, AfterValidator(time_zone)] = "UTC"
    token: str | None = None
    role: str = "player"


class Owed(BaseModel):
    key: str
    kind: str
    power: str | None
    prompt: str
    default_form: str
    rule: str = ""


class Receipt(BaseModel):
    """The answer to one order set: every line echoed, what it answered, what is still owed."""

    campaign: str
    player: str
    to: str
    timezone: str = "UTC"
    accepted: bool
    reason: str = ""
    verdicts: list[LineVerdict] = []
    unused: list[int] = []  # lines read as legal in an order set refused whole: not carried out
    answered: list[str] = []
    policies: list[str] = []
    queued: list[str] = []
    press: list[str] = []
    explained: list[str] = []
    asks: list[str] = []  # HELP, LIST: answered in the receipt
    help: list[str] = []
    campaigns: list[str] = []
    owed: list[Owed] = []
    deadline: str | None = None
    step: str | None = None
    steps_resolved: int = 0
    report_follows: bool = False  # a report to this player goes out with the receipt
    paused: str | None = None  # why the GM paused the campaign, while it is paused


class Renderer(Protocol):
    """Turns what the service decided to say into mail (implemented by `pbem.reports`)."""

    def receipt(self, receipt: Receipt, *, key: str, in_reply_to: str | None) -> OutgoingMail: ...

    def report(self, projection: CampaignProjection, viewer: str, *, since_version: int, key: str) -> OutgoingMail: ...

    def refusal(self, to: str, subject: str, text: str, *, key: str, in_reply_to: str | None) -> OutgoingMail: ...

    def press(self, projection: CampaignProjection, to_player: str, sender: str, text: str, *,
              key: str) -> OutgoingMail: ...

    def notice(self, to: str, subject: str, title: str, text: str, *, key: str,
               in_reply_to: str | None = None) -> OutgoingMail: ...

    def announcement(self, projection: CampaignProjection, to_player: str, text: str, *,
                     new_deadline: str | None, key: str) -> OutgoingMail: ...

    def reminder(self, projection: CampaignProjection, player: str, *, key: str) -> OutgoingMail: ...


@dataclass
class Outcome:
    """What one input did: the receipt (if it came from a player) and the mail to send."""

    campaign: str
    receipt: Receipt | None = None
    steps_resolved: int = 0
    mail: list[OutgoingMail] = field(default_factory=list)


_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|vs|antw|réf|rif|odp|fwd?|tr|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def reply_subject(subject: str, fallback: str = "your orders") -> str:
    """`Re: ` and the subject without the reply prefixes clients pile up (`Re: Re: AW:`)."""
    return "Re: " + (_REPLY_PREFIX.sub("", subject).strip() or fallback)


def token_hash(campaign: str, player: str, token: str) -> str:
    return hashlib.sha256(f"{campaign}|{player}|{token}".encode()).hexdigest()
