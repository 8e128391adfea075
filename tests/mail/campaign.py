"""A real campaign for the mail tests: the campaign service of a home, with the example
Ratio Regis scenario, and a look into its event store."""

from __future__ import annotations

from pathlib import Path

from eventsourcing.utils import get_topic

from pbem.app import build_service
from pbem.core.campaign import InboundMail
from pbem.core.datafile import load_data_file
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store

REPO = Path(__file__).resolve().parents[2]
PLAYERS = [PlayerSpec(id="fra", address="fra@pbem.test", token="s3cret"),
           PlayerSpec(id="hug", address="hug@pbem.test", token="t0ken")]


def create_campaign(home: Path, name: str = "ratio-demo") -> CampaignService:
    """A campaign in `home` whose player `fra` signs on with `SIGNON fra ratio-demo s3cret`."""
    service = build_service(home, from_address="gm@pbem.test")
    scenario = load_data_file(REPO / "examples" / "ratio-regis" / "scenario.toml")
    service.create(name, "ratio-regis", scenario, PLAYERS, secret=bytes(32))
    return service


def recorded_mail(home: Path) -> list[str]:
    """The Message-ID of every mail the service recorded as a fact."""
    store = open_store(home)
    topic = get_topic(InboundMail.Received)
    message_ids: list[str] = []
    start = 1
    while batch := store.recorder.select_notifications(start=start, limit=500, topics=[topic]):
        message_ids += [store.mapper.to_domain_event(n).message_id for n in batch]
        start = batch[-1].id + 1
    return message_ids
