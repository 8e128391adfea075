"""What the non-phasing powers decide while another power moves (research §2.3 B).

A garrisoned depot entered by an enemy corps may be destroyed by its garrison at once
(§7.3.6.2). The depot's owner answers it by a standing order set in advance
(`POLICY depot-entry DO DESTROY`, or `… WHEN area=Munich DO HOLD`); only when none covers
it does the sequence pause and ask. The documented default, given when the deadline
passes, is HOLD: the depot stays and its garrison waits for the combat (§7.3.7.2).
"""

from __future__ import annotations

from pbem.core.decisions import OptionKind
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.depots import converted
from pbem.rules.empires_in_arms.garrisons import garrison_into_city
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Irregular

DESTROY, HOLD = "DESTROY", "HOLD"


DEPOT_ENTRY_KIND = OptionKind(
    "depot-entry", "your garrisoned depot is entered by an enemy corps: destroy it now or hold it (§7.3.6.2): "
                   "DESTROY | HOLD", keywords=(DESTROY, HOLD))


def depot_entered(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps) -> None:
    """§7.3.6.2: the garrison of an enemy depot entered by `corps` may destroy it at once;
    the garrison then goes into a friendly or vacant city of the area as far as it holds
    it, and the rest surrenders."""
    depot = state.depot_in(corps.area)
    if depot is None or not depot.garrison or not scenario.at_war(corps.power, depot.power):
        return
    holder = state.holder(depot.power)
    title = scenario.areas[corps.area].title
    if holder is None:
        return
    answer = ctx.decide(ctx.request(
        kind=DEPOT_ENTRY_KIND.name, player=holder, power=depot.power, purpose=f"depot-entry:{corps.area}",
        default=HOLD, options=(DESTROY, HOLD), rule="§7.3.6.2",
        prompt=f"{corps.power} {corps.id} enters {title}, where your depot has a garrison: DESTROY it or HOLD?",
        context={"area": corps.area, "enemy": corps.power, "corps": corps.id}))
    if answer != DESTROY:
        ctx.say(f"{depot.power} holds its garrisoned depot in {title}", rule="§7.3.6.2")
        return
    state.depots.remove(depot)
    kept = garrison_into_city(state, scenario, depot.power, corps.area, depot.garrison)
    lost = depot.garrison - kept
    ctx.say(f"{depot.power} destroys its depot in {title} as {corps.power} enters"
            + (f"; {kept} garrison factors go into the city" if kept else "")
            + (f"; {lost} surrender" if lost else ""), rule="§7.3.6.2")


def end_in_enemy_depot(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps | Irregular,
                       convert: bool = False) -> bool:
    """§7.3.6.1: a corps, cossack, freikorps or guerrilla ending its move where an ungarrisoned
    enemy depot stands destroys it, which counts as foraging without loss for a corps, or, when
    its power ordered `CONVERT DEPOT` there and the depot would supply it (§7.2.3), a corps
    converts it into one of its own, which is no forage (EIA-I100). Returns whether the corps
    lived off a destroyed depot."""
    depot = state.depot_in(corps.area)
    if depot is None or depot.garrison or not scenario.at_war(corps.power, depot.power):
        return False
    title = scenario.areas[corps.area].title
    if convert and converted(ctx, state, scenario, corps.power, f"{corps.power} {corps.id}", depot, "§7.3.6.1"):
        return False
    state.depots.remove(depot)
    lives = " and lives off it" if isinstance(corps, Corps) else ""
    ctx.say(f"{corps.power} {corps.id} destroys the {depot.power} depot in {title}{lives}", rule="§7.3.6.1")
    return True
