"""Independent areas and rebellions (§18.2–§18.3; examples §27.2, §28.12, §30.2).

An event card brings inactive independent areas into play as A2 or A3 (§18.2.1 → §18.2.2,
RR-I82) and places rebellions, R2 or R3, in the areas it lists, the player of the card
choosing where within §18.3's limits (RR-I80). What a revolt does is ruled where it
applies (RR-I83): the possessor keeps possession but loses control — no strategic tracing
(`movement.controls`), no naval base (`naval.bases`), no retreat or evasion into it
(`retreat.retreat_areas`), no interception or opposition from or through it (`tactical`),
no recruiting, regrouping or fortress building (`actions`, `naval`, `fortresses`); the
revolt fights whoever subjugates it, never a fortress (`tactical.subjugate_area`);
subjugation ends it (`control.take_control`). At turn end each rebellion adds 1 to its
possessor's expenses (`economy.account`, §23.1.1), and social agitation places R2 revolts
through `place` (`agitation.py`, §23.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.scenario import Activation, Card, Rebellion, Scenario
from pbem.rules.ratio_regis.state import GameState


# -- inactive and active independent areas (§18.2) -----------------------------
def activate(state: GameState, scenario: Scenario, activation: Activation) -> list[str]:
    """§18.2.1 → §18.2.2: each inactive area named comes into play as an active independent
    area of the event's level (else the area's own, RR-I82); major powers may then enter and
    subjugate it. An area already in play is left as it is."""
    texts = []
    for area in activation.areas:
        level = activation.level or scenario.areas[area].independent
        if state.exists(area):
            texts.append(f"{area} is in play already (§18.2.2)")
            continue
        state.inactive.remove(area)
        state.areas[area].independent = level
        texts.append(f"{area} becomes an active independent area ({level}): major powers may enter and subjugate "
                     f"it (§18.2.2)")
    return texts


# -- rebellions placed by an event (§18.3) --------------------------------------
def listed_areas(state: GameState, scenario: Scenario, rebellion: Rebellion) -> list[str]:
    """The areas an event's rebellion may go to, in the order of RR-I80's default: the
    `areas` as written, then those of its provinces, minors and powers' possessions in the
    scenario's order; only areas in play, not independent and not in revolt already."""
    named = list(rebellion.areas)
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if area.province in rebellion.provinces or area.minor in rebellion.minors \
                or (status.possessor is not None and status.possessor in rebellion.powers):
            named.append(area.id)
    found = []
    for area in named:
        status = state.areas[area]
        if area not in found and state.exists(area) and not status.rebellion and not status.independent:
            found.append(area)
    return found


def military_units(state: GameState, area: str) -> list[str]:
    """§18.3: the fortress (finished or not), troops and squadrons in port in an area."""
    units = [f.id for f in state.fortresses if f.area == area]
    units += [t.id for t in state.troops_in(area)]
    units += [s.id for s in state.squadrons if s.port == area]
    return units


def limit_faults(state: GameState, scenario: Scenario, area: str) -> list[str]:
    """Why §18.3's limits keep a rebellion out of `area` (empty: it may go there): a key
    area, a commercial port, an area with military units, or the last area without revolt
    of its province or minor power (the scenario's `province` and `minor`)."""
    card = scenario.areas[area]
    faults = []
    if card.key:
        faults.append("is a key area")
    if card.port:
        faults.append("is a commercial port")
    units = military_units(state, area)
    if units:
        faults.append(f"has military units ({', '.join(units)})")
    groups = [("province", card.province, scenario.province_areas), ("minor power", card.minor, scenario.minor_areas)]
    for what, name, members in groups:
        if name is None:
            continue
        calm = [a for a in members(name) if state.exists(a) and not state.areas[a].rebellion]
        if calm == [area]:
            faults.append(f"is the last area of the {what} {name} without revolt")
    return faults


def place_rebellions(state: GameState, scenario: Scenario, judge: DecisionPort, player: str, card: Card,
                     rebellion: Rebellion, chosen: list[str]) -> list[str]:
    """§18.3: an event's rebellions, placed by the player of the card (`place`); the PLAY
    line's `PLACE` names their areas in order (`chosen`)."""
    return place(state, scenario, judge, player, card.title, {"card": card.number}, rebellion, chosen)


