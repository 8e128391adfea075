"""Field combat step by step (§7.5.2), driven through a scripted port with forced dice and the
synthetic charts. Each test cites the rule it checks."""

import pytest
from eia_kit import Scripted, battle, corps, leader, side

from pbem.rules.empires_in_arms.combat.casualties import take_losses, take_pursuit_losses
from pbem.rules.empires_in_arms.combat.charts import synthetic_charts
from pbem.rules.empires_in_arms.combat.field import field_combat
from pbem.rules.empires_in_arms.combat.forces import Force, Troop
from pbem.rules.empires_in_arms.combat.leaders import award, political_points
from pbem.rules.empires_in_arms.combat.models import Factors, Options, ReinforcementGroup

QUIET = {f"day{d}/round{r}/{s}": 1 for d in (1, 2) for r in (1, 2, 3) for s in ("attacker", "defender")}
NEY = leader("ney", "FR", sr=3, tr=2, tmax=4)
BAGRATION = leader("bagration", "RU", sr=3, tr=2, tmax=4)


def french(*units, leaders=(NEY,), **more):
    units = units or (corps("c1", "FR", infantry=10), corps("c2", "FR", infantry=10))
    return side("france", "FR", units, leaders, **more)


def russian(*units, leaders=(BAGRATION,), **more):
    units = units or (corps("r1", "RU", infantry=10), corps("r2", "RU", infantry=10))
    return side("russia", "RU", units, leaders, **more)


def play(attacker=None, defender=None, *, chits=("assault", "cordon"), dice=None, answers=None, draws=(), **more):
    script = {("chit", "attacker"): chits[0], ("chit", "defender"): chits[1], ("day_end", "attacker"): "withdraw"}
    port = Scripted(dice={**QUIET, **(dice or {})}, answers={**script, **(answers or {})}, draws=draws)
    return port, field_combat(port, battle(attacker or french(), defender or russian(), **more))


def said(port):
    return "\n".join(port.said)


# -- chits and outflanks ---------------------------------------------------------------
@pytest.mark.parametrize(("attacker", "offered"), [
    (french(), True),
    (french(leaders=()), False),
    (french(corps("c1", "FR", infantry=10)), False),
    (french(corps("c1", "FR", infantry=10), corps("art", "FR", artillery=5, artillery_corps=True)), False),
])
def test_outflank_needs_two_non_artillery_corps_and_a_leader(attacker, offered):
    """§7.5.2.1."""
    port, _ = play(attacker, chits=("probe", "withdraw"))
    assert ("outflank" in port.batches[0][0].options) is offered


def test_outflank_against_cordon_asks_for_no_split():
    """§7.5.2.2 (EIA-I68): the attacker's outflank against a cordon skips Step 3."""
    port, _ = play(chits=("outflank", "cordon"))
    assert not [r for r in port.asked if r.kind == "flank"]


def test_outflanking_factors_count_double_once_arrived():
    """§7.5.2.7.2's example: a pinning force of 20 and an outflanking force of 10 against a
    counterattack: 20 factors on 2-1, then 16 + 2 × 10 = 36 on 4-4 against 3-1."""
    attacker = french(corps("c1", "FR", infantry=20), corps("c2", "FR", infantry=10))
    defender = russian(corps("r1", "RU", infantry=27))
    port, _ = play(attacker, defender, chits=("outflank", "counterattack"),
                   dice={"day1/round1/defender": 6, "day1/round1/attacker/outflank": 1})
    flank = [r for r in port.asked if r.kind == "flank"][0]
    assert flank.default == ("c2",) and flank.options == ("c1", "c2")
    text = said(port)
    assert "round 1: attacker on 2-1, die 1: 0% of 20" in text
    assert "round 1: defender on 2-3, die 6: 15% of 27 = 4" in text
    assert "round 2: attacker on 4-4, die 1: 5% of 36" in text and "round 2: defender on 3-1" in text


