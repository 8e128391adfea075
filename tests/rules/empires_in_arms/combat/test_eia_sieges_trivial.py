"""Trivial combats (§7.5.3), sieges and their combats (§7.5.4), relief (§7.5.4.2.3)."""

from eia_kit import Scripted, battle, corps, leader, side

from pbem.rules.empires_in_arms.combat.field import field_combat, trivial_combat
from pbem.rules.empires_in_arms.combat.models import City, Factors, Siege
from pbem.rules.empires_in_arms.combat.sieges import assault_attempt, garrison_attack, relief

QUIET = {f"day1/round{r}/{s}": 1 for r in (1, 2, 3) for s in ("attacker", "defender")}


def french(*units):
    return side("france", "FR", units or (corps("c1", "FR", infantry=20),), (leader("ney"),))


def said(port):
    return "\n".join(port.said)


# -- trivial combat ----------------------------------------------------------------------
def test_cossacks_alone_fight_a_trivial_combat_on_5_2_and_retreat_when_broken():
    """§7.5.3, §7.5.3.2, §7.5.3.4–5: no chits, 5-2 both sides, a normal break and retreat, no PP."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 2})
    cossacks = side("russia", "RU", (corps("k1", "RU", category="cossacks", cossack=5),))
    result = field_combat(port, battle(french(), cossacks))
    assert result.kind == "trivial" and not [r for r in port.asked if r.kind == "chit"]
    assert "round 1: attacker on 5-2," in said(port) and "round 1: defender on 5-2," in said(port)
    assert result.winner == "attacker" and result.defender.surrendered == ()
    assert result.defender.retreat == "by_victor" and result.attacker.political_points == 0


def test_a_broken_depot_garrison_cannot_retreat_and_surrenders():
    """§7.5.3.4 (EIA-I74): "Depot garrisons cannot retreat and losing survivors … must surrender"."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 2})
    depot = side("russia", "RU", (corps("d1", "RU", category="garrison", inf="1.0", infantry=5),))
    result = field_combat(port, battle(french(), depot))
    assert result.kind == "trivial" and result.defender.surrendered == ("d1",)
    assert result.defender.retreat == "none"


def test_trivial_combat_takes_terrain():
    """§7.5.3.2: "subject to modification for terrain"."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 2})
    trivial_combat(port, battle(french(), side("russia", "RU", (corps("k1", "RU", category="cossacks", cossack=5),)),
                                terrain="marsh"))
    assert "round 1: attacker on 4-3," in said(port)


def test_an_agreed_trivial_combat_scores_political_points_and_retreats():
    """§7.5.3.5's exception, §7.5.3.4."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 5}, answers={("day_end", "attacker"): "withdraw"})
    russians = side("russia", "RU", (corps("r1", "RU", inf="2.0", infantry=20),))
    result = field_combat(port, battle(french(), russians, agreed_trivial=True))
    assert result.kind == "trivial" and result.winner == "attacker"
    assert result.defender.retreat == "by_victor" and result.defender.surrendered == ()
    assert (result.attacker.political_points, result.defender.political_points) == (1, -1)


