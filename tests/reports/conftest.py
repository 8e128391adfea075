"""Fixtures: the toy game registered as a ruleset, and a played toy campaign."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

import pytest

from pbem.core import ruleset as rulesets
from pbem.core.messages import OutgoingMail
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.reports.renderer import MailRenderer

from tests.reports.toy import ToyRules

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=timezone.utc)
TOY_PLAYERS = [PlayerSpec(id="p1", name="Alice", address="alice@example.org", timezone="Europe/Paris", token="t1"),
               PlayerSpec(id="p2", name="Bob", address="bob@example.org", timezone="America/New_York", token="t2")]


@pytest.fixture
def toy_ruleset(monkeypatch: pytest.MonkeyPatch) -> ToyRules:
    rules = ToyRules()
    real = rulesets.load
    monkeypatch.setattr(rulesets, "load", lambda name: rules if name == "toy" else real(name))
    return rules


@dataclass
class Played:
    service: CampaignService
    mail: list[OutgoingMail] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)


def new_toy_service() -> CampaignService:
    return CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                           renderer=MailRenderer(from_address="gm@example.org"), clock=lambda: NOW)


# Each step of the toy campaign: (player, order text). p1 bids, then p2 (which reveals
# the sealed batch), then both play.
TOY_ORDERS = [
    ("p1", "SIGNON p1 toy-demo t1\nBID 2\nPOLICY PLAY DO PLAY Storm\nSIGNOFF"),
    ("p2", "SIGNON p2 toy-demo t2\nBID 1\nSIGNOFF"),
    ("p1", "SIGNON p1 toy-demo t1\nPLAY {p1_card}\nSIGNOFF"),
    ("p2", "SIGNON p2 toy-demo t2\nPLAY {p2_card}\nBOGUS line\nSIGNOFF"),
]


@pytest.fixture
def toy_campaign(toy_ruleset: ToyRules) -> Played:
    """The toy campaign played through one full turn and into the second bid."""
    service = new_toy_service()
    _, outcome = service.create("toy-demo", "toy", {"turns": 2}, TOY_PLAYERS, secret=bytes(32))
    played = Played(service, list(outcome.mail), [service.projection("toy-demo").data.version])
    for player, text in TOY_ORDERS:
        projection = service.projection("toy-demo")
        hands = {pid: p["hand"] for pid, p in projection.current()[1]["players"].items()}
        pending = projection.pending_for(player)
        if not pending:
            continue
        text = text.format(p1_card=hands["p1"][-1], p2_card=hands["p2"][0])
        outcome = service.submit("toy-demo", player, text, mail_id=f"m{len(played.versions)}")
        played.mail.extend(outcome.mail)
        played.versions.append(service.projection("toy-demo").data.version)
    return played
