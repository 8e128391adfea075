"""The dry run of an order set before it is accepted (DESIGN §4): a `DecisionPort` that
runs a player's orders against a copy of the state and stops at the first point that needs
dice or another player's decision, since what follows depends on them.

Every game needs this check: an order set accepted at submission then executes as written,
and one that cannot is refused with its reasons while the player can still correct it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pbem.core.engine import ALL, KeyedRequests, MapMark, Request, Seat

T = TypeVar("T")


class NeedsInput(Exception):
    """Raised by the probe where the run needs dice or a decision: the rest is checked when
    the step reaches it."""


class Probe(KeyedRequests):
    """A `DecisionPort` with no step running: requests are built as the live step builds
    them, but any decision or die stops the run (`NeedsInput`), and nothing is said."""

    interrupts = 0  # the probe stops at the first one
    step_start = None  # a dry run works on a copy of its own

    def __init__(self, scenario: Any, *, step: str = "probe", seats: Mapping[str, Seat] | None = None):
        self.step = step
        self.scenario = scenario
        self.seats = dict(seats or {})
        self._counters: dict[str, int] = {}

    def decide(self, request: Request) -> Any:
        raise NeedsInput(request.key)

    def decide_all(self, requests: Sequence[Request]) -> list[Any]:
        raise NeedsInput(", ".join(r.key for r in requests))

    def roll(self, purpose: str, *, sides: int = 6, rule: str = "") -> int:
        raise NeedsInput(purpose)

    def draw_index(self, purpose: str, bound: int, *, rule: str = "") -> int:
        raise NeedsInput(purpose)

    def shuffle(self, purpose: str, items: Sequence[T], *, rule: str = "") -> list[T]:
        raise NeedsInput(purpose)

    def say(self, text: str, *, to: Iterable[str] = (ALL,), rule: str = "", with_rolls: bool = True,
            mark: MapMark | None = None) -> None:
        """A dry run tells nobody anything."""
