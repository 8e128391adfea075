"""The mail daemon: read the source, hand each mail to the service, send what is due.

`run(settings, handler, once=True)` empties the source, sends what is due and returns (cron
or a test); without `once` it loops, waiting on IMAP IDLE (or polling a Maildir), until
SIGTERM/SIGINT. Source work (IMAP is blocking) and the handler run in one worker thread;
sending runs concurrently on the event loop, so a slow SMTP server never delays reading.
`on_tick(now)` is called at start and every `tick_seconds`; the mail it returns (e.g. the
reports of a passed deadline) is queued like replies.

The mail layer alone, with any handler (a test's; a supervisor runs `pbem run`, which
also keeps the campaigns' clock):
    python -m pbem.mail.daemon --home DIR --handler module:factory [--once] [--json-logs]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pbem.core.messages import OutgoingMail
from pbem.mail.imap import ImapSource, SourceError
from pbem.mail.intake import Intake, MailHandler, queue_item
from pbem.mail.logs import configure_logging, log_event
from pbem.mail.maildir import MaildirSink, MaildirSource
from pbem.mail.outbox import Outbox
from pbem.mail.sender import Sink, drain
from pbem.mail.settings import MailSettings, MailSettingsError, load_settings
from pbem.mail.smtp import SmtpSink
from pbem.mail.sources import Source

logger = logging.getLogger("pbem.mail.daemon")

TickHook = Callable[[datetime], Iterable[OutgoingMail] | None]
BATCH = 50
RECONNECT_CAP_SECONDS = 60.0


@dataclass
class RunStats:
    received: int = 0
    sent: int = 0


def build_source(settings: MailSettings) -> Source:
    if settings.imap is not None:
        return ImapSource(settings.imap, processed_folder=settings.processed_folder,
                          poll_seconds=settings.poll_seconds)
    assert settings.maildir is not None  # load_settings always gives one of the two
    return MaildirSource(settings.maildir, poll_seconds=settings.poll_seconds)


def build_sink(settings: MailSettings) -> Sink:
    if settings.smtp is not None:
        return SmtpSink(settings.smtp)
    assert settings.outbox_maildir is not None
    return MaildirSink(settings.outbox_maildir)


class Daemon:
    def __init__(self, settings: MailSettings, handler: MailHandler, *, clock: Callable[[], float] = time.time,
                 on_tick: TickHook | None = None, source: Source | None = None, sink: Sink | None = None) -> None:
        self.settings = settings
        self.clock = clock
        self.on_tick = on_tick
        self.source = source or build_source(settings)
        self.sink = sink or build_sink(settings)
        self.stop_event = threading.Event()
        self.stats = RunStats()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-mail-source")
        self._intake = Intake(settings, handler, self._outbox(), clock)
        self._send_outbox = self._outbox()
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._next_tick = 0.0

    def _outbox(self) -> Outbox:
        return Outbox(self.settings.state_path, retry_base=self.settings.retry_base_seconds,
                      retry_cap=self.settings.retry_cap_seconds)

    def stop(self) -> None:
        """Ask the loop to finish what it is doing and return (from a signal or any thread)."""
        self.stop_event.set()
        if self._wake is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    async def _in_worker(self, function, *args):  # type: ignore[no-untyped-def]
        return await asyncio.get_running_loop().run_in_executor(self._worker, function, *args)

    async def run(self, *, once: bool) -> RunStats:
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        smtp = self.settings.smtp
        log_event(logger, "daemon.start", source=self.source.describe(), once=once,
                  sink=smtp.describe() if smtp else f"maildir:{self.settings.outbox_maildir}")
        sender = None if once else asyncio.create_task(self._send_loop())
        try:
            await self._receive_loop(once=once)
            if once:
                await self._send_due()
        finally:
            if sender is not None:
                self._wake.set()
                await sender
            await self.sink.close()
            await self._in_worker(self.source.close)
            self._worker.shutdown(wait=True)
            self._intake.outbox.close()
            self._send_outbox.close()
            log_event(logger, "daemon.stop", received=self.stats.received, sent=self.stats.sent)
        return self.stats

    async def _receive_loop(self, *, once: bool) -> None:
        failures = 0
        skipped: set[str] = set()  # mails the handler failed on: retried on the next start
        while not self.stop_event.is_set():
            await self._tick_if_due()
            try:
                batch = [m for m in await self._in_worker(self.source.fetch, BATCH) if m.source_key not in skipped]
                if batch:
                    done = []
                    for mail in batch:
                        if self.stop_event.is_set():
                            break
                        if await self._in_worker(self._intake.process, mail):
                            done.append(mail)
                        else:
                            skipped.add(mail.source_key)
                    await self._in_worker(self.source.ack, done)
                    self.stats.received += len(done)
                    self._wake.set()  # type: ignore[union-attr]
                    failures = 0
                    if len(done) == len(batch):
                        continue
                if once:
                    return
                await self._in_worker(self.source.wait, self._wait_seconds(), self.stop_event)
                failures = 0
            except SourceError as error:
                if once:
                    raise
                failures += 1
                delay = min(RECONNECT_CAP_SECONDS, 2.0 ** min(failures, 6))
                log_event(logger, "source.error", level=logging.WARNING, error=str(error), retry_in=delay)
                await asyncio.to_thread(self.stop_event.wait, delay)

    def _wait_seconds(self) -> float:
        return max(0.1, self._next_tick - self.clock()) if self.on_tick else self.settings.tick_seconds

    async def _tick_if_due(self) -> None:
        now = self.clock()
        if self.on_tick is None or now < self._next_tick:
            return
        self._next_tick = now + self.settings.tick_seconds
        mail = list(self.on_tick(datetime.fromtimestamp(now, tz=UTC)) or ())
        if mail:
            self._send_outbox.enqueue([queue_item(m, from_address=self.settings.from_address, now=now)
                                       for m in mail], now=now)
            self._wake.set()  # type: ignore[union-attr]

    async def _send_due(self) -> None:
        self.stats.sent += await drain(self._send_outbox, self.sink, from_address=self.settings.from_address,
                                       clock=self.clock, should_stop=self.stop_event.is_set)

    async def _send_loop(self) -> None:
        wake = self._wake
        assert wake is not None
        while not self.stop_event.is_set():
            wake.clear()
            await self._send_due()
            next_due = self._send_outbox.next_due_at()
            timeout = None if next_due is None else max(0.05, next_due - self.clock())
            try:
                await asyncio.wait_for(wake.wait(), timeout)
            except TimeoutError:
                pass


def run(settings: MailSettings, handler: MailHandler, *, once: bool = False, clock: Callable[[], float] = time.time,
        on_tick: TickHook | None = None) -> RunStats:
    """Run the daemon in a new event loop; SIGTERM/SIGINT stop it gracefully."""
    daemon = Daemon(settings, handler, clock=clock, on_tick=on_tick)

    async def main() -> RunStats:
        loop = asyncio.get_running_loop()
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signum, daemon.stop)
        return await daemon.run(once=once)

    return asyncio.run(main())


def load_factory(spec: str) -> Callable[[Path], MailHandler]:
    """`module:callable` → the callable (a handler factory taking the home directory)."""
    module_name, _, attribute = spec.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as error:
        raise MailSettingsError(f"--handler {spec}: {error}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.mail.daemon", description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--once", action="store_true")
    parser.add_argument("--handler", required=True, help="module:factory(home)")
    parser.add_argument("--json-logs", action="store_true")
    args = parser.parse_args(argv)
    configure_logging(as_json=args.json_logs)
    try:
        settings = load_settings(args.home)
        handler = load_factory(args.handler)(args.home)
        run(settings, handler, once=args.once)
    except (MailSettingsError, SourceError) as error:
        print(f"pbem mail: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
