"""Campaign options of the combat engine: the interpretations players may choose
differently (docs/rules/ratio-regis-combat.md). Same shape as `OPTIONS` in
`pbem/rules/ratio_regis/options.py`: name -> (allowed values, default first; the
interpretation it selects). A combat reads the chosen values from `Combat.options`."""

from __future__ import annotations

from collections.abc import Mapping

COMBAT_OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "siege_morale": (("no", "yes"), "RR-C9: a lost siege assault costs no morale (§21.3.5 names land and naval "
                                    "combat; §32.1 gives none) or one, like a field battle"),
    "veteran_needs": (("unit", "troop"), "RR-C10: a side may make a veteran after eliminating any enemy unit "
                                         "(§13.3.8) or only an enemy troop (§16.1)"),
}


def option(options: Mapping[str, str], name: str) -> str:
    """The chosen value of a combat option, its default when not chosen."""
    return str(options.get(name, COMBAT_OPTIONS[name][0][0])).lower()
