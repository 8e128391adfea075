"""TRANSFER: factors moved between corps in one area, or with the garrison there (§5.2.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbem.core.blocks import PowerBlock
from pbem.core.toolkit import FieldType, Order
from pbem.rules.empires_in_arms.garrisons import absorb, detach, no_exchange
from pbem.rules.empires_in_arms.movement import OrderError, own_corps
from pbem.rules.empires_in_arms.removal import remove_emptied

GARRISON = "GARRISON"
#: §5.2.3: feudal, insurrection and artillery factors are never exchanged.
NOT_EXCHANGED = ("ART",)


@dataclass(frozen=True)
class Transfer(Order):
    """§5.2.3: between unbesieged corps of the power in one area, capacity permitting, or
    with the garrison there as in §7.3.3; a corps left empty is removed."""

    patterns: ClassVar = ("TRANSFER <count:int> <kind:code> FROM <source:holder> TO <target:holder>",)
    types: ClassVar = {"holder": FieldType("NAME", lambda tokens: GARRISON if str(tokens[0]).upper() == GARRISON
                                           else str(tokens[0]), "<{name}|GARRISON>")}
    rule: ClassVar = "§5.2.3"

    count: int
    kind: str
    source: str  # a corps, or GARRISON
    target: str

    def execute(self, game: PowerBlock) -> str:
        state, scenario, power = game.state, game.scenario, game.power
        if self.kind in NOT_EXCHANGED:
            raise OrderError(f"{self.kind} factors are never exchanged (§5.2.3)")
        if self.source == GARRISON and self.target == GARRISON:
            raise OrderError("a transfer goes from or to a corps (§5.2.3)")
        if self.source == GARRISON:
            corps = own_corps(state, power, self.target, scenario)
            absorb(state, scenario, corps, self.count, self.kind)
            return f"{power} {corps.id} takes {self.count} {self.kind} from its garrison"
        source = own_corps(state, power, self.source, scenario)
        if self.target == GARRISON:
            detach(state, scenario, source, self.count, self.kind, may_empty=True)
            remove_emptied(state, source, None)
            return f"{power} {source.id} gives {self.count} {self.kind} to its garrison"
        target = own_corps(state, power, self.target, scenario)
        no_exchange(scenario, source)
        no_exchange(scenario, target)
        if source.area != target.area:
            raise OrderError(f"{source.id} and {target.id} are not in the same area (§5.2.3)")
        if source.id == target.id:
            raise OrderError("a corps does not transfer factors to itself")
        if source.power != target.power:
            raise OrderError(f"{source.id} is a corps of {source.power} and {target.id} of {target.power}: corps of "
                             "different nationalities may not exchange factors (§5.2.3)")
        if source.factors.get(self.kind, 0) < self.count or self.count < 1:
            raise OrderError(f"{source.id} has {source.factors.get(self.kind, 0)} {self.kind}, not {self.count}")
        room = target.capacity.get(self.kind, 0) - target.factors.get(self.kind, 0)
        if self.count > room:
            raise OrderError(f"{target.id} has room for {max(room, 0)} more {self.kind} (§5.2.3)")
        source.factors[self.kind] -= self.count
        source.factors = {k: n for k, n in source.factors.items() if n}
        target.factors = dict(sorted({**target.factors, self.kind: target.factors.get(self.kind, 0) + self.count}
                                     .items()))
        remove_emptied(state, source, target)
        return f"{power} transfers {self.count} {self.kind} from {source.id} to {target.id}"
