"""A combat on land in the order the rules fight it (§13.1 "the following phases are
conducted in this order"), the same for a field battle (§13.3), a sortie (§13.3.1), an
assault (§13.4) and a subjugation (§13.5):

1. naval support, when the area is coastal: every fleet on its coast may support a side
   and rival supporters fight first (§11.4.2 "a naval combat first occurs");
2. the combat fought by the engine (§13.1.1–§13.1.6);
3. persecution and consequences applied (§13.1.7–§13.1.8): losses, veterans, unrest,
   morale.

What follows from the result (a retreat, a siege planted or lifted, control taken) is
each combat's own and stays with its caller.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles, naval_support
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def fight(state: GameState, scenario: Scenario, judge: DecisionPort, combat: cm.Combat, name: str) -> tuple[cm.CombatResult, str]:
    """Fight `combat` through steps 1–3 above; returns its result and the chronicle's line
    `<name>: <who beat whom>` (not said yet: callers add what followed)."""
    combat = naval_support.supported(state, scenario, judge, combat)
    result = battles.fight(judge, combat)
    battles.apply_result(state, scenario, judge, combat, result)
    return result, f"{name}: " + battles.outcome(combat, result)
