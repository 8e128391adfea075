"""The typed changes a GM may rule in Ratio Regis (issue 6): a named change with checked
arguments, never a hand edit of the state. Each is recorded as a fact and announced."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.core.orders import unknown_name
from pbem.core.ruleset import RulingError
from pbem.rules.ratio_regis import unrest
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, regular_quality

RULINGS: dict[str, str] = {
    "vp": "vp player=<id> delta=<n>: add (or take away) victory points",
    "unrest": "unrest power=<CODE> delta=<n>: move a power's unrest (never below 0)",
    "remove-troop": "remove-troop troop=<T…>: take a troop off the map back into its power's pool",
    "place-troop": "place-troop power=<CODE> counter=<2-3|3-4> area=<id>: put a troop from the pool on the map",
    "control": "control area=<id> power=<CODE|none>: set who controls an area",
    "forced-peace": "forced-peace power=<CODE> other=<CODE>: the two are in forced peace until turn end (§21.5.4)",
}

_STEP_TURN = re.compile(r"^t(\d+)/")


def turn_of(step: str) -> int | None:
    match = _STEP_TURN.match(step)
    return int(match.group(1)) if match else None


def _int(args: Mapping[str, Any], name: str) -> int:
    value = str(args.get(name, ""))
    if not value.lstrip("+-").isdigit():
        raise RulingError(f"{name}=<whole number> is needed, not {value!r}")
    return int(value)


def _arg(args: Mapping[str, Any], name: str) -> str:
    value = str(args.get(name, "")).strip()
    if not value:
        raise RulingError(f"{name}=… is needed")
    return value


def _power(state: GameState, args: Mapping[str, Any]) -> str:
    code = _arg(args, "power").upper()
    if code not in state.powers:
        raise RulingError(unknown_name("power", code, sorted(state.powers)))
    return code


def _area(scenario: Scenario, args: Mapping[str, Any]) -> str:
    word = _arg(args, "area")
    area = scenario.find_area(word)
    if area is None:
        raise RulingError(unknown_name("area", word, scenario.area_words))
    return area


def _area_in_play(state: GameState, scenario: Scenario, args: Mapping[str, Any]) -> str:
    area = _area(scenario, args)
    if not state.exists(area):
        raise RulingError(f"{area} is an inactive area: it does not exist for play (§18.2.1)")
    return area


def apply_ruling(state: GameState, scenario: Scenario, kind: str, args: Mapping[str, Any]) -> None:
    if kind == "vp":
        player = _arg(args, "player")
        found = next((p for p in state.players if p.id == player), None)
        if found is None:
            raise RulingError(unknown_name("player", player, [p.id for p in state.players]))
        found.vp += _int(args, "delta")
    elif kind == "unrest":
        unrest.adjust(state, _power(state, args), _int(args, "delta"))
    elif kind == "remove-troop":
        troop = state.troop(_arg(args, "troop"))
        if troop is None:
            raise RulingError(unknown_name("troop", _arg(args, "troop"), [t.id for t in state.troops]))
        state.troops.remove(troop)
        state.powers[troop.power].pool[troop.counter] = state.powers[troop.power].pool.get(troop.counter, 0) + 1
    elif kind == "place-troop":
        power, area, counter = _power(state, args), _area_in_play(state, scenario, args), _arg(args, "counter")
        if counter not in ("2-3", "3-4"):
            raise RulingError("counter=2-3 or counter=3-4")
        if state.powers[power].pool.get(counter, 0) < 1:
            raise RulingError(f"{power} has no {counter} counter left in its pool")
        state.new_troop(power, counter, regular_quality(counter), area=area)
    elif kind == "control":
        area = _area_in_play(state, scenario, args)
        word = _arg(args, "power").upper()
        state.areas[area].controller = None if word == "NONE" else _power(state, args)
    elif kind == "forced-peace":
        power, other = _power(state, args), _power(state, {"power": args.get("other", "")})
        if power == other or state.at_war(power, other):
            raise RulingError(f"{power} and {other}: forced peace is between two powers not at war (§21.5.4)")
        if not state.in_forced_peace(power, other):
            state.forced_peace.append((power, other))
    else:
        raise RulingError(unknown_name("ruling", kind, sorted(RULINGS)))
