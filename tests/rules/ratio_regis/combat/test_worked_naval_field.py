"""The playbook's worked examples of naval and field combat, §13.1.6, §28.6, §30.4."""

from __future__ import annotations

from dataclasses import replace

from combat_kit import leader, run, side, squadrons, troops

from pbem.rules.ratio_regis.combat import Combat
from pbem.rules.ratio_regis.combat.support import Supporter, contest


# -- §13.1.6: the table's example -------------------------------------------------------
def table_example() -> Combat:
    """Q4 and Q2 against Q3 and Q1 in a clear field battle; battlefield 2 by choice."""
    return Combat(id="c1", type="field", area="x", base_battlefield=2,
                  attacker=side("A", troops("A4:4", "A2:2")), defender=side("B", troops("B3:3", "B1:1")))


def test_13_1_6_worked_example():
    """1 (Q4) -> 4, 6 (Q2); 4 (Q3), 3 (Q1) -> 2: A 3 BP 2 C, B 1 BP 1 C; A wins. A's 2 C
    eliminate a B unit; B's odd C is 1 D against A; the BP difference is 2 D against B."""
    r = run(table_example(), {"combat": [1, 6, 4, 3]}).result
    assert [d.value for d in r.dice] == [4, 6, 4, 2]
    assert (r.attacker.battle_points, r.attacker.casualties) == (3, 2)
    assert (r.defender.battle_points, r.defender.casualties) == (1, 1)
    assert r.winner == "attacker"
    assert r.defender.disband_results == 2 and r.attacker.disband_results == 1
    # Field battle: each D one troop. B: 1 eliminated (the Q1, lowest first), 1 dispersed.
    assert r.defender.eliminated == ("B1",) and r.defender.dispersed == ("B3",)
    # A wins and keeps its last unit: of its two, at most one goes (the D).
    assert r.attacker.dispersed == ("A2",) and r.attacker.eliminated == ()
    assert r.morale_to == "attacker" and r.retreat == "defender" and r.control_to == "attacker"


# -- §28.6: naval combat with a conscript --------------------------------------------------
def naval_28_6() -> Combat:
    """England (P3, active) S3+S2 against France S3 with a leader; Rouen is a commercial
    port of the EA, so France may rig merchantmen (a conscript)."""
    return Combat(id="n1", type="naval", area="EA", commercial_port=True,
                  attacker=side("ENG", squadrons("E3:3", "E2:2")),
                  defender=side("FRA", squadrons("F3:3"), [leader(lid="FL")]))


def test_28_6_naval_combat_with_conscript():
    run_ = run(naval_28_6(), {"combat": [2, 4, 4, 3]}, {("commit", "FRA"): "COMMIT F3 CONSCRIPT"})
    r = run_.result
    assert [(d.die, d.value) for d in r.dice] == [("E3", 3), ("E2", 4), ("F3", 4), ("CONSCRIPT", 2)]
    assert r.winner == "attacker" and (r.attacker.battle_points, r.defender.battle_points) == (2, 1)
    assert r.defender.conscript and r.unrest == (("FRA", 1),)
    # 1 D for the difference + 1 for the odd casualty: the French squadron is damaged.
    assert r.defender.disband_results == 2 and r.defender.damaged == ("F3",)
    assert r.attacker.disband_results == 1 and r.attacker.damaged == ()
    assert r.morale_to == "attacker"  # France threw two dice (the conscript's counts)
    assert r.defender.leaders_eliminated == () and r.defender.eliminated == ()


def test_28_6_variant_the_winner_keeps_its_last_unit():
    """Rolls 4-4 and 5-5(->4): France wins by one; England's 2 C would sink the French
    fleet but the winner keeps its last unit; France's 2 D damage an English squadron
    and the whole English fleet returns to port."""
    r = run(naval_28_6(), {"combat": [4, 4, 5, 5]}, {("commit", "FRA"): "COMMIT F3 CONSCRIPT"}).result
    assert r.winner == "defender" and (r.attacker.battle_points, r.defender.battle_points) == (2, 3)
    assert r.defender.eliminated == () and r.defender.damaged == ()
    assert len(r.attacker.damaged) == 1 and r.attacker.damaged == ("E2",)
    assert r.attacker.returns_to_base == ("E3",)
    assert r.morale_to == "defender"


