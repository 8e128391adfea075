"""Traffic for `pbem bench replay`: a long synthetic campaign played the way players play.

The bench scenario is the example France–Huguenots–England scenario run for thousands
of turns (synthetic, so longer than the game's 20). Each impulse script plays a card
for points and spends every action on strategic moves between the power's own areas,
so order sets are several lines long and every line is checked and carried out.
"""

from __future__ import annotations

import tomllib

from pbem import resources
from pbem.core.decisions import kinds_of
from pbem.core.engine import Request
from pbem.rules.ratio_regis.impulse import run_script
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState

EXAMPLE = resources.examples_dir() / "ratio-regis" / "scenario.toml"
BENCH_TURNS = 5000


def bench_scenario() -> dict:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["id"] = data["id"] + "-bench"
    data["synthetic"] = True
    data["last_turn"] = data["first_turn"] + BENCH_TURNS
    return data


def bench_policies() -> list[tuple[str, str]]:
    """Standing policies every bench player sets once: who starts each half turn."""
    return [(player, "POLICY START DO START p1 CW") for player in ("p1", "p2", "p3")]


def bench_orders(ruleset, request: Request, state: GameState, scenario: Scenario, n: int) -> list[str]:
    if request.kind == "bid":
        return [f"BID {n % 4}"]
    if request.kind != "impulse":
        return kinds_of(ruleset).order_form(request).splitlines()
    script = [line for line in request.default if line != "DONE"]
    budgets = _budgets(script, state, scenario, request.player)
    moves = _moves(state, scenario, request.player, budgets, n)
    # Keep the longest legal script: drop moves from the end until the whole script passes.
    while moves:
        candidate = script + moves + ["DONE"]
        if run_script(state, scenario, request.player, list(enumerate(candidate, start=1))).legal:
            return candidate
        moves.pop()
    return list(request.default)


def _budgets(script: list[str], state: GameState, scenario: Scenario, player: str) -> list[tuple[str, str]]:
    """(power, budget) for every action the script allows: intrinsic, then card points."""
    budgets = [(power, "I") for power in state.powers_of(player, scenario)]
    for line in script:
        words = line.split()
        if words[0] == "PLAY" and "POINTS" in words:
            card = words[1]
            for allocation in words[words.index("POINTS") + 1].split(","):
                power, points = allocation.split("=")
                budgets += [(power, f"C{card}")] * int(points)
    if not script:  # a cardless impulse: one extra action (§8.2.3)
        budgets += [(p, "X") for p in state.powers_of(player, scenario)[:1]]
    return budgets


def _moves(state: GameState, scenario: Scenario, player: str, budgets: list[tuple[str, str]], n: int) -> list[str]:
    """A strategic move for each budget: a troop to an adjacent area its power controls."""
    moves, moved = [], set()
    for power, budget in budgets:
        for troop in sorted(state.troops, key=lambda t: int(t.id[1:])):
            if troop.power != power or troop.area is None or troop.id in moved:
                continue
            targets = [a for a in sorted(scenario.areas[troop.area].adjacent)
                       if state.areas[a].controller == power]
            if targets:
                target = targets[n % len(targets)]
                moves.append(f"{power} {budget} STRAT TROOP {troop.id} PATH {troop.area}>{target}")
                moved.add(troop.id)
                break
    return moves
