"""The common procedure and each type's own rules: defaults, decisions asked or not,
options, and the errors a bad combat or answer gives."""

from __future__ import annotations

from dataclasses import replace

import pytest
from combat_kit import leader, run, side, squadrons, troops

from pbem.core.engine import Policy, StepContext, run_step
from pbem.rules.ratio_regis.combat import Combat, CombatCard, Modifier, Unit, fight
from pbem.rules.ratio_regis.combat.answers import parse_answer
from pbem.rules.ratio_regis.combat.battle import IllegalCombatAnswer
from pbem.rules.ratio_regis.combat.field import defender_floor
from pbem.rules.ratio_regis.combat.procedure import CombatSetupError, allocate, best_plus_one
from pbem.rules.ratio_regis.combat.support import Supporter, contest, strongest


def battle(**kw) -> Combat:
    base = dict(id="b", type="field", area="x", attacker=side("A", troops("A1:3", "A2:2")),
                defender=side("B", troops("B1:3", "B2:2")))
    return Combat(**{**base, **kw})


# -- battlefield ---------------------------------------------------------------------------
@pytest.mark.parametrize("kw, floor", [
    ({}, 4), ({"terrain": "forest"}, 3), ({"terrain": "marsh"}, 2), ({"terrain": "mountain"}, 2),
    ({"rough_pass": True}, 2), ({"amphibious": True}, 3), ({"amphibious": True, "terrain": "forest"}, 2),
    ({"sortie": True}, 3), ({"relief": True, "terrain": "forest"}, 3),
])
def test_defender_floor(kw, floor):
    assert defender_floor(battle(**kw)) == floor


def test_forest_asks_the_defender_and_keeps_by_default():
    r = run(battle(terrain="forest"), {"combat": [3, 3, 3, 3]})
    ask = next(q for q in r.asked if q.kind == "battlefield")
    assert ask.power == "B" and ask.context["sizes"] == [3, 4] and ask.default == 4
    assert r.result.battlefield == 4


def test_organizers_attacker_then_defender_within_2_to_5():
    combat = battle(base_battlefield=None, terrain="marsh",
                    attacker=side("A", troops("A1:3"), [leader("organizer")]),
                    defender=side("B", troops("B1:3"), [leader("organizer")]))
    r = run(combat, {"combat": [3, 3]}, {("battlefield", "B"): "BF MIN", ("battlefield", "A"): "BF 3"})
    asked = [(q.power, q.context["sizes"]) for q in r.asked if q.kind == "battlefield"]
    assert asked == [("B", [2, 3, 4]), ("A", [2, 3]), ("B", [2, 3, 4])]
    assert r.result.battlefield == 2  # the defender's Organizer has the last word


def test_piracy_and_subjugation_battlefield_is_one_and_never_asked():
    combat = Combat(id="p", type="piracy", area="WM", attacker=side("BAR", squadrons("B:2"), [leader("organizer")]),
                    defender=side("SPA", squadrons("S:3")), merchants=1)
    r = run(combat, {"combat": [3, 3]})
    assert r.result.battlefield == 1 and "battlefield" not in [q.kind for q in r.asked]


# -- commit and conscripts ----------------------------------------------------------------------
def test_commit_default_is_best_units_and_conscript():
    combat = battle(base_battlefield=3, attacker=side("A", troops("A1:2", "A2:4", "A3:3", "A4:1")),
                    defender=side("B", troops("B1:3"), [leader()]))
    r = run(combat, {"combat": [3] * 5})
    commits = {q.power: q.default for q in r.asked if q.kind == "commit"}
    assert commits["A"] == {"units": ["A2", "A3", "A1"], "conscript": False}
    assert commits["B"] == {"units": ["B1"], "conscript": True}
    assert r.result.defender.conscript and r.result.unrest == (("B", 1),)


def test_no_conscript_without_leader_in_the_field_nor_without_port_at_sea():
    assert not run(battle(base_battlefield=3), {"combat": [3] * 4}).result.attacker.conscript
    naval = Combat(id="n", type="naval", area="NS", attacker=side("A", squadrons("A1:3"), [leader()]),
                   defender=side("B", squadrons("B1:3", "B2:3")))
    r = run(naval, {"combat": [3, 3, 3]})
    assert not r.result.attacker.conscript and "commit" not in [q.kind for q in r.asked]


