"""Foraging (§7.4.1): the die a corps rolls as it completes its move, its modifiers, and
the factors it loses — from the corps first, from what it detached on the way when the
corps must keep its last factor (§7.4.1.3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.calendar import is_winter
from pbem.rules.empires_in_arms.garrisons import Detached, take_back
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState


@dataclass
class March:
    """What a corps did in its Land Movement Step, as foraging needs it (§7.4.1.1–2)."""

    start: str
    entered: list[str]
    unused: int
    force_marched: bool = False
    left_own_territory: bool = False
    foraged: bool = False  # foraged already, or fed by a ravaged enemy depot (§7.3.6.1)
    detached: list[Detached] = field(default_factory=list)  # garrisons left on the way (§7.3.3)
    crossed_river: str = ""  # the area it entered last, when it entered it across a river (§7.5.2.7.1)

    @property
    def moved(self) -> bool:
        return bool(self.entered)


def forage_value(scenario: Scenario, corps: Corps, march: March) -> int:
    """§7.4.1.1: the lowest forage value of the areas passed through or stopped in, not
    counting the start area unless the corps did not move."""
    areas = march.entered if march.moved else [corps.area]
    return min(scenario.areas[a].forage for a in areas)


def forage_modifiers(state: GameState, scenario: Scenario, corps: Corps, march: March,
                     month: int) -> list[tuple[str, int]]:
    """§7.4.1.2: the modifiers that apply, each with its reason."""
    chart = scenario.charts.forage
    mods = []
    others = len([c for c in state.corps_in(corps.area) if c.id != corps.id and not besieged(state, scenario, c)])
    if others:
        mods.append((f"{others} other corps in the area (§7.4.1.2.1)",
                     min(others * chart.per_other_corps, chart.other_corps_max)))
    if march.unused:
        mods.append((f"{march.unused} unused movement points (§7.4.1.2.2)", march.unused * chart.per_unused_mp))
    if march.force_marched:
        mods.append(("force marched (§7.4.1.2.3)", chart.force_marched))
    if is_winter(month) and scenario.areas[corps.area].winter_zone:
        mods.append(("winter (§7.4.1.2.4)", chart.winter))
    if not march.left_own_territory and scenario.areas[corps.area].owner == corps.power:
        mods.append(("in own territory (§7.4.1.2.5)", chart.own_territory))
    return mods


def besieged(state: GameState, scenario: Scenario, corps: Corps) -> bool:
    """A corps inside its area's city with a siege there, or a corps of a power at war with it in
    the field around (§7.3.4, §7.5.4): §7.4.1.2.1 counts only "other unbesieged corps"."""
    if not corps.inside:
        return False
    return state.siege_in(corps.area) is not None or any(
        scenario.at_war(c.power, corps.power) for c in state.corps_in(corps.area) if not c.inside)


def forage(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps, march: March, month: int) -> int:
    """§7.4.1.1: one die; one factor lost for each point the modified die is above the
    forage value. Returns the loss (the factors are taken by `take_losses`)."""
    die = ctx.roll("forage", rule="§7.4.1.1")
    mods = forage_modifiers(state, scenario, corps, march, month)
    total = die + sum(value for _, value in mods)
    value = forage_value(scenario, corps, march)
    loss = max(0, total - value)
    said = ", ".join(f"{mod:+d} {reason}" for reason, mod in mods)
    ctx.say(f"{corps.id} forages in {scenario.areas[corps.area].title}: die {die}" + (f" {said}" if said else "")
            + f" = {total} against forage value {value}: " + (f"loses {loss} factors" if loss else "no loss"),
            to=state.owner(corps.power), rule="§7.4.1.1")
    return loss


def take_losses(state: GameState, scenario: Scenario, corps: Corps, march: March, loss: int) -> dict[str, int]:
    """§7.4.1.3: every factor in the corps during its move may be lost; the losses come out
    of the corps first, in the chart's loss order (EIA-I6), but the corps keeps its last
    factor unless every one of them is lost (§7.4.1.3.2): the rest then comes out of the
    factors it detached on the way, in the order it left them. Returns what went."""
    detached = sum(d.count for d in march.detached)
    everything = loss >= corps.strength + detached
    from_corps = corps.strength if everything else min(loss, corps.strength - 1)
    taken: dict[str, int] = {}
    left = from_corps
    for kind in _loss_order(scenario, corps.factors):
        lost = min(left, corps.factors.get(kind, 0))
        if lost:
            corps.factors[kind] -= lost
            taken[kind] = lost
            left -= lost
    corps.factors = {k: n for k, n in corps.factors.items() if n}
    rest = loss - from_corps
    for garrison in march.detached:
        if rest <= 0:
            break
        lost = take_back(state, garrison, min(rest, garrison.count))
        if lost:
            taken[f"detached {garrison.kind}"] = taken.get(f"detached {garrison.kind}", 0) + lost
            rest -= lost
    return taken


def _loss_order(scenario: Scenario, factors: Iterable[str]) -> list[str]:
    order = list(scenario.charts.forage.loss_order)
    return order + sorted(k for k in factors if k not in order)
