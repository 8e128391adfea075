"""Deployment by points (§7.2, §24; example §26.3), for the powers a scenario gives points
instead of a fixed deployment, at the start and when they enter later (§8.1.2).

Every power deploying in a turn is asked at once (a sealed batch, §7.2 "the deployment is
done simultaneously"), one `DEPLOY` line per power:

    DEPLOY FRA SQUADRON 2 @WM; MERCHANT WM; FORTRESS Lyon; FORTRESS Paris BUILDING; 3 TROOP 3-4 Tours

Each purchase costs its points (§24): a troop 1; a squadron under repair 1, operational 2; a
fortress under construction 1, operational 2; a leader 1 (drawn at random, RR-I204); a merchant
1, straight into its trade center; lowering unrest by 1, 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refused, not_owed
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.leaders import EXTRAORDINARY_UNREST
from pbem.rules.ratio_regis.recruitment import elite_refusal
from pbem.rules.ratio_regis.scenario import ABILITY_ORDER, Scenario
from pbem.rules.ratio_regis.state import GameState, Leader, first_unit, regular_quality

KIND = "deployment"
KEYWORD = "DEPLOY"


@dataclass(frozen=True)
class Purchase:
    """One purchase of a deployment line: `what` (TROOP, SQUADRON, FORTRESS, LEADER,
    MERCHANT, UNREST), how many, and its words."""

    what: str
    count: int = 1
    kind: str = ""  # a troop's counter, a squadron's quality
    place: str = ""  # an area, @sea, or a trade center
    cheap: bool = False  # a squadron under repair, a fortress under construction
    extra_if: tuple[str, ...] = ()  # a leader: the abilities whose extraordinary side it takes

    @property
    def cost(self) -> int:
        if self.what in ("SQUADRON", "FORTRESS"):
            return self.count * (1 if self.cheap else 2)
        return self.count

    def text(self) -> str:
        words = [str(self.count)] if self.count > 1 else []
        words += [self.what, self.kind, self.place]
        if self.cheap:
            words.append("REPAIR" if self.what == "SQUADRON" else "BUILDING")
        if self.extra_if:
            words += ["EXTRA-IF", ",".join(self.extra_if).upper()]
        return " ".join(w for w in words if w)


def parse_purchases(text: str) -> list[Purchase]:
    """The purchases of a deployment line's body; `ValueError` says what cannot be read."""
    purchases = []
    for part in (p.strip() for p in text.split(";")):
        if not part or part.upper() == "NOTHING":
            continue
        words = part.split()
        count = 1
        if words[0].isdigit():
            count, words = int(words[0]), words[1:]
        if count < 1 or not words:
            raise ValueError(f"{part!r}: write [<n>] <purchase>")
        purchases.append(_purchase(part, words[0].upper(), count, words[1:]))
    return purchases


def _purchase(part: str, what: str, count: int, rest: list[str]) -> Purchase:
    flags = [w.upper() for w in rest]
    if what == "TROOP" and len(rest) == 2 and rest[0] in ("2-3", "3-4"):
        return Purchase(what, count, rest[0], rest[1])
    if what == "SQUADRON" and len(rest) in (2, 3) and rest[0] in ("2", "3") and flags[2:] in ([], ["REPAIR"]):
        return Purchase(what, count, rest[0], rest[1], cheap=len(rest) == 3)
    if what == "FORTRESS" and len(rest) in (1, 2) and flags[1:] in ([], ["BUILDING"]):
        return Purchase(what, count, "", rest[0], cheap=len(rest) == 2)
    if what == "LEADER" and count == 1 and (len(rest) == 1 or (len(rest) == 3 and flags[1] == "EXTRA-IF")):
        extra = tuple(a.strip().lower() for a in rest[2].split(",")) if len(rest) == 3 else ()
        unknown = [a for a in extra if a not in (*ABILITY_ORDER, "any")]
        if unknown:
            raise ValueError(f"{part!r}: unknown ability {unknown[0]!r} (known: {', '.join(ABILITY_ORDER)}, any)")
        return Purchase(what, 1, "", rest[0], extra_if=extra)
    if what == "MERCHANT" and len(rest) == 1:
        return Purchase(what, count, "", rest[0])
    if what == "UNREST" and not rest:
        return Purchase(what, count)
    raise ValueError(f"{part!r} cannot be read: write [<n>] TROOP 2-3|3-4 <area>, SQUADRON 2|3 <port>|@<sea> "
                     f"[REPAIR], FORTRESS <area> [BUILDING], LEADER <area>|@<sea> [EXTRA-IF <ability>,…|ANY], "
                     f"[<n>] MERCHANT <trade center>, [<n>] UNREST, or NOTHING")


