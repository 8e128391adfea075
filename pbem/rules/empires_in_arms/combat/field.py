"""Field, limited field and trivial combats (§7.5.2, §7.5.3, §7.5.4.2.3): the entry points."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.combat.battle import run
from pbem.rules.empires_in_arms.combat.charts import Charts, synthetic_charts
from pbem.rules.empires_in_arms.combat.models import Battle, BattleResult
from pbem.rules.empires_in_arms.combat.rounds import Procedure

FIELD = Procedure("field")
LIMITED = Procedure("limited", max_days=1)  # §7.5.4.2.3
TRIVIAL_TABLES = ("5-2", "5-2")  # §7.5.3.2
TRIVIAL_UNITS = ("garrison", "cossacks", "freikorps", "guerrillas")  # §7.5.3


def must_be_trivial(battle: Battle) -> bool:
    """One side initially only depot garrisons, cossacks, freikorps or guerrillas (§7.5.3)."""
    return any(all(u.category in TRIVIAL_UNITS for u in side.units) for side in (battle.attacker, battle.defender))


def field_combat(port: DecisionPort, battle: Battle, charts: Charts | None = None) -> BattleResult:
    """A land combat in an area: trivial when §7.5.3 says so or both commanders agreed, a
    limited field combat when the battle is limited to one day, else a field combat."""
    if must_be_trivial(battle) or battle.agreed_trivial:
        return trivial_combat(port, battle, charts)
    return run(port, battle, charts or synthetic_charts(), LIMITED if battle.max_days == 1 else FIELD)


def trivial_combat(port: DecisionPort, battle: Battle, charts: Charts | None = None) -> BattleResult:
    """Trivial combat (§7.5.3): no chits, 5-2 for both sides with terrain, commanders,
    cavalry superiority and guards; any factor may be a casualty; reinforcements and political
    points only when both commanders chose it for a field combat (§7.5.3.1, §7.5.3.5). Breaks,
    pursuit and retreat are the field combat's; a losing side's depot garrisons, which cannot
    retreat, surrender (§7.5.3.4, EIA-I74)."""
    agreed = battle.agreed_trivial and not must_be_trivial(battle)
    proc = Procedure("trivial", chits=False, tables=TRIVIAL_TABLES, loss_rules=False, reinforcements=agreed,
                     political=agreed, max_days=battle.max_days)
    return run(port, battle, charts or synthetic_charts(), proc)
