"""A power's standing combat orders (EIA-I130, EIA-I132, EIA-I133, EIA-I135): lines of its
land orders that are kept in the state and steer every combat it fights from then on,
attacking in its own sequence or defending in another's, where a question per combat or
per round would cost a mail round. Each stands until the power's next line of its kind."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.battles import check_loss_order
from pbem.rules.empires_in_arms.movement import area_named
from pbem.rules.empires_in_arms.orders import AgreeTrivial, DeclareTactical, Losses, PreferWithdrawal
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState

StandingOrder = Losses | DeclareTactical | AgreeTrivial | PreferWithdrawal
STANDING = (Losses, DeclareTactical, AgreeTrivial, PreferWithdrawal)


def check(scenario: Scenario, order: StandingOrder) -> None:
    """`OrderError` when the line names a factor type or an area the game does not know."""
    if isinstance(order, Losses):
        check_loss_order(order.kinds)
    elif isinstance(order, PreferWithdrawal):
        withdrawal_areas(scenario, order)


def carry_out(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, order: StandingOrder) -> None:
    """The order kept in the power's state, and told to its owner (a trivial agreement to
    every power: it is half of every combat's form)."""
    own = state.powers[power]
    holder = state.holder(power)
    to = (holder,) if holder else ()
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
    else:
        # §7.5.2.5.2.3, §7.5.2.13.1: a withdrawal is conducted by its owner
        own.withdrawal = withdrawal_areas(scenario, order)
        ctx.say(f"{power}'s withdrawing corps take first, among equally close areas: "
                f"{', '.join(own.withdrawal) or 'none'}", to=to, rule="§7.5.2.13.1")


def withdrawal_areas(scenario: Scenario, order: PreferWithdrawal) -> list[str]:
    """The areas a WITHDRAWAL line names, as the scenario spells them, or `OrderError`."""
    return [area_named(scenario, name) for name in order.areas]
