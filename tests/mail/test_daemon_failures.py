"""The daemon under failures (issue 13): a deadline's reports survive a kill between the
clock's commit and the outbox; a failing task is logged at once, retried with back-off,
and past its limit stops the whole daemon (never half alive); a GM command's
announcements leave while the daemon is idle."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import timedelta
from functools import partial
from pathlib import Path


from pbem.app import build_service, queue_mail
from pbem.core.dispatch import pending_dispatches
from pbem.core.gm import GameMaster
from pbem.core.messages import OutgoingMail
from pbem.mail.daemon import Daemon, run
from pbem.mail.maildir import ensure_maildir
from pbem.mail.outbox import Outbox
from pbem.mail.settings import load_settings
from tests.mail.campaign import create_campaign
from tests.mail.fakes import RecordingHandler, player_mail


def outbox_keys(home: Path) -> set[str]:
    outbox = Outbox(home / "mail.sqlite3")
    try:
        return {row[0] for row in outbox._db.execute("SELECT key FROM outbox")}
    finally:
        outbox.close()


def test_a_deadlines_reports_are_sent_even_when_a_kill_fell_before_they_were_queued(tmp_path: Path) -> None:
    service = create_campaign(tmp_path)
    later = service.clock() + timedelta(days=30)
    lost = [mail for outcome in service.tick(later) for mail in outcome.mail]  # the kill: never queued
    assert any(m.key.startswith("report:") for m in lost)
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    restarted = build_service(tmp_path, from_address="gm@pbem.test")
    run(settings, RecordingHandler(tmp_path / "f.sqlite3"), once=True, relay=partial(pending_dispatches, restarted.store))
    assert {m.key for m in lost} <= outbox_keys(tmp_path)
    relayed, _ = pending_dispatches(restarted.store, 0, limit=10_000)
    texts = {m.key: m.text for m in relayed}
    assert all(texts[m.key] == m.text for m in lost), "the reports sent are the ones rendered at the deadline"


def sent_announcements(home: Path) -> list[str]:
    outbox = Outbox(home / "mail.sqlite3")
    try:
        return [row[0] for row in outbox._db.execute("SELECT key FROM outbox WHERE key LIKE 'gm:%' AND status = 'sent'")]
    finally:
        outbox.close()


def daemon_thread(daemon: Daemon) -> tuple[threading.Thread, list]:
    result: list = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(daemon.run(once=False))), daemon=True)
    thread.start()
    return thread, result


def test_a_failing_clock_is_logged_at_once_retried_and_mail_is_still_read(tmp_path: Path, caplog) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    failures = []

    def on_tick(now):  # fails twice (a misspelt template, say), then works
        if len(failures) < 2:
            failures.append(now)
            raise KeyError("tempalte_field")
        return []

    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.1"})
    daemon = Daemon(settings, RecordingHandler(tmp_path / "f.sqlite3"), on_tick=on_tick, backoff_base=0.05)
    with caplog.at_level(logging.INFO, logger="pbem"):
        thread, result = daemon_thread(daemon)
        (inbox / "new" / "1.M1.host").write_bytes(player_mail(1))
        limit = time.monotonic() + 10
        while (len(failures) < 2 or daemon.stats.received < 1) and time.monotonic() < limit:
            time.sleep(0.05)
        daemon.stop()
        thread.join(timeout=10)
    assert result and result[0].failed == "" and result[0].received == 1
    logged = [r for r in caplog.records if r.getMessage() == "task.failed"]
    assert len(logged) == 2 and logged[0].pbem_fields["task"] == "tick"
    assert "tempalte_field" in logged[0].pbem_fields["error"]


class FullDisk:
    async def send(self, mail, from_address):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    async def close(self) -> None:
        pass


def test_a_task_that_keeps_failing_stops_the_daemon_with_the_reason(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.1"})
    queue_mail(tmp_path, [OutgoingMail(key="report:x:1:fra", to="fra@pbem.test", subject="s", text="t\n")])
    daemon = Daemon(settings, RecordingHandler(tmp_path / "f.sqlite3"), sink=FullDisk(), task_retries=3,
                    backoff_base=0.05)
    thread, result = daemon_thread(daemon)
    thread.join(timeout=20)
    assert not thread.is_alive(), "the daemon stopped whole"
    assert "send failed 3 time(s)" in result[0].failed and "No space left" in result[0].failed


def test_a_failure_in_a_single_pass_is_reported_not_raised(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    queue_mail(tmp_path, [OutgoingMail(key="report:x:1:fra", to="fra@pbem.test", subject="s", text="t\n")])
    daemon = Daemon(settings, RecordingHandler(tmp_path / "f.sqlite3"), sink=FullDisk())
    stats = asyncio.run(daemon.run(once=True))
    assert stats.failed.startswith("send failed 1 time(s)")


def test_a_gm_commands_announcements_leave_while_the_daemon_is_idle(tmp_path: Path) -> None:
    create_campaign(tmp_path)
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.2",
                                        "PBEM_TICK_SECONDS": "3600"})
    service = build_service(tmp_path, from_address="gm@pbem.test")
    daemon = Daemon(settings, RecordingHandler(tmp_path / "f.sqlite3"),
                    relay=partial(pending_dispatches, service.store))
    thread, _ = daemon_thread(daemon)
    try:
        time.sleep(0.5)
        # The GM's command line, in its own process as far as the store knows; it queues nothing itself here.
        GameMaster(build_service(tmp_path, from_address="gm@pbem.test")).pause("ratio-demo", "a holiday")
        limit = time.monotonic() + 5
        while len(sent_announcements(tmp_path)) < 2 and time.monotonic() < limit:
            time.sleep(0.05)
        assert len(sent_announcements(tmp_path)) == 2, "both players told within a poll interval"
    finally:
        daemon.stop()
        thread.join(timeout=10)
