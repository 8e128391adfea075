"""The players' own part of the Army Reinforcement Step (§5.2.3, §5.2.4), asked only with
the campaign option `army_orders`: factors transferred between corps in one area or with
the garrison there, and corps or garrison factors demobilised.

Every power's orders are asked at once (research §2.3 A: nothing in them depends on
another power's) and carried out in §5.2's order. Like land orders they are one block per
power, checked on a copy of the state and refused whole when a line is illegal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.decisions import BlockRead, DecisionKind, InBlock, LineRead, Refused, not_owed, verdict
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.calendar import label
from pbem.rules.empires_in_arms.garrisons import absorb, detach, no_exchange
from pbem.rules.empires_in_arms.movement import OrderError, area_named, own_corps
from pbem.rules.empires_in_arms.orders import (ArmyCommand, Demobilize, OrderSyntaxError, Stand, Transfer,
                                               parse_army_line)
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, copy_state

GARRISON = "GARRISON"
#: §5.2.3: feudal, insurrection and artillery factors are never exchanged.
NOT_EXCHANGED = ("ART",)


def transfer(state: GameState, scenario: Scenario, power: str, order: Transfer) -> str:
    """§5.2.3: between unbesieged corps of the power in one area, capacity permitting, or
    with the garrison there as in §7.3.3; a corps left empty is removed."""
    if order.kind in NOT_EXCHANGED:
        raise OrderError(f"{order.kind} factors are never exchanged (§5.2.3)")
    if order.source == GARRISON and order.target == GARRISON:
        raise OrderError("a transfer goes from or to a corps (§5.2.3)")
    if order.source == GARRISON:
        corps = own_corps(state, power, order.target, scenario)
        absorb(state, scenario, corps, order.count, order.kind)
        return f"{power} {corps.id} takes {order.count} {order.kind} from its garrison"
    source = own_corps(state, power, order.source, scenario)
    if order.target == GARRISON:
        detach(state, scenario, source, order.count, order.kind, may_empty=True)
        _remove_if_empty(state, source, None)
        return f"{power} {source.id} gives {order.count} {order.kind} to its garrison"
    target = own_corps(state, power, order.target, scenario)
    no_exchange(scenario, source)
    no_exchange(scenario, target)
    if source.area != target.area:
        raise OrderError(f"{source.id} and {target.id} are not in the same area (§5.2.3)")
    if source.id == target.id:
        raise OrderError("a corps does not transfer factors to itself")
    if source.power != target.power:
        raise OrderError(f"{source.id} is a corps of {source.power} and {target.id} of {target.power}: corps of "
                         "different nationalities may not exchange factors (§5.2.3)")
    if source.factors.get(order.kind, 0) < order.count or order.count < 1:
        raise OrderError(f"{source.id} has {source.factors.get(order.kind, 0)} {order.kind}, not {order.count}")
    room = target.capacity.get(order.kind, 0) - target.factors.get(order.kind, 0)
    if order.count > room:
        raise OrderError(f"{target.id} has room for {max(room, 0)} more {order.kind} (§5.2.3)")
    source.factors[order.kind] -= order.count
    source.factors = {k: n for k, n in source.factors.items() if n}
    target.factors = dict(sorted({**target.factors, order.kind: target.factors.get(order.kind, 0) + order.count}
                                 .items()))
    _remove_if_empty(state, source, target)
    return f"{power} transfers {order.count} {order.kind} from {source.id} to {target.id}"


def _remove_if_empty(state: GameState, corps: Corps, heir: Corps | None) -> None:
    """§5.2.3: a corps whose factors all left is removed; its leaders go with the corps that
    took them, or leave the map (§5.3)."""
    if corps.strength:
        return
    state.corps.remove(corps)
    for leader in state.leaders:
        if leader.corps == corps.id:
            leader.corps = heir.id if heir else None


def demobilize(state: GameState, scenario: Scenario, power: str, order: Demobilize) -> str:
    """§5.2.4: corps counters and garrison factors may be removed, with no political cost."""
    if order.corps:
        corps = own_corps(state, power, order.corps, scenario)
        corps.factors = {}
        _remove_if_empty(state, corps, None)
        return f"{power} demobilises {corps.id}"
    area = area_named(scenario, order.area)
    garrison = state.garrison_in(area)
    if garrison is None or garrison.power != power or garrison.factors.get(order.kind, 0) < order.count \
            or order.count < 1:
        raise OrderError(f"{power} has no {order.count} {order.kind} in garrison in {scenario.areas[area].title}")
    garrison.factors[order.kind] -= order.count
    garrison.factors = {k: n for k, n in garrison.factors.items() if n}
    return f"{power} demobilises {order.count} {order.kind} of its garrison in {scenario.areas[area].title}"


def carry_out(state: GameState, scenario: Scenario, power: str, command: ArmyCommand) -> str:
    if isinstance(command, Transfer):
        return transfer(state, scenario, power, command)
    if isinstance(command, Demobilize):
        return demobilize(state, scenario, power, command)
    return ""


class ArmyKind(DecisionKind):
    """A power's transfers and demobilisation as one block of lines (§5.2.3, §5.2.4)."""

    name = "army"
    description = ("a power's orders in the Army Reinforcement Step, one per line: TRANSFER <n> <type> FROM "
                   "<corps|GARRISON> TO <corps|GARRISON>, DEMOBILIZE <corps>, DEMOBILIZE <n> <type> IN <area>, "
                   "or STAND")

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        if any(r.kind == self.name for r in owed):
            return InBlock(self.name)
        try:
            command = parse_army_line(text)
        except OrderSyntaxError:
            return None
        return None if isinstance(command, Stand) else Refused(not_owed(self.name, owed))

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: GameState, scenario: Scenario,
                   player: str) -> BlockRead:
        trial = copy_state(state)
        verdicts, answer, first = [], [], ""
        for number, text in lines:
            try:
                command = parse_army_line(text)
                carry_out(trial, scenario, request.power or "", command)
            except (OrderSyntaxError, OrderError) as error:
                verdicts.append(verdict(number, text, False, "", str(error)))
                first = first or f"line {number}: {error}"
                continue
            verdicts.append(verdict(number, text, True, f"army: {command.text()}"))
            if not isinstance(command, Stand):
                answer.append(command.text())
        if first:
            return BlockRead(verdicts, refused=f"your army orders were refused and nothing was carried out: {first}; "
                                               "correct them and send them all again")
        return BlockRead(verdicts, answer=answer)

    def answer_policy(self, text: str, request: Request) -> list[str] | None:
        return [] if text.strip().upper() in ("STAND", "DEFAULT") else None

    def check_policy(self, text: str) -> str:
        if text.strip().upper() not in ("STAND", "DEFAULT"):
            return "army orders are checked against their own month's map, so a standing policy can only say DO STAND"
        return ""

    def order_form(self, request: Request) -> str:
        return "\n".join(request.default) or "STAND"


ARMY_KIND = ArmyKind()


def army_orders(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """Every power's orders asked at once, carried out in §5.2's order; an order that can no
    longer be carried out is dropped with a chronicle line."""
    year, month = scenario.date(state.turn)
    powers = [p for p in scenario.data.reinforcement_order if state.holder(p) is not None]
    requests = [ctx.request(kind=ARMY_KIND.name, player=state.holder(p), power=p, purpose=f"army:{p}", default=[],
                            rule="§5.2.3", prompt=f"{scenario.powers[p].name}'s army orders for {label(year, month)}",
                            context={"power": p}) for p in powers]
    for power, lines in zip(powers, ctx.decide_all(requests), strict=True):
        owner = (state.holder(power),)  # what moved between corps tells their strengths (EIA-I18)
        for text in lines:
            try:
                done = carry_out(state, scenario, power, parse_army_line(text))
            except OrderError as error:
                ctx.say(f"{power}: {text} is not carried out: {error}", to=owner, rule="§5.2")
                continue
            ctx.say(done, to=owner, rule="§5.2.3")
