"""The same campaign on the real stores: SQLite in a home directory and PostgreSQL.

PostgreSQL runs when PBEM_TEST_POSTGRES holds a libpq-style "host=… port=… user=…
password=…" (scripts/test.sh starts a server and sets it); under CI it must be set.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from eventsourcing.persistence import IntegrityError

from pbem.core import ruleset as rulesets
from pbem.core.inbox import handle_mail
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from tests.support.minigame import MiniGame
from tests.support.postgres import postgres_env

_real_load = rulesets.load


@pytest.fixture(autouse=True)
def minigame_registered(monkeypatch):
    monkeypatch.setattr(rulesets, "load", lambda name: MiniGame() if name == "minigame" else _real_load(name))


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path, {}
    return None, postgres_env()


PLAYERS = [PlayerSpec(id=p, address=f"{p}@example.org", token=p) for p in ("ann", "bob")]


def play(service: CampaignService) -> None:
    service.create("stored", "minigame", {"rounds": 3}, PLAYERS, secret=bytes(32))
    service.submit("stored", "ann", "BID 2\nPOLICY keep WHEN value>=4 DO KEEP")
    service.submit("stored", "bob", "BID 1")
    for _ in range(3):
        if service.projection("stored").pending():
            service.submit("stored", "ann", "REROLL")


def test_a_campaign_survives_reopening_and_verifies(store_env):
    home, env = store_env
    first = CampaignService(open_store(home, env))
    play(first)
    expected = first.projection("stored").data.last_hash
    first.store.close()

    reopened = CampaignService(open_store(home, env))
    assert reopened.names() == ["stored"]
    replayed = reopened.loader.load("stored", use_snapshots=False)
    assert replayed.divergences == []
    assert replayed.finished and replayed.data.last_hash == expected
    reopened.store.close()


def test_two_writers_of_one_version_conflict(store_env):
    home, env = store_env
    service = CampaignService(open_store(home, env))
    service.create("stored", "minigame", {"rounds": 1}, PLAYERS, secret=bytes(32))
    one, two = service.campaign("stored"), service.campaign("stored")
    one.force_dice(purpose="round", values=[3], reason="writer one")
    two.force_dice(purpose="round", values=[4], reason="writer two")
    service.store.save(one)
    with pytest.raises(IntegrityError):
        service.store.save(two)
    service.store.close()


def test_the_same_mail_twice_is_stored_once(store_env):
    from pbem.core.messages import Envelope

    home, env = store_env
    service = CampaignService(open_store(home, env))
    service.create("stored", "minigame", {"rounds": 1}, PLAYERS, secret=bytes(32))
    mail = Envelope(sender="ann@example.org", message_id="<m1@example.org>", text="SIGNON ann stored ann\nBID 3",
                    raw=b"raw bytes of the mail")
    first = handle_mail(service, mail)
    again = handle_mail(service, mail)
    assert not first.duplicate and again.duplicate
    kinds = [type(e).__name__ for e in service.loader.campaign_events("stored")]
    assert kinds.count("OrdersSubmitted") == 1
    service.store.close()


def test_workers_starting_together_on_a_new_postgres_store_all_open_it():
    env = postgres_env()
    opened, failed = [], []
    start = threading.Barrier(4)

    def worker() -> None:
        start.wait()
        try:
            opened.append(open_store(None, env))
        except Exception as error:  # noqa: BLE001 - the assertion shows it
            failed.append(error)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failed and len(opened) == 4
    for store in opened:
        store.close()


def test_two_workers_never_work_on_one_postgres_campaign_at_once():
    env = postgres_env()
    services = [CampaignService(open_store(None, env)) for _ in range(2)]
    services[0].create("stored", "minigame", {"rounds": 30}, PLAYERS, secret=bytes(32))
    inside, overlaps = [0], []
    guard = threading.Lock()

    def bid(service: CampaignService, player: str) -> None:
        for n in range(10):
            def work() -> None:
                with service.session("stored") as session:
                    with guard:
                        inside[0] += 1
                        overlaps.append(inside[0])
                    time.sleep(0.005)
                    session.record(session.campaign.force_dice, purpose=f"{player}-{n}", values=[1], reason="test")
                    with guard:
                        inside[0] -= 1
            service.retrying("stored", work)

    threads = [threading.Thread(target=bid, args=(s, p)) for s, p in zip(services, ("ann", "bob"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert max(overlaps) == 1, "one session at a time per campaign"
    forced = [e for e in services[0].loader.campaign_events("stored") if type(e).__name__ == "DiceForced"]
    assert len(forced) == 20, "no work lost"
    for service in services:
        service.store.close()


@pytest.mark.parametrize("shared_inbox,homes", [(False, 1), (True, 1), (True, 2)])
def test_several_workers_on_postgres_answer_every_mail_once(shared_inbox, homes):
    """Two homes stand for two machines: they share the PostgreSQL database and the mailbox."""
    spec = os.environ.get("PBEM_TEST_POSTGRES")
    if not spec:
        postgres_env()  # skips, or fails under CI
    from pbem.tools.scale_bench import run_scale_bench

    result = run_scale_bench(campaigns=6, workers=2, mails=16, postgres=spec, shared_inbox=shared_inbox,
                             homes=homes, timeout=120)
    assert result["answered"] == 16 and result["mails_per_s"] > 0 and result["p95_s"] is not None
    assert result["recorded_twice"] == 0 and result["sent_twice"] == 0, result