def test_conscript_costs_no_unrest_on_a_mini_map():
    r = run(battle(base_battlefield=3, mini_map=True, defender=side("B", troops("B1:3"), [leader()])),
            {"combat": [3] * 4})
    assert r.result.defender.conscript and r.result.unrest == ()


def test_a_sortie_leaves_the_fortress_and_suffers_per_siege_casualty():
    combat = battle(sortie=True, siege_casualties=2,
                    attacker=side("A", troops("A1:3", "A2:3") + (Unit("F", "fortress", 3),)))
    r = run(combat, {"combat": [3] * 4}).result
    assert r.attacker.committed == ("A1", "A2")
    assert [d.category for d in r.dice[:2]] == [2, 2]


def test_a_lost_sortie_stays_besieged():
    r = run(battle(sortie=True), {"combat": [1, 1, 6, 6]}).result
    assert r.winner == "defender" and r.retreat is None


def test_relief_battle_lost_sends_the_joined_besieged_back():
    attacker = side("A", (Unit("R1", "troop", 3), Unit("G1", "troop", 3, besieged=True)))
    r = run(battle(relief=True, siege_casualties=1, attacker=attacker), {"combat": [1, 2, 3, 3]}).result
    assert r.winner == "defender" and r.besieged_return == ("G1",)
    assert sorted(d.category for d in r.dice[:2]) == [2, 3]  # one disadvantage per siege casualty


# -- modifiers, Creative, Tactical ---------------------------------------------------------------
def test_allocation_default_costs_least():
    assert allocate({"a": 4, "b": 3, "c": 1}, [Modifier(-1, "x", "r")]) == ["a"]
    assert allocate({"a": 3, "b": 2}, [Modifier(-1, "x", "r")]) == ["a"]
    assert allocate({"a": 1, "b": 3}, [Modifier(1, "x", "r")]) == ["a"]
    assert allocate({"a": 1}, [Modifier(-1, "x", "r"), Modifier(-1, "y", "r")]) == [None, None]


def test_extra_modifiers_of_a_side_apply():
    combat = battle(attacker=side("A", troops("A1:3", "A2:3"), modifiers=(Modifier(-1, "event", "card 5"),)))
    r = run(combat, {"combat": [3] * 4}).result
    assert [d.category for d in r.dice[:2]] == [2, 3]


def test_creative_leader_raises_the_weakest_die_by_default():
    combat = battle(attacker=side("A", troops("A1:3", "A2:1"), [leader("creative")]))
    r = run(combat, {"combat": [3] * 4})
    assert ("creative", "A") in r.kinds() and r.result.dice[1].category == 2


def test_only_the_commander_counts():
    """A Tactical and an Organizer: the Tactical commands, the Organizer does nothing."""
    combat = battle(attacker=side("A", troops("A1:3", "A2:2"), [leader("organizer", "L1"), leader("tactical", "L2")]))
    r = run(combat, {"combat": [4, 2, 3, 3]})
    assert "battlefield" not in [q.kind for q in r.asked]
    plus = next(q for q in r.asked if q.kind == "leader-plus")
    assert plus.default == "A2"  # 2 -> 3 gains a BP; 4 -> 5 gains one but loses a casualty
    assert r.result.dice[1].value == 3 and r.result.dice[1].plus == ("tactical",)


def test_best_plus_one():
    assert best_plus_one({"a": 4, "b": 2}) == "b"
    assert best_plus_one({"a": 3, "b": 5}) == "a"
    assert best_plus_one({"a": 1}) is None


def test_admiral_only_at_sea():
    naval = Combat(id="n", type="naval", area="NS", attacker=side("A", squadrons("A1:3", "A2:3"), [leader("admiral")]),
                   defender=side("B", squadrons("B1:3")))
    assert ("leader-plus", "A") in run(naval, {"combat": [4, 3, 3]}).kinds()
    assert "leader-plus" not in [q.kind for q in run(battle(attacker=side("A", troops("A1:3", "A2:2"),
                                                                          [leader("admiral")])),
                                                     {"combat": [4, 3, 3, 3]}).asked]


