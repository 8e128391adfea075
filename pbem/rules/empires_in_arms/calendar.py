"""The calendar (§9): one turn is a month; winter is December, January and February (§9.1);
the Economic Phase closes March, June, September and December (§3.5)."""

from __future__ import annotations

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WINTER = (12, 1, 2)
QUARTER_ENDS = (3, 6, 9, 12)


def date_of(start_year: int, start_month: int, turn: int) -> tuple[int, int]:
    """The (year, month) of `turn` (1: the scenario's first month)."""
    index = start_year * 12 + start_month - 1 + turn - 1
    return index // 12, index % 12 + 1


def turn_of_date(start_year: int, start_month: int, year: int, month: int) -> int:
    return (year * 12 + month) - (start_year * 12 + start_month) + 1


def label(year: int, month: int) -> str:
    return f"{MONTHS[month - 1]} {year}"


def is_winter(month: int) -> bool:
    """§9.1."""
    return month in WINTER


def ends_quarter(month: int) -> bool:
    """§3.5: an Economic Phase follows this month's Land Phase (campaign games only)."""
    return month in QUARTER_ENDS
