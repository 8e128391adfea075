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
    renderer = MailRenderer(from_address=from_address or os.environ.get("PBEM_FROM", "pbem@localhost"))
    return CampaignService(store, renderer)