def test_two_determined_leaders_cancel_out():
    combat = Combat(id="s", type="subjugation", area="x", attacker=side("A", troops("A1:3"), [leader("determined")]),
                    defender=side("B", troops("B1:3"), [leader("determined")]))
    r = run(combat, {"combat": [3, 3]}).result
    assert all(d.plus == () for d in r.dice)


# -- re-rolls and cards ---------------------------------------------------------------------------
def test_land_technology_rerolls_twos_until_none():
    combat = battle(attacker=side("A", troops("A1:2", "A2:2"), technologies=("land",)))
    r = run(combat, {"combat": [1, 5, 3, 3], "combat-reroll": [2, 4]}).result
    assert r.dice[0].raws == (1, 2, 4) and r.dice[0].value == 4


def test_surprise_attack_rerolls_enemy_sixes_once():
    card = CombatCard(12, "Surprise Attack", "surprise-attack")
    combat = battle(attacker=side("A", troops("A1:3", "A2:2"), cards=(card,)))
    r = run(combat, {"combat": [3, 3, 6, 6], "combat-reroll": [1, 6]}, {"combat-card": "CARD 12"}).result
    assert [d.raws for d in r.dice[2:]] == [(6, 1), (6, 6)]


def test_cards_default_to_pass_and_unknown_effects_are_refused():
    card = CombatCard(31, "Flanking Attack", "flanking-attack")
    r = run(battle(attacker=side("A", troops("A1:3"), cards=(card,))), {"combat": [3, 3, 3]})
    assert ("combat-card", "A") in r.kinds() and r.result.attacker.cards_played == ()
    with pytest.raises(CombatSetupError, match="unknown effect"):
        run(battle(attacker=side("A", troops("A1:3"), cards=(CombatCard(9, "X", "x"),))))
    with pytest.raises(CombatSetupError, match="unknown combat type"):
        run(battle(type="duel"))


# -- pursuit -------------------------------------------------------------------------------------
def test_fortress_is_never_eliminated_in_a_field_battle():
    combat = battle(defender=side("B", (Unit("F", "fortress", 3), Unit("B1", "troop", 2))),
                    attacker=side("A", troops("A1:4", "A2:4", "A3:4", "A4:4")))
    r = run(combat, {"combat": [6, 6, 6, 6, 1, 1]}).result
    assert r.defender.eliminated == ("B1",) and "F" not in r.defender.dispersed


def test_losses_are_asked_when_there_is_a_choice_and_checked():
    combat = battle(base_battlefield=2, defender=side("B", troops("B1:3", "B2:2")),
                    attacker=side("A", troops("A1:4", "A2:4")))
    r = run(combat, {"combat": [6, 6, 1, 1]}, {("losses", "B"): "LOSSES ELIM B1 DISP B2"})
    assert r.result.defender.eliminated == ("B1",) and r.result.defender.dispersed == ("B2",)
    with pytest.raises(IllegalCombatAnswer, match="losses#1: B9 is not"):
        run(combat, {"combat": [6, 6, 1, 1]}, {("losses", "B"): "LOSSES ELIM B9 DISP B2"})


def test_siege_morale_and_veteran_options():
    def siege(**options):
        return Combat(id="z", type="siege", area="z", options=options,
                      attacker=side("A", troops("A1:3", "A2:3")),
                      defender=side("B", troops("B1:2", "B2:2") + (Unit("F", "fortress", 3),)))
    dice = {"combat": [6, 6, 1, 1, 1]}
    assert run(siege(), dice).result.morale_to is None
    assert run(siege(siege_morale="yes"), dice).result.morale_to == "attacker"
    assert run(siege(), dice).result.attacker.veteran == "A1"


def test_veteran_needs_troop_option():
    naval_kill = Combat(id="z", type="siege", area="z", options={"veteran_needs": "troop"},
                        attacker=side("A", troops("A1:3", "A2:3", "A3:3")),
                        defender=side("B", (Unit("F", "fortress", 3),)))
    r = run(naval_kill, {"combat": [6, 6, 3, 1]}).result
    assert r.defender.eliminated == ("F",) and r.attacker.veteran is None and r.capitulated


