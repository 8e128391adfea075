"""The mail daemon: read the source, hand each mail to the service, send what is due.

`run(settings, handler, once=True)` empties the source, sends what is due and returns (cron
or a test); without `once` it loops, waiting on IMAP IDLE (or polling a Maildir), until
SIGTERM/SIGINT. Source work (IMAP is blocking) and the handler run in one worker thread;
sending runs concurrently on the event loop, so a slow SMTP server never delays reading.
`on_tick(now)` is called at start and every `tick_seconds`, in the same worker thread; the
mail it returns (e.g. the reports of a passed deadline) is queued like replies. `relay(after)`
gives the mail the campaign store committed with its facts since a position (see
`pbem.core.dispatch`): the sender queues it before each round, so mail whose queueing a
crash interrupted — and a GM command's announcements — leave within `poll_seconds`.

A mail the handler fails on (a bug, a broken template) stays in the source and is tried
again after 1 s, 2 s, 4 s … (at most a minute), logged each time (`mail.held`); the sender's
later mail waits behind it, so a correction never overtakes the mail it corrects, while
everybody else's mail goes on.

Every task (reading, the clock, sending) that fails is logged at once (`task.failed`) and
tried again after 1 s, 2 s, 4 s … (at most a minute); after `task_retries` failures in a
row the daemon stops everything and `run` reports why (`RunStats.failed`), so `pbem run`
exits non-zero for its supervisor to see — never a daemon half alive. An unreachable mail
server is not such a failure: it is waited for (`source.error`, the outbox's back-off).
Only one process sends (`sender_lock`: `sender.lock` in the home, or an advisory lock in
the PostgreSQL database that holds the mail state of several homes), so workers never send
one mail twice.

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
from pbem.mail.envelope import raw_sender
from pbem.mail.intake import Intake, MailHandler, queue_item
from pbem.mail.locks import FileLock, PostgresLock
from pbem.mail.logs import configure_logging, log_event
from pbem.mail.maildir import MaildirSink, MaildirSource
from pbem.mail.outbox import Outbox
from pbem.mail.sender import Sink, drain
from pbem.mail.settings import MailSettings, MailSettingsError, load_settings
from pbem.mail.smtp import SmtpSink
from pbem.mail.sources import IncomingMail, Source

logger = logging.getLogger("pbem.mail.daemon")

TickHook = Callable[[datetime], Iterable[OutgoingMail] | None]
Relay = Callable[[int], tuple[list[OutgoingMail], int]]
"""`relay(after)`: the mail committed after position `after`, and the position it reached."""
BATCH = 50
RECONNECT_CAP_SECONDS = 60.0
TASK_RETRIES = 8
TASK_BACKOFF_CAP_SECONDS = 60.0
HEARTBEAT = "daemon.heartbeat"
"""A file in the home touched at every turn of the receive loop (so at least every tick or
reconnect wait) and removed when the daemon stops: `pbem health` reads its age."""


@dataclass
class RunStats:
    received: int = 0
    sent: int = 0
    failed: str = ""
    """Why the daemon gave up ("" when it stopped as asked)."""


@dataclass
class HeldMail:
    """A mail the handler failed on: who sent it, how often it failed, when to try again."""

    sender: str
    failures: int
    retry_at: float


class GiveUp(Exception):
    """A task failed too often in a row: the daemon stops."""


#: The advisory lock of the one sender among workers sharing a PostgreSQL mail state.
SENDER_LOCK = 0x70626D73


def sender_lock(settings: MailSettings) -> FileLock | PostgresLock:
    """Only one process sends: of a home (a file lock beside its mail state), or of every
    home sharing one PostgreSQL mail state (an advisory lock in that database)."""
    if settings.postgres is not None:
        return PostgresLock(settings.postgres, SENDER_LOCK)
    return FileLock(settings.state_path.with_name("sender.lock"))


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
                 on_tick: TickHook | None = None, source: Source | None = None, sink: Sink | None = None,
                 relay: Relay | None = None, task_retries: int = TASK_RETRIES, backoff_base: float = 1.0) -> None:
        self.settings = settings
        self.clock = clock
        self.on_tick = on_tick
        self.relay = relay
        self.task_retries = task_retries
        self.backoff_base = backoff_base
        self._failures: dict[str, int] = {}
        self._held: dict[str, HeldMail] = {}  # by source key
        self._sender_lock = sender_lock(settings)
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
        settings.home.mkdir(parents=True, exist_ok=True)  # for the heartbeat, when nothing else is kept there
        self._heartbeat = settings.home / HEARTBEAT

    def _outbox(self) -> Outbox:
        return Outbox(self.settings.mail_state, retry_base=self.settings.retry_base_seconds,
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
                try:
                    await self._send_round()
                except Exception as error:  # noqa: BLE001 - logged; GiveUp at once
                    self._failed("send", error, once=True)
        except GiveUp as error:
            self._give_up(str(error))
        finally:
            self.stop_event.set()
            self._wake.set()
            if sender is not None:
                await sender
            await self.sink.close()
            await self._in_worker(self.source.close)
            self._worker.shutdown(wait=True)
            self._intake.outbox.close()
            self._send_outbox.close()
            self._sender_lock.release()
            self._heartbeat.unlink(missing_ok=True)
            log_event(logger, "daemon.stop", received=self.stats.received, sent=self.stats.sent,
                      **({"failed": self.stats.failed} if self.stats.failed else {}))
        return self.stats

    def _give_up(self, why: str) -> None:
        self.stats.failed = self.stats.failed or why
        log_event(logger, "daemon.failed", level=logging.ERROR, error=why)
        self.stop()

    def _failed(self, task: str, error: Exception, *, once: bool = False) -> float:
        """Log a task's failure at once; returns the back-off before it is tried again,
        or raises GiveUp after `task_retries` failures in a row (or any, with `once`)."""
        count = self._failures[task] = self._failures.get(task, 0) + 1
        delay = min(TASK_BACKOFF_CAP_SECONDS, self.backoff_base * 2 ** (count - 1))
        last = once or count >= self.task_retries
        log_event(logger, "task.failed", level=logging.ERROR, task=task, error=f"{type(error).__name__}: {error}",
                  failures=count, **({} if last else {"retry_in": delay}))
        if last:
            raise GiveUp(f"{task} failed {count} time(s) in a row, last: {type(error).__name__}: {error}")
        return delay

    def _succeeded(self, task: str) -> None:
        self._failures.pop(task, None)

    async def _receive_loop(self, *, once: bool) -> None:
        failures = 0
        while not self.stop_event.is_set():
            self._heartbeat.touch()
            try:
                if await self._receive_round(once=once):
                    return
                self._succeeded("receive")
                failures = 0
            except SourceError as error:
                if once:
                    raise
                failures += 1
                delay = min(RECONNECT_CAP_SECONDS, 2.0 ** min(failures, 6))
                log_event(logger, "source.error", level=logging.WARNING, error=str(error), retry_in=delay)
                await asyncio.to_thread(self.stop_event.wait, delay)
            except GiveUp:
                raise
            except Exception as error:  # noqa: BLE001 - logged, retried, and given up on past the limit
                delay = self._failed("receive", error, once=once)
                await asyncio.to_thread(self.stop_event.wait, delay)

    async def _receive_round(self, *, once: bool) -> bool:
        """Tick if due, handle a batch of mail, or wait for some; True when `once` is done."""
        await self._tick_if_due(once=once)
        batch = await self._in_worker(self.source.fetch, BATCH)
        if batch:
            done = await self._handle_batch(batch)
            await self._in_worker(self.source.ack, done)
            self.stats.received += len(done)
            self._wake.set()  # type: ignore[union-attr]
            if len(done) == len(batch):
                return False
        if once:
            return True
        await self._in_worker(self.source.wait, self._wait_seconds(), self.stop_event)
        return False

    async def _handle_batch(self, batch: list[IncomingMail]) -> list[IncomingMail]:
        """The mails of `batch` handled, oldest first; a held mail and its sender's later
        mail wait (see the module's docstring)."""
        done: list[IncomingMail] = []
        waiting: set[str] = set()  # senders with an earlier mail still held
        for mail in batch:
            if self.stop_event.is_set():
                break
            held = self._held.get(mail.source_key)
            sender = held.sender if held else raw_sender(mail.raw)
            if sender in waiting or (held and self.clock() < held.retry_at):
                waiting.add(sender)
                continue
            if await self._in_worker(self._intake.process, mail):
                done.append(mail)
                self._held.pop(mail.source_key, None)
                continue
            failures = held.failures + 1 if held else 1
            delay = min(TASK_BACKOFF_CAP_SECONDS, self.backoff_base * 2 ** (failures - 1))
            self._held[mail.source_key] = HeldMail(sender, failures, self.clock() + delay)
            log_event(logger, "mail.held", level=logging.WARNING, source_key=mail.source_key, sender=sender,
                      failures=failures, retry_in=delay)
            waiting.add(sender)
        return done

    def _wait_seconds(self) -> float:
        wake_at = [held.retry_at for held in self._held.values()]
        if self.on_tick:
            wake_at.append(self._next_tick)
        if not wake_at:
            return self.settings.tick_seconds
        return max(0.1, min(wake_at) - self.clock())

    async def _tick_if_due(self, *, once: bool = False) -> None:
        now = self.clock()
        if self.on_tick is None or now < self._next_tick:
            return
        try:  # in the worker, like the handler: the service behind both is one thread's
            mail = list(await self._in_worker(self.on_tick, datetime.fromtimestamp(now, tz=UTC)) or ())
        except Exception as error:  # noqa: BLE001 - a failing clock must not stop the reading of mail
            self._next_tick = now + self._failed("tick", error, once=once)
            return
        self._succeeded("tick")
        self._next_tick = now + self.settings.tick_seconds
        if mail:
            self._send_outbox.enqueue([queue_item(m, from_address=self.settings.from_address, now=now)
                                       for m in mail], now=now)
            self._wake.set()  # type: ignore[union-attr]

    async def _send_round(self) -> None:
        """Queue the mail the store committed, then send what is due — if this process
        is the home's sender (another worker's sender may be at it)."""
        if not self._sender_lock.try_acquire():
            return
        await self._relay()
        self.stats.sent += await drain(self._send_outbox, self.sink, from_address=self.settings.from_address,
                                       clock=self.clock, should_stop=self.stop_event.is_set)

    async def _relay(self) -> None:
        if self.relay is None:
            return
        while True:
            position = self._send_outbox.relayed()
            mail, reached = await asyncio.to_thread(self.relay, position)
            if reached == position:
                return
            now = self.clock()
            self._send_outbox.enqueue([queue_item(m, from_address=self.settings.from_address, now=now)
                                       for m in mail], now=now, relayed=reached)

    async def _send_loop(self) -> None:
        wake = self._wake
        assert wake is not None
        while not self.stop_event.is_set():
            wake.clear()
            try:
                await self._send_round()
                self._succeeded("send")
                next_due = self._send_outbox.next_due_at()
                # New mail may come from elsewhere (a GM command line, another worker): look again soon.
                timeout = self.settings.poll_seconds
                if next_due is not None:
                    timeout = min(timeout, max(0.05, next_due - self.clock()))
            except Exception as error:  # noqa: BLE001 - logged, retried, and given up on past the limit
                try:
                    delay = self._failed("send", error)
                except GiveUp as give_up:
                    self._give_up(str(give_up))
                    return
                # The whole back-off, though mail arriving meanwhile sets `wake`: a full disk
                # must not use up the retries in seconds while players keep writing.
                await asyncio.to_thread(self.stop_event.wait, delay)
                continue
            try:
                await asyncio.wait_for(wake.wait(), timeout)
            except TimeoutError:
                pass


def run(settings: MailSettings, handler: MailHandler, *, once: bool = False, clock: Callable[[], float] = time.time,
        on_tick: TickHook | None = None, relay: Relay | None = None) -> RunStats:
    """Run the daemon in a new event loop; SIGTERM/SIGINT stop it gracefully."""
    daemon = Daemon(settings, handler, clock=clock, on_tick=on_tick, relay=relay)

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
        stats = run(settings, handler, once=args.once)
    except (MailSettingsError, SourceError) as error:
        print(f"pbem mail: {error}", file=sys.stderr)
        return 2
    return 1 if stats.failed else 0


if __name__ == "__main__":
    sys.exit(main())
