"""The IMAP source (imapclient): fetch with BODY.PEEK[], move handled mail to `Processed`.

Nothing is marked read or moved until the daemon says the mail and its replies are stored;
the source key `imap:<UIDVALIDITY>:<UID>` names the copy, so a mailbox recreated with a new
UIDVALIDITY is read again, which the core's Message-ID dedup makes harmless.
Waiting uses IDLE when the server has it (new mail is seen within a round trip), else
polling with NOOP.
"""

from __future__ import annotations

import imaplib
import socket
import ssl
import threading
import time

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from pbem.mail.settings import ServerSettings
from pbem.mail.sources import IncomingMail

SEEN = b"\\Seen"


class SourceError(Exception):
    """The source cannot be read now; the message says why (no password in it)."""


_NETWORK_ERRORS = (IMAPClientError, imaplib.IMAP4.abort, imaplib.IMAP4.error, OSError, ssl.SSLError,
                   socket.timeout)


class ImapSource:
    def __init__(self, server: ServerSettings, *, processed_folder: str = "Processed", poll_seconds: float = 30.0,
                 timeout: float = 30.0) -> None:
        self.server = server
        self.processed_folder = processed_folder
        self.poll_seconds = poll_seconds
        self.timeout = timeout
        self._client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        self._unacked: set[int] = set()  # fetched, not (yet) acknowledged: not a reason to wake up

    def describe(self) -> str:
        return f"imap:{self.server.describe()}/{self.server.folder}"

    def _connect(self) -> IMAPClient:
        server = self.server
        context = server.ssl_context() if server.tls != "none" else None
        try:
            client = IMAPClient(server.host, port=server.port, ssl=server.tls == "tls", ssl_context=context,
                                timeout=self.timeout)
        except _NETWORK_ERRORS as error:
            raise SourceError(f"cannot connect to {self.describe()}: {error}") from None
        try:
            if server.tls == "starttls" and client.has_capability("STARTTLS"):
                client.starttls(context)
            client.login(server.user or "", server.password.get_secret_value() if server.password else "")
            selected = client.select_folder(server.folder)
            if not client.folder_exists(self.processed_folder):
                client.create_folder(self.processed_folder)
        except UnicodeEncodeError:
            self._drop(client)
            raise SourceError(f"IMAP user and password must be ASCII for {self.describe()}") from None
        except LoginError:
            self._drop(client)
            raise SourceError(f"IMAP login refused for {self.describe()} (check user and password)") from None
        except _NETWORK_ERRORS as error:
            self._drop(client)
            raise SourceError(f"IMAP error on {self.describe()}: {error}") from None
        self.uidvalidity = int(selected[b"UIDVALIDITY"])
        return client

    def _call(self, operation):  # type: ignore[no-untyped-def]
        """Run `operation(client)`; a broken connection is dropped and reported as SourceError."""
        if self._client is None:
            self._client = self._connect()
        try:
            return operation(self._client)
        except _NETWORK_ERRORS as error:
            self.close()
            raise SourceError(f"IMAP error on {self.describe()}: {type(error).__name__}: {error}") from None

    def fetch(self, limit: int) -> list[IncomingMail]:
        def fetch(client: IMAPClient) -> list[IncomingMail]:
            uids = sorted(client.search(["NOT", "DELETED"]))[:limit]
            if not uids:
                return []
            data = client.fetch(uids, ["BODY.PEEK[]"])
            self._unacked.update(uids)
            return [IncomingMail(f"imap:{self.uidvalidity}:{uid}", bytes(data[uid][b"BODY[]"]), uid)
                    for uid in uids if uid in data and b"BODY[]" in data[uid]]

        return self._call(fetch)

    def ack(self, mails: list[IncomingMail]) -> None:
        uids = [mail.ref for mail in mails]
        if not uids:
            return

        def move(client: IMAPClient) -> None:
            client.add_flags(uids, [SEEN], silent=True)
            if client.has_capability("MOVE"):
                client.move(uids, self.processed_folder)
                return
            client.copy(uids, self.processed_folder)
            client.delete_messages(uids, silent=True)
            if client.has_capability("UIDPLUS"):
                client.uid_expunge(uids)
            else:
                client.expunge()

        self._call(move)
        self._unacked.difference_update(uids)

    def wait(self, timeout: float, stop: threading.Event) -> None:
        def wait(client: IMAPClient) -> None:
            if set(client.search(["NOT", "DELETED"])) - self._unacked:  # arrived since the last fetch
                return
            if not client.has_capability("IDLE"):
                stop.wait(min(timeout, self.poll_seconds))
                client.noop()
                return
            client.idle()
            try:
                deadline = time.monotonic() + timeout
                while not stop.is_set() and (remaining := deadline - time.monotonic()) > 0:
                    responses = client.idle_check(timeout=min(1.0, remaining))
                    if any(len(r) > 1 and r[1] == b"EXISTS" for r in responses):
                        return
            finally:
                client.idle_done()

        self._call(wait)

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            self._drop(client)

    @staticmethod
    def _drop(client: IMAPClient) -> None:
        try:
            client.logout()
        except Exception:  # noqa: BLE001 - the connection is being discarded anyway
            try:
                client.shutdown()
            except Exception:  # noqa: BLE001
                pass
