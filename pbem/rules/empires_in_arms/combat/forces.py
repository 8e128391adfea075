"""The forces inside a battle (dataclasses): each unit's factors as the battle wears them down,
its part in the battle (the main body, an outflanking force, a reinforcement), and each side's
running morale (integer tenths)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.models import CAVALRY_KINDS, FACTOR_KINDS, Factors, Leader, Side, Unit

Role = Literal["main", "flank", "reinforcement"]


@dataclass
class Troop:
    unit: Unit
    factors: dict[str, int]
    role: Role = "main"
    lost: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FACTOR_KINDS, 0))
    #: Factors at the start of the battle or on joining it (§7.5.2.10.1.3: more than 20 counts twice).
    start: int = 0
    gone: bool = False  # withdrawn or surrendered

    @classmethod
    def of(cls, unit: Unit, role: Role = "main") -> Troop:
        return cls(unit, unit.factors.as_dict(), role, start=unit.factors.total)

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def total(self) -> int:
        return sum(self.factors.values())

    @property
    def cavalry(self) -> int:
        return sum(self.factors[kind] for kind in CAVALRY_KINDS)

    @property
    def is_corps(self) -> bool:
        return self.unit.category == "corps"

    def morale(self, kind: str, charts: Charts) -> int:
        """The morale value of one of its factors (§7.5.2.6.1.1)."""
        fixed = {"guard": charts.morale.guard, "militia": charts.morale.militia, "cossack": charts.morale.irregular,
                 "freikorps": charts.morale.irregular, "guerrilla": charts.morale.irregular,
                 "cavalry": self.unit.cavalry_morale}
        return fixed.get(kind, self.unit.infantry_morale)

    def lose(self, kind: str, count: int) -> None:
        self.factors[kind] -= count
        self.lost[kind] += count

    def losses(self) -> Factors:
        return Factors(**self.lost)


@dataclass
class Force:
    """One side of a battle as it stands."""

    name: Literal["attacker", "defender"]
    side: Side
    troops: list[Troop]
    leaders: list[Leader]
    commander: Leader | None = None
    chit: str = ""
    final_morale: int = 0
    morale_loss: int = 0
    total_morale_loss: int = 0
    #: None: no outflanking force; False: on its way; True: arrived (§7.5.2.12).
    flank_arrived: bool | None = None
    guard_committed_today: bool = False
    broken: bool = False
    pursuit_losses: int = 0
    withdrew: list[str] = field(default_factory=list)
    surrendered: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)
    joined: list[str] = field(default_factory=list)
    joined_groups: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, name: Literal["attacker", "defender"], side: Side) -> Force:
        return cls(name, side, [Troop.of(unit) for unit in side.units], list(side.leaders))

    @property
    def power(self) -> str:
        return self.side.power

    def present(self) -> list[Troop]:
        return [t for t in self.troops if not t.gone and t.total > 0]

    def fighting(self) -> list[Troop]:
        """Who fights this round: all but an outflanking force on its way (§7.5.2.3.2)."""
        return [t for t in self.present() if t.role != "flank" or self.flank_arrived]

    def pinning(self) -> list[Troop]:
        return [t for t in self.present() if t.role != "flank"]

    def flank(self) -> list[Troop]:
        return [t for t in self.present() if t.role == "flank"]

    def total(self) -> int:
        return sum(t.total for t in self.present())

    def cavalry(self, troops: list[Troop] | None = None) -> int:
        return sum(t.cavalry for t in (self.present() if troops is None else troops))

    def corps(self) -> list[Troop]:
        return [t for t in self.present() if t.is_corps]

    def inflicting(self) -> int:
        """Factors counted for the losses this side inflicts: an arrived outflanking force
        counts double (§7.5.2.7.2)."""
        doubled = 2 if self.flank_arrived else 1
        return sum(t.total * (doubled if t.role == "flank" else 1) for t in self.fighting())

    def mark_used(self) -> None:
        """Corps that took part in a round, for the political points (§7.5.2.10.1.3)."""
        self.used.update(t.id for t in self.present() if t.is_corps)
