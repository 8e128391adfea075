"""What each viewer may see (DESIGN §5): the GM everything, `public` what any player
may see, a player id the public view plus that player's own hand. Sealed bids enter
the state only once revealed, so no view can leak them. Its `turn_label`, `powers` (each
with its holder), `players`, `sections` and `map` are the part pbem itself reads
(`pbem.core.view.GameView`); the rest is the game's own, for cases and the GM."""

from __future__ import annotations

from functools import lru_cache

from pbem.rules.ratio_regis.auction import groups_for
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import CLOCKWISE, FINISHED, GameState
from pbem.rules.ratio_regis.victory import standings


def view(state: GameState, scenario: Scenario, viewer: str) -> dict:
    names = {p.id: p.name for p in state.players}
    placed = _troops_by_area(state)
    units = _units(state)
    return {
        "turn_label": scenario.turn_label(state.turn),
        "turn": state.turn,
        "phase": state.phase,
        "impulse": _impulse(state, names),
        "winners": list(state.winners),
        "powers": {code: _power(state, scenario, code) for code in scenario.power_order},
        "players": {p.id: {"name": p.name, "vp": p.vp, "game_order": p.game_order, "seat": p.seat,
                           "cards_in_hand": len(p.hand), "bid": p.bid, "vp_per_turn": p.vp_per_turn,
                           "group": p.group}
                    for p in state.players},
        "wars": [{"sides": list(w.sides), "morale": dict(sorted(w.morale.items())), "cause": w.cause,
                  "card": w.card, "card_vp": w.card_vp} for w in state.wars],
        "alliances": [list(pair) for pair in state.alliances],
        "casus_belli": [f"{holder}>{against}" for holder, against in state.casus_belli],
        "merchants": _by_center(state.merchants),
        "merchants_built": _by_center(state.merchants_built),
        "trade_interrupted": [a.id for a in scenario.data.areas if state.areas[a.id].razed],
        "units": units,
        "control": {a.id: state.areas[a.id].controller for a in scenario.data.areas if state.exists(a.id)},
        "revolts": {a.id: state.areas[a.id].rebellion for a in scenario.data.areas if state.areas[a.id].rebellion},
        "independents": {a.id: state.areas[a.id].independent for a in scenario.data.areas
                         if state.areas[a.id].independent and state.exists(a.id)},
        "inactive": list(state.inactive),
        # the viewer's own hand, card numbers in hand order (a queued block may test `hand HAS 12`)
        "hand": next((list(p.hand) for p in state.players if p.id == viewer), []),
        "minors": {code: minor.ally for code, minor in state.minors.items()},  # None: neutral (§20.1)
        "technology": dict(sorted(state.technology.items())),
        "sections": _sections(state, scenario, viewer, placed, units),
        "closing": [vp_table(state, scenario)] if viewer == "gm" or state.phase == FINISHED else [],
        "map": _draw_map(scenario, lambda area: state.areas[area].controller, _units_drawn(state, placed).get,
                         tuple(state.inactive), fortified=frozenset(f.area for f in state.fortresses),
                         besieged=lambda area: state.areas[area].besieger),
    }


def _units_drawn(state: GameState, placed: dict[str, list[str]]) -> dict[str, list[str]]:
    """The counters the map shows in each area and sea: troops, then squadrons in port or
    at sea (counters are open, §9)."""
    drawn = {area: list(troops) for area, troops in placed.items()}
    for squadron in state.squadrons:
        where = squadron.sea or squadron.port
        if where:
            drawn.setdefault(where, []).append(squadron.id)
    return drawn


def _troops_by_area(state: GameState) -> dict[str, list[str]]:
    """The troops standing in each area, in the state's order (one pass, not one per area)."""
    placed: dict[str, list[str]] = {}
    for troop in state.troops:
        if troop.area:
            placed.setdefault(troop.area, []).append(troop.id)
    return placed


def _units(state: GameState) -> dict[str, str]:
    """Every unit on the map or in a box, with where it is (public: counters are open)."""
    units = {t.id: t.where() + (" veteran" if t.veteran else "") + _of_minor(t.minor) for t in state.troops}
    units.update({s.id: s.where() + _of_minor(s.minor) for s in state.squadrons})
    units.update({f.id: f.area + ("" if f.built else " (under construction)") + _of_minor(f.minor)
                  for f in state.fortresses})
    units.update({lead.id: f"on {lead.unit}" + (" extraordinary" if lead.extraordinary else "")
                  for lead in state.leaders})
    return units


def _of_minor(minor: str | None) -> str:
    """An allied minor's counter says whose it is (RR-I140)."""
    return f" ({minor})" if minor else ""


def _impulse(state: GameState, names: dict[str, str]) -> dict | None:
    half = state.half
    if half is None or half.first is None:
        return None
    return {"number": half.impulse, "current": half.current, "first": half.first,
            "direction": "clockwise" if half.direction == CLOCKWISE else "counter-clockwise"}


