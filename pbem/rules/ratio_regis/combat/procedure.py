"""The common combat procedure (§13.1), in the rulebook's order, on the decision engine.

`fight(ctx, combat)` runs one combat of any type and returns its `CombatResult`:

1. battlefield (§13.1.3, §13.1.4): the defender's terrain reduction, a supporting
   fleet's ±1 in sieges, organizers (attacker, then defender), then cards (attacker first);
2. commit units and the conscript (§13.1.5, §13.1.9), the active side first;
3. advantages and disadvantages (§13.1.2), the active side first, then the Creative leader;
4. cards played before the roll; a besieged garrison may capitulate (§13.4.5);
5. the roll, one die per committed unit (`combat`), the re-rolls (`combat-reroll`),
   the leader's +1 (§17.3.2), cards played after the roll;
6. the result and the pursuit (§13.1.6, §13.1.7): eliminations, then disband results;
7. veterans (§13.3.8, §16.1), then what the type of combat adds (`conclude`).

Decisions that have a single sensible answer are not asked (RR-C1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat import field, naval, piracy, siege, subjugation
from pbem.rules.ratio_regis.combat.battle import (DISPERSE, SIEGE_CASUALTY, Battle, Die, Fighter, ask, commander)
from pbem.rules.ratio_regis.combat.cards import (AFTER_ROLL, AMBUSH, BATTLEFIELD, BEFORE_ROLL, CARD_EFFECTS, GUARDS,
                                                 SURPRISE_ATTACK)
from pbem.rules.ratio_regis.combat.model import (ATTACKER, CONSCRIPT, CREATIVE, DEFENDER, DETERMINED, FIELD, FORCE,
                                                 FORTRESS, NAVAL, ORGANIZER, PIRACY, SIEGE, SIDES, SQUADRON,
                                                 SUBJUGATION, SUPPORT, TROOP, Combat, CombatCard, CombatResult,
                                                 Modifier, Unit, other)
from pbem.rules.ratio_regis.combat.options import option
from pbem.rules.ratio_regis.combat.table import (BEST_VALUE, MAX_CATEGORY, MIN_CATEGORY, clamp_category, modified,
                                                 score, value_worth, worth)

MIN_BATTLEFIELD, MAX_BATTLEFIELD = 2, 5
LAND_TECHNOLOGY = "land"  # re-roll every 2 in field battles and sieges, again and again (§19.3)

RULES = {NAVAL: naval.RULES, SUPPORT: naval.SUPPORT_RULES, FIELD: field.RULES, SIEGE: siege.RULES,
         SUBJUGATION: subjugation.RULES, PIRACY: piracy.RULES}


class CombatSetupError(ValueError):
    """A combat the engine cannot run (an unknown type, terrain or card effect)."""


def fight(ctx: DecisionPort, combat: Combat) -> CombatResult:
    """Run one combat (§13.1) and return what happened."""
    battle = Battle.open(combat, _rules_of(combat))
    battle.size = _battlefield(ctx, battle)
    for name in battle.order():
        _commit(ctx, battle, name)
    for name in battle.order():
        _apply_modifiers(ctx, battle, name)
    for name in battle.order():
        _creative(ctx, battle, name)
    _play_cards(ctx, battle, BEFORE_ROLL)
    if combat.type == SIEGE and siege.capitulates(ctx, battle):
        ctx.say(f"{combat.defender.power} capitulates in {combat.area} before the assault", rule="§13.4.5")
        return siege.capitulation(battle)
    _roll(ctx, battle)
    for name in SIDES:  # leaders before cards, attacker first (§13.1.4)
        _leader_plus(ctx, battle, name)
    _play_cards(ctx, battle, AFTER_ROLL)
    _decide_winner(ctx, battle)
    _pursue(ctx, battle)
    for name in battle.order():
        _veteran(ctx, battle, name)
    return _conclude(ctx, battle)


def _rules_of(combat: Combat):
    rules = RULES.get(combat.type)
    if rules is None:
        raise CombatSetupError(f"unknown combat type {combat.type!r} (known: {', '.join(RULES)})")
    for side in (combat.attacker, combat.defender):
        for card in side.cards:
            if card.effect not in CARD_EFFECTS:
                raise CombatSetupError(f"card {card.number} {card.title}: unknown effect {card.effect!r} "
                                       f"(known: {', '.join(CARD_EFFECTS)})")
    return rules


def _conclude(ctx: DecisionPort, battle: Battle) -> CombatResult:
    concluders: dict[str, Callable[[], CombatResult]] = {
        NAVAL: lambda: naval.conclude(battle), SUPPORT: lambda: naval.conclude(battle),
        FIELD: lambda: field.conclude(battle), SIEGE: lambda: siege.conclude(battle),
        SUBJUGATION: lambda: subjugation.conclude(ctx, battle), PIRACY: lambda: piracy.conclude(ctx, battle)}
    return concluders[battle.combat.type]()


# -- 1. battlefield -----------------------------------------------------------------
def _battlefield(ctx: DecisionPort, battle: Battle) -> int:
    """§13.1.3–§13.1.4, §13.3.4, §13.4.4, §17.3.2: always between 2 and 5 unless fixed at 1."""
    combat, rules = battle.combat, battle.rules
    size = combat.base_battlefield or rules.base
    if rules.fixed:
        return size
    battle.size = size
    if rules.defender_floor is not None and rules.defender_floor(combat) < size:
        size = _ask_size(ctx, battle, DEFENDER, range(rules.defender_floor(combat), size + 1), size,
                         "as defender you may reduce it", "§13.3.4")
    if rules.fleet_adjusts and combat.supported is not None:
        size = _ask_size(ctx, battle, combat.supported, _one_step(size), size,
                         "your supporting fleet lets you change it by 1", "§13.4.4")
    for name in SIDES:
        if commander(combat.side(name)) == ORGANIZER:
            size = _ask_size(ctx, battle, name, _one_step(size), size,
                             "your Organizer leader lets you change it by 1", "§17.3.2")
    for name in SIDES:
        card = _offer_card(ctx, battle, name, BATTLEFIELD, lambda c: size < MAX_BATTLEFIELD)
        if card is not None:
            size += 1  # Flanking Attack, the only battlefield card known (RR-C4)
            battle.size = size
    return size


def _one_step(size: int) -> range:
    return range(max(MIN_BATTLEFIELD, size - 1), min(MAX_BATTLEFIELD, size + 1) + 1)


def _ask_size(ctx: DecisionPort, battle: Battle, name: str, sizes: range, current: int, why: str, rule: str) -> int:
    size = ask(ctx, battle, name, kind="battlefield", default=current, rule=rule, sizes=list(sizes), current=current,
               options=[f"BF {n}" for n in sizes],
               prompt=f"{battle.combat.type.capitalize()} in {battle.combat.area}: the battlefield is {current} dice; "
                      f"{why} (BF {sizes.start}..{sizes.stop - 1})")
    battle.size = size
    return size


# -- 2. commit ------------------------------------------------------------------------
def best_first(units: Sequence[Unit]) -> list[Unit]:
    """Units from the best die to the worst, ties in the order given."""
    return sorted(units, key=lambda u: worth(u.category), reverse=True)


def _may_fight(battle: Battle, unit: Unit) -> bool:
    if unit.kind == FORTRESS:
        return not battle.combat.sortie  # a fortress never sorties (§13.3.4)
    return unit.kind in (TROOP, SQUADRON)


def _commit(ctx: DecisionPort, battle: Battle, name: str) -> None:
    """§13.1.5, §13.1.9: at most the battlefield; a conscript fills a gap if allowed."""
    f, combat, rules = battle.fighters[name], battle.combat, battle.rules
    if rules.force_die is not None:  # one die for the whole force; every troop is exposed (§13.5.4)
        f.units = [u for u in f.side.units if u.kind == TROOP]
        f.dice = [Die(FORCE, rules.force_die(combat, name))]
        return
    candidates = [u for u in f.side.units if _may_fight(battle, u)]
    if not candidates:
        return
    conscript_allowed = rules.conscript(combat, f.side) and battle.size > 1
    default_units = [u.id for u in best_first(candidates)[:battle.size]]
    default = {"units": default_units, "conscript": conscript_allowed and len(default_units) < battle.size}
    answer = default
    if len(candidates) > battle.size or (conscript_allowed and len(candidates) < battle.size):
        cost = "" if combat.mini_map else " (+1 unrest)"
        note = f" You may add a Q1 conscript{cost}." if conscript_allowed else ""
        answer = ask(ctx, battle, name, kind="commit", default=default, rule="§13.1.5",
                     units=[u.id for u in candidates], max=battle.size, conscript=conscript_allowed,
                     prompt=f"{combat.type.capitalize()} in {combat.area}, battlefield {battle.size}: which units "
                            f"fight? ({', '.join(f'{u.id} Q{u.category}' for u in candidates)}).{note}")
    by_id = {u.id: u for u in candidates}
    f.units = [by_id[i] for i in answer["units"]]
    f.dice = [Die(u.id, u.category) for u in f.units]
    if answer["conscript"]:
        f.conscript = True
        f.dice.append(Die(CONSCRIPT, MIN_CATEGORY))
        if not combat.mini_map:
            f.unrest += 1


# -- 3. advantages and disadvantages ---------------------------------------------------------
def _gain(category: int, step: int) -> tuple:
    """How much a die gains from moving one category (negative: what it loses)."""
    before, after = worth(category), worth(category + step)
    return after[0] - before[0], after[1] - before[1]


def allocate(categories: dict[str, int], modifiers: Sequence[Modifier]) -> list[str | None]:
    """The default (research §2.7): each modifier, in turn, on the die where it helps
    most or hurts least; None where no die can take it (ignored, §13.1.2)."""
    current = dict(categories)
    chosen: list[str | None] = []
    for modifier in modifiers:
        step = 1 if modifier.amount > 0 else -1
        movable = [d for d, c in current.items() if MIN_CATEGORY <= c + step <= MAX_CATEGORY]
        if not movable:
            chosen.append(None)
            continue
        die = max(movable, key=lambda d: _gain(current[d], step))  # first of the best, in dice order
        current[die] += step
        chosen.append(die)
    return chosen


def _describe(modifier: Modifier) -> str:
    return f"{modifier.amount:+d} {modifier.reason} ({modifier.rule})"


def _apply_modifiers(ctx: DecisionPort, battle: Battle, name: str) -> None:
    f = battle.fighters[name]
    modifiers = battle.rules.modifiers(battle.combat, name) + list(f.side.modifiers)
    if not modifiers or not f.dice:
        return
    categories = {d.id: d.category for d in f.dice}
    chosen = allocate(categories, modifiers)
    if len(set(categories.values())) > 1:
        chosen = ask(ctx, battle, name, kind="advantages", default=chosen, rule="§13.1.2",
                     modifiers=[_describe(m) for m in modifiers], dice=categories,
                     prompt=f"Your dice: {', '.join(f'{d} Q{c}' for d, c in categories.items())}. "
                            f"Name a die for each of: {'; '.join(_describe(m) for m in modifiers)}")
    for die_id, modifier in zip(chosen, modifiers, strict=True):
        if die_id is not None:
            die = f.die(die_id)
            die.category = clamp_category(die.category + modifier.amount)


def _creative(ctx: DecisionPort, battle: Battle, name: str) -> None:
    """§17.3.2: a Creative commander raises one die below Q4 by one category."""
    f = battle.fighters[name]
    below = {d.id: d.category for d in f.dice if d.category < MAX_CATEGORY}
    if commander(f.side) != CREATIVE or not below:
        return
    choice = allocate(below, [Modifier(1, "Creative leader", "§17.3.2")])[0]
    if len(set(below.values())) > 1:
        choice = ask(ctx, battle, name, kind="creative", default=choice, rule="§17.3.2", dice=below,
                     prompt=f"Your Creative leader raises one die by a category: {', '.join(below)} (or NONE)")
    if choice is not None:
        f.die(choice).category += 1


# -- 4. cards -------------------------------------------------------------------------------
def _offer_card(ctx: DecisionPort, battle: Battle, name: str, timing: str,
                usable: Callable[[CombatCard], bool]) -> CombatCard | None:
    """One combat card a side may play at this moment (RR-C3). Default: keep it."""
    f = battle.fighters[name]
    playable = [c for c in f.side.cards if CARD_EFFECTS[c.effect].timing == timing and c not in f.cards and usable(c)]
    if not playable:
        return None
    number = ask(ctx, battle, name, kind="combat-card", default=None, rule="§13.1.4", timing=timing,
                 cards=[c.number for c in playable], options=[f"CARD {c.number}" for c in playable] + ["PASS"],
                 prompt=f"{battle.combat.type.capitalize()} in {battle.combat.area} ({timing}): play a combat card? "
                        + "; ".join(f"CARD {c.number} {c.title}: {CARD_EFFECTS[c.effect].text}" for c in playable)
                        + "; or PASS")
    if number is None:
        return None
    card = next(c for c in playable if c.number == number)
    f.cards.append(card)
    ctx.say(f"{f.side.power} plays {card.title}", rule=CARD_EFFECTS[card.effect].rule)
    return card


def _play_cards(ctx: DecisionPort, battle: Battle, timing: str) -> None:
    for name in SIDES:
        f = battle.fighters[name]
        card = _offer_card(ctx, battle, name, timing, lambda c: _usable(battle, f, c))
        if card is None:
            continue
        if card.effect == SURPRISE_ATTACK:
            battle.enemy(name).rerolls_sixes = True
        elif card.effect == GUARDS:
            f.guards = True
        elif card.effect == AMBUSH:
            f.ambush = True
            _plus_one(f, "ambush")


def _usable(battle: Battle, f: Fighter, card: CombatCard) -> bool:
    if card.effect == GUARDS:  # "where you have factor 3 or 4 units"
        return any(u.category >= 3 for u in f.units) or any(d.category >= 3 for d in f.dice if d.id == FORCE)
    if card.effect == AMBUSH:
        return any(d.value < BEST_VALUE for d in f.dice)
    return bool(battle.enemy(f.name).dice) if card.effect == SURPRISE_ATTACK else True


# -- 5. the roll ------------------------------------------------------------------------------
def _roll(ctx: DecisionPort, battle: Battle) -> None:
    """§13.1.6: the active side rolls first, dice in the order committed; then the
    re-rolls: Surprise Attack's 6s once, then Land Technology's 2s until none is left."""
    for name in battle.order():
        for die in battle.fighters[name].dice:
            _set(die, ctx.roll("combat", rule="§13.1.6"))
    for name in battle.order():
        f = battle.fighters[name]
        if f.rerolls_sixes:
            for die in f.dice:
                if die.value == BEST_VALUE:
                    _set(die, ctx.roll("combat-reroll", rule="Surprise Attack (RR-C5)"))
        if LAND_TECHNOLOGY in f.side.technologies and battle.combat.type in (FIELD, SIEGE):
            for die in f.dice:
                while die.value == 2:
                    _set(die, ctx.roll("combat-reroll", rule="Land Technology (§19.3)"))
    ctx.say("; ".join(f"{battle.fighters[n].side.power} "
                      + ", ".join(f"{d.id} Q{d.category} {d.raws[-1]}->{d.value}" for d in battle.fighters[n].dice)
                      for n in battle.order()), rule="§13.1.6")


def _set(die: Die, raw: int) -> None:
    die.raws.append(raw)
    die.value = modified(die.category, raw)


def best_plus_one(values: dict[str, int]) -> str | None:
    """The default +1: the die where it gains most (BP first, then a casualty); None
    where no die gains."""
    def gain(die_id: str) -> tuple[int, int]:
        before, after = value_worth(values[die_id]), value_worth(values[die_id] + 1)
        return after[0] - before[0], after[1] - before[1]
    candidates = [d for d, v in values.items() if v < BEST_VALUE]
    best = max(candidates, key=gain, default=None)
    return best if best is not None and gain(best) > (0, 0) else None


def _plus_one(f: Fighter, source: str) -> None:
    """A +1 that the rules give without a choice worth asking (Ambush, RR-C6)."""
    choice = best_plus_one({d.id: d.value for d in f.dice})
    if choice is not None:
        die = f.die(choice)
        die.value += 1
        die.plus.append(source)


def _leader_plus(ctx: DecisionPort, battle: Battle, name: str) -> None:
    """§17.3.2: Tactical (field, siege), Admiral (naval, piracy), Determined
    (subjugation; two Determined commanders cancel out) add +1 to one die below 6."""
    f, ability = battle.fighters[name], battle.rules.plus_ability
    if commander(f.side) != ability or (ability == DETERMINED and commander(battle.enemy(name).side) == DETERMINED):
        return
    values = {d.id: d.value for d in f.dice if d.value < BEST_VALUE}
    if not values:
        return
    choice = best_plus_one(values)
    if len(set(values.values())) > 1 or choice is None:
        choice = ask(ctx, battle, name, kind="leader-plus", default=choice, rule="§17.3.2", dice=values,
                     prompt=f"Your {ability.capitalize()} leader may add 1 to one die: "
                            f"{', '.join(f'{d}={v}' for d, v in values.items())} (or NONE)")
    if choice is not None:
        die = f.die(choice)
        die.value += 1
        die.plus.append(ability)


# -- 6. result and pursuit ----------------------------------------------------------------------
def _decide_winner(ctx: DecisionPort, battle: Battle) -> None:
    for f in battle.fighters.values():
        scores = [score(d.value) for d in f.dice]
        f.battle_points = sum(s.battle_points for s in scores)
        f.casualties = sum(1 for s in scores if s.casualty)
    a, d = battle.fighters[ATTACKER], battle.fighters[DEFENDER]
    battle.winner = None if a.battle_points == d.battle_points else (
        ATTACKER if a.battle_points > d.battle_points else DEFENDER)
    outcome = "a draw" if battle.winner is None else f"won by {battle.fighters[battle.winner].side.power}"
    ctx.say(f"{a.side.power} {a.battle_points} BP {a.casualties} C, {d.side.power} {d.battle_points} BP "
            f"{d.casualties} C: {outcome}", rule="§13.1.6")


def lowest_first(units: Sequence[Unit]) -> list[Unit]:
    """The default order of losses: lowest quality first, ties in the order given."""
    return sorted(units, key=lambda u: worth(u.category))


def _pursue(ctx: DecisionPort, battle: Battle) -> None:
    """§13.1.7: 2 C eliminate a unit; D = the BP difference for the loser plus 1 for
    an odd C; the type converts D into losses; the winner keeps its last unit."""
    if battle.rules.no_pursuit(battle.combat):
        return
    for name in battle.order():
        f, enemy = battle.fighters[name], battle.enemy(name)
        lost = battle.winner == other(name)
        f.disband_results = (enemy.battle_points - f.battle_points if lost else 0) + enemy.casualties % 2
        if f.guards:
            f.disband_results = 0  # Guards: ignore every disband result against you (RR-C7)
            losses = 0
        else:
            losses = battle.rules.losses_from(battle.combat, name, f.disband_results, lost, bool(f.side.leaders))
        _take_losses(ctx, battle, name, enemy.casualties // 2, losses)


def _take_losses(ctx: DecisionPort, battle: Battle, name: str, eliminations: int, losses: int) -> None:
    f, combat = battle.fighters[name], battle.combat
    kind = battle.rules.loss_kind(combat, name)
    if kind == SIEGE_CASUALTY:
        battle.siege_added = losses
        losses = 0
    exposed = [u for u in f.units if u.may_be_casualty]
    may_eliminate = [u for u in exposed if u.kind != FORTRESS or battle.rules.fortress_eliminable]
    may_disperse = [u for u in exposed if u.kind != FORTRESS]
    cap = max(0, len(f.units) - 1) if battle.winner == name else len(f.units)  # the winner keeps its last unit
    eliminations = min(eliminations, len(may_eliminate), cap)
    troops_hit = min(eliminations, len([u for u in may_eliminate if u.kind != FORTRESS]))
    losses = max(0, min(losses, len(may_disperse) - troops_hit, cap - eliminations))
    if eliminations + losses == 0:
        return
    ordered = lowest_first(may_eliminate)
    elim_default = [u.id for u in ordered if u.kind != FORTRESS][:eliminations]
    elim_default += [u.id for u in ordered if u.kind == FORTRESS][:eliminations - len(elim_default)]
    disp_default = [u.id for u in lowest_first(may_disperse) if u.id not in elim_default][:losses]
    answer = {"eliminate": elim_default, "disperse": disp_default}
    pool = {u.id for u in may_eliminate} | {u.id for u in may_disperse}
    if len(pool) > eliminations + losses or (eliminations and losses):
        verb = "damage" if kind != DISPERSE else "disperse"
        answer = ask(ctx, battle, name, kind="losses", default=answer, rule="§13.1.7",
                     eliminate=eliminations, disperse=losses, may_eliminate=[u.id for u in may_eliminate],
                     may_disperse=[u.id for u in may_disperse],
                     fortresses=[u.id for u in may_eliminate if u.kind == FORTRESS],
                     prompt=f"{combat.type.capitalize()} in {combat.area}: eliminate {eliminations} and {verb} "
                            f"{losses} of {', '.join(f'{u.id} Q{u.category}' for u in f.units)}")
    f.eliminated += answer["eliminate"]
    f.dispersed += answer["disperse"]


# -- 7. veterans -------------------------------------------------------------------------------
def _veteran(ctx: DecisionPort, battle: Battle, name: str) -> None:
    """§13.3.8, §16.1: a side that eliminated an enemy unit (RR-C10: or troop) may flip
    one troop that fought; Ambush gives the same to its winner (RR-C6). Default: the
    troop that gains most."""
    f, enemy = battle.fighters[name], battle.enemy(name)
    needs_troop = option(battle.combat.options, "veteran_needs") == "troop"
    kills = [u for u in enemy.units if u.id in enemy.eliminated and (u.kind == TROOP or not needs_troop)]
    earned = (battle.rules.veterans and kills) or (f.ambush and battle.winner == name)
    candidates = {u.id: u.category for u in f.units
                  if u.kind == TROOP and not u.veteran and u.category < MAX_CATEGORY and u.id not in f.removed()}
    if not earned or not candidates:
        return
    choice = allocate(candidates, [Modifier(1, "veteran", "§16.1")])[0]
    if len(set(candidates.values())) > 1:
        choice = ask(ctx, battle, name, kind="veteran", default=choice, rule="§13.3.8", troops=list(candidates),
                     prompt=f"Make one troop that fought veteran: {', '.join(candidates)} (or NONE)")
    f.veteran = choice
