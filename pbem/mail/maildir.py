"""Maildir as a source (the embedded default) and as a sink (the demo's outbox).

Source: mail waiting in `new/` is handed over oldest first and, once handled, renamed into
`cur/` with the Seen flag — a rename, so a crash leaves it either waiting or done. An entry
of `new/` that is no readable file (a folder, a link to nothing, a file without read
permission) is moved to `unreadable/` beside `new/` and logged for the operator
(`source.unreadable`): it never blocks the mail behind it, nor wakes the daemon forever. Sink: each
mail is written to `tmp/` and renamed into `new/` under a name derived from its key, so
writing the same mail twice leaves one file: exactly once without any server.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path

from pbem.mail.logs import log_event
from pbem.mail.outbox import QueuedMail
from pbem.mail.sources import IncomingMail

logger = logging.getLogger("pbem.mail.maildir")
UNREADABLE = "unreadable"


def ensure_maildir(root: Path) -> Path:
    for sub in ("tmp", "new", "cur"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return root


class MaildirSource:
    def __init__(self, root: Path, *, poll_seconds: float = 1.0) -> None:
        self.root = ensure_maildir(root)
        self.poll_seconds = poll_seconds
        self._unacked: set[str] = set()  # fetched, not (yet) acknowledged: not a reason to wake up

    def describe(self) -> str:
        return f"maildir:{self.root}"

    def fetch(self, limit: int) -> list[IncomingMail]:
        names = sorted(name for name in os.listdir(self.root / "new") if not name.startswith("."))[:limit]
        found = []
        for name in names:
            path = self.root / "new" / name
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                if path.is_symlink():
                    self._set_aside(name, "a link to a file that does not exist")
                continue  # otherwise taken by another reader meanwhile
            except OSError as error:
                self._set_aside(name, error.strerror or type(error).__name__)
                continue
            found.append(IncomingMail(f"maildir:{name.partition(':')[0]}", raw, name))
        self._unacked.update(mail.ref for mail in found)  # type: ignore[misc]
        return found

    def _set_aside(self, name: str, why: str) -> None:
        aside = self.root / UNREADABLE
        aside.mkdir(exist_ok=True)
        target = aside / name
        copies = 0
        while os.path.lexists(target):  # set aside before under that name: keep both
            copies += 1
            target = aside / f"{name}.{copies}"
        try:
            os.replace(self.root / "new" / name, target)
        except FileNotFoundError:
            return  # another reader set it aside first
        log_event(logger, "source.unreadable", level=logging.WARNING, entry=name, reason=why, moved_to=str(target))

    def ack(self, mails: list[IncomingMail]) -> None:
        for mail in mails:
            name = str(mail.ref)
            try:
                os.replace(self.root / "new" / name, self.root / "cur" / (name.partition(":")[0] + ":2,S"))
            except FileNotFoundError:
                pass
            self._unacked.discard(name)

    def wait(self, timeout: float, stop: threading.Event) -> None:
        """Return when `new/` has mail, `stop` is set, or `timeout` passes (polling)."""
        step = min(self.poll_seconds, 0.25)
        remaining = timeout
        while remaining > 0 and not stop.is_set():
            if any(not name.startswith(".") and name not in self._unacked for name in os.listdir(self.root / "new")):
                return
            stop.wait(min(step, remaining))
            remaining -= step

    def close(self) -> None:
        pass


def sink_file_name(key: str) -> str:
    """The file `MaildirSink` writes the mail of `key` to (the same name on every attempt)."""
    return hashlib.sha256(key.encode()).hexdigest()[:40] + ".pbem"


class MaildirSink:
    def __init__(self, root: Path) -> None:
        self.root = ensure_maildir(root)

    async def send(self, mail: QueuedMail, from_address: str) -> None:
        name = sink_file_name(mail.key)
        if (self.root / "new" / name).exists() or any((self.root / "cur").glob(name + "*")):
            return
        temporary = self.root / "tmp" / name
        with open(temporary, "wb") as handle:
            handle.write(mail.message)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.root / "new" / name)

    async def close(self) -> None:
        pass
