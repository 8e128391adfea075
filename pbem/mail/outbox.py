"""The mail layer's durable state: the outbox, the processed sources, the refusal counts.

One SQLite file in the campaign home (`mail.sqlite3`) — or, when the campaigns are in
PostgreSQL, the same tables in that database, so workers in several homes on several
machines share one mail state as they share the campaigns. "This mail was handled" and
"these are its replies" are committed in one transaction: after a crash either both exist
or neither does, and the handler (which dedups by Message-ID and returns the same replies
with the same keys) is simply asked again. The outbox is keyed by `OutgoingMail.key` and a
reply enters it once however often it is produced (ON CONFLICT DO NOTHING, in both
databases); the sender marks it sent only after the server accepted it, and retries with
capped exponential back-off.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Daemons started together on one home race to set up `mail.sqlite3`: switching a new file to
# WAL takes a lock SQLite does not wait for (its busy timeout is not consulted), so the loser
# is told "database is locked" at once; the file is set up once the winner is done.
SETUP_ATTEMPTS = 10

MailState = Path | Mapping[str, str]
"""Where the mail state lives: an SQLite file, or PostgreSQL connection parameters (libpq
keywords: host, port, dbname, user, password)."""

# Written once for both databases: `?` placeholders (PostgreSQL's adapter turns them into
# %s); BLOB and REAL become BYTEA and DOUBLE PRECISION there.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    key TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    message_id TEXT NOT NULL,
    message BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',      -- pending | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL,
    created_at REAL NOT NULL,
    sent_at REAL,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
CREATE TABLE IF NOT EXISTS processed (
    source_key TEXT PRIMARY KEY,
    message_id TEXT NOT NULL,
    disposition TEXT NOT NULL,                   -- handled | duplicate | ignored:<reason> | refused:<reason>
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS relayed (                 -- how far the store's committed mail was queued
    id INTEGER PRIMARY KEY CHECK (id = 1),
    position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS refusals (
    address TEXT NOT NULL,
    key TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (address, key)
);
"""
#: Any number, the same in every process: the advisory lock that lets one of several
#: workers set the PostgreSQL tables up at a time.
_SETUP_LOCK = 0x70626D6D


class _SqliteState:
    """The mail state in an SQLite file."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        for attempt in range(1, SETUP_ATTEMPTS + 1):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(_SCHEMA)
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == SETUP_ATTEMPTS:
                    self._db.close()
                    raise
                time.sleep(0.02 * attempt)

    def execute(self, sql: str, parameters: tuple = ()) -> Any:
        return self._db.execute(sql, parameters)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        self._db.executemany(sql, rows)

    def begin(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def end(self, *, commit: bool) -> None:
        self._db.execute("COMMIT" if commit else "ROLLBACK")

    def close(self) -> None:
        self._db.close()


class _PostgresState:
    """The mail state in the campaigns' PostgreSQL database."""

    def __init__(self, parameters: Mapping[str, str]) -> None:
        import psycopg

        self._db = psycopg.connect(**dict(parameters), autocommit=True)
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            for statement in _SCHEMA.replace("BLOB", "BYTEA").replace("REAL", "DOUBLE PRECISION").split(";"):
                if statement.strip():
                    self._db.execute(statement)

    def execute(self, sql: str, parameters: tuple = ()) -> Any:
        return self._db.execute(sql.replace("?", "%s"), parameters)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        if rows:
            self._db.cursor().executemany(sql.replace("?", "%s"), rows)

    def begin(self) -> None:
        self._db.execute("BEGIN")

    def end(self, *, commit: bool) -> None:
        self._db.execute("COMMIT" if commit else "ROLLBACK")

    def close(self) -> None:
        self._db.close()


def _open(where: MailState) -> _SqliteState | _PostgresState:
    return _SqliteState(where) if isinstance(where, Path) else _PostgresState(where)


@dataclass(frozen=True)
class QueuedMail:
    key: str
    recipient: str
    message_id: str
    message: bytes
    attempts: int = 0


def backoff_seconds(attempts: int, *, base: float, cap: float) -> float:
    """Delay before attempt `attempts + 1`: base, 2·base, 4·base … capped."""
    return min(cap, base * (2 ** max(0, attempts - 1)))


