"""The combat inside the core's live step (`engine.StepContext`): standing tactic policies
answer the sealed chit batch, forced dice play the rulebook's example (§7.5.2.15), and with
no policy the step suspends on both chits at once."""

import pytest
from eia_kit import battle, leader, side
from test_eia_worked_example import RUSSIANS, TURKS

from pbem.core.decisions import DecisionKinds
from pbem.core.engine import Policy, Seat, StepContext, Suspended
from pbem.core.orders import parse_conditions
from pbem.rules.empires_in_arms.combat.field import field_combat
from pbem.rules.empires_in_arms.combat.kinds import COMBAT_KINDS

KINDS = DecisionKinds(COMBAT_KINDS)
DICE = {"b1/day1/round1/attacker": [4], "b1/day1/round1/defender": [3], "b1/day1/round2/attacker": [4],
        "b1/day1/round2/defender": [4], "b1/pursuit": [5]}


def step(policies=()):
    return StepContext(campaign="c1", step="1805-03/land-combat", secret=b"s", answers={}, policies=policies,
                       answer_policy=KINDS.answer_policy, forced={k: list(v) for k, v in DICE.items()},
                       scenario=None, seats={"turkey": Seat("turkey", "Turkey"), "russia": Seat("russia", "Russia")})


def fight():
    return battle(side("turkey", "TU", TURKS, [leader("tu-pasha", "TU", tr=3, tmax=4)]),
                  side("russia", "RU", RUSSIANS, [leader("ru-general", "RU", tr=2)]))


def test_standing_tactics_answer_the_chits_and_the_example_plays_out():
    when_defending, _ = parse_conditions("side=defender")
    policies = [Policy("P1", "turkey", "chit", "CHIT assault"),
                Policy("P2", "russia", "chit", "CHIT cordon", conditions=when_defending)]
    result = field_combat(step(policies), fight())
    assert result.winner == "attacker" and result.defender.pursuit_losses == 11
    assert result.days[0].attacker_chit == "assault" and result.days[0].defender_chit == "cordon"


def test_without_orders_the_step_waits_for_both_sealed_chits():
    with pytest.raises(Suspended) as waiting:
        field_combat(step(), fight())
    assert [(r.kind, r.player, r.sealed) for r in waiting.value.requests] == [("chit", "turkey", True),
                                                                             ("chit", "russia", True)]
