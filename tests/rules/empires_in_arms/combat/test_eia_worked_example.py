"""The rulebook's worked example of a field combat (§7.5.2.15), with research §4.13's
chart fragments: Turkey (7 corps: 18 feudal infantry, 18 feudal cavalry, 14 Janissary
infantry) attacks Russia (4 corps: 6 guard, 17 infantry, 13 militia, 1 cavalry)."""

from eia_kit import Scripted, battle, corps, leader, side

from pbem.rules.empires_in_arms.combat.field import field_combat
from pbem.rules.empires_in_arms.combat.models import Factors

TURKS = [corps("tu-feudal-inf-1", "TU", inf="2.0", infantry=9), corps("tu-feudal-inf-2", "TU", inf="2.0", infantry=9),
         corps("tu-feudal-cav-1", "TU", cav="2.0", cavalry=6), corps("tu-feudal-cav-2", "TU", cav="2.0", cavalry=6),
         corps("tu-feudal-cav-3", "TU", cav="2.0", cavalry=6), corps("tu-janissary-1", "TU", infantry=7),
         corps("tu-janissary-2", "TU", infantry=7)]
RUSSIANS = [corps("ru-guard", "RU", guard=6), corps("ru-1", "RU", cav="4.0", infantry=9, cavalry=1),
            corps("ru-2", "RU", infantry=8), corps("ru-militia", "RU", militia=13)]


def example():
    # The pasha rates 3 but commands 7 corps against a maximum of 4: "a modified tactical rating of 2".
    port = Scripted(dice={"day1/round1/attacker": 4, "day1/round1/defender": 3, "day1/round2/attacker": 4,
                          "day1/round2/defender": 4, "pursuit": 5},
                    answers={("chit", "attacker"): "assault", ("chit", "defender"): "cordon"})
    fight = battle(side("turkey", "TU", TURKS, [leader("tu-pasha", "TU", tr=3, tmax=4)]),
                   side("russia", "RU", RUSSIANS, [leader("ru-general", "RU", tr=2)]))
    return port, field_combat(port, fight)


def test_the_chits_are_one_sealed_batch_of_both_sides():
    port, _ = example()
    chits = port.batches[0]
    assert [(r.kind, r.context["side"], r.sealed) for r in chits] == [("chit", "attacker", True),
                                                                      ("chit", "defender", True)]


def test_method_one_morale_is_2_3_for_turkey_and_3_0_for_russia():
    _, result = example()
    assert (result.attacker.final_morale, result.defender.final_morale) == ("2.3", "3.0")


def test_russia_breaks_in_round_two_after_losing_5_then_7():
    _, result = example()
    assert result.winner == "attacker" and result.ended == "broken"
    assert result.days[0].rounds == 2
    assert result.defender.broken and result.defender.morale_loss == "3.0"


def test_the_turks_lose_two_feudal_infantry_twice_and_0_7_morale():
    _, result = example()
    assert result.attacker.morale_loss == "0.7"
    assert {unit for unit in result.attacker.losses} == {"tu-feudal-inf-1", "tu-feudal-inf-2"}
    assert sum(f.infantry for f in result.attacker.losses.values()) == 4


def test_russian_losses_militia_first_then_cavalry_and_infantry_on_breaking():
    port, _ = example()
    said = "\n".join(port.said)
    assert "10% of 50 = 5 losses" in said and "15% of 48 = 7 losses" in said
    assert "5% of 37 = 2 losses" in said and "5% of 32 = 2 losses" in said


def test_pursuit_class_5_die_5_takes_11_points_and_wipes_out_russia():
    port, result = example()
    assert "class 5, die 5, 60% of 18 cavalry = 11 losses" in "\n".join(port.said)
    assert result.defender.pursuit_losses == 11 and result.defender.eliminated
    assert result.defender.leaders_captured == ("ru-general",)


def test_turkey_gains_two_political_points_for_four_corps():
    _, result = example()
    assert (result.attacker.political_points, result.defender.political_points) == (2, -2)


def test_before_pursuit_russia_keeps_6_guard_11_infantry_8_militia(monkeypatch):
    """§7.5.2.9.2.1–2: militia while the morale loss is under 2.0, a cavalry factor on breaking."""
    monkeypatch.setattr("pbem.rules.empires_in_arms.combat.battle.pursue", lambda *args, **kwargs: 0)
    _, result = example()
    lost = result.defender.losses
    assert lost["ru-militia"] == Factors(militia=5)
    assert sum(f.infantry for f in lost.values()) == 6 and lost["ru-1"].cavalry == 1
    assert "ru-guard" not in lost


def test_the_battle_is_told_to_its_two_sides_only():
    """§7.5.2.6.3: forces are revealed to the combatants; strengths stay hidden from others."""
    port, _ = example()
    assert port.heard_by == {("turkey", "russia")}
