"""The typed changes a GM may rule on an Empires in Arms state (`pbem gm ruling`), for
what the rules do not adjudicate yet (a siege resolved at the table, a disputed forage)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.orders import unknown_name
from pbem.core.ruleset import RulingError
from pbem.rules.empires_in_arms.charts import FACTOR_TYPES
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState

RULINGS: dict[str, str] = {
    "money": "money power=<CODE> amount=<n>: set a power's money points",
    "factors": "factors corps=<id> type=<INF|MIL|CAV|GRD|ART> count=<n>: set a corps' factors of one type "
               "(0 of every type removes the corps)",
    "move-corps": "move-corps corps=<id> area=<id>: put a corps counter in another area",
}


def _number(args: Mapping[str, Any], name: str) -> int:
    text = str(args.get(name, ""))
    if not text.isdigit():
        raise RulingError(f"{name}=<n> must be a whole number of 0 or more, not {text!r}")
    return int(text)


def _corps(state: GameState, args: Mapping[str, Any]):
    name = str(args.get("corps", ""))
    corps = next((c for c in state.corps if c.id.lower() == name.lower()), None)
    if corps is None:
        raise RulingError(unknown_name("corps", name, [c.id for c in state.corps]))
    return corps


def apply_ruling(state: GameState, scenario: Scenario, kind: str, args: Mapping[str, Any]) -> None:
    if kind == "money":
        code = str(args.get("power", "")).upper()
        if code not in state.powers:
            raise RulingError(unknown_name("power", code, state.powers))
        state.powers[code].money = _number(args, "amount")
    elif kind == "factors":
        corps = _corps(state, args)
        factor = str(args.get("type", "")).upper()
        if factor not in FACTOR_TYPES:
            raise RulingError(unknown_name("factor type", factor, FACTOR_TYPES))
        corps.factors = dict(sorted({**corps.factors, factor: _number(args, "count")}.items()))
        corps.factors = {k: n for k, n in corps.factors.items() if n}
        if not corps.strength:
            state.corps.remove(corps)
            for leader in state.leaders:
                if leader.corps == corps.id:
                    leader.corps = None
    elif kind == "move-corps":
        corps = _corps(state, args)
        area = str(args.get("area", ""))
        found = next((a for a in scenario.areas if a.lower() == area.lower()), None)
        if found is None:
            raise RulingError(unknown_name("area", area, scenario.areas))
        corps.area = found
    else:
        raise RulingError(unknown_name("ruling", kind, sorted(RULINGS)))