def test_a_pinning_force_eliminated_before_the_outflank_arrives_loses_everything():
    """§7.5.2.10.1.2: the whole side breaks, its leaders are captured, the excess losses fall
    on the outflanking force."""
    attacker = french(corps("c1", "FR", infantry=20), corps("c2", "FR", infantry=1))
    port, result = play(attacker, russian(corps("r1", "RU", infantry=20)), chits=("outflank", "counterattack"),
                        answers={("flank", "attacker"): ("c1",)}, dice={"day1/round1/defender": 6})
    assert result.winner == "defender" and result.attacker.broken
    assert result.attacker.leaders_captured == ("ney",)
    assert result.attacker.losses["c2"].infantry == 1 and result.attacker.losses["c1"].infantry == 2
    assert result.attacker.retreat == "by_victor"


# -- withdrawals -------------------------------------------------------------------------
def test_withdraw_against_probe_succeeds_without_a_die():
    """§7.5.2.5.2.1, §7.5.2.5.1: everything withdraws, the battle is over."""
    port, result = play(chits=("probe", "withdraw"))
    assert result.ended == "withdrawal" and result.defender.withdrew == ("r1", "r2")
    assert result.defender.retreat == "by_owner" and not port.rolled


def test_a_failed_withdrawal_fights_the_day():
    """§7.5.2.5.2.2: the commander's SR 3 against a 6."""
    _, result = play(dice={"day1/withdraw": 6}, chits=("assault", "withdraw"))
    assert result.defender.withdrew == () and result.days[0].rounds == 3


def test_without_a_leader_each_corps_withdraws_on_its_own_rating():
    """§7.5.2.5.2.2: no commander, each corps dices against its intrinsic SR."""
    defender = russian(corps("r1", "RU", sr=4, infantry=10), corps("r2", "RU", sr=2, infantry=10), leaders=())
    _, result = play(defender=defender, chits=("assault", "withdraw"),
                     dice={"day1/withdraw/r1": 3, "day1/withdraw/r2": 3})
    assert result.defender.withdrew == ("r1",)


def test_the_chart_note_lowers_the_withdrawal_rating():
    """§7.5.2.5.2.2: "modified by notes on the OPC" (synthetic escalated assault: −1)."""
    _, result = play(chits=("escalated-assault", "withdraw"), dice={"day1/withdraw": 3})
    assert result.defender.withdrew == ()


def test_cossacks_with_withdrawing_corps_roll_4_or_less_against_cavalry_corps():
    """§7.5.2.5.2.2 with §10.1.2.2.3."""
    hussars = corps("c1", "FR", cavalry=10, cavalry_symbol=True)
    defender = russian(corps("r1", "RU", infantry=10), corps("k", "RU", category="cossacks", cossack=3))
    _, result = play(french(hussars, corps("c2", "FR", infantry=5)), defender, chits=("assault", "withdraw"),
                     dice={"day1/withdraw": 2, "day1/withdraw/irregulars": 5, "pursuit": 1})
    assert result.defender.withdrew == ("r1",)


def test_withdraw_side_leaves_when_the_outflank_does_not_arrive_after_round_one():
    """§7.5.2.12.2."""
    port, result = play(chits=("outflank", "withdraw"), dice={"day1/withdraw": 6, "day1/round1/attacker/outflank": 6})
    assert result.ended == "withdrawal" and set(result.defender.withdrew) == {"r1", "r2"}
    assert result.days[0].rounds == 1


