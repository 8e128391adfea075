"""`pbem verify --jobs N`: the log split at stored snapshots and replayed in several
processes proves what one replay proves — an altered fact in a middle segment, or a
snapshot that is not what the facts before it fold into, fails the run by name."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import Failure, app
from pbem.core.store import ProjectionLoader, open_store
from pbem.core.verify import verify_campaign
from pbem.tools.replay_bench import NAME, _Clock, play_bench_campaign

EVENTS = 700  # seven snapshots: eight segments for two workers


@pytest.fixture(scope="module")
def bench_home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("verify") / "home"
    play_bench_campaign(home, "ratio-regis", EVENTS, _Clock())
    return home


@pytest.fixture
def home(bench_home, tmp_path) -> Path:
    copy = tmp_path / "home"
    copy.mkdir()
    source = sqlite3.connect(bench_home / "campaigns.sqlite")
    target = sqlite3.connect(copy / "campaigns.sqlite")
    source.backup(target)
    source.close()
    target.close()
    return copy


def serial_hash(home: Path) -> tuple[int, str]:
    store = open_store(home)
    projection = ProjectionLoader(store).load(NAME, use_snapshots=False, history=False)
    store.close()
    assert projection.divergences == []
    return projection.data.steps_resolved, projection.data.last_hash


def test_a_parallel_verify_splits_at_snapshots_and_proves_the_serial_chain(home):
    verdict = verify_campaign(home, NAME, jobs=2)
    assert verdict.failure is None
    assert verdict.segments > 2
    assert (verdict.steps, verdict.last_hash) == serial_hash(home)
    result = CliRunner().invoke(app, ["verify", NAME, "--jobs", "2", "--home", str(home)])
    assert result.exit_code == 0, result.output
    assert f"{verdict.steps} steps verified, state hash {verdict.last_hash}" in result.output


def _middle_fact(home: Path, topic: str, needle: str) -> tuple[int, dict]:
    connection = sqlite3.connect(home / "campaigns.sqlite")
    rows = connection.execute("SELECT originator_version, state FROM stored_events WHERE topic LIKE ? "
                              "AND originator_version > ? ORDER BY originator_version",
                              (f"%{topic}", EVENTS // 2)).fetchall()
    connection.close()
    for version, state in rows:
        if needle in state.decode():
            return version, json.loads(state)
    raise AssertionError(f"no {topic} with {needle!r} after log version {EVENTS // 2}")


def _store_fact(home: Path, table: str, version: int, fact: dict) -> None:
    connection = sqlite3.connect(home / "campaigns.sqlite")
    with connection:
        connection.execute(f"UPDATE {table} SET state = ? WHERE originator_version = ?",
                           (json.dumps(fact, separators=(",", ":")).encode(), version))
    connection.close()


def test_a_parallel_verify_fails_on_an_order_altered_in_a_middle_segment_naming_the_step(home):
    version, fact = _middle_fact(home, "Campaign.OrdersSubmitted", "STRAT")
    # One of the player's moves struck out after the fact: the unit stays, the step resolves otherwise.
    key = next(iter(fact["answers"]))
    fact["answers"][key] = [line for line in fact["answers"][key] if "STRAT" not in line]
    fact["lines"] = [line for line in fact["lines"] if "STRAT" not in line]
    _store_fact(home, "stored_events", version, fact)
    altered = fact["step"]

    verdict = verify_campaign(home, NAME, jobs=2)
    assert verdict.failure is not None
    assert f"step {altered} diverges" in verdict.failure
    assert verdict.segments > 2 and version > EVENTS // 2  # a middle segment's fact
    result = CliRunner().invoke(app, ["verify", NAME, "--jobs", "2", "--home", str(home)])
    assert isinstance(result.exception, Failure) and f"step {altered} diverges" in str(result.exception)


def test_a_snapshot_unlike_the_facts_before_it_fails_the_segment_that_ends_there(home):
    connection = sqlite3.connect(home / "campaigns.sqlite")
    versions = [v for (v,) in connection.execute("SELECT originator_version FROM stored_snapshots "
                                                 "ORDER BY originator_version")]
    connection.close()
    store = open_store(home)
    loader = ProjectionLoader(store)
    engine = loader.fresh(NAME).engine_version
    # The cut the plan makes nearest the middle: the snapshot a middle segment starts from.
    cut = loader.snapshot_version(NAME, engine, loader.length(NAME) * 4 // 8)
    store.close()
    assert cut in versions
    connection = sqlite3.connect(home / "campaigns.sqlite")
    (state,) = connection.execute("SELECT state FROM stored_snapshots WHERE originator_version = ?", (cut,)).fetchone()
    connection.close()
    snapshot = json.loads(state)
    data = json.loads(snapshot["data"])
    data["steps_resolved"] += 1
    snapshot["data"] = json.dumps(data, separators=(",", ":"))
    _store_fact(home, "stored_snapshots", cut, snapshot)

    verdict = verify_campaign(home, NAME, jobs=2)
    assert verdict.failure is not None
    assert f"the replay up to log version {cut}" in verdict.failure
    assert "does not end on the stored snapshot" in verdict.failure


def test_a_rollback_across_the_cuts_verifies_in_parallel_as_in_one_replay(home):
    from datetime import timedelta

    from pbem.core.gm import GameMaster
    from pbem.core.service import CampaignService
    from pbem.tools.replay_bench import _orders_for

    clock = _Clock()
    clock.now += timedelta(days=3650)  # after every deadline the bench campaign set
    service = CampaignService(open_store(home), clock=clock)
    history = service.loader.load(NAME, use_snapshots=False)
    # Back before two snapshots: the facts they were taken on are superseded, not deleted.
    back_to = [r for r in history.resolved if r.version < EVENTS - 250][-1].step
    GameMaster(service).rollback(NAME, back_to, "a disputed turn")
    n = 0
    while service.live(NAME).data.version < EVENTS + 250:
        n += 1
        for player, text in _orders_for(service, n):
            service.submit(NAME, player, text)
    service.store.close()

    verdict = verify_campaign(home, NAME, jobs=2)
    assert verdict.failure is None
    assert (verdict.steps, verdict.last_hash) == serial_hash(home)
