"""Traffic for `pbem bench replay`: the example scenario run for centuries of months
(synthetic, so longer than any scenario), each power's land orders moving every corps to
a neighbouring area of its own territory and back, so every order set is several lines
long and every line is checked and carried out."""

from __future__ import annotations

import tomllib

from pbem import resources
from pbem.core.decisions import kinds_of
from pbem.core.engine import Request
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.sequence import check_orders
from pbem.rules.empires_in_arms.state import GameState

EXAMPLE = resources.examples_dir() / "empires-in-arms" / "scenario.toml"
BENCH_YEARS = 2000


def bench_scenario() -> dict:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["id"] = data["id"] + "-bench"
    data["synthetic"] = True
    data["end"] = {"year": data["start"]["year"] + BENCH_YEARS, "month": 12}
    return data


def bench_policies() -> list[tuple[str, str]]:
    """Every bench player holds its garrisoned depots when the enemy enters (§7.3.6.2)."""
    return [(player, "POLICY depot-entry DO HOLD") for player in ("p1", "p2", "p3")]


def bench_orders(ruleset, request: Request, state: GameState, scenario: Scenario, n: int) -> list[str]:
    if request.kind != "land":
        return kinds_of(ruleset).order_form(request).splitlines()
    power = request.power or ""
    lines = []
    for corps in [c for c in state.corps if c.power == power]:
        home = [a for a in scenario.neighbours[corps.area] if scenario.areas[a].owner == power]
        if home:
            lines.append(f"MOVE {corps.id} {home[n % len(home)]}")
    # Keep the longest legal set: drop moves from the end until the whole set passes.
    while lines:
        if check_orders(state, scenario, power, list(enumerate(lines, start=1)))[1]:
            return lines
        lines.pop()
    return ["STAND"]
