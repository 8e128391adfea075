"""Answer lines: every kind read, formatted back, checked against its request; every
illegal answer refused with a clear message."""

from __future__ import annotations

import pytest

from pbem.core.engine import Request
from pbem.core.decisions import DecisionKinds
from pbem.rules.ratio_regis.combat.answers import (AUTO, COMBAT_DECISION_KINDS, COMBAT_KINDS, AnswerError,
                                                   check_answer, format_answer, parse_answer)


@pytest.mark.parametrize("kind, line, value", [
    ("battlefield", "bf 3", 3), ("battlefield", "BF min", "min"), ("battlefield", "BF KEEP", "keep"),
    ("commit", "commit t1, t2 conscript", {"units": ["t1", "t2"], "conscript": True}),
    ("commit", "COMMIT T1", {"units": ["T1"], "conscript": False}),
    ("advantages", "ADV T1 T2", ["T1", "T2"]),
    ("creative", "CREATIVE T2", "T2"), ("creative", "creative none", None),
    ("leader-plus", "PLUS1 T3", "T3"), ("leader-plus", "PLUS1 NONE", None),
    ("combat-card", "CARD 17", 17), ("combat-card", "pass", None),
    ("losses", "LOSSES ELIM T2 DISP T3,T4", {"eliminate": ["T2"], "disperse": ["T3", "T4"]}),
    ("losses", "LOSSES DAMAGE S1", {"eliminate": [], "disperse": ["S1"]}),
    ("veteran", "VET T5", "T5"), ("veteran", "VET NONE", None),
    ("capitulate", "CAPITULATE", True), ("capitulate", "hold", False),
    ("pay-to-take", "PAYTAKE T4,T6", ["T4", "T6"]), ("pay-to-take", "PAYTAKE NO", []),
    ("supporter", "SUPPORTER ENG", "ENG"),
    ("drop-merchant", "DROPMERCHANT YES", True), ("drop-merchant", "DROPMERCHANT no", False),
    ("losses", "LOSSES AUTO", AUTO),
])
def test_lines_read(kind, line, value):
    assert parse_answer(kind, line) == value


