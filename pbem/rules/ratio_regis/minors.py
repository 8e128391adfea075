"""Minor powers (§20; examples §29.2–§29.4): neutral or allied to a major, alliance by auction or
conquest, the minor's reinforcements, and what a change of alliance does.

A minor is its card in the scenario (`Minor`: units, card fortresses, theater, independent or
mercenary, first ally) and its state (`MinorState`: its ally, its counters off the map). An
allied minor's counters on the map are troops, squadrons and fortresses of the ally marked with
the minor's code (`minor`), so every rule that moves and fights the ally's units plays them too
(§20.2: "treated as if they were from the major power", RR-I140); its areas keep no possessor
and are controlled by the ally (RR-I141).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import bidding, deployment
from pbem.rules.ratio_regis.actions import stack_count, stacking_limit
from pbem.rules.ratio_regis.fortresses import alliance_over, in_minor
from pbem.rules.ratio_regis.independents import join, lift_units, rebuild, release
from pbem.rules.ratio_regis.repatriation import repatriate
from pbem.rules.ratio_regis.scenario import Card, Minor, Scenario
from pbem.rules.ratio_regis.state import GameState, Squadron, Troop, regular_quality


def alliance_auction(ctx: DecisionPort, state: GameState, player: str, card: Card, code: str) -> str:
    """§20.3.1: the alliance card's auction among the powers interested in the minor's theater.
    The winner's unrest rises by its bid, one less when it was the minor's ally already
    (renewal), more between a Christian and a Muslim power where a special rule says so (§34,
    RR-I253); with no bid the minor turns neutral (§20.4.1). Returns the chronicle text."""
    scenario: Scenario = ctx.scenario
    minor = scenario.minors[code]
    title = card.title if card.title == minor.name else f"{card.title} ({minor.name})"
    lot = bidding.Lot(title, card.number, "§20.3.1", code)
    bid = bidding.run(ctx, state, player, lot)
    if bid is None:
        return neutral(ctx, state, scenario, code, f"nobody bids for {minor.name}")
    renewal = state.minors[code].ally == bid.power
    interfaith = state.interfaith_diplomacy if scenario.powers[bid.power].muslim != minor.muslim else 0
    cost = max(bid.amount - renewal, 0) + interfaith
    state.powers[bid.power].unrest += cost
    text = (f"{bid.power} wins the alliance of {minor.name} for {bid.amount}"
            + (", one less for renewing it" if renewal else "")
            + (f", {interfaith} more between Christians and Muslims" if interfaith else "")
            + f": its unrest rises by {cost} to {state.powers[bid.power].unrest} (§20.3.1)")
    ctx.say(text, rule="§20.3.1")
    return "; ".join([text, *ally(ctx, state, scenario, code, bid.power, card.title)])


def ally(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, power: str, why: str) -> list[str]:
    """§20.3.1–§20.3.2, §20.4.2: `power` becomes the minor's ally (by card, event or peace,
    §20.3.4). The minor's units leave the map and come back as the new ally's reinforcements
    (§20.3.2, §29.3; a mercenary's eliminated units are rebuilt, §20.6), its card fortresses are
    rebuilt, its areas become the ally's (control markers removed), and the units of every other
    power in them repatriate — except those of powers at war with the new ally, which stay and keep
    the areas they control (RR-I146). Returns the chronicle lines."""
    minor = scenario.minors[code]
    status = state.minors[code]
    before = status.ally
    going = [f.id for f in in_minor(state, before, scenario.minor_areas(code))] if before not in (None, power) else []
    lift_units(ctx, state, code, f"{why}: {minor.name} is allied to {power}", going)
    if minor.mercenary and before != power:
        rebuild(status.eliminated, status.pool, status.squadron_pool)
    status.ally, status.neutral_in = power, []
    areas = scenario.minor_areas(code)
    for area in areas:
        controller = state.areas[area].controller
        if controller is None or not state.at_war(power, controller):
            state.areas[area].controller = power
    texts = [f"{minor.name} is allied to {power}" + (f" (it was {before}'s)" if before and before != power else "")]
    ctx.say(f"{why}: {texts[0]} (§20.3.1)", rule="§20.3.1")
    if before not in (None, power):
        texts += alliance_over(ctx, state, before, areas)
    for other in scenario.power_order:
        if other == power or not _units_in(state, other, areas):
            continue
        if state.at_war(power, other):
            texts += _leave_or_stay(ctx, state, scenario, code, other, f"{minor.name} allied to {power}, your enemy",
                                    "§20.4.2", successor=power)
        else:
            texts += repatriate(state, scenario, ctx, other, areas, why=f"{minor.name} allied to {power}")
    texts += _fortresses(ctx, state, minor, power)
    if minor.independent:
        texts += _join_wars(ctx, state, scenario, code)
    if not status.neutral_in:
        texts += reinforce(ctx, state, scenario, code)
    return texts


def _join_wars(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str) -> list[str]:
    """§20.5, §29.4: "for major powers that are at war and later become allied with one of these
    minor powers, it is right after the alliance when it must be declared if the minor power enters
    the war or not" — one `minorwar` question for all its wars (v1.2.4); v2.1 adds "y en qué
    guerras", one question per war (RR-I256). Default YES; NO keeps it out (RR-I149)."""
    power = state.minors[code].ally
    enemies = [war.enemy(power) for war in state.wars if power in war.sides]
    if not enemies:
        return []
    if state.options.variant != "v2.1":
        return join(ctx, state, scenario, code, enemies)
    return [text for enemy in enemies for text in join(ctx, state, scenario, code, [enemy])]


def deploy_starting_allies(ctx: DecisionPort, state: GameState) -> None:
    """§24, §20.3.2, v2.1 §20.3.4 ("they start with all their military units deployed"): a minor
    allied at the start deploys when its ally does — at the scenario's first turn, or the turn a
    later power enters (§8.1.2). A power deploying by points places the minor's troops as its
    player chooses, after its own purchases (the `reinforce` decision); a fixed deployment is the
    scenario's, so its minors' troops take RR-I148's default (RR-I260). Under v2.1 the minors
    deploying take possession of their areas first, all of them before any unit is placed
    (RR-I263)."""
    scenario: Scenario = ctx.scenario
    by_points = deployment.deploying(state, scenario)
    deploying = []
    for minor in scenario.data.minors:
        power = scenario.starting_ally(minor.code)
        if power is None or state.minors[minor.code].ally != power:
            continue
        fixed = scenario.powers[power].points is None and state.powers[power].active \
            and _enters_now(state, scenario, power)
        if power in by_points or fixed:
            deploying.append((minor.code, power in by_points))
    for code, _ in deploying:
        take_areas(ctx, state, scenario, code)
    for code, ask in deploying:
        deploy_units(ctx, state, scenario, code, ask=ask)


def _enters_now(state: GameState, scenario: Scenario, power: str) -> bool:
    """The power deploys this turn: at the first turn those in play from the start, later those
    entering (§7.2, §8.1.2)."""
    enters = scenario.powers[power].enters
    if state.turn == scenario.data.first_turn:
        return enters is None or enters <= state.turn
    return enters == state.turn


def take_areas(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str) -> None:
    """v2.1 §24 ("Tanto las potencias como los menores toman posesión de sus áreas natales,
    perdiéndolo si se da el caso el antiguo propietario"): under v2.1 a minor deploying takes its
    areas back from any power possessing them — no possessor, an independent marker removed, the
    control of its ally (RR-I141) unless another power occupies the area (RR-I263). v1.2.4's §24
    is about major powers only: the areas stay as they are."""
    if state.options.variant != "v2.1":
        return
    minor = scenario.minors[code]
    ally_power = state.minors[code].ally
    for area in scenario.minor_areas(code):
        status = state.areas[area]
        if status.possessor is None and status.independent is None:
            continue
        former = status.possessor
        if status.controller in (None, former):
            status.controller = ally_power
        status.possessor = status.independent = None
        ctx.say(f"{area} is {minor.name}'s as it deploys" + (f": {former} loses it" if former else "")
                + " (v2.1 §24)", rule="§24 (v2.1)")


def deploy_units(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, *,
                 ask: bool = True) -> list[str]:
    """§24, §20.3.2: a minor deploying with its ally: its card fortresses built and its units
    placed as reinforcements. Returns the chronicle lines."""
    minor = scenario.minors[code]
    power = state.minors[code].ally
    ctx.say(f"{minor.name} deploys with its ally {power} (§24, §20.3.2)", rule="§24, §20.3.2")
    return [*_fortresses(ctx, state, minor, power), *reinforce(ctx, state, scenario, code, ask=ask)]


def abandon(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, why: str) -> list[str]:
    """The minors allied with `power` turn neutral (§23.3 after a dynastic change, §21.6 after a
    collapse: "its minors turn neutral"), in the scenario's order; returns their texts."""
    return [neutral(ctx, state, scenario, minor.code, why) for minor in scenario.data.minors
            if state.minors[minor.code].ally == power]


def neutral(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, why: str) -> str:
    """§20.4.1: the minor's troops leave the map, the eliminated ones too, available for a later
    alliance; rebellions in its areas are removed. Its former ally's control of its areas and its
    fortresses there go (§20.2: "destroyed as soon as the alliance ends"); the card fortresses wait
    to be rebuilt (§20.3.2). Then each major power with units in its areas chooses whether they
    are repatriated (RR-I147). Returns the text."""
    minor = scenario.minors[code]
    status = state.minors[code]
    before = status.ally
    status.ally, status.neutral_in = None, []
    notes = release(ctx, state, scenario, code, before, f"{why}: {minor.name} becomes neutral")
    text = f"{why}: {minor.name} becomes neutral, its units leave the map" + "".join(f"; {n}" for n in notes)
    ctx.say(text + " (§20.4.1)", rule="§20.4.1")
    areas = scenario.minor_areas(code)
    choices = [line for power in scenario.power_order if _units_in(state, power, areas)
               for line in _leave_or_stay(ctx, state, scenario, code, power, f"{minor.name} is neutral", "§20.4.1")]
    return "; ".join([text + " (§20.4.1)", *choices])


def _leave_or_stay(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, power: str, why: str,
                   rule: str, successor: str | None = None) -> list[str]:
    """§20.4.1 ("any major power military units are repatriated if the player decides so") and
    §20.4.2 ("this repatriation is optional for these major powers if the minor power's new ally
    is at war with them"): the power's player answers `minorleave` — `LEAVE <minor>`, its units
    in the minor's areas are repatriated (§14) and the areas it controlled there go to the
    minor's ally (`successor`; none when neutral), or `STAY <minor>` (the default: they keep their
    places and the control they have, RR-I146, RR-I147). A power nobody runs stays."""
    minor = scenario.minors[code]
    player = state.powers[power].player
    leave = False
    if player is not None:
        request = ctx.request(kind="minorleave", player=player, power=power, purpose=f"minorleave-{code}-{power}",
                              default=f"STAY {code}", options=[f"LEAVE {code}", f"STAY {code}"], rule=rule,
                              prompt=f"{why}: are {power}'s units in {minor.name} repatriated (LEAVE {code}) or do "
                                     f"they stay (STAY {code})?",
                              context={"minor": code, "why": why})
        leave = ctx.decide(request).split()[0] == "LEAVE"
    if leave:
        areas = scenario.minor_areas(code)
        for area in areas:
            if state.areas[area].controller == power:
                state.areas[area].controller = successor
        return repatriate(state, scenario, ctx, power, areas, why=f"{why}: {power} leaves")
    text = f"{power}'s units stay in {minor.name} ({rule})"
    ctx.say(text, rule=rule)
    return [text]


def return_eliminated(ctx: DecisionPort, state: GameState) -> None:
    """§23.1.2: units in the eliminated box return to the available pools, the minors' too."""
    back = [code for code, status in state.minors.items() if status.eliminated]
    for code in back:
        status = state.minors[code]
        rebuild(status.eliminated, status.pool, status.squadron_pool)
    if back:
        ctx.say(f"The eliminated units of {', '.join(back)} are available again (§23.1.2)", rule="§23.1.2")


# -- the minor's units ---------------------------------------------------------------------------
def _units_in(state: GameState, power: str, areas: Sequence[str]) -> bool:
    return any(t.power == power and t.area in areas for t in state.troops) \
        or any(s.power == power and s.port in areas for s in state.squadrons) \
        or any(f.power == power and f.area in areas for f in state.fortresses)


def _fortresses(ctx: DecisionPort, state: GameState, minor: Minor, power: str) -> list[str]:
    """§20.3.2: "The minor power's fortresses appearing in his card are reconstructed
    immediately" — in its areas the ally controls (§20.4.2)."""
    built = []
    for area in minor.fortresses:
        if state.fortress_in(area) is None and state.areas[area].controller == power:
            fortress = state.new_fortress(power, area, built=True)
            fortress.minor = minor.code
            built.append(f"{fortress.id} in {area}")
    if not built:
        return []
    text = f"{minor.name}'s card fortresses are rebuilt for {power}: {', '.join(built)} (§20.3.2)"
    ctx.say(text, rule="§20.3.2")
    return [text]


def reinforcement_areas(state: GameState, scenario: Scenario, code: str) -> dict[str, int]:
    """RR-I148: where the minor's troops enter "as reinforcements (see 9.1 Troop construction)":
    like troops the ally builds, in an area it controls — the minor's areas first, then its own
    possessions (§29.3 places Scots in Dublin and Newcastle) — not in revolt, free of enemy troops,
    with room under the stacking limit; a minor's troops stay in its theater (§20.2), a
    mercenary's enter as the ally's own (§20.6). Area -> room, in that order."""
    minor = scenario.minors[code]
    power = state.minors[code].ally
    candidates = [*scenario.minor_areas(code),
                  *[a.id for a in scenario.data.areas if state.areas[a.id].possessor == power]]
    room = {}
    for area in candidates:
        here = state.areas[area]
        if here.controller != power or here.rebellion or not state.exists(area) or area in room:
            continue
        if not minor.mercenary and scenario.areas[area].theater != minor.theater:
            continue
        if any(t.power != power and state.at_war(power, t.power) for t in state.troops_in(area)):
            continue
        free = stacking_limit(state, scenario, area, power) - stack_count(state, area, power)
        if free > 0:
            room[area] = free
    return room


def reinforce(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, *,
              ask: bool = True) -> list[str]:
    """§20.3.2: the ally places all the minor's available troops as reinforcements (a `reinforce`
    decision naming one area per troop, RR-I148; `ask` False: its default, RR-I260) and its
    squadrons under repair, as if built (§9.2), in the first port of those areas."""
    status = state.minors[code]
    power = status.ally
    counters = [counter for counter in sorted(status.pool) for _ in range(status.pool[counter])]
    room = reinforcement_areas(state, scenario, code)
    default = _first_with_room(room, len(counters))
    counters = counters[:len(default)]  # those without room stay on the card
    texts = []
    if counters:
        areas = _placement(ctx, state, scenario, code, counters, room, default) if ask else default
        placed = []
        for counter, area in zip(counters, areas, strict=True):
            troop = Troop(id=f"T{state.next_troop}", power=power, counter=counter, quality=regular_quality(counter),
                          area=area, minor=code)
            state.next_troop += 1
            state.troops.append(troop)
            status.pool[counter] -= 1
            placed.append(f"{troop.id} ({counter}) at {area}")
        texts.append(f"{power} places {scenario.minors[code].name}'s troops as reinforcements: {', '.join(placed)}")
    if any(status.pool.values()):
        texts.append(f"{sum(status.pool.values())} of {scenario.minors[code].name}'s troops find no area with room "
                     f"and stay on its card")
    ports = [a for a in room if scenario.coastal(a)]
    for quality in sorted(status.squadron_pool) if ports else ():
        for _ in range(status.squadron_pool[quality]):
            texts.append(_squadron(state, code, int(quality), ports[0]))
    for text in texts:
        ctx.say(text + " (§20.3.2)", rule="§20.3.2")
    return texts


def _squadron(state: GameState, code: str, quality: int, port: str) -> str:
    """A minor's squadron enters under repair, as if built (§9.2), based at its port (RR-I51)."""
    power = state.minors[code].ally
    state.minors[code].squadron_pool[str(quality)] -= 1
    squadron = Squadron(id=f"S{state.next_squadron}", power=power, quality=quality, port=port, repair=True, base=port,
                        minor=code)
    state.next_squadron += 1
    state.squadrons.append(squadron)
    return f"{power} places {code}'s squadron {squadron.id} under repair at {port}"


def _first_with_room(room: Mapping[str, int], count: int) -> list[str]:
    """RR-I148's default: each troop to the first area in order that still has room."""
    return [area for area, free in room.items() for _ in range(free)][:count]


def _placement(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, counters: list[str],
               room: Mapping[str, int], default: list[str]) -> list[str]:
    player = state.powers[state.minors[code].ally].player or ""
    request = ctx.request(
        kind="reinforce", player=player, power=state.minors[code].ally, purpose=f"reinforce-{code}",
        default=f"REINFORCE {','.join(default)}", options=[f"REINFORCE {len(default)} of {','.join(room)}"],
        prompt=f"{scenario.minors[code].name}'s troops {', '.join(counters)} enter as reinforcements: name one area "
               f"for each, in that order (room: " + ", ".join(f"{a} {n}" for a, n in room.items()) + ")",
        rule="§20.3.2", context={"minor": code, "count": len(default), "room": dict(room)})
    return ctx.decide(request).split()[1].split(",")


def _parse_reinforce(text: str) -> str | None:
    words = text.split()
    if not words or words[0].upper() != "REINFORCE":
        return None
    if len(words) != 2:
        raise Refusal("write REINFORCE <area>,<area>,… (one area per troop, no spaces)")
    return f"REINFORCE {words[1]}"


def _check_reinforce(request: Request, answer: str) -> str:
    """One area per troop, each with room (RR-I148); names are matched ignoring case."""
    room: Mapping[str, int] = request.context["room"]
    names = {area.lower(): area for area in room}
    chosen = answer.split()[1].split(",")
    if len(chosen) != request.context["count"]:
        raise Refusal(f"name {request.context['count']} area(s), one per troop, not {len(chosen)}")
    areas = []
    for word in chosen:
        if word.lower() not in names:
            raise Refusal(f"{word} cannot take the minor's troops (may: {', '.join(room)})")
        areas.append(names[word.lower()])
    for area in dict.fromkeys(areas):
        if areas.count(area) > room[area]:
            raise Refusal(f"{area} has room for {room[area]} troop(s) only (§15.1)")
    return f"REINFORCE {','.join(areas)}"


def _parse_minorwar(text: str) -> str | None:
    words = text.upper().split()
    if not words or words[0] != "MINORWAR":
        return None
    if len(words) != 3 or words[2] not in ("YES", "NO"):
        raise Refusal("write MINORWAR <ENEMY POWER> YES|NO")
    return " ".join(words)


def _parse_minorleave(text: str) -> str | None:
    words = text.upper().split()
    if not words or words[0] not in ("LEAVE", "STAY"):
        return None
    if len(words) != 2:
        raise Refusal("write LEAVE <MINOR> (your units there are repatriated) or STAY <MINOR>")
    return " ".join(words)


def _names(key: str, refusal: str) -> Callable[[Request, str], str]:
    """The check of a two-word answer whose second word must name the request's `key` (the
    enemy of `minorwar`, the minor of `minorleave`); `refusal` says what to write, with {}
    for that name."""
    def check(request: Request, answer: str) -> str:
        if answer.split()[1] != request.context[key]:
            raise Refusal(refusal.format(request.context[key]))
        return answer
    return check


_check_minorwar = _names("enemy", "the question is about the war with {0}: MINORWAR {0} YES|NO")
_check_minorleave = _names("minor", "the question is about {0}: LEAVE {0} or STAY {0}")


MINOR_LEAVE_KIND = LineKind("minorleave", "a minor where you have units turns neutral or allies with your enemy "
                            "(§20.4.1, §20.4.2): LEAVE <MINOR> (they are repatriated) | STAY <MINOR>",
                            parse=_parse_minorleave, form=lambda answer: answer, check=_check_minorleave,
                            keywords=("LEAVE", "STAY"))
MINOR_WAR_KIND = LineKind("minorwar", "whether your independent minor enters your war (§20.5): "
                          "MINORWAR <ENEMY> YES|NO", parse=_parse_minorwar, form=lambda answer: answer,
                          check=_check_minorwar, keywords=("MINORWAR",))
REINFORCE_KIND = LineKind("reinforce", "where an allied minor's troops enter as reinforcements (§20.3.2): "
                          "REINFORCE <area>,<area>,…", parse=_parse_reinforce, form=lambda answer: answer,
                          check=_check_reinforce, keywords=("REINFORCE",))
