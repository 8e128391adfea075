"""Queued orders in a Ratio Regis campaign (issue 16): the demo played with every impulse
queued ends in the demo's own state with no game turn waiting for a mail; a queued impulse
made illegal by an earlier one is dropped with its reason; a block for another player's
power is refused at once. The war-demo played the same way, reactions queued too, uses every
block it queued."""

from __future__ import annotations

from campaigns import play

from pbem.core.campaign import Campaign
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.tools.examples import deliver_example, demo_dir
from pbem.tools.roundtrips_bench import run_roundtrips_bench


def _service() -> CampaignService:
    return CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))


def test_the_queued_demo_ends_as_the_demo_sent_impulse_by_impulse_and_no_turn_waits_for_a_mail():
    queued = run_roundtrips_bench("ratio-regis", "queued")
    by_impulse = queued["sent_step_by_step"]
    assert by_impulse["example"] == "demo"
    assert queued["finished"]
    assert queued["state_hash"] == by_impulse["state_hash"]
    assert queued["mails"] == 3 and by_impulse["mails"] == 26
    assert [queued["waits_per_turn"][t] for t in ("turn 6", "turn 7")] == [0, 0]  # the issue asks at most 5
    assert [by_impulse["waits_per_turn"][t] for t in ("turn 6", "turn 7")] == [10, 9]


def test_a_queued_impulse_whose_card_was_played_earlier_is_dropped_and_the_impulse_waits():
    service = _service()
    deliveries = list(deliver_example(service, demo_dir("ratio-regis", "demo"), upto=7))
    name = deliveries[0].campaign
    receipt = service.submit(name, "p1", "PLAY 5 POINTS FRA=2\nFRA I BUILD TROOP Q2 AT Paris\nDONE\n"
                                         "QUEUE impulse\nPLAY 5 POINTS FRA=1\nDONE\nENDQUEUE").receipt
    assert receipt.accepted and receipt.queued == ["Q1 (queued): your next impulse decision, alternative 1 when always"]
    for mail in ("010-p2.txt", "011-p3.txt"):
        path = demo_dir("ratio-regis", "demo") / mail
        service.submit(name, mail[4:6], "\n".join(line for line in path.read_text().splitlines()
                                                 if not line.startswith(("SIGNON", "SIGNOFF"))))
    events = service.loader.campaign_events(name)
    (dropped,) = [e for e in events if isinstance(e, Campaign.QueuedOrdersDropped)]
    assert dropped.step == "t6/impulse-4"
    assert any(not v["accepted"] and "5" in v["text"] for v in dropped.verdicts)
    projection = service.projection(name)
    assert [(r.player, r.kind) for r in projection.pending()] == [("p1", "impulse")]


def test_a_block_for_another_players_power_is_refused_at_once():
    service = _service()
    deliveries = list(deliver_example(service, demo_dir("ratio-regis", "demo"), upto=7))
    receipt = service.submit(deliveries[0].campaign, "p1", "QUEUE FOR HUG impulse\nDONE\nENDQUEUE").receipt
    assert [(v.accepted, v.reason) for v in receipt.verdicts] == [(False, "HUG is not yours to queue orders for")]


def test_the_queued_war_demo_uses_every_block_it_queued_and_refuses_nothing():
    played = play("war-queued")
    assert played.refused == []
    events = list(played.service.loader.campaign_events(played.name))
    assert not [e for e in events if isinstance(e, Campaign.QueuedOrdersDropped)]
    used = [e for e in events if isinstance(e, Campaign.QueuedOrdersUsed)]
    assert len(used) == 3 + 30 + 5  # the groups, the 30 impulses of two turns, the Huguenots' 5 reactions
    projection = played.projection()
    assert projection.finished and projection.data.queued == []
