"""The playbook's subjugations: §28.7, §28.12–§28.14, §29.1, §31.8."""

from __future__ import annotations

from dataclasses import replace

from combat_kit import leader, run, side, squadrons, troops

from pbem.rules.ratio_regis.combat import Combat, CombatCard, Unit, fight
from pbem.rules.ratio_regis.combat.support import Supporter, contest, with_support

AMBUSH = CombatCard(21, "Ambush", "ambush")


def rouen_28_7() -> Combat:
    """The Huguenots (P3) moved into Rouen and subjugate it; France opposes from Paris
    with its army and holds AMBUSH."""
    return Combat(id="s1", type="subjugation", area="rouen", all_moved=True,
                  attacker=side("HUG", troops("H1:3", "H2:3"), [leader(lid="HL")]),
                  defender=side("FRA", troops("F1:3", "F2:3"), [leader(lid="FL")], cards=(AMBUSH,)))


def test_28_7_subjugation_with_naval_support_and_ambush():
    def procedure(ctx):
        coastal = rouen_28_7()
        support = contest(ctx, coastal, (Supporter("attacker", side("ENG", squadrons("E3:3"))),), sea="EA")
        assert support.supported == "attacker" and support.naval is None  # France has no fleet: automatic
        return fight(ctx, with_support(coastal, support))

    r = run(procedure, {"combat": [4, 5]}, {("combat-card", "FRA"): "CARD 21"}).result
    assert [(d.die, d.category, d.raws, d.value) for d in r.dice] == [
        ("FORCE", 2, (4,), 4), ("FORCE", 1, (5,), 5)]  # the French 5 -> 4, +1 by Ambush
    assert r.dice[1].plus == ("ambush",)
    assert r.winner == "defender" and r.defender.cards_played == (21,)
    # 1 D each way; with leaders 2 D are needed to disperse a troop.
    assert r.attacker.dispersed == () and r.defender.dispersed == ()
    assert r.defender.veteran == "F1"  # Ambush: having won, one I3 becomes I4
    assert r.control_to is None and r.pay_to_take == 2 and r.paid_to_take == ()  # they try another time


def cape_colony(all_moved: bool) -> Combat:
    """§28.12: a Dutch Q2 troop with a leader in Cape Colony, an A3 independent area."""
    return Combat(id="cape", type="subjugation", area="cape", all_moved=all_moved, opposition="independent",
                  attacker=side("NED", troops("N1:2"), [leader(lid="NL")]),
                  defender=side("IND", (Unit("cape-a3", "independent", 3),)))


def test_28_12_and_28_13_subjugation_with_leader():
    """Q3 -1 for moving = Q2, against A3 = Q3; both roll 1: 2 against 3. The area wins by
    1 BP; with a leader one D does not disperse the troop."""
    r = run(cape_colony(all_moved=True), {"combat": [1, 1]}).result
    assert [(d.category, d.value) for d in r.dice] == [(2, 2), (3, 3)]
    assert r.winner == "defender" and r.attacker.disband_results == 1 and r.attacker.dispersed == ()
    assert r.pay_to_take == 2 and r.control_to is None  # one troop cannot pay two


def test_28_12_a_fleet_in_soa_would_lower_the_area():
    r = run(replace(cape_colony(True), supported="attacker"), {"combat": [1, 1]}).result
    assert r.dice[1].category == 2


def test_28_14_tie_and_pay_to_take():
    """Not moved now: Q3 against Q3, 2 and 1 -> 3 and 3, a tie. P3 disperses the troop
    (and so the leader) to take the area."""
    r = run(cape_colony(all_moved=False), {"combat": [2, 1]}, {"pay-to-take": "PAYTAKE N1"}).result
    assert r.winner is None and r.control_to == "attacker" and r.paid_to_take == ("N1",)
    assert r.attacker.dispersed == ("N1",) and r.attacker.leaders_dispersed == ("NL",)


def test_29_1_philippines_fiasco():
    """Landed (moved) in difficult terrain: Q3 -2 = Q1 against A2 on the Asia mini-map.
    3 -> 2 against 4: 1 D for the BP and 1 for the odd casualty: with a leader, 2 D
    disperse the troop, and the leader with it."""
    combat = Combat(id="phil", type="subjugation", area="philippines", all_moved=True, terrain="forest",
                    mini_map=True, opposition="independent",
                    attacker=side("SPA", troops("S1:3"), [leader(lid="SL")]), defender=side("IND"))
    r = run(combat, {"combat": [3, 4]}).result
    assert [(d.category, d.value) for d in r.dice] == [(1, 2), (2, 4)]
    assert r.attacker.disband_results == 2 and r.attacker.dispersed == ("S1",)
    assert r.attacker.leaders_dispersed == ("SL",) and r.control_to is None


def test_31_8_opposition_from_two_areas_away():
    """All the Huguenots moved: Q2; France opposes from Paris, two areas away: Q1.
    3 against 3 -> 2: the Huguenots take Nantes."""
    combat = Combat(id="nantes", type="subjugation", area="nantes", all_moved=True, opposed_from=2,
                    attacker=side("HUG", troops("H1:3", "H2:3", "H3:2"), [leader(lid="HL")]),
                    defender=side("FRA", troops("F1:3", "F2:4"), [leader(lid="FL")]))
    r = run(combat, {"combat": [3, 3]}).result
    assert [(d.category, d.value) for d in r.dice] == [(2, 3), (1, 2)]
    assert r.winner == "attacker" and r.control_to == "attacker"
    assert r.defender.dispersed == ()  # 1 D, a leader present
