"""Taking losses (§7.5.2.9.2): the owner chooses, within the rules' limits. A player's choice
is his side's standing loss order (`Side.loss_order`, the kinds to lose first); within a kind
the unit whose factors of that kind have the lowest morale goes first, then the largest, then
by id (EIA-I66). With option 12.3.6 a side of several nationalities first shares its losses
out among them in proportion to their starting factors, the odd losses by competitive die rolls,
and each contingent loses the types its own player's loss order names (EIA-I200, EIA-I244)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.forces import Troop
from pbem.rules.empires_in_arms.combat.models import CAVALRY_KINDS

#: "1 cavalry = 3 infantry = 6 militia" for pursuit losses (§7.5.2.10.2.3): what one point
#: costs in each pool of kinds.
PURSUIT_COST = {"cavalry": 1, "militia": 6, "other": 3}


def _pool(kind: str) -> str:
    return "cavalry" if kind in CAVALRY_KINDS else "militia" if kind == "militia" else "other"


def _next_loss(troops: Iterable[Troop], kinds: Iterable[str], charts: Charts) -> tuple[Troop, str] | None:
    for kind in kinds:
        holders = [t for t in troops if t.factors[kind] > 0]
        if holders:
            return min(holders, key=lambda t: (t.morale(kind, charts), -t.factors[kind], t.id)), kind
    return None


@dataclass(frozen=True)
class Contingents:
    """Option 12.3.6 in one taking of losses: a competitive die for a nationality, keyed by
    what it decides (`roll(what, power)`), and each nationality's own loss order (its player's
    standing `LOSSES`, EIA-I244), the side's where it has none."""

    roll: Callable[[str, str], int]
    orders: Mapping[str, tuple[str, ...]]


def compete(contingents: Contingents, what: str, powers: list[str], *, low: bool = True) -> str:
    """Competitive die rolls (12.2.5, 12.3.6: "if agreement cannot be reached"): each of
    `powers` rolls a die; the lowest roller (or, not `low`, the highest) is the one the contest
    picks, the tied ones rolling again (EIA-I244)."""
    again = 0
    while len(powers) > 1:
        rolls = {power: contingents.roll(f"{what}/{again}" if again else what, power) for power in powers}
        pick = min(rolls.values()) if low else max(rolls.values())
        powers = [power for power in powers if rolls[power] == pick]
        again += 1
    return powers[0]


