"""Playing an example campaign (`examples/ratio-regis/<name>/`) mail by mail through the
core service on an in-memory store, as `pbem demo --example <name>` does through a Maildir
(here the SIGNON and SIGNOFF lines, which the mail gateway reads, are left out). A mail of a
player whose role is `gm` carries GM commands (`GM DICE …`), carried out one by one as the
mail gateway does (`pbem.core.inbox.gm_mail`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.datafile import load_data_file
from pbem.core.gm import GameMaster
from pbem.core.service import CampaignService, CommandError, PlayerSpec
from pbem.core.store import open_store
from pbem.demo import demo_secret

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ratio-regis"


@dataclass
class Played:
    service: CampaignService
    name: str
    refused: list[str] = field(default_factory=list)  # "<mail>: <reason>" for every refused line

    def projection(self):
        return self.service.projection(self.name)


def play(example: str, upto: int | None = None) -> Played:
    """Create the campaign and deliver its numbered mails in order (the first `upto`)."""
    source = EXAMPLES / example
    campaign = load_data_file(source / "campaign.toml")
    players = [PlayerSpec.model_validate(p) for p in load_data_file(source / "players.toml")["player"]]
    masters = {p.id for p in players if p.role == "gm"}
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    name = campaign["name"]
    service.create(name, campaign["ruleset"], load_data_file((source / campaign["scenario"]).resolve()), players,
                   options=campaign.get("options", {}), settings=campaign.get("settings", {}),
                   secret=demo_secret(name))
    played = Played(service, name)
    for path in sorted(source.glob("[0-9]*.txt"))[:upto]:
        player = path.stem.split("-", 1)[1]
        lines = [line for line in path.read_text(encoding="utf-8").splitlines()
                 if line.split()[:1] not in (["SIGNON"], ["SIGNOFF"])]
        if player in masters:
            played.refused += _gm_commands(service, name, path.name, lines)
            continue
        receipt = service.submit(name, player, "\n".join(lines)).receipt
        played.refused += [f"{path.name}: {v['reason']}" for v in receipt.verdicts if not v["accepted"]]
        if not receipt.accepted:
            played.refused.append(f"{path.name}: {receipt.reason}")
    return played


def _gm_commands(service: CampaignService, name: str, mail: str, lines: list[str]) -> list[str]:
    """Carry out the `GM …` lines of a GM mail; returns "<mail>: <reason>" for each refused."""
    refused = []
    for line in lines:
        if not line.strip().upper().startswith("GM "):
            continue
        try:
            GameMaster(service).execute(name, line.strip())
        except (CommandError, ValueError) as error:
            refused.append(f"{mail}: {error}")
    return refused
