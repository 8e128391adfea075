"""Running a combat in a real StepContext: forced dice, answers given as order lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbem.core.engine import Answer, Request, StepContext, run_step
from pbem.rules.ratio_regis.combat import Combat, CombatResult, Leader, Side, Unit, fight
from pbem.rules.ratio_regis.combat.answers import parse_answer


@dataclass
class Run:
    result: CombatResult
    asked: list[Request]
    chronicle: list[str]

    def kinds(self) -> list[tuple[str, str]]:
        return [(r.kind, r.power) for r in self.asked]


def context(answers: Mapping[str, object], dice: Mapping[str, list[int]]) -> StepContext:
    return StepContext(campaign="c", step="s", secret=bytes(32),
                       answers={k: Answer(v, "test") for k, v in answers.items()}, policies=[],
                       answer_policy=lambda p, r: None, forced=dice, scenario=None, seats={})


def run(combat: Combat | Callable, dice: Mapping[str, list[int]] | None = None,
        lines: Mapping[tuple[str, str] | str, str] | None = None) -> Run:
    """Run `fight(combat)` (or `combat(ctx)`) until done. Each request is answered by the
    line given for its (kind, power), or for its kind, read through the parser; else by
    its default. Every forced die must be used."""
    dice, lines = dice or {"combat": []}, lines or {}
    procedure = combat if callable(combat) else (lambda ctx: fight(ctx, combat))
    recorded: dict[str, object] = {}
    asked: list[Request] = []
    while True:
        ctx = context(recorded, dice)
        box = {}
        step = run_step(lambda c, _: box.setdefault("result", procedure(c)), None, ctx)
        if step.completed:
            assert not step.forced_left, f"forced dice left over: {step.forced_left}"
            return Run(box["result"], asked, [e.text for e in step.chronicle])
        for request in step.pending:
            asked.append(request)
            line = lines.get((request.kind, request.power), lines.get(request.kind))
            recorded[request.key] = request.default if line is None else parse_answer(request.kind, line)


def troops(*spec: str, **flags) -> tuple[Unit, ...]:
    """Units from 'T1:3' strings (id:category); 'V' suffix marks a veteran."""
    out = []
    for item in spec:
        uid, cat = item.split(":")
        out.append(Unit(uid, flags.get("kind", "troop"), int(cat.rstrip("V")), veteran=cat.endswith("V")))
    return tuple(out)


def squadrons(*spec: str) -> tuple[Unit, ...]:
    return troops(*spec, kind="squadron")


def side(power: str, units=(), leaders=(), **kw) -> Side:
    return Side(power=power, player=f"p-{power.lower()}", units=tuple(units), leaders=tuple(leaders), **kw)


def leader(ability: str = "", lid: str = "L") -> Leader:
    return Leader(lid, ability, extraordinary=bool(ability))
