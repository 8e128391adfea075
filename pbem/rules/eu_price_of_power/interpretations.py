"""The named interpretations of EU: The Price of Power (EUPOP-I…): every constant whose
icon the rulebook's text lost, and page 14's missing Actions, read as `interpretations.toml`
records them — the words as extracted, the lines they are on, the value read and why.

The rules code takes a constant by name from `constants`; a campaign may set another value
for an interpretation players may disagree with (`option = true`), of the same shape.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from pbem.rules.eu_price_of_power.effects import Amount
from pbem.rules.eu_price_of_power.sources import Source, Strict

TABLE = Path(__file__).with_name("interpretations.toml")

#: A value read: an amount of resources (a cost, a gain), a count, a yes or no, or a named reading.
Value = list[Amount] | bool | int | str


class Interpretation(Strict):
    id: str = Field(pattern=r"^EUPOP-I[1-9][0-9]*$")
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    rules: list[str] = Field(min_length=1)
    extracted: str
    value: Value
    reading: str
    confidence: Literal["H", "M", "L"]
    option: bool = False
    alternatives: list[str] = []  # the named readings a campaign may choose instead
    appendix: int | None = None  # its item in the research spec's Appendix A
    source: Source

    @model_validator(mode="after")
    def _alternatives(self) -> Interpretation:
        named = self.option and isinstance(self.value, str)
        if named != bool(self.alternatives) or (named and self.value not in self.alternatives):
            raise ValueError(f"{self.id}: a named reading players may disagree with lists its alternatives, "
                             "its own among them; nothing else does")
        return self


class Interpretations(Strict):
    interpretations: list[Interpretation]


class InterpretationError(Exception):
    """The table, or a campaign's setting of it, is wrong; the message names each problem."""


@cache
def table() -> tuple[Interpretation, ...]:
    """The interpretations pbem ships, EUPOP-I1 first."""
    return read_table(TABLE)


def read_table(path: Path) -> tuple[Interpretation, ...]:
    """The interpretations in `path`, checked: numbered without a gap, names unique."""
    try:
        entries = Interpretations.model_validate(tomllib.loads(path.read_text(encoding="utf-8"))).interpretations
    except ValidationError as error:
        raise InterpretationError(f"{path}: {error}") from None
    problems = [f"{e.id} is not EUPOP-I{n}" for n, e in enumerate(entries, 1) if e.id != f"EUPOP-I{n}"]
    names = [e.name for e in entries]
    problems += [f"{name} is named twice" for name in sorted({n for n in names if names.count(n) > 1})]
    if problems:
        raise InterpretationError("; ".join(problems))
    return tuple(entries)


def constants(settings: Mapping[str, Any] | None = None) -> dict[str, Value]:
    """Every interpretation's value by name, with a campaign's `settings` (name → value) for
    those players may disagree with; a setting of anything else, or of another shape, is refused."""
    values = {e.name: e.value for e in table()}
    entries = {e.name: e for e in table()}
    problems = []
    for name, value in (settings or {}).items():
        entry = entries.get(name)
        if entry is None or not entry.option:
            problems.append(f"{name}: not an interpretation a campaign may set (those marked option = true)")
            continue
        shape = list[Amount] if isinstance(entry.value, list) else type(entry.value)
        try:
            values[name] = TypeAdapter(shape).validate_python(value, strict=True)
        except ValidationError:
            problems.append(f"{name}: {value!r} is not of the shape of {entry.id}'s value {entry.value!r}")
            continue
        if entry.alternatives and value not in entry.alternatives:
            problems.append(f"{name}: {value!r} is not one of {entry.id}'s readings ({', '.join(entry.alternatives)})")
    if problems:
        raise InterpretationError("; ".join(problems))
    return values
