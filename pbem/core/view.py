"""The view a ruleset gives of its state (DESIGN §5), as far as pbem itself relies on it.

A ruleset's `view(state, scenario, viewer)` is a plain dict: the game may put anything in
it (cases and the GM's preview read it whole). What the core and the reports read of it
is declared here: who holds each power (SIGNON by power, press to a power, the reports'
powers table), the turn's label, the players' standings, the sections shown as tables,
the tables a report closes with (a game's score) and the map. `read_view` checks that
part once and hands it on typed.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError


class ViewError(ValueError):
    """A ruleset's view that does not keep the contract (a ruleset's bug, named precisely)."""


def as_text(value: Any) -> str:
    """A view's value as a table cell or label: text as it is, numbers written out,
    anything else as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if type(value) is int:
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


Text = Annotated[str, BeforeValidator(as_text)]


class Table(BaseModel):
    """A section of the view: a titled table of text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: Text = ""
    columns: list[Text] = []
    rows: list[list[Text]] = []


class PowerEntry(BaseModel):
    """A power as the view shows it: its name and the player who holds it (None: nobody)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str | None = None
    player: str | None = None


class MapArea(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    name: str = ""
    x: float | None = None
    y: float | None = None
    kind: str = "land"
    controller: str | None = None
    units: list[str] = []
    synthetic: bool = False
    fortress: bool = False
    besieged_by: str | None = None  # the power besieging the area's fortress or city


class MapLink(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    a: str
    b: str
    kind: str = ""


class MapMove(BaseModel):
    """Units that went from area `a` to area `b` in the steps a report tells."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    a: str
    b: str
    units: list[str] = []


class MapEvent(BaseModel):
    """A battle, a siege … in an area, and its result in a few words."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    area: str
    kind: str
    result: str = ""


class GameMap(BaseModel):
    """The view's `map`: areas (with where they are drawn, who controls them and what
    stands in them) and the links between them; a report adds what moved and what was
    fought in the steps it tells, as far as its reader saw it."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    areas: list[MapArea] = []
    links: list[MapLink] = []
    moves: list[MapMove] = []
    events: list[MapEvent] = []
    focus: list[str] = []  # the reader's theatre, which the mailed picture is cropped to (none: all of it)


class GameView(BaseModel):
    """The declared part of a ruleset's view; every key may be missing from the view."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    turn_label: Text = ""
    powers: dict[str, PowerEntry] = {}
    players: dict[str, dict[str, Any]] = {}
    sections: list[Table] = []
    closing: list[Table] = []  # shown last, after everything else the report says
    map: GameMap | None = None

    def owner(self, power: str) -> str | None:
        """The player holding `power` (its code in any case), if any."""
        entry = self.powers.get(power.upper())
        return entry.player if entry is not None else None


class by_identity:  # noqa: N801 - used as a decorator, like functools.cache
    """Remember a function's result for the last few arguments by identity. For data a
    ruleset or a report hands out again as the same object when it has not changed (the
    map of a view): checked and serialised once, however many reports show it. The
    arguments are kept alive, so an identity is never reused while remembered."""

    def __init__(self, function: Callable[[Any], Any], size: int = 16):
        self.function, self.size = function, size
        self.recent: dict[int, tuple[Any, Any]] = {}
        functools.update_wrapper(self, function)

    def __call__(self, argument: Any) -> Any:
        seen = self.recent.get(id(argument))
        if seen is not None and seen[0] is argument:
            return seen[1]
        result = self.function(argument)
        if len(self.recent) >= self.size:
            del self.recent[next(iter(self.recent))]
        self.recent[id(argument)] = (argument, result)
        return result


def _problems(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()[:5])


@by_identity
def checked_map(raw: Any) -> GameMap:
    """A view's map, checked once per map object (a ruleset hands out the same map object
    while the map has not changed)."""
    try:
        return GameMap.model_validate(raw)
    except ValidationError as error:
        raise ViewError(f"the map cannot be drawn: {_problems(error)}") from None


def read_view(raw: Mapping[str, Any]) -> GameView:
    """The declared part of a ruleset's view."""
    declared = {key: raw[key] for key in ("turn_label", "powers", "players", "sections", "closing") if raw.get(key)}
    if raw.get("map"):
        declared["map"] = checked_map(raw["map"])
    try:
        return GameView.model_validate(declared)
    except ValidationError as error:
        raise ViewError(f"the ruleset's view does not keep pbem's contract: {_problems(error)}") from None
