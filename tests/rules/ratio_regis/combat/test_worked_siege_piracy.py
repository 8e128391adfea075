"""The playbook's siege of Zeeland (§32.1) and piracy in the WM (§27.4)."""

from __future__ import annotations

from combat_kit import leader, run, side, squadrons, troops

from pbem.rules.ratio_regis.combat import Combat, CombatCard, Unit

GUARDS = CombatCard(30, "Guards", "guards")
FLANKING = CombatCard(31, "Flanking Attack", "flanking-attack")
FORT = Unit("ZFORT", "fortress", 3)


def zeeland_battle() -> Combat:
    """Spain's army (I4, 2×I3, I2, leader) enters Zeeland; the Breda army intercepts and,
    with the Zeeland I3 and the fortress, gives battle. The example gives no dice; these
    give a Spanish win by one BP without casualties."""
    return Combat(id="zb", type="field", area="zeeland",
                  attacker=side("SPA", troops("S4:4", "S3a:3", "S3b:3", "S2:2"), [leader(lid="SL")]),
                  defender=side("NED", troops("D1:3", "D2:3", "E1:3") + (FORT,), [leader(lid="NL")],
                                cards=(GUARDS,)))


def test_32_1_field_battle_with_guards():
    r = run(zeeland_battle(), {"combat": [5, 5, 3, 3, 3, 3, 3, 5]},
            {("commit", "NED"): "COMMIT D1,D2,E1,ZFORT", ("combat-card", "NED"): "CARD 30"}).result
    assert r.winner == "attacker" and r.defender.cards_played == (30,)
    assert r.defender.disband_results == 0 and r.defender.dispersed == () and r.defender.eliminated == ()
    assert r.retreat == "defender"  # into the fortress: the siege begins (the caller's move)


def assault(number: int, siege_casualties: int, spain, netherlands, cards=()) -> Combat:
    """An assault on Zeeland; the allied fleet in the NS supports the besieged."""
    return Combat(id=f"zs{number}", type="siege", area="zeeland", supported="defender",
                  siege_casualties=siege_casualties, commercial_port=True,
                  attacker=side("SPA", spain, [leader(lid="SL")], cards=cards),
                  defender=side("NED", netherlands))


def test_32_1_first_assault():
    """P3 reduces the battlefield to 2; Spain 2×I3 (Q3 and Q2 by the naval disadvantage)
    gets 4 and 6 against 3 and 4: one Dutch troop eliminated, and the victor's minimum
    of one siege casualty; Spain makes a troop veteran."""
    r = run(assault(1, 0, troops("S3a:3", "S3b:3"), troops("D1:3", "D2:3", "E1:3") + (FORT,)),
            {"combat": [4, 6, 3, 4]}, {("battlefield", "NED"): "BF 2", ("commit", "NED"): "COMMIT D1,D2"})
    result = r.result
    assert result.battlefield == 2
    assert [(d.category, d.value) for d in result.dice] == [(2, 4), (3, 6), (3, 3), (3, 4)]
    assert result.winner == "attacker"
    assert result.defender.eliminated == ("D1",) and result.siege_casualties == 1
    assert result.attacker.dispersed == ()  # one D is not enough
    assert result.attacker.veteran == "S3a" and result.defender.veteran is None
    assert not result.capitulated and result.morale_to is None
    assert ("capitulate", "NED") in r.kinds()


def test_32_1_second_assault():
    """Now the besieged have a disadvantage per siege casualty. 4, 4 against 3, 6: the
    allies win; Spain's 2 C eliminate a Dutch troop, the allies' 2 D disperse a Spanish
    troop; Spain makes the other veteran."""
    r = run(assault(2, 1, troops("S3:3", "S2:2"), troops("D2:3", "E1:3") + (FORT,)),
            {"combat": [4, 4, 3, 6]},
            {("battlefield", "NED"): "BF 2", ("commit", "NED"): "COMMIT D2,E1", ("losses", "NED"): "LOSSES ELIM D2",
             ("losses", "SPA"): "LOSSES DISP S2"}).result
    assert r.winner == "defender"
    assert r.defender.eliminated == ("D2",) and r.attacker.dispersed == ("S2",)
    assert r.attacker.veteran == "S3" and r.siege_casualties == 1 and not r.capitulated


def test_32_1_third_assault_flanking_conscript_capitulation():
    """P3 reduces to 2, Spain plays FLANKING ATTACK: 3. P3 adds a conscript. 4, 3, 3
    against 4, 3, 1: the second siege casualty; 2 > 1 troop left: Zeeland capitulates."""
    r = run(assault(3, 1, troops("S4:4", "S3:3", "S2:2"), troops("E1:3") + (FORT,), cards=(FLANKING,)),
            {"combat": [4, 1, 3, 4, 3, 1]},
            {("battlefield", "NED"): "BF 2", ("combat-card", "SPA"): "CARD 31"}).result
    assert r.battlefield == 3 and r.defender.conscript and r.attacker.cards_played == (31,)
    assert [d.value for d in r.dice] == [4, 3, 3, 4, 3, 1]
    assert r.winner == "attacker" and r.siege_casualties == 2 and r.capitulated
    assert r.control_to == "attacker" and r.defender.dispersed == ("E1",) and r.defender.eliminated == ("ZFORT",)
    assert r.attacker.veteran is None and r.defender.veteran is None
    assert r.unrest == (("NED", 1),)


def pirate(in_port: bool, sid: str = "B1") -> Combat:
    """A Barbary S2 against Spain's ally Genoa's S3; one Spanish merchant in the TC."""
    return Combat(id=f"p-{sid}", type="piracy", area="WM", interceptor_in_port=in_port, merchants=1, victim="SPA",
                  attacker=side("BAR", squadrons(f"{sid}:2")), defender=side("GEN", squadrons("G3:3")))


def test_27_4_first_piracy():
    r = run(pirate(False), {"combat": [5, 1]}).result
    assert [d.value for d in r.dice] == [5, 3] and r.winner == "attacker"
    assert r.defender.damaged == () and r.defender.returns_to_base == ("G3",)
    assert r.unrest == (("BAR", -1), ("SPA", 1)) and r.interceptor_may_repeat and not r.merchant_dropped


def test_27_4_second_piracy_from_port():
    r = run(pirate(True, "B2"), {"combat": [2, 5]}).result
    assert [(d.category, d.value) for d in r.dice] == [(2, 2), (2, 5)]
    assert r.winner == "defender" and r.attacker.damaged == ("B2",) and r.unrest == ()
