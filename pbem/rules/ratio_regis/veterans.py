"""Veterans lose their status at turn end (§16.2, §23.1.2; example §32.6).

"Each major power must now turn half (rounded up) of its veteran units to its regular
side": the owners choose which, all at once (research §2.7: an end-of-turn batch), by a
`veterans` decision (`FLIP T3,T9` or `FLIP AUTO`), default RR-I66's order.
"""

from __future__ import annotations

from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.reactions import choice_request, chosen_units
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop, regular_quality


def flip_order(troops: list[Troop]) -> list[Troop]:
    """RR-I66's default: dispersed veterans before those on the map, the lower quality (a
    2-3 counter's 3 side) before the higher, then in troop order."""
    return sorted(troops, key=lambda t: (t.area is not None, t.quality))


def degrade(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§16.2, §23.1.2: every major power turns ⌈veterans / 2⌉ of its veteran troops (on the
    map or dispersed) back to their regular side; a power without a player, or with a
    single veteran (no choice), takes the default. Squadrons have no veteran side (§16)."""
    asks: list[tuple[str, Any]] = []
    chosen: dict[str, list[str]] = {}
    found: dict[str, list[Troop]] = {}  # each power's veterans, in one pass over the troops
    for troop in state.troops:
        if troop.veteran and (troop.area or troop.box):
            found.setdefault(troop.power, []).append(troop)
    for code in scenario.power_order:
        veterans = found.get(code)
        if not veterans or not state.powers[code].active:
            continue
        count = (len(veterans) + 1) // 2
        default = [t.id for t in flip_order(veterans)][:count]
        player = state.powers[code].player
        if player is None or count == len(veterans):
            chosen[code] = default
            continue
        asks.append((code, choice_request(
            ctx, player, code, "veterans", eligible=[t.id for t in veterans], count=count, default=default,
            context={"veterans": len(veterans)},
            prompt=f"{code} has {len(veterans)} veteran(s) ({', '.join(t.id for t in veterans)}): choose {count} "
                   f"to turn regular", rule="§16.2, §23.1.2")))
    answers = ctx.decide_all([request for _, request in asks]) if asks else []
    chosen.update({code: chosen_units(answer) for (code, _), answer in zip(asks, answers, strict=True)})
    for code in scenario.power_order:
        if code not in chosen:
            continue
        for unit in chosen[code]:
            troop = state.troop(unit)
            troop.quality = regular_quality(troop.counter)
        ctx.say(f"{code} turns {', '.join(chosen[code])} back to regular (half its veterans, rounded up)",
                rule="§16.2, §23.1.2")