class Outbox:
    """Access to the mail state. Not thread-safe: give each thread of work its own instance."""

    def __init__(self, where: MailState, *, retry_base: float = 5.0, retry_cap: float = 3600.0) -> None:
        self._db = _open(where)
        self.retry_base = retry_base
        self.retry_cap = retry_cap

    def close(self) -> None:
        self._db.close()

    # -- inbound -----------------------------------------------------------------
    def is_processed(self, source_key: str) -> bool:
        return self._db.execute("SELECT 1 FROM processed WHERE source_key = ?", (source_key,)).fetchone() is not None

    def handled_mail(self) -> list[tuple[str, str]]:
        """(source key, Message-ID) of every mail handed to the campaigns (handled, or
        answered again as a duplicate), as `pbem restore` checks them against the store."""
        rows = self._db.execute("SELECT source_key, message_id FROM processed"
                                " WHERE disposition IN ('handled', 'duplicate') ORDER BY at, source_key")
        return [(str(key), str(message_id)) for key, message_id in rows]

    def forget_processed(self, source_keys: list[str]) -> None:
        """Unmark mails as processed, so each is read again when its source offers it."""
        with self._transaction():
            self._db.executemany("DELETE FROM processed WHERE source_key = ?", [(k,) for k in source_keys])

    def refusals_since(self, address: str, since: float) -> int:
        row = self._db.execute("SELECT count(*) FROM refusals WHERE address = ? AND at >= ?", (address, since))
        return int(row.fetchone()[0])

    def commit_handled(self, *, source_key: str, message_id: str, disposition: str, replies: list[QueuedMail],
                       refusals: list[tuple[str, str]], now: float) -> None:
        """Queue `replies`, count `refusals` (counter, key: the counter an address or a SIGNON
        claim, see `guards.refusal_counters`) and mark the source handled, atomically."""
        with self._transaction():
            self._db.executemany(
                "INSERT INTO outbox (key, recipient, message_id, message, next_attempt_at, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(r.key, r.recipient, r.message_id, r.message, now, now) for r in replies],
            )
            self._db.executemany("INSERT INTO refusals (address, key, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                 [(address, key, now) for address, key in refusals])
            self._db.execute("INSERT INTO processed (source_key, message_id, disposition, at)"
                             " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (source_key, message_id, disposition, now))

    # -- outbound ----------------------------------------------------------------
    def enqueue(self, replies: list[QueuedMail], *, now: float, relayed: int | None = None) -> None:
        """Queue mail that no inbound mail caused (the deadline clock's reports, a GM
        command's announcements); with `relayed`, note in the same transaction how far
        the store's committed mail has now been queued."""
        with self._transaction():
            self._db.executemany(
                "INSERT INTO outbox (key, recipient, message_id, message, next_attempt_at, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(r.key, r.recipient, r.message_id, r.message, now, now) for r in replies],
            )
            if relayed is not None:
                self._db.execute("INSERT INTO relayed (id, position) VALUES (1, ?)"
                                 " ON CONFLICT (id) DO UPDATE SET position = CASE WHEN excluded.position > relayed.position"
                                 " THEN excluded.position ELSE relayed.position END",
                                 (relayed,))

    def relayed(self) -> int:
        """How far the store's committed mail was queued (see `enqueue`)."""
        row = self._db.execute("SELECT position FROM relayed WHERE id = 1").fetchone()
        return 0 if row is None else int(row[0])

    def due(self, now: float, limit: int = 100) -> list[QueuedMail]:
        rows = self._db.execute(
            "SELECT key, recipient, message_id, message, attempts FROM outbox"
            " WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at LIMIT ?",
            (now, limit),
        )
        return [QueuedMail(*row) for row in rows]

    def next_due_at(self) -> float | None:
        row = self._db.execute("SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'").fetchone()
        return None if row[0] is None else float(row[0])

    def mark_sent(self, key: str, now: float) -> None:
        self._db.execute("UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL"
                         " WHERE key = ?", (now, key))

    def mark_retry(self, key: str, now: float, error: str) -> float:
        """Count a failed attempt; returns when the next one is due."""
        with self._transaction():
            (attempts,) = self._db.execute("SELECT attempts FROM outbox WHERE key = ?", (key,)).fetchone()
            attempts += 1
            at = now + backoff_seconds(attempts, base=self.retry_base, cap=self.retry_cap)
            self._db.execute("UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE key = ?",
                             (attempts, at, error[:500], key))
        return at

    def mark_failed(self, key: str, now: float, error: str) -> None:
        """A permanent refusal (5xx): never retried, kept for the GM to see."""
        self._db.execute("UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?,"
                         " sent_at = ? WHERE key = ?", (error[:500], now, key))

    def counts(self) -> dict[str, int]:
        rows = self._db.execute("SELECT status, count(*) FROM outbox GROUP BY status")
        return {status: int(n) for status, n in rows}

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """One transaction (SQLite: BEGIN IMMEDIATE … COMMIT), rolled back on any exception."""

    def __init__(self, db: _SqliteState | _PostgresState) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.begin()

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.end(commit=kind is None)


_TABLES = {
    "outbox": "key, recipient, message_id, message, status, attempts, next_attempt_at, created_at, sent_at, last_error",
    "processed": "source_key, message_id, disposition, at",
    "relayed": "id, position",
    "refusals": "address, key, at",
}


def move_into(sqlite_file: Path, where: MailState) -> bool:
    """Move the mail state a home kept in `sqlite_file` into `where` (the PostgreSQL
    database its campaigns moved to, or that pbem now keeps the mail state in): every row
    copied in one transaction, rows already there kept, then the file renamed aside, so
    no queued reply and no "handled" mark is lost. False when there was nothing to move."""
    if not sqlite_file.exists():
        return False
    source, target = _SqliteState(sqlite_file), _open(where)
    try:
        target.begin()
        try:
            for table, columns in _TABLES.items():
                rows = [tuple(row) for row in source.execute(f"SELECT {columns} FROM {table}")]
                marks = ", ".join("?" for _ in columns.split(","))
                target.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING", rows)
        except BaseException:
            target.end(commit=False)
            raise
        target.end(commit=True)
    finally:
        source.close()
        target.close()
    sqlite_file.rename(sqlite_file.with_name(sqlite_file.name + ".moved"))
    return True
