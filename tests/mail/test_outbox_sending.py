"""Outbox idempotency and back-off, composition of replies, and the sinks."""

from __future__ import annotations

import asyncio
import multiprocessing
from datetime import UTC
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP

from pbem.core.messages import Attachment, OutgoingMail
from pbem.mail.compose import compose, message_id_for
from pbem.mail.intake import queue_item
from pbem.mail.maildir import MaildirSink
from pbem.mail.outbox import Outbox, QueuedMail, backoff_seconds
from pbem.mail.sender import PermanentSendError, TransientSendError, drain
from pbem.mail.settings import load_settings
from pbem.mail.smtp import SmtpSink

GM = "gm@pbem.test"


def reply(key: str = "receipt:demo:1", **extra) -> OutgoingMail:  # type: ignore[no-untyped-def]
    return OutgoingMail(**{"key": key, "to": "fra@players.test", "subject": "Re: orders", "text": "Received.\n",
                           **extra})


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class FlakySink:
    """Fails with the given errors first, then accepts; records what it accepted."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.accepted: list[str] = []

    async def send(self, mail: QueuedMail, from_address: str) -> None:
        if self.errors:
            raise self.errors.pop(0)
        self.accepted.append(mail.key)

    async def close(self) -> None:
        pass


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_seconds(n, base=5, cap=3600) for n in range(1, 12)] == [5, 10, 20, 40, 80, 160, 320, 640, 1280,
                                                                            2560, 3600]


def test_the_same_key_enters_the_outbox_once(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "mail.sqlite3")
    first = queue_item(reply(), from_address=GM, now=1.0)
    again = queue_item(reply(text="different text, same key"), from_address=GM, now=2.0)
    outbox.commit_handled(source_key="imap:1:1", message_id="<a@b>", disposition="handled", replies=[first],
                          refusals=[], now=1.0)
    outbox.commit_handled(source_key="imap:1:2", message_id="<a@b>", disposition="duplicate", replies=[again],
                          refusals=[], now=2.0)
    outbox.enqueue([again], now=3.0)
    assert [m.message for m in outbox.due(10.0)] == [first.message]
    assert outbox.is_processed("imap:1:1") and outbox.is_processed("imap:1:2") and not outbox.is_processed("imap:1:3")


@pytest.mark.asyncio
async def test_transient_failures_back_off_then_send_once(tmp_path: Path) -> None:
    clock = Clock()
    outbox = Outbox(tmp_path / "mail.sqlite3", retry_base=5, retry_cap=3600)
    outbox.enqueue([queue_item(reply(f"k{n}"), from_address=GM, now=clock.now) for n in range(3)], now=clock.now)
    sink = FlakySink(TransientSendError("421 try later"), TransientSendError("connection refused"))
    assert await drain(outbox, sink, from_address=GM, clock=clock) == 0  # stops at the first transient error
    assert [m.key for m in outbox.due(clock.now)] == ["k1", "k2"]  # k0 waits 5 s
    clock.now += 5
    assert await drain(outbox, sink, from_address=GM, clock=clock) == 0  # k1 fails now: it waits 5 s
    assert [m.key for m in outbox.due(clock.now)] == ["k2", "k0"]
    clock.now += 5
    assert await drain(outbox, sink, from_address=GM, clock=clock) == 3
    assert sink.accepted == ["k2", "k0", "k1"]
    assert await drain(outbox, sink, from_address=GM, clock=clock) == 0
    assert outbox.counts() == {"sent": 3} and outbox.next_due_at() is None


@pytest.mark.asyncio
async def test_permanent_failure_is_not_retried(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "mail.sqlite3")
    outbox.enqueue([queue_item(reply(key), from_address=GM, now=0) for key in ("bad", "good")], now=0)
    sink = FlakySink(PermanentSendError("550 no such user"))
    assert await drain(outbox, sink, from_address=GM, clock=lambda: 1.0) == 1
    assert outbox.counts() == {"failed": 1, "sent": 1} and outbox.due(1e12) == []


def test_compose_threads_and_is_stable() -> None:
    mail = reply(in_reply_to="<orders-1@p>", references=("<r0@gm>",), html="<p>Received.</p>",
                 attachments=(Attachment(filename="map.svg", content_type="image/svg+xml", data=b"<svg/>"),))
    from datetime import datetime

    date = datetime(2025, 3, 3, tzinfo=UTC)
    raw = compose(mail, from_address=GM, date=date)
    assert raw == compose(mail, from_address=GM, date=date)
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert msg["Message-ID"] == message_id_for("receipt:demo:1", GM) and msg["Message-ID"].endswith("@pbem.test>")
    assert msg["In-Reply-To"] == "<orders-1@p>" and msg["References"] == "<r0@gm> <orders-1@p>"
    assert msg["Auto-Submitted"] == "auto-replied" and msg["X-Pbem-Key"] == "receipt:demo:1"
    assert msg.get_content_type() == "multipart/mixed"
    body = msg.get_body(preferencelist=("html",))
    assert body is not None and "Received." in body.get_content()
    assert msg.get_body(preferencelist=("plain",)).get_content() == "Received.\n"
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_filename() == "map.svg" and attachment.get_content() == b"<svg/>"
    assert message_id_for("other", GM) != msg["Message-ID"]


@pytest.mark.asyncio
async def test_maildir_sink_writes_each_key_once(tmp_path: Path) -> None:
    sink = MaildirSink(tmp_path / "sent")
    item = queue_item(reply(), from_address=GM, now=0)
    await sink.send(item, GM)
    await sink.send(item, GM)
    [written] = list((tmp_path / "sent" / "new").iterdir())
    assert written.read_bytes() == item.message
    written.rename(tmp_path / "sent" / "cur" / (written.name + ":2,S"))  # a mail client read it
    await sink.send(item, GM)
    assert list((tmp_path / "sent" / "new").iterdir()) == []


class _Refusing:
    async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
        if address.startswith("gone@"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        self.got = getattr(self, "got", []) + [envelope.content]
        return "250 OK"


@pytest.mark.asyncio
async def test_smtp_sink_sorts_refusals_and_outages(tmp_path: Path) -> None:
    handler = _Refusing()
    server = await asyncio.get_running_loop().create_server(lambda: SMTP(handler), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        settings = load_settings(tmp_path, {"PBEM_SMTP_URL": f"smtp://127.0.0.1:{port}?tls=none"})
        sink = SmtpSink(settings.smtp)  # type: ignore[arg-type]
        await sink.send(queue_item(reply(), from_address=GM, now=0), GM)
        await sink.send(queue_item(reply("two"), from_address=GM, now=0), GM)  # same session
        with pytest.raises(PermanentSendError, match="550"):
            await sink.send(queue_item(OutgoingMail(key="x", to="gone@players.test", subject="s", text="t"),
                                       from_address=GM, now=0), GM)
        await sink.send(queue_item(reply("three"), from_address=GM, now=0), GM)  # reconnects after a refusal
        await sink.close()
        assert len(handler.got) == 3
    finally:
        server.close()
        await server.wait_closed()
    down = SmtpSink(settings.smtp, timeout=2)  # type: ignore[arg-type]
    with pytest.raises(TransientSendError):
        await down.send(queue_item(reply(), from_address=GM, now=0), GM)


def _open_outbox(path: str, start, results) -> None:  # type: ignore[no-untyped-def]
    start.wait()
    try:
        Outbox(Path(path)).close()
        results.put("ok")
    except Exception as error:  # noqa: BLE001 - the test reports what a daemon would have died of
        results.put(repr(error))


def test_daemons_started_together_on_a_new_home_both_open_its_mail_state(tmp_path):
    """Two workers starting at once race to set up `mail.sqlite3` (WAL is switched on under a
    lock SQLite does not wait for); the one that loses waits its turn instead of dying with
    "database is locked". Before the fix about half of such starts lost."""
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        start, results = context.Barrier(2), context.Queue()
        path = str(tmp_path / f"home-{attempt}" / "mail.sqlite3")
        workers = [context.Process(target=_open_outbox, args=(path, start, results)) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        assert [results.get(timeout=5), results.get(timeout=5)] == ["ok", "ok"]
