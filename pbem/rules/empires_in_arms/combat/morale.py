"""Base and final morale levels (§7.5.2.6), in integer tenths."""

from __future__ import annotations

from collections import Counter

from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.forces import Troop

#: Method Two's net limits on the adjustments (§7.5.2.6.1.2).
METHOD_TWO_UP, METHOD_TWO_DOWN = 5, -10
LOW_MORALE = 20  # "a morale value of 2.0 or less" (§7.5.2.6.1.2)
DAILY_DROP = 5  # "0.5 for each succeeding day" (§7.5.2.6.2)


def method_one(troops: list[Troop], charts: Charts) -> int:
    """The factor-weighted mean of morale values, rounded up to the next tenth
    (§7.5.2.6.1.1): (21×3.0 + 20×4.0 + 10×5.0)/51 = 3.784 → 3.8."""
    weighted = sum(count * troop.morale(kind, charts) for troop in troops for kind, count in troop.factors.items())
    factors = sum(troop.total for troop in troops)
    return -(-weighted // factors) if factors else 0


def primary_component(troops: list[Troop], charts: Charts) -> str:
    """The major power with the most corps present, its minor free states' corps counted as
    its own; a tie goes to the lowest basic morale (§7.5.2.6.1.2), then the power's name."""
    corps = Counter(t.unit.minor_of or t.unit.power for t in troops if t.is_corps)
    if not corps:
        corps = Counter(t.unit.minor_of or t.unit.power for t in troops)
    most = max(corps.values())
    tied = [power for power, count in corps.items() if count == most]
    return min(tied, key=lambda power: (charts.morale.basic.get(power, 0), power))


def method_two(troops: list[Troop], charts: Charts) -> int:
    """The primary component's basic morale, +0.1 per guard factor, −0.1 per militia,
    cossack, freikorps, guerrilla or infantry/cavalry factor of morale 2.0 or less, the net
    held to +0.5/−1.0 (§7.5.2.6.1.2): AU 3 GRD, 28 INF, 6 MIL → 3.5 + 0.3 − 0.6 = 3.2."""
    primary = primary_component(troops, charts)
    if primary not in charts.morale.basic:
        raise ValueError(f"the national morale values chart has no basic morale for {primary}")
    up = sum(t.factors["guard"] for t in troops)
    down = sum(t.factors[kind] for t in troops for kind in ("militia", "cossack", "freikorps", "guerrilla"))
    down += sum(t.factors[kind] for t in troops for kind in ("infantry", "cavalry")
                if t.morale(kind, charts) <= LOW_MORALE)
    return charts.morale.basic[primary] + max(METHOD_TWO_DOWN, min(METHOD_TWO_UP, up - down))


def base_morale(troops: list[Troop], method: int, charts: Charts) -> int:
    """The base morale of a whole side, outflanking force included (§7.5.2.3.2)."""
    return method_one(troops, charts) if method == 1 else method_two(troops, charts)


def final_morale(base: int, day: int, modifier: int = 0) -> int:
    """Base morale −0.5 per day after the first, ± the chart's notes (§7.5.2.6.2, §7.5.2.13.2.1)."""
    return base - DAILY_DROP * (day - 1) + modifier
