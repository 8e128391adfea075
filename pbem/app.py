"""The composition root: one place that wires the store, the service, the renderer
and the mail layer together, so the CLI, the daemon and the demo take the same path."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from pbem.core.dispatch import pending_dispatches
from pbem.core.inbox import handle_mail
from pbem.core.service import CampaignService, utc_now
from pbem.core.store import CampaignStore, StoreDamaged, default_home, open_store
from pbem.mail.daemon import RunStats
from pbem.mail.locks import FileLock

logger = logging.getLogger("pbem.app")


def home_dir(home: Path | None = None) -> Path:
    return Path(home) if home is not None else default_home()


def build_service(home: Path | None = None, *, from_address: str | None = None,
                  clock: Callable[[], datetime] = utc_now, create: bool = True) -> CampaignService:
    """The campaign service of a home, with the report renderer; without `create`, only of
    a home that has a store (`HomeNotFound` otherwise)."""
    from pbem.reports.renderer import MailRenderer

    home = home_dir(home)
    store = open_store(home, create=create)
    renderer = MailRenderer(from_address=from_address or os.environ.get("PBEM_FROM", "pbem@localhost"),
                            campaign_templates=home / "templates", boards=home / "boards")
    return CampaignService(store, renderer, clock)


def serve(directory: Path, *, once: bool = False, json_logs: bool = False, clock: Callable[[], datetime] = utc_now,
          tick_clock: Callable[[CampaignService], datetime] | None = None) -> RunStats:
    """`pbem run`: the mail daemon of a home with its campaigns' clock, holding the home.
    `clock` is the service's time, `tick_clock` the clock's (a bench's virtual time)."""
    from pbem.mail.daemon import run as run_daemon
    from pbem.mail.logs import configure_logging, log_event
    from pbem.mail.outbox import move_into
    from pbem.mail.settings import load_settings

    settings = load_settings(directory)
    configure_logging(as_json=json_logs)
    service = build_service(directory, from_address=settings.from_address, clock=clock)
    lock = claim_home(directory, service.store)
    if settings.postgres is not None and move_into(settings.state_path, settings.postgres):
        log_event(logger, "mail_state.moved", source=str(settings.state_path), to="postgresql")

    def clock_failed(campaign: str, error: Exception, retry_in: float) -> None:
        log_event(logger, "campaign.clock_failed", level=logging.ERROR, campaign=campaign,
                  error=f"{type(error).__name__}: {error}", retry_in=retry_in)

    def on_tick(now: datetime) -> list:
        outcomes = service.tick(tick_clock(service) if tick_clock else now, on_failure=clock_failed)
        return [mail for outcome in outcomes for mail in outcome.mail]

    try:
        return run_daemon(settings, partial(handle_mail, service), once=once, on_tick=on_tick,
                          relay=partial(pending_dispatches, service.store))
    finally:
        if lock is not None:
            lock.release()


def queue_mail(home: Path | None, mail: list) -> None:
    """Put outgoing mail in the home's outbox, for `pbem run` to send (exactly once by key)."""
    if not mail:
        return
    import time

    from pbem.mail.intake import queue_item
    from pbem.mail.outbox import Outbox
    from pbem.mail.settings import load_settings

    settings = load_settings(home_dir(home))
    now = time.time()
    Outbox(settings.mail_state).enqueue([queue_item(m, from_address=settings.from_address, now=now) for m in mail],
                                        now=now)


class HomeBusy(Exception):
    """Another daemon runs on this home."""


def claim_home(home: Path, store: CampaignStore) -> FileLock | None:
    """The lock a daemon holds on a home whose store is the SQLite file in it: a second
    daemon there would read the same mail and write the same campaigns. Several workers
    share one PostgreSQL store (a lease per campaign keeps them apart): no lock then."""
    if store.on_postgres:
        return None
    lock = FileLock(home / "daemon.lock")
    if not lock.try_acquire():
        holder = lock.holder()
        raise HomeBusy(f"another pbem daemon{f' (pid {holder})' if holder else ''} is running on {home}; "
                       "stop it first (one daemon per home; several workers need PostgreSQL: docs/gm-guide.md)")
    return lock


def backup_home(home: Path, destination: Path, store: CampaignStore) -> list[str]:
    """A consistent copy of the home's stores in `destination`, taken with SQLite's online
    backup API, so a running daemon may keep writing; what was done, one line each.

    The mail state is copied before the campaign store: a mail is recorded in the store
    before the mail state marks it processed, so every mail the copied mail state calls
    processed is in the store copied after it. (The other order could keep a mail marked
    processed whose orders the copied store lacks: restored, it would be skipped.)"""
    destination.mkdir(parents=True, exist_ok=True)
    done = []
    if store.on_postgres:  # the mail state lives in the same database
        return ["the campaigns and the mail state are in PostgreSQL: back them up with pg_dump "
                "(e.g. `pg_dump -Fc -d DBNAME -f pbem.dump`; restore with pg_restore)"]
    names = ["mail.sqlite3", "campaigns.sqlite"]
    for name in names:
        source_path = home / name
        if not source_path.exists():
            continue
        target_path = destination / name
        if target_path.exists():
            raise FileExistsError(f"{target_path} exists: back up into a new directory")
        _copy_sqlite(source_path, target_path)
        done.append(f"{source_path} -> {target_path} ({target_path.stat().st_size} bytes, integrity ok)")
    return done


def _copy_sqlite(source_path: Path, target_path: Path) -> None:
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(target_path)
    try:
        with target:
            source.backup(target)
        (check,) = target.execute("PRAGMA integrity_check").fetchone()
    finally:
        source.close()
        target.close()
    if check != "ok":
        raise StoreDamaged(str(source_path), check)


def unrecorded_mail(mail_state: Path, store: CampaignStore) -> list[tuple[str, str]]:
    """(source key, Message-ID) of each mail the mail state marks handled that the campaign
    store does not hold: a restored home would skip it as done though its orders are lost."""
    from pbem.core.store import recorded_message_ids
    from pbem.mail.outbox import Outbox

    outbox = Outbox(mail_state)
    try:
        handled = outbox.handled_mail()
    finally:
        outbox.close()
    recorded = recorded_message_ids(store)
    return [(key, message_id) for key, message_id in handled if message_id not in recorded]


def restore_home(backup: Path, home: Path, *, forget_unrecorded: bool = False) -> list[str]:
    """Copy a backup (`backup_home`'s directory) into `home`, which must hold no stores yet,
    after checking the pair: every mail the backup's mail state marks handled must be in its
    campaign store. A backup failing that is refused, naming the mails, unless
    `forget_unrecorded`: then those marks are dropped, so each of the mails is read again
    when the mailbox offers it."""
    for name in ("campaigns.sqlite", "mail.sqlite3"):
        if (home / name).exists():
            raise FileExistsError(f"{home / name} exists: restore into a home without stores (stop its daemon, "
                                  "move the old files aside)")
    if not (backup / "mail.sqlite3").exists():
        raise FileNotFoundError(f"{backup} holds no mail.sqlite3: is it a directory `pbem backup` wrote?")
    home.mkdir(parents=True, exist_ok=True)
    for name in ("mail.sqlite3", "campaigns.sqlite"):
        if (backup / name).exists():
            _copy_sqlite(backup / name, home / name)
    store = open_store(home)
    missing = unrecorded_mail(home / "mail.sqlite3", store)
    if missing and not forget_unrecorded:
        for name in ("campaigns.sqlite", "mail.sqlite3"):
            (home / name).unlink(missing_ok=True)
        listed = ", ".join(message_id for _, message_id in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise RestoreRefused(f"the backup's mail state marks {len(missing)} mail(s) handled that its campaign "
                             f"store lacks ({listed}): restored, they would be skipped and their orders lost. "
                             "Use a backup taken by this pbem (mail state first), or --forget-unrecorded to have "
                             "them read again when the mailbox offers them")
    lines = [f"{backup / name} -> {home / name}" for name in ("mail.sqlite3", "campaigns.sqlite")
             if (home / name).exists()]
    if missing:
        from pbem.mail.outbox import Outbox

        outbox = Outbox(home / "mail.sqlite3")
        try:
            outbox.forget_processed([key for key, _ in missing])
        finally:
            outbox.close()
        lines.append(f"{len(missing)} mail(s) the campaign store lacked will be read again when offered: "
                     + ", ".join(message_id for _, message_id in missing))
    lines.append("checked: every mail marked handled is in the campaign store")
    return lines


class RestoreRefused(Exception):
    """A backup whose mail state is newer than its campaign store."""
