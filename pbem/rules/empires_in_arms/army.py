"""The players' own part of the Army Reinforcement Step (§5.2.3, §5.2.4), asked only with
the campaign option `army_orders`: factors transferred between corps in one area or with
the garrison there, and corps or garrison factors demobilised.

Every power's orders are asked at once (research §2.3 A: nothing in them depends on
another power's) and carried out in §5.2's order. Like land orders they are one block per
power, checked on a copy of the state and refused whole when a line is illegal.
"""

from __future__ import annotations

from pbem.core.blocks import BlockKind
from pbem.core.port import DecisionPort
from pbem.core.toolkit import Order, OrderTable
from pbem.rules.empires_in_arms.calendar import label
from pbem.rules.empires_in_arms.movement import OrderError
from pbem.rules.empires_in_arms.orders.demobilize import Demobilize
from pbem.rules.empires_in_arms.orders.no_orders import NoOrders
from pbem.rules.empires_in_arms.orders.transfer import Transfer
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState, copy_state

#: The orders of the Army Reinforcement Step: the one place that lists them.
ARMY_ORDERS = OrderTable("army", (Transfer, Demobilize, NoOrders), refusals=(OrderError,))


def corps_power(order: Order, state: GameState, scenario: Scenario) -> str | None:
    """The power of the first corps an order names (FR-I: FR), when it names one."""
    named = [getattr(order, name, "") for name in ("source", "target", "corps")]
    corps = next((c for name in named for c in state.corps if name and c.id.lower() == name.lower()), None)
    return None if corps is None else scenario.major(corps.power)


ARMY_KIND = BlockKind("army", "a power's orders in the Army Reinforcement Step", ARMY_ORDERS, copy_state,
                      named_power=corps_power,
                      defers=("STAND", "DONE"))  # the land orders' too: each block reads them only while owed


def army_orders(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """Every power's orders asked at once, carried out in §5.2's order; an order that can no
    longer be carried out is dropped with a chronicle line."""
    year, month = scenario.date(state.turn)
    powers = [p for p in scenario.data.reinforcement_order if state.holder(p) is not None]
    requests = [ctx.request(kind=ARMY_KIND.name, player=state.holder(p), power=p, purpose=f"army:{p}", default=[],
                            rule="§5.2.3", prompt=f"{scenario.powers[p].name}'s army orders for {label(year, month)}",
                            context={"power": p}) for p in powers]
    for power, lines in zip(powers, ctx.decide_all(requests), strict=True):
        # what moved between corps tells their strengths (EIA-I18): only the power's player reads it
        ARMY_KIND.carry_out(ctx, state, scenario, power, lines, rule="§5.2", to=(state.holder(power),))
