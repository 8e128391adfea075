"""The event store: an `eventsourcing` application holding every campaign's facts, and
the loading of projections from it with snapshots (DESIGN §3, §9).

Persistence follows the library's own settings: SQLite in the campaign home by
default, `PERSISTENCE_MODULE=eventsourcing.postgres` with `POSTGRES_*` for PostgreSQL,
and in-memory (`eventsourcing.popo`) for unit tests.

Projection snapshots are stored through the library's snapshot store, under an id
derived from the campaign and the engine version, at the log version they cover: a
newer engine never trusts an older engine's snapshot, and loading costs the events
after the newest snapshot, not the campaign's length.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from itertools import chain
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import JSONTranscoder, PersistenceError
from eventsourcing.utils import get_topic

from pbem.core import ruleset as rulesets
from pbem.core.campaign import TRANSCODINGS, Campaign, DiceVault, InboundMail, campaign_id
from pbem.core.projection import CampaignProjection, ProjectionData, decode_snapshot, encode_snapshot

SNAPSHOT_EVERY = 100
# Facts a fold reads at a time. Records read in bulk outlive the collector's young
# generations and land in the old one, which it then walks again and again: a 100,000-fact
# replay spent 0.25 s collecting with the log read whole, 0.09 s with pages of 2,000 and
# almost nothing with pages of 200, which are also read the fastest.
FOLD_PAGE = 200
TABLE_CREATION_ATTEMPTS = 5


class CampaignNotFound(Exception):
    def __init__(self, name: str):
        super().__init__(f"no campaign named {name!r} (see `pbem list`)")
        self.name = name


class HomeNotFound(Exception):
    """A command that only reads or changes campaigns was pointed at a home that has none."""

    def __init__(self, home: Path):
        super().__init__(f"no pbem home at {home} (no campaigns.sqlite there; nothing was created): give "
                         "--home DIR or PBEM_HOME, or create a campaign with `pbem new`")


@dataclass(frozen=True)
class ProjectionSnapshot(DomainEvent):
    """A projection as it stood at `originator_version` of the campaign's log."""

    engine: str
    data: str


class StoreDamaged(Exception):
    """The store cannot be read: a truncated or emptied file, a half-copied backup."""

    def __init__(self, where: str, detail: str):
        super().__init__(f"the store {where} is damaged ({detail}); restore it from a backup "
                         "(`pbem backup` makes one while the daemon runs)")


class CampaignStore(Application):
    """All campaigns of one home."""

    name = "pbem"
    snapshotting_intervals = {Campaign: 200}

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env=env)
        self._leases = threading.local()

    @property
    def on_postgres(self) -> bool:
        return type(self.factory).__module__ == "eventsourcing.postgres"

    @contextmanager
    def lease(self, name: str) -> Iterator[None]:
        """Hold campaign `name` for one piece of work. On PostgreSQL an advisory lock, so
        several workers never adjudicate one campaign at the same time (a stale save would
        be refused anyway: this spares the wasted work); on SQLite one daemon writes a
        home (`pbem run` locks it) and the file lock orders the rest."""
        held = self._leases.__dict__.setdefault("names", set())
        if not self.on_postgres or name in held:
            yield
            return
        key = int.from_bytes(campaign_id(name).bytes[:8], "big", signed=True)
        with self.recorder.datastore.get_connection() as connection:  # type: ignore[attr-defined]
            connection.execute("SELECT pg_advisory_lock(%s)", (key,))
            held.add(name)
            try:
                yield
            finally:
                held.discard(name)
                connection.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for transcoding in TRANSCODINGS:
            transcoder.register(transcoding)


def default_home() -> Path:
    return Path(os.environ.get("PBEM_HOME", "pbem-home"))


