"""Expeditionary corps (§21.2.2; example §31.6): a power cedes one troop to each ally.

The troop goes by a strategic move (`<POWER> <budget> CEDE <troop> TO <ALLY> PATH …`),
made by either ally with the other's consent, and ends in an area the receiver controls;
from then on it is the receiver's for all purposes. The power that ceded it takes it back
the same way without asking (`RECALL <troop> PATH …`), and at turn end every expeditionary
corps goes home (§14.1).

RR-I185: the troop counts as the receiver's from the start of the transfer. The book makes
it the receiver's "for the purpose of naval interception … as soon as it leaves the
possessions of the major power that cedes it"; the first area of the move, which the troop
leaves at once, is the only place where the two readings differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.actions import ImpulseRun, check_stacking, route_text
from pbem.rules.ratio_regis.consent import consent
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import Convoy, controls, resolve_area
from pbem.rules.ratio_regis.orders import Cede, Recall
from pbem.rules.ratio_regis.reassignment import leaders_left
from pbem.rules.ratio_regis.repatriation import repatriate_troop
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop
from pbem.rules.ratio_regis.troops import strategic_move


def cede(state: GameState, scenario: Scenario, power: str, order: Cede, run: ImpulseRun) -> str:
    """§21.2.2: "A major power can 'cede' a single troop to each of its allies … with a
    strategic movement, which can be carried out by either of the two allied major powers
    (always with the acquiescence of both)"."""
    troop = _troop_on_map(state, order.troop)
    owner, receiver = troop.power, order.receiver
    if receiver not in scenario.powers:
        raise IllegalOrder(unknown_name("power", receiver, scenario.power_order))
    if power not in (owner, receiver):
        raise IllegalOrder(f"{troop.id} is {owner}'s: the transfer is made by {owner} or by the ally that receives "
                           f"it (§21.2.2)")
    if owner == receiver:
        raise IllegalOrder(f"{troop.id} is {receiver}'s already")
    if not state.allied(owner, receiver):
        raise IllegalOrder(f"{owner} and {receiver} are not allied: an expeditionary corps goes to an ally (§21.2.2)")
    if troop.id in state.expeditions:
        raise IllegalOrder(f"{troop.id} is an expeditionary troop {state.expeditions[troop.id]} ceded already")
    if any(giver == owner and _power_of(state, ceded) == receiver for ceded, giver in state.expeditions.items()):
        raise IllegalOrder(f"{owner} has ceded a troop to {receiver} already: a single troop to each ally (§21.2.2)")
    other = receiver if power == owner else owner
    if not consent(state, run.judge, power, other, f"that {owner} cede {troop.id} to {receiver}", "§21.2.2"):
        text = f"{other} does not consent: {troop.id} stays {owner}'s (§21.2.2)"
        run.judge.say(text, rule="§21.2.2")
        return text
    route = _transfer(state, scenario, troop, receiver, order.path, run)
    state.expeditions[troop.id] = owner
    return (f"{owner} cedes {troop.id} to {receiver}, moving it strategically {route_text(route, scenario)}; it "
            f"counts as {receiver}'s for all purposes (§21.2.2)")


def recall(state: GameState, scenario: Scenario, power: str, order: Recall, run: ImpulseRun) -> str:
    """§21.2.2: "The original owner can only recover the unit following a procedure
    identical to that of the transfer strategic movement (although in this case the ally's
    permission is not necessary)"."""
    troop = _troop_on_map(state, order.troop)
    if state.expeditions.get(troop.id) != power:
        raise IllegalOrder(f"{troop.id} is no expeditionary troop {power} ceded (§21.2.2)")
    holder = troop.power
    route = _transfer(state, scenario, troop, power, order.path, run)
    del state.expeditions[troop.id]
    return (f"{power} takes {troop.id} back from {holder}, moving it strategically {route_text(route, scenario)} "
            f"(§21.2.2)")


def _troop_on_map(state: GameState, troop_id: str) -> Troop:
    troop = state.troop(troop_id)
    if troop is None:
        raise IllegalOrder(f"there is no troop {troop_id}")
    if troop.area is None or troop.besieged:
        raise IllegalOrder(f"{troop.id} is {troop.where()}: an expeditionary troop moves strategically (§21.2.2)")
    if state.leader_on(troop.id) is not None:
        raise IllegalOrder(f"{troop.id} carries {state.leader_on(troop.id).id}: a single troop is ceded, so attach "
                           f"the leader to another unit first (§21.2.2, §17.1)")
    return troop


def _power_of(state: GameState, troop_id: str) -> str | None:
    troop = state.troop(troop_id)
    return troop.power if troop is not None else None


def _transfer(state: GameState, scenario: Scenario, troop: Troop, receiver: str, path: Sequence[str],
              run: ImpulseRun) -> list[str]:
    """The strategic move of the transfer (§10.2), as the receiver's (RR-I185), ending in an
    area the receiver controls."""
    end = resolve_area(scenario, path[-1], state)
    if not controls(state, receiver, end):
        raise IllegalOrder(f"{end} is not controlled by {receiver}: the transfer ends in an area of the power that "
                           f"receives the troop (§21.2.2)")
    troop.power = receiver
    route = strategic_move(state, scenario, troop, path, run, Convoy(receiver))
    check_stacking(state, scenario, [troop.area])
    run.ledger.acted.add(troop.id)
    return route


def repatriate_all(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§21.2.2 "At the end of the turn all expeditionary corps are repatriated (see 14.1
    Repatriation of troops)": each is its owner's again and goes home as §14.1 says, unless
    it stands in an area its owner controls or is dispersed. A leader of the ally's on it stays
    with the ally's army there or is reassigned (§14.3, RR-I286)."""
    for troop in [t for t in state.troops if t.id in state.expeditions]:
        owner = state.expeditions[troop.id]
        holder, troop.power = troop.power, owner
        ctx.say(f"{holder} returns the expeditionary troop {troop.id} to {owner} at turn end (§21.2.2)",
                rule="§21.2.2")
        leaders_left(state, ctx, [troop.id], why=f"{troop.id} goes back to {owner} at turn end")
        if troop.area is not None and not controls(state, owner, troop.area):
            repatriate_troop(state, scenario, ctx, troop, why=f"{troop.id} goes home from {holder}'s service")
    state.expeditions = {}