# -- tables ------------------------------------------------------------------------------
@pytest.mark.parametrize(("terrain", "chits", "tables"), [
    ("clear", ("assault", "cordon"), ("4-1", "2-1")),
    ("forest", ("assault", "cordon"), ("3-1", "1-1")),
    ("mountain", ("assault", "cordon"), ("3-1", "2-1")),
    ("desert", ("assault", "cordon"), ("4-2", "2-2")),
    ("marsh", ("assault", "cordon"), ("3-2", "1-2")),
    ("forest", ("probe", "cordon"), ("1-1", "1-1")),
])
def test_terrain_shifts_the_tables_never_beyond_1_to_5(terrain, chits, tables):
    """§7.5.2.7.3."""
    port, _ = play(chits=chits, terrain=terrain)
    assert f"round 1: attacker on {tables[0]}," in said(port) and f"round 1: defender on {tables[1]}," in said(port)


def test_river_crossing_uses_the_river_tables_on_day_one_only():
    """§7.5.2.7.1."""
    port, result = play(river=True, answers={("day_end", "attacker"): ["fight", "withdraw"]})
    text = said(port)
    assert "day 1 round 1: attacker on 3-1," in text and "day 2 round 1: attacker on 4-1," in text
    assert len(result.days) == 2


# -- dice modifiers ----------------------------------------------------------------------
def test_commander_chart_gives_the_better_tactician_plus_one():
    """§7.5.2.9.1: TR 4 against 3 → attacker +1."""
    port, _ = play(french(leaders=(leader("davout", tr=4, tmax=9),)),
                   russian(leaders=(leader("b", "RU", tr=3, tmax=9),)))
    assert "round 1: attacker on 4-1, die 2:" in said(port) and "round 1: defender on 2-1, die 1:" in said(port)


def test_the_net_modifier_is_never_above_plus_one():
    """§7.5.2.9.1, option 12.3.3.1: a better commander and cavalry superiority give +1 only."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10),
                      leaders=(leader("m", tr=4, tmax=9),))
    port, _ = play(attacker, russian(leaders=(leader("b", "RU", tr=3, tmax=9),)),
                   options=Options(cavalry_superiority=True))
    assert "round 1: attacker on 4-1, die 2:" in said(port)


def test_cavalry_superiority_gives_plus_one():
    """Option 12.3.3.1: 10 cavalry against none."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10))
    port, _ = play(attacker, options=Options(cavalry_superiority=True))
    assert "round 1: attacker on 4-1, die 2:" in said(port)


def test_no_cavalry_superiority_when_everyone_is_cavalry():
    """Option 12.3.3.1: "This rule does not apply if all factors on both sides are cavalry"."""
    port, _ = play(french(corps("c1", "FR", cavalry=10)), russian(corps("r1", "RU", cavalry=2)),
                   options=Options(cavalry_superiority=True))
    assert "round 1: attacker on 4-1, die 1:" in said(port)


# -- the end of a combat ------------------------------------------------------------------
def test_both_break_with_survivors_nobody_wins_and_the_attacker_retreats():
    """§7.5.2.10.4.2."""
    port, result = play(french(corps("c1", "FR", inf="1.0", infantry=20)),
                        russian(corps("r1", "RU", inf="1.0", infantry=20)),
                        dice={"day1/round1/attacker": 4, "day1/round1/defender": 5})
    assert result.ended == "both_broken" and result.winner is None
    assert (result.attacker.retreat, result.defender.retreat) == ("by_owner", "none")
    assert result.attacker.political_points == result.defender.political_points == 0
    assert not [r for r in port.rolled if r[0].endswith("pursuit")]


def test_a_broken_side_that_eliminates_its_enemy_wins_and_stays():
    """§7.5.2.10.4.1."""
    _, result = play(french(corps("c1", "FR", inf="1.0", infantry=20)), russian(corps("r1", "RU", infantry=1)),
                     dice={"day1/round1/attacker": 4, "day1/round1/defender": 6})
    assert result.attacker.broken and result.defender.eliminated
    assert result.winner == "attacker" and result.attacker.retreat == "none"
    assert result.defender.leaders_captured == ("bagration",)
    assert (result.attacker.political_points, result.defender.political_points) == (1, -1)


