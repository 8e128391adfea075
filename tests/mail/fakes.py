"""A stand-in for the campaign service with the same contract, backed by SQLite so a daemon
subprocess and the test can both see what it recorded.

Contract kept: a mail is recorded once (by Message-ID); the same mail again returns
`duplicate=True` and the same replies with the same keys; mail without SIGNON is refused
with a reply keyed `refusal:…` (as the core does).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from pbem.core.messages import Envelope, MailOutcome, OutgoingMail


class RecordingHandler:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS facts (message_id TEXT PRIMARY KEY, sender TEXT,"
                         " source_key TEXT, text TEXT)")

    def __call__(self, envelope: Envelope) -> MailOutcome:
        cursor = self._db.execute("INSERT OR IGNORE INTO facts VALUES (?, ?, ?, ?)",
                                  (envelope.message_id, envelope.sender, envelope.source_key, envelope.text))
        return MailOutcome(duplicate=cursor.rowcount == 0, campaign="demo", replies=(self.reply(envelope),))

    @staticmethod
    def reply(envelope: Envelope) -> OutgoingMail:
        name = hashlib.sha256(envelope.message_id.encode()).hexdigest()[:24]
        if "SIGNON" not in envelope.text:
            return OutgoingMail(key=f"refusal:{name}", to=envelope.sender, subject="Re: " + envelope.subject,
                                text="this mail has no SIGNON line\n", in_reply_to=envelope.message_id)
        lines = envelope.text.count("\n") + 1
        return OutgoingMail(key=f"receipt:demo:{name}", to=envelope.sender, subject="Re: " + envelope.subject,
                            text=f"received {lines} lines\n", in_reply_to=envelope.message_id,
                            references=envelope.references)

    def facts(self) -> list[tuple[str, str, str, str]]:
        return list(self._db.execute("SELECT message_id, sender, source_key, text FROM facts ORDER BY rowid"))


def factory(home: Path) -> RecordingHandler:
    """For `python -m pbem.mail.daemon --handler tests.mail.fakes:factory`."""
    return RecordingHandler(Path(home) / "facts.sqlite3")


def player_mail(n: int, *, sender: str = "fra@pbem.test", to: str = "gm@pbem.test", body: str | None = None) -> bytes:
    """A plain player mail numbered `n` (unique Message-ID)."""
    body = body if body is not None else (
        f"SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q{n} AT Paris\nSIGNOFF\n")
    return (f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: orders {n}\r\n"
            f"Message-ID: <orders-{n}@players.test>\r\nDate: Mon, 3 Mar 2025 10:00:00 +0000\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")).encode()
