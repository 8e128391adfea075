"""A scripted `DecisionPort` for the Empires in Arms combat tests: dice forced by purpose,
answers scripted by kind and side (else the request's default), everything recorded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.core.engine import ALL, KeyedRequests, MapMark, Request
from pbem.rules.empires_in_arms.combat.models import Battle, Factors, Leader, Side, Unit


class Scripted(KeyedRequests):
    """`dice` maps a die's purpose (or its tail after the battle id) to the value or the
    values it gives in turn; a die nobody scripted fails the test. `answers` maps
    (kind, side) to the answer or answers in turn."""

    def __init__(self, dice: Mapping[str, int | Sequence[int]] | None = None,
                 answers: Mapping[tuple[str, str], Any] | None = None, draws: Sequence[int] = ()):
        self.step = "land-combat"
        self.scenario = None
        self.seats = {}
        self._counters: dict[str, int] = {}
        self.dice = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in (dice or {}).items()}
        self.answers = {k: list(v) if isinstance(v, list) else [v] for k, v in (answers or {}).items()}
        self.draws = list(draws)
        self.rolled: list[tuple[str, int, str]] = []
        self.asked: list[Request] = []
        self.batches: list[list[Request]] = []
        self.said: list[str] = []
        self.heard_by: set[tuple[str, ...]] = set()

    @property
    def interrupts(self) -> int:
        return len(self.rolled) + len(self.asked)

    def decide(self, request: Request) -> Any:
        return self.decide_all([request])[0]

    def decide_all(self, requests: Sequence[Request]) -> list[Any]:
        self.batches.append(list(requests))
        self.asked.extend(requests)
        return [self._answer(r) for r in requests]

    def _answer(self, request: Request) -> Any:
        queue = self.answers.get((request.kind, request.context.get("side")))
        if not queue:
            return request.default
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def roll(self, purpose: str, *, sides: int = 6, rule: str = "") -> int:
        tail = purpose.split("/", 1)[1]
        key = purpose if purpose in self.dice else tail
        if key not in self.dice or not self.dice[key]:
            raise AssertionError(f"unscripted die {purpose} ({rule})")
        queue = self.dice[key]
        value = queue.pop(0) if len(queue) > 1 else queue[0]
        self.rolled.append((purpose, value, rule))
        return value

    def draw_index(self, purpose: str, bound: int, *, rule: str = "") -> int:
        return self.draws.pop(0)

    def shuffle(self, purpose: str, items: Sequence, *, rule: str = "") -> list:
        return list(items)

    def say(self, text: str, *, to: Iterable[str] = (ALL,), rule: str = "", with_rolls: bool = True,
            mark: MapMark | None = None) -> None:
        self.said.append(text)
        self.heard_by.add(tuple(to))


def corps(id: str, power: str = "FR", inf: str = "3.0", cav: str = "3.0", sr: int = 3, tr: int = 2,
          category: str = "corps", artillery_corps: bool = False, cavalry_symbol: bool = False, **factors: int) -> Unit:
    return Unit(id=id, power=power, category=category, factors=Factors(**factors), infantry_morale=inf,
                cavalry_morale=cav, strategic=sr, tactical=tr, artillery_corps=artillery_corps,
                cavalry_symbol=cavalry_symbol)


def leader(id: str, power: str = "FR", sr: int = 3, tr: int = 2, tmax: int = 4, **more: Any) -> Leader:
    return Leader(id=id, power=power, strategic=sr, tactical=tr, tactical_max=tmax, **more)


def side(player: str, power: str, units: Iterable[Unit], leaders: Iterable[Leader] = (), **more: Any) -> Side:
    return Side(player=player, power=power, units=tuple(units), leaders=tuple(leaders), **more)


def battle(attacker: Side, defender: Side, **more: Any) -> Battle:
    return Battle(id="b1", area="Plain", attacker=attacker, defender=defender, **more)
