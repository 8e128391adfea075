"""The demo campaign's log as pbem wrote it before its facts had versions (upcast by the
event store's library as it is read) replays to the same state hashes."""

from __future__ import annotations

from campaigns import play

from pbem.core.store import ProjectionLoader

from tests.support.old_logs import as_written_before


def test_the_demo_written_before_facts_had_versions_replays_to_the_same_hashes():
    played = play("demo")
    live = played.projection()
    replayed = ProjectionLoader(as_written_before(played.service.store)).load(played.name, use_snapshots=False)
    assert replayed.divergences == []
    assert replayed.data.last_hash == live.data.last_hash
    assert live.data.last_hash.startswith("e14ec22c")
    assert [r.state_hash for r in replayed.resolved] == [r.recorded_hash for r in replayed.resolved]
