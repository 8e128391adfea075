"""The decision port (DESIGN §4): everything rules code may call while it runs a step.

The live step (`engine.StepContext`) implements it, and so does the dry run that checks an
order set before it is accepted (`probe.Probe`), so rules code is written once for both.
Requests carry a typed context (`Request.context`): the facts a standing policy may test
(`WHEN area=Paris`), and what the kind's reading needs to check an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from pbem.core.engine import ALL, MapMark, Request, Seat

T = TypeVar("T")


class DecisionPort(Protocol):
    """What a rules procedure may use: decisions, dice, the chronicle, and the scenario and
    seats of its campaign (no address or token reaches rules code)."""

    step: str
    scenario: Any
    seats: Mapping[str, Seat]
    step_start: Callable[[], Any] | None  # a fresh copy of the state as the step began; None in a dry run

    @property
    def interrupts(self) -> int:
        """How many decisions and dice the step has asked for so far."""

    def request(self, *, kind: str, player: str, prompt: str, default: Any, purpose: str | None = None,
                power: str | None = None, options: Iterable[str] = (), context: Mapping[str, Any] | None = None,
                sealed: bool = False, rule: str = "") -> Request:
        """Build a request with the next stable key for its purpose (not yet asked)."""

    def decide(self, request: Request) -> Any:
        """The answer to one request; the step stops here while nobody has given it."""

    def decide_all(self, requests: Sequence[Request]) -> list[Any]:
        """Answers to a simultaneous batch, revealed together."""

    def roll(self, purpose: str, *, sides: int = 6, rule: str = "") -> int:
        """One die of `sides` faces for `purpose`, logged with the rule it serves."""

    def draw_index(self, purpose: str, bound: int, *, rule: str = "") -> int:
        """An unbiased index in [0, bound)."""

    def shuffle(self, purpose: str, items: Sequence[T], *, rule: str = "") -> list[T]:
        """The items in an order drawn from the keyed stream of `purpose`."""

    def say(self, text: str, *, to: Iterable[str] = (ALL,), rule: str = "", with_rolls: bool = True,
            mark: MapMark | None = None) -> None:
        """Add a chronicle line (`mark`: the battle or siege it tells, drawn on the map)."""
