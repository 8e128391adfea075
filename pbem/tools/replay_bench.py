"""`pbem bench replay`: how fast a long campaign replays and how cheap one more order is.

It plays a campaign of the requested size through the service (order sets of several
lines, standing policies, decisions answered by them, deadlines passing, steps resolved)
on a SQLite store in a temporary home, then measures:

- `events_per_s`: a full replay (every step re-run, every hash checked, no snapshot);
- `replay_to_read_ratio`: that replay's time over merely reading and decoding the same
  events from the store as the replay reads them (a page at a time) — the floor (target
  ≤ 3); each time is the fastest of `TIMINGS` reads and replays taken in turn, so a burst
  of load on the machine does not decide it;
- `verify_parallel_to_read_ratio`: `pbem verify` as run (the log split at snapshots, one
  process per core of this machine, `verify_jobs`), wall clock over the same read (target ≤ 3);
- `append_ms`: accepting one more order set in a fresh process-like service at the end
  (the median of `APPENDS`, run on through a few turns), and `append_growth`: that against
  the same measured at about 1,000 events (target ≤ 1.5: the cost follows the new events,
  not the history);
- `peak_mb`: the process's peak resident memory (target ≤ 300 MB), and
  `verify_worker_peak_mb` the largest of the verify's worker processes.

A ruleset shapes the traffic through two optional hooks: `bench_scenario()` (a scenario
long enough to play) and `bench_orders(request, state, scenario, n)` (order lines that
answer a request the way a player would); without them the default order forms are used.
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.core import ruleset as rulesets
from pbem.core.decisions import kinds_of
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import ProjectionLoader, open_store
from pbem.core.verify import verify_campaign

NAME = "bench"
PLAYERS = ("p1", "p2", "p3")
TIMINGS = 3  # reads and replays, taken in turn; each figure is its fastest
APPENDS = 60  # appends timed at each size: a few turns of the game and a snapshot cycle


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def _orders_for(service: CampaignService, n: int) -> list[tuple[str, str]]:
    projection = service.live(NAME)
    ruleset = projection.ruleset
    state = projection.current()[1]
    shaped = getattr(ruleset, "bench_orders", None)
    sets = []
    for request in projection.pending():
        if shaped is not None:
            lines = shaped(request, state, projection.scenario, n)
        else:
            lines = kinds_of(ruleset).order_form(request).splitlines()
        sets.append((request.player, "\n".join(lines)))
    return sets


def _append_ms(home: Path, clock: _Clock, n: int, repeats: int = APPENDS) -> float:
    """Median time to accept one order set in a service that has just opened the store.

    One append costs more or less by where the game stands (a bid, an impulse, a turn's end;
    how far the newest snapshot is), so the appends run on through a few turns and a snapshot
    cycle, passing deadlines when nobody owes anything, and the median is of all of them: at
    1,000 events and at the end alike."""
    timings: list[float] = []
    for i in range(repeats * 3):
        if len(timings) == repeats:
            break
        service = CampaignService(open_store(home), clock=clock)
        sets = _orders_for(service, n + i)
        if not sets:
            clock.now += timedelta(days=10)
            service.tick(clock.now)
            service.store.close()
            continue
        player, text = sets[0]
        start = time.perf_counter()
        service.submit(NAME, player, text)
        timings.append((time.perf_counter() - start) * 1000)
        service.store.close()
    return statistics.median(timings) if timings else float("nan")


def play_bench_campaign(home: Path, ruleset_name: str, events: int, clock: _Clock,
                        on_turn: Callable[[CampaignService, int], None] | None = None) -> int:
    """Play campaign `NAME` of `ruleset_name`'s bench scenario in `home` until its log holds
    `events` facts (snapshots stored as the service stores them); `on_turn(service, n)` runs
    before each order round. How many rounds were played."""
    ruleset = rulesets.load(ruleset_name)
    scenario = ruleset.bench_scenario() if hasattr(ruleset, "bench_scenario") else None
    if scenario is None:
        raise ValueError(f"ruleset {ruleset_name} has no bench scenario")
    service = CampaignService(open_store(home), clock=clock)
    players = [PlayerSpec(id=p, address=f"{p}@bench.invalid", token=p) for p in PLAYERS]
    service.create(NAME, ruleset_name, scenario, players, secret=bytes(32))
    for player, text in getattr(ruleset, "bench_policies", lambda: [])():
        service.submit(NAME, player, text)
    n = 0
    while service.live(NAME).data.version < events:
        n += 1
        if on_turn is not None:
            on_turn(service, n)
        sets = _orders_for(service, n)
        if not sets:
            raise RuntimeError("the bench campaign ended before reaching the requested size")
        if n % 7 == 0:  # now and then a player misses the deadline and defaults answer
            clock.now += timedelta(days=10)
            service.tick(clock.now)
            continue
        for player, text in sets:
            service.submit(NAME, player, text)
        clock.now += timedelta(hours=6)
    service.store.close()
    return n


def run_replay_bench(ruleset_name: str, events: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        home = Path(tmp)
        clock = _Clock()
        append_small = None

        def measure_small(service: CampaignService, n: int) -> None:
            nonlocal append_small
            if append_small is None and service.live(NAME).data.version >= 1000:
                append_small = _append_ms(home, clock, n)

        generation_start = time.perf_counter()
        n = play_bench_campaign(home, ruleset_name, events, clock, measure_small)
        generation_s = time.perf_counter() - generation_start
        store = open_store(home)
        total = ProjectionLoader(store).length(NAME)
        store.close()

        read_s, replay_s, verify_s = float("inf"), float("inf"), float("inf")
        for _ in range(TIMINGS):  # the least disturbed of a few: one timing on a shared machine swings ±50%
            reader = CampaignService(open_store(home))
            start = time.perf_counter()
            read = sum(1 for _ in reader.loader.campaign_events(NAME))
            read_s = min(read_s, time.perf_counter() - start)
            reader.store.close()

            replayer = CampaignService(open_store(home))
            start = time.perf_counter()
            projection = replayer.loader.load(NAME, use_snapshots=False, history=False)
            replay_s = min(replay_s, time.perf_counter() - start)
            replayer.store.close()
            if projection.divergences:
                raise RuntimeError(f"replay diverged at {projection.divergences[0].step}")

            start = time.perf_counter()
            verdict = verify_campaign(home, NAME)
            verify_s = min(verify_s, time.perf_counter() - start)
            if verdict.failure is not None:
                raise RuntimeError(f"the parallel verify failed: {verdict.failure}")

        append_large = _append_ms(home, clock, n + 100)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker_peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "ruleset": ruleset_name,
        "events": total,
        "steps": projection.data.steps_resolved,
        "generation_s": round(generation_s, 2),
        "read_s": round(read_s, 3),
        "replay_s": round(replay_s, 3),
        "events_per_s": round(read / replay_s),
        "replay_to_read_ratio": round(replay_s / read_s, 2),
        "verify_s": round(verify_s, 3),
        "verify_jobs": os.cpu_count(),
        "verify_segments": verdict.segments,
        "verify_parallel_to_read_ratio": round(verify_s / read_s, 2),
        "append_ms": round(append_large, 2),
        "append_ms_at_1000": round(append_small, 2) if append_small else None,
        "append_growth": round(append_large / append_small, 2) if append_small else None,
        "peak_mb": round(peak_mb, 1),
        "verify_worker_peak_mb": round(worker_peak_mb, 1),
    }