def form(power: str, purchases: Sequence[Purchase]) -> str:
    return f"{KEYWORD} {power} " + ("; ".join(p.text() for p in purchases) or "NOTHING")


def check_purchases(purchases: Sequence[Purchase], context: Mapping[str, Any]) -> str:
    """Why the purchases cannot be made with the power's points, counters and places (the
    request's `context`), or "" (§24, §9, §15.1, §19.2.2)."""
    cost = sum(p.cost for p in purchases)
    if cost > context["points"]:
        return (f"these purchases cost {cost} points and {context['power']} has {context['points']} (§24): "
                + ", ".join(f"{p.text()} {p.cost}" for p in purchases))
    troops, squadrons = dict(context["troops"]), dict(context["squadrons"])
    room, merchants = dict(context["room"]), dict(context["merchant_room"])
    units, fortified = set(context["units_at"]), set(context["fortified"])
    for p in purchases:
        problem = _check_one(p, context, troops, squadrons, room, merchants, units, fortified)
        if problem:
            return f"{p.text()}: {problem}"
    return ""


def _check_one(p: Purchase, context: Mapping[str, Any], troops: dict, squadrons: dict, room: dict,
               merchants: dict, units: set, fortified: set) -> str:
    """One purchase against what the purchases before it left (the dicts and sets are updated)."""
    areas, ports, seas = context["areas"], context["ports"], context["seas"]
    if p.what == "TROOP":
        if p.place not in areas:
            return f"a troop is deployed in the power's home areas and domains in play ({', '.join(areas)}) (RR-I201)"
        troops[p.kind] = troops.get(p.kind, 0) - p.count
        room[p.place] = room.get(p.place, 0) - p.count
        if troops[p.kind] < 0:
            return f"the card has not so many {p.kind} counters left (§9.1)"
        if room[p.place] < 0:
            return f"over the stacking limit of {p.place} (§15.1)"
        if p.kind == "3-4" and p.place in context["no_elite"]:  # points are spent as actions are (§24)
            return context["no_elite"][p.place]
    elif p.what == "SQUADRON":
        sea = p.place[1:] if p.place.startswith("@") else None
        if (sea is None and p.place not in ports) or (sea is not None and sea not in seas):
            return f"a squadron is deployed in a port of the power ({', '.join(ports) or 'none'}) or at a sea next to " \
                   f"one ({', '.join('@' + s for s in seas) or 'none'}) (§9.2)"
        if sea is not None and p.cheap:
            return "a squadron under repair stands in a port (§9.3)"
        squadrons[p.kind] = squadrons.get(p.kind, 0) - p.count
        if squadrons[p.kind] < 0:
            return f"the card has not so many Q{p.kind} squadrons left (§9.2)"
    elif p.what == "FORTRESS":
        if p.place not in areas or p.place in fortified or p.count > 1:
            return "one fortress per area, in the power's home areas and domains in play without one (§9.4)"
        fortified.add(p.place)
    elif p.what == "MERCHANT":
        if p.place not in merchants:
            return f"unknown trade center (known: {', '.join(context['merchant_room'])})"
        merchants[p.place] -= p.count
        if merchants[p.place] < 0:
            return "the trade center is full, or the power has 2 merchants there (§19.2.2)"
    elif p.what == "LEADER":
        if p.place not in units:
            return "a leader goes on a unit of the power: deploy one there first (§17.2)"
    if p.what in ("TROOP", "FORTRESS", "SQUADRON"):
        units.add(p.place)
    return ""


