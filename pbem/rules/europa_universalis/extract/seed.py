"""The rulebook's text as the extractors read it: the seed file's lines, numbered from 1 as
the research spec cites them (`L1234`), with the patch list's corrections applied.

A patch mends one line and keeps the numbering: it names the line, the text it expects
there (so a different seed is refused rather than patched wrongly), the text to read
instead and why. The text read instead may restore line breaks the conversion lost (tables
printed side by side): the pieces all keep the line's number. The output is never edited by hand; OCR damage is mended here.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PATCHES = Path(__file__).with_name("patches.toml")


class SeedError(Exception):
    """A seed that does not match what the extractors and the patch list expect."""


@dataclass(frozen=True)
class Patch:
    line: int
    was: str
    now: str
    reason: str


@dataclass(frozen=True)
class Span:
    """Lines `first`…`last` of the seed, inclusive, and their (patched) text joined."""

    first: int
    last: int
    text: str

    @property
    def lines(self) -> list[int]:
        return [self.first, self.last]


def read_patches(path: Path = PATCHES) -> list[Patch]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    patches = [Patch(**entry) for entry in data.get("patch", [])]
    lines = [p.line for p in patches]
    if len(set(lines)) != len(lines):
        raise SeedError(f"{path}: a line is patched twice")
    return patches


class Seed:
    def __init__(self, path: Path, patches: list[Patch]) -> None:
        raw = path.read_bytes()
        self.name = path.name
        self.sha256 = hashlib.sha256(raw).hexdigest()
        self._lines = raw.decode("utf-8").split("\n")
        for patch in patches:
            found = self.line(patch.line)
            if found != patch.was:
                raise SeedError(f"{path.name}:{patch.line}: the patch list expects {patch.was!r}, "
                                f"the seed has {found!r}")
            self._lines[patch.line - 1] = patch.now

    def __len__(self) -> int:
        return len(self._lines)

    def line(self, number: int) -> str:
        return self._lines[number - 1]

    def find(self, pattern: str, start: int = 1, end: int | None = None) -> int:
        """The number of the first line from `start` matching `pattern` (a regular expression)."""
        for number in range(start, (end or len(self._lines)) + 1):
            if re.search(pattern, self.line(number)):
                return number
        raise SeedError(f"{self.name}: no line matching {pattern!r} in lines {start}–{end}")

    def numbered(self, first: int, last: int) -> Iterator[tuple[int, str]]:
        for number in range(first, last + 1):
            yield number, self.line(number)

    def blocks(self, first: int, last: int, heading: str) -> Iterator[Span]:
        """The blocks of lines `first`…`last` each starting at a line matching `heading`,
        running to the line before the next one (trailing blank lines left out)."""
        starts = [n for n, text in self.numbered(first, last) if re.match(heading, text)]
        for start, stop in zip(starts, starts[1:] + [last + 1]):
            end = stop - 1
            while end > start and not self.line(end).strip():
                end -= 1
            yield Span(start, end, "\n".join(self.line(n) for n in range(start, end + 1)))
