"""The bridge to the combat engine (§13, `combat/`): a combat's input built from the
game state, the engine run inside the impulse step, and its result applied back —
eliminations (leaders with their last unit), dispersals to the theater's box, damaged
squadrons to base, veterans, unrest, morale (§21.3.5)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.engine import MapMark
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import unrest
from pbem.rules.ratio_regis.borders import dispersal_box
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.combat.cards import CARD_EFFECTS
from pbem.rules.ratio_regis.combat.procedure import fight as engine_fight
from pbem.rules.ratio_regis.leaders import leaders_with, remove_unit_leader
from pbem.rules.ratio_regis.naval import send_to_base
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState
from pbem.rules.ratio_regis.technology import held_by
from pbem.rules.ratio_regis.war import give_morale

TERRAIN = {"open": cm.CLEAR, "forest": cm.FOREST, "mountain": cm.MOUNTAIN, "marsh": cm.MARSH}


def side(state: GameState, scenario: Scenario, power: str, units: Sequence[str], *,
         fortress: str | None = None, besieged: Sequence[str] = ()) -> cm.Side:
    """A combat side: the power's troops and squadrons by id, its fortress if it fights,
    the leaders riding them."""
    members = []
    for unit in units:
        troop = state.troop(unit)
        if troop is not None:
            members.append(cm.Unit(troop.id, cm.TROOP, troop.quality, veteran=troop.veteran,
                                   besieged=troop.id in besieged))
            continue
        squadron = state.squadron(unit)
        members.append(cm.Unit(squadron.id, cm.SQUADRON, squadron.quality))
    carried = list(units) + ([fortress] if fortress else [])
    if fortress:
        members.append(cm.Unit(fortress, cm.FORTRESS, 3))
    leaders = tuple(cm.Leader(lead.id, scenario.leaders[lead.id].ability, lead.extraordinary)
                    for lead in leaders_with(state, carried))
    player = state.powers[power].player or ""
    return cm.Side(power, player, tuple(members), leaders, cards=combat_cards(state, scenario, player),
                   technologies=held_by(state, power))


def combat_cards(state: GameState, scenario: Scenario, player: str) -> tuple[cm.CombatCard, ...]:
    """The combat cards in the player's hand whose effect the engine knows (§8.2.2 "Combat
    cards"); RR-I63: a card's effect is named by its title (Flanking Attack ->
    flanking-attack)."""
    if not player:
        return ()
    found = []
    for number in state.player(player).hand:
        card = scenario.cards[number]
        effect = "-".join(card.title.lower().split())
        if card.combat and effect in CARD_EFFECTS:
            found.append(cm.CombatCard(number, card.title, effect))
    return tuple(found)


def fight(judge: DecisionPort, combat: cm.Combat) -> cm.CombatResult:
    """Run the combat engine with the impulse's adjudicator (dice, decisions)."""
    return engine_fight(judge, combat)


def outcome(combat: cm.Combat, result: cm.CombatResult) -> str:
    """Who beat whom, for the chronicle."""
    if result.winner is None:
        return f"a draw between {combat.attacker.power} and {combat.defender.power}"
    winner = combat.side(result.winner).power
    loser = combat.side(cm.other(result.winner)).power
    return f"{winner} beats {loser}"


def mark(combat: cm.Combat, result: cm.CombatResult, kind: str = "battle") -> MapMark:
    """Where the reports' map draws a land combat and who beat whom."""
    return MapMark(area=combat.area, kind=kind, result=outcome(combat, result))


