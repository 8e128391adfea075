"""Where a piece of EU: The Price of Power's data comes from.

Data read from the rulebook (`shared/seeds/001_707bac22b28f3d42.txt`) carries the lines it
reads and, where a count or a value is taken from them, the words quoted; what the rulebook
does not give is either a named interpretation (EUPOP-I…, `interpretations.toml`) or
invented and marked `synthetic`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: The rulebook file every `Source` refers to.
RULEBOOK = "shared/seeds/001_707bac22b28f3d42.txt"


class Strict(BaseModel):
    """The base of this game's data models: an unknown key is refused, a value never changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(Strict):
    lines: list[tuple[int, int]] = Field(min_length=1)  # first and last line of each passage
    quote: str = ""  # the words a value is read from, as extracted
    gaps: list[str] = []  # what the passage does not give (an icon lost, a card's other text)

    @model_validator(mode="after")
    def _ordered(self) -> Source:
        for first, last in self.lines:
            if not 1 <= first <= last:
                raise ValueError(f"lines {first}–{last}: give the first line, then the last")
        return self
