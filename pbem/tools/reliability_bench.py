"""`pbem bench reliability`: the daemon SIGKILLed at random moments while mails arrive and
deadlines pass, against an uninterrupted run of the same inputs (issue 13).

One home is played without interruption, in process; another by `pbem run` (real Dovecot,
real SMTP) killed and restarted again and again. Both have the same campaigns: `letters`,
which the players' mails go to, and a few `clock-N` that only the clock moves (nobody
answers: every deadline passes and the missed-orders policy answers for everybody). So
the outcome depends on no timing: the clock's time is virtual — each tick jumps to the
earliest deadline due, up to `hours` after the start — and the service's time is fixed.

Then: every mail must be recorded once; every mail the uninterrupted run caused must have
been sent, once, with the same bytes (but for the Date header); the state hashes must be
equal. A duplicate can come only from the documented SMTP window (a kill between the
server's "250 OK" and the outbox's commit), so at most one per kill.

The worker the harness kills is this module: `python -m pbem.tools.reliability_bench HOME`.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

from eventsourcing.utils import get_topic
from imapclient import IMAPClient

from pbem.app import build_service, serve
from pbem.core.campaign import Campaign, InboundMail
from pbem.core.datafile import load_data_file
from pbem.core.inbox import handle_mail
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.mail.compose import compose
from pbem.mail.envelope import parse_mail
from pbem.mail.localservers import Dovecot, SmtpCapture
from pbem.tools.examples import EXAMPLES

GM, GM_PASSWORD = "gm@pbem.test", "gm-reliability-secret"
START = datetime(2027, 3, 1, 12, 0, tzinfo=timezone.utc)
LETTERS = "letters"
PLAYERS = [PlayerSpec(id="fra", address="fra@pbem.test", token="s3cret"),
           PlayerSpec(id="hug", address="hug@pbem.test", token="t0ken"),
           PlayerSpec(id="eng", address="eng@pbem.test", token="r0se")]
#: The letters campaign's GM, whose mails carry several commands (each its own commit).
UMPIRE = PlayerSpec(id="gm", address="umpire@pbem.test", token="gavel", role="gm")
#: The letters campaign never reaches a deadline; the clock campaigns one an hour, without
#: reminders (whether one is due depends on when the clock looks, which a kill changes).
SETTINGS = {LETTERS: {"press": "open", "deadline_hours": 10_000},
            "clock": {"deadlines": {"hours": 1, "reminders": []}}}


def player_mail(n: int) -> bytes:
    """Mail `n` of the run: bids, a standing policy, press and EXPLAIN in turn, so every
    section of a receipt and every kind of reply is exercised; one in ten is the GM's, three
    commands a kill can fall between (their announcements must go out once, unchanged)."""
    player = PLAYERS[n % 3] if n % 10 != 9 else UMPIRE
    lines = [f"SIGNON {player.id} {LETTERS} {player.token}"]
    if player is UMPIRE:
        lines += [f"GM EXTEND 1 letter {n}", f"GM PAUSE letter {n}", f"GM RESUME letter {n}"]
    else:
        lines += orders(n)
    body = "\r\n".join([*lines, "SIGNOFF", ""])
    return (f"From: <{player.address}>\r\nTo: {GM}\r\nSubject: orders {n}\r\nMessage-ID: <rel-{n}@players.test>\r\n"
            f"Date: Mon, 1 Mar 2027 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def orders(n: int) -> list[str]:
    """A player's orders in mail `n`."""
    lines = [f"BID {n % 4}"]
    if n % 5 == 0:
        lines.append("POLICY disband DO KEEP")
    if n % 7 == 0:
        lines += ["PRESS TO ALL", f"Letter number {n}.", "ENDPRESS"]
    if n % 11 == 0:
        lines.append("EXPLAIN auction")
    return lines


def fixed_clock() -> datetime:
    return START


def virtual_now(service: CampaignService, hours: int) -> datetime:
    """The clock's time: the earliest deadline still to pass among the clock campaigns, if
    it is no later than `hours` after the start (else the start: nothing more passes)."""
    due = []
    for name in service.names():
        if not name.startswith("clock-"):
            continue
        projection = service.live(name)
        step = projection.step
        if step in projection.data.deadlines and step not in projection.data.deadlines_passed:
            due.append(datetime.fromisoformat(projection.data.deadlines[step]))
    earliest = min(due, default=START)
    return earliest if earliest <= START + timedelta(hours=hours) else START