def test_trivial_combat_may_take_militia_whatever_the_morale_loss():
    """§7.5.3.3: "ignore the restrictions of 7.5.2.9.2.1"."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 5}, answers={("day_end", "attacker"): "withdraw"})
    russians = side("russia", "RU", (corps("r1", "RU", inf="2.5", infantry=10), corps("m", "RU", militia=10)))
    result = trivial_combat(port, battle(french(), russians, agreed_trivial=True))
    # 3 in round 1 (morale loss 2.0), 1 more in round 2: still militia, by the owner's loss order
    assert result.defender.losses["m"].militia == 4 and "r1" not in result.defender.losses


# -- sieges ------------------------------------------------------------------------------
def siege(garrison_units=None, fleches=1, capacity=15, power="AU", refuge=True):
    units = garrison_units or (corps("g1", power, infantry=9),)
    return Siege(id="s1", area="Ulm", city=City(id="ulm", fleches=fleches, capacity=capacity),
                 besieger=french(), garrison=side("austria", power, units), refuge=refuge)


def test_assault_attempt_subtracts_fleches_and_adds_one_when_undergarrisoned():
    """§7.5.4.1.1: capacity 15 → +1 at 9 factors or fewer, not at 10."""
    under = assault_attempt(Scripted(dice={"assault-attempt": 4, "sortie": 1}), siege(fleches=2), None)
    full = assault_attempt(Scripted(dice={"assault-attempt": 4, "sortie": 1}),
                           siege((corps("g1", "AU", infantry=10),), fleches=2), None)
    assert (under.die, full.die) == (3, 2)
    assert (under.table, full.table) == ("sortie", "sortie")


def test_a_sortie_on_5_or_6_costs_the_defender_a_factor_else_the_besieger():
    """§7.5.4.1.2.1."""
    hurt = assault_attempt(Scripted(dice={"assault-attempt": 4, "sortie": 5}), siege(fleches=2))
    hit = assault_attempt(Scripted(dice={"assault-attempt": 4, "sortie": 4}), siege(fleches=2))
    assert (hurt.sortie, hurt.sortie_loss) == ("defender", "g1:infantry")
    assert (hit.sortie, hit.sortie_loss) == ("besieger", "c1:infantry")


def test_a_declined_sortie_rolls_nothing():
    """§7.5.4.1.2.1: "If the defender chooses not to roll a die, nothing happens"."""
    port = Scripted(dice={"assault-attempt": 4}, answers={("sortie", "defender"): False})
    assert assault_attempt(port, siege(fleches=2)).sortie == "declined"
    assert [r[0] for r in port.rolled] == ["s1/assault-attempt"]


def test_no_result_is_nothing():
    """§7.5.4.1.2.2."""
    result = assault_attempt(Scripted(dice={"assault-attempt": 1}), siege())
    assert (result.table, result.breach, result.city_captured) == ("nr", "none", False)


def test_a_breach_with_honours_granted_lets_the_garrison_march_out():
    """§7.5.4.1.2.3.1."""
    port = Scripted(dice={"assault-attempt": 6}, answers={("breach", "defender"): "honours",
                                                          ("honours", "attacker"): True})
    result = assault_attempt(port, siege(fleches=0))
    assert (result.table, result.breach, result.city_captured) == ("breach", "honours", False)


def test_a_surrender_gives_up_the_city_without_points():
    """§7.5.4.1.2.3.2."""
    port = Scripted(dice={"assault-attempt": 6}, answers={("breach", "defender"): "surrender"})
    result = assault_attempt(port, siege(fleches=0))
    assert result.breach == "surrender" and result.city_captured and result.besieger_points == 0


def test_honours_refused_leaves_surrender_or_an_assault():
    """§7.5.4.1.2.3.2–3: the second question offers no honours; the default fights."""
    port = Scripted(dice={"assault-attempt": 6, **QUIET}, answers={("breach", "defender"): "honours"})
    result = assault_attempt(port, siege(fleches=0))
    breaches = [r for r in port.asked if r.kind == "breach"]
    assert [r.context["honours"] for r in breaches] == [True, False]
    assert result.breach == "assault" and result.assault is not None


def test_turkish_garrisons_are_not_offered_honours():
    """§7.5.4.1.2.3.1."""
    port = Scripted(dice={"assault-attempt": 6, **QUIET})
    assault_attempt(port, siege(fleches=0, power="TU"))
    assert [r.context["honours"] for r in port.asked if r.kind == "breach"] == [False]


def test_a_won_assault_takes_the_city_its_survivors_surrender_and_scores_a_point():
    """§7.5.4.1.3.1, §7.5.4.1.3.5, §7.5.4.1.4: besieger on 5-1, garrison on 5-2."""
    port = Scripted(dice={"assault-attempt": 6, **QUIET, "day1/round1/attacker": 6})
    result = assault_attempt(port, siege((corps("g1", "AU", inf="1.0", infantry=9),), fleches=0))
    assert "round 1: attacker on 5-1," in said(port) and "round 1: defender on 5-2," in said(port)
    assert result.city_captured and result.assault.defender.surrendered == ("g1",)
    assert (result.besieger_points, result.garrison_points) == (1, 0)
    assert not [r for r in port.asked if r.kind in ("chit", "day_end")]


def test_an_assault_undecided_after_three_rounds_resumes_the_siege_and_the_fortress_scores():
    """§7.5.4.1.3.4, §7.5.4.1.4: one day at most; a point to the defender of a fortress."""
    port = Scripted(dice={"assault-attempt": 6, **QUIET})
    result = assault_attempt(port, siege((corps("g1", "AU", infantry=10),), fleches=0))
    assert result.assault.ended == "undecided" and not result.city_captured
    assert (result.besieger_points, result.garrison_points) == (0, 1)
    assert result.assault.attacker.retreat == result.assault.defender.retreat == "none"


def test_no_point_for_a_city_without_corps_or_fleches():
    """§7.5.4.1.4: none "if the city has no corps and is not a fortress"."""
    port = Scripted(dice={"assault-attempt": 6, **QUIET})
    result = assault_attempt(port, siege((corps("g1", "AU", category="garrison", infantry=10),), fleches=0))
    assert (result.besieger_points, result.garrison_points) == (0, 0)


def test_a_winning_garrison_attack_drives_the_besiegers_off_unpursued():
    """§7.5.4.2.1.1, §7.5.4.2.1.5, §7.5.4.2.2: garrison on 5-1, besiegers on 5-2."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 6})
    garrison = side("austria", "AU", (corps("g1", "AU", infantry=5, cavalry=5),))
    besiegers = side("france", "FR", (corps("c1", "FR", inf="1.0", infantry=10),))
    result = garrison_attack(port, battle(garrison, besiegers))
    assert "round 1: attacker on 5-1," in said(port)
    assert result.winner == "attacker" and result.defender.retreat == "by_victor"
    assert not [r for r in port.rolled if "pursuit" in r[0]] and result.attacker.political_points == 0


