import pytest

from pbem.core import ruleset as rulesets
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store

from tests.support.minigame import MiniGame

_real_load = rulesets.load
_MINIGAME = MiniGame()  # one instance, as `rulesets.load` gives (rulesets hold no state)


@pytest.fixture(autouse=True)
def minigame_registered(monkeypatch):
    monkeypatch.setattr(rulesets, "load", lambda name: _MINIGAME if name == "minigame" else _real_load(name))


@pytest.fixture
def service():
    store = open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    return CampaignService(store)


@pytest.fixture
def players():
    return [PlayerSpec(id=p, address=f"{p}@example.org", token=f"tok-{p}") for p in ("ann", "bob", "cy")]
