"""The example campaigns under `examples/<ruleset>/<example>/` (a campaign.toml, a
players.toml, a scenario and numbered mails): created with the demo's dice secret and
played mail by mail, for `pbem demo`, the benches and the tests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pbem import resources
from pbem.core.datafile import load_data_file
from pbem.core.gm import GameMaster
from pbem.core.outcomes import Outcome
from pbem.core.service import CampaignService, CommandError, PlayerSpec

EXAMPLES = resources.examples_dir()


def demo_dir(ruleset: str, example: str = "demo") -> Path:
    directory = EXAMPLES / ruleset / example
    if not (directory / "campaign.toml").is_file():
        known = sorted(p.parent.name for p in (EXAMPLES / ruleset).glob("*/campaign.toml"))
        raise CommandError(f"no example campaign {example!r} for ruleset {ruleset!r} "
                           f"(there are: {', '.join(known) or 'none'})")
    return directory


@dataclass
class Delivery:
    """One example mail handed to the service: what it refused, and whether steps resolved."""

    campaign: str
    mail: str
    player: str
    version_before: int
    step: str | None = None  # the step in progress when the mail came
    by_gm: bool = False  # a GM's mail: `GM …` commands, not orders
    steps_resolved: int = 0
    refused: list[str] = field(default_factory=list)  # "<mail>: <reason>" for every refused line


def create_example(service: CampaignService, source: Path, ruleset: str = "",
                   settings: dict | None = None) -> tuple[str, list[PlayerSpec], Outcome]:
    """Create the example campaign of `source` (its campaign.toml, players.toml and scenario)
    with the demo's dice secret; `ruleset` if the campaign file does not name one, and
    `settings` over the campaign file's own."""
    campaign = load_data_file(source / "campaign.toml")
    name = campaign["name"]
    players = [PlayerSpec.model_validate(p) for p in load_data_file(source / "players.toml")["player"]]
    _, created = service.create(name, campaign.get("ruleset", ruleset),
                                load_data_file((source / campaign["scenario"]).resolve()), players,
                                options=campaign.get("options", {}),
                                settings={**campaign.get("settings", {}), **(settings or {})},
                                secret=demo_secret(name))
    return name, players, created


def deliver_example(service: CampaignService, source: Path, upto: int | None = None,
                    settings: dict | None = None) -> Iterator[Delivery]:
    """Create the example campaign of `source` and hand its numbered mails to the service
    one by one (the first `upto`), straight to the commands the mail gateway would run:
    orders without their SIGNON/SIGNOFF lines, and a GM's `GM …` lines one at a time.
    Yields after each mail, so a caller can look (or time) between them."""
    name, players, _ = create_example(service, source, settings=settings)
    masters = {p.id for p in players if p.role == "gm"}
    for path in sorted(source.glob("[0-9]*.txt"))[:upto]:
        yield deliver_mail(service, name, path, masters)


def deliver_mail(service: CampaignService, name: str, path: Path, masters: set[str]) -> Delivery:
    """One example mail (`NNN-<player>.txt`) handed to the service as the mail gateway would:
    a player's orders without their SIGNON/SIGNOFF lines, a GM's `GM …` lines one at a time."""
    player = path.stem.split("-", 1)[1]
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line.split()[:1] not in (["SIGNON"], ["SIGNOFF"])]
    projection = service.projection(name)
    delivery = Delivery(name, path.name, player, projection.data.version, projection.step, by_gm=player in masters)
    if delivery.by_gm:
        for line in (line.strip() for line in lines if line.strip().upper().startswith("GM ")):
            try:
                delivery.steps_resolved += GameMaster(service).execute(name, line)[1].steps_resolved
            except (CommandError, ValueError) as error:
                delivery.refused.append(f"{path.name}: {error}")
    else:
        outcome = service.submit(name, player, "\n".join(lines))
        receipt = outcome.receipt
        delivery.steps_resolved = outcome.steps_resolved
        delivery.refused += [f"{path.name}: {v.reason}" for v in receipt.verdicts if not v.accepted]
        if not receipt.accepted:
            delivery.refused.append(f"{path.name}: {receipt.reason}")
    return delivery


def demo_secret(name: str) -> bytes:
    return hashlib.sha256(f"pbem demo dice:{name}".encode()).digest()
