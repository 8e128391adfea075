"""What a game must provide to run on the core, and how the core finds games.

A game is a package under `pbem/rules/` registered in the entry-point group
`pbem.rulesets`; the core never imports a game by name. Rules code is pure: it sees
plain data (scenario, state, answers) and a `DecisionPort` for decisions and dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Protocol, TypeVar

import msgspec
from pydantic import BaseModel, ValidationError

from pbem.core.decisions import DecisionKind
from pbem.core.dice import DicePurpose
from pbem.core.engine import Seat
from pbem.core.port import DecisionPort


class RulesetError(Exception):
    """Unknown ruleset or a ruleset that cannot be loaded."""


class RulingError(Exception):
    """A GM ruling that cannot apply to the state (unknown kind, bad arguments …)."""


class ScenarioError(Exception):
    """A scenario file that does not validate; `problems` says every reason."""

    def __init__(self, problems: Sequence[str]):
        super().__init__("; ".join(problems))
        self.problems = list(problems)


Model = TypeVar("Model", bound=BaseModel)
T = TypeVar("T")


def validated(schema: type[Model], raw: Mapping[str, Any]) -> Model:
    """`raw` read by a ruleset's pydantic `schema`; a ScenarioError lists every problem by
    its place (`realms.0.stability: …`)."""
    try:
        return schema.model_validate(dict(raw))
    except ValidationError as error:
        raise ScenarioError([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()]) from None


def checked_scenario(schema: type[Model], raw: Mapping[str, Any], wrap: Callable[[Model], T],
                     check: Callable[[T], list[str]]) -> T:
    """A scenario read by `schema`, wrapped for the rules (`wrap`) and checked for what a
    schema cannot see (`check`); a ScenarioError lists every problem of either."""
    scenario = wrap(validated(schema, raw))
    problems = check(scenario)
    if problems:
        raise ScenarioError(problems)
    return scenario


class Step(msgspec.Struct, frozen=True):
    """The next step of a game: a stable key and the procedure that resolves it (a
    struct: the projection asks for it before every run)."""

    key: str
    procedure: Callable[[DecisionPort, Any], None]
    title: str = ""


class Ruleset(Protocol):
    """The interface every game implements (see `pbem/rules/ratio_regis` for one)."""

    name: str
    title: str
    version: str

    def load_scenario(self, data: Mapping[str, Any]) -> Any:
        """Validate scenario data; raise `ScenarioError` listing every problem."""

    def check_scenario(self, scenario: Any) -> list[str]:
        """Consistency problems a schema cannot see (asymmetric links, unknown ids …)."""

    def check_options(self, options: Mapping[str, Any]) -> list[str]:
        """Why these campaign options cannot be used (empty when they can)."""

    def initial_state(self, scenario: Any, options: Mapping[str, Any], seats: Sequence[Seat]) -> Any:
        """The state before the first step."""

    def encode_state(self, state: Any) -> bytes:
        """Canonical JSON of the state (what is hashed and snapshotted)."""

    def decode_state(self, data: bytes) -> Any:
        """Inverse of `encode_state`; also how a step gets a fresh copy."""

    def next_step(self, state: Any, scenario: Any) -> Step | None:
        """The step to resolve next, or None when the game is over."""

    decision_kinds: Sequence[DecisionKind]
    """Every kind of decision the game asks, in the order order lines are offered to them
    (`pbem.core.decisions`): the core reads order lines, policies, conditional lines and
    order forms through them."""

    dice_purposes: Sequence[DicePurpose]
    """Every purpose the game rolls for, with its die (`pbem.core.dice.DicePurpose`): a GM's
    forced dice are checked against them when set."""

    rulings: Mapping[str, str]
    """The typed changes a GM may rule (name -> what it does and its arguments)."""

    def apply_ruling(self, state: Any, scenario: Any, kind: str, args: Mapping[str, Any]) -> None:
        """Change `state` by a named ruling; raise `RulingError` with the reason if it cannot apply."""

    def turn_of(self, step: str) -> int | None:
        """The game turn a step belongs to (for `pbem replay --turn N`)."""

    turn_name: str
    """What the game calls the turn `turn_of` numbers (a turn, a Round, a month): tools that
    count per game turn label their figures with it (`pbem bench roundtrips`)."""

    def scenario_map(self, scenario: Any) -> dict:
        """The map of a scenario before play, in the view's "map" shape (for drawing)."""

    def view(self, state: Any, scenario: Any, viewer: str) -> dict:
        """What `viewer` (a player id, `public` or `gm`) may see of the state."""


@cache
def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group="pbem.rulesets")}


def available() -> list[str]:
    return sorted(_entry_points())


@cache
def load(name: str) -> Ruleset:
    """The ruleset registered under `name` (rulesets hold no state, so one serves all)."""
    found = _entry_points().get(name)
    if found is None:
        known = ", ".join(available()) or "none installed"
        raise RulesetError(f"unknown ruleset {name!r} (known: {known})")
    factory = found.load()
    return factory() if callable(factory) else factory
