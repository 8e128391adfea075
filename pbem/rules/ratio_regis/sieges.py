"""Sieges on the map (§13.4; example §32.1): planting a siege, assaults, sorties (§13.3.1),
capitulation and the end of a siege. The combat itself is the engine's (`combat/siege.py`,
`combat/field.py`); this module builds it from the state and applies what follows.
"""

from __future__ import annotations

from pbem.core.engine import MapMark
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles, land_combat, minimaps
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.control import take_control
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import resolve_area
from pbem.rules.ratio_regis.orders import Assault, Sortie
from pbem.rules.ratio_regis.retreat import retreat
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import Fortress, GameState, Troop
from pbem.rules.ratio_regis.supply import supplied


def besieged_fortress(state: GameState, area: str, power: str) -> Fortress | None:
    """The built fortress in `area` of a power at war with `power`, if any."""
    fortress = state.fortress_in(area)
    if fortress is None or not fortress.built or fortress.power == power or not state.at_war(power, fortress.power):
        return None
    return fortress


def besiegers(state: GameState, area: str) -> list[Troop]:
    power = state.areas[area].besieger
    return [t for t in state.troops_in(area) if t.power == power and not t.besieged]


def garrison(state: GameState, area: str, fortress: Fortress) -> list[Troop]:
    return [t for t in state.troops_in(area) if t.power == fortress.power and t.besieged]


def plant(state: GameState, judge: DecisionPort, power: str, area: str) -> str:
    """§13.4.1: an enemy fortress where `power` now stands alone is besieged; the
    defenders left inside count as besieged. Returns the chronicle line ('' if none)."""
    fortress = besieged_fortress(state, area, power)
    status = state.areas[area]
    if fortress is None or status.besieger == power:
        return ""
    if any(t.power == fortress.power and not t.besieged for t in state.troops_in(area)):
        return ""
    status.besieger, status.siege_casualties = power, 0
    inside = garrison(state, area, fortress)
    text = f"{power} besieges the fortress {fortress.id} in {area}" + \
        (f", held by {', '.join(t.id for t in inside)}" if inside else "") + " (§13.4.1)"
    judge.say(text, rule="§13.4.1", mark=MapMark(area=area, kind="siege", result=f"besieged by {power}"))
    return text


def lift_ended_sieges(state: GameState, judge: DecisionPort) -> None:
    """§13.4.5: a siege ends when the besiegers are gone (moved away, eliminated,
    dispersed) or the fortress is; its siege casualties go with it, the garrison is free."""
    besieged = [area for area, status in state.areas.items() if status.besieger is not None]
    for area in sorted(besieged):
        status = state.areas[area]
        fortress = state.fortress_in(area)
        if fortress is not None and besiegers(state, area) and besieged_fortress(state, area, status.besieger):
            continue
        for troop in state.troops_in(area):
            troop.besieged = False
        status.besieger, status.siege_casualties = None, 0
        judge.say(f"the siege of {area} is lifted (§13.4.5)", rule="§13.4.5")


def _siege_of(state: GameState, scenario: Scenario, power: str, name: str, who: str) -> tuple[str, Fortress]:
    area = resolve_area(scenario, name, state)
    status = state.areas[area]
    fortress = state.fortress_in(area)
    if fortress is None or status.besieger is None:
        raise IllegalOrder(f"no fortress is under siege in {area} (§13.4)")
    if who == "besieger" and status.besieger != power:
        raise IllegalOrder(f"{power} is not besieging {area}: {status.besieger} is (§13.4.1)")
    if who == "besieged" and fortress.power != power:
        raise IllegalOrder(f"the fortress in {area} is {fortress.power}'s, not {power}'s (§13.3.1)")
    return area, fortress


def assault(state: GameState, scenario: Scenario, power: str, order: Assault, run: ImpulseRun) -> str:
    """§13.4.1–§13.4.5: an assault by the besiegers, a tactical action after the one in
    which the siege was planted (§32.1); needs supply (§15.2). Capitulation gives the
    besieger the area (§13.4.7); the fortress is destroyed and the garrison disperses."""
    area, fortress = _siege_of(state, scenario, power, order.area, "besieger")
    if not supplied(state, scenario, power, area):
        raise IllegalOrder(f"{area} is out of supply for {power}: no assault (§15.2)")
    attackers = besiegers(state, area)
    defenders = garrison(state, area, fortress)
    status = state.areas[area]
    combat = cm.Combat(
        id=f"assault-{area}", type=cm.SIEGE, area=area,
        attacker=battles.side(state, scenario, power, [t.id for t in attackers]),
        defender=battles.side(state, scenario, fortress.power, [t.id for t in defenders], fortress=fortress.id),
        siege_casualties=status.siege_casualties,
        commercial_port=scenario.areas[area].port and not status.razed,
        mini_map=minimaps.on_mini_map(scenario, area), options=dict(state.options.combat))
    result, text = land_combat.fight(state, scenario, run.judge, combat, f"assault on {area}")
    run.ledger.acted.update(t.id for t in attackers)
    if result.capitulated:
        status.besieger, status.siege_casualties = None, 0
        text += f"; {fortress.power} capitulates (§13.4.5)"
        run.judge.say(text, rule="§13.4.5",
                      mark=MapMark(area=area, kind="siege", result=f"{fortress.power} capitulates"))
        take_control(state, scenario, run.judge, power, area, "capitulation, §13.4.5")
        return text
    status.siege_casualties = result.siege_casualties
    text += f"; siege casualties {status.siege_casualties}"
    run.judge.say(text, rule="§13.4.2", mark=battles.mark(combat, result, "siege"))
    return text


def sortie(state: GameState, scenario: Scenario, power: str, order: Sortie, run: ImpulseRun) -> str:
    """§13.3.1: the besieged give open battle to the besiegers — free at the start of the
    impulse (F), else a tactical action. One disadvantage per siege casualty, battlefield
    3 at most in open terrain, no fortress die (§13.3.3–§13.3.4). A beaten sortie stays
    inside; beaten besiegers retreat (§13.3.6) and the siege is lifted."""
    area, fortress = _siege_of(state, scenario, power, order.area, "besieged")
    inside = garrison(state, area, fortress)
    if not inside:
        raise IllegalOrder(f"no troops of {power} are besieged in {area} to sortie")
    outside = besiegers(state, area)
    status = state.areas[area]
    combat = cm.Combat(
        id=f"sortie-{area}", type=cm.FIELD, area=area, sortie=True, siege_casualties=status.siege_casualties,
        attacker=battles.side(state, scenario, power, [t.id for t in inside]),
        defender=battles.side(state, scenario, status.besieger, [t.id for t in outside]),
        terrain=battles.TERRAIN[scenario.areas[area].terrain],
        commercial_port=scenario.areas[area].port and not status.razed,
        mini_map=minimaps.on_mini_map(scenario, area), options=dict(state.options.combat))
    result, text = land_combat.fight(state, scenario, run.judge, combat, f"sortie from {area}")
    run.ledger.acted.update(t.id for t in inside)
    run.judge.say(text, rule="§13.3.1", mark=battles.mark(combat, result, "siege"))
    if result.winner == cm.ATTACKER:
        retreat(state, scenario, run.judge, besiegers(state, area), area, None, why=f"the sortie from {area}")
    lift_ended_sieges(state, run.judge)
    return text
