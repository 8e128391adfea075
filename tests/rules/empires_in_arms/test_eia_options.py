"""The optional rules of §12 as campaign options: their values checked, the combat options
over the scenario's, and option 12.3.6's proportional shares (EIA-I200, EIA-I244)."""

from __future__ import annotations

import pytest

from pbem.rules.empires_in_arms.combat.casualties import Contingents, shares, take_losses
from pbem.rules.empires_in_arms.combat.charts import synthetic_charts
from pbem.rules.empires_in_arms.combat.forces import Troop
from pbem.rules.empires_in_arms.combat.models import Factors, Unit
from pbem.rules.empires_in_arms.options import combat_options, in_play, read_options


def troop(uid: str, power: str, **factors: int) -> Troop:
    return Troop.of(Unit(id=uid, power=power, factors=Factors(**factors)))


def no_dice(what: str, power: str) -> int:
    pytest.fail(f"no competitive die is rolled where the rounded shares add up ({what}, {power})")


def dice(rolls: dict[str, int]) -> Contingents:
    """Competitive dice by `<what>/<power>`."""
    return Contingents(lambda what, power: rolls[f"{what}/{power}"], {})


def test_an_option_takes_only_its_values():
    assert read_options({"morale_method": 3})[1] == ["option morale_method must be one of scenario, 1, 2, not 3"]
    assert read_options({"depot_limit": True})[1] == []


def test_only_options_off_their_default_are_kept_for_play():
    values, _ = read_options({"morale_method": 2, "depot_limit": "no", "army_orders": "yes"})
    assert in_play(values) == {"morale_method": "2"}


def test_a_campaign_option_overrides_the_scenarios_combat_option_and_scenario_leaves_it():
    scenario = {"guard_commitment": True, "morale_method": 1}
    assert combat_options(scenario, {"morale_method": "2", "guard_commitment": "no"}) == {
        "guard_commitment": False, "morale_method": 2}
    assert combat_options(scenario, {}) == scenario


def test_the_naval_example_shares_ten_losses_five_three_two():
    """12.2.5's example: 36 British, 20 Swedish, 12 Portuguese lose 10: 5.29, 2.94, 1.76."""
    troops = [troop("gb", "GB", infantry=36), troop("sw", "SW", infantry=20), troop("po", "PO", infantry=12)]
    assert [n for _, n in shares(troops, 10, Contingents(no_dice, {}))] == [5, 3, 2]


def test_shares_round_half_up_and_dice_decide_the_odd_losses():
    """12.3.6: "Round '.5' and above up"; an odd loss "by competitive die rolls" (EIA-I244)."""
    unequal = [troop("a", "AU", infantry=10), troop("r", "RU", infantry=20)]
    assert [n for _, n in shares(unequal, 1, Contingents(no_dice, {}))] == [0, 1]  # 0.33 and 0.67
    equal = [troop("a", "AU", infantry=10), troop("r", "RU", infantry=10), troop("p", "PR", infantry=10)]
    # 0.67 each rounds to 1, one too many: the high roller is spared it
    spared = dice({"odd-loss1/AU": 2, "odd-loss1/RU": 5, "odd-loss1/PR": 3})
    assert [n for _, n in shares(equal, 2, spared)] == [1, 0, 1]
    # 0.33 each rounds to 0, one missing: the low roller takes it, the tied low rolling again
    taken = dice({"odd-loss1/AU": 2, "odd-loss1/RU": 2, "odd-loss1/PR": 3,
                  "odd-loss1/1/AU": 4, "odd-loss1/1/RU": 1})
    assert [n for _, n in shares(equal, 1, taken)] == [0, 1, 0]


def test_one_nationality_takes_them_all():
    troops = [troop("a", "AU", infantry=10), troop("b", "AU", infantry=5)]
    assert shares(troops, 4, Contingents(no_dice, {})) == [(troops, 4)]


def test_a_contingent_short_of_factors_passes_its_share_on():
    troops = [troop("a", "AU", infantry=1), troop("r", "RU", infantry=1, militia=0), troop("s", "SW", infantry=8)]
    troops[0].start = troops[1].start = 10  # both had 10 when the battle began
    left = take_losses(troops, 6, ["infantry"], synthetic_charts(), proportional=Contingents(no_dice, {}))
    assert left == 0
    assert [t.total for t in troops] == [0, 0, 4]
