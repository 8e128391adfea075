"""The composition root: one place that wires the store, the service, the renderer
and the mail layer together, so the CLI, the daemon and the demo take the same path."""

from __future__ import annotations

import os
from pathlib import Path

from pbem.core.service import CampaignService
from pbem.core.store import default_home, open_store


def home_dir(home: Path | None = None) -> Path:
    return Path(home) if home is not None else default_home()


def build_service(home: Path | None = None, *, from_address: str | None = None) -> CampaignService:
    """The campaign service of a home, with the report renderer."""
    from pbem.reports.renderer import MailRenderer

    home = home_dir(home)
    store = open_store(home)
    renderer = MailRenderer(from_address=from_address or os.environ.get("PBEM_FROM", "pbem@localhost"),
                            campaign_templates=home / "templates")
    return CampaignService(store, renderer)


def queue_mail(home: Path | None, mail: list) -> None:
    """Put outgoing mail in the home's outbox, for `pbem run` to send (exactly once by key)."""
    if not mail:
        return
    import time

    from pbem.mail.intake import queue_item
    from pbem.mail.outbox import Outbox
    from pbem.mail.settings import load_settings

    settings = load_settings(home_dir(home))
    now = time.time()
    Outbox(settings.state_path).enqueue([queue_item(m, from_address=settings.from_address, now=now) for m in mail],
                                        now=now)