def shares(troops: list[Troop], count: int, contingents: Contingents,
           what: str = "odd-loss") -> list[tuple[list[Troop], int]]:
    """12.3.6 (and 12.2.5's example, 36/20/12 losing 10: 5.29, 2.94, 1.76 — 5, 3, 2): `count`
    losses shared out among the nationalities present in proportion to their factors at the
    start of the battle, "as nearly proportional ... as possible. Round ".5" and above up."
    Where the rounded shares do not add up to `count`, each odd loss is "assigned … by
    competitive die rolls" (EIA-I244): a loss missing goes to the low roller among the
    contingents rounded down, a loss too many is spared the high roller among those rounded
    up, each contingent in one contest at most while others are left (then all of them). One
    nationality alone takes them all."""
    powers = list(dict.fromkeys(t.unit.power for t in troops))
    groups = [[t for t in troops if t.unit.power == power] for power in powers]
    starts = [sum(t.start for t in group) for group in groups]
    total = sum(starts)
    if len(groups) < 2 or not total:
        return [(troops, count)]
    rounded = [(2 * count * start + total) // (2 * total) for start in starts]
    odd = count - sum(rounded)
    step = 1 if odd > 0 else -1
    # the contingents a missing loss may fall on (rounded down) or an extra one be taken from (rounded up)
    open_ = [i for i in range(len(groups)) if step * (count * starts[i] - rounded[i] * total) > 0]
    for n in range(abs(odd)):
        candidates = [i for i in open_ if rounded[i] + step >= 0] or \
            [i for i in range(len(groups)) if rounded[i] + step >= 0]
        chosen = powers.index(compete(contingents, f"{what}{n + 1}", [powers[i] for i in candidates], low=step > 0))
        rounded[chosen] += step
        open_ = [i for i in open_ if i != chosen]
    return list(zip(groups, rounded, strict=True))


def take_losses(troops: list[Troop], count: int, order: Iterable[str], charts: Charts, *,
                militia: bool = True, cavalry_first: bool = False, proportional: Contingents | None = None) -> int:
    """Remove `count` factors from `troops`: militia only while `militia` allows, "where
    possible" (§7.5.2.9.2.1); one cavalry factor first in the round a side breaks, "if
    possible" (§7.5.2.9.2.2). With `proportional` (option 12.3.6) each nationality takes its
    share of the types its own loss order names, within the same limits for the whole force;
    the breaking side's cavalry factor comes from a contingent with a share and cavalry, the
    loser of a contest when there are several, and counts against its share (EIA-I200,
    EIA-I244). Returns the losses that found no factor to take."""
    order = tuple(order)
    if proportional is not None:
        parts = shares(troops, count, proportional)
        if len(parts) > 1:
            if cavalry_first and count > 0:
                parts = _cavalry_from_one(parts, order, charts, proportional)
            left = sum(take_losses(group, n, proportional.orders.get(group[0].unit.power, order), charts,
                                   militia=militia) for group, n in parts)
            return take_losses(troops, left, order, charts, militia=militia)
    if cavalry_first and count > 0:
        found = _next_loss(troops, [k for k in order if k in CAVALRY_KINDS], charts)
        if found:
            found[0].lose(found[1], 1)
            count -= 1
    preferred = tuple(k for k in order if militia or k != "militia")
    while count > 0:
        found = _next_loss(troops, preferred, charts) or _next_loss(troops, order, charts)
        if found is None:
            return count
        found[0].lose(found[1], 1)
        count -= 1
    return 0


def _cavalry_from_one(parts: list[tuple[list[Troop], int]], order: tuple[str, ...], charts: Charts,
                      contingents: Contingents) -> list[tuple[list[Troop], int]]:
    """§7.5.2.9.2.2's one cavalry factor of a breaking side, from one contingent with a share
    and cavalry — by a contest when several have both (12.3.6) — in its own loss order; it
    counts against that contingent's share."""
    able = [(group, n) for group, n in parts if n and any(t.cavalry for t in group)]
    if not able:
        return parts
    power = compete(contingents, "cavalry", [group[0].unit.power for group, _ in able]) if len(able) > 1 \
        else able[0][0][0].unit.power
    group = next(g for g, _ in able if g[0].unit.power == power)
    own = contingents.orders.get(power, order)
    found = _next_loss(group, [k for k in own if k in CAVALRY_KINDS], charts)
    assert found is not None  # the group has cavalry
    found[0].lose(found[1], 1)
    return [(g, n - (g is group)) for g, n in parts]


def take_pursuit_losses(troops: list[Troop], points: int, order: Iterable[str], charts: Charts, *,
                        proportional: Contingents | None = None) -> None:
    """Pursuit losses (§7.5.2.10.2.3): each point is a cavalry factor, or three non-militia
    or six militia factors, the pool chosen by the owner's loss order; a last point that finds
    fewer factors in its pool than it costs takes what is left (EIA-I67, research §4.12
    item 12). With `proportional` (option 12.3.6) the points are shared out among the
    nationalities as a round's losses are, each taking its own in its own loss order (EIA-I200,
    EIA-I244)."""
    order = tuple(order)
    if proportional is not None and len(parts := shares(troops, points, proportional, "pursuit-odd-loss")) > 1:
        for group, share in parts:
            take_pursuit_losses(group, share, proportional.orders.get(group[0].unit.power, order), charts)
        return
    while points > 0:
        first = _next_loss(troops, order, charts)
        if first is None:
            return
        pool = _pool(first[1])
        kinds = [kind for kind in order if _pool(kind) == pool]
        for _ in range(PURSUIT_COST[pool]):
            found = _next_loss(troops, kinds, charts)
            if found is None:
                break
            found[0].lose(found[1], 1)
        points -= 1
