from pbem.core import store
from pbem.core.service import CampaignService


def new_game(service, players, rounds=2, secret=bytes(32)):
    service.create("g1", "minigame", {"rounds": rounds}, players, secret=secret)


def test_sealed_batch_waits_for_every_player(service, players):
    new_game(service, players)
    service.submit("g1", "ann", "BID 3")
    service.submit("g1", "bob", "BID 5")
    projection = service.projection("g1")
    assert projection.step == "bidding"
    assert [r.player for r in projection.pending()] == ["cy"]
    service.submit("g1", "cy", "BID 1")
    projection = service.projection("g1")
    assert projection.view("gm")["leader"] == "bob"
    assert projection.step == "round-1"
    assert [r.kind for r in projection.pending()] == ["keep"]


def test_later_answer_replaces_earlier_until_the_step_resolves(service, players):
    new_game(service, players)
    service.submit("g1", "ann", "BID 9")
    outcome = service.submit("g1", "ann", "BID 1")
    assert "replaces" in outcome.receipt.answered[0]
    service.submit("g1", "bob", "BID 2")
    service.submit("g1", "cy", "BID 0")
    assert service.projection("g1").view("gm")["leader"] == "bob"


def test_standing_policy_answers_and_is_recorded_as_a_fact(service, players):
    new_game(service, players, rounds=1)
    service.submit("g1", "bob", "POLICY keep WHEN value>=4 DO KEEP\nPOLICY keep WHEN value<=3 DO REROLL")
    for p, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", p, f"BID {bid}")
    projection = service.projection("g1")
    assert projection.finished
    events = list(service.loader.campaign_events("g1"))
    answered = [e for e in events if type(e).__name__ == "DecisionAnswered"]
    assert len(answered) == 1 and answered[0].source.startswith("policy P")


def test_unanswerable_line_is_refused_and_recorded(service, players):
    new_game(service, players)
    outcome = service.submit("g1", "ann", "KEEP")
    assert not outcome.receipt.accepted
    assert outcome.receipt.verdicts[0].reason
    kinds = [type(e).__name__ for e in service.loader.campaign_events("g1")]
    assert kinds[-1] == "OrdersRejected"


def test_replay_reproduces_every_hash_and_snapshots_change_nothing(service, players):
    new_game(service, players, rounds=3)
    for p, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", p, f"BID {bid}")
    for _ in range(3):
        service.submit("g1", "bob", "REROLL")
    live = service.projection("g1")
    replayed = service.loader.load("g1", use_snapshots=False)
    assert replayed.divergences == []
    assert replayed.data.last_hash == live.data.last_hash
    service.loader.save_snapshot(live)
    from_snapshot = service.loader.load("g1")
    assert from_snapshot.events_folded < replayed.events_folded
    assert from_snapshot.data.last_hash == live.data.last_hash


def test_a_replay_reports_each_fact_it_folds(service, players):
    """What a long replay's progress bar counts: every fact, up to the log's length."""
    new_game(service, players)
    service.submit("g1", "ann", "BID 1")
    heard = []
    projection = service.loader.load("g1", use_snapshots=False, on_fact=heard.append)
    assert heard == list(range(2, service.loader.length("g1") + 1))  # the first fact creates the projection
    assert heard[-1] == projection.data.version


def test_a_replay_read_a_page_at_a_time_folds_every_fact_once(service, players, monkeypatch):
    new_game(service, players, rounds=3)
    for p, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", p, f"BID {bid}")
    service.submit("g1", "bob", "REROLL")
    whole = service.loader.load("g1", use_snapshots=False)
    monkeypatch.setattr(store, "FOLD_PAGE", 2)
    heard = []
    paged = service.loader.load("g1", use_snapshots=False, on_fact=heard.append)
    assert heard == list(range(2, service.loader.length("g1") + 1))
    assert paged.divergences == [] and paged.data.last_hash == whole.data.last_hash
    assert paged.data.steps_resolved == whole.data.steps_resolved > 1


def test_forced_die_changes_only_rolls_of_its_purpose(players):
    from pbem.core.store import open_store

    def rolls(force):
        service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
        new_game(service, players, rounds=2)
        if force:
            service.force_dice("g1", "round", [6], "test")
        for p in ("ann", "bob", "cy"):
            service.submit("g1", p, "BID 2")  # a three-way tie: the tiebreak die is rolled
        service.submit("g1", service.projection("g1").view("gm")["leader"], "REROLL")
        service.submit("g1", service.projection("g1").view("gm")["leader"], "KEEP")
        projection = service.loader.load("g1", use_snapshots=False)
        return [roll for step in projection.resolved for roll in step.result.rolls]

    plain, forced = rolls(False), rolls(True)
    assert [r for r in plain if r.purpose != "round"] == [r for r in forced if r.purpose != "round"]
    assert forced[[r.purpose for r in forced].index("round")].value == 6
    assert forced[[r.purpose for r in forced].index("round")].forced


def test_deadline_applies_defaults_and_names_them(service, players):
    from datetime import datetime, timedelta, timezone

    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    service.clock = lambda: now
    new_game(service, players, rounds=1)
    service.submit("g1", "ann", "BID 4")
    outcomes = service.tick(now + timedelta(days=4))
    assert outcomes and outcomes[0].steps_resolved >= 1
    projection = service.projection("g1")
    assert projection.view("gm")["leader"] == "ann"
    sources = [e.source for e in service.loader.campaign_events("g1") if type(e).__name__ == "DecisionAnswered"]
    assert sources and all(s.startswith("default") for s in sources)


def test_rollback_supersedes_later_facts(service, players):
    new_game(service, players, rounds=2)
    service.submit("g1", "ann", "BID 1")
    mark = service.campaign("g1").version
    service.submit("g1", "bob", "BID 5")
    campaign = service.campaign("g1")
    campaign.roll_back(to_version=mark, reason="test")
    service.store.save(campaign)
    projection = service.projection("g1")
    assert [r.player for r in projection.pending()] == ["bob", "cy"]
