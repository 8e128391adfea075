"""Locks between processes: on one machine an exclusive `flock` on a file, released by the
kernel when its holder exits or dies (even by SIGKILL); across machines sharing one
PostgreSQL database, a session advisory lock, released by the server when its holder's
connection ends (a crash included). So a lock is never stale."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


class FileLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it; True when this process holds it now."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def holder(self) -> str:
        """The process id the holder wrote, or "" when unknown."""
        try:
            return self.path.read_text().strip()
        except OSError:
            return ""

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class PostgresLock:
    """The same contract as `FileLock`, held by a connection of its own to the database."""

    def __init__(self, parameters: Mapping[str, str], key: int) -> None:
        self.parameters = dict(parameters)
        self.key = key
        self._connection: Any = None

    def try_acquire(self) -> bool:
        if self._connection is not None:
            return True
        import psycopg

        connection = psycopg.connect(**self.parameters, autocommit=True)
        (taken,) = connection.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
        if not taken:
            connection.close()
            return False
        self._connection = connection
        return True

    def holder(self) -> str:
        return ""

    def release(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
