"""Commanders and their ratings (§10.6.1), die modifiers (§7.5.2.9.1, option 12.3.3.1)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.forces import Force
from pbem.rules.empires_in_arms.combat.models import Leader, Options

SENIORITY = "ABCD"  # "A" is senior to "B" … (§10.6.1.1.2)
MAX_MODIFIER = 1  # "the maximum cumulative modifier can never exceed +1" (§7.5.2.9.1)


@dataclass(frozen=True)
class Command:
    strategic: int
    tactical: int
    tactical_max: int | None  # None: no tactical maximum applies
    leader: Leader | None


def choose_commander(leaders: list[Leader], corps_powers: list[str], preferred: tuple[str, ...] = ()) -> Leader | None:
    """The commander (§10.6.1.1): a leader of the power with most corps present, then the most
    senior; among equally senior ones the player's choice, the leaders `preferred` in its order
    (§10.6.1.1.2); the free choices left (equal powers, equal seniority with no preference) are
    taken by the highest tactical, then strategic rating, then id (EIA-I64)."""
    if not leaders:
        return None
    corps = Counter(corps_powers)

    def rank(leader: Leader) -> int:
        return preferred.index(leader.id) if leader.id in preferred else len(preferred)

    return min(leaders, key=lambda leader: (-corps.get(leader.power, 0), SENIORITY.index(leader.seniority),
                                            rank(leader), -leader.tactical, -leader.strategic, leader.id))


def command(force: Force, options: Options) -> Command:
    """The commander's ratings, or with no leader the best intrinsic ratings of the corps
    present (§10.6.1), acting with a tactical maximum of 1 under option 12.3.7.1; with no
    corps either, garrisons, cossacks and guerrillas rate zero."""
    if force.commander is not None:
        leader = force.commander
        return Command(leader.strategic, leader.tactical, leader.tactical_max, leader)
    corps = force.corps()
    if not corps:
        return Command(0, 0, None, None)
    return Command(max(t.unit.strategic for t in corps), max(t.unit.tactical for t in corps),
                   1 if options.corps_leaders else None, None)


def tactical_rating(ratings: Command, corps: int, options: Options) -> int:
    """The tactical rating less 1 above the tactical maximum and 2 above twice it
    (§10.6.1.2.1), or n above n times it under option 12.3.7.2; never below 0."""
    if ratings.tactical_max is None or corps <= ratings.tactical_max:
        return ratings.tactical
    times = -(-corps // ratings.tactical_max) - 1
    cut = times if options.further_reductions else min(times, 2)
    return max(0, ratings.tactical - cut)


def cavalry_superior(own: int, enemy: int, everyone_cavalry: bool) -> bool:
    """Twice the enemy's cavalry, cossacks and freikorps (option 12.3.3.1); not when every
    factor on both sides is cavalry, nor with no cavalry at all (EIA-I65)."""
    return own > 0 and own >= 2 * enemy and not everyone_cavalry


def declared(force: Force, rating: int) -> int:
    """§7.5.2.9.1.2: a player may declare his commander's rating lower than it is, never higher."""
    cap = force.side.declared_tactical
    return rating if cap is None else min(rating, cap)


def die_modifiers(charts: Charts, attacker: Force, defender: Force, options: Options, *,
                  leaders: bool = True, cavalry: bool = True) -> tuple[int, int]:
    """Each side's die modifier for a round, the net never above +1 (§7.5.2.9.1)."""
    modifiers = [0, 0]
    if leaders:
        ratings = [declared(f, tactical_rating(command(f, options), len(f.corps()), options))
                   for f in (attacker, defender)]
        modifiers = list(charts.commander_modifiers(*ratings))
    if cavalry and options.cavalry_superiority:
        fighting = [attacker.fighting(), defender.fighting()]
        counts = [attacker.cavalry(fighting[0]), defender.cavalry(fighting[1])]
        everyone = all(sum(t.total for t in troops) == counts[i] for i, troops in enumerate(fighting))
        for i in (0, 1):
            if cavalry_superior(counts[i], counts[1 - i], everyone):
                modifiers[i] += 1
    return min(modifiers[0], MAX_MODIFIER), min(modifiers[1], MAX_MODIFIER)
