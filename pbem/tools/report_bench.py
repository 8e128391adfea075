"""`pbem bench report`: is rendering cheap next to adjudication?

A campaign is played on the embedded default store (SQLite in a scratch home, as a GM's
campaign runs; `store="memory"` for the in-memory one) by players who answer every report
with its own order form, unchanged — the defaults are legal by construction, so any game
plays without a game-specific order generator. Such play seldom moves a unit, so it draws
few maps; `--example` plays an example campaign's mails instead (moves, battles, a new map
at most steps). Adjudication (the service resolving each order set) and rendering (every
report the campaign mails, text + HTML + JSON + map, as its `reports` setting decides)
are timed apart. Rendering uses the projection the service holds between mails, as a
running daemon does; what a daemon pays once per process (loading the PNG library,
compiling the templates) is paid before the clock starts, by rendering one report.
"""

from __future__ import annotations

import tempfile
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pbem.core import ruleset as rulesets
from pbem.core.service import CampaignService, PlayerSpec, report_recipients
from pbem.core.settings import REPORT_MODES
from pbem.core.store import open_store
from pbem.reports.models import TOKEN_PLACEHOLDER, build_report
from pbem.reports.maps import fresh_pictures
from pbem.reports.renderer import MailRenderer, map_drawing
from pbem.tools.examples import EXAMPLES, deliver_example, demo_dir

CLOCK = datetime(2026, 1, 1, tzinfo=timezone.utc)
MAX_ORDER_SETS = 100_000
STORES = ("sqlite", "memory")


class BenchError(Exception):
    """The bench campaign cannot be played (no scenario, a default refused…)."""


def default_scenario() -> Path:
    """The first example scenario shipped (a file naming its ruleset)."""
    found = sorted(EXAMPLES.glob("*/scenario.toml"))
    if not found:
        raise BenchError(f"no example scenario under {EXAMPLES}")
    return found[0]


@contextmanager
def bench_service(store: str) -> Iterator[CampaignService]:
    """A campaign service on a scratch store: `sqlite` (the embedded default) or `memory`."""
    if store not in STORES:
        raise BenchError(f"unknown store {store!r} ({' or '.join(STORES)})")
    if store == "memory":
        yield CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}), clock=lambda: CLOCK)
        return
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as home:
        yield CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                              "SQLITE_DBNAME": str(Path(home) / "campaigns.sqlite")}),
                              clock=lambda: CLOCK)


def run_report_bench(turns: int = 20, *, scenario: Path | None = None, players: int = 3,
                     overrides: dict[str, Any] | None = None, reports: str = REPORT_MODES[0],
                     store: str = STORES[0]) -> dict[str, Any]:
    """Play `turns` turns (a turn ends when the view's `turn_label` changes; fewer if the
    scenario ends first) and time adjudication against rendering every report mailed
    (`reports`: the campaign's mailing setting)."""
    with bench_service(store) as service:
        return {"store": store, **_play_turns(service, turns, scenario, players, overrides or {}, reports)}


def _play_turns(service: CampaignService, turns: int, scenario: Path | None, players: int,
                overrides: dict[str, Any], reports: str) -> dict[str, Any]:
    path = scenario or default_scenario()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    ruleset = data.get("ruleset")
    if not ruleset:
        raise BenchError(f"{path} does not name its ruleset (ruleset = \"...\")")
    if scenario is None:  # the game's own long bench scenario, so `turns` turns can be played
        game = rulesets.load(ruleset)
        data = game.bench_scenario() if hasattr(game, "bench_scenario") else data
    data = {**data, **overrides}
    specs = [PlayerSpec(id=f"p{n}", name=f"Player {n}", address=f"p{n}@bench.invalid", token=f"t{n}")
             for n in range(1, players + 1)]
    name = "bench"
    started = time.perf_counter()
    service.create(name, ruleset, data, specs, secret=bytes(32), settings={"reports": reports})
    adjudication = time.perf_counter() - started
    renderer = MailRenderer()
    renderer.report(service.live(name), specs[0].id, since_version=0, key="warm-up")
    render = maps = adjudication_cpu = 0.0
    mailed = 0
    labels: list[str] = []
    for _ in range(MAX_ORDER_SETS):
        projection = service.live(name)
        label = projection.view("public").get("turn_label", "")
        if not labels or labels[-1] != label:
            labels.append(label)
        if projection.finished or len(labels) > turns:
            break
        owing = [p.id for p in specs if projection.pending_for(p.id)]
        if not owing:
            raise BenchError(f"nobody owes anything at {projection.data.step}, but the game is not over")
        player = owing[0]
        form = build_report(projection, player).order_form or ""
        before = projection.data.version
        started, cpu = time.perf_counter(), time.process_time()
        outcome = service.submit(name, player, form.replace(TOKEN_PLACEHOLDER, f"t{player[1:]}"))
        adjudication += time.perf_counter() - started
        adjudication_cpu += time.process_time() - cpu
        if not outcome.receipt.accepted:
            raise BenchError(f"the default orders of {player} were refused: {outcome.receipt.reason}")
        count, seconds, drawing = _render_mailed_reports(service, renderer, name, before, outcome.steps_resolved)
        mailed += count
        render += seconds
        maps += drawing
    status = service.live(name).status()
    return {"scenario": str(data.get("id", path)), "ruleset": ruleset, "reports_setting": reports,
            "turns": min(turns, len(labels)), **_figures(status, mailed, adjudication, render, adjudication_cpu, maps)}


