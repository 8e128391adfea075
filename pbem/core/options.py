"""Campaign options as a ruleset declares them: each name with the values it allows (the
first is its default) and what it does. Every game checks a new campaign's options the
same way, so a GM gets the same answer whichever game he sets up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: name -> (allowed values, the first being the default; what the option does)
OptionTable = Mapping[str, tuple[tuple[str, ...], str]]


def check_options(table: OptionTable, raw: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The options chosen, each value as its word (a TOML true or false reads as yes or no),
    and every problem with them: an unknown name, with the known ones, or a value the option
    does not allow, with the allowed ones."""
    values: dict[str, str] = {}
    problems = []
    for name, value in sorted(raw.items()):
        if name not in table:
            problems.append(f"unknown option {name!r} (known: {', '.join(sorted(table))})")
            continue
        word = ("yes" if value else "no") if isinstance(value, bool) else str(value).lower()
        allowed = table[name][0]
        if word not in allowed:
            problems.append(f"option {name} must be one of {', '.join(allowed)}, not {value!r}")
        values[name] = word
    return values, problems
