"""Campaign options: the named interpretations players may choose differently.

Each option is documented in docs/rules/ratio-regis.md with the interpretation it
selects. Values arrive as strings (from a case file or the CLI) or as the same words
from a TOML players file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from pbem.core.options import check_options
from pbem.rules.ratio_regis.combat.options import COMBAT_OPTIONS

#: option name -> (allowed values, default first, the interpretation it selects)
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "variant": (("v1.2.4", "v2.1"), "the rules edition: Ratio Regis v1.2.4, or Ultima Ratio Regis v2.1, whose "
                                    "changed and new rules (docs/rules/ratio-regis.md, \"v2.1\") then apply"),
    "intrinsic_action": (("impulse", "turn"), "RR-I1: one intrinsic action per power per impulse (§28.8) "
                                              "or per turn (§8.2.2's wording)"),
    "home_move": (("any-unit", "dispersed-only"), "RR-I2: the end-of-impulse move takes any unit (§8.2.2) "
                                                  "or only a dispersed troop (§18.1)"),
    "elite_build": (("home-theater", "home-areas"), "RR-I3: 3-4 troops are built in the theater with most home "
                                                    "areas (§9.1 text) or only in home areas (§9 table)"),
    "determined": (("v1.2.4", "v2.1"), "RR-I81: the Determined leader cannot be intercepted by land on its first "
                                       "tactical move of each impulse and two Determined leaders cancel (v1.2.4), "
                                       "or it fights as Tactical in a field battle where it is intercepted (v2.1)"),
    "auction": (("sealed", "open"), "RR-I143: technology and minor auctions (§19.3.1, §20.3.1) by one sealed "
                                    "standing maximum bid per player, bid up for it in turn (proxy bidding), or in "
                                    "open rounds, one decision per bid"),
    "peace_half": (("up", "down"), "RR-I160: a power asks for peace with at least half its morale lost, half of an "
                                   "odd vitality rounded up (3 of 5) or down (2 of 5) (§21.4.1)"),
}


#: Every option a campaign may set: the sequence of play's and the combat engine's.
ALL_OPTIONS = {**OPTIONS, **COMBAT_OPTIONS}


class OptionError(ValueError):
    """An unknown campaign option or value; the message lists what is allowed."""


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """The campaign's options, fields in alphabetical order like the state's (see `state`)."""

    auction: str = "sealed"
    combat: dict[str, str] = {}  # the combat engine's options (COMBAT_OPTIONS), by name
    determined: str = "v1.2.4"
    elite_build: str = "home-theater"
    home_move: str = "any-unit"
    intrinsic_action: str = "impulse"
    peace_half: str = "up"
    variant: str = "v1.2.4"


def read_options(raw: Mapping[str, Any]) -> Options:
    """Campaign options from their names and values, every value checked."""
    values, problems = check_options(ALL_OPTIONS, raw)
    if problems:
        raise OptionError("; ".join(problems))
    if values.get("variant") == "v2.1":
        values.setdefault("determined", "v2.1")  # v2.1's Determined leader, unless the campaign says otherwise
    combat = {name: values.pop(name) for name in sorted(values) if name in COMBAT_OPTIONS}
    return Options(**values, combat=combat)