# -- §30.4: the naval prelude and the field battle at Rouen ---------------------------------------
def rouen_field_30_4() -> Combat:
    """France (P2, active) I4, 2×I3, I2 with an ordinary leader attacks the Huguenots'
    2×I3, 3×I2 with an Organizer in clear Rouen, a coastal area."""
    return Combat(id="rouen", type="field", area="rouen",
                  attacker=side("FRA", troops("F4:4", "F3a:3", "F3b:3", "F2:2"), [leader(lid="FL")]),
                  defender=side("HUG", troops("H3a:3", "H3b:3", "H2a:2", "H2b:2", "H2c:2"),
                                [leader("organizer", "HL")]))


def rouen_support() -> tuple[Supporter, ...]:
    return (Supporter("defender", side("ENG", squadrons("E3:3", "E2:2"), [leader(lid="EL")])),
            Supporter("attacker", side("FRA", squadrons("F3:3"), [leader(lid="FNL")])))


def test_30_4_naval_prelude():
    """Battlefield 3. England adds a conscript, France declines. England 2, 6, 3 -> 3, 6, 2
    (3 BP, 1 C); France 4 (1 BP, 1 C). England wins: 3 D damage the French squadron;
    France's 1 D does nothing; France threw one die, so no morale changes hands."""
    outcome = run(lambda ctx: contest(ctx, rouen_field_30_4(), rouen_support(), sea="EA", commercial_port=True),
                  {"combat": [4, 2, 6, 3]},  # France (the active side's supporter) rolls first
                  {("commit", "ENG"): "COMMIT E3,E2 CONSCRIPT", ("commit", "FRA"): "COMMIT F3"}).result
    naval = outcome.naval
    assert outcome.supported == "defender" and outcome.fighting == ("FRA", "ENG")
    assert naval.battlefield == 3
    assert (naval.defender.battle_points, naval.defender.casualties) == (3, 1)
    assert (naval.attacker.battle_points, naval.attacker.casualties) == (1, 1)
    assert naval.attacker.disband_results == 3 and naval.attacker.damaged == ("F3",)
    assert naval.defender.disband_results == 1 and naval.defender.damaged == ()
    assert naval.morale_to is None and naval.unrest == (("ENG", 1),)


def test_30_4_field_battle():
    combat = replace(rouen_field_30_4(), supported="defender")
    r = run(combat, {"combat": [2, 4, 4, 5, 5, 6, 4, 1, 5, 5]},
            {("battlefield", "HUG"): "BF 5", ("advantages", "FRA"): "ADV F4"}).result
    assert r.battlefield == 5
    assert r.attacker.conscript and ("FRA", 1) in r.unrest
    assert [(d.die, d.category, d.value) for d in r.dice[:5]] == [
        ("F4", 3, 3), ("F3a", 3, 4), ("F3b", 3, 4), ("F2", 2, 5), ("CONSCRIPT", 1, 4)]
    assert (r.attacker.battle_points, r.attacker.casualties) == (6, 3)
    assert (r.defender.battle_points, r.defender.casualties) == (7, 2)
    assert r.winner == "defender"
    assert r.attacker.eliminated == ("F2",) and r.attacker.dispersed == ("F3a",)
    assert r.defender.eliminated == ("H2a",) and r.defender.dispersed == ("H2b",)
    assert r.morale_to == "defender" and r.retreat == "attacker" and r.control_to == "defender"
    assert r.defender.veteran == "H2c" and r.attacker.veteran == "F3b"


def test_30_4_defaults_match_the_players_choices():
    """France's disadvantage on its Q4 die is also the default; the Organizer's default
    keeps 4, so the Huguenots' BF 5 must be asked."""
    r = run(replace(rouen_field_30_4(), supported="defender"),
            {"combat": [2, 4, 4, 5, 5, 6, 4, 1, 5, 5]}, {("battlefield", "HUG"): "BF 5"})
    assert r.result.dice[0].category == 3
    assert ("battlefield", "HUG") in r.kinds()
