"""The SMTP sink (aiosmtplib): one kept-open session, STARTTLS/TLS and AUTH from settings."""

from __future__ import annotations

import aiosmtplib

from pbem.mail.outbox import QueuedMail
from pbem.mail.sender import PermanentSendError, TransientSendError
from pbem.mail.settings import ServerSettings


class SmtpSink:
    def __init__(self, server: ServerSettings, *, timeout: float = 30.0) -> None:
        self.server = server
        self.timeout = timeout
        self._client: aiosmtplib.SMTP | None = None

    async def _connect(self) -> aiosmtplib.SMTP:
        server = self.server
        client = aiosmtplib.SMTP(
            hostname=server.host, port=server.port, timeout=self.timeout,
            use_tls=server.tls == "tls",
            start_tls=None if server.tls == "starttls" else False,
            tls_context=server.ssl_context() if server.tls != "none" else None,
        )
        await client.connect()
        if server.user and server.password is not None:
            await client.login(server.user, server.password.get_secret_value())
        return client

    async def send(self, mail: QueuedMail, from_address: str) -> None:
        for attempt in (1, 2):  # a kept-open session may have been closed by the server
            try:
                if self._client is None or not self._client.is_connected:
                    self._client = await self._connect()
                errors, _ = await self._client.sendmail(from_address, [mail.recipient], mail.message)
            except aiosmtplib.SMTPRecipientsRefused as error:
                refused = error.recipients[0] if error.recipients else None
                await self.close()
                raise self._classify(refused.code if refused else 450, str(error)) from None
            except aiosmtplib.SMTPDataError as error:
                await self.close()
                raise self._classify(error.code, error.message) from None
            except aiosmtplib.SMTPServerDisconnected as error:
                await self.close()
                if attempt == 2:
                    raise TransientSendError(f"disconnected: {error}") from None
                continue
            except (aiosmtplib.SMTPException, OSError) as error:
                await self.close()
                raise TransientSendError(f"{type(error).__name__}: {error}") from None
            if errors:
                code, message = next(iter(errors.values()))
                raise self._classify(code, message)
            return

    @staticmethod
    def _classify(code: int, message: str) -> Exception:
        """5xx about this recipient or this message is final; anything else (a 4xx, a refused
        login or sender: the GM's settings) is retried, so fixing the settings loses nothing."""
        text = f"{code} {message}"
        return PermanentSendError(text) if 500 <= code < 600 else TransientSendError(text)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except (aiosmtplib.SMTPException, OSError):
                client.close()
