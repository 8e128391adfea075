"""The mail state in the campaigns' PostgreSQL database (issue "The daemon under
operational faults": workers on several hosts): the outbox keeps its contract there, two
homes on two machines — here two homes on this one — share one campaign store and one
mailbox with no mail handled twice and none sent twice, and a home's SQLite mail state
moves into PostgreSQL without losing a queued reply."""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from pbem.app import build_service, serve
from pbem.core.datafile import load_data_file
from pbem.core.inbox import handle_mail
from pbem.mail.daemon import Daemon
from pbem.mail.maildir import ensure_maildir
from pbem.mail.outbox import Outbox, QueuedMail
from pbem.mail.settings import load_settings
from tests.mail.campaign import PLAYERS, REPO
from tests.mail.fakes import player_mail
from tests.mail.test_daemon_failures import daemon_thread
from tests.support.postgres import postgres_env


@pytest.fixture
def postgres(monkeypatch) -> dict[str, str]:
    env = postgres_env()
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def reply(key: str) -> QueuedMail:
    return QueuedMail(key, "fra@pbem.test", f"<{key}@pbem.test>", b"Subject: r\r\n\r\nbody\r\n")


def test_the_outbox_keeps_its_contract_in_postgresql(tmp_path: Path, postgres) -> None:
    settings = load_settings(tmp_path, {**postgres, "PBEM_FROM": "gm@pbem.test"})
    assert settings.mail_state == {"host": postgres["POSTGRES_HOST"], "port": postgres["POSTGRES_PORT"],
                                   "dbname": postgres["POSTGRES_DBNAME"], "user": postgres["POSTGRES_USER"],
                                   "password": postgres["POSTGRES_PASSWORD"]}
    first, second = Outbox(settings.mail_state, retry_base=10), Outbox(settings.mail_state)  # two homes
    first.commit_handled(source_key="imap:1:7", message_id="<a@p>", disposition="handled",
                         replies=[reply("receipt:x:1")], refusals=[("fra@pbem.test", "r1")], now=100.0)
    second.commit_handled(source_key="imap:1:7", message_id="<a@p>", disposition="duplicate",
                          replies=[reply("receipt:x:1")], refusals=[("fra@pbem.test", "r1")], now=101.0)
    assert second.is_processed("imap:1:7") and second.handled_mail() == [("imap:1:7", "<a@p>")]
    assert [m.key for m in second.due(200.0)] == ["receipt:x:1"], "one reply however often produced"
    assert second.due(200.0)[0].message == reply("receipt:x:1").message
    assert first.refusals_since("fra@pbem.test", 0) == 1
    assert first.mark_retry("receipt:x:1", 200.0, "421 busy") == 210.0 and second.next_due_at() == 210.0
    second.mark_sent("receipt:x:1", 211.0)
    assert first.due(300.0) == [] and first.counts() == {"sent": 1}
    first.enqueue([], now=1.0, relayed=40)
    second.enqueue([], now=1.0, relayed=30)  # a worker behind never moves the position back
    assert first.relayed() == 40
    first.forget_processed(["imap:1:7"])
    assert not second.is_processed("imap:1:7")
    first.close()
    second.close()


def test_two_homes_share_one_campaign_store_and_one_mailbox(tmp_path: Path, postgres, caplog) -> None:
    homes = [tmp_path / "host-a", tmp_path / "host-b"]
    build_service(homes[0], from_address="gm@pbem.test").create(
        "ratio-demo", "ratio-regis", load_data_file(REPO / "examples" / "ratio-regis" / "scenario.toml"), PLAYERS,
        secret=bytes(32))
    inbox = ensure_maildir(tmp_path / "mailbox")  # the one mailbox both hosts read
    sent = ensure_maildir(tmp_path / "sent")
    daemons = []
    for home in homes:
        settings = load_settings(home, {**postgres, "PBEM_FROM": "gm@pbem.test", "PBEM_POLL_SECONDS": "0.05",
                                        "PBEM_MAILDIR": str(inbox), "PBEM_OUTBOX_MAILDIR": str(sent)})
        daemons.append(Daemon(settings, partial(handle_mail, build_service(home, from_address="gm@pbem.test"))))
    mails = 24
    with caplog.at_level(logging.INFO, logger="pbem"):
        threads = [daemon_thread(daemon)[0] for daemon in daemons]
        for number in range(mails):  # delivered as a mail server does: written whole, then moved in
            (inbox / "tmp" / f"{number}.M1.host").write_bytes(player_mail(number, body=(
                f"SIGNON fra ratio-demo s3cret\nPRESS TO hug\nnote {number}\nENDPRESS\nSIGNOFF\n")))
            os.replace(inbox / "tmp" / f"{number}.M1.host", inbox / "new" / f"{number}.M1.host")
        state = Outbox(daemons[0].settings.mail_state)
        limit = time.monotonic() + 300
        while (len(state.handled_mail()) < mails or state.due(time.time() + 1)) and time.monotonic() < limit:
            time.sleep(0.1)
        handled = state.handled_mail()
        state.close()
        for daemon in daemons:
            daemon.stop()
        for thread in threads:
            thread.join(timeout=30)
    assert len(handled) == mails and len({m for _, m in handled}) == mails, "every mail handled, each once"
    assert list((inbox / "new").iterdir()) == [], "none stuck"
    keys = Counter(r.pbem_fields["key"] for r in caplog.records if r.getMessage() == "mail.sent")
    receipts = [key for key in keys if key.startswith("receipt:")]
    assert len(receipts) == mails and max(keys.values()) == 1, "every reply sent, none twice"
    senders = {r.threadName for r in caplog.records if r.getMessage() == "mail.sent"}
    assert len(senders) == 1, "one sender for every home sharing the mail state"


def test_a_homes_sqlite_mail_state_moves_into_postgresql_without_losing_a_reply(tmp_path: Path, postgres) -> None:
    local = Outbox(tmp_path / "mail.sqlite3")
    local.commit_handled(source_key="maildir:9", message_id="<m9@p>", disposition="handled",
                         replies=[reply("receipt:x:9")], refusals=[], now=5.0)
    local.close()
    build_service(tmp_path, from_address="gm@pbem.test")  # the campaigns already in PostgreSQL
    ensure_maildir(tmp_path / "mail" / "inbox")
    stats = serve(tmp_path, once=True)
    assert stats.failed == "" and stats.sent == 1, "the reply queued in the old file is sent"
    assert not (tmp_path / "mail.sqlite3").exists() and (tmp_path / "mail.sqlite3.moved").exists()
    moved = Outbox(load_settings(tmp_path).mail_state)
    assert moved.is_processed("maildir:9") and moved.counts() == {"sent": 1}
    moved.close()
