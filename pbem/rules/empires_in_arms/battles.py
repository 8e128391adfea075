"""The Land Combat Step of a power sequence (§7.1.3, §7.3.7, §7.5): the combats are
declared, each is built into the combat procedures' models from the state with the groups
nearby that may reinforce it (§7.5.2.11.1), fought by them (`combat/`, field or trivial as
§7.5.3 and both sides' agreement say), and its result applied back to the map — the corps
that reinforced it in its area, losses per corps, empty corps removed (§7.5.5), the loser's
retreat (§7.5.2.10.3), leaders captured, killed or wounded, political points, and enemy
depots left alone (§7.5.2.14).
A siege a power ordered (`BESIEGE`, EIA-I101) is pressed after its field combats by one
assault attempt (§7.5.4.1), built and applied here too.

This module is the only one of the game that imports `combat/`. Strengths and losses are
told to the two sides (§7.5.2.6.3); every other power reads who won, who retreated where
and which counters left the map.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from pydantic import ValidationError

from pbem.core.engine import MapMark
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms import coalitions
from pbem.rules.empires_in_arms.besieging import begin_siege, lift_sieges, march_out, refuge
from pbem.rules.empires_in_arms.cities import leave_city, occupy, retire_into_city, surrender_city
from pbem.rules.empires_in_arms.combat.charts import ChartError, Charts, charts_over_shipped, synthetic_charts
from pbem.rules.empires_in_arms.combat.field import field_combat
from pbem.rules.empires_in_arms.combat.kinds import COMBAT_KINDS as COMBAT_KINDS  # the ruleset's, from here
from pbem.rules.empires_in_arms.combat.models import Battle as Combat
from pbem.rules.empires_in_arms.combat.models import City as SiegedCity
from pbem.rules.empires_in_arms.combat.models import Siege as CombatSiege
from pbem.rules.empires_in_arms.combat.models import (DEFAULT_LOSS_ORDER, BattleResult, FactorKind, Factors, Options,
                                                      ReinforcementGroup, RetreatMap, Side, SideResult, SiegeResult,
                                                      Terrain, Unit, tenths)
from pbem.rules.empires_in_arms.combat.models import Leader as CombatLeader
from pbem.rules.empires_in_arms.combat.outflank import ROUGH
from pbem.rules.empires_in_arms.combat.retreat import retreat_route
from pbem.rules.empires_in_arms.combat.withdrawal import IRREGULAR_ESCAPE
from pbem.rules.empires_in_arms.combat.sieges import assault_attempt, garrison_attack, relief
from pbem.rules.empires_in_arms.depots import converted, enemy_depot_garrison
from pbem.rules.empires_in_arms.irregulars import add_guerrillas, evade_before_combat, field_irregulars, lose_factors
from pbem.rules.empires_in_arms.levies import out_of_bounds
from pbem.rules.empires_in_arms.movement import OrderError
from pbem.rules.empires_in_arms.orders import AttackBesiegers as Sortie
from pbem.rules.empires_in_arms.options import combat_options
from pbem.rules.empires_in_arms.removal import remove_corps
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Battle, Corps, Depot, GameState, Garrison, Irregular
from pbem.rules.empires_in_arms.supply import enemy_corps_in

#: The scenario's factor types (research §3) as the combat rules name them.
FACTOR_KINDS: dict[str, FactorKind] = {"INF": "infantry", "MIL": "militia", "CAV": "cavalry", "GRD": "guard",
                                       "ART": "artillery"}
TERRAINS: tuple[Terrain, ...] = ("clear", "forest", "mountain", "desert", "marsh")
DEPOT_GARRISON = "-depot"  # a depot garrison's id in a combat: its power's code and this
CITY_GARRISON = "-garrison"  # a city garrison's id in a siege: its power's code and this


# -- the scenario's combat data -------------------------------------------------------
def check_scenario(scenario: Scenario) -> list[str]:
    """What the combat rules need of a scenario: its charts and options readable, morale
    figures written as the cards print them, every area's terrain one combat knows."""
    data, problems = scenario.data, []
    if data.combat_charts:
        try:
            charts_over_shipped(data.combat_charts)
        except ChartError as error:
            problems.append(str(error))
    try:
        Options.model_validate(data.combat_options)
    except ValidationError as error:
        problems += [f"combat_options.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()]
    morale = [(f"power {p.code}", p.infantry_morale, p.cavalry_morale) for p in data.powers]
    morale += [(f"corps {c.id}", c.infantry_morale, c.cavalry_morale) for c in data.corps]
    for where, *figures in morale:
        for figure in figures:
            try:
                if figure is not None:
                    tenths(figure)
            except ValueError as error:
                problems.append(f"{where}: {error}")
    problems += [f"area {a.id}: the combat rules know no terrain {a.terrain!r} (known: {', '.join(TERRAINS)})"
                 for a in data.areas if a.terrain not in TERRAINS]
    return problems


#: No cap on a rating (option 12.3.7.3 before its dates).
MAX_RATING = 99


def battle_options(state: GameState, scenario: Scenario) -> Options:
    """The combat options of a battle: the scenario's `[combat_options]` under the campaign's
    options (§7.5.2.6.1, §12.3, §12.7)."""
    return Options.model_validate(combat_options(scenario.data.combat_options, state.options))


def combat_charts(scenario: Scenario) -> Charts:
    return charts_over_shipped(scenario.data.combat_charts) if scenario.data.combat_charts else synthetic_charts()


# -- a power's standing loss order ----------------------------------------------------------
def check_loss_order(types: Sequence[str]) -> None:
    """A LOSSES order names factor types, each once (§7.5.2.9.2, EIA-I130)."""
    unknown = [t for t in types if t not in FACTOR_KINDS]
    if unknown:
        raise OrderError(f"LOSSES names factor types ({', '.join(FACTOR_KINDS)}); {unknown[0]} is not one "
                         "(§7.5.2.9.2)")
    twice = next((t for i, t in enumerate(types) if t in types[:i]), None)
    if twice:
        raise OrderError(f"LOSSES names {twice} twice; name each factor type once (§7.5.2.9.2)")


def loss_order(types: Sequence[str]) -> tuple[FactorKind, ...]:
    """EIA-I130: the kinds a power's LOSSES order names go first, in its order; the kinds it
    leaves out follow in the default order (EIA-I66)."""
    named = [FACTOR_KINDS[t] for t in types]
    return (*named, *(kind for kind in DEFAULT_LOSS_ORDER if kind not in named))


# -- the Land Combat Step ---------------------------------------------------------------
def combat_step(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str,
                across_river: dict[str, str], converting: frozenset[str] = frozenset(),
                sorties: Mapping[str, Sortie] | None = None) -> set[str]:
    """§7.1.3: the combats the phasing power's corps must fight, declared and then fought
    one after another in the map's order; `converting` holds the areas whose enemy depot
    the power ordered converted rather than destroyed (§7.5.2.14); `sorties` the part of
    its besieged forces that attack their besiegers in an area, with a relief force there
    (§7.5.4.2.3). Returns the areas where a relief was fought with a sortie."""
    declared = declare_combats(ctx, state, scenario, power, across_river)
    engaged = {corps for battle in declared for corps in (*battle.attacking, *battle.defending)}
    sallied = set()
    for battle in declared:
        sortie = (sorties or {}).get(battle.area) if relieving(state, battle) else None
        engaged |= fight(ctx, state, scenario, battle, engaged, convert=battle.area in converting, sortie=sortie)
        if sortie is not None:
            sallied.add(battle.area)
    return sallied


def declare_combats(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str,
                    across_river: dict[str, str]) -> list[Battle]:
    """§7.3.7.1: the phasing sequence attacks enemy corps in every area where its corps stand
    with them, the powers moving combined with `power` and their allies at war with every
    defender joining the attack, the others stepping aside (§7.3.8, `coalitions.py`);
    §7.3.7.2: a corps ending its move where only enemy cossacks, freikorps or a depot garrison
    stand attacks them; the attackers' own cossacks and freikorps attack and are attacked as
    field forces too (§7.5.1, §10.1.2.2.2); guerrillas only when their player sends them
    (§10.1.1.3, §10.1.1.3.1). Areas in the map's order; `across_river` maps a corps that
    entered its area across a river this sequence to that area (§7.5.2.7.1)."""
    declared = []
    phasing = scenario.combined_with(power)
    for area in scenario.data.areas:
        coalitions.clear_area(ctx, state, scenario, phasing, area.id)
        attacker = coalitions.lead_attacker(state, scenario, phasing, area.id)
        allies: list[str] = []
        if attacker is not None:
            allies = coalitions.attacking_powers(state, scenario, phasing, attacker, area.id)[1:]
        else:
            attacker = irregular_attacker(state, scenario, phasing, area.id)
        if attacker is None:
            continue
        attackers = {attacker, *allies}
        attacking = [c.id for c in state.field_corps_in(area.id) if scenario.major(c.power) in attackers]
        attacking += [i.id for i in field_irregulars(state, scenario, area.id, attackers)]
        defending = [*enemy_corps_in(state, scenario, attacker, area.id),
                     *enemy_field_irregulars(state, scenario, attacker, area.id)]
        depot = enemy_depot_garrison(state, scenario, attacker, area.id)
        crossed = [c for c in attacking if across_river.get(c) == area.id]
        if defending:
            sides = sorted({scenario.major(c.power) for c in defending}, key=scenario.power_order.index)
            battle = Battle(area.id, "field", attacker, attacking, sides, [c.id for c in defending], crossed,
                            allies=allies)
            what = (f"field combat in {area.title}: {', '.join((attacker, *allies))} ({', '.join(attacking)}) "
                    f"attack{'s' if not allies else ''} {', '.join(sides)} ({', '.join(battle.defending)})")
            rule = "§7.3.8" if allies or len(sides) > 1 else "§7.3.7.1"
        elif depot is not None:
            battle = Battle(area.id, "depot-garrison", attacker, attacking, [depot.power], [], crossed)
            what = (f"combat in {area.title}: {attacker} ({', '.join(attacking)}) attacks the {depot.power} "
                    "depot garrison")
            rule = "§7.3.7.2"
        else:
            continue
        state.battles.append(battle)
        river = f" ({', '.join(crossed)} across the river, §7.5.2.7.1)" if crossed else ""
        ctx.say(f"{what}{river}", rule=rule)
        if battle.kind == "field":
            retire_into_city(ctx, state, scenario, area.id, battle.attacker)
            if build(state, scenario, battle) is None:
                battle.outcome = "not fought: the defenders retired into the city"
                ctx.say(f"combat in {area.title} is not fought: the defenders retired into the city",
                        rule="§7.5.1.1.2")
                continue
        declared.append(battle)
    return declared


def fight(ctx: DecisionPort, state: GameState, scenario: Scenario, battle: Battle,
          engaged: Collection[str] = (), convert: bool = False, sortie: Sortie | None = None) -> set[str]:
    """One declared combat, built from the state as it stands when its turn comes; the
    corps of the step's other combats (`engaged`) cannot reinforce it (§7.5.2.11.1.2); a
    relief's besieged `sortie` fights with the relief force (§7.5.4.2.3, EIA-I145).
    Returns the corps that joined it as reinforcements. Cossacks and freikorps attacked alone
    may first retreat before it (§10.1.2.2.3)."""
    evade_before_combat(ctx, state, scenario, battle.area, battle.attacker, IRREGULAR_ESCAPE)
    combat = build(state, scenario, battle, engaged, sortie)
    title = scenario.areas[battle.area].title
    if combat is None:
        battle.outcome = "not fought: one side is no longer there"
        ctx.say(f"combat in {title} is not fought: one side is no longer there", rule="§7.5.1")
        return set()
    siege = state.siege_in(battle.area) if relieving(state, battle) else None
    if siege is not None:
        sallied = besieged_units(state, scenario, battle.area, sortie) if sortie is not None else None
        sallying = [u.id for u in sallied.units] if sallied is not None else []
        ctx.say(f"{battle.attacker} comes to relieve the siege of {title}: a limited field combat of one day"
                + (f", its besieged {', '.join(sallying)} sortieing with the relief force" if sallying else ""),
                rule="§7.5.4.2.3")
        result = relief(ctx, combat, sortie=tuple(sallying), charts=combat_charts(scenario))
    else:
        result = field_combat(ctx, combat, combat_charts(scenario))
    apply_result(ctx, state, scenario, battle, combat, result)
    out_of_bounds(ctx, state, scenario)
    if siege is not None and state.city_holder(battle.area) is None \
            and any(c.power == siege.power and not c.inside for c in state.corps_in(battle.area)):
        # "If all siege defenders were eliminated, the city is captured" (§7.5.4.2.3.1.1)
        surrender_city(ctx, state, scenario, battle.area, siege.power, "its besieged forces fell in the sortie",
                       "§7.5.4.2.3.1.1")
    depots_after(ctx, state, scenario, battle, convert)
    lift_sieges(ctx, state, scenario)
    if siege is not None and result.winner == "attacker" and state.siege_in(battle.area) is None:
        leave_city(ctx, state, scenario, battle.area, "§7.5.4.2.3.2")
    return {*result.attacker.joined, *result.defender.joined}


def relieving(state: GameState, battle: Battle) -> bool:
    """§7.5.4.2.3: a field combat against the besiegers of the attacker's own besieged garrison
    or corps is a relief, fought as a limited field combat (EIA-I105)."""
    siege = state.siege_in(battle.area)
    return (siege is not None and state.city_holder(battle.area) == battle.attacker
            and siege.power in battle.defenders)


# -- from the state to the combat's models ---------------------------------------------------
def build(state: GameState, scenario: Scenario, battle: Battle, engaged: Collection[str] = (),
          sortie: Sortie | None = None) -> Combat | None:
    """The combat in `battle.area` (§7.5.1.2): every corps in the field and depot garrison
    there takes part, the phasing power's against its enemies', and with a relief the part of
    its besieged forces that sortie (§7.5.4.2.3). Allied defenders fight as one side under
    the first of them in the fixed order (EIA-I80). It is fought as a trivial combat when
    both sides' powers stand agreed to it (§7.5.3.5, EIA-I133)."""
    area = battle.area
    attackers = {battle.attacker, *battle.allies}
    attacking = [c for c in state.corps_in(area) if scenario.major(c.power) in attackers and not c.inside]
    defending = enemy_corps_in(state, scenario, battle.attacker, area)
    raiders = field_irregulars(state, scenario, area, attackers)
    irregular_defenders = enemy_field_irregulars(state, scenario, battle.attacker, area)
    depot = enemy_depot_garrison(state, scenario, battle.attacker, area)
    depots = [depot] if depot is not None else []
    if not (attacking or raiders) or not (defending or irregular_defenders or depots):
        return None
    defenders = {scenario.major(c.power) for c in [*defending, *irregular_defenders]} or {depots[0].power}
    defender = min(defenders, key=scenario.power_order.index)
    attacker = side(state, scenario, battle.attacker, attacking, [],
                    reinforcing(state, scenario, area, attackers, defenders, engaged), raiders)
    if sortie is not None and (sallying := besieged_units(state, scenario, area, sortie)):
        attacker = attacker.model_copy(update={"units": (*attacker.units, *sallying.units),
                                               "leaders": (*attacker.leaders, *sallying.leaders)})
    return Combat(id=area, area=area, terrain=scenario.areas[area].terrain,
                  attacker=attacker,
                  defender=side(state, scenario, defender, defending, depots,
                                reinforcing(state, scenario, area, defenders, attackers, engaged), irregular_defenders),
                  river=bool(battle.across_river), options=battle_options(state, scenario),
                  agreed_trivial=state.powers[battle.attacker].trivial and state.powers[defender].trivial)


def side(state: GameState, scenario: Scenario, power: str, corps: Sequence[Corps], depots: Sequence[Depot],
         reinforcements: Sequence[ReinforcementGroup] = (), irregulars: Sequence[Irregular] = ()) -> Side:
    """A side as the combat sees it: the seat holding its power answers its chits and which
    of the groups nearby try to join (EIA-I134); its leaders preferred in command are its
    power's COMMAND order (§10.6.1.1.2, EIA-I181)."""
    units = [unit(state, scenario, c) for c in corps] + [irregular_unit(scenario, i) for i in irregulars]
    units += [Unit(id=f"{d.power}{DEPOT_GARRISON}", power=d.power, category="garrison",
                   factors=Factors(infantry=d.garrison), infantry_morale=scenario.powers[d.power].infantry_morale,
                   cavalry_morale=scenario.powers[d.power].cavalry_morale) for d in depots]
    return Side(player=state.holder(power) or power, power=power, units=tuple(units),
                leaders=commanding(state, scenario, corps), reinforcements=tuple(reinforcements),
                loss_order=loss_order(state.powers[power].loss_order),
                loss_orders={u.power: loss_order(state.powers[scenario.major(u.power)].loss_order)
                             for u in (*units, *(x for g in reinforcements for x in g.units))
                             if scenario.major(u.power) != power},
                declared_tactical=state.powers[power].tactical,
                preferred=tuple(state.powers[power].commanders))


def commanding(state: GameState, scenario: Scenario, corps: Sequence[Corps],
               area: str | None = None) -> tuple[CombatLeader, ...]:
    """The leaders with `corps`, rated for a combat in `area` (the corps' own by default)."""
    ids = {c.id for c in corps}
    where = area or (corps[0].area if corps else "")
    return tuple(scenario_leader(scenario, lead.id, napoleon_aged(state, scenario, where))
                 for lead in state.leaders if lead.corps in ids)


def napoleon_aged(state: GameState, scenario: Scenario, area: str) -> tuple[int, int, str] | None:
    """Option 12.3.7.3: NAPOLEON's tactical rating is 4 from January 1809 and his strategic
    rating 4 from January 1812, except in a combat within France's "original home nation
    boundaries" (EIA-I202: the territory of NAPOLEON's power in the scenario). The caps and the
    owner of the combat's area, or None when the option is off."""
    if state.options.get("napoleon_ratings") != "yes" or not area:
        return None
    date = scenario.date(state.turn)
    return (4 if date >= (1809, 1) else MAX_RATING, 4 if date >= (1812, 1) else MAX_RATING,
            scenario.areas[area].owner or "")


def reinforcing(state: GameState, scenario: Scenario, area: str, powers: set[str], enemies: set[str],
                engaged: Collection[str]) -> list[ReinforcementGroup]:
    """§7.5.2.11.1: the corps in each adjacent area, and those inside an unbesieged city of
    the combat's own area, that may try to join a side of `powers` against `enemies` — its
    own powers' and those of any power at war with every enemy and with none of the side
    (§7.5.2.11.1.3) — but none that has fought or will fight another combat of this step
    (`engaged`, §7.5.2.11.1.2) and none besieged (EIA-I147). A group in mountain, forest or
    marsh, or across a river, is hindered (§7.5.2.11.3). One group per area, in the map's
    order."""
    def friendly(power: str) -> bool:
        return scenario.major(power) in powers or (all(scenario.at_war(power, e) for e in enemies)
                                   and not any(scenario.at_war(power, own) for own in powers))

    groups = []
    for near in [a.id for a in scenario.data.areas if a.id in scenario.neighbours[area] or a.id == area]:
        corps = [c for c in state.corps_in(near) if friendly(c.power) and c.id not in engaged
                 and not state.besieged(c) and (c.inside or near != area)]
        # cossacks and freikorps come only with a leader, so only with corps (§7.5.2.11.2), and
        # freikorps only into their own territory (§10.1.2.2, EIA-I184); those of the combat's
        # own area are in the field, in the combat already (§7.5.1.2)
        riders = [i for i in field_irregulars(state, scenario, near, {scenario.major(c.power) for c in corps})
                  if near != area and i.id not in engaged
                  and (i.kind != "freikorps" or scenario.areas[area].owner == i.power)]
        if corps:
            groups.append(ReinforcementGroup(
                id=near,
                units=(*(unit(state, scenario, c) for c in corps), *(irregular_unit(scenario, i) for i in riders)),
                leaders=commanding(state, scenario, corps, area),
                hindered=scenario.areas[near].terrain in ROUGH or scenario.crosses_river(near, area)))
    return groups


def unit(state: GameState, scenario: Scenario, corps: Corps) -> Unit:
    """A corps with its factors by type, its morale — the counter's where the scenario gives
    one, else its power's (§7.5.2.6.1.1), 4.0 for a corps British training has made (option
    12.3.2, `trained`) — the counter's own ratings (§10.6.1), and the cavalry symbol of a corps
    that moves as cavalry (§7.3.1.1), which holds cossacks and freikorps back (§10.1.2.2.3)."""
    power, counter = scenario.powers[corps.power], scenario.counters.get(corps.id)
    kinds = {FACTOR_KINDS[kind]: n for kind, n in corps.factors.items() if n}
    drilled = TRAINED_MORALE if trained(state, scenario, corps.power) else None
    return Unit(id=corps.id, power=corps.power, factors=Factors(**kinds),
                infantry_morale=drilled or (counter and counter.infantry_morale) or power.infantry_morale,
                cavalry_morale=drilled or (counter and counter.cavalry_morale) or power.cavalry_morale,
                strategic=counter.strategic if counter else 0, tactical=counter.tactical if counter else 0,
                cavalry_symbol=corps.movement == "cavalry", artillery_corps=set(kinds) == {"artillery"})


#: Option 12.3.2: the morale of a trained minor free state's infantry and cavalry in its corps.
TRAINED_MORALE = "4.0"
#: "after 24 continuous months as a British-controlled minor free state" (12.3.2).
TRAINING_MONTHS = 24


def trained(state: GameState, scenario: Scenario, power: str) -> bool:
    """Option 12.3.2: whether `power`'s corps fight with British training's morale — the
    option is on and the scenario's month is 24 or more after the month the scenario says the
    power has been British-controlled since (its `trained_since`, EIA-I243); control never
    changes in a scenario (EIA-I3), so the months stay continuous."""
    since = scenario.powers[power].trained_since
    if state.options.get("british_training") != "yes" or since is None:
        return False
    year, month = scenario.date(state.turn)
    return (year - since.year) * 12 + month - since.month >= TRAINING_MONTHS


def irregular_unit(scenario: Scenario, irregular: Irregular) -> Unit:
    """Cossacks or freikorps, cavalry factors of morale 1.0 (§10.1.2), or guerrillas of morale 1
    (§10.1.1.3); rated zero (§10.6.1)."""
    power = scenario.powers[irregular.power]
    category = {"cossack": "cossacks", "freikorps": "freikorps", "guerrilla": "guerrillas"}[irregular.kind]
    return Unit(id=irregular.id, power=irregular.power, category=category,
                factors=Factors(**{irregular.kind: irregular.factors}), infantry_morale=power.infantry_morale,
                cavalry_morale=power.cavalry_morale)


def enemy_field_irregulars(state: GameState, scenario: Scenario, power: str, area: str) -> list[Irregular]:
    """The cossacks and freikorps at war with `power` in `area` (§7.3.7.2, §7.5.1.2)."""
    return [i for i in field_irregulars(state, scenario, area, set(scenario.power_order))
            if scenario.at_war(power, i.power)]


def irregular_attacker(state: GameState, scenario: Scenario, phasing: Sequence[str], area: str) -> str | None:
    """Where no corps of the phasing sequence stands with enemy field forces (`coalitions`
    then declares nothing), the first of its powers whose corps stand with an enemy depot
    garrison, or whose cossacks, freikorps or sent guerrillas stand with enemy forces: it
    attacks them (§7.3.7.2, §7.5.1.2, §10.1.1.3)."""
    for power in phasing:
        corps = any(scenario.major(c.power) == power for c in state.field_corps_in(area))
        irregulars = field_irregulars(state, scenario, area, {power})
        if not (corps or irregulars):
            continue
        if enemy_field_irregulars(state, scenario, power, area) \
                or (irregulars and enemy_corps_in(state, scenario, power, area)) \
                or enemy_depot_garrison(state, scenario, power, area):
            return power
    return None


def scenario_leader(scenario: Scenario, leader_id: str, aged: tuple[int, int, str] | None = None) -> CombatLeader:
    """A leader's counter for a combat; NAPOLEON's ratings capped by `aged` outside his power's
    territory (option 12.3.7.3, `napoleon_aged`); its cavalry leader symbol counts in
    pursuits (§7.5.2.10.2.2.1, §10.6.1.3)."""
    lead = next(x for x in scenario.data.leaders if x.id == leader_id)
    tactical, strategic = lead.tactical, lead.strategic
    if lead.napoleon and aged is not None and aged[2] != lead.power:
        tactical, strategic = min(tactical, aged[0]), min(strategic, aged[1])
    return CombatLeader(id=lead.id, power=lead.power, strategic=strategic, tactical=tactical,
                        tactical_max=lead.tactical_max, seniority=lead.seniority, napoleon=lead.napoleon,
                          cavalry_symbol=lead.cavalry)


def retreat_map(state: GameState, scenario: Scenario, powers: set[str]) -> RetreatMap:
    """What a retreat of `powers`' force needs of the map (§7.5.2.10.3): areas holding
    unbesieged enemy corps (§7.5.2.10.3.3, EIA-I143) or enemy depot garrisons, depots of a
    nationality in the force (EIA-I56), and the force's capitals (its powers' own capital
    cities, EIA-I81)."""
    def enemy(power: str) -> bool:
        return any(scenario.at_war(power, own) for own in powers)

    blocked = {c.area for c in state.corps if enemy(c.power) and not state.besieged(c)}
    blocked |= {d.area for d in state.depots if d.garrison and enemy(d.power)}
    powers = powers | {scenario.major(p) for p in powers}  # a minor free state's force uses its controller's (§7.1.1)
    return RetreatMap(neighbours=dict(scenario.neighbours), blocked=tuple(sorted(blocked)),
                      depots=tuple(sorted(d.area for d in state.depots if d.power in powers)),
                      capitals=tuple(a.id for a in scenario.data.areas
                                     if a.city is not None and a.city.capital and a.owner in powers))


# -- from the result back to the state ---------------------------------------------------------
def apply_result(ctx: DecisionPort, state: GameState, scenario: Scenario, battle: Battle, combat: Combat,
                 result: BattleResult) -> None:
    """The result on the map, each side in turn, and the outcome every power reads."""
    title = scenario.areas[battle.area].title
    moved: list[str] = []
    for name, fought, outcome in (("attacker", combat.attacker, result.attacker),
                                  ("defender", combat.defender, result.defender)):
        joined(ctx, state, scenario, battle, outcome)
        take_losses(ctx, state, battle.area, fought, outcome)
        moved += retreat(ctx, state, scenario, battle.area, fought, outcome)
        state.powers[fought.power].political += outcome.political_points
        if outcome.political_points:
            ctx.say(f"{fought.power} {'gains' if outcome.political_points > 0 else 'loses'} "
                    f"{abs(outcome.political_points)} political points", rule="§7.5.2.10.1.3")
    winner = {"attacker": combat.attacker.power, "defender": combat.defender.power}.get(result.winner or "")
    loser = {"attacker": combat.defender, "defender": combat.attacker}.get(result.winner or "")
    if result.kind in ("field", "limited") and loser is not None:
        rising(ctx, state, scenario, battle.area, loser)
    battle.outcome = (f"{winner} wins" if winner else "no winner") + f" ({ENDINGS[result.ended]}, "
    battle.outcome += f"{len(result.days)} day{'s' if len(result.days) > 1 else ''})"
    battle.outcome += "".join(f"; {line}" for line in moved)
    ctx.say(f"{result.kind} combat in {title}: {battle.outcome}", rule="§7.5.2.10",
            mark=MapMark(area=battle.area, kind="battle", result=f"{winner} wins" if winner else "no winner"))


def rising(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, loser: Side) -> None:
    """§10.1.1.1.1: a power with guerrillas that loses a field or limited field combat in which
    one of its corps fought inside one of its own provinces raises one guerrilla factor there
    as the combat ends."""
    corps = [u for u in loser.units if u.category == "corps" and u.power == loser.power]
    if corps and any(p.power == loser.power and area in p.areas for p in scenario.data.provinces):
        add_guerrillas(state, scenario, loser.power, area, 1)
        ctx.say(f"a {loser.power} guerrilla factor rises in {scenario.areas[area].title} after the lost combat",
                rule="§10.1.1.1.1")


ENDINGS = {"broken": "the loser broke", "eliminated": "the loser was wiped out", "withdrawal": "a side withdrew",
           "day_end": "a side left at the end of a day", "undecided": "undecided", "both_broken": "both sides broke"}


def joined(ctx: DecisionPort, state: GameState, scenario: Scenario, battle: Battle, outcome: SideResult) -> None:
    """§7.5.2.11.5: the corps that reinforced the combat are in its area from then on, and
    share its side's fate (losses, retreat, removal)."""
    arrived: list[Corps | Irregular] = [c for c in (state.corps_by_id(i) for i in outcome.joined) if c is not None]
    arrived += [i for i in state.irregulars if i.id in outcome.joined]
    for corps in arrived:
        corps.area = battle.area
        if isinstance(corps, Corps):
            corps.inside = False  # out of its city too (§7.5.2.11.1)
    if arrived:
        ctx.say(f"{', '.join(c.id for c in arrived)} join{'s' if len(arrived) == 1 else ''} the combat in "
                f"{scenario.areas[battle.area].title}", rule="§7.5.2.11")


def take_losses(ctx: DecisionPort, state: GameState, area: str, fought: Side, outcome: SideResult) -> None:
    """Losses per corps and depot garrison, prisoners, leaders, and the corps emptied by
    them removed (§7.5.5); each owner is told its own losses."""
    owner = (fought.player,)
    for unit_id, lost in outcome.losses.items():
        lost_types = {kind: n for kind, n in ((t, getattr(lost, k)) for t, k in FACTOR_KINDS.items()) if n}
        corps = state.corps_by_id(unit_id)
        irregular = state.irregular_by_id(unit_id)
        if irregular is not None:
            ctx.say(f"{unit_id} loses {lost.total} factor{'s' if lost.total > 1 else ''}", rule="§7.5.2.9.2")
            state.powers[irregular.power].factors_lost += min(lost.total, irregular.factors)
            lose_factors(ctx, state, irregular, lost.total, "in combat")
        elif corps is not None:
            for kind, n in lost_types.items():
                corps.factors[kind] = max(corps.factors.get(kind, 0) - n, 0)
            state.powers[corps.power].factors_lost += lost.total
            ctx.say(f"{unit_id} loses " + ", ".join(f"{n} {kind}" for kind, n in lost_types.items()), to=owner,
                    rule="§7.5.2.9.2")
        elif (garrison := _city_garrison_of(state, area, unit_id)) is not None:
            lose_from_garrison(garrison, lost_types)
            state.powers[garrison.power].factors_lost += lost.total
            ctx.say(f"the {garrison.power} city garrison loses {lost.total} factors", to=owner, rule="§7.5.2.9.2")
        else:
            depot = _depot_of(state, area, unit_id)
            if depot is not None:
                state.powers[depot.power].factors_lost += min(lost.total, depot.garrison)
                depot.garrison = max(depot.garrison - lost.total, 0)
                ctx.say(f"the {depot.power} depot garrison loses {lost.total} factors", to=owner, rule="§7.5.2.9.2")
    for unit_id in outcome.surrendered:
        corps = state.corps_by_id(unit_id)
        if (irregular := state.irregular_by_id(unit_id)) is not None:
            state.powers[irregular.power].factors_lost += irregular.factors
            state.irregulars.remove(irregular)
        elif corps is not None:
            state.powers[corps.power].factors_lost += corps.strength
            corps.factors = {kind: 0 for kind in corps.factors}
        elif (garrison := _city_garrison_of(state, area, unit_id)) is not None:
            state.powers[garrison.power].factors_lost += garrison.strength
            garrison.factors = {kind: 0 for kind in garrison.factors}
        elif (depot := _depot_of(state, area, unit_id)) is not None:
            state.powers[depot.power].factors_lost += depot.garrison
            depot.garrison = 0
        ctx.say(f"{unit_id} surrenders: its factors become prisoners", rule="§7.5.2.10.3.6")
    leaders(ctx, state, outcome)
    for unit_id in [*(u.id for u in fought.units), *outcome.joined]:
        corps = state.corps_by_id(unit_id)
        if corps is not None and not corps.strength:
            remove_corps(ctx, state, corps, "in combat", "§7.5.5")


def _depot_of(state: GameState, area: str, unit_id: str) -> Depot | None:
    """The depot in `area` whose garrison fought as `unit_id` (one depot per area, §7.2)."""
    depot = state.depot_in(area)
    return depot if depot is not None and unit_id == f"{depot.power}{DEPOT_GARRISON}" else None


def _city_garrison_of(state: GameState, area: str, unit_id: str) -> Garrison | None:
    """The city garrison in `area` that fought a siege as `unit_id`."""
    garrison = state.garrison_in(area)
    return garrison if garrison is not None and unit_id == f"{garrison.power}{CITY_GARRISON}" else None


def lose_from_garrison(garrison: Garrison, lost: dict[str, int]) -> None:
    """Losses by type from a city garrison; what a type lacks comes from the others (a
    garrison holds infantry and militia only, §7.3.3.3)."""
    left = sum(lost.values())
    for kind in [k for k in [*lost, *garrison.factors] if k in garrison.factors]:
        take = min(lost.get(kind, left), garrison.factors[kind], left)
        garrison.factors[kind] -= take
        left -= take


def leaders(ctx: DecisionPort, state: GameState, outcome: SideResult) -> None:
    """Captured and killed leaders leave the game; a wounded one leaves the map and
    returns in the first Army Reinforcement Step after its months (option 12.7)."""
    for leader_id in outcome.leaders_captured:
        state.leaders = [lead for lead in state.leaders if lead.id != leader_id]
        ctx.say(f"{leader_id} is captured", rule="§7.5.2.10.3.6")
    for hurt in outcome.leader_casualties:
        if hurt.killed:
            state.leaders = [lead for lead in state.leaders if lead.id != hurt.leader]
            continue
        for lead in state.leaders:
            if lead.id == hurt.leader:
                lead.corps, lead.back = None, state.turn + hurt.months


def retreat(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, fought: Side,
            outcome: SideResult) -> list[str]:
    """The side's survivors that must leave — all of them after a lost combat, a
    withdrawal or an end-of-day retreat, or the units that withdrew in Step 5 or 12 —
    move whole along the retreat route (§7.5.2.10.3); a withdrawal the owner conducts takes
    the same route, his standing WITHDRAWAL areas first among equally close ones (EIA-I82,
    EIA-I135). With no route left they surrender (§7.5.2.10.3.6)."""
    leaving = [*(u.id for u in fought.units), *outcome.joined] if outcome.retreat != "none" \
        else list(outcome.withdrew)
    corps: list[Corps | Irregular] = [c for c in state.corps_in(area) if c.id in leaving and not c.inside]
    corps += [i for i in state.irregulars_in(area) if i.id in leaving]  # a sortie goes back inside
    if not corps:
        return []
    owners = outcome.retreat in ("by_owner", "none")  # a withdrawal (§7.5.2.5.2.3, §7.5.2.13.1)
    prefer = state.powers[fought.power].withdrawal if owners else []
    route = retreat_route(retreat_map(state, scenario, {c.power for c in corps}), area, prefer)
    names = ", ".join(c.id for c in corps)
    if route is None:
        for c in corps:
            state.leaders = [lead for lead in state.leaders if lead.corps != c.id]
            (state.irregulars if isinstance(c, Irregular) else state.corps).remove(c)
        ctx.say(f"{names} find no retreat route and surrender with their leaders", rule="§7.5.2.10.3.6")
        return [f"{names} surrender"]
    for c in corps:
        c.area = route[-1]
    line = f"{names} retreat{'s' if len(corps) == 1 else ''} to " + " > ".join(scenario.areas[a].title for a in route)
    ctx.say(line, rule="§7.5.2.10.3")
    return [line]


def depots_after(ctx: DecisionPort, state: GameState, scenario: Scenario, battle: Battle, convert: bool) -> None:
    """§7.5.2.14: an enemy depot in an area where only the attacker's forces remain is
    destroyed, or converted when the attacker ordered it and it would then supply (§7.3.6.2,
    EIA-I83, EIA-I100)."""
    depot = state.depot_in(battle.area)
    if depot is None or not scenario.at_war(battle.attacker, depot.power) or depot.garrison:
        return
    corps = state.corps_in(battle.area)
    if not any(scenario.major(c.power) == battle.attacker for c in corps) \
            or enemy_corps_in(state, scenario, battle.attacker, battle.area) \
            or enemy_field_irregulars(state, scenario, battle.attacker, battle.area):
        return
    title = scenario.areas[battle.area].title
    if convert and converted(ctx, state, scenario, battle.attacker, battle.attacker, depot, "§7.5.2.14"):
        return
    state.depots.remove(depot)
    ctx.say(f"{battle.attacker} destroys the {depot.power} depot in {title}", rule="§7.5.2.14")


def describe(scenario: Scenario, battle: Battle) -> str:
    """A combat in one line, for the reports: who fought whom, and how it ended."""
    title = scenario.areas[battle.area].title
    against = ", ".join(battle.defending) or f"the {', '.join(battle.defenders)} depot garrison"
    ended = f": {battle.outcome}" if battle.outcome else ""
    return f"{title}: {battle.attacker} ({', '.join(battle.attacking)}) against {against}{ended}"


# -- sieges (§7.5.4) -----------------------------------------------------------------------------
def besiege(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, area: str) -> None:
    """§7.5.4.1: the power's corps in `area`, with the guerrillas it sent (§10.1.1.3.3), press
    the siege of the enemy garrison and corps inside its city by one assault attempt (EIA-I75,
    EIA-I101, EIA-I142, EIA-I240), if they are still there and no enemy corps is left in the
    field after the field combats; the result on the map."""
    holder, title = state.city_holder(area), scenario.areas[area].title
    corps = [c for c in state.corps_in(area) if c.power == power and not c.inside]
    if holder is None or not scenario.at_war(power, holder) or not corps \
            or enemy_corps_in(state, scenario, power, area):
        ctx.say(f"{power} does not besiege {title}: "
                + ("enemy corps still stand in the area" if holder is not None and corps
                   and enemy_corps_in(state, scenario, power, area)
                   else "its corps or the enemy in the city are no longer there"), rule="§7.5.4")
        return
    guerrillas = [i for i in state.irregulars_in(area)  # sent by GUERRILLAS ATTACK (§10.1.1.3.3, EIA-I240)
                  if i.kind == "guerrilla" and i.attacks and scenario.major(i.power) == power]
    city = scenario.areas[area].city
    assert city is not None  # a garrison or corps is inside a city only
    besieged = besieged_units(state, scenario, area, None)
    assert besieged is not None  # the city has a holder
    siege = CombatSiege(id=f"{area}-siege", area=area,
                        city=SiegedCity(id=city.name, fleches=city.fleches, capacity=5 * city.spires),
                        besieger=side(state, scenario, power, corps, [], irregulars=guerrillas), garrison=besieged,
                        refuge=refuge(state, scenario, holder, area) is not None,
                        options=battle_options(state, scenario))
    inside = [c.id for c in state.besieged_in(area)]
    ctx.say(f"{power} ({', '.join(u.id for u in (*corps, *guerrillas))}) besieges the {holder} "
            f"{'garrison' if state.garrison_in(area) is not None or state.irregulars_inside(area) else 'corps'} "
            f"of {city.name} in {title}"
            + (f" ({', '.join(inside)} inside)" if inside else ""), rule="§7.5.4",
            mark=MapMark(area=area, kind="siege", result=f"besieged by {power}"))
    begin_siege(state, area, power)
    apply_siege(ctx, state, scenario, siege, assault_attempt(ctx, siege, combat_charts(scenario)))
    lift_sieges(ctx, state, scenario)


def apply_siege(ctx: DecisionPort, state: GameState, scenario: Scenario, siege: CombatSiege,
                result: SiegeResult) -> None:
    """An assault attempt's result on the map: a sortie's factor, an assault's losses, the
    political points (§7.5.4.1.4), and a city taken — its survivors and leaders prisoners
    (§7.5.4.1.3.5) — or left with the honours of war."""
    power, held, title, city = siege.besieger.power, siege.garrison.power, scenario.areas[siege.area].title, \
        siege.city.id
    garrison = state.garrison_in(siege.area)
    if result.sortie_loss:
        unit_id, kind = result.sortie_loss.split(":")
        lost = {next(k for k, v in FACTOR_KINDS.items() if v == kind): 1}
        if (hit := state.corps_by_id(unit_id)) is not None:
            hit.factors = {k: n - lost.get(k, 0) for k, n in hit.factors.items()}
            state.powers[hit.power].factors_lost += 1
            if not hit.strength:
                remove_corps(ctx, state, hit, "in a sortie", "§7.5.5")
        elif garrison is not None:
            lose_from_garrison(garrison, lost)
            state.powers[garrison.power].factors_lost += 1
    if result.assault is not None:
        take_losses(ctx, state, siege.area, siege.besieger, result.assault.attacker)
        if not result.city_captured:  # taken, every survivor and leader inside surrenders (surrender_city)
            take_losses(ctx, state, siege.area, siege.garrison, result.assault.defender)
    state.powers[power].political += result.besieger_points
    state.powers[held].political += result.garrison_points
    if result.breach == "honours":
        went, moved, prisoners, marched = march_out(state, scenario, held, siege.area)
        ctx.say(f"{power} takes {city} in {title}: the {held} garrison marches out with the honours "
                f"of war, {moved} factors" + (f" and {', '.join(marched)}" if marched else "")
                + (f" to {scenario.areas[went].title}" if went else "")
                + (f"; {prisoners} surrender" if prisoners else ""), rule="§7.5.4.1.2.3.1",
                mark=MapMark(area=siege.area, kind="siege", result=f"taken by {power}"))
        occupy(ctx, state, scenario, siege.area, power)
    elif result.city_captured:
        surrender_city(ctx, state, scenario, siege.area, power, f"the {held} garrison surrenders",
                       "§7.5.4.1.3.5", where=f"{city} in {title}")
    else:
        ctx.say(f"the siege of {city} in {title} goes on ({result.table})", rule="§7.5.4.1.2")


def besieged_units(state: GameState, scenario: Scenario, area: str, sortie: Sortie | None) -> Side | None:
    """The forces inside the city of `area` as a combat sees them — its garrison as one unit
    with its power's morale, and the corps inside — all of them, or the part a sortie names
    (§7.5.4.2.1.1, §7.5.4.2.3: "all besieged factors do not have to be used", EIA-I144)."""
    holder, garrison, inside = state.city_holder(area), state.garrison_in(area), state.corps_inside(area)
    irregulars = state.irregulars_inside(area)  # part of the garrison (§7.3.3.3.1, EIA-I224)
    if holder is None:
        return None
    factors = dict(garrison.factors) if garrison is not None else {}
    if sortie is not None and not sortie.whole:
        named = {kind: n for n, kind in sortie.factors}
        factors = {kind: min(n, named.get(kind, 0)) for kind, n in factors.items()}
        inside = [c for c in inside if c.id.lower() in {name.lower() for name in sortie.corps}]
        irregulars = [i for i in irregulars if i.id.lower() in {name.lower() for name in sortie.corps}]
    power = scenario.powers[holder]
    kinds = {FACTOR_KINDS[kind]: n for kind, n in factors.items() if n}
    units = [Unit(id=f"{holder}{CITY_GARRISON}", power=holder, category="garrison", factors=Factors(**kinds),
                  infantry_morale=power.infantry_morale, cavalry_morale=power.cavalry_morale)] if kinds else []
    units += [unit(state, scenario, c) for c in inside] + [irregular_unit(scenario, i) for i in irregulars]
    if not units:
        return None
    return Side(player=state.holder(holder) or holder, power=holder, units=tuple(units),
                leaders=commanding(state, scenario, inside, area),
                loss_order=loss_order(state.powers[holder].loss_order))


def attack_besiegers(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, sortie: Sortie,
                     area: str) -> None:
    """§7.5.4.2.1: the power's besieged forces — the part of its garrison and corps inside the
    order names, else all of them (EIA-I104, EIA-I144) — attack all the besiegers on the 5-1
    table against their 5-2 for at most one day; won, the besiegers retreat unpursued
    (§7.5.4.2.1.5); the city falls only when every factor in it is gone (§7.5.4.2.1.4);
    otherwise the siege goes on. No political points (§7.5.4.2.2)."""
    siege, title = state.siege_in(area), scenario.areas[area].title
    besiegers = [c for c in state.corps_in(area) if siege is not None and c.power == siege.power and not c.inside]
    attacking = besieged_units(state, scenario, area, sortie)
    if siege is None or state.city_holder(area) != power or not besiegers or attacking is None:
        ctx.say(f"{power}'s besieged forces in {title} do not attack: "
                + ("none of the factors named is there" if siege is not None and besiegers else "the siege is over"),
                rule="§7.5.4.2")
        return
    combat = Combat(id=f"{area}-garrison-attack", area=area, terrain=scenario.areas[area].terrain,
                    attacker=attacking, defender=side(state, scenario, siege.power, besiegers, []),
                    options=battle_options(state, scenario))
    result = garrison_attack(ctx, combat, combat_charts(scenario))
    # a garrison that does not win goes back into its city rather than surrendering (§7.5.4.2.1.4)
    take_losses(ctx, state, area, combat.attacker, result.attacker.model_copy(update={"surrendered": ()}))
    take_losses(ctx, state, area, combat.defender, result.defender)
    moved = retreat(ctx, state, scenario, area, combat.defender, result.defender)
    winner = {"attacker": power, "defender": siege.power}.get(result.winner or "")
    ids = [u.id for u in attacking.units]
    who = f"{power}'s garrison of {title} attacks its besiegers" if ids == [f"{power}{CITY_GARRISON}"] \
        else f"{power}'s besieged {', '.join(ids)} in {title} attack their besiegers"
    ctx.say(f"{who}: " + (f"{winner} wins" if winner else "no winner") + "".join(f"; {line}" for line in moved),
            rule="§7.5.4.2.1")
    if state.city_holder(area) is None:
        surrender_city(ctx, state, scenario, area, siege.power, "its besieged forces fell attacking the besiegers",
                       "§7.5.4.2.1.4")
    lift_sieges(ctx, state, scenario)
    if winner == power and state.siege_in(area) is None:
        leave_city(ctx, state, scenario, area, "§7.5.4.2.1.5")