@dataclass(frozen=True)
class DeploymentKind(DecisionKind):
    """`DEPLOY <power> <purchase>; …` answers that power's deployment (a line per power)."""

    name: str = KIND
    description: str = "a power's deployment by points (§7.2, §24): DEPLOY <power> <purchase>; <purchase> …"
    keywords: tuple[str, ...] = (KEYWORD,)

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        words = text.split(None, 2)
        if not words or words[0].upper() != KEYWORD:
            return None
        if len(words) < 3:
            return Refused("write DEPLOY <power> <purchase>; <purchase> … (or NOTHING)")
        power = words[1].upper()
        mine = [r for r in owed if r.kind == KIND]
        if not mine:
            return Refused(not_owed(KIND, owed))
        request = next((r for r in mine if r.power == power), None)
        if request is None:
            return Refused(f"you owe no deployment for {power} (you owe: {', '.join(r.power for r in mine)})")
        try:
            purchases = parse_purchases(words[2])
        except ValueError as error:
            return Refused(str(error))
        problem = check_purchases(purchases, request.context)
        if problem:
            return Refused(problem, form(power, purchases))
        return Answered(request, form(power, purchases), f"{KIND}: {form(power, purchases)}")

    def answer_policy(self, text: str, request: Request) -> str | None:
        words = text.split(None, 1)
        if len(words) == 2 and words[0].upper() == KEYWORD:
            words = words[1].split(None, 1)
        if len(words) != 2 or words[0].upper() != request.power:
            return None
        try:
            purchases = parse_purchases(words[1])
        except ValueError:
            return None
        return None if check_purchases(purchases, request.context) else form(request.power, purchases)

    def check_policy(self, text: str) -> str:
        return "a deployment is answered by a DEPLOY line each turn a power deploys, not by a policy"

    def order_form(self, request: Request) -> str:
        return str(request.default)


DEPLOYMENT_KIND = DeploymentKind()


# -- the rules: who deploys, what they may buy, the purchases made ----------------------
def deploying(state: GameState, scenario: Scenario) -> list[str]:
    """The powers that deploy by points this turn, in the scenario's order: at the
    scenario's first turn those in play, later those entering (§7.2, §8.1.2), and those
    redeploying after a dynastic change (§23.3, RR-I210). RR-I208: a power in no player's group
    does not appear (§33.4 "for 2 players the Catholic League does not appear")."""
    first = state.turn == scenario.data.first_turn
    return [code for code in scenario.power_order if state.powers[code].player is not None
            and (state.powers[code].redeployment > 0
                 or (scenario.powers[code].points is not None
                     and (scenario.powers[code].enters == state.turn
                          or (first and scenario.powers[code].enters in (None, state.turn)))))]


def deploy_by_points(ctx: DecisionPort, state: GameState) -> None:
    """§7.2, §24, §8.1.2: each deploying power marks its home areas and domains, sets its
    unrest, and spends its points as its player chooses — all powers at once."""
    scenario: Scenario = ctx.scenario
    powers = deploying(state, scenario)
    for code in powers:
        if not state.powers[code].redeployment:  # a power redeploying keeps its possessions and revolts (§23.3)
            take_possession(ctx, state, scenario, code)
    requests = [_request(ctx, state, scenario, code) for code in powers]
    for code, answer in zip(powers, ctx.decide_all(requests), strict=True):
        purchases = parse_purchases(str(answer).split(None, 2)[2])
        placed = [_buy(ctx, state, scenario, code, p) for p in purchases]
        state.powers[code].redeployment = 0
        ctx.say(f"{scenario.powers[code].name} deploys: " + ("; ".join(placed) or "nothing")
                + f"; unrest {state.powers[code].unrest}", rule="§24")


