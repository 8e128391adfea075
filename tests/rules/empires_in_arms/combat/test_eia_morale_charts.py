"""Morale levels (§7.5.2.6), the tactical rating (§10.6.1.2) and the charts as data."""

import pytest
from eia_kit import battle, corps, leader, side
from pydantic import ValidationError

from pbem.rules.empires_in_arms.combat.charts import SYNTHETIC, ChartError, charts_from, load_charts, synthetic_charts
from pbem.rules.empires_in_arms.combat.commander import Command, cavalry_superior, tactical_rating
from pbem.rules.empires_in_arms.combat.forces import Troop
from pbem.rules.empires_in_arms.combat.models import Options, Unit
from pbem.rules.empires_in_arms.combat.morale import base_morale, final_morale, method_one, method_two

CHARTS = synthetic_charts()


def troops(*units):
    return [Troop.of(u) for u in units]


def test_method_one_rounds_the_weighted_mean_up_to_3_8():
    """§7.5.2.6.1.1: (21×3.0 + 20×4.0 + 10×5.0)/51 = 3.784 → 3.8."""
    force = troops(corps("a", infantry=21), corps("b", inf="4.0", infantry=20), corps("c", guard=10))
    assert method_one(force, CHARTS) == 38


def test_method_one_counts_militia_2_irregulars_1_and_artillery_at_infantry_morale():
    """§7.5.2.6.1.1: militia 2.0, cossacks 1.0, artillery as regular infantry (here 4.0)."""
    force = troops(corps("a", inf="4.0", artillery=2, militia=2), corps("k", category="cossacks", cossack=2))
    assert method_one(force, CHARTS) == -(-(2 * 40 + 2 * 20 + 2 * 10) // 6) == 24


def test_method_two_austria_3_guard_28_infantry_6_militia_is_3_2():
    """§7.5.2.6.1.2's example: 3.5 + 0.3 − 0.6 = 3.2."""
    force = troops(corps("g", "AU", guard=3), corps("i", "AU", infantry=28), corps("m", "AU", militia=6))
    assert method_two(force, CHARTS) == 32


def test_method_two_holds_the_net_to_plus_half_and_minus_one():
    """§7.5.2.6.1.2: at most +0.5, at least −1.0."""
    assert method_two(troops(corps("g", "FR", guard=12)), CHARTS) == 45
    assert method_two(troops(corps("m", "RU", militia=20)), CHARTS) == 25


def test_method_two_counts_feudal_and_low_morale_minor_factors_down():
    """§7.5.2.6.1.2: factors of morale 2.0 or less count −0.1 each."""
    assert method_two(troops(corps("f", "TU", inf="2.0", infantry=4), corps("j", "TU", infantry=10)), CHARTS) == 26


def test_method_two_primary_component_tie_takes_the_lowest_basic_morale():
    """§7.5.2.6.1.2: equal corps → the power with the lowest basic morale (GB 4.5 v SP 3.0)."""
    force = troops(corps("gb", "GB", infantry=5), corps("sp", "SP", infantry=5))
    assert method_two(force, CHARTS) == 30
    assert base_morale(force, 2, CHARTS) == 30


def test_method_two_counts_a_minor_free_state_corps_with_its_major_power():
    """§7.5.2.6.1.2: the primary component includes controlled minor free state corps."""
    minors = [Unit(id=f"bav{n}", power="Bavaria", minor_of="FR", factors={"infantry": 5}) for n in (1, 2)]
    austrians = (corps("au1", "AU", infantry=1), corps("au2", "AU", infantry=1))
    force = troops(*minors, corps("fr", "FR", infantry=5), *austrians)
    assert method_two(force, CHARTS) == 40


def test_final_morale_drops_half_a_point_a_day():
    """§7.5.2.6.2: 3.2 on day 1, 2.7 on day 2; the chart's notes add on."""
    assert (final_morale(32, 1), final_morale(32, 2), final_morale(32, 1, -5)) == (32, 27, 27)


def test_tactical_maximum_napoleon_5_with_7_and_13_corps():
    """§10.6.1.2.1: TR 5, maximum 6: 4 with 7–12 corps, 3 with 13 or more; option 12.3.7.2 goes on."""
    napoleon = Command(5, 5, 6, leader("napoleon", tr=5, tmax=6))
    plain, further = Options(), Options(further_reductions=True)
    assert [tactical_rating(napoleon, n, plain) for n in (6, 7, 12, 13, 30)] == [5, 4, 4, 3, 3]
    assert [tactical_rating(napoleon, n, further) for n in (13, 19, 30, 31)] == [3, 2, 1, 0]


def test_cavalry_superiority_needs_twice_the_enemy_and_not_all_cavalry():
    """Option 12.3.3.1."""
    assert cavalry_superior(8, 1, False) and cavalry_superior(2, 1, False)
    assert not cavalry_superior(3, 2, False)
    assert not cavalry_superior(8, 1, True)
    assert not cavalry_superior(0, 0, False)


@pytest.mark.parametrize(("percent", "factors", "lost"), [(10, 50, 5), (5, 37, 2), (15, 48, 7), (5, 32, 2),
                                                          (20, 31, 6), (15, 54, 8), (60, 18, 11)])
def test_casualty_percentage_table_keeps_the_examples(percent, factors, lost):
    """Research §4.13: the rulebook's examples, above 20 factors in chunks of 20 (§6.3.3.4)."""
    assert CHARTS.casualty(percent, factors) == lost


def test_the_charts_keep_the_fragments_of_the_examples():
    """Research §4.13: OPC, CRC, pursuit and commander fragments."""
    assert CHARTS.synthetic
    echelon = CHARTS.operation("echelon", "counterattack")
    assert (echelon.a, echelon.d) == (("1-2", "3-4", "2-4"), ("3-1", "4-1", "2-1"))
    assert [CHARTS.resolve(t, d) for t, d in (("4-1", 4), ("2-1", 3), ("4-3", 4), ("2-1", 4))] == [
        (10, 10), (5, 2), (15, 20), (5, 5)]
    assert (CHARTS.class_of_pursuit(26, 2), CHARTS.class_of_pursuit(7, 2), CHARTS.pursuit_percent(5, 5)) == (3, 5, 60)
    assert (CHARTS.commander_modifiers(4, 3), CHARTS.commander_modifiers(2, 2)) == ((1, 0), (0, 0))


def test_a_modified_die_beyond_the_table_reads_its_last_row():
    """EIA-I54."""
    assert CHARTS.resolve("3-3", 99) == CHARTS.resolve("3-3", 7)
    assert CHARTS.resolve("3-3", -5) == CHARTS.resolve("3-3", 0)


def test_a_chart_missing_an_opc_cell_is_refused_with_its_name():
    data = CHARTS.model_dump(mode="json")
    data["opc"] = [op for op in data["opc"] if (op["attacker"], op["defender"]) != ("probe", "cordon")]
    with pytest.raises(ChartError, match="lacks probe/cordon"):
        charts_from(data)


def test_a_float_morale_in_a_chart_is_refused():
    data = CHARTS.model_dump(mode="json")
    data["morale"]["basic"]["FR"] = 4.0
    with pytest.raises(ChartError, match="decimal string"):
        charts_from(data)


def test_an_unreadable_chart_file_gets_a_clear_answer(tmp_path):
    bad = tmp_path / "charts.toml"
    bad.write_text("synthetic = [", encoding="utf-8")
    with pytest.raises(ChartError, match="cannot read it"):
        load_charts(bad)
    assert load_charts(SYNTHETIC) == CHARTS


def test_a_chart_percentage_without_a_casualty_row_is_refused():
    data = CHARTS.model_dump(mode="json")
    data["crc"]["3-3"]["loss"] = [7] * len(data["crc"]["3-3"]["loss"])
    with pytest.raises(ChartError, match="no row for 7%"):
        charts_from(data)


def test_a_battle_with_a_unit_twice_or_a_side_without_units_is_refused():
    twice = side("p", "FR", [corps("c1")])
    with pytest.raises(ValidationError, match="unit c1 appears more than once"):
        battle(twice, side("q", "RU", [corps("c1", "RU")]))
    with pytest.raises(ValidationError, match="at least 1 item"):
        side("q", "RU", [])


def test_a_commander_chart_that_is_not_square_is_refused():
    data = CHARTS.model_dump(mode="json")
    data["commander"]["grid"] = data["commander"]["grid"][:-1]
    with pytest.raises(ChartError, match="commander: .*7 rows of 7 cells"):
        charts_from(data)
