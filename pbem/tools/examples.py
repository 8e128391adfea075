"""The example campaigns under `examples/<ruleset>/<example>/` (a campaign.toml, a
players.toml, a scenario and numbered mails): created with the demo's dice secret and
played mail by mail, for `pbem demo`, the benches and the tests; and listed and copied out
of the installed package for a GM to follow or edit (`pbem examples`).
"""

from __future__ import annotations

import hashlib
import shutil
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


def example_rulesets() -> list[str]:
    return sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def _ruleset_dir(ruleset: str) -> Path:
    if ruleset not in example_rulesets():
        raise CommandError(f"no examples for ruleset {ruleset!r} (there are: {', '.join(example_rulesets())})")
    return EXAMPLES / ruleset


@dataclass(frozen=True)
class ExampleCampaign:
    """An example campaign as `pbem examples list` shows it."""

    name: str
    scenario: str
    mails: int


def example_scenarios(ruleset: str) -> list[str]:
    """A ruleset's example scenario files, relative to its folder (editions left out:
    scenarios name them)."""
    folder = _ruleset_dir(ruleset)
    return sorted(p.relative_to(folder).as_posix() for pattern in ("*.toml", "scenarios/*.toml")
                  for p in folder.glob(pattern))


def example_campaigns(ruleset: str) -> list[ExampleCampaign]:
    folder = _ruleset_dir(ruleset)
    return [ExampleCampaign(path.parent.name, Path(load_data_file(path)["scenario"]).name,
                            len(list(path.parent.glob("[0-9]*.txt"))))
            for path in sorted(folder.glob("*/campaign.toml"))]


def copy_examples(ruleset: str, destination: Path) -> Path:
    """A ruleset's examples (scenarios, editions, example campaigns) copied to
    `destination`, a new or empty folder, laid out as shipped so their relative paths hold."""
    source = _ruleset_dir(ruleset)
    if destination.exists() and (not destination.is_dir() or any(destination.iterdir())):
        raise CommandError(f"{destination} exists and is not an empty folder; choose another destination")
    shutil.copytree(source, destination, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    return destination


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