def apply_result(state: GameState, scenario: Scenario, judge: DecisionPort, combat: cm.Combat,
                 result: cm.CombatResult) -> None:
    """Losses, veterans, unrest and morale of a finished combat (§13.1.7–§13.1.8)."""
    for name in cm.SIDES:
        outcome = result.side(name)
        _reattach_leaders(state, combat.side(name), outcome)
        for unit in outcome.eliminated:
            eliminate(state, unit)
        for unit in outcome.dispersed:
            disperse(state, scenario, judge, unit)
        for unit in outcome.damaged:
            squadron = state.squadron(unit)
            if squadron is not None:
                judge.say(send_to_base(state, scenario, judge, squadron, damaged=True), rule="§13.2.5")
        for unit in outcome.returns_to_base:
            squadron = state.squadron(unit)
            if squadron is not None and squadron.sea is not None:
                judge.say(send_to_base(state, scenario, judge, squadron, damaged=False), rule="§13.2.5")
        if outcome.veteran:
            troop = state.troop(outcome.veteran)
            if troop is not None and not troop.veteran:
                troop.quality += 1
        player = combat.side(name).player
        for number in outcome.cards_played:  # played in combat: face up to the discard (§8.2.2)
            if player and number in state.player(player).hand:
                state.player(player).hand.remove(number)
                state.discard.append(number)
    for power, change in result.unrest:
        if power in state.powers:
            unrest.adjust(state, power, change)
    if result.morale_to is not None:
        winner = combat.side(result.morale_to).power
        loser = combat.side(cm.other(result.morale_to)).power
        give_morale(state, judge, loser, winner, f"{combat.type} combat lost in {combat.area}", "§21.3.5")


def _reattach_leaders(state: GameState, side_: cm.Side, outcome: cm.SideResult) -> None:
    """§17.1, RR-C8: a leader whose unit goes moves at no cost to a unit of the side still
    on the field; when none is left the engine says whether it is dispersed (with a
    dispersed unit) or eliminated."""
    gone = set(outcome.eliminated) | set(outcome.dispersed)
    staying = [u.id for u in side_.units if u.id not in gone and u.kind in (cm.TROOP, cm.SQUADRON, cm.FORTRESS)]
    for leader in list(state.leaders):
        if leader.unit not in gone:
            continue
        if leader.id in outcome.leaders_eliminated:
            state.leaders.remove(leader)
            state.leader_pool.append(leader.id)
        elif leader.id in outcome.leaders_dispersed:
            leader.unit = next((u for u in outcome.dispersed if state.troop(u) is not None), leader.unit)
        elif staying:
            leader.unit = staying[0]


def eliminate(state: GameState, unit: str) -> None:
    """§13.1.7: to the eliminated box; the counter goes back to the pool at turn end
    (RR-I33: at once, as nothing else reads the box yet); leaders go with their unit."""
    remove_unit_leader(state, unit)
    troop = state.troop(unit)
    if troop is not None:
        state.troops.remove(troop)
        pool = state.minors[troop.minor].eliminated if troop.minor else state.powers[troop.power].pool  # §20.3.2
        pool[troop.counter] = pool.get(troop.counter, 0) + 1
        if not troop.minor:  # a minor's units are not maintained (§23.1.1)
            state.record_eliminated(troop.power, "troop")
        return
    squadron = state.squadron(unit)
    if squadron is not None:
        state.squadrons.remove(squadron)
        if not squadron.minor:
            state.record_eliminated(squadron.power, "squadron")
        pool, key = ((state.minors[squadron.minor].eliminated, f"Q{squadron.quality}") if squadron.minor
                     else (state.powers[squadron.power].squadron_pool, str(squadron.quality)))
        pool[key] = pool.get(key, 0) + 1
        return
    fortress = next((f for f in state.fortresses if f.id == unit), None)
    if fortress is not None:
        state.fortresses.remove(fortress)


def disperse(state: GameState, scenario: Scenario, judge: DecisionPort, unit: str) -> None:
    """§18.1: a dispersed troop (with its leader) goes to the box of its area's theater; from a
    border area, to the box its owner chooses (§18.5, RR-I287)."""
    troop = state.troop(unit)
    if troop is None or troop.area is None:
        return
    troop.box, troop.area, troop.besieged = dispersal_box(state, scenario, judge, troop), None, False
