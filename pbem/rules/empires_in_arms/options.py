"""Campaign options: where players may choose how faithfully to play (research §2.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: name -> (allowed values, what it does); the first value is the default.
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "army_orders": (("no", "yes"), "the Army Reinforcement Step asks every power for its transfers and "
                                   "demobilisation (§5.2.3, §5.2.4); with no, it asks nothing and none are made"),
}


def read_options(raw: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The options' values (defaults filled in) and every problem with them."""
    values = {name: allowed[0] for name, (allowed, _) in OPTIONS.items()}
    problems = []
    for name, value in sorted(raw.items()):
        if name not in OPTIONS:
            problems.append(f"unknown option {name!r} (known: {', '.join(sorted(OPTIONS))})")
            continue
        word = {True: "yes", False: "no"}.get(value, str(value).lower()) if isinstance(value, bool) \
            else str(value).lower()
        if word not in OPTIONS[name][0]:
            problems.append(f"option {name} must be one of {', '.join(OPTIONS[name][0])}, not {value!r}")
        values[name] = word
    return values, problems