def test_voluntary_capitulation():
    combat = Combat(id="z", type="siege", area="z", attacker=side("A", troops("A1:3")),
                    defender=side("B", troops("B1:2") + (Unit("F", "fortress", 3),), [leader(lid="BL")]))
    r = run(combat, {"combat": []}, {"capitulate": "CAPITULATE"}).result
    assert r.capitulated and r.control_to == "attacker" and r.dice == ()
    assert r.defender.dispersed == ("B1",) and r.defender.eliminated == ("F",)
    assert r.defender.leaders_dispersed == ("BL",)


def test_subjugation_against_a_fortress_has_no_pursuit():
    combat = Combat(id="s", type="subjugation", area="x", opposition="fortress",
                    attacker=side("A", troops("A1:3")), defender=side("B"))
    r = run(combat, {"combat": [1, 6]}).result
    assert r.winner == "defender" and r.attacker.disband_results == 0 and r.attacker.dispersed == ()


def test_subjugation_without_leader_disperses_one_troop_per_d():
    combat = Combat(id="s", type="subjugation", area="x", attacker=side("A", troops("A1:3", "A2:3", "A3:3")),
                    defender=side("B", troops("B1:2")))
    r = run(combat, {"combat": [1, 5]}, {"pay-to-take": "PAYTAKE A2,A3"}).result
    assert r.attacker.disband_results == 1 and r.attacker.dispersed == ("A1", "A2", "A3")
    assert r.paid_to_take == ("A2", "A3") and r.control_to == "attacker"


def test_piracy_without_interceptor_needs_one_bp():
    combat = Combat(id="p", type="piracy", area="WM", merchants=2,
                    attacker=side("BAR", squadrons("B1:2")), defender=side("SPA"))
    assert run(combat, {"combat": [1]}).result.winner is None
    r = run(combat, {"combat": [3]}, {"drop-merchant": "DROPMERCHANT YES"}).result
    assert r.winner == "attacker" and r.unrest == (("BAR", -2), ("SPA", 2)) and r.merchant_dropped
    assert not r.interceptor_may_repeat


# -- support contest ------------------------------------------------------------------------------
def test_support_supporter_choice_and_draw():
    coastal = battle()
    fleets = (Supporter("attacker", side("FRA", squadrons("F1:3"))),
              Supporter("defender", side("ENG", squadrons("E1:2"))),
              Supporter("defender", side("NED", squadrons("N1:3", "N2:3"))))
    assert strongest(list(fleets[1:])).fleet.power == "NED"
    r = run(lambda ctx: contest(ctx, coastal, fleets, sea="NS"), {"combat": [3, 3]},
            {"supporter": "SUPPORTER ENG"})
    assert r.result.fighting == ("FRA", "ENG") and r.result.supported is None  # 1 BP each: a draw
    assert [q.player for q in r.asked if q.kind == "supporter"] == ["p-b"]
    assert run(lambda ctx: contest(ctx, coastal, (), sea="NS")).result.supported is None


# -- policies and keys --------------------------------------------------------------------------------
def test_a_standing_policy_answers_with_context():
    combat = battle(terrain="forest", area="Paris")
    policy = Policy(id="P1", player="p-b", kind="battlefield", answer_text="BF MIN",
                    conditions=(("area", "=", "paris"), ("enemy_units", ">=", "2")))
    ctx = StepContext(campaign="c", step="s", secret=bytes(32), answers={}, policies=[policy],
                      answer_policy=lambda p, r: parse_answer(r.kind, p.answer_text), forced={"combat": [3, 3, 3, 3]},
                      scenario=None, seats={})
    box = {}
    step = run_step(lambda c, _: box.setdefault("r", fight(c, combat)), None, ctx)
    assert step.completed and box["r"].battlefield == 3
    assert step.used[0].request.key == "s/b/battlefield#1" and step.used[0].answer.source == "policy P1 of p-b"


def test_same_inputs_same_result():
    combat = battle(base_battlefield=2)
    assert run(combat, {"combat": [1, 2, 3, 4]}).result == run(combat, {"combat": [1, 2, 3, 4]}).result
    assert replace(combat, id="other").id == "other"
