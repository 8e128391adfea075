"""Driving a Ratio Regis campaign through the core service, in memory."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "examples/ratio-regis/scenario.toml"
CATHOLICS = ROOT / "examples/ratio-regis/catholics-protestants.toml"


def identity_shuffle(size: int) -> list[int]:
    """Forced dice that leave a Fisher–Yates shuffle of `size` items in order."""
    return list(range(size, 1, -1))


class Game:
    """One campaign: submit orders, read the GM view and what is owed."""

    def __init__(self, scenario: Path = SCENARIO, players=("p1", "p2", "p3"), options=None, name="game"):
        self.service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
        self.name = name
        self.scenario = tomllib.loads(scenario.read_text())
        specs = [PlayerSpec(id=p, name=p.upper(), address=f"{p}@example.org") for p in players]
        self.service.create(name, "ratio-regis", self.scenario, specs, options=options or {},
                            secret=b"fixed secret for tests")

    def dice(self, purpose: str, values: list[int]) -> None:
        self.service.force_dice(self.name, purpose, values, "test")

    def send(self, player: str, text: str):
        return self.service.submit(self.name, player, text).receipt

    @property
    def projection(self):
        return self.service.projection(self.name)

    def view(self, viewer: str = "gm") -> dict:
        return self.projection.view(viewer)

    def owed(self, player: str) -> list[str]:
        return [r.kind for r in self.projection.pending_for(player)]

    def step(self) -> str | None:
        return self.projection.status()["step"]

    def chronicle(self, viewer: str = "gm") -> list[str]:
        return [c.text for c in self.projection.chronicle(viewer)]

    def state(self):
        return self.projection.current()[1]


def ordered_deal(game: Game, generic_pool: int, deck: int) -> None:
    """Force the deck dice so that no shuffle moves a card (hands then follow the
    scenario's card order, dealt one at a time in game order)."""
    game.dice("deck-generic", identity_shuffle(generic_pool))
    game.dice("deck-shuffle", identity_shuffle(deck))


def three_player_game(**options) -> Game:
    """France-Huguenots for 3: p1 France (0 VP), p2 Huguenots (3), p3 England (3);
    hands p1 101,1,4 · p2 102,2,5 · p3 103,3,6; p1 chooses who starts."""
    game = Game(options=options)
    ordered_deal(game, 39, 9)
    for player, bid in (("p1", 3), ("p2", 2), ("p3", 1)):
        game.send(player, f"BID {bid}")
    for player, group in (("p1", 1), ("p2", 2), ("p3", 3)):
        game.send(player, f"GROUP {group}")
    return game


@pytest.fixture
def game3() -> Game:
    return three_player_game()