def test_a_second_day_has_new_chits_and_half_a_point_less_morale():
    """§7.5.2.13.2, §7.5.2.13.2.1."""
    port, result = play(answers={("day_end", "attacker"): ["fight", "withdraw"]})
    chit_batches = [b for b in port.batches if b[0].kind == "chit"]
    assert [b[0].context["day"] for b in chit_batches] == [1, 2]
    assert all(r.sealed for b in chit_batches for r in b)
    assert result.defender.final_morale == "2.5" and len(result.days) == 2


def test_day_end_choices_are_one_sealed_batch_and_default_to_fight():
    """§7.5.2.13 (EIA-I63)."""
    port, _ = play(answers={("day_end", "attacker"): ["fight", "withdraw"]})
    batch = [b for b in port.batches if b[0].kind == "day_end"][0]
    assert [r.default for r in batch] == ["fight", "fight"] and all(r.sealed for r in batch)


def test_a_side_leaving_at_day_end_is_pursued_at_class_one():
    """§7.5.2.13.1 and §7.5.2.10.2.1's exception: class 1 (die 6: 30% of 10 cavalry = 3)."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10))
    port, result = play(attacker, chits=("probe", "cordon"), dice={"pursuit": 6},
                        answers={("day_end", "attacker"): "fight", ("day_end", "defender"): "withdraw"})
    assert "class 1, die 6, 30% of 10 cavalry = 3 losses" in said(port)
    assert result.ended == "day_end" and result.winner is None
    assert (result.defender.retreat, result.attacker.retreat) == ("by_owner", "none")
    assert result.defender.pursuit_losses == 3
    assert sum(f.infantry for f in result.defender.losses.values()) == 9  # no losses in the rounds, 3 a point


def test_both_leaving_at_day_end_means_no_pursuit():
    """§7.5.2.13.1."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10))
    port, result = play(attacker, answers={("day_end", "defender"): "withdraw"})
    assert result.attacker.retreat == result.defender.retreat == "by_owner"
    assert not [r for r in port.rolled if r[0].endswith("pursuit")]


