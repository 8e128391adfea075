"""Campaign options: where players may choose how faithfully to play (research §2.3), and the
optional rules of §11 and §12 that a scenario can use (§1.3: the others are campaign-only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.options import check_options

#: The value of a combat option that leaves it as the scenario's `[combat_options]` say.
SCENARIO = "scenario"

#: name -> (allowed values, what it does); the first value is the default.
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "army_orders": (("no", "yes"), "the Army Reinforcement Step asks every power for its transfers and "
                                   "demobilisation (§5.2.3, §5.2.4); with no, it asks nothing and none are made"),
    "morale_method": ((SCENARIO, "1", "2"), "how a force's base morale level is found: Method One, the "
                                            "average, or Method Two, the primary component's (§7.5.2.6.1)"),
    "cavalry_superiority": ((SCENARIO, "no", "yes"), "+1 to the combat die of a side with twice the enemy's "
                                                     "cavalry (12.3.3.1)"),
    "cavalry_withdrawals": ((SCENARIO, "no", "yes"), "+1 to the strategic rating of a defending cavalry force "
                                                     "withdrawing (12.3.3.2)"),
    "guard_commitment": ((SCENARIO, "no", "yes"), "a side may commit its guard for +1 or +2 morale level "
                                                  "(12.3.4)"),
    "artillery": ((SCENARIO, "no", "yes"), "artillery corps bombard before every round (12.3.5)"),
    "corps_leaders": ((SCENARIO, "no", "yes"), "the best corps ratings count as a leader's with tactical "
                                               "maximum 1 (12.3.7.1)"),
    "further_reductions": ((SCENARIO, "no", "yes"), "−3, −4 … to a commander's tactical rating at three, four … "
                                                    "times his tactical maximum (12.3.7.2)"),
    "leader_casualties": ((SCENARIO, "no", "yes"), "leaders may be wounded or killed after a combat (12.7)"),
    "proportional_losses": (("no", "yes"), "a side of several nationalities shares its combat losses in "
                                           "proportion to their starting factors (12.3.6, EIA-I200)"),
    "chosen_losses": (("no", "yes"), "each owner names the factors a round, a pursuit or a sortie costs him, "
                                     "his standing LOSSES order the default (§7.5.2.9.2, §7.5.4.1.2.1, EIA-I300); "
                                     "with no, the standing order takes them"),
    "depot_limit": (("no", "yes"), "each depot supplies at most four corps (12.3.1, EIA-I201)"),
    "napoleon_ratings": (("no", "yes"), "NAPOLEON's tactical rating is 4 from January 1809 and his strategic "
                                        "rating 4 from January 1812, outside France's territory (12.3.7.3, "
                                        "EIA-I202)"),
    "minor_garrisons": (("no", "yes"), "a minor free state's factors may garrison cities and depots outside its "
                                       "own country, and its garrisons leave it with the honours of war (12.3.8, "
                                       "EIA-I223)"),
    "british_training": (("no", "yes"), "the corps of a minor free state British-controlled for 24 months "
                                        "(Hanover, Portugal) fight with morale 4.0 (12.3.2, EIA-I243)"),
}

#: The options the combat rules read (`combat/models.py`'s `Options`), each overriding the
#: scenario's `[combat_options]` when it is not left at `scenario`.
COMBAT_OPTIONS = ("morale_method", "cavalry_superiority", "cavalry_withdrawals", "guard_commitment", "artillery",
                  "corps_leaders", "further_reductions", "leader_casualties", "proportional_losses", "chosen_losses")


def read_options(raw: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The options' values (defaults filled in) and every problem with them."""
    chosen, problems = check_options(OPTIONS, raw)
    return {name: allowed[0] for name, (allowed, _) in OPTIONS.items()} | chosen, problems


def in_play(values: Mapping[str, str]) -> dict[str, str]:
    """The options the rules read while playing, kept in the state: those not left at their
    default (`army_orders` has its own field)."""
    return {name: value for name, value in sorted(values.items())
            if name != "army_orders" and value != OPTIONS[name][0][0]}


def combat_options(scenario_options: Mapping[str, Any], campaign: Mapping[str, str]) -> dict[str, Any]:
    """The combat options of a battle: the scenario's, with the campaign's options over them."""
    merged = dict(scenario_options)
    for name in COMBAT_OPTIONS:
        value = campaign.get(name, SCENARIO)
        if value != SCENARIO:
            merged[name] = int(value) if name == "morale_method" else value == "yes"
    return merged
