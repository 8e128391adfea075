"""Power actions (§9): how an action is run and what every action checks.

Each action checks its legality against the state and either changes the state and
returns what happened (one chronicle line), or raises `IllegalOrder` and leaves the
state as it was. The modules named after the game's concepts (troops, naval, sieges,
leaders, tactical movement …) register theirs in `ACTIONS`; this module holds what they
share: the impulse's start snapshot, stacking (§15.1) and a route as the chronicle writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import Ally, Attach, Dissolve, FormFleet, PeaceTalks, Sail, Sortie, Swap, Verb
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop

#: Free steps at the start of an impulse (§8.2.2, §11.6, §13.3.1, §21.1, §21.4.1) and at any time (§11.2, §17.1,
#: §21.2.3).
FREE_AT_START = (Sail, Sortie, Swap, Ally, PeaceTalks)
FREE_ANY_TIME = (FormFleet, Attach, Dissolve)


def stacking_limit(state: GameState, scenario: Scenario, area: str, power: str | None = None) -> int:
    """§15.1, §17.3.2: the area's limit, +1 with an extraordinary Organizer present."""
    organizer = any(lead.extraordinary and scenario.leaders[lead.id].ability == "organizer"
                    and state.unit_place(lead.unit) == area and (power is None or lead.power == power)
                    for lead in state.leaders)
    return scenario.areas[area].stacking + organizer


def stack_count(state: GameState, area: str, power: str | None = None) -> int:
    """Troops counted for stacking (§15.1.1): unbesieged troops of one side, or the
    besieged and their fortress."""
    return counted([t for t in state.troops_in(area) if power is None or t.power == power])


def counted(troops: Sequence[Troop]) -> int:
    """§15.1.1: one side's troops in an area count one each, their fortress one more when
    they are besieged in it. "The stacking limits are examined separately (relief army,
    besieged and besiegers)" (§13.3.5): a power's troops in its fortress and those outside
    it — the ones that did not join it, §13.4.1 — are two stacks (RR-I88)."""
    inside = sum(1 for t in troops if t.besieged)
    return max(len(troops) - inside, inside + 1 if inside else 0)


def check_stacking(state: GameState, scenario: Scenario, areas: Collection[str]) -> None:
    """No area may be over its stacking limit when an action ends (§15.1.1).

    RR-I5: an action that would end overstacked is refused (the player rewrites it)
    rather than carried out with the excess dispersed. Each power's troops are counted
    apart (besiegers and besieged, §13.3.5).
    """
    checked = sorted(area for area in set(areas) if area in scenario.areas)
    stacks = state.stacks(set(checked))
    for area in checked:
        counts = {p: counted(troops) for p, troops in sorted(stacks.get(area, {}).items())}
        power = max(counts, key=lambda p: counts[p]) if counts else None
        count = counts.get(power, 0)
        if count <= scenario.areas[area].stacking:  # within the limit before any Organizer's +1
            continue
        limit = stacking_limit(state, scenario, area, power)
        if count > limit:
            raise IllegalOrder(f"{area} would hold {count} troops, over its stacking limit of {limit} (§15.1.1)")


def own_troop(state: GameState, power: str, troop_id: str) -> Troop:
    troop = state.troop(troop_id)
    if troop is None or troop.power != power:
        raise IllegalOrder(f"{power} has no troop {troop_id}")
    return troop


def check_other_power(state: GameState, scenario: Scenario, power: str, other: str, doing: str) -> None:
    """The major power an action of `power` names (an alliance, a war): known, another power, in
    play; `doing` is what the refusal says cannot be done to oneself ("declare war on")."""
    if other not in scenario.powers:
        raise IllegalOrder(unknown_name("power", other, scenario.power_order))
    if other == power:
        raise IllegalOrder(f"a power cannot {doing} itself")
    if not state.powers[other].active:
        raise IllegalOrder(f"{other} is not in play")


def route_text(route: Sequence[str], scenario: Scenario) -> str:
    """A route as the chronicle writes it: seas with their @."""
    return ">".join(f"@{place}" if place in scenario.seas else place for place in route)


class ImpulseStart:
    """What the rules test as of the start of the impulse (§8.2.2 "Start of impulse",
    research §2.4 step 1a): dispersed troops (may regroup), squadrons under repair (may be
    repaired), fortresses under construction (may be finished), squadrons at sea (may
    pirate there), troops in coastal areas (may land)."""

    def __init__(self, state: GameState):
        self.dispersed = frozenset(t.id for t in state.troops if t.box is not None)
        self.under_repair = frozenset(s.id for s in state.squadrons if s.repair)
        self.building = frozenset(f.id for f in state.fortresses if not f.built)
        self.at_sea = {s.id: s.sea for s in state.squadrons if s.sea is not None}
        self.areas = {t.id: t.area for t in state.troops if t.area is not None and not t.besieged}


@dataclass
class ImpulseRun:
    """One run of an impulse script: the adjudicator (dice and decisions), the start
    snapshot, what the impulse has spent, and whose impulse it is."""

    judge: DecisionPort
    start: ImpulseStart
    ledger: Any
    player: str


Action = Callable[[GameState, Scenario, str, Verb, ImpulseRun], str]

ACTIONS: dict[type, Action] = {}


def register(verb: type) -> Callable[[Action], Action]:
    """Add an action of another module to `ACTIONS` (the modules named after the game's
    concepts each register theirs)."""
    def wrap(function: Action) -> Action:
        ACTIONS[verb] = function
        return function
    return wrap