def test_marsh_shifts_pursuit_below_class_one_and_there_is_none():
    """§7.5.2.10.2.2.3–4."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10))
    port, result = play(attacker, terrain="marsh",
                        answers={("day_end", "attacker"): "fight", ("day_end", "defender"): "withdraw"})
    assert "no pursuit (class 1 shifted to -1)" in said(port) and result.defender.pursuit_losses == 0


def test_a_cavalry_leader_adds_one_to_the_pursuit_die():
    """§7.5.2.10.2.2.1."""
    murat = leader("murat", "FR", tr=2, tmax=9, cavalry_symbol=True, seniority="C")
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10), leaders=(NEY, murat))
    port, _ = play(attacker, answers={("day_end", "attacker"): "fight", ("day_end", "defender"): "withdraw"},
                   dice={"pursuit": 5})
    assert "class 1, die 6," in said(port)


def test_pursuit_points_cost_one_cavalry_three_infantry_or_six_militia():
    """§7.5.2.10.2.3 (EIA-I67: a last point takes what is left)."""
    charts = synthetic_charts()
    troops = [Troop.of(corps("a", cavalry=1, infantry=4, militia=7))]
    take_pursuit_losses(troops, 4, ("cavalry", "infantry", "militia"), charts)
    assert troops[0].lost == {**dict.fromkeys(troops[0].lost, 0), "cavalry": 1, "infantry": 4, "militia": 6}


# -- losses ------------------------------------------------------------------------------
def test_militia_are_spared_after_2_0_morale_loss_where_possible():
    """§7.5.2.9.2.1: "where possible": with only militia left they are taken."""
    charts = synthetic_charts()
    mixed = [Troop.of(corps("a", infantry=2, militia=5))]
    assert take_losses(mixed, 3, ("militia", "infantry"), charts, militia=False) == 0
    assert mixed[0].lost["infantry"] == 2 and mixed[0].lost["militia"] == 1


def test_one_loss_is_cavalry_in_the_round_a_side_breaks():
    """§7.5.2.9.2.2."""
    charts = synthetic_charts()
    troops = [Troop.of(corps("a", infantry=5, cavalry=1, militia=5))]
    take_losses(troops, 2, ("militia", "infantry", "cavalry"), charts, cavalry_first=True)
    assert troops[0].lost["cavalry"] == 1 and troops[0].lost["militia"] == 1


def test_political_points_half_a_corps_big_corps_twice_at_most_three_and_napoleon():
    """§7.5.2.10.1.3 and .1–.2 (EIA-I70: NAPOLEON's points after the cap)."""
    loser = Force.of("defender", russian(corps("r1", "RU", infantry=21), corps("r2", "RU", infantry=5)))
    loser.used = {"r1", "r2"}
    assert political_points(loser) == 2
    many = Force.of("defender", russian(*(corps(f"r{n}", "RU", infantry=3) for n in range(7))))
    many.used = {t.id for t in many.troops}
    victor = Force.of("attacker", french())
    victor.commander = leader("napoleon", tr=5, tmax=6, napoleon=True)
    assert political_points(many) == 3 and award(victor, many) == (4, 3)
    many.commander, victor.commander = victor.commander, None
    assert award(victor, many) == (3, 5)


# -- reinforcements ----------------------------------------------------------------------
def _with_group(hindered=False):
    group = ReinforcementGroup(id="g1", units=(corps("c9", "FR", infantry=6),),
                               leaders=(leader("lannes", sr=3, tmax=4, seniority="B"),), hindered=hindered)
    return french(reinforcements=(group,))


def test_a_group_with_a_leader_joins_on_his_strategic_rating():
    """§7.5.2.11.2, §7.5.2.11.4–5, §10.6.1.1.3: it joins, and its senior leader commands."""
    port, result = play(_with_group(), answers={("reinforce", "attacker"): ("g1",)},
                        dice={"day1/reinforce/g1/round1": 3})
    assert result.attacker.joined == ("c9",)
    assert "round 2: attacker on 4-3, die 1: 5% of 26" in said(port)


def test_rough_terrain_or_a_river_costs_the_reinforcement_one():
    """§7.5.2.11.3."""
    _, result = play(_with_group(hindered=True), answers={("reinforce", "attacker"): ("g1",)},
                     dice={"day1/reinforce/g1/round1": 3, "day1/reinforce/g1/round2": 3})
    assert result.attacker.joined == ()


def test_reinforcements_do_not_try_unless_ordered():
    """§7.5.2.11 (EIA-I62): the default is REINFORCE NONE."""
    port, result = play(_with_group())
    assert result.attacker.joined == () and not [r for r in port.rolled if "reinforce" in r[0]]
    assert [r.default for r in port.asked if r.kind == "reinforce"][0] == ()


# -- options -----------------------------------------------------------------------------
def _guards():
    return french(corps("c1", "FR", infantry=10), corps("g", "FR", guard=1))


def test_a_guard_lost_whole_on_commitment_breaks_its_side_without_fighting():
    """Option 12.3.4.5."""
    port, result = play(_guards(), options=Options(guard_commitment=True), answers={("guard", "attacker"): 1},
                        dice={"day1/round1/attacker/guard": 1})
    assert result.winner == "defender" and result.attacker.broken
    assert "round 1: attacker on" not in said(port) and "round 1: defender on" in said(port)


def test_a_committed_guard_that_does_not_break_the_enemy_breaks_its_own_side():
    """Option 12.3.4.2 and 12.3.4.6: the morale level is raised, and the enemy must break."""
    port, result = play(_guards(), options=Options(guard_commitment=True), answers={("guard", "attacker"): 1},
                        dice={"day1/round1/attacker/guard": 5})
    assert "round 1: attacker on 4-2," in said(port)
    assert result.winner == "defender" and result.attacker.broken and not result.defender.broken


def test_artillery_bombards_first_on_5_5_but_not_in_marsh():
    """Option 12.3.5.1, 12.3.5.4."""
    guns = corps("art", "FR", artillery=10, artillery_corps=True)
    attacker = french(corps("c1", "FR", infantry=10), guns)
    port, _ = play(attacker, options=Options(artillery=True),
                   dice={f"day1/round{n}/attacker/bombardment": 1 for n in (1, 2, 3)})
    assert "attacker's artillery bombards: 1 losses" in said(port)
    port, _ = play(attacker, options=Options(artillery=True), terrain="marsh")
    assert not [r for r in port.rolled if "bombardment" in r[0]]


def test_a_leader_casualty_on_twelve():
    """Option 12.7: 2d6 = 12, a leader drawn at random, a 6 kills him."""
    port, result = play(options=Options(leader_casualties=True), draws=[0],
                        dice={"attacker/leader-casualty/1": 6, "attacker/leader-casualty/2": 6,
                              "attacker/leader-casualty/fate": 6, "defender/leader-casualty/1": 3,
                              "defender/leader-casualty/2": 4})
    assert [c.model_dump() for c in result.attacker.leader_casualties] == [{"leader": "ney", "killed": True,
                                                                            "months": 0}]
    assert result.defender.leader_casualties == ()


def test_losses_are_reported_per_unit_and_kind():
    _, result = play(french(corps("c1", "FR", infantry=20)), russian(corps("r1", "RU", infantry=20)))
    assert result.defender.losses == {"r1": Factors(infantry=2)}  # 5% of 20 on 4-1 and 4-3, 0% on 3-2


def test_both_guards_committed_and_neither_side_broken_both_break():
    """Option 12.3.4.1 and 12.3.4.6: written together; each side had to break the other."""
    defender = russian(corps("r1", "RU", infantry=10), corps("rg", "RU", guard=2))
    port, result = play(_guards(), defender, options=Options(guard_commitment=True),
                        answers={("guard", "attacker"): 1, ("guard", "defender"): 2},
                        dice={"day1/round1/attacker/guard": 5, "day1/round1/defender/guard": 6})
    batch = [b for b in port.batches if b[0].kind == "guard"][0]
    assert [r.context["max_shift"] for r in batch] == [1, 2] and all(r.sealed for r in batch)
    assert result.attacker.broken and result.defender.broken and result.ended == "both_broken"


def test_a_chart_note_changes_the_days_final_morale():
    """§7.5.2.6.2: "any modifiers indicated on the OPERATIONAL POSSIBILITIES CHART" (synthetic
    escalated assault against counterattack: −0.5 to both)."""
    _, result = play(chits=("escalated-assault", "counterattack"), dice={f"day1/round{n}/{s}": 1 for n in (1, 2, 3)
                                                                         for s in ("attacker", "defender")})
    assert result.attacker.final_morale == result.defender.final_morale == "2.5"


def test_method_two_is_used_when_chosen():
    """§7.5.2.6.1: the method is chosen before the game (France's basic morale 4.0)."""
    _, result = play(options=Options(morale_method=2))
    assert (result.attacker.final_morale, result.defender.final_morale) == ("4.0", "3.5")


def test_a_battle_of_two_days_pursues_on_the_3_plus_column():
    """§7.5.2.10.2.1: "Combats going into two or more days always use the 3+ rounds column"."""
    attacker = french(corps("c1", "FR", infantry=10), corps("c2", "FR", cavalry=10))
    port, result = play(attacker, russian(corps("r1", "RU", inf="1.0", infantry=20)), chits=("probe", "cordon"),
                        answers={("day_end", "attacker"): "fight"}, dice={"day2/round1/attacker": 5, "pursuit": 1})
    assert result.winner == "attacker" and len(result.days) == 2 and result.days[1].rounds == 1
    assert "pursues: class 4," in said(port)