@pytest.mark.parametrize("kind, line, message", [
    ("battlefield", "BF", "one size"), ("battlefield", "BF three", "number of dice"),
    ("battlefield", "SIZE 3", "starts with BF"), ("commit", "COMMIT", "names the units"),
    ("advantages", "ADV", "one die for each"), ("creative", "CREATIVE T1 T2", "one die"),
    ("combat-card", "CARD X", "card's number"), ("losses", "LOSSES T2", "ELIM or DISP"),
    ("capitulate", "SURRENDER", "CAPITULATE or HOLD"), ("pay-to-take", "PAYTAKE", "NO"),
    ("supporter", "SUPPORTER", "one power"), ("drop-merchant", "DROPMERCHANT MAYBE", "YES or NO"),
    ("bribe", "BRIBE 3", "unknown combat decision"),
])
def test_bad_lines_say_why(kind, line, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(kind, line)


def test_every_kind_is_described_and_has_a_form():
    defaults = {"battlefield": 3, "commit": {"units": ["T1"], "conscript": True}, "advantages": ["T1", None],
                "creative": None, "leader-plus": "T1", "combat-card": None,
                "losses": {"eliminate": ["T1"], "disperse": ["T2"]}, "veteran": "T1", "capitulate": False,
                "pay-to-take": [], "supporter": "ENG", "drop-merchant": False}
    assert set(defaults) == set(COMBAT_DECISION_KINDS)
    for kind, value in defaults.items():
        line = format_answer(kind, value)
        parsed = parse_answer(kind, line)
        assert parsed == value or (kind == "advantages" and parsed == ["T1", "NONE"]), (kind, line)


def request(kind: str, default, **context) -> Request:
    return Request(key="k", kind=kind, player="p", prompt="", default=default, context=context)


def test_order_form_is_the_default_line():
    order_form = DecisionKinds(COMBAT_KINDS).order_form
    assert order_form(request("commit", {"units": ["T1", "T2"], "conscript": True})) == "COMMIT T1,T2 CONSCRIPT"
    assert order_form(request("combat-card", None)) == "PASS"
    assert order_form(request("losses", {"eliminate": [], "disperse": ["S1"]})) == "LOSSES DISP S1"


@pytest.mark.parametrize("kind, context, value, message", [
    ("battlefield", {"sizes": [3, 4], "current": 4}, 2, "may be 3, 4 dice"),
    ("commit", {"units": ["T1", "T2"], "max": 2, "conscript": False}, {"units": ["T9"], "conscript": False},
     "not a unit of yours"),
    ("commit", {"units": ["T1", "T2"], "max": 2, "conscript": False}, {"units": ["T1"], "conscript": True},
     "may not raise a conscript"),
    ("commit", {"units": ["T1", "T2", "T3"], "max": 2, "conscript": True},
     {"units": ["T1", "T2"], "conscript": True}, "at most 2 dice"),
    ("commit", {"units": ["T1", "T2"], "max": 2, "conscript": False}, {"units": ["T1", "t1"], "conscript": False},
     "named twice"),
    ("commit", {"units": ["T1"], "max": 2, "conscript": True}, {"units": [], "conscript": True},
     "at least one unit"),
    ("advantages", {"modifiers": ["-1 a", "-1 b"], "dice": {"T1": 3, "T2": 1}}, ["T1"], "name 2 dice"),
    ("advantages", {"modifiers": ["-1 a"], "dice": {"T1": 3, "T2": 1}}, ["T2"], "already Q1"),
    ("advantages", {"modifiers": ["-1 a"], "dice": {"T1": 3, "T2": 1}}, ["NONE"], "must be applied"),
    ("creative", {"dice": {"T1": 4, "T2": 2}}, "T1", "below Q4"),
    ("leader-plus", {"dice": {"T1": 5}}, "T2", "below 6"),
    ("combat-card", {"cards": [17]}, 18, "cannot be played"),
    ("losses", {"eliminate": 1, "disperse": 0, "may_eliminate": ["T1", "F"], "may_disperse": ["T1"],
                "fortresses": ["F"]}, {"eliminate": ["F"], "disperse": []}, "no troops that fought"),
    ("losses", {"eliminate": 1, "disperse": 1, "may_eliminate": ["T1", "T2"], "may_disperse": ["T1", "T2"],
                "fortresses": []}, {"eliminate": ["T1"], "disperse": []}, "exactly 1 to eliminate and 1"),
    ("losses", {"eliminate": 1, "disperse": 1, "may_eliminate": ["T1", "T2"], "may_disperse": ["T1", "T2"],
                "fortresses": []}, {"eliminate": ["T1"], "disperse": ["T1"]}, "named twice"),
    ("veteran", {"troops": ["T1"]}, "T2", "may become veteran"),
    ("pay-to-take", {"troops": ["T1", "T2"], "price": 2}, ["T1"], "exactly 2 troops"),
    ("supporter", {"powers": ["ENG", "NED"]}, "FRA", "supporting your side"),
    ("commit", {"units": ["T1"], "max": 1, "conscript": False}, "T1", "does not fit"),
])
def test_illegal_answers_say_why(kind, context, value, message):
    with pytest.raises(AnswerError, match=message):
        check_answer(request(kind, None, **context), value)


def test_checks_respell_ids_and_resolve_words():
    assert check_answer(request("commit", None, units=["T1"], max=2, conscript=True),
                        {"units": ["t1"], "conscript": True}) == {"units": ["T1"], "conscript": True}
    assert check_answer(request("battlefield", 4, sizes=[2, 3, 4], current=4), "min") == 2
    assert check_answer(request("battlefield", 4, sizes=[2, 3, 4], current=4), "keep") == 4
    assert check_answer(request("losses", {"eliminate": [], "disperse": ["T1"]}), AUTO) == \
        {"eliminate": [], "disperse": ["T1"]}
    # A modifier no die can take is ignored, whatever is named for it (§13.1.2).
    assert check_answer(request("advantages", None, modifiers=["-1 a", "-1 b"], dice={"T1": 2}),
                        ["T1", "T1"]) == ["T1", None]
