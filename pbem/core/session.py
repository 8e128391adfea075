"""One piece of work on one campaign (issue 11): a player's mail, a clock tick, a GM
command. The campaign aggregate and its projection are held in step for it; every fact it
records is appended and folded at once, and remembered, so what the work caused (press to
relay, the mail to send) is read from the session rather than from the log again.

`CampaignService.session(name)` opens one and, when the work is done, resolves what it
allows, saves it in one transaction and collects the mail to send: the one place that
sequence is written. The clock and the GM's commands work on a session; mail reaches one
through the service.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pbem.core.campaign import Campaign, InboundMail
from pbem.core.outcomes import Outcome, Renderer
from pbem.core.projection import CampaignProjection


class CampaignSession:
    """The campaign and its projection for one piece of work, and what that work did."""

    def __init__(self, campaign: Campaign, projection: CampaignProjection, *, now: datetime,
                 renderer: Renderer | None):
        self.campaign = campaign
        self.projection = projection
        self.now = now
        self.renderer = renderer
        self.before = campaign.version
        self.outcome = Outcome(campaign.name)
        self.facts: list[Any] = []
        #: Whether steps may resolve when the work is done (the clock leaves a paused campaign be).
        self.advancing = True
        #: Everybody is mailed a report telling what happened since this log version (a new
        #: campaign, a rollback), instead of the reports the campaign's `reports` setting sends.
        self.report_everyone_since: int | None = None
        #: The received mail that caused this work, saved with its facts (given the log versions).
        self.inbound: Callable[[list[int]], InboundMail] | None = None
        #: The receipt's idempotency key and the Message-ID it answers.
        self.reply: tuple[str, str | None] | None = None
        #: Where a copy of the receipt goes (the mail came from another address than the player's).
        self.receipt_copy_to: str | None = None
        #: Other records saved in the same transaction (a GM mail's line, done).
        self.saved_with: list[Any] = []

    @property
    def name(self) -> str:
        return self.campaign.name

    def record(self, command: Callable[..., None], **kwargs: Any) -> None:
        """Append a fact and fold it into the projection at once."""
        command(**kwargs)
        fact = self.campaign.pending_events[-1]
        self.projection.apply(fact)
        self.facts.append(fact)

    @property
    def changed(self) -> bool:
        return self.campaign.version != self.before
