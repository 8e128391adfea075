"""What each viewer may see (research §7.3). Leaders, depots, garrisons and a corps'
counter (its power, where it stands) are public; a corps' strength and composition are
its owner's and the GM's alone (§2.4.2), and so is a power's treasury. The map is drawn
from the scenario's areas and borders."""

from __future__ import annotations

from pbem.rules.empires_in_arms.battles import describe as describe_battle
from pbem.rules.empires_in_arms.calendar import is_winter, label
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import FINISHED, LAND, GameState
from pbem.rules.empires_in_arms.victory import describe, met

HIDDEN = "hidden"


def _sees(state: GameState, viewer: str, power: str) -> bool:
    return viewer == "gm" or state.holder(power) == viewer


def _strength(factors: dict[str, int]) -> str:
    return " ".join(f"{n} {kind}" for kind, n in factors.items() if n) or "-"


def view(state: GameState, scenario: Scenario, viewer: str) -> dict:
    year, month = scenario.date(state.turn)
    corps = {c.id: {"power": c.power, "area": c.area, "inside": c.inside,
                    "factors": dict(c.factors) if _sees(state, viewer, c.power) else HIDDEN}
             for c in state.corps}
    return {
        "turn_label": label(year, month) + (" (winter)" if is_winter(month) else ""),
        "turn": state.turn,
        "phase": state.phase,
        "phasing": scenario.land_parts[state.land_index] if state.phase == LAND else None,
        "finished": state.phase == FINISHED,
        "powers": {code: _power(state, scenario, code, viewer) for code in scenario.power_order},
        "players": {},
        "corps": corps,
        "irregulars": {i.id: {"power": i.power, "kind": i.kind, "area": i.area, "factors": i.factors}
                       for i in state.irregulars},
        "stood_down": [c.id for c in state.stood_down],
        "leaders": {lead.id: lead.corps for lead in state.leaders},
        "depots": {d.area: {"power": d.power, "garrison": d.garrison} for d in state.depots},
        "garrisons": {g.area: {"power": g.power, "factors": dict(g.factors)} for g in state.garrisons if g.strength},
        "battles": [describe_battle(scenario, b) for b in state.battles],
        "sieges": {siege.area: siege.power for siege in state.sieges},
        "winners": list(state.winners),
        "sections": _sections(state, scenario, viewer),
        "map": _map(scenario, state),
    }


def _power(state: GameState, scenario: Scenario, code: str, viewer: str) -> dict:
    power = state.powers[code]
    return {"name": scenario.powers[code].name, "player": power.player,
            "money": power.money if _sees(state, viewer, code) else HIDDEN, "political": power.political,
            "at_war_with": _enemies(scenario, code),
            "allied_with": _allies(scenario, code),
            "minor_free_states": scenario.forces_of(code)[1:]}


def _enemies(scenario: Scenario, code: str) -> list[str]:
    """The major powers at war with `code`, in the fixed order (§7.1)."""
    return [p for p in scenario.power_order if scenario.at_war(code, p)]


def _allies(scenario: Scenario, code: str) -> list[str]:
    """The scenario's allies of a power (§7.1.2), those moving combined with it marked."""
    combined = scenario.combined_with(code)
    return [p + (" (combined)" if p in combined else "") for p in scenario.power_order
            if p != code and scenario.allied(code, p)]


