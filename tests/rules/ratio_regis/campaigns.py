"""Playing an example campaign (`examples/ratio-regis/<name>/`) mail by mail through the
core service on an in-memory store (`pbem.tools.examples.deliver_example`), as `pbem demo --example
<name>` does through a Maildir."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.datafile import load_data_file
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.tools.examples import deliver_example

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ratio-regis"


@dataclass
class Played:
    service: CampaignService
    name: str
    refused: list[str] = field(default_factory=list)  # "<mail>: <reason>" for every refused line

    def projection(self):
        return self.service.projection(self.name)

    def replayed_chronicle(self) -> list[str]:
        """Every chronicle line of the steps resolved, read from a replay without snapshots."""
        projection = self.service.loader.load(self.name, use_snapshots=False)
        return [c.text for r in projection.resolved for c in r.result.chronicle]


def play(example: str, upto: int | None = None) -> Played:
    """Create the campaign and deliver its numbered mails in order (the first `upto`)."""
    source = EXAMPLES / example
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    played = Played(service, load_data_file(source / "campaign.toml")["name"])
    for delivery in deliver_example(service, source, upto):
        played.refused += delivery.refused
    return played
