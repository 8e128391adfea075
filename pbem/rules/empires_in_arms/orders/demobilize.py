"""DEMOBILIZE: a corps, or garrison factors, removed with no political cost (§5.2.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbem.core.blocks import PowerBlock
from pbem.core.toolkit import Order
from pbem.rules.empires_in_arms.movement import OrderError, area_named, own_corps
from pbem.rules.empires_in_arms.removal import remove_emptied


@dataclass(frozen=True)
class Demobilize(Order):
    """§5.2.4: corps counters and garrison factors may be removed, with no political cost."""

    patterns: ClassVar = ("DEMOBILIZE <corps>", "DEMOBILIZE <count:int> <kind:code> IN <area>")
    rule: ClassVar = "§5.2.4"

    corps: str = ""  # the whole corps, or
    count: int = 0  # garrison factors of a type in an area
    kind: str = ""
    area: str = ""

    def execute(self, game: PowerBlock) -> str:
        state, scenario, power = game.state, game.scenario, game.power
        if self.corps:
            corps = own_corps(state, power, self.corps, scenario)
            corps.factors = {}
            remove_emptied(state, corps, None)
            return f"{power} demobilises {corps.id}"
        area = area_named(scenario, self.area)
        garrison = state.garrison_in(area)
        if garrison is None or garrison.power != power or garrison.factors.get(self.kind, 0) < self.count \
                or self.count < 1:
            raise OrderError(f"{power} has no {self.count} {self.kind} in garrison in {scenario.areas[area].title}")
        garrison.factors[self.kind] -= self.count
        garrison.factors = {k: n for k, n in garrison.factors.items() if n}
        return f"{power} demobilises {self.count} {self.kind} of its garrison in {scenario.areas[area].title}"
