"""Campaign logs as pbem wrote them before its facts had versions: every fact of a
class with a `class_version` is stored again in its version 1 shape (records as plain
objects, no `class_version`, StepOpened without whom and which decisions it waits for),
so a test can check that such a log still loads and replays the same."""

from __future__ import annotations

import msgspec
from eventsourcing.persistence import StoredEvent

from pbem.core.campaign import Campaign
from pbem.core.store import CampaignStore, open_store

# What version 1 of each versioned fact lacked.
_ADDED_SINCE_V1 = {"StepOpened": ("players", "requests")}


def as_written_before(store: CampaignStore) -> CampaignStore:
    """A new in-memory store holding `store`'s facts in their version 1 shapes."""
    assert store.mapper.compressor is None and store.mapper.cipher is None
    old = open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    transcoder = store.mapper.transcoder
    stored = []
    for notification in store.recorder.select_notifications(start=1, limit=1_000_000):
        state = transcoder.decode(notification.state)
        if state.pop("class_version", 1) > 1:
            state = {key: _plain(value) for key, value in state.items()}
            name = notification.topic.rpartition(".")[2]
            for key in _ADDED_SINCE_V1.get(name, ()):
                del state[key]
        stored.append(StoredEvent(notification.originator_id, notification.originator_version,
                                  notification.topic, transcoder.encode(state)))
    old.recorder.insert_events(stored)
    return old


def _plain(value: object) -> object:
    """Typed records back to the plain objects version 1 stored."""
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def versioned_facts() -> list[str]:
    """The names of `Campaign`'s facts past version 1 (each must be covered above or be
    downgraded by turning its records back into plain objects)."""
    return sorted(name for name, value in vars(Campaign).items()
                  if isinstance(value, type) and getattr(value, "class_version", 1) > 1)
