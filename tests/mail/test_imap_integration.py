"""The daemon against a real Dovecot (IMAP, IDLE, MOVE) and a real SMTP server (aiosmtpd)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from pbem.core.inbox import handle_mail
from pbem.mail.daemon import Daemon, run
from pbem.mail.imap import ImapSource, SourceError
from pbem.mail.localservers import Dovecot, SmtpCapture
from pbem.mail.settings import load_settings
from tests.mail.campaign import create_campaign, recorded_mail
from tests.mail.fakes import RecordingHandler, player_mail
from tests.mail.mailbox import GM, deliver, folder_uids

pytestmark = pytest.mark.dovecot


def settings_for(home: Path, dovecot: Dovecot, capture: SmtpCapture, **extra: str):
    env = {"PBEM_IMAP_URL": dovecot.url(GM), "PBEM_SMTP_URL": capture.url, "PBEM_FROM": GM,
           "PBEM_CA_FILE": str(dovecot.cert), **extra}
    return load_settings(home, env)


@contextmanager
def running(daemon: Daemon) -> Iterator[threading.Thread]:
    """The daemon's loop in a background thread; stopped (and joined) on exit."""
    thread = threading.Thread(target=lambda: asyncio.run(daemon.run(once=False)), daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        daemon.stop()
        thread.join(timeout=15)
        assert not thread.is_alive(), "the daemon did not stop within 15 s"


def test_player_mail_becomes_envelope_and_receipt(tmp_path: Path, gm_mailbox: Dovecot,
                                                  smtp_capture: SmtpCapture) -> None:
    service = create_campaign(tmp_path)
    reply_to_report = player_mail(1, body=(
        "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q1 AT Paris\nSIGNOFF\n\n"
        "On Mon, 3 Mar 2025, GM <gm@pbem.test> wrote:\n> FRA OLD ORDER FROM THE REPORT\n"))
    deliver(gm_mailbox, reply_to_report, player_mail(2, body="hello, no orders here\n"))
    stats = run(settings_for(tmp_path, gm_mailbox, smtp_capture), partial(handle_mail, service), once=True)
    assert (stats.received, stats.sent) == (2, 2)
    assert sorted(recorded_mail(tmp_path)) == ["<orders-1@players.test>", "<orders-2@players.test>"]
    mails = {m.in_reply_to: m for m in smtp_capture.wait_for(2, timeout=5)}
    receipt, refusal = mails["<orders-1@players.test>"], mails["<orders-2@players.test>"]
    assert receipt.key.startswith("receipt:ratio-demo:") and refusal.key.startswith("refusal:")
    assert b"FRA I BUILD TROOP Q1 AT Paris" in receipt.raw and b"OLD ORDER" not in receipt.raw
    assert receipt.recipients == refusal.recipients == ("fra@pbem.test",)
    assert folder_uids(gm_mailbox, "INBOX") == {}
    processed = folder_uids(gm_mailbox, "Processed")
    assert len(processed) == 2 and all(b"\\Seen" in flags for flags in processed.values())
    # A second pass finds nothing and sends nothing.
    assert run(settings_for(tmp_path, gm_mailbox, smtp_capture), partial(handle_mail, service), once=True).sent == 0
    assert len(smtp_capture.mails) == 2


def test_idle_picks_up_new_mail_at_once(tmp_path: Path, gm_mailbox: Dovecot, smtp_capture: SmtpCapture) -> None:
    # tick_seconds is long, so only IDLE (not a poll) can explain a fast pickup.
    settings = settings_for(tmp_path, gm_mailbox, smtp_capture, PBEM_TICK_SECONDS="600", PBEM_POLL_SECONDS="600")
    daemon = Daemon(settings, RecordingHandler(tmp_path / "facts.sqlite3"))
    with running(daemon):
        time.sleep(1.0)  # let it reach IDLE
        latencies = []
        for n in range(1, 6):
            start = time.time()
            deliver(gm_mailbox, player_mail(n))
            mail = smtp_capture.wait_for(n, timeout=10)[-1]
            latencies.append(mail.received_at - start)
            time.sleep(0.2)
    assert len(smtp_capture.mails) == 5
    assert max(latencies) < 2.0, latencies
    assert sorted(latencies)[2] < 1.0, latencies


def test_implicit_tls_and_starttls_with_ca_file(tmp_path: Path, gm_mailbox: Dovecot,
                                                smtp_capture: SmtpCapture) -> None:
    deliver(gm_mailbox, player_mail(7))
    for url in (gm_mailbox.url(GM, implicit_tls=True), gm_mailbox.url(GM)):
        settings = settings_for(tmp_path, gm_mailbox, smtp_capture, PBEM_IMAP_URL=url)
        source = ImapSource(settings.imap)  # type: ignore[arg-type]
        try:
            assert [m.source_key.split(":")[0] for m in source.fetch(10)] == ["imap"]
        finally:
            source.close()
    waiting = folder_uids(gm_mailbox, "INBOX")
    assert waiting and all(b"\\Seen" not in flags for flags in waiting.values())  # fetching marked nothing read


def test_untrusted_certificate_and_bad_password_are_clear_errors(tmp_path: Path, gm_mailbox: Dovecot,
                                                                 smtp_capture: SmtpCapture) -> None:
    untrusted = load_settings(tmp_path, {"PBEM_IMAP_URL": gm_mailbox.url(GM, implicit_tls=True)})
    with pytest.raises(SourceError, match="cannot connect|IMAP error"):
        ImapSource(untrusted.imap).fetch(1)  # type: ignore[arg-type]
    skip_verify = load_settings(tmp_path, {"PBEM_IMAP_URL": gm_mailbox.url(GM, implicit_tls=True),
                                           "PBEM_TLS_VERIFY": "false"})
    source = ImapSource(skip_verify.imap)  # type: ignore[arg-type]
    assert source.fetch(1) == []
    source.close()
    wrong = f"imap://gm%40pbem.test:wrong@127.0.0.1:{gm_mailbox.imap_port}/INBOX"
    settings = settings_for(tmp_path, gm_mailbox, smtp_capture, PBEM_IMAP_URL=wrong)
    with pytest.raises(SourceError) as error:
        ImapSource(settings.imap).fetch(1)  # type: ignore[arg-type]
    assert "login refused" in str(error.value) and "wrong" not in str(error.value)
