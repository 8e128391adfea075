"""Steps 1–4 and 7 of field combat: the sealed chits, the outflank split, and the combat
tables each side uses each round (§7.5.2.1–§7.5.2.4, §7.5.2.7)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.charts import Operation
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force

DEFAULT_CHIT = {"attacker": "assault", "defender": "cordon"}  # EIA-I60
#: Terrain's shifts of (casualty, morale) level for (attacker, defender) (§7.5.2.7.3).
TERRAIN_SHIFTS = {
    "clear": ((0, 0), (0, 0)),
    "forest": ((-1, 0), (-1, 0)),
    "mountain": ((-1, 0), (0, 0)),
    "desert": ((0, 1), (0, 1)),
    "marsh": ((-1, 1), (-1, 1)),
}


def may_outflank(force: Force) -> bool:
    """At least two non-artillery corps and a leader (§7.5.2.1)."""
    return len(flankers(force)) >= 2 and bool(force.leaders)


def flankers(force: Force) -> list[str]:
    return sorted(t.id for t in force.corps() if not t.unit.artillery_corps)


def choose_chits(fight: Fight) -> None:
    """Step 1: both sides' chits as one sealed batch (§7.5.2.1)."""
    requests = []
    for force, chits in ((fight.attacker, fight.charts.attacker_chits), (fight.defender, fight.charts.defender_chits)):
        allowed = tuple(c for c in chits if c != "outflank" or may_outflank(force))
        default = DEFAULT_CHIT[force.name] if DEFAULT_CHIT[force.name] in allowed else allowed[0]
        requests.append(fight.ask(force, kind="chit", prompt=f"Day {fight.day}: your combat chit", default=default,
                                  options=allowed, rule="§7.5.2.1"))
    fight.attacker.chit, fight.defender.chit = fight.port.decide_all(requests)


def outflanker(fight: Fight) -> Force | None:
    """Step 2: the side that splits, if any: one side alone chose outflank, and not the
    attacker against a cordon (§7.5.2.2; EIA-I68: that pairing's effect is the chart's)."""
    a, d = fight.attacker.chit == "outflank", fight.defender.chit == "outflank"
    if a == d or (a and fight.defender.chit == "cordon"):
        return None
    return fight.attacker if a else fight.defender


def split(fight: Fight, force: Force) -> None:
    """Step 3: the outflanker names the outflanking corps; all cossacks and freikorps go with
    them, leaders, garrisons, artillery and guerrillas pin (§7.5.2.3)."""
    options = tuple(flankers(force))
    strongest = min((t for t in force.corps() if t.id in options), key=lambda t: (-t.total, t.id))
    default = tuple(sorted(i for i in options if i != strongest.id))
    chosen = set(fight.port.decide(fight.ask(force, kind="flank", prompt="Name the corps of the outflanking force",
                                             default=default, options=options, rule="§7.5.2.3", sealed=False)))
    for troop in force.present():
        if troop.id in chosen or troop.unit.category in ("cossacks", "freikorps"):
            troop.role = "flank"
    force.flank_arrived = False


def operation(fight: Fight) -> Operation:
    return fight.charts.operation(fight.attacker.chit, fight.defender.chit)


def shift(table: str, casualty: int, morale: int) -> str:
    c, m = (int(x) for x in table.split("-"))
    return f"{min(5, max(1, c + casualty))}-{min(5, max(1, m + morale))}"


def field_table(fight: Fight, force: Force, guard_shift: int = 0) -> str:
    """Step 7: the side's table this round: the river variant on day 1 (§7.5.2.7.1), the
    "2nd" set once an outflank arrived (§7.5.2.7.2), terrain (§7.5.2.7.3), the guard (12.3.4.2)."""
    op = operation(fight)
    attacker = force is fight.attacker
    tables = op.a if attacker else op.d
    river = op.river_a if attacker else op.river_d
    second = op.second_a if attacker else op.second_d
    arrived = fight.attacker.flank_arrived or fight.defender.flank_arrived
    if fight.day == 1 and fight.battle.river and river:
        tables = river
    if arrived and second:
        tables = second
    return terrain_table(fight, force, tables[fight.round - 1], guard_shift)


def terrain_table(fight: Fight, force: Force, table: str, guard_shift: int = 0) -> str:
    casualty, morale = TERRAIN_SHIFTS[fight.battle.terrain][0 if force is fight.attacker else 1]
    return shift(table, casualty, morale + guard_shift)
