"""Naval support of a coastal combat (§11.4.2; the naval prelude of §30.4).

Before a field battle, siege assault or subjugation in a coastal area, fleets in an
adjacent sea may announce support for a side (the caller checks who may: at war with
the side opposed, §11.4.2). If only one side is supported, it has the support; if both
are, the supported power of each side picks which supporter fights (when more than
one) and a naval combat with battlefield 3 decides: its winner's side has the support,
a draw gives it to nobody. The result goes into the coastal combat as
`Combat.supported` (`with_support`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat.battle import Battle, ask
from pbem.rules.ratio_regis.combat.model import ATTACKER, SIDES, SUPPORT, Combat, CombatResult, Side
from pbem.rules.ratio_regis.combat.naval import RULES as SUPPORT_NAVAL
from pbem.rules.ratio_regis.combat.procedure import fight
from pbem.rules.ratio_regis.combat.table import worth


@dataclass(frozen=True)
class Supporter:
    """A fleet announced in support of `side` of the coastal combat; once announced it
    cannot withdraw (§11.4.2)."""

    side: str
    fleet: Side


@dataclass(frozen=True)
class SupportResult:
    supported: str | None
    naval: CombatResult | None = None
    fighting: tuple[str, ...] = ()  # the powers whose fleets fought, attacker's first
    combat: Combat | None = None  # the naval combat fought, for the caller to apply its result


def strongest(supporters: list[Supporter]) -> Supporter:
    """The default pick: the fleet with the best three dice, the first listed on a tie."""
    def strength(s: Supporter) -> list:
        return sorted((worth(u.category) for u in s.fleet.units), reverse=True)[:3]
    return max(supporters, key=strength)


def _pick(ctx: DecisionPort, coastal: Combat, name: str, supporters: list[Supporter]) -> Supporter:
    if len(supporters) == 1:
        return supporters[0]
    default = strongest(supporters)
    chooser = Battle.open(coastal, SUPPORT_NAVAL)
    power = ask(ctx, chooser, name, kind="supporter", default=default.fleet.power, rule="§11.4.2",
                powers=[s.fleet.power for s in supporters],
                options=[f"SUPPORTER {s.fleet.power}" for s in supporters],
                prompt=f"Several fleets support you in {coastal.area}: which one fights? "
                       f"{', '.join(s.fleet.power for s in supporters)}")
    return next(s for s in supporters if s.fleet.power == power)


def contest(ctx: DecisionPort, coastal: Combat, supporters: tuple[Supporter, ...], *, sea: str,
            commercial_port: bool = False) -> SupportResult:
    """§11.4.2: which side of `coastal` has naval support, fighting for it if needed."""
    by_side = {name: [s for s in supporters if s.side == name] for name in SIDES}
    sides_with = [name for name in SIDES if by_side[name]]
    if len(sides_with) < 2:
        return SupportResult(sides_with[0] if sides_with else None)
    first, second = coastal.active, next(n for n in SIDES if n != coastal.active)
    fleets = {name: _pick(ctx, coastal, name, by_side[name]).fleet for name in (first, second)}
    combat = Combat(id=f"{coastal.id}-support", type=SUPPORT, area=sea, attacker=fleets[first],
                    defender=fleets[second], commercial_port=commercial_port, options=coastal.options)
    naval = fight(ctx, combat)
    supported = None
    if naval.winner is not None:
        supported = first if naval.winner == ATTACKER else second
    return SupportResult(supported, naval, (fleets[first].power, fleets[second].power), combat)


def with_support(coastal: Combat, result: SupportResult) -> Combat:
    return replace(coastal, supported=result.supported)
