"""Mail bench: delivery into the GM's IMAP mailbox → receipt at the SMTP server.

Starts a private Dovecot and an aiosmtpd capture on 127.0.0.1, runs the daemon (IMAP IDLE,
SMTP sink) in a background thread, then measures (1) latency: mails delivered one at a time
(IMAP APPEND), each timed until its receipt reaches the SMTP server — the IDLE path; and
(2) throughput: `n_mails` delivered in one burst, mails/s until the last receipt arrived.
The handler is the caller's (the campaign service); by default a trivial echo, which
measures the mail layer alone.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from imapclient import IMAPClient

from pbem.core.messages import Envelope, MailOutcome, OutgoingMail
from pbem.mail.daemon import Daemon
from pbem.mail.intake import MailHandler
from pbem.mail.localservers import Dovecot, SmtpCapture
from pbem.mail.settings import load_settings

GM, GM_PASSWORD = "gm@pbem.test", "gm-bench-secret"


def echo_handler(home: Path) -> MailHandler:
    """A handler that answers every mail with one receipt (the mail layer alone)."""

    def handle(envelope: Envelope) -> MailOutcome:
        return MailOutcome(replies=(OutgoingMail(key=f"receipt:bench:{envelope.message_id}", to=envelope.sender,
                                                 subject="Re: " + envelope.subject, text="received\n",
                                                 in_reply_to=envelope.message_id),))

    return handle


def _mail(n: int) -> bytes:
    return (f"From: fra@pbem.test\r\nTo: {GM}\r\nSubject: orders {n}\r\nMessage-ID: <bench-{n}@players.test>\r\n"
            f"\r\nSIGNON fra ratio-demo s3cret\r\nFRA I BUILD TROOP Q{n} AT Paris\r\nSIGNOFF\r\n").encode()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def run_mail_bench(n_mails: int = 200, *, latency_samples: int = 20,
                   handler_factory: Callable[[Path], MailHandler] = echo_handler, timeout: float = 120.0) -> dict:
    """Run the bench; returns JSON-ready figures (seconds, mails/s)."""
    dovecot = Dovecot({GM: GM_PASSWORD}).start()
    capture = SmtpCapture().start()
    home = Path(tempfile.mkdtemp(prefix="pbem-mailbench-"))
    settings = load_settings(home, {"PBEM_IMAP_URL": dovecot.url(GM), "PBEM_SMTP_URL": capture.url,
                                    "PBEM_FROM": GM, "PBEM_CA_FILE": str(dovecot.cert),
                                    "PBEM_TICK_SECONDS": "600"})
    daemon = Daemon(settings, handler_factory(home))
    thread = threading.Thread(target=lambda: asyncio.run(daemon.run(once=False)), daemon=True)
    client = IMAPClient("127.0.0.1", port=dovecot.imap_port, ssl=False, timeout=30)
    try:
        client.login(GM, GM_PASSWORD)
        thread.start()
        time.sleep(1.0)  # let the daemon connect and enter IDLE
        latencies = []
        for n in range(latency_samples):
            start = time.time()
            client.append("INBOX", _mail(n))
            latencies.append(capture.wait_for(n + 1, timeout=30)[-1].received_at - start)
            time.sleep(0.1)
        start = time.time()
        for n in range(latency_samples, latency_samples + n_mails):
            client.append("INBOX", _mail(n))
        appended = time.time() - start
        received = capture.wait_for(latency_samples + n_mails, timeout=timeout)
        burst = received[latency_samples:]
        elapsed = (max(m.received_at for m in burst) - start) if burst else float("inf")
        return {
            "mails": n_mails,
            "median_s": round(statistics.median(latencies), 4),
            "p95_s": round(_percentile(latencies, 0.95), 4),
            "mails_per_s": round(len(burst) / elapsed, 1),
            "burst_seconds": round(elapsed, 3),
            "append_seconds": round(appended, 3),
            "answered": len(burst),
            "latency_samples": latency_samples,
        }
    finally:
        daemon.stop()
        thread.join(timeout=30)
        try:
            client.logout()
        except Exception:  # noqa: BLE001 - the server is being stopped anyway
            pass
        capture.stop()
        dovecot.stop()
        shutil.rmtree(home, ignore_errors=True)