def test_a_failed_garrison_attack_leaves_the_siege_as_it_was():
    """§7.5.4.2.1.4."""
    port = Scripted(dice={**QUIET, "day1/round1/defender": 6})
    garrison = side("austria", "AU", (corps("g1", "AU", inf="1.0", infantry=5),))
    result = garrison_attack(port, battle(garrison, side("france", "FR", (corps("c1", "FR", infantry=10),))))
    assert result.winner == "defender" and result.attacker.retreat == "none"


def test_relief_is_one_day_and_a_draw_sends_the_relief_force_back():
    """§7.5.4.2.3: a limited field combat; no break is a draw."""
    port = Scripted(dice=QUIET, answers={("chit", "attacker"): "probe", ("chit", "defender"): "cordon"})
    relievers = side("austria", "AU", (corps("a1", "AU", infantry=10),), (leader("charles", "AU"),))
    result = relief(port, battle(relievers, french()))
    assert result.kind == "limited" and result.ended == "undecided"
    assert result.attacker.retreat == "by_owner" and not [r for r in port.asked if r.kind == "day_end"]


def test_only_the_relief_force_cavalry_pursues():
    """§7.5.4.2.3: a sortieing garrison's cavalry does not pursue."""
    port = Scripted(dice={**QUIET, "day1/round1/attacker": 6},
                    answers={("chit", "attacker"): "assault", ("chit", "defender"): "cordon"})
    relievers = side("austria", "AU", (corps("a1", "AU", infantry=10), corps("g1", "AU", cavalry=4)),
                     (leader("charles", "AU"),))
    besiegers = side("france", "FR", (corps("c1", "FR", inf="1.0", infantry=10),))
    result = relief(port, battle(relievers, besiegers), sortie=("g1",))
    assert result.winner == "attacker" and result.defender.retreat == "by_victor"
    assert result.defender.pursuit_losses == 0 and not [r for r in port.rolled if "pursuit" in r[0]]
    assert result.defender.losses == {"c1": Factors(infantry=result.defender.losses["c1"].infantry)}
