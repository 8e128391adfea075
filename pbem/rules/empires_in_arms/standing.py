"""A power's standing orders (EIA-I130, EIA-I132, EIA-I133, EIA-I135, EIA-I164): lines of its
land orders that are kept in the state and steer every combat it fights from then on,
attacking in its own sequence or defending in another's, where a question per combat or
per round would cost a mail round, and the allies it supplies (§7.4.2.2), which another
power's Supply Step reads. Each stands until the power's next line of its kind."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.battles import check_loss_order
from pbem.core.orders import unknown_name
from pbem.rules.empires_in_arms.movement import OrderError, area_named
from pbem.rules.empires_in_arms.orders import AgreeTrivial, DeclareTactical, Losses, PreferWithdrawal, SupplyAlly
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState

StandingOrder = Losses | DeclareTactical | AgreeTrivial | PreferWithdrawal | SupplyAlly
STANDING = (Losses, DeclareTactical, AgreeTrivial, PreferWithdrawal, SupplyAlly)


def check(scenario: Scenario, order: StandingOrder, power: str) -> None:
    """`OrderError` when the line names a factor type or an area the game does not know, or
    supplies a power that is not an ally of `power`."""
    if isinstance(order, Losses):
        check_loss_order(order.kinds)
    elif isinstance(order, PreferWithdrawal):
        withdrawal_areas(scenario, order)
    elif isinstance(order, SupplyAlly):
        supplied_ally(scenario, order, power)


def supplied_ally(scenario: Scenario, order: SupplyAlly, power: str) -> str:
    """The major power a SUPPLY ALLY line names, when it is an ally of `power` (§7.4.2.2)."""
    ally = next((code for code in scenario.power_order if code.lower() == order.ally.lower()), None)
    if ally is None:
        raise OrderError(unknown_name("major power", order.ally, scenario.power_order))
    if ally == power or not scenario.allied(ally, power):
        raise OrderError(f"{ally} is not an ally of {power}: only allies live off each other's depots (§7.4.2.2)")
    return ally


def carry_out(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, order: StandingOrder) -> None:
    """The order kept in the power's state, and told to its owner (a trivial agreement to
    every power: it is half of every combat's form)."""
    own = state.powers[power]
    to = state.owner(power)
    if isinstance(order, Losses):
        # §7.5.2.9.2: losses "in any fashion"
        own.loss_order = list(order.kinds)
        ctx.say(f"{power}'s corps lose first in combat: {', '.join(order.kinds)}", to=to, rule="§7.5.2.9.2")
    elif isinstance(order, DeclareTactical):
        # §7.5.2.9.1.2: the commander's rating declared lower on the Commander Chart
        own.tactical = order.rating
        said = "as they are" if order.rating is None else f"as at most {order.rating}"
        ctx.say(f"{power} declares its commanders' tactical ratings {said} on the Commander Chart", to=to,
                rule="§7.5.2.9.1.2")
    elif isinstance(order, AgreeTrivial):
        # §7.5.3.5: both commanders agreeing to a trivial combat
        own.trivial = order.agree
        ctx.say(f"{power} {'agrees' if order.agree else 'no longer agrees'} to fight its field combats as trivial "
                "combats when its enemy agrees", rule="§7.5.3.5")
    elif isinstance(order, SupplyAlly):
        # §7.4.2.2: "permission is required"; the supplying ally pays
        ally = supplied_ally(scenario, order, power)
        kept = [p for p in own.supplies if p != ally] + ([ally] if order.allow else [])
        own.supplies = [p for p in scenario.power_order if p in kept]
        ctx.say(f"{power} {'lets' if order.allow else 'no longer lets'} {ally}'s forces live off its depots and "
                "supply chains" + (", paying their costs" if order.allow else ""),
                to=tuple(dict.fromkeys([*to, *state.owner(ally)])), rule="§7.4.2.2")
    else:
        # §7.5.2.5.2.3, §7.5.2.13.1: a withdrawal is conducted by its owner
        own.withdrawal = withdrawal_areas(scenario, order)
        ctx.say(f"{power}'s withdrawing corps take first, among equally close areas: "
                f"{', '.join(own.withdrawal) or 'none'}", to=to, rule="§7.5.2.13.1")


def withdrawal_areas(scenario: Scenario, order: PreferWithdrawal) -> list[str]:
    """The areas a WITHDRAWAL line names, as the scenario spells them, or `OrderError`."""
    return [area_named(scenario, name) for name in order.areas]