def run_example_bench(ruleset: str, example: str, reports: str | None = None,
                      store: str = STORES[0]) -> dict[str, Any]:
    """Play the example campaign `examples/<ruleset>/<example>/` mail by mail and time the
    service's handling of each mail against rendering the reports the service mails after
    it (the example's own `reports` setting decides who gets one, unless `reports` is given)."""
    with bench_service(store) as service:
        return {"store": store, **_play_example(service, ruleset, example, reports)}


def _play_example(service: CampaignService, ruleset: str, example: str, reports: str | None) -> dict[str, Any]:
    settings = {"reports": reports} if reports else None
    deliveries = deliver_example(service, demo_dir(ruleset, example), settings=settings)
    renderer = MailRenderer()
    adjudication = render = maps = adjudication_cpu = 0.0
    mailed = mails = refused = 0
    warm = False
    while True:
        started, cpu = time.perf_counter(), time.process_time()
        delivery = next(deliveries, None)
        adjudication += time.perf_counter() - started
        adjudication_cpu += time.process_time() - cpu
        if delivery is None:
            break
        mails += 1
        refused += len(delivery.refused)
        projection = service.live(delivery.campaign)
        if not warm:  # what a running daemon pays once, as in the 20-turn bench
            renderer.report(projection, delivery.player, since_version=0, key="warm-up")
            warm = True
        count, seconds, drawing = _render_mailed_reports(service, renderer, delivery.campaign,
                                                         delivery.version_before, delivery.steps_resolved)
        mailed += count
        render += seconds
        maps += drawing
    setting = projection.settings.reports
    return {"scenario": f"example {example}", "ruleset": ruleset, "reports_setting": setting, "mails": mails,
            "lines_refused": refused,
            **_figures(projection.status(), mailed, adjudication, render, adjudication_cpu, maps)}


def _render_mailed_reports(service: CampaignService, renderer: MailRenderer, name: str, before: int,
                           resolved: int) -> tuple[int, float, float]:
    """The reports the service mails after work that began at `before`, from the projection
    it holds between commands, as a running daemon does: how many, how long; and the
    processor time drawing their maps takes on its own, each drawn anew (`fresh_pictures`:
    an upper bound, as the players of a step share a drawing)."""
    projection = service.live(name)
    recipients = report_recipients(projection, before, resolved)
    if not recipients:
        return 0, 0.0, 0.0
    projection = service.remembering(projection, min(since for _, since in recipients))
    started = time.perf_counter()
    for player, since in recipients:
        renderer.report(projection, player, since_version=since, key="bench")
    rendered = time.perf_counter() - started
    drawing = 0.0
    for player, since in recipients:
        pictures = map_drawing(build_report(projection, player, since_version=since))
        if pictures is not None:
            started = time.process_time()
            fresh_pictures(pictures)
            drawing += time.process_time() - started
    return len(recipients), rendered, drawing


def _figures(status: dict, reports: int, adjudication: float, render: float, adjudication_cpu: float,
             maps: float) -> dict[str, Any]:
    """The figures; the maps are weighed against adjudication in processor time, which a
    machine shared with other work does not inflate as it does the time on the clock."""
    return {"steps": status["steps_resolved"], "finished": status["finished"], "reports": reports,
            "adjudication_s": round(adjudication, 4), "render_s": round(render, 4),
            "render_per_report_ms": round(1000 * render / reports, 2) if reports else None,
            "adjudication_cpu_s": round(adjudication_cpu, 4), "maps_cpu_s": round(maps, 4),
            "map_per_report_cpu_ms": round(1000 * maps / reports, 2) if reports else None,
            # a map drawn anew against adjudicating one step (below 1: drawing is cheaper), and all
            # the maps mailed against all the adjudication
            "map_to_step": round((maps / reports) / (adjudication_cpu / status["steps_resolved"]), 3)
            if reports and adjudication_cpu and status["steps_resolved"] else None,
            "maps_to_adjudication": round(maps / adjudication_cpu, 3) if adjudication_cpu else None}