def create_campaigns(home: Path, clocks: int) -> dict[str, bytes]:
    """The campaigns of a run; the mail their creation caused, composed (by key)."""
    service = build_service(home, from_address=GM, clock=fixed_clock)
    scenario = load_data_file(EXAMPLES / "ratio-regis" / "scenario.toml")
    sent: dict[str, bytes] = {}
    for name in [LETTERS, *(f"clock-{n}" for n in range(1, clocks + 1))]:
        players = [*PLAYERS, UMPIRE] if name == LETTERS else PLAYERS
        _, outcome = service.create(name, "ratio-regis", scenario, players, secret=bytes(32),
                                    settings=SETTINGS[LETTERS if name == LETTERS else "clock"])
        sent.update((m.key, normalised(compose(m, from_address=GM, date=START))) for m in outcome.mail)
    service.store.close()
    return sent


def normalised(raw: bytes) -> bytes:
    """A mail as sent, without what may differ between two runs (its Date header)."""
    lines = raw.replace(b"\r\n", b"\n").split(b"\n")
    return b"\n".join(line for line in lines if not line.startswith(b"Date: "))


def uninterrupted(home: Path, mails: int, hours: int, clocks: int) -> tuple[dict[str, bytes], dict[str, str], int]:
    """The reference run: each mail handled in turn, then the clock until nothing passes.
    Returns the mail it caused (by key), each campaign's state hash, deadlines passed."""
    sent = create_campaigns(home, clocks)
    service = build_service(home, from_address=GM, clock=fixed_clock)
    out = []
    for n in range(mails):
        out += handle_mail(service, parse_mail(player_mail(n))).replies
    while outcomes := service.tick(virtual_now(service, hours)):
        out += [m for outcome in outcomes for m in outcome.mail]
    sent.update((m.key, normalised(compose(m, from_address=GM, date=START))) for m in out)
    return sent, state_hashes(service), deadlines_passed(service)


def state_hashes(service: CampaignService) -> dict[str, str]:
    return {name: service.projection(name).data.last_hash for name in service.names()}


def deadlines_passed(service: CampaignService) -> int:
    return sum(isinstance(event, Campaign.DeadlinePassed) for name in service.names() if name.startswith("clock-")
               for event in service.loader.campaign_events(name))


def deliver(dovecot: Dovecot, raws: list[bytes]) -> None:
    client = IMAPClient("127.0.0.1", port=dovecot.imap_port, ssl=False, timeout=30)
    client.login(GM, GM_PASSWORD)
    for raw in raws:
        client.append("INBOX", raw)
    client.logout()


def folder_counts(dovecot: Dovecot) -> tuple[int, int]:
    """Mails still in the GM's INBOX, and moved to Processed."""
    client = IMAPClient("127.0.0.1", port=dovecot.imap_port, ssl=False, timeout=30)
    client.login(GM, GM_PASSWORD)
    try:
        counts = []
        for folder in ("INBOX", "Processed"):
            counts.append(client.select_folder(folder, readonly=True)[b"EXISTS"] if client.folder_exists(folder)
                          else 0)
        return counts[0], counts[1]
    finally:
        client.logout()


def daemon_starts(home: Path) -> int:
    return (home / "daemon.log").read_bytes().count(b"event=daemon.start")


def start_worker(home: Path, env: dict[str, str]) -> subprocess.Popen:
    with open(home / "daemon.log", "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "pbem.tools.reliability_bench", str(home)], env=env,
                                stdout=subprocess.DEVNULL, stderr=log)