def _power(state: GameState, scenario: Scenario, code: str) -> dict:
    power, card = state.powers[code], scenario.powers[code]
    return {"name": card.name, "player": power.player, "unrest": power.unrest, "vitality": card.vitality,
            "morale": power.morale, "revolt_maintenance": power.revolt_maintenance,
            "income": card.income, "active": power.active, "at_war": state.at_war(code),
            "available": dict(sorted(power.pool.items())), "synthetic": card.synthetic}


def _sections(state: GameState, scenario: Scenario, viewer: str, placed: dict[str, list[str]],
              units: dict[str, str]) -> list[dict]:
    sections = []
    for player in state.players:
        if viewer in ("gm", player.id):
            title = "Your hand" if viewer == player.id else f"Hand of {player.name}"
            sections.append({"title": title, "columns": ["Card", "Title", "Points", "Kind", "Priority"],
                             "rows": [_card_row(scenario, n) for n in player.hand]})
    sections.append({"title": "Players", "columns": ["Player", "Game order", "Seat", "VP", "Cards", "Powers"],
                     "rows": [[p.name, str(p.game_order or "-"), str(p.seat), str(p.vp), str(len(p.hand)),
                               " ".join(state.powers_of(p.id, scenario))] for p in state.players]})
    groups = groups_for(state, scenario)
    owners = {p.group: p.name for p in state.players if p.group is not None}
    sections.append({"title": "Power groups", "columns": ["Group", "Powers", "Starting VP", "VP per turn", "Player"],
                     "rows": [[str(n), " ".join(g.powers), str(g.starting_vp), str(g.vp_per_turn),
                               owners.get(n, "-")] for n, g in enumerate(groups, start=1)]})
    sections.append({"title": "Powers", "columns": ["Power", "Player", "Vitality", "Unrest", "2-3 left", "3-4 left"],
                     "rows": [[code, state.powers[code].player or "-", str(scenario.powers[code].vitality),
                               str(state.powers[code].unrest), str(state.powers[code].pool.get("2-3", 0)),
                               str(state.powers[code].pool.get("3-4", 0))]
                              for code in scenario.power_order if state.powers[code].active]})
    sections.append({"title": "Forces", "columns": ["Unit", "Power", "Quality", "Where"],
                     "rows": [[t.id, t.power, f"Q{t.quality}", t.where()] for t in state.troops]
                     + [[s.id, s.power, f"S{s.quality}", s.where()] for s in state.squadrons]
                     + [[f.id, f.power, "fortress", units[f.id]] for f in state.fortresses]
                     + [[lead.id, lead.power, scenario.leaders[lead.id].ability + (" (extraordinary)"
                                                                                  if lead.extraordinary else ""),
                         f"on {lead.unit}"] for lead in state.leaders]})
    if state.wars:
        sections.append({"title": "Wars", "columns": ["War", "Morale held", "Cause"],
                         "rows": [[" – ".join(w.sides), ", ".join(f"{p} {w.morale.get(p, 0)}" for p in w.sides),
                                   w.cause] for w in state.wars]})
    if state.alliances:
        sections.append({"title": "Alliances (until the end of the turn)", "columns": ["Allies", "Ceded troops"],
                         "rows": [[" – ".join(pair), " ".join(t for t, giver in sorted(state.expeditions.items())
                                                             if giver in pair) or "-"] for pair in state.alliances]})
    if scenario.data.trade_centers:
        sections.append(_trade_section(state, scenario))
    sections.append({"title": "Areas", "columns": ["Area", "Theater", "Possessor", "Controller", "Troops"],
                     "rows": [[a.id, a.theater, state.areas[a.id].possessor or "-", _controller(state, a.id),
                               " ".join(placed.get(a.id, []))]
                              for a in scenario.data.areas if state.exists(a.id)]})
    if state.discard:
        sections.append({"title": "Cards played this turn", "columns": ["Card", "Title", "Points", "Kind", "Priority"],
                         "rows": [_card_row(scenario, n) for n in state.discard]})
    return sections


def vp_table(state: GameState, scenario: Scenario) -> dict:
    """The VP table the GM's report, and every report at the game's end, closes with: each
    player in standing order (ties by game order, §23), its powers, VP, and the VP of the last
    turn counted line by line (§22, §23.1.3); the winner in the title once the game is over."""
    counted = max((line.turn for line in state.vp_lines), default=None)
    names = {p.id: p.name for p in state.players}
    title = "Victory points"
    if state.phase == FINISHED:
        title += ": the game is over, " + (" and ".join(names[w] for w in state.winners) or "nobody") + " won"
    rows = []
    for player in standings(state):
        lines = [line for line in state.vp_lines if line.turn == counted and line.player == player.id]
        breakdown = "; ".join(f"{line.power + ' ' if line.power else ''}{line.source} {line.vp:+d}" for line in lines)
        rows.append([player.name, " ".join(state.powers_of(player.id, scenario)), str(player.vp),
                     str(sum(line.vp for line in lines)) if lines else "-", breakdown or "-"])
    column = f"Turn {counted}" if counted is not None else "Last turn"
    return {"title": title, "columns": ["Player", "Powers", "VP", column, "Breakdown"], "rows": rows}


