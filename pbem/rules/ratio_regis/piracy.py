"""Piracy and privateering (§11.5, §11.4.3, §18.6.3; example §27.4).

`PIRACY <squadron> VS <POWER>`: a squadron (or one-squadron fleet) that began the impulse
in the sea attacks the victim's merchants in the sea's trade center — piracy where the
power's card allows it, privateering between powers at war (§11.5.1). The victim may
guard with one squadron in the sea or in a port on it (`guard`, RR-I50). The combat
engine's piracy combat settles it (unrest, damage, the merchant the victim may drop). The
pirate does nothing else this impulse. A combined fleet's lent squadron whose own power is not
at war with the other side dissolves the fleet before the combat and stays out of it (§21.2.3,
RR-I285): a lent pirate makes no piracy, a lent guard leaves the merchants unguarded.
"""

from __future__ import annotations

from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.interception import interceptor_seas
from pbem.rules.ratio_regis.naval import dissolve_before_battle, groups_at, own_group
from pbem.rules.ratio_regis.naval_actions import check_free
from pbem.rules.ratio_regis.orders import Piracy
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Squadron


def piracy(state: GameState, scenario: Scenario, power: str, order: Piracy, run: ImpulseRun) -> str:
    """§11.5.1 conditions, §11.5.2 procedure."""
    fleet = own_group(state, power, order.squadron)
    if len(fleet) != 1:
        raise IllegalOrder(f"{order.squadron}: piracy is made by one squadron or a one-squadron fleet (§11.5)")
    check_free(fleet, run)
    pirate = fleet[0]
    sea = pirate.sea
    if run.start.at_sea.get(pirate.id) != sea:
        raise IllegalOrder(f"{pirate.id} did not begin the impulse at @{sea} (§11.5.1)")
    victim = order.victim
    if victim not in scenario.powers or victim == power:
        raise IllegalOrder(f"{victim} is not another power")
    if state.in_forced_peace(power, victim):
        raise IllegalOrder(f"{power} and {victim} are in forced peace until the end of the turn: no piracy "
                           f"between them (§21.5.4)")
    if not (scenario.powers[power].piracy or power in state.piracy) and not state.at_war(power, victim):
        raise IllegalOrder(f"{power} may not pirate: neither its card nor an event allows piracy and it is not at "
                           f"war with {victim} (privateering, §11.5.1)")
    center = scenario.trade_center_of(sea)
    if center is None or center.immune:
        raise IllegalOrder(f"@{sea} has no trade center open to piracy (§11.5.1, §19.2.1)")
    merchants = state.merchants.get(center.id, {}).get(victim, 0)
    if not merchants:
        raise IllegalOrder(f"{victim} has no merchant in {center.id} (§11.5.1)")
    run.ledger.pirated.add(pirate.id)
    run.ledger.acted.add(pirate.id)
    if not dissolve_before_battle(state, run.judge, fleet, victim):
        text = (f"{power}'s piracy against {victim} at @{sea} does not take place: {pirate.id} is "
                f"{pirate.power}'s again (§21.2.3)")
        run.judge.say(text, rule="§21.2.3")
        return text
    guard = _guard(state, scenario, run, power, victim, sea)
    if guard is not None and not dissolve_before_battle(state, run.judge, [guard], power):
        guard = None
    combat = cm.Combat(id=f"piracy-{sea}-{pirate.id}", type=cm.PIRACY, area=sea,
                       attacker=battles.side(state, scenario, power, [pirate.id]),
                       defender=battles.side(state, scenario, victim, [guard.id] if guard else []),
                       interceptor_in_port=guard is not None and guard.sea is None, merchants=merchants,
                       victim=victim, options=dict(state.options.combat))
    result = battles.fight(run.judge, combat)
    battles.apply_result(state, scenario, run.judge, combat, result)
    if result.merchant_dropped:
        state.merchants[center.id][victim] -= 1
        if not state.merchants[center.id][victim]:
            del state.merchants[center.id][victim]
    success = "succeeds" if result.winner == cm.ATTACKER else "fails"
    text = (f"{power} pirates {victim} at @{sea} with {pirate.id}"
            + (f" against {guard.id}" if guard else " unguarded") + f": the piracy {success}"
            + ("; " + victim + " drops a merchant" if result.merchant_dropped else ""))
    run.judge.say(text, rule="§11.5.2")
    return text


def _guard(state: GameState, scenario: Scenario, run: ImpulseRun, pirate: str, victim: str,
           sea: str) -> Squadron | None:
    """§11.4.3: the victim's one squadron (or one-squadron fleet) at sea there, or in port
    on it (with a disadvantage); default: the best at sea, else the best in port (RR-I50)."""
    player = state.powers[victim].player
    seas = interceptor_seas(state, scenario, victim, sea)
    groups = {name: squadrons[0] for name, squadrons in groups_at(state, scenario, victim, seas, ports=True).items()
              if len(squadrons) == 1}
    if player is None or not groups:
        return None
    ranked = sorted(groups, key=lambda n: (groups[n].sea is None, -groups[n].quality))
    answer = ask(run.judge, player, victim, "guard", options=[f"GUARD WITH {n}" for n in groups] + ["PASS"],
                 default=f"GUARD WITH {ranked[0]}",
                 context={"sea": sea, "enemy": pirate},
                 prompt=f"{pirate} pirates your merchants at @{sea}: GUARD WITH one squadron (in port: a "
                        f"disadvantage), or PASS", rule="§11.4.3")
    return groups[answer.unit] if answer.word == "GUARD" else None
