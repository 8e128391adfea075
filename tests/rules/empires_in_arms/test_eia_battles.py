"""The bridge between the game and its combat procedures (`battles.py`): only it imports
`combat/`, and it builds the combat's sides from the state as the scenario describes them."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.state_edits import StateEdit
from pbem.core.store import open_store
from pbem.rules.empires_in_arms import battles
from pbem.rules.empires_in_arms.scenario import load_scenario
from pbem.rules.empires_in_arms.state import Battle, initial_state

ROOT = Path(__file__).resolve().parents[3]
GAME = ROOT / "pbem" / "rules" / "empires_in_arms"
COMBAT = "pbem.rules.empires_in_arms.combat"


def danube():
    data = tomllib.loads((ROOT / "examples" / "empires-in-arms" / "scenario.toml").read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    return scenario, initial_state(scenario, [Seat("p1", "P1"), Seat("p2", "P2")])


def test_only_the_bridge_imports_the_combat_procedures():
    importers = []
    for path in GAME.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(name.startswith(COMBAT) for name in names):
                importers.append(path.name)
    assert sorted(set(importers)) == ["battles.py"]


def test_a_field_combat_is_built_with_the_depot_garrison_and_the_seats():
    scenario, state = danube()
    state.corps_by_id("FR-Cav").area = "Munich"
    combat = battles.build(state, scenario, Battle("Munich", "field", "FR", ["FR-Cav"], ["AU"], ["AU-I"]))
    assert (combat.attacker.player, combat.defender.player) == ("p1", "p2")
    assert [u.id for u in combat.defender.units] == ["AU-I", "AU-depot"]
    assert combat.defender.units[0].factors.infantry == 14 and combat.defender.units[1].category == "garrison"
    assert [lead.id for lead in combat.defender.leaders] == ["Charles"]


def test_a_retreat_map_blocks_enemy_corps_and_aims_at_own_depots():
    scenario, state = danube()
    land = battles.retreat_map(state, scenario, {"FR"})
    assert "Munich" in land.blocked and "Linz" in land.blocked
    assert land.depots == ("Mainz", "Strasbourg")


def test_a_scenario_whose_morale_is_not_a_decimal_string_is_refused():
    scenario, _ = danube()
    data = scenario.data.model_dump()
    data["powers"][0]["infantry_morale"] = "three"
    problems = battles.check_scenario(load_scenario(data))
    assert problems == ["power FR: 'three' is not a decimal number such as \"3.5\""]


def test_a_third_power_reads_the_outcome_but_not_the_strengths():
    """§7.5.2.6.3: forces are revealed to the combatants only. Prussia (p2) watches France
    (p1) fight Austria (p3) in Lorraine: it reads how the combat ended, never a factor count."""
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    scenario = load_data_file(ROOT / "tests" / "cases" / "empires-in-arms" / "scenarios" / "three-powers.toml")
    players = [PlayerSpec(id=p, address=f"{p}@cases.invalid", token=p) for p in ("p1", "p2", "p3")]
    service.create("c", "empires-in-arms", scenario, players, options={}, secret=bytes(32))
    service.set_state("c", [StateEdit(f"corps.{c}.area", "=", "Lorraine") for c in ("FR-I", "AU-I")], "in Lorraine")
    service.submit("c", "p3", "POLICY chit DO CHIT cordon\nPOLICY day_end DO FIGHT")
    service.submit("c", "p1", "POLICY chit DO CHIT assault\nPOLICY day_end DO FIGHT\nSTAND")
    projection = service.projection("c")
    told = {who: "\n".join(c.text for c in projection.chronicle(who)) for who in ("p1", "p2", "p3")}
    assert "field combat in Lorraine:" in told["p2"] and " wins " in told["p2"]
    assert "% of" in told["p1"] and "% of" in told["p3"]
    assert not [line for line in told["p2"].splitlines() if "% of" in line or "INF" in line or "CAV" in line]