def open_store(home: Path | None = None, env: dict[str, str] | None = None, *, create: bool = True) -> CampaignStore:
    """The store of a home: SQLite in the home unless the environment says otherwise.
    A damaged SQLite file raises `StoreDamaged`; without `create`, a home with no store
    raises `HomeNotFound` rather than being made."""
    settings = dict(env or {})
    persistence = settings.get("PERSISTENCE_MODULE") or os.environ.get("PERSISTENCE_MODULE")
    if persistence:
        return _create_tables_once(settings)
    home = home or default_home()
    path = home / "campaigns.sqlite"
    if not create and not path.exists():
        raise HomeNotFound(home)
    home.mkdir(parents=True, exist_ok=True)
    check_sqlite_file(path)
    settings["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    settings["SQLITE_DBNAME"] = str(path)
    settings.setdefault("SQLITE_LOCK_TIMEOUT", "30")
    try:
        return CampaignStore(env=settings)
    except PersistenceError as error:
        raise StoreDamaged(str(path), str(error)) from None


def check_sqlite_file(path: Path) -> None:
    """Refuse a store file pbem cannot have left: empty, or not SQLite, or cut short."""
    if not path.exists():
        return
    size = path.stat().st_size
    if size == 0:
        raise StoreDamaged(str(path), "the file is empty")
    with open(path, "rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        raise StoreDamaged(str(path), "not an SQLite database")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big") if header[24:28] == header[92:96] else 0
    wal = path.with_name(path.name + "-wal")
    # Without a write-ahead log to complete it, the file must hold every page its header counts.
    if pages and size < pages * page_size and not (wal.exists() and wal.stat().st_size):
        raise StoreDamaged(str(path), f"{size} bytes where its header counts {pages * page_size}")


def store_damage(error: Exception) -> str | None:
    """What to tell the user when reading the store failed because its file is damaged
    (found only when the damaged page is read); None for any other failure."""
    text = str(error)
    if any(sign in text for sign in ("malformed", "file is not a database", "disk image")):
        return str(StoreDamaged("of this home", text))
    return None


def _create_tables_once(settings: dict[str, str]) -> CampaignStore:
    """Open a shared store (PostgreSQL): workers starting together race to create its
    tables (PostgreSQL answers the loser `tuple concurrently updated`); the tables exist
    once one of them won, so the others try again."""
    for attempt in range(1, TABLE_CREATION_ATTEMPTS):
        try:
            return CampaignStore(env=settings)
        except PersistenceError:
            time.sleep(0.05 * attempt)
    return CampaignStore(env=settings)


def snapshot_id(name: str, engine: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"pbem:projection:{name}:{engine}")


class ProjectionLoader:
    """Builds a campaign's projection from snapshots and facts, honouring rollbacks."""

    def __init__(self, store: CampaignStore):
        self.store = store

    def campaign_events(self, name: str, *, gt: int | None = None, lte: int | None = None) -> Iterator[Any]:
        """The campaign's facts after log version `gt` up to `lte`, read `FOLD_PAGE` at a time
        (the way a replay reads them, and the floor `pbem bench replay` measures it against)."""
        originator = campaign_id(name)
        while True:
            read = 0
            for event in self.store.events.get(originator, gt=gt, lte=lte, limit=FOLD_PAGE):
                read += 1
                gt = event.originator_version
                yield event
            if read < FOLD_PAGE:
                return

    def created(self, name: str) -> Any:
        first = next(self.campaign_events(name, lte=1), None)
        if first is None:
            raise CampaignNotFound(name)
        return first

    def secret(self, name: str) -> bytes:
        vault = self.store.repository.get(DiceVault.create_id(name))
        return bytes.fromhex(vault.secret)

    def fresh(self, name: str, created: Any | None = None) -> CampaignProjection:
        created = created or self.created(name)
        ruleset = rulesets.load(created.ruleset)
        scenario = ruleset.load_scenario(created.scenario)
        data = ProjectionData(campaign=created.name, ruleset=created.ruleset, options=dict(created.options),
                              settings=dict(created.settings), commitment=created.dice_commitment)
        projection = CampaignProjection(ruleset, scenario, data, self.secret(name))
        projection.apply(created)
        return projection

    def length(self, name: str) -> int:
        """The log version of the campaign's last fact (how many facts a full replay folds)."""
        last = next(self.store.events.get(campaign_id(name), desc=True, limit=1), None)
        if last is None:
            raise CampaignNotFound(name)
        return last.originator_version

    def load(self, name: str, *, upto: int | None = None, use_snapshots: bool = True,
             history: bool = True, history_from: int | None = None,
             on_fact: Callable[[int], None] | None = None, unsaved: Iterable[Any] = ()) -> CampaignProjection:
        """The projection after the facts up to `upto` (all by default); with `history`
        it keeps every step it resolves on the way (for replays and reports), from log
        version `history_from` on when given (it starts from a snapshot no later).
        `on_fact` hears the log version of each fact folded (a long replay's progress).
        `unsaved` facts follow the stored ones (a session's, rendering its mail before
        it saves); those already stored are skipped."""
        created = self.created(name)
        projection = self.fresh(name, created)
        projection.keep_history = history
        if use_snapshots:
            start = upto if history_from is None else min(history_from, upto if upto is not None else history_from)
            snapshot = self._newest_snapshot(name, projection.engine_version, start)
            if snapshot is not None:
                projection.reset(decode_snapshot(snapshot.data.encode()))
                projection.history_from = projection.data.version
        self._fold(projection, name, upto, use_snapshots, on_fact, unsaved)
        projection.loaded_version = projection.data.version
        return projection

    def _fold(self, projection: CampaignProjection, name: str, upto: int | None, use_snapshots: bool,
              on_fact: Callable[[int], None] | None = None, unsaved: Iterable[Any] = ()) -> None:
        for event in chain(self.campaign_events(name, gt=projection.data.version, lte=upto), unsaved):
            if event.originator_version <= projection.data.version:
                continue
            if upto is not None and event.originator_version > upto:
                break
            if on_fact is not None:
                on_fact(event.originator_version)
            if isinstance(event, Campaign.RolledBack):
                # Facts after the rollback point are superseded, never deleted.
                earlier = self.load(name, upto=event.to_version, use_snapshots=use_snapshots,
                                    history=projection.keep_history)
                projection.reset(earlier.data)
                projection.resolved = [r for r in projection.resolved if r.version <= event.to_version]
                projection.divergences = [d for d in projection.divergences if d.version <= event.to_version]
                projection.data.version = event.originator_version
                continue
            projection.apply(event)

    def _newest_snapshot(self, name: str, engine: str, upto: int | None) -> ProjectionSnapshot | None:
        if self.store.snapshots is None:
            return None
        return next(self.store.snapshots.get(snapshot_id(name, engine), lte=upto, desc=True, limit=1), None)

    def save_snapshot(self, projection: CampaignProjection) -> None:
        if self.store.snapshots is None:
            return
        snapshot = ProjectionSnapshot(
            originator_id=snapshot_id(projection.data.campaign, projection.engine_version),
            originator_version=projection.data.version,
            timestamp=datetime.now(timezone.utc),
            engine=projection.engine_version,
            data=encode_snapshot(projection.data).decode(),
        )
        self.store.snapshots.put([snapshot])


def campaign_names(store: CampaignStore) -> list[str]:
    """Every campaign in the store, in the order they were created."""
    return [event.name for event in _every(store, Campaign.Created)]


def recorded_message_ids(store: CampaignStore) -> set[str]:
    """The Message-ID of every mail any campaign of the store recorded."""
    return {event.message_id for event in _every(store, InboundMail.Received)}


def _every(store: CampaignStore, event_class: type) -> Iterator:
    """Every stored event of one class, across the campaigns, in the order recorded."""
    topic = get_topic(event_class)
    start = 1
    while batch := store.recorder.select_notifications(start=start, limit=500, topics=[topic]):
        for notification in batch:
            yield store.mapper.to_domain_event(notification)
        start = batch[-1].id + 1