def place(state: GameState, scenario: Scenario, judge: DecisionPort, player: str, source: str,
          context: dict[str, Any], rebellion: Rebellion, chosen: list[str], power: str | None = None) -> list[str]:
    """§18.3: `rebellion.count` revolts of its level, one at a time (RR-I80). Each goes to a
    listed area that meets the limits; when none does, the limits are dropped for it and any
    listed area without revolt will do (§18.3: "the previous requirements are ignored").
    `player` chooses (for `power`, when a power's own revolts are placed): the next name of
    `chosen` (consumed in order), else a `rebellion` decision when there is a choice, default
    the first eligible area in the listed order. `source` names the cause in the prompt,
    `context` adds to the request's. Returns the chronicle lines."""
    texts = []
    for number in range(1, rebellion.count + 1):
        candidates = listed_areas(state, scenario, rebellion)
        if not candidates:
            texts.append(f"no listed area is left without revolt: rebellion {number} of {rebellion.count} is not "
                         f"placed (§18.3)")
            break
        eligible, dropped = candidates, False
        if rebellion.limits:
            fitting = [a for a in candidates if not limit_faults(state, scenario, a)]
            eligible, dropped = (fitting, False) if fitting else (candidates, True)
        asked = _Ask(player, power, source, context)
        area = _choose(state, scenario, judge, asked, rebellion, number, eligible, dropped, chosen)
        state.areas[area].rebellion = rebellion.level
        why = "; no listed area meets §18.3's limits, so they are ignored" if dropped else ""
        possessor = state.areas[area].possessor or scenario.areas[area].minor or "nobody"
        texts.append(f"a rebellion {rebellion.level} breaks out in {area} ({possessor} keeps possession but loses "
                     f"control){why} (§18.3)")
    return texts


@dataclass(frozen=True)
class _Ask:
    """Who chooses a revolt's area, and what caused the revolt."""

    player: str
    power: str | None
    source: str
    context: dict[str, Any]


def _choose(state: GameState, scenario: Scenario, judge: DecisionPort, asked: _Ask, rebellion: Rebellion,
            number: int, eligible: list[str], dropped: bool, chosen: list[str]) -> str:
    if chosen:
        word = chosen.pop(0)
        area = scenario.find_area(word)
        if area in eligible:
            return area
        raise IllegalOrder(f"PLACE {word}: " + _refusal(state, scenario, rebellion, area, word)
                           + f"; rebellion {number} of {rebellion.count} may go to {', '.join(eligible)} (§18.3)")
    if len(eligible) == 1:
        return eligible[0]
    limits = "dropped: no listed area meets them" if dropped else "kept"
    request = judge.request(
        kind="rebellion", player=asked.player, power=asked.power, purpose="rebellion",
        default=f"PLACE {eligible[0]}", options=[f"PLACE {a}" for a in eligible] + ["PLACE AUTO"],
        prompt=f"{asked.source}: choose the area of rebellion {number} of {rebellion.count} ({rebellion.level})"
               + (" — no listed area meets §18.3's limits, so they are dropped" if dropped else ""),
        rule="§18.3",
        context={**asked.context, "level": rebellion.level, "number": number, "of": rebellion.count,
                 "limits": limits, "eligible": tuple(eligible), "count": 1, "noun": "area"})
    return judge.decide(request).split()[-1]


def _refusal(state: GameState, scenario: Scenario, rebellion: Rebellion, area: str | None, word: str) -> str:
    if area is None:
        return f"no area is called {word!r}"
    if area not in listed_areas(state, scenario, rebellion):
        if state.areas[area].rebellion:
            return f"{area} is in revolt already"
        return f"{area} is not among the areas the event lists (or not in play)"
    return f"{area} " + " and ".join(limit_faults(state, scenario, area))


def rebellions_of(card: Card) -> list[Rebellion]:
    return [effect.rebellion for effect in card.effects if effect.rebellion is not None]


def check_chosen(card: Card, chosen: Sequence[str]) -> None:
    """The PLAY line's `PLACE` names one area per rebellion the event places."""
    total = sum(r.count for r in rebellions_of(card))
    if chosen and not total:
        raise IllegalOrder(f"PLACE names the areas of an event's rebellions; {card.title} places none")
    if chosen and len(chosen) != total:
        raise IllegalOrder(f"{card.title} places {total} rebellion(s): PLACE names {total} area(s), not "
                           f"{len(chosen)}")
