"""Deadlines as facts, reminders and the missed-orders policies, with a controlled clock."""

from datetime import datetime, timedelta, timezone

import pytest

from pbem.core.deadlines import DeadlineRules, deadline_for
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store

UTC = timezone.utc
PLAYERS = [PlayerSpec(id=p, address=f"{p}@example.org", token=p) for p in ("ann", "bob")]


class Clock:
    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


def game(settings, start=datetime(2026, 3, 20, 12, tzinfo=UTC), rounds=30):
    clock = Clock(start)
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}), clock=clock)
    service.create("g", "minigame", {"rounds": rounds}, PLAYERS, settings=settings, secret=bytes(32))
    return service, clock


def facts(service, kind):
    return [e for e in service.loader.campaign_events("g") if type(e).__name__ == kind]


def run_clock(service, clock, until, step=timedelta(hours=1), skip=()):
    while clock.now < until:
        clock.now += step
        if not any(a <= clock.now < b for a, b in skip):
            service.tick(clock.now)


def test_wall_clock_deadlines_across_daylight_saving_and_weekdays():
    rules = DeadlineRules(hours=24, at="20:00", timezone="Europe/Paris", weekdays=["mon", "tue", "wed", "thu", "fri"])
    before = deadline_for(datetime(2026, 3, 26, 12, tzinfo=UTC), rules)  # Thu -> Fri 20:00 CET
    after = deadline_for(datetime(2026, 3, 27, 19, 30, tzinfo=UTC), rules)  # Fri night -> Mon 20:00 CEST
    assert before == datetime(2026, 3, 27, 19, tzinfo=UTC)
    assert after == datetime(2026, 3, 30, 18, tzinfo=UTC)


def test_a_nonexistent_local_time_moves_forward():
    rules = DeadlineRules(hours=1, at="02:30", timezone="Europe/Paris")
    # 29 March 2026: 02:00 CET jumps to 03:00 CEST, so 02:30 does not exist that night.
    assert deadline_for(datetime(2026, 3, 28, 23, tzinfo=UTC), rules) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)


def test_a_time_in_a_half_hour_spring_gap_is_read_as_the_standard_library_reads_it():
    rules = DeadlineRules(hours=1, at="02:15", timezone="Australia/Lord_Howe")
    # 4 October 2026: Lord Howe Island's clocks jump from 02:00 (+10:30) to 02:30 (+11), so
    # 02:15 does not exist; zoneinfo with fold=0 reads it with the offset before the change,
    # which is 02:45 on the clocks that night (not 03:15: the gap is half an hour).
    due = deadline_for(datetime(2026, 10, 3, 14, tzinfo=UTC), rules)
    assert due == datetime(2026, 10, 3, 15, 45, tzinfo=UTC)
    assert due.astimezone(__import__("zoneinfo").ZoneInfo("Australia/Lord_Howe")).strftime("%H:%M") == "02:45"


def test_every_deadline_fires_once_in_order_across_dst_and_an_outage():
    settings = {"deadlines": {"hours": 24, "at": "20:00", "timezone": "Europe/Paris", "reminders": [12, 2]}}
    service, clock = game(settings)
    start = clock.now
    outage = (datetime(2026, 3, 27, 6, tzinfo=UTC), datetime(2026, 3, 29, 6, tzinfo=UTC))  # two days down
    run_clock(service, clock, start + timedelta(days=14), skip=[outage])
    passed = facts(service, "DeadlinePassed")
    opened = {e.step: e for e in facts(service, "StepOpened")}
    assert [e.step for e in passed] == [e.step for e in facts(service, "StepOpened")][:len(passed)]
    assert len({e.step for e in passed}) == len(passed)  # never doubled
    for event in passed:  # each fired at its own recorded deadline, in order
        assert event.at == opened[event.step].deadline
    local_hours = {datetime.fromisoformat(e.at).astimezone(__import__("zoneinfo").ZoneInfo("Europe/Paris")).hour
                   for e in passed}
    assert local_hours == {20}  # 20:00 local on both sides of the change
    # After the outage the overdue deadline passed once, and the next step got a full day.
    late = next(e for e in passed if datetime.fromisoformat(e.at) >= outage[0])
    following = [s for s in opened.values() if datetime.fromisoformat(s.opened) >= outage[1]][0]
    assert datetime.fromisoformat(following.deadline) - datetime.fromisoformat(following.opened) >= timedelta(hours=24)
    assert late.step != following.step
    reminders = facts(service, "ReminderSent")
    assert len({(r.step, r.hours_before) for r in reminders}) == len(reminders)


