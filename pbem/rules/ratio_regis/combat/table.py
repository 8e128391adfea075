"""Die categories (§13.1.1) and the combat table (§13.1.6), as pure functions.

The odds below are computed by enumerating the six faces, never estimated, so the
defaults that compare dice ("put the disadvantage where it costs least") use exact
`Fraction`s.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

MIN_CATEGORY, MAX_CATEGORY = 1, 4
FACES = (1, 2, 3, 4, 5, 6)
BEST_VALUE = 6


def clamp_category(category: int) -> int:
    """Categories never leave Q1..Q4; extra (dis)advantages are ignored (§13.1.2)."""
    return max(MIN_CATEGORY, min(MAX_CATEGORY, category))


def modified(category: int, raw: int) -> int:
    """The die after its category (§13.1.1): Q2–Q4 raise results below the category to
    it; Q1 lowers every result above 1 by one."""
    if category == MIN_CATEGORY:
        return max(1, raw - 1)
    return max(raw, category)


@dataclass(frozen=True)
class Score:
    """One line of the combat table: battle points and whether it is a casualty (C)."""

    battle_points: int
    casualty: bool


_TABLE = {1: Score(0, False), 2: Score(0, False), 3: Score(1, False), 4: Score(1, True), 5: Score(2, False),
          6: Score(2, True)}


def score(value: int) -> Score:
    """§13.1.6: 1–2 nothing, 3 one BP, 4 one BP and C, 5 two BP, 6 two BP and C."""
    return _TABLE[value]


@dataclass(frozen=True)
class Odds:
    """What one die of a category yields, over its six equally likely faces."""

    points: dict[int, Fraction]  # battle points -> probability
    expected_points: Fraction
    casualty: Fraction


def odds(category: int) -> Odds:
    scores = [score(modified(category, face)) for face in FACES]
    share = Fraction(1, len(FACES))
    points = {bp: share * sum(1 for s in scores if s.battle_points == bp) for bp in (0, 1, 2)}
    return Odds(points=points, expected_points=share * sum(s.battle_points for s in scores),
                casualty=share * sum(1 for s in scores if s.casualty))


def worth(category: int) -> tuple[Fraction, Fraction]:
    """How good a die of this category is: expected BP first (they decide the winner),
    then the chance of a casualty (they eliminate). The defaults compare dice by it."""
    o = odds(clamp_category(category))
    return o.expected_points, o.casualty


def value_worth(value: int) -> tuple[int, int]:
    """How good a modified result is: its BP, then its casualty (for the leader's +1)."""
    s = score(value)
    return s.battle_points, int(s.casualty)
