"""`pbem verify`: a whole-log replay checking every step's recorded state hash, split at
stored projection snapshots so that segments replay side by side in their own processes.

Nothing is weaker than a serial replay. The first segment starts from the campaign's
creation; every later one starts from a stored snapshot, and the segment before it must end
on exactly those bytes (`encode_snapshot` of its own fold), so the snapshots a run trusts
are the ones it has proved: a passing run proves the chain a serial replay proves, and a
divergence is still named by the step whose hash differs. Segments run in any order; the
verdict is read in log order, so the first divergence reported is the first in the log.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.dice import commitment
from pbem.core.projection import encode_snapshot
from pbem.core.store import ProjectionLoader, open_store

SEGMENTS_PER_JOB = 4  # more segments than workers, so one slow segment does not hold the rest idle


@dataclass(frozen=True)
class Segment:
    """Log versions `start` (exclusive; 0 is the campaign's creation) to `end` (inclusive;
    None is the log's end)."""

    start: int
    end: int | None


@dataclass(frozen=True)
class SegmentVerdict:
    segment: Segment
    facts: int
    steps: int
    last_hash: str
    engines: dict[str, int]
    divergence: str | None = None  # the first in the segment, told by step
    boundary: str | None = None  # its end state is not the snapshot the next segment starts from


@dataclass
class Verdict:
    campaign: str
    steps: int = 0
    last_hash: str = ""
    engine: str = ""
    engines: Counter = field(default_factory=Counter)
    segments: int = 0
    failure: str | None = None


def plan(loader: ProjectionLoader, name: str, engine: str, segments: int) -> list[Segment]:
    """Split the log near even cuts, at the stored snapshots of this engine."""
    length = loader.length(name)
    cuts: list[int] = []
    for k in range(1, segments):
        version = loader.snapshot_version(name, engine, length * k // segments)
        if version is not None and version > (cuts[-1] if cuts else 0):
            cuts.append(version)
    bounds = [0, *cuts]
    return [Segment(start, end) for start, end in zip(bounds, [*cuts, None])]


def verify_segment(home: str | None, env: dict[str, str] | None, name: str, segment: Segment) -> SegmentVerdict:
    """Replay one segment in a store of its own and say what it found."""
    store = open_store(Path(home) if home else None, env)
    try:
        loader = ProjectionLoader(store)
        projection = loader.load_segment(name, segment.start, segment.end)
        first = projection.divergences[0] if projection.divergences else None
        divergence = None
        if first is not None:
            divergence = (f"step {first.step} diverges at log version {first.version}: {first.reason} "
                          f"(recorded {first.recorded[:16]}, replayed {first.computed[:16]})")
        boundary = None
        if segment.end is not None:
            stored = loader.snapshot_at(name, projection.engine_version, segment.end)
            if stored != encode_snapshot(projection.data):
                last = projection.resolved[-1].step if projection.resolved else "the campaign's start"
                boundary = (f"the replay up to log version {segment.end} (last step {last}) does not end on the "
                            f"stored snapshot the next segment starts from")
        engines = Counter(s.engine_version for s in projection.resolved)
        return SegmentVerdict(segment, projection.events_folded, projection.data.steps_resolved,
                              projection.data.last_hash, dict(engines), divergence, boundary)
    finally:
        store.close()


def verify_campaign(home: Path | None, name: str, jobs: int | None = None,
                    on_segment: Callable[[int, int], None] | None = None,
                    env: dict[str, str] | None = None) -> Verdict:
    """Verify campaign `name` of the store of `home` (and `env`, as `open_store` reads them)
    in `jobs` processes (default: the machine's cores). `on_segment(facts, total)` hears each
    finished segment (a progress bar)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    store = open_store(home, env)
    try:
        loader = ProjectionLoader(store)
        created = loader.created(name)
        projection = loader.fresh(name, created)
        engine = projection.engine_version
        total = loader.length(name)
        segments = plan(loader, name, engine, jobs * SEGMENTS_PER_JOB) if jobs > 1 else [Segment(0, None)]
        promised = projection.data.commitment
        secret = projection.secret
    finally:
        store.close()
    verdict = Verdict(name, engine=engine, segments=len(segments))
    if commitment(secret) != promised:
        verdict.failure = f"{name}: the dice secret does not match the published commitment"
        return verdict
    where = str(home) if home is not None else None
    if len(segments) == 1:
        found = [verify_segment(where, env, name, segments[0])]
        if on_segment is not None:
            on_segment(found[0].facts, total)
    else:
        found = []
        # fork: a worker inherits the loaded rulesets instead of importing them again
        with ProcessPoolExecutor(min(jobs, len(segments)), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(verify_segment, where, env, name, segment) for segment in segments]
            for future in as_completed(futures):
                found.append(future.result())
                if on_segment is not None:
                    on_segment(found[-1].facts, total)
        found.sort(key=lambda v: v.segment.start)
    for part in found:
        verdict.engines.update(part.engines)
        if part.divergence is not None:
            verdict.failure = f"{name}: {part.divergence}"
            return verdict
        if part.boundary is not None:
            verdict.failure = f"{name}: {part.boundary}"
            return verdict
    verdict.steps, verdict.last_hash = found[-1].steps, found[-1].last_hash
    return verdict
