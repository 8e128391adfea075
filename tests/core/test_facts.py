"""The campaign's facts as typed classes: their stored topics stay those pbem wrote when
it named them by string, and older shapes are upgraded as they are read."""

from __future__ import annotations

from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from pbem.core.campaign import Campaign, DiceVault, InboundMail, PlayerRecord, PolicyRecord, campaign_id
from pbem.core.store import open_store

from tests.support.old_logs import as_written_before, versioned_facts

FACTS = ("Created", "PlayerJoined", "TokenRotated", "OrdersSubmitted", "OrdersRejected", "PolicySet",
         "PolicyCleared", "OrdersQueued", "QueueCleared", "QueuedOrdersUsed", "QueuedOrdersDropped", "PressRelayed", "DecisionAnswered", "StepOpened", "StepAsked", "DeadlineChanged",
         "DeadlinePassed", "GraceExpired", "ReminderSent", "MissRecorded", "PlayerReturned", "PlayerReady",
         "AbsenceDeclared", "Paused", "Resumed", "PlayerReplaced", "RerunStarted", "DiceForced", "GMRuling",
         "StateSet", "RolledBack", "SeedRevealed", "StepResolved")

CONDITIONAL = PolicyRecord("C1", "p1", "bid", "3", "3", "FRA", [("turn", "=", "2")], "1/bid")


def _campaign() -> Campaign:
    campaign = Campaign(name="g", ruleset="toy", ruleset_version="1", scenario={}, scenario_digest="",
                        options={}, dice_commitment="", settings={})
    campaign.join(player="p1", name="Ann", address="ann@example.org", token_hash="h", timezone="UTC",
                  role="player")
    campaign.submit_orders(player="p1", step="1/bid", mail_id=None, lines=["IF turn=2 BID 3"], answers={},
                           conditional=[CONDITIONAL], verdicts=[])
    return campaign


def test_every_fact_keeps_the_topic_logs_already_hold():
    declared = {name for name, value in vars(Campaign).items() if isinstance(value, type)}
    assert declared - {"Event"} == set(FACTS)  # `Event`: the library's own base class
    assert [get_topic(getattr(Campaign, name)) for name in FACTS] == \
        [f"pbem.core.campaign:Campaign.{name}" for name in FACTS]
    assert get_topic(DiceVault.Created) == "pbem.core.campaign:DiceVault.Created"
    assert get_topic(InboundMail.Received) == "pbem.core.campaign:InboundMail.Received"


def test_the_old_log_helper_knows_every_versioned_fact():
    assert versioned_facts() == ["OrdersSubmitted", "StepOpened"]


def test_conditional_lines_stored_as_plain_objects_are_read_as_records():
    store = open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    store.save(_campaign())
    old = as_written_before(store)
    raw = old.recorder.select_events(campaign_id("g"), gt=2)[0]
    assert b'"conditional":[{"id":"C1"' in raw.state and b"class_version" not in raw.state
    orders = list(old.events.get(campaign_id("g"), gt=2))[0]
    assert isinstance(orders, Campaign.OrdersSubmitted) and orders.conditional == [CONDITIONAL]


def test_a_campaign_snapshot_holding_players_as_plain_objects_is_read_with_records():
    store = open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    store.save(_campaign())
    store.take_snapshot(campaign_id("g"))
    transcoder = store.mapper.transcoder
    snapshot = store.snapshots.recorder.select_events(campaign_id("g"), desc=True, limit=1)[0]
    state = transcoder.decode(snapshot.state)
    assert state["state"].pop("class_version") == 2
    state["state"]["players"] = {"p1": {"name": "Ann", "address": "ann@example.org", "token_hash": "h",
                                        "timezone": "UTC", "role": "player"}}  # as version 1 held them
    old = as_written_before(store)
    old.snapshots.recorder.insert_events([StoredEvent(snapshot.originator_id, snapshot.originator_version,
                                                      snapshot.topic, transcoder.encode(state))])
    campaign = old.repository.get(campaign_id("g"))
    assert campaign.players == {"p1": PlayerRecord("p1", "Ann", "ann@example.org", "h")}