def test_a_clock_that_jumps_back_does_not_pass_a_deadline_twice():
    service, clock = game({"deadline_hours": 24})
    clock.now += timedelta(days=2)
    service.tick(clock.now)
    clock.now -= timedelta(days=1)
    service.tick(clock.now)
    clock.now += timedelta(days=1)
    service.tick(clock.now)
    steps = [e.step for e in facts(service, "DeadlinePassed")]
    assert len(steps) == len(set(steps))


def test_defaults_policy_answers_and_says_so():
    service, clock = game({"deadline_hours": 24, "deadlines": {"missed": "defaults"}}, rounds=1)
    service.submit("g", "ann", "BID 3")
    clock.now += timedelta(hours=25)
    service.tick(clock.now)
    answered = facts(service, "DecisionAnswered")
    assert [a.source for a in answered] == ["default (deadline passed; missed-orders policy defaults)"]
    assert [m.action for m in facts(service, "MissRecorded")] == ["default"]
    assert service.projection("g").view("gm")["leader"] == "ann"


def test_wait_policy_holds_then_civil_disorder_after_grace():
    service, clock = game({"deadlines": {"hours": 24, "grace_hours": 24, "missed": "wait"}}, rounds=2)
    service.submit("g", "ann", "BID 3")
    clock.now += timedelta(hours=30)
    service.tick(clock.now)
    assert service.projection("g").step == "bidding"  # held during the grace
    clock.now += timedelta(hours=20)
    service.tick(clock.now)
    projection = service.projection("g")
    assert projection.data.civil_disorder == ["bob"]
    assert projection.step == "round-1"
    # bob comes back: his orders end the civil disorder
    service.submit("g", "bob", "POLICY keep DO KEEP")
    assert service.projection("g").data.civil_disorder == []


def test_excuse_policy_extends_until_the_budget_is_spent():
    service, clock = game({"deadlines": {"hours": 24, "missed": "excuse", "excuses": 1}}, rounds=1)
    service.submit("g", "ann", "BID 3")
    clock.now += timedelta(hours=25)
    service.tick(clock.now)
    assert [m.action for m in facts(service, "MissRecorded")] == ["excused"]
    assert service.projection("g").step == "bidding"
    assert len(facts(service, "DeadlineChanged")) == 1
    clock.now += timedelta(hours=25)
    service.tick(clock.now)
    assert [m.action for m in facts(service, "MissRecorded")] == ["excused", "default"]
    assert service.projection("g").step != "bidding"


def test_drop_after_runs_a_vanished_player_by_defaults():
    service, clock = game({"deadlines": {"hours": 24, "missed": "drop-after", "drop_after": 1}}, rounds=3)
    service.submit("g", "ann", "BID 0")
    service.submit("g", "bob", "BID 5")
    clock.now += timedelta(hours=25)
    service.tick(clock.now)
    projection = service.projection("g")
    assert projection.data.dropped == ["bob"]
    assert projection.finished  # every later keep decision of bob's answered by its default at once
    sources = {a.source for a in facts(service, "DecisionAnswered")}
    assert "default (bob dropped after missed deadlines)" in sources


def test_earliest_processing_waits_unless_everyone_is_ready():
    service, clock = game({"deadlines": {"hours": 48, "earliest_hours": 12}}, rounds=1)
    service.submit("g", "ann", "BID 3")
    service.submit("g", "bob", "BID 1")
    assert service.projection("g").step == "bidding"  # all in, but held for revisions
    service.submit("g", "bob", "BID 4\nREADY")
    assert service.projection("g").step == "bidding"  # ann is not ready yet
    service.submit("g", "ann", "READY")
    assert service.projection("g").view("gm")["leader"] == "bob"


def test_earliest_processing_happens_on_the_clock():
    service, clock = game({"deadlines": {"hours": 48, "earliest_hours": 12}}, rounds=1)
    service.submit("g", "ann", "BID 3")
    service.submit("g", "bob", "BID 1")
    clock.now += timedelta(hours=13)
    service.tick(clock.now)
    assert service.projection("g").view("gm")["leader"] == "ann"


def test_an_absence_moves_the_deadline_past_it():
    service, clock = game({"deadline_hours": 24}, rounds=1)
    service.submit("g", "ann", "ABSENT 2026-03-20 2026-03-25\nBID 5")
    service.submit("g", "bob", "BID 3")
    projection = service.projection("g")
    assert projection.pending()[0].player == "ann"  # the leader keeps or rerolls, and is away
    opened = facts(service, "StepOpened")[-1]
    assert datetime.fromisoformat(opened.deadline) >= datetime(2026, 3, 27, tzinfo=UTC)  # a full day after return


@pytest.mark.parametrize("text", ["ABSENT tomorrow never", "ABSENT 2026-01-01"])
def test_bad_absences_are_refused(text):
    service, _ = game({})
    receipt = service.submit("g", "ann", text).receipt
    assert any(not v.accepted for v in receipt.verdicts)
