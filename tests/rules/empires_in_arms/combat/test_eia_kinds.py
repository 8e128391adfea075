"""The combat's decision kinds through the core's routing (docs/decision-kinds.md): lines,
standing tactic policies, order forms and refusals."""

import pytest
from eia_kit import Scripted, battle, corps, side

from pbem.core.decisions import DecisionKinds
from pbem.core.engine import Policy
from pbem.core.orders import parse_conditions
from pbem.core.probe import NeedsInput, Probe
from pbem.rules.empires_in_arms.combat.field import field_combat
from pbem.rules.empires_in_arms.combat.kinds import COMBAT_KINDS

KINDS = DecisionKinds(COMBAT_KINDS)
PORT = Scripted()


def chit_request(side="defender", options=("cordon", "counterattack", "withdraw")):
    return PORT.request(kind="chit", player="russia", prompt="chit", default="cordon", options=options,
                        context={"battle": "b1", "side": side, "area": "Plain"}, sealed=True, rule="§7.5.2.1")


def test_a_chit_line_answers_the_chit_owed():
    """§7.5.2.1: a chit is chosen from the side's own set."""
    request = chit_request()
    reading = KINDS.read_orders([(1, "CHIT counterattack")], [request], None, None, "russia")
    assert reading.answers == {request.key: "counterattack"}
    assert reading.verdicts[0].understood == "chit: CHIT counterattack"


def test_a_chit_of_the_other_set_or_not_allowed_is_refused_with_the_choices():
    """§7.5.2.1: outflank needs two non-artillery corps and a leader; assault is the attacker's."""
    reading = KINDS.read_orders([(1, "CHIT assault")], [chit_request()], None, None, "russia")
    assert not reading.answers
    assert "choose from cordon, counterattack, withdraw" in reading.verdicts[0].reason


def test_a_standing_tactic_policy_answers_a_chit_when_its_conditions_hold():
    conditions, _ = parse_conditions("side=defender")
    policy = Policy("P1", "russia", "chit", "CHIT withdraw", conditions=conditions)
    assert policy.matches(chit_request()) and not policy.matches(chit_request(side="attacker"))
    assert KINDS.answer_policy(policy, chit_request()) == "withdraw"
    assert KINDS.check_policy(Policy("P2", "russia", "chit", "FIGHT")) != ""


def test_order_forms_write_each_default():
    forms = {kind.name: kind for kind in COMBAT_KINDS}
    assert KINDS.order_form(chit_request()) == "CHIT cordon"
    day_end = PORT.request(kind="day_end", player="p", prompt="", default="fight")
    reinforce = PORT.request(kind="reinforce", player="p", prompt="", default=(), options=("g1",))
    assert (KINDS.order_form(day_end), KINDS.order_form(reinforce)) == ("FIGHT", "REINFORCE NONE")
    assert set(forms) == {"chit", "flank", "guard", "reinforce", "day_end", "sortie", "breach", "honours",
                          "casualties"}
    casualties = PORT.request(kind="casualties", player="p", prompt="", default="fr-1 1 cavalry")
    assert KINDS.order_form(casualties) == "CASUALTIES fr-1 1 cavalry"


def test_casualties_must_keep_the_rules_limits():
    """§7.5.2.9.2.1–2: militia last at a morale loss of 2.0, a cavalry factor first when breaking."""
    context = {"pool": "round", "count": 2, "units": {"a": {"infantry": 3, "militia": 2, "cavalry": 1}},
               "militia": False, "cavalry_first": True}
    request = PORT.request(kind="casualties", player="p", prompt="", default="a 1 cavalry, a 1 infantry",
                           context=context)
    cases = {"CASUALTIES a 2 militia": "militia are lost only when no other factor is left",
             "CASUALTIES a 2 infantry": "loses a cavalry factor among its losses",
             "CASUALTIES a 1 cavalry": "name 2 factors lost, not 1",
             "CASUALTIES b 2 infantry": "b is not one of your units",
             "CASUALTIES a 2 cavalry": "a has 1 cavalry factors, not 2",
             "CASUALTIES a two infantry": "name each loss as <unit> <n> <kind>"}
    for line, why in cases.items():
        reading = KINDS.read_orders([(1, line)], [request], None, None, "p")
        assert why in reading.verdicts[0].reason, (line, reading.verdicts[0].reason)
    reading = KINDS.read_orders([(1, "CASUALTIES a 1 cavalry, a 1 infantry")], [request], None, None, "p")
    assert reading.answers == {request.key: "a 1 cavalry, a 1 infantry"}


def test_flank_must_leave_a_corps_pinning():
    """§7.5.2.3.1: the pinning force keeps at least one non-artillery corps."""
    request = PORT.request(kind="flank", player="p", prompt="", default=("c2",), options=("c1", "c2"))
    reading = KINDS.read_orders([(1, "FLANK c1 c2")], [request], None, None, "p")
    assert "at least one non-artillery corps must stay" in reading.verdicts[0].reason
    reading = KINDS.read_orders([(1, "FLANK c1")], [request], None, None, "p")
    assert reading.answers == {request.key: ("c1",)}


def test_guard_shift_above_what_the_guards_allow_is_refused():
    """Option 12.3.4.3: +2 needs two French or Russian guard factors."""
    request = PORT.request(kind="guard", player="p", prompt="", default=0, context={"max_shift": 1})
    reading = KINDS.read_orders([(1, "GUARD 2")], [request], None, None, "p")
    assert "by 1 at most" in reading.verdicts[0].reason


def test_reinforce_all_none_and_unknown_groups():
    """§7.5.2.11: only the groups offered may try."""
    request = PORT.request(kind="reinforce", player="p", prompt="", default=(), options=("g1", "g2"))
    read = lambda line: KINDS.read_orders([(1, line)], [request], None, None, "p")  # noqa: E731
    assert read("REINFORCE ALL").answers == {request.key: ("g1", "g2")}
    assert read("REINFORCE NONE").answers == {request.key: ()}
    assert "no force g9 may reinforce" in read("REINFORCE g9").verdicts[0].reason


def test_turkish_garrisons_may_not_ask_for_honours():
    """§7.5.4.1.2.3.1."""
    request = PORT.request(kind="breach", player="p", prompt="", default="fight", context={"honours": False})
    reading = KINDS.read_orders([(1, "BREACH HONOURS")], [request], None, None, "p")
    assert "may not ask for the honours of war" in reading.verdicts[0].reason
    assert KINDS.read_orders([(1, "BREACH SURRENDER")], [request], None, None, "p").answers == {
        request.key: "surrender"}


def test_a_sortie_line_reads_yes_and_no():
    request = PORT.request(kind="sortie", player="p", prompt="", default=True)
    assert KINDS.read_orders([(1, "SORTIE NO")], [request], None, None, "p").answers == {request.key: False}
    assert "write SORTIE YES/NO" in KINDS.read_orders([(1, "SORTIE maybe")], [request], None, None,
                                                      "p").verdicts[0].reason


def test_the_core_dry_run_stops_at_the_sealed_chit_batch():
    """The core's probe (pbem/core/probe.py) runs the same procedure and stops where both
    sides' chits are owed, with both keys."""
    with pytest.raises(NeedsInput, match="chit#1.*chit#2"):
        field_combat(Probe(None), battle(side("p", "FR", [corps("c1", infantry=5)]),
                                         side("q", "RU", [corps("r1", "RU", infantry=5)])))
