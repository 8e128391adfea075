"""Taking losses (§7.5.2.9.2): the owner chooses, within the rules' limits. A player's choice
is his side's standing loss order (`Side.loss_order`, the kinds to lose first); within a kind
the unit whose factors of that kind have the lowest morale goes first, then the largest, then
by id (EIA-I66). With option 12.3.6 a side of several nationalities first shares its losses
out among them in proportion to their starting factors (EIA-I200)."""

from __future__ import annotations

from collections.abc import Iterable

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


def shares(troops: list[Troop], count: int) -> list[tuple[list[Troop], int]]:
    """12.3.6 (and 12.2.5's example, 36/20/12 losing 10: 5, 3, 2): `count` losses shared out
    among the nationalities present in proportion to their factors at the start of the battle,
    "as nearly proportional ... as possible". Each gets the whole part of its share; the odd
    losses left go one each to the largest remainders, then the larger contingent, then the one
    listed first (EIA-I200: no agreement is asked and no competitive die rolled). One
    nationality alone takes them all."""
    powers = list(dict.fromkeys(t.unit.power for t in troops))
    groups = [[t for t in troops if t.unit.power == power] for power in powers]
    starts = [sum(t.start for t in group) for group in groups]
    total = sum(starts)
    if len(groups) < 2 or not total:
        return [(troops, count)]
    whole = [count * start // total for start in starts]
    odd = sorted(range(len(groups)), key=lambda i: (-(count * starts[i] % total), -starts[i], i))
    for i in odd[:count - sum(whole)]:
        whole[i] += 1
    return list(zip(groups, whole, strict=True))


def take_losses(troops: list[Troop], count: int, order: Iterable[str], charts: Charts, *,
                militia: bool = True, cavalry_first: bool = False, proportional: bool = False) -> int:
    """Remove `count` factors from `troops`: militia only while `militia` allows, "where
    possible" (§7.5.2.9.2.1); one cavalry factor first in the round a side breaks, "if
    possible" (§7.5.2.9.2.2). With `proportional` (option 12.3.6) each nationality takes its
    share, within the same limits for the whole force (EIA-I200). Returns the losses that
    found no factor to take."""
    order = tuple(order)
    if proportional:
        parts = shares(troops, count)
        if len(parts) > 1:
            if cavalry_first and count > 0:
                found = _next_loss([t for group, n in parts if n for t in group],
                                   [k for k in order if k in CAVALRY_KINDS], charts)
                if found:
                    found[0].lose(found[1], 1)
                    parts = [(g, n - any(t is found[0] for t in g)) for g, n in parts]
            left = sum(take_losses(group, n, order, charts, militia=militia) for group, n in parts)
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


def take_pursuit_losses(troops: list[Troop], points: int, order: Iterable[str], charts: Charts, *,
                        proportional: bool = False) -> None:
    """Pursuit losses (§7.5.2.10.2.3): each point is a cavalry factor, or three non-militia
    or six militia factors, the pool chosen by the owner's loss order; a last point that finds
    fewer factors in its pool than it costs takes what is left (EIA-I67, research §4.12
    item 12). With `proportional` (option 12.3.6) the points are shared out among the
    nationalities as a round's losses are (EIA-I200)."""
    order = tuple(order)
    if proportional and len(parts := shares(troops, points)) > 1:
        for group, share in parts:
            take_pursuit_losses(group, share, order, charts)
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
