"""The daemon under the faults a long campaign meets (issue "The daemon under operational
faults"): junk in the Maildir, a handler that fails on one mail, a full outbox disk while
mail keeps arriving, one campaign whose clock fails."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from datetime import timedelta
from functools import partial
from pathlib import Path

from pbem.app import _copy_sqlite, build_service
from pbem.core.inbox import handle_mail
from pbem.mail.daemon import Daemon, run
from pbem.mail.envelope import parse_mail
from pbem.mail.intake import Intake
from pbem.mail.outbox import Outbox
from pbem.mail.sources import IncomingMail
from pbem.mail.maildir import UNREADABLE, ensure_maildir
from pbem.mail.settings import load_settings
from tests.mail.campaign import create_campaign
from tests.mail.fakes import RecordingHandler, player_mail
from tests.mail.test_daemon_failures import FullDisk, daemon_thread

ROOT = Path(__file__).resolve().parents[2]


def test_junk_in_the_inbox_is_set_aside_named_and_never_blocks_the_mail_behind_it(tmp_path: Path, caplog) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    (inbox / "new" / "0.folder").mkdir()  # sorted first, so it stands in front of the mail
    os.symlink(tmp_path / "gone", inbox / "new" / "1.dangling")
    (inbox / "new" / "2.M1.host").write_bytes(player_mail(1))
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    handler = RecordingHandler(tmp_path / "f.sqlite3")
    with caplog.at_level(logging.INFO, logger="pbem"):
        stats = run(settings, handler, once=True)
    assert stats.failed == "" and stats.received == 1
    assert [fact[0] for fact in handler.facts()] == ["<orders-1@players.test>"]
    assert list((inbox / "new").iterdir()) == [], "nothing left in new/ to wake the daemon again and again"
    assert sorted(p.name for p in (inbox / UNREADABLE).iterdir()) == ["0.folder", "1.dangling"]
    named = {r.pbem_fields["entry"] for r in caplog.records if r.getMessage() == "source.unreadable"}
    assert named == {"0.folder", "1.dangling"}


def test_an_entry_set_aside_twice_under_one_name_keeps_both(tmp_path: Path) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    for _ in range(2):
        (inbox / "new" / "junk").mkdir()
        assert run(settings, RecordingHandler(tmp_path / "f.sqlite3"), once=True).failed == ""
    assert sorted(p.name for p in (inbox / UNREADABLE).iterdir()) == ["junk", "junk.1"]


def test_pbem_health_names_the_entries_set_aside(tmp_path: Path) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    (inbox / "new" / "junk").mkdir()
    run(load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"}), RecordingHandler(tmp_path / "f.sqlite3"), once=True)
    (tmp_path / "daemon.heartbeat").touch()
    result = subprocess.run([sys.executable, "-m", "pbem", "health", "--home", str(tmp_path)], capture_output=True,
                            text=True, cwd=ROOT, timeout=120, env={**os.environ, "PBEM_FROM": "gm@pbem.test"})
    assert result.returncode == 0, result.stderr
    assert str(inbox / UNREADABLE) in result.stdout


def test_the_send_back_off_holds_while_mail_keeps_arriving(tmp_path: Path, caplog) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.05"})
    daemon = Daemon(settings, RecordingHandler(tmp_path / "f.sqlite3"), sink=FullDisk(), task_retries=3,
                    backoff_base=0.4)
    with caplog.at_level(logging.INFO, logger="pbem"):
        thread, result = daemon_thread(daemon)
        number = 0
        while thread.is_alive() and number < 400:  # a player's mail every 20 ms, each with a reply to send
            number += 1
            (inbox / "new" / f"{number}.M1.host").write_bytes(player_mail(number))
            time.sleep(0.02)
        thread.join(timeout=20)
    failed = [r.created for r in caplog.records if r.getMessage() == "task.failed" and r.pbem_fields["task"] == "send"]
    assert len(failed) == 3 and "send failed 3 time(s)" in result[0].failed
    gaps = [later - earlier for earlier, later in zip(failed, failed[1:])]
    assert gaps[0] >= 0.4 - 0.02 and gaps[1] >= 0.8 - 0.02, f"each back-off waited out in full: {gaps}"


class FailsAtFirst(RecordingHandler):
    """The service failing on one mail (a broken template, say) a few times, then mended."""

    def __init__(self, path: Path, message_id: str, times: int) -> None:
        super().__init__(path)
        self.message_id, self.left = message_id, times

    def __call__(self, envelope):  # type: ignore[no-untyped-def]
        if envelope.message_id == self.message_id and self.left > 0:
            self.left -= 1
            raise RuntimeError("tempalte_field")
        return super().__call__(envelope)


def test_a_mail_the_handler_failed_on_is_retried_and_its_senders_later_mail_waits_behind_it(
        tmp_path: Path, caplog) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    (inbox / "new" / "1.M1.host").write_bytes(player_mail(1))
    (inbox / "new" / "2.M1.host").write_bytes(player_mail(2))  # the same player's correction
    (inbox / "new" / "3.M1.host").write_bytes(player_mail(3, sender="eng@pbem.test"))
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.05"})
    handler = FailsAtFirst(tmp_path / "f.sqlite3", "<orders-1@players.test>", times=2)
    daemon = Daemon(settings, handler, backoff_base=0.1)
    with caplog.at_level(logging.INFO, logger="pbem"):
        thread, _ = daemon_thread(daemon)
        limit = time.monotonic() + 20
        while daemon.stats.received < 3 and time.monotonic() < limit:
            time.sleep(0.05)
        daemon.stop()
        thread.join(timeout=10)
    handled = [fact[0] for fact in handler.facts()]
    assert handled == ["<orders-3@players.test>", "<orders-1@players.test>", "<orders-2@players.test>"], \
        "another player's mail goes on; the failed mail is retried without a restart, before its sender's next"
    held = [r.pbem_fields for r in caplog.records if r.getMessage() == "mail.held"]
    assert [(h["sender"], h["failures"]) for h in held] == [("fra@pbem.test", 1), ("fra@pbem.test", 2)]
    assert list((inbox / "new").iterdir()) == []


def test_one_campaigns_broken_template_holds_only_its_own_clock(tmp_path: Path) -> None:


    create_campaign(tmp_path, "ratio-demo")
    service = create_campaign(tmp_path, "ratio-two")
    own = tmp_path / "templates" / "ratio-demo"
    own.mkdir(parents=True)
    (own / "report.txt.j2").write_text("{{ tempalte_field }}\n")  # the GM's misspelt field
    failures: list[tuple[str, str, float]] = []
    later = service.clock() + timedelta(days=30)
    outcomes = service.tick(later, on_failure=lambda name, error, retry_in: failures.append((name, str(error), retry_in)))
    assert [o.campaign for o in outcomes] == ["ratio-two"], "the other campaign's deadline passed and was reported"
    assert [(name, retry_in) for name, _, retry_in in failures] == [("ratio-demo", 1.0)]
    assert "tempalte_field" in failures[0][1]
    assert service.tick(later, on_failure=lambda *failure: failures.append(failure)) == [], "held: not tried again"
    assert len(failures) == 1
    (own / "report.txt.j2").unlink()
    outcomes = service.tick(later + timedelta(seconds=2), on_failure=lambda *failure: failures.append(failure))
    assert [o.campaign for o in outcomes] == ["ratio-demo"] and len(failures) == 1, "mended, its clock runs again"


def pbem_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *args, "--home", str(home)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_a_backup_whose_mail_state_is_newer_than_its_store_is_refused_by_restore(tmp_path: Path) -> None:
    """The pair the old order could copy: the store copied, then a mail handled, then the
    mail state copied — the mail marked processed, its orders not in the copied store."""

    home, stale = tmp_path / "home", tmp_path / "stale"
    create_campaign(home)
    stale.mkdir()
    _copy_sqlite(home / "campaigns.sqlite", stale / "campaigns.sqlite")
    settings = load_settings(home, {"PBEM_FROM": "gm@pbem.test"})
    outbox = Outbox(settings.state_path)
    service = build_service(home, from_address="gm@pbem.test")
    assert Intake(settings, partial(handle_mail, service), outbox, time.time).process(
        IncomingMail("maildir:1.M1.host", player_mail(1, body="SIGNON fra ratio-demo s3cret\nSIGNOFF\n"), "1"))
    outbox.close()
    _copy_sqlite(home / "mail.sqlite3", stale / "mail.sqlite3")

    refused = pbem_cli("restore", str(stale), home=tmp_path / "restored")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "<orders-1@players.test>" in refused.stderr and "--forget-unrecorded" in refused.stderr
    assert not (tmp_path / "restored" / "campaigns.sqlite").exists(), "nothing restored"

    forgiven = pbem_cli("restore", str(stale), "--forget-unrecorded", home=tmp_path / "restored")
    assert forgiven.returncode == 0, forgiven.stderr
    restored = Outbox(tmp_path / "restored" / "mail.sqlite3")
    assert not restored.is_processed("maildir:1.M1.host"), "read again when the mailbox offers it"
    restored.close()


def test_backups_taken_while_the_daemon_writes_restore_whole(tmp_path: Path) -> None:

    home = tmp_path / "home"
    create_campaign(home)
    inbox = ensure_maildir(home / "mail" / "inbox")
    settings = load_settings(home, {"PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.05"})


    daemon = Daemon(settings, partial(handle_mail, build_service(home, from_address="gm@pbem.test")))
    thread, _ = daemon_thread(daemon)
    try:
        for number in range(1, 7):
            for mail in range(3):
                (inbox / "new" / f"{number}-{mail}.M1.host").write_bytes(player_mail(number * 10 + mail))
            backup = pbem_cli("backup", str(tmp_path / f"backup{number}"), home=home)
            assert backup.returncode == 0, backup.stderr
    finally:
        daemon.stop()
        thread.join(timeout=30)
    for number in range(1, 7):
        restored = pbem_cli("restore", str(tmp_path / f"backup{number}"), home=tmp_path / f"restored{number}")
        assert restored.returncode == 0, restored.stderr
        assert "checked: every mail marked handled is in the campaign store" in restored.stdout


def dispositions(home: Path) -> dict[str, str]:
    outbox = Outbox(home / "mail.sqlite3")
    try:
        return dict(outbox._db.execute("SELECT source_key, disposition FROM processed"))
    finally:
        outbox.close()


def test_a_mail_handled_again_after_a_crash_is_handled_and_a_second_delivery_a_duplicate(tmp_path: Path) -> None:
    service = create_campaign(tmp_path)
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    handler = partial(handle_mail, service)
    raw = player_mail(1, body="SIGNON fra ratio-demo s3cret\nSIGNOFF\n")
    handler(parse_mail(raw, source_key="maildir:1.M1.host"))  # recorded; the kill fell before the mail state
    outbox = Outbox(settings.state_path)
    intake = Intake(settings, handler, outbox, time.time)
    assert intake.process(IncomingMail("maildir:1.M1.host", raw, "1"))  # after the restart
    assert intake.process(IncomingMail("maildir:2.M1.host", raw, "2"))  # the same mail delivered twice
    outbox.close()
    assert dispositions(tmp_path) == {"maildir:1.M1.host": "handled", "maildir:2.M1.host": "duplicate"}