def take_possession(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """§24: the power's unrest starts at its vitality (or the scenario's figure); its home
    areas and domains in play are marked as its own, and rebellions in its home areas are
    removed (RR-I209: a domain keeps the revolt the scenario placed, §34 turn 1 Sarajevo).
    Under v2.1 a domain is taken only if it was independent or nobody's (§24 v2.1)."""
    card = scenario.powers[power]
    state.powers[power].active = True
    state.powers[power].unrest = card.unrest if card.unrest is not None else card.vitality
    for area in [*card.home_areas, *card.domains]:
        status = state.areas[area]
        if not state.exists(area):
            continue
        if area in card.domains and state.options.variant == "v2.1" \
                and status.possessor not in (None, power) and status.independent is None:
            ctx.say(f"{area} stays {status.possessor}'s: under v2.1 a domain is taken only if it was independent",
                    rule="§24 (v2.1)")
            continue
        status.possessor = status.controller = power
        status.independent = None
        if area in card.home_areas and status.rebellion:
            ctx.say(f"the rebellion ({status.rebellion}) in {area} is removed as {power} deploys", rule="§24")
            status.rebellion = None


def own_places(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """RR-I201: where a deploying power builds: its home areas and domains in play that it
    controls, in the order the scenario lists them."""
    card = scenario.powers[power]
    return [a for a in dict.fromkeys([*card.home_areas, *card.domains])
            if state.exists(a) and state.areas[a].controller == power and not state.in_revolt(a)]


def _request(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> Request:
    context = _context(state, scenario, power)
    return ctx.request(kind=KIND, player=state.powers[power].player, power=power, purpose=f"deploy-{power}",
                       default=default_deployment(power, context), sealed=True, rule="§7.2, §24",
                       prompt=f"Deploy {scenario.powers[power].name} with {context['points']} points (§24)",
                       context=context)


def _context(state: GameState, scenario: Scenario, power: str) -> dict[str, Any]:
    places = own_places(state, scenario, power)
    ports = [a for a in places if scenario.coastal(a)]
    stacks = state.stacks(places)
    return {
        "power": power,
        "points": state.powers[power].redeployment or scenario.powers[power].points,
        "areas": tuple(places),
        "ports": tuple(ports),
        "seas": tuple(dict.fromkeys(s for a in ports for s in scenario.areas[a].seas if state.exists(s))),
        "troops": dict(state.powers[power].pool),
        "squadrons": dict(state.powers[power].squadron_pool),
        "room": {a: scenario.areas[a].stacking - len(stacks.get(a, {}).get(power, [])) for a in places},
        "fortified": tuple(a for a in places if state.fortress_in(a) is not None),
        "no_elite": {a: why for a in places if (why := elite_refusal(state, scenario, power, a))},
        "merchant_room": {tc.id: _merchant_room(state, scenario, tc.id, power) for tc in scenario.data.trade_centers},
        "units_at": tuple(sorted({t.area for t in state.troops if t.power == power and t.area}
                                 | {s.port or f"@{s.sea}" for s in state.squadrons if s.power == power}
                                 | {f.area for f in state.fortresses if f.power == power})),
    }


def _merchant_room(state: GameState, scenario: Scenario, tc: str, power: str) -> int:
    """§19.2.1–§19.2.2: the center's capacity (as the turn's rules set it) less the merchants
    there, and at most 2 of a power."""
    there = state.merchants.get(tc, {})
    capacity = state.capacity(scenario.trade_centers[tc])
    return max(0, min(capacity - sum(there.values()), 2 - there.get(power, 0)))


def default_deployment(power: str, context: Mapping[str, Any]) -> str:
    """RR-I202: without an answer, a power spends its points on troops of its cheapest
    counter first, one area at a time in the scenario's order up to the stacking limit, and
    what is left on lowering unrest."""
    points = context["points"]
    purchases = []
    pool = dict(context["troops"])
    for area in context["areas"]:
        free = context["room"][area]
        for counter in sorted(pool):
            if counter == "3-4" and area in context["no_elite"]:
                continue
            count = min(free, pool[counter], points)
            if count > 0:
                purchases.append(Purchase("TROOP", count, counter, area))
                free, pool[counter], points = free - count, pool[counter] - count, points - count
    if points:
        purchases.append(Purchase("UNREST", points))
    return form(power, purchases)


def _buy(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, p: Purchase) -> str:
    if p.what == "TROOP":
        ids = [state.new_troop(power, p.kind, regular_quality(p.kind), area=p.place).id for _ in range(p.count)]
        return f"{', '.join(ids)} ({p.kind}) at {p.place}"
    if p.what == "SQUADRON":
        sea = p.place[1:] if p.place.startswith("@") else None
        squadrons = [state.new_squadron(power, int(p.kind), sea=sea, port=None if sea else p.place, repair=p.cheap)
                     for _ in range(p.count)]
        for squadron in squadrons:
            squadron.base = squadron.port or next(a for a in own_places(state, scenario, power)
                                                  if sea in scenario.areas[a].seas)
        return ", ".join(f"{s.id} (Q{s.quality}) {s.where()}" for s in squadrons)
    if p.what == "FORTRESS":
        fortress = state.new_fortress(power, p.place, built=not p.cheap)
        return f"{fortress.id} at {p.place}" + (" under construction" if p.cheap else "")
    if p.what == "LEADER":
        return _leader(ctx, state, scenario, power, p)
    if p.what == "MERCHANT":
        return place_merchants(state, scenario, power, p.place, p.count)
    status = state.powers[power]
    status.unrest = max(0, status.unrest - p.count)
    return f"unrest lowered by {p.count}"


def _leader(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, p: Purchase) -> str:
    """§17.2, §24, RR-I204: a leader drawn at random onto the power's first unit at the
    place; its extraordinary side is taken when its ability is one the line names (or ANY)
    and unrest does not exceed vitality, for +3 unrest (§17.3)."""
    if not state.leader_pool:
        return "no leader left in the pool (§17.2)"
    drawn = state.leader_pool.pop(ctx.draw_index("leader", len(state.leader_pool), rule="§17.2, §24"))
    card = scenario.leaders[drawn]
    status = state.powers[power]
    extraordinary = ("any" in p.extra_if or card.ability in p.extra_if) \
        and status.unrest <= scenario.powers[power].vitality
    sea = p.place[1:] if p.place.startswith("@") else None
    host = first_unit(state, power, None if sea else p.place, sea)
    state.leaders.append(Leader(id=drawn, power=power, unit=host, extraordinary=extraordinary))
    if extraordinary:
        status.unrest += EXTRAORDINARY_UNREST
        return f"leader {drawn} ({card.ability}) on {host}, extraordinary side (+{EXTRAORDINARY_UNREST} unrest)"
    return f"leader {drawn} ({card.ability}) on {host}, ordinary side"


def enter_merchants(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """§24: a power entering with a fixed deployment places the merchants its scenario
    deployment names, as a power deploying by points does (RR-I205, RR-I270)."""
    return [place_merchants(state, scenario, power, entry.trade_center, entry.count)
            for entry in scenario.data.deployment if entry.power == power and entry.unit == "merchant"]


def place_merchants(state: GameState, scenario: Scenario, power: str, center: str, count: int) -> str:
    """§24: merchants go straight into their trade center; in a later turn than the game's
    first, the powers whose merchants were there already gain a casus belli against the
    deploying power (§21.3.2). Simultaneous deployments fill a center in the scenario's
    power order; a merchant that no longer fits is lost (RR-I205)."""
    room = _merchant_room(state, scenario, center, power)
    placed = min(room, count)
    there = state.merchants.setdefault(center, {})
    others = [other for other, n in there.items() if other != power and n]
    if placed:
        there[power] = there.get(power, 0) + placed
    text = f"{placed} merchant(s) in {center}" + (f" ({count - placed} found it full)" if placed < count else "")
    if placed and state.turn != scenario.data.first_turn:
        for other in others:
            if (other, power) not in state.casus_belli:
                state.casus_belli.append((other, power))
        if others:
            text += f"; {', '.join(others)} gain a casus belli against {power} (§24, §21.3.2)"
    return text
