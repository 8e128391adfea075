"""Nothing lost, nothing done twice: the daemon (with the real campaign service) is SIGKILLed
at random points while 200 mails arrive; after a final restart every mail was recorded once
and answered. SMTP gives no way to ask a server whether it already took a mail, so a kill
that falls between the server's "250 OK" and the outbox's commit sends that one mail again —
byte for byte, with the same Message-ID (`pbem.mail.sender`); nothing else may repeat."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pbem.mail.localservers import Dovecot, SmtpCapture
from tests.mail.campaign import create_campaign, recorded_mail
from tests.mail.fakes import player_mail
from tests.mail.mailbox import GM, deliver, folder_uids

pytestmark = [pytest.mark.dovecot, pytest.mark.slow]

MAILS = 200
REPO = Path(__file__).resolve().parents[2]


def start_daemon(home: Path, env: dict[str, str]) -> subprocess.Popen:
    with open(home / "daemon.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "pbem", "run", "--home", str(home)],  # as a supervisor runs it
            env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log,
        )


def test_sigkill_at_random_points_loses_nothing_and_resends_only_the_mail_in_flight(
        tmp_path: Path, gm_mailbox: Dovecot, smtp_capture: SmtpCapture) -> None:
    rng = random.Random(20250303)
    create_campaign(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO),
           "PBEM_IMAP_URL": gm_mailbox.url(GM), "PBEM_SMTP_URL": smtp_capture.url, "PBEM_FROM": GM,
           "PBEM_CA_FILE": str(gm_mailbox.cert), "PBEM_TICK_SECONDS": "5"}

    failures: list[BaseException] = []

    def arrive() -> None:  # 200 mails in 8 batches, spread over ~8 s
        try:
            for batch in range(8):
                deliver(gm_mailbox, *(player_mail(n) for n in range(batch * 25, batch * 25 + 25)))
                time.sleep(1.0)
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            failures.append(error)

    deliverer = threading.Thread(target=arrive, daemon=True)
    deliverer.start()
    kills = 0
    deadline = time.monotonic() + 60
    while (deliverer.is_alive() or kills < 8) and time.monotonic() < deadline:
        daemon = start_daemon(tmp_path, env)
        time.sleep(rng.uniform(0.3, 1.8))
        daemon.send_signal(signal.SIGKILL)
        daemon.wait(timeout=10)
        kills += 1
    deliverer.join(timeout=30)
    assert not failures, f"delivery failed: {failures[0]!r}"
    assert kills >= 8

    daemon = start_daemon(tmp_path, env)
    try:
        deadline = time.monotonic() + 60
        while len({mail.key for mail in smtp_capture.mails}) < MAILS and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)  # anything extra (a duplicate) would arrive now
    finally:
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=20) == 0, (tmp_path / "daemon.log").read_text()[-2000:]

    facts = recorded_mail(tmp_path)
    assert len(facts) == MAILS and len(set(facts)) == MAILS, "every mail recorded once"
    sent: dict[str, list] = {}
    for mail in smtp_capture.mails:
        sent.setdefault(mail.key, []).append(mail)
    resent = sorted(key for key, copies in sent.items() if len(copies) > 1)
    assert sum(len(copies) - 1 for copies in sent.values()) <= kills, f"more resends than kills: {resent}"
    assert all(len({copy.raw for copy in sent[key]}) == 1 for key in resent), "a resend differs from the first"
    assert len({copies[0].message_id for copies in sent.values()}) == len(sent), "one Message-ID per mail"
    receipts = [copies[0] for key, copies in sent.items() if key.startswith("receipt:")]
    assert len(receipts) == MAILS, "every mail answered"
    assert {mail.in_reply_to for mail in receipts} == {f"<orders-{n}@players.test>" for n in range(MAILS)}
    assert folder_uids(gm_mailbox, "INBOX") == {}
    assert len(folder_uids(gm_mailbox, "Processed")) == MAILS
