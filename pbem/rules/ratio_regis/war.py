"""War between major powers as far as combat needs it (§21.3): declarations with or
without a casus belli (§21.3.2–§21.3.3), morale counters (§21.3.4) and their causes
(§21.3.5). Peace is `negotiation.py`'s (§21.4–§21.5)."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import french_wars, independents
from pbem.rules.ratio_regis.actions import ImpulseRun, check_other_power
from pbem.rules.ratio_regis.alliances import call_allies
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import DeclareWar
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, War


def same_player(state: GameState, power: str, other: str) -> bool:
    """v2.1 §21.3: "two powers run by the same player can never go to war" (v1.2.4 allows it)."""
    player = state.powers[power].player
    return state.options.variant == "v2.1" and player is not None and player == state.powers[other].player


def has_cb(state: GameState, holder: str, against: str) -> bool:
    return (holder, against) in state.casus_belli


def province_cb(state: GameState, scenario: Scenario, holder: str, against: str) -> list[str]:
    """v2.1 §21.3.2: a casus belli "against any power owning areas in one's home province" —
    the areas `against` possesses in a province holding a home area of `holder` (RR-I169)."""
    if state.options.variant != "v2.1":
        return []
    home = {scenario.areas[a].province for a in scenario.powers[holder].home_areas if a in scenario.areas}
    return [a.id for a in scenario.data.areas
            if a.province is not None and a.province in home and state.areas[a.id].possessor == against]


def give_morale(state: GameState, judge: DecisionPort, loser: str, winner: str, reason: str, rule: str) -> str:
    """§21.3.4–§21.3.5: the loser hands one of its morale counters to the winner. A power
    with none left has lost its last one earlier in this action and negotiates at its end
    (§21.4.2); the book stops the game at that instant, so this loss comes after the
    negotiation: the counter is owed (`War.owed`) and given from those the negotiation
    gives back (RR-I31, RR-I161)."""
    war = state.war(loser, winner)
    if war is None:
        return ""
    power = state.powers[loser]
    if power.morale < 1:
        war.owed.append((winner, reason))
        text = (f"{loser} has no morale counter left to give {winner} ({reason}): it owes it until its peace "
                f"negotiations give counters back (§21.4.2)")
    else:
        power.morale -= 1
        war.morale[winner] = war.morale.get(winner, 0) + 1
        text = f"{loser} gives a morale counter to {winner} ({reason}); war status {status(war, winner)}"
    judge.say(text, rule=rule)
    return text


def status(war: War, power: str) -> str:
    """The war status from `power`'s side (§21.3.4): counters held minus counters given."""
    mine, theirs = war.morale.get(power, 0), war.morale.get(war.enemy(power), 0)
    return f"{power} {mine - theirs:+d}"


def add_cb(state: GameState, holder: str, against: str) -> bool:
    """§21.3.2: a second CB against the same power is ignored; so is one against an ally
    (§21.1 "Any CBs resulting from an event card are ignored")."""
    if holder == against or has_cb(state, holder, against) or state.at_war(holder, against) \
            or state.allied(holder, against):
        return False
    state.casus_belli.append((holder, against))
    return True


def declare_war(state: GameState, scenario: Scenario, power: str, order: DeclareWar, run: ImpulseRun) -> str:
    """§21.3.3: with a CB, or without one (`NOCB`): then the target receives a morale
    counter at once and this is the impulse's last action point (RR-I32): "it must be done
    with the last action point of the impulse", so no action point is generated or used
    after it — no card is played after it either, and a player who holds cards plays the
    impulse's card before (RR-I89). An independent minor allied to a major may be the target
    (§20.5): the war is with its ally, whom it drags in (RR-I254)."""
    minor = order.target if order.target in scenario.minors else None
    target = _minor_ally(state, scenario, power, minor) if minor else order.target
    check_other_power(state, scenario, power, target, "declare war on")
    if state.at_war(power, target):
        raise IllegalOrder(f"{power} is already at war with {target}")
    if state.allied(power, target):
        raise IllegalOrder(f"{power} and {target} are allies, in forced peace with each other: no declaration of war "
                           f"(§21.1)")
    if same_player(state, power, target):
        raise IllegalOrder(f"{power} and {target} are run by the same player: under v2.1 they can never go to war "
                           f"(v2.1 §21.3)")
    if state.in_forced_peace(power, target):
        raise IllegalOrder(f"{power} and {target} are in forced peace until the end of the turn: no declaration of "
                           f"war (§21.5.4)")
    named = minor or target
    cb = has_cb(state, power, named) or (minor is None and bool(province_cb(state, scenario, power, target)))
    if not cb and not order.without_cb:
        raise IllegalOrder(f"{power} has no casus belli against {named} (§21.3.2): declare without one with "
                           f"DECLARE WAR {named} NOCB, which gives {target} a morale counter (§21.3.3)")
    if not cb and run.ledger.held_cards and not run.ledger.played:
        raise IllegalOrder("a war declared without a casus belli takes the impulse's last action point, and no card "
                           "may be played after it: play this impulse's card first (§8.2.2, §21.3.3, RR-I89)")
    state.wars.append(War(sides=(power, target), cause="declaration"))
    state.casus_belli = [cb_ for cb_ in state.casus_belli if set(cb_) not in ({power, target}, {power, named})]
    text = f"{power} declares war on {named}" + (" with a casus belli" if cb else " without a casus belli")
    if minor:
        text += f": {minor}, an independent minor, drags its ally {target} into the war (§20.5)"
    run.judge.say(text, rule="§20.5" if minor else "§21.3.3")
    if not cb:
        if french_wars.between(state, scenario, power, target):  # §33.4: "do not cause moral loss" (RR-I275)
            run.judge.say(f"{power} and {target} are contenders of the French Wars of Religion: the declaration "
                          f"costs no morale (§33.4)", rule="§33.4")
        else:
            give_morale(state, run.judge, power, target, "war declared without a casus belli", "§21.3.3, §21.3.5")
        run.ledger.closed = True
    independents.announce(run.judge, state, scenario, state.wars[-1], dragged=minor)
    call_allies(state, scenario, run.judge, power, target)
    return text


def _minor_ally(state: GameState, scenario: Scenario, power: str, minor: str) -> str:
    """§20.5: "major powers may declare war to these minor powers as if they were any major
    power (as long as they are allied with major powers with which they are not in forced
    peace)" — an independent minor allied to a major, in no war it stays out of; returns its ally,
    whose war it becomes (RR-I254). The checks of a declaration on the ally follow."""
    status = state.minors[minor]
    if not scenario.minors[minor].independent:
        raise IllegalOrder(f"{minor} is not an independent minor: only independent minors are declared war on; war "
                           f"with its ally takes it in (§20.5)")
    if status.ally is None:
        raise IllegalOrder(f"{minor} is neutral: war is declared only on an independent minor allied to a major power "
                           f"(§20.5)")
    if status.ally == power:
        raise IllegalOrder(f"{minor} is {power}'s own ally")
    if status.neutral_in:
        raise IllegalOrder(f"{minor} is neutral until the end of {status.ally}'s war with {status.neutral_in[0]} "
                           f"(§20.5)")
    return status.ally