def _sections(state: GameState, scenario: Scenario, viewer: str) -> list[dict]:
    leaders: dict[str, list[str]] = {}
    for lead in state.leaders:
        if lead.corps:
            leaders.setdefault(lead.corps, []).append(lead.id)
    # the columns of allies and minor free states only where the scenario has any (§7.1.1, §7.1.2)
    several = bool(scenario.data.alliances) or len(scenario.data.powers) > len(scenario.power_order)
    sections = [
        {"title": "Powers", "columns": ["Power", "Player", "Money", "Political points", "At war with"]
         + (["Allied with", "Minor free states"] if several else []),
         "rows": [[code, state.powers[code].player or "-",
                   str(state.powers[code].money) if _sees(state, viewer, code) else "?",
                   str(state.powers[code].political),
                   " ".join(_enemies(scenario, code)) or "-"]
                  + ([", ".join(_allies(scenario, code)) or "-", " ".join(scenario.forces_of(code)[1:]) or "-"]
                     if several else [])
                  for code in scenario.power_order]},
        {"title": "Corps (strengths are shown to their owner only)",
         "columns": ["Corps", "Power", "Area", "Leader", "Strength"],
         "rows": [[c.id, c.power, scenario.areas[c.area].title + (" (in the city)" if c.inside else ""),
                   " ".join(leaders.get(c.id, [])) or "-",
                   _strength(c.factors) if _sees(state, viewer, c.power) else "?"] for c in state.corps]},
        {"title": "Depots", "columns": ["Area", "Power", "Garrison"],
         "rows": [[scenario.areas[d.area].title, d.power, str(d.garrison)] for d in state.depots]},
        {"title": "City garrisons", "columns": ["City", "Power", "Factors"],
         "rows": [[scenario.areas[g.area].city.name, g.power, _strength(g.factors)]
                  for g in state.garrisons if g.strength and scenario.areas[g.area].city]},
    ]
    if scenario.data.victory:
        sections.append({"title": "Victory conditions (at the end of the last month)",
                         "columns": ["Power", "Must", "Met now"],
                         "rows": [[c.power, describe(scenario, c), "yes" if met(state, scenario, c) else "no"]
                                  for c in scenario.data.victory]})
    if state.irregulars:
        sections.insert(2, {"title": "Cossacks, freikorps and guerrillas (their factors show on the counter, §2.4.1)",
                            "columns": ["Counter", "Power", "Kind", "Area", "Factors"],
                            "rows": [[i.id, i.power, i.kind, scenario.areas[i.area].title
                                      + (" (in the city)" if i.inside else ""), str(i.factors)]
                                     for i in state.irregulars]})
    if state.stood_down:
        sections.append({"title": "Corps stood down off the map", "columns": ["Corps", "Power"],
                         "rows": [[c.id, c.power] for c in state.stood_down]})
    in_cities = [[lead.id, lead.power, scenario.areas[lead.city].title] for lead in state.leaders if lead.city]
    if in_cities:
        sections.append({"title": "Leaders in a city without a corps (§7.3.3.4)",
                         "columns": ["Leader", "Power", "City"], "rows": in_cities})
    off_map = [lead.id for lead in state.leaders if lead.corps is None and not lead.city]
    if off_map:
        sections.append({"title": "Leaders off the map", "columns": ["Leader"], "rows": [[name] for name in off_map]})
    if state.sieges:
        sections.append({"title": "Sieges", "columns": ["Area", "Besieged by"],
                         "rows": [[scenario.areas[siege.area].title, siege.power] for siege in state.sieges]})
    if state.battles:
        sections.append({"title": "Combats this month", "columns": ["Combat"],
                         "rows": [[describe_battle(scenario, b)] for b in state.battles]})
    return sections


def _map(scenario: Scenario, state: GameState | None) -> dict:
    """The areas where the scenario places them, who owns each, the corps counters (public)
    and depots standing there, its city (§7.5.4: a fortress to besiege) and who besieges it,
    and the borders (a river border is drawn as `river`)."""
    units: dict[str, list[str]] = {}
    if state is not None:
        for c in [*state.corps, *state.irregulars]:
            units.setdefault(c.area, []).append(c.id)
        for d in state.depots:
            units.setdefault(d.area, []).append(f"depot {d.power}")
    else:
        for c in [*scenario.data.corps, *scenario.data.irregulars]:
            if c.area:
                units.setdefault(c.area, []).append(c.id)
    besiegers = {siege.area: siege.power for siege in state.sieges} if state is not None else {}
    areas = [{"id": a.id, "name": a.title + (f" ({a.city.name})" if a.city and a.city.name != a.title else ""),
              "x": a.x, "y": a.y, "kind": "land", "controller": a.owner, "units": units.get(a.id, []),
              "synthetic": a.synthetic, "fortress": a.city is not None, "besieged_by": besiegers.get(a.id)}
             for a in scenario.data.areas]
    links = [{"a": link.a, "b": link.b, "kind": "river" if link.river else "land"} for link in scenario.data.links]
    return {"areas": areas, "links": links}


def scenario_map(scenario: Scenario) -> dict:
    """The map as the scenario sets it up (`pbem scenario check --draw`)."""
    return _map(scenario, None)
