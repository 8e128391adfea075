"""`pbem bench scale`: many live campaigns on one PostgreSQL store, several `pbem run`
workers (issue 13).

A fresh database gets `campaigns` Ratio Regis campaigns; `workers` daemons share the store
and the mail state in it (one outbox, one sender) from `homes` homes (two homes stand for
two machines: nothing on disk is shared but the Maildirs), each reading a Maildir of its
own (the mail of a campaign always reaches the same one, as a GM would split the players'
addresses) or, with `shared_inbox`, one mailbox for all. After a
warm-up mail per worker, `mails` player mails arrive at once, spread over the campaigns;
the figures are the throughput (mails/s from the first delivery to the last receipt), the
latency of each mail from its delivery to its receipt in the outbox (median, p95), and
checks: every mail recorded once, no reply written twice.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import psycopg
from eventsourcing.utils import get_topic

from pbem.core.campaign import InboundMail
from pbem.core.datafile import load_data_file
from pbem.core.inbox import mail_identity
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.mail.envelope import parse_mail
from pbem.mail.maildir import ensure_maildir, sink_file_name
from pbem.tools.examples import EXAMPLES
from pbem.tools.reliability_bench import GM, PLAYERS

DEFAULT_POSTGRES = "host=127.0.0.1 port=54329 user=pbem password=pbem"


def postgres_env(spec: str) -> dict[str, str]:
    """A new database on the server `spec` names (libpq key=value), as pbem's settings."""
    params = dict(item.split("=", 1) for item in spec.split())
    dbname = f"pbem_scale_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{dbname}"')
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": params.get("host", "127.0.0.1"), "POSTGRES_PORT": params.get("port", "5432"),
            "POSTGRES_USER": params.get("user", "postgres"), "POSTGRES_PASSWORD": params.get("password", "")}


def drop_database(spec: str, dbname: str) -> None:
    params = dict(item.split("=", 1) for item in spec.split())
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


def mail(n: int, campaign: str) -> bytes:
    player = PLAYERS[n % 3]
    return (f"From: <{player.address}>\r\nTo: {GM}\r\nSubject: orders {n}\r\nMessage-ID: <scale-{n}@players.test>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n"
            f"SIGNON {player.id} {campaign} {player.token}\r\nBID {n % 4}\r\nSIGNOFF\r\n").encode()


def receipt_file(raw: bytes, campaign: str) -> str:
    """The outbox file the receipt of `raw` is written to (`MaildirSink`'s name for its key)."""
    _, mail_id = mail_identity(parse_mail(raw))
    return sink_file_name(f"receipt:{campaign}:{mail_id}")


def run_scale_bench(campaigns: int = 1000, workers: int = 3, mails: int = 2000, *, postgres: str = DEFAULT_POSTGRES,
                    shared_inbox: bool = False, homes: int = 1, timeout: float = 900.0) -> dict:
    """Run the bench (JSON-ready figures); with `shared_inbox` every worker reads one Maildir,
    worker k runs in home k mod `homes`."""
    env = postgres_env(postgres)
    home = Path(tempfile.mkdtemp(prefix="pbem-scale-"))
    worker_homes = [home / f"home-{n}" for n in range(homes)]
    names = [f"c{n:04d}" for n in range(campaigns)]
    started = time.monotonic()
    service = CampaignService(open_store(None, env))  # no renderer: creation's reports are not measured
    scenario = load_data_file(EXAMPLES / "ratio-regis" / "scenario.toml")
    for name in names:
        service.create(name, "ratio-regis", scenario, PLAYERS, secret=bytes(32))
    setup_seconds = time.monotonic() - started
    outbox = ensure_maildir(home / "sent") / "new"
    inboxes = [ensure_maildir(home / f"inbox-{0 if shared_inbox else k}") / "new" for k in range(workers)]
    processes = []
    try:
        for k in range(workers):
            worker_env = {**os.environ, **env, "PBEM_MAILDIR": str(inboxes[k].parent),
                          "PBEM_OUTBOX_MAILDIR": str(outbox.parent), "PBEM_FROM": GM, "PBEM_TICK_SECONDS": "3600",
                          "PBEM_POLL_SECONDS": "0.1"}
            with open(home / f"worker-{k}.log", "ab") as log:
                processes.append(subprocess.Popen([sys.executable, "-m", "pbem", "run", "--home",
                                                   str(worker_homes[k % homes])],
                                                  env=worker_env, stdout=subprocess.DEVNULL, stderr=log))
        limit = time.monotonic() + timeout
        warm = [deliver(inboxes, names, n, n) for n in range(workers)]  # campaign n goes to worker n
        wait_for(outbox, warm, limit)
        burst = [deliver(inboxes, names, n, n % campaigns) for n in range(workers, workers + mails)]
        arrived = wait_for(outbox, burst, limit)
        first = min(at for _, at in burst)
        latencies = [arrived[name] - at for name, at in burst if name in arrived]
        return {
            "campaigns": campaigns,
            "workers": workers,
            "mails": mails,
            "answered": len(latencies),
            "mails_per_s": round(len(latencies) / (max(arrived[name] for name, _ in burst) - first), 1)
            if latencies else 0.0,
            "median_s": round(statistics.median(latencies), 3) if latencies else None,
            "p95_s": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 3) if latencies else None,
            "recorded_twice": recorded_twice(service),
            "sent_twice": sent_twice(home),
            "shared_inbox": shared_inbox,
            "homes": homes,
            "setup_s": round(setup_seconds, 1),
        }
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)
        service.store.close()
        drop_database(postgres, env["POSTGRES_DBNAME"])


def deliver(inboxes: list[Path], names: list[str], n: int, campaign: int) -> tuple[str, float]:
    """Mail `n` for campaign number `campaign`, into its worker's Maildir; its receipt's
    outbox file and when it arrived."""
    raw = mail(n, names[campaign])
    inbox = inboxes[campaign % len(inboxes)]
    temporary = inbox.parent / "tmp" / f"{n}.scale"
    temporary.write_bytes(raw)
    os.replace(temporary, inbox / f"{1_700_000_000 + n}.M{n}.scale")
    return receipt_file(raw, names[campaign]), time.time()


def wait_for(outbox: Path, expected: list[tuple[str, float]], limit: float) -> dict[str, float]:
    """When each expected outbox file appeared (polled every 20 ms)."""
    waiting = {name for name, _ in expected}
    seen: dict[str, float] = {}
    while waiting and time.monotonic() < limit:
        now = time.time()
        present = set(os.listdir(outbox)) & waiting
        for name in present:
            seen[name] = now
        waiting -= present
        time.sleep(0.02)
    return seen


def sent_twice(home: Path) -> int:
    """Replies the workers' logs say were sent more than once."""
    sent: Counter[str] = Counter()
    for log in home.glob("worker-*.log"):
        sent.update(line.split(" key=", 1)[1].split(" ", 1)[0] for line in log.read_text().splitlines()
                    if " event=mail.sent " in line)
    return sum(count - 1 for count in sent.values() if count > 1)


def recorded_twice(service: CampaignService) -> int:
    store = service.store
    topic = get_topic(InboundMail.Received)
    counts: Counter[str] = Counter()
    start = 1
    while batch := store.recorder.select_notifications(start=start, limit=1000, topics=[topic]):
        counts.update(store.mapper.to_domain_event(n).message_id for n in batch)
        start = batch[-1].id + 1
    return sum(1 for count in counts.values() if count > 1)
