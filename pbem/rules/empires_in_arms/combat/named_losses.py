"""The owner names the factors a battle costs him (§7.5.2.9.2: losses are taken "in any
fashion" the owner wishes, within its limits; a sortie's loss is the defending or the
besieging player's choice, §7.5.4.1.2.1). With option `chosen_losses` each taking of losses —
a round's, a pursuit's, a sortie's — is a `casualties` request to the owner whose default is
what his standing loss order would take (EIA-I66, EIA-I130), so a player who answers nothing
loses as before (EIA-I300). Not asked where there is no choice, nor of a side of several
nationalities sharing its losses by option 12.3.6 (each contingent keeps its own order).

An answer is the factors by unit and kind: `CASUALTIES fr-1 2 infantry, fr-2 1 cavalry`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.combat.casualties import PURSUIT_COST, take_losses, take_pursuit_losses
from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.forces import Troop
from pbem.rules.empires_in_arms.combat.models import CAVALRY_KINDS, FACTOR_KINDS

KIND = "casualties"
KEYWORD = "CASUALTIES"
ROUND, PURSUIT, SORTIE = "round", "pursuit", "sortie"


@dataclass(frozen=True)
class Loss:
    unit: str
    count: int
    kind: str


def form(losses: Iterable[Loss]) -> str:
    """The answer's text: `fr-1 2 infantry, fr-2 1 cavalry` (`NONE` for no loss)."""
    return ", ".join(f"{loss.unit} {loss.count} {loss.kind}" for loss in losses) or "NONE"


def parse(text: str) -> tuple[Loss, ...]:
    """The losses of an answer's text (without its keyword); `ValueError` says what is wrong."""
    if text.strip().upper() == "NONE":
        return ()
    losses = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 3 or not words[1].isdigit() or words[2].lower() not in FACTOR_KINDS:
            raise ValueError(f"{part.strip()!r}: name each loss as <unit> <n> <kind> (kinds: "
                             f"{', '.join(FACTOR_KINDS)}), e.g. CASUALTIES fr-1 2 infantry, fr-2 1 cavalry")
        losses.append(Loss(words[0], int(words[1]), words[2].lower()))
    return tuple(losses)


def _pool(kind: str) -> str:
    return "cavalry" if kind in CAVALRY_KINDS else "militia" if kind == "militia" else "other"


def _points(factors: Mapping[str, int]) -> int:
    """The pursuit points these factors pay: a cavalry factor 1, three others or six militia
    1, a last part of a pool 1 (§7.5.2.10.2.3, EIA-I67)."""
    by_pool: dict[str, int] = {}
    for kind, count in factors.items():
        by_pool[_pool(kind)] = by_pool.get(_pool(kind), 0) + count
    return sum(-(-count // PURSUIT_COST[pool]) for pool, count in by_pool.items())


def check(losses: Sequence[Loss], context: Mapping[str, Any]) -> str:
    """Why `losses` are not losses the owner may name (the request's context), or ""."""
    units: Mapping[str, Mapping[str, int]] = context["units"]
    named: dict[tuple[str, str], int] = {}
    for loss in losses:
        if loss.unit not in units:
            return f"{loss.unit} is not one of your units in this battle ({', '.join(units)})"
        named[loss.unit, loss.kind] = named.get((loss.unit, loss.kind), 0) + loss.count
    for (unit, kind), count in named.items():
        if count > units[unit].get(kind, 0):
            return f"{unit} has {units[unit].get(kind, 0)} {kind} factors, not {count}"
    kinds: dict[str, int] = {}
    for (_, kind), count in named.items():
        kinds[kind] = kinds.get(kind, 0) + count
    present: dict[str, int] = {}
    for factors in units.values():
        for kind, count in factors.items():
            present[kind] = present.get(kind, 0) + count
    due = context["count"]
    if context["pool"] == PURSUIT:
        owed = min(due, _points(present))
        for pool, cost in PURSUIT_COST.items():
            took = sum(n for kind, n in kinds.items() if _pool(kind) == pool)
            left = sum(n for kind, n in present.items() if _pool(kind) == pool) - took
            if took % cost and left:
                return f"{pool} factors go {cost} to a pursuit loss point (§7.5.2.10.2.3)"
        return "" if _points(kinds) == owed else \
            f"name factors worth {owed} pursuit loss points (1 cavalry, 3 others or 6 militia each), not {_points(kinds)}"
    owed = min(due, sum(present.values()))
    if sum(kinds.values()) != owed:
        return f"name {owed} factors lost, not {sum(kinds.values())}"
    if not context["militia"]:
        spare = sum(n for kind, n in present.items() if kind != "militia")
        if kinds.get("militia", 0) > max(0, owed - spare):
            return "militia are lost only when no other factor is left, the morale loss being 2.0 or more (§7.5.2.9.2.1)"
    if context["cavalry_first"] and owed and any(present.get(k, 0) for k in CAVALRY_KINDS) \
            and not any(kinds.get(k, 0) for k in CAVALRY_KINDS):
        return "a side breaking this round loses a cavalry factor among its losses (§7.5.2.9.2.2)"
    return ""


def _copies(troops: Sequence[Troop]) -> list[Troop]:
    return [replace(t, factors=dict(t.factors), lost=dict(t.lost)) for t in troops]


def _taken(before: Sequence[Troop], after: Sequence[Troop]) -> tuple[Loss, ...]:
    return tuple(Loss(a.id, a.lost[kind] - b.lost[kind], kind) for b, a in zip(before, after, strict=True)
                 for kind in FACTOR_KINDS if a.lost[kind] > b.lost[kind])


def request(port: DecisionPort, *, player: str, power: str, purpose: str, facts: Mapping[str, Any],
            troops: Sequence[Troop], count: int, pool: str, order: Sequence[str], charts: Charts,
            militia: bool = True, cavalry_first: bool = False) -> Request | None:
    """The request naming `count` losses (pursuit points for a pursuit) of `troops`, its default
    what `order` would take; None when the units leave no choice."""
    holders = [(t.id, kind) for t in troops for kind in FACTOR_KINDS if t.factors[kind]]
    if count <= 0 or len(holders) < 2:
        return None
    copies = _copies(troops)
    if pool == PURSUIT:
        take_pursuit_losses(copies, count, order, charts)
    else:
        take_losses(copies, count, order, charts, militia=militia, cavalry_first=cavalry_first)
    default = form(_taken(troops, copies))
    units = {t.id: {kind: n for kind, n in t.factors.items() if n} for t in troops if t.total}
    what = {ROUND: f"{count} factors lost this round", PURSUIT: f"{count} pursuit loss points",
            SORTIE: "the factor a sortie costs"}[pool]
    return port.request(kind=KIND, player=player, power=power, prompt=f"Name your losses: {what}; default {default}",
                        default=default, purpose=purpose, rule="§7.5.2.9.2",
                        context={**facts, "pool": pool, "count": count, "units": units, "militia": militia,
                                 "cavalry_first": cavalry_first})


def apply(troops: Sequence[Troop], answer: str) -> int:
    """Take the losses an answer names from `troops`; returns how many factors went."""
    by_id = {t.id: t for t in troops}
    losses = parse(answer)
    for loss in losses:
        by_id[loss.unit].lose(loss.kind, loss.count)
    return sum(loss.count for loss in losses)