def run_reliability_bench(mails: int = 1000, hours: int = 25, clocks: int = 4, *, min_kills: int = 10,
                          max_kills: int = 400, kill_window: tuple[float, float] = (1.5, 5.0), seed: int = 13,
                          timeout: float = 3600.0) -> dict:
    """Play the inputs once uninterrupted and once under SIGKILLs; compare (JSON-ready).
    A worker is killed `kill_window` seconds after it started (it takes a second or two
    to start), again and again while work remains, then one runs until all is sent."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="pbem-reliability-"))
    reference, hashes, passed = uninterrupted(work / "reference", mails, hours, clocks)
    home = work / "killed"
    create_campaigns(home, clocks)
    dovecot = Dovecot({GM: GM_PASSWORD}).start()
    capture = SmtpCapture().start()
    started = time.monotonic()
    try:
        env = {**os.environ, "PBEM_IMAP_URL": dovecot.url(GM), "PBEM_SMTP_URL": capture.url, "PBEM_FROM": GM,
               "PBEM_CA_FILE": str(dovecot.cert), "PBEM_TICK_SECONDS": "0.5",
               "PBEM_RELIABILITY_HOURS": str(hours)}
        batches = [[player_mail(n) for n in range(start, min(mails, start + 25))] for start in range(0, mails, 25)]
        failures: list[BaseException] = []

        def arrive() -> None:
            try:
                for batch in batches:
                    deliver(dovecot, batch)
                    time.sleep(rng.uniform(0.2, 1.0))
            except BaseException as error:  # noqa: BLE001 - reported below
                failures.append(error)

        deliverer = threading.Thread(target=arrive, daemon=True)
        deliverer.start()
        kills = 0
        limit = time.monotonic() + timeout
        while (deliverer.is_alive() or kills < min_kills or not settled(capture, reference, 0.0)) \
                and kills < max_kills and time.monotonic() < limit:
            worker = start_worker(home, env)
            time.sleep(rng.uniform(*kill_window))
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
            kills += 1
        deliverer.join(timeout=60)
        if failures:
            raise failures[0]
        starts = daemon_starts(home)
        worker = start_worker(home, env)
        try:  # the last one runs until everything is sent (it must have started to stop cleanly)
            while (daemon_starts(home) == starts or not settled(capture, reference, 2.0)) \
                    and time.monotonic() < limit:
                time.sleep(0.5)
        finally:
            worker.send_signal(signal.SIGTERM)
            clean_exit = worker.wait(timeout=60) == 0
        result = figures(home, capture, reference, hashes, passed, mails=mails, kills=kills, clean_exit=clean_exit,
                         seconds=time.monotonic() - started)
        result["inbox_left"], result["processed_folder"] = folder_counts(dovecot)
        return result
    finally:
        capture.stop()
        dovecot.stop()


def settled(capture: SmtpCapture, reference: dict[str, bytes], quiet: float) -> bool:
    """Everything the reference sent has arrived, and nothing for `quiet` seconds."""
    received = capture.mails
    if not set(reference) <= {m.key for m in received}:
        return False
    return not received or time.time() - max(m.received_at for m in received) >= quiet


def figures(home: Path, capture: SmtpCapture, reference: dict[str, bytes], hashes: dict[str, str], passed: int, *,
            mails: int, kills: int, clean_exit: bool, seconds: float) -> dict:
    store = open_store(home)
    recorded = Counter(store.mapper.to_domain_event(n).message_id
                       for n in store.recorder.select_notifications(start=1, limit=10 * mails + 100,
                                                                    topics=[get_topic(InboundMail.Received)]))
    service = build_service(home, from_address=GM, clock=fixed_clock)
    received = capture.mails
    copies = Counter(m.key for m in received)
    first: dict[str, bytes] = {}
    resends_differing = 0
    for mail in received:
        resends_differing += first.setdefault(mail.key, normalised(mail.raw)) != normalised(mail.raw)
    return {
        "mails": mails,
        "deadlines": passed,
        "kills": kills,
        "recorded_once": sum(1 for count in recorded.values() if count == 1),
        "recorded_twice": sum(1 for count in recorded.values() if count > 1),
        "replies_expected": len(reference),
        "gm_announcements": sum(key.startswith("gm:") for key in reference),
        "lost": len(set(reference) - set(copies)),
        "duplicated": sum(count - 1 for count in copies.values()),
        "unexpected": len(set(copies) - set(reference)),
        "examples": sorted(set(reference) ^ set(copies))[:10],
        "replies_differing": sum(1 for key, raw in first.items() if key in reference and reference[key] != raw),
        "resends_differing": resends_differing,
        "hash_equal": state_hashes(service) == hashes,
        "deadlines_killed_run": deadlines_passed(service),
        "clean_exit": clean_exit,
        "seconds": round(seconds, 1),
    }


def worker(home: Path) -> int:
    """`pbem run` for the killed home, with the run's fixed and virtual times."""
    hours = int(os.environ.get("PBEM_RELIABILITY_HOURS", "25"))
    stats = serve(home, clock=fixed_clock, tick_clock=lambda service: virtual_now(service, hours))
    return 1 if stats.failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 2:
        sys.exit(worker(Path(sys.argv[1])))
    print(json.dumps(run_reliability_bench(), indent=2))
