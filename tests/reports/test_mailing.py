"""Who is mailed a report, and what it tells (the campaign's `reports` setting).

The toy game's turn is a sealed bid by both players, then a play step that asks the
first bidder and, once they have played, the other (a decision asked in the middle of a
step)."""

from __future__ import annotations

import json

import pytest

from pbem.core.campaign import Campaign, campaign_id
from pbem.core.outcomes import CommandError
from pbem.core.service import CampaignService
from pbem.core.store import ProjectionLoader

from tests.reports.conftest import TOY_PLAYERS, new_toy_service
from tests.support.old_logs import as_written_before


def _reports(mail) -> dict[str, dict]:
    """The reports among `mail`, by recipient player: the report as its JSON attachment."""
    found = {}
    for item in mail:
        if item.key.startswith("report:"):
            data = next(a.data for a in item.attachments if a.filename == "report.json")
            found[item.key.rsplit(":", 1)[1]] = json.loads(data)
    return found


def _lines(report: dict) -> list[str]:
    return [event["text"] for step in report["chronicle"] for event in step["events"]]


def _play(service: CampaignService, player: str, text: str):
    return service.submit("toy-demo", player, f"SIGNON {player} toy-demo t{player[1:]}\n{text}\nSIGNOFF")


def _card(service: CampaignService, player: str) -> str:
    return service.projection("toy-demo").current()[1]["players"][player]["hand"][0]


def _new(turns: int = 2, **settings) -> tuple[CampaignService, dict[str, dict]]:
    service = new_toy_service()
    _, outcome = service.create("toy-demo", "toy", {"turns": turns}, TOY_PLAYERS, secret=bytes(32),
                                settings=settings)
    return service, _reports(outcome.mail)


def test_when_owed_mails_whoever_must_answer_and_gathers_what_they_missed(toy_ruleset):
    service, first = _new()
    assert sorted(first) == ["p1", "p2"]  # a new campaign: everybody, with the dice commitment
    assert _reports(_play(service, "p1", "BID 2").mail) == {}  # nothing resolved, nobody newly asked
    after_bids = _reports(_play(service, "p2", "BID 1").mail)
    # The bids resolve and p1, the high bidder, must play first: only p1 is mailed.
    assert sorted(after_bids) == ["p1"] and after_bids["p1"]["owed"][0]["kind"] == "play"
    asked = _reports(_play(service, "p1", f"PLAY {_card(service, 'p1')}").mail)
    # p1's play asks p2 in the middle of the step: p2's first report since the campaign
    # began tells the bids it was not mailed about, and what it owes now.
    assert sorted(asked) == ["p2"] and asked["p2"]["owed"][0]["kind"] == "play"
    assert asked["p2"]["since_version"] == first["p2"]["log_version"]
    assert any(line.startswith("Bids revealed") for line in _lines(asked["p2"]))
    new_turn = _reports(_play(service, "p2", f"PLAY {_card(service, 'p2')}").mail)
    # The turn ends: everybody, each from where their last report left off.
    assert sorted(new_turn) == ["p1", "p2"]
    assert new_turn["p1"]["since_version"] == after_bids["p1"]["log_version"]
    assert any("attacks" in line for line in _lines(new_turn["p1"]))
    assert not any(line.startswith("Bids revealed") for line in _lines(new_turn["p1"]))


def test_when_owed_reports_together_tell_each_player_everything_they_may_see(toy_ruleset):
    service, first = _new(turns=2)
    told = {p: _lines(r) for p, r in first.items()}
    while not service.projection("toy-demo").finished:
        projection = service.projection("toy-demo")
        player = projection.pending()[0].player
        kind = projection.pending()[0].kind
        outcome = _play(service, player, "BID 1" if kind == "bid" else f"PLAY {_card(service, player)}")
        for viewer, report in _reports(outcome.mail).items():
            told[viewer] += _lines(report)
    projection = service.projection("toy-demo")
    for viewer in ("p1", "p2"):
        # A step in progress is told as far as it went, and again once resolved.
        missed = [c.text for c in projection.chronicle(viewer, 0) if c.text not in told[viewer]]
        assert missed == [], viewer


def test_every_step_mails_everybody_after_each_resolved_step(toy_ruleset):
    service, _ = _new(reports="every-step")
    _play(service, "p1", "BID 2")
    after_bids = _reports(_play(service, "p2", "BID 1").mail)
    assert sorted(after_bids) == ["p1", "p2"]
    # Asked in the middle of a step, p2 is mailed even though nothing resolved; the
    # report tells that step as far as it went.
    asked = _reports(_play(service, "p1", f"PLAY {_card(service, 'p1')}").mail)
    assert sorted(asked) == ["p2"]
    assert _lines(asked["p2"]) == ["Red Kingdom plays a card face down and attacks: repulsed."]


def test_the_end_of_the_campaign_mails_everybody(toy_ruleset):
    service, _ = _new(turns=1)
    _play(service, "p1", "BID 2")
    _play(service, "p2", "BID 1")
    _play(service, "p1", f"PLAY {_card(service, 'p1')}")
    last = _reports(_play(service, "p2", f"PLAY {_card(service, 'p2')}").mail)
    assert service.projection("toy-demo").finished
    assert sorted(last) == ["p1", "p2"] and all(r["finished"] for r in last.values())


def test_a_replay_decides_the_same_mailing(toy_ruleset):
    service, _ = _new()
    _play(service, "p1", "BID 2")
    _play(service, "p2", "BID 1")
    _play(service, "p1", f"PLAY {_card(service, 'p1')}")
    live = service.projection("toy-demo").data
    replayed = service.loader.load("toy-demo", use_snapshots=False).data
    assert (replayed.reported_through, replayed.reports_due, replayed.reports_due_at) == \
        (live.reported_through, live.reports_due, live.reports_due_at)
    assert live.reported_through["p2"] > live.reported_through["p1"] > 0


def test_an_unknown_mailing_setting_is_refused_with_the_choices(toy_ruleset):
    with pytest.raises(CommandError, match="reports: Input should be 'when-owed' or 'every-step'"):
        _new(reports="sometimes")


def test_a_service_that_forgot_what_a_report_tells_reads_it_again(toy_ruleset):
    """A daemon restarted from a late snapshot remembers less than a report must tell."""
    service, _ = _new()
    _play(service, "p1", "BID 2")
    _play(service, "p2", "BID 1")  # p1 is mailed; p2 is not, so its next report starts earlier
    live = service.live("toy-demo")
    live.forget_history(live.data.version)
    asked = _reports(_play(service, "p1", f"PLAY {_card(service, 'p1')}").mail)
    assert any(line.startswith("Bids revealed") for line in _lines(asked["p2"]))


def test_a_log_from_before_steps_recorded_whom_they_wait_for_replays_the_same(toy_ruleset):
    service, _ = _new()
    _play(service, "p1", "BID 2")
    _play(service, "p2", "BID 1")
    live = service.projection("toy-demo").data
    old_store = as_written_before(service.store)
    opened = [e for e in old_store.events.get(campaign_id("toy-demo")) if isinstance(e, Campaign.StepOpened)]
    assert opened and all(e.players is None and e.requests is None for e in opened)  # upcast from version 1
    old = ProjectionLoader(old_store).load("toy-demo", use_snapshots=False).data
    assert (old.asked, old.reported_through, old.reports_due) == \
        (live.asked, live.reported_through, live.reports_due)
