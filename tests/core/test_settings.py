"""A campaign's settings are checked when it is created."""

import pytest

from pbem.core.outcomes import CommandError
from pbem.core.settings import check_settings


def test_the_settings_the_guide_shows_are_accepted():
    assert check_settings({"press": "anonymous", "reports": "every-step", "deadline_hours": 48,
                           "deadlines": {"hours": 72, "missed": "wait", "grace_hours": 24,
                                         "per_kind": {"impulse": {"hours": 48}}}}) == []
    assert check_settings({}) == []


def test_each_mistake_is_named():
    assert check_settings({"reprots": "when-owed"}) == ["reprots: Extra inputs are not permitted"]
    assert check_settings({"press": "loud"}) == ["press: Input should be 'none', 'open' or 'anonymous'"]
    assert check_settings({"deadlines": {"hours": 0}})[0].startswith("deadlines.hours:")
    assert check_settings({"deadlines": {"per_kind": {"impulse": {"missed": "shrug"}}}})[0].startswith(
        "deadlines.per_kind.impulse.missed:")


def test_a_campaign_with_bad_settings_is_not_created(service, players):
    with pytest.raises(CommandError, match="bad campaign settings: press"):
        service.create("g1", "minigame", {"rounds": 1}, players, settings={"press": "loud"})
    assert "g1" not in service.names()
