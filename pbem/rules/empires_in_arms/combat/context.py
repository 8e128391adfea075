"""What every procedure of one battle shares: the battle, its charts, the port, the two
forces, and how requests and dice of this battle are named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.combat.casualties import Contingents
from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat import named_losses
from pbem.rules.empires_in_arms.combat.forces import Force, Troop
from pbem.rules.empires_in_arms.combat.models import Battle


@dataclass
class Fight:
    battle: Battle
    charts: Charts
    port: DecisionPort
    attacker: Force
    defender: Force
    day: int = 1
    round: int = 0

    def forces(self) -> tuple[Force, Force]:
        return self.attacker, self.defender

    def enemy(self, force: Force) -> Force:
        return self.defender if force is self.attacker else self.attacker

    def roll(self, what: str, rule: str) -> int:
        return self.port.roll(f"{self.battle.id}/{what}", rule=rule)

    def contingents(self, force: Force, where: str) -> Contingents | None:
        """Option 12.3.6 for losses `force` takes at `where`: the contingents' competitive dice,
        keyed there, and their own loss orders (EIA-I244); None when the option is off."""
        if not self.battle.options.proportional_losses:
            return None
        return Contingents(lambda what, power: self.roll(f"{where}/{force.name}/{what}/{power}", "12.3.6"),
                           force.side.loss_orders)

    def ask(self, force: Force, *, kind: str, prompt: str, default: Any, options: tuple[str, ...] = (),
            rule: str, sealed: bool = True, **context: Any) -> Request:
        facts = {"battle": self.battle.id, "area": self.battle.area, "terrain": self.battle.terrain,
                 "side": force.name, "enemy": self.enemy(force).power, "day": self.day, **context}
        return self.port.request(kind=kind, player=force.side.player, power=force.power, prompt=prompt,
                                 default=default, purpose=f"{self.battle.id}/{kind}", options=options,
                                 context=facts, sealed=sealed, rule=rule)

    def losses_request(self, force: Force, troops: list[Troop], count: int, pool: str, *, militia: bool = True,
                       cavalry_first: bool = False, order: tuple[str, ...] | None = None) -> Request | None:
        """With option `chosen_losses`, the owner's `casualties` request for `count` losses (pursuit
        points) of `troops` (`named_losses`); None when it is not asked: the option off, no
        choice, or a side of several nationalities sharing its losses (12.3.6)."""
        options = self.battle.options
        if not options.chosen_losses or (options.proportional_losses
                                         and len({t.unit.power for t in troops}) > 1):
            return None
        facts = {"battle": self.battle.id, "area": self.battle.area, "terrain": self.battle.terrain,
                 "side": force.name, "enemy": self.enemy(force).power, "day": self.day, "round": self.round}
        return named_losses.request(self.port, player=force.side.player, power=force.power,
                                    purpose=f"{self.battle.id}/{named_losses.KIND}", facts=facts, troops=troops,
                                    count=count, pool=pool, order=order or force.side.loss_order,
                                    charts=self.charts, militia=militia, cavalry_first=cavalry_first)

    def say(self, text: str, rule: str) -> None:
        """A line of the battle for its two sides only: it tells strengths, which the rules
        reveal to the combatants (§7.5.2.6.3) and to nobody else (eia-core tells the others
        the outcome)."""
        to = tuple(dict.fromkeys(f.side.player for f in self.forces()))
        self.port.say(f"{self.battle.area}: {text}", to=to, rule=rule)