def _by_center(merchants: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Merchants by trade center and power, both sorted, without empty centers (§19.2)."""
    return {center: dict(sorted(held.items())) for center, held in sorted(merchants.items()) if held}


def _trade_section(state: GameState, scenario: Scenario) -> dict:
    """The trade centers (§19.2): capacity, the merchants in each and those built this turn
    that may enter at the next turn start; the markers are public."""
    def listed(held: dict[str, int]) -> str:
        return " ".join(f"{power} {n}" for power, n in sorted(held.items()) if n) or "-"
    return {"title": "Trade centers", "columns": ["Trade center", "Capacity", "Merchants", "Built, entering next turn"],
            "rows": [[center.id, str(center.capacity), listed(state.merchants.get(center.id, {})),
                      listed(state.merchants_built.get(center.id, {}))] for center in scenario.data.trade_centers]}


def _controller(state: GameState, area: str) -> str:
    """The controller as the Areas table shows it: a revolt or an active independent area
    is named with its level (§18.2.2, §18.3)."""
    status = state.areas[area]
    if status.rebellion:
        return f"{status.controller or '-'} (in revolt, {status.rebellion})"
    if status.independent:
        return f"independent ({status.independent})"
    return status.controller or "-"


def _card_row(scenario: Scenario, number: int) -> list[str]:
    card = scenario.cards[number]
    kind = "combat" if card.combat else card.kind
    priority = {"always": "priority", "hand4": "priority at 4 cards", "none": ""}[card.priority]
    return [str(number), card.title, str(card.points), kind, priority]


def scenario_map(scenario: Scenario) -> dict:
    """The map as the scenario sets it up, before any play (`pbem scenario check --draw`)."""
    deployed: dict[str, list[str]] = {}
    for entry in scenario.data.deployment:
        if entry.area is not None:
            deployed.setdefault(entry.area, []).extend([f"{entry.power} {entry.counter}"] * entry.count)
    return _draw_map(scenario, lambda area: scenario.areas[area].controller or scenario.areas[area].possessor,
                     lambda area: deployed.get(area, []), tuple(a.id for a in scenario.data.areas if not a.active))


def _draw_map(scenario: Scenario, controller_of, units_in, hidden: tuple[str, ...], *,
              fortified: frozenset[str] = frozenset(), besieged=lambda area: None) -> dict:
    """The map's areas in play (§18.2.1: the `hidden`, inactive ones are not drawn), seas and links,
    with the fortresses (§9.4) and who besieges them (§13.4)."""
    areas = scenario.data.areas
    return _map(scenario, tuple(controller_of(a.id) for a in areas),
                tuple(tuple(units_in(a.id) or ()) for a in [*areas, *scenario.data.seas]), hidden,
                tuple(a.id in fortified for a in areas), tuple(besieged(a.id) for a in areas))


@lru_cache(maxsize=16)
def _map(scenario: Scenario, control: tuple[str | None, ...], units: tuple[tuple[str, ...], ...],
         hidden: tuple[str, ...], forts: tuple[bool, ...], besiegers: tuple[str | None, ...]) -> dict:
    """One map object per content, whoever views it and at whichever step: the reports
    check and draw a map once (so it is read, never changed)."""
    land = scenario.data.areas
    areas = [{"id": a.id, "name": a.name, "x": a.x, "y": a.y, "kind": "land", "controller": controller,
              "units": list(placed), "synthetic": a.synthetic, "fortress": fort, "besieged_by": besieger}
             for a, controller, placed, fort, besieger in zip(land, control, units, forts, besiegers, strict=False)
             if a.id not in hidden]
    areas += [{"id": s.id, "name": s.name, "x": s.x, "y": s.y, "kind": "sea", "controller": None,
               "units": list(fleet), "synthetic": s.synthetic}
              for s, fleet in zip(scenario.data.seas, units[len(land):], strict=True)]
    return {"areas": areas, "links": list(_links(scenario, hidden))}


@lru_cache(maxsize=16)
def _links(scenario: Scenario, hidden: tuple[str, ...]) -> tuple[dict, ...]:
    """The map's borders, coasts and sea lanes: fixed by the scenario and the areas not in
    play, so drawn up once."""
    links = []
    for area in scenario.data.areas:
        if area.id in hidden:
            continue
        links += [{"a": area.id, "b": other, "kind": "land"} for other in area.adjacent
                  if area.id < other and other not in hidden]
        links += [{"a": area.id, "b": sea, "kind": "coast"} for sea in area.seas]
    for sea in scenario.data.seas:
        links += [{"a": sea.id, "b": other, "kind": "sea"} for other in sea.adjacent if sea.id < other]
    return tuple(links)
