"""Squadrons and fleets (§9.2–§9.3, §10.1, §11.1–§11.2, §11.6, §18.6): building,
repairing, sailing from port, strategic moves between seas, naval bases within the naval
operation distance (NOD), galleys and fleets, combined with an ally's squadrons (§21.2.3)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.leaders import remove_unit_leader
from pbem.rules.ratio_regis.movement import controls, interested, resolve_area
from pbem.rules.ratio_regis.consent import consent
from pbem.rules.ratio_regis.orders import BuildSquadron, Dissolve, FormFleet, Repair, Sail, StratSquadron
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Squadron


def resolve_sea(scenario: Scenario, word: str) -> str:
    sea = word[1:] if word.startswith("@") else word
    match = next((s for s in scenario.seas if s.lower() == sea.lower()), None)
    if match is None:
        raise IllegalOrder(unknown_name("sea", word, scenario.sea_words))
    return match


def own_squadron(state: GameState, power: str, squadron_id: str) -> Squadron:
    squadron = state.squadron(squadron_id)
    if squadron is None or squadron.power != power:
        raise IllegalOrder(f"{power} has no squadron {squadron_id}")
    return squadron


def nod(state: GameState, scenario: Scenario, sea: str) -> int:
    """§11.1: the scenario's naval operation distance for `sea`, raised by events such as
    the Nautical Astrolabe (§28.8; RR-I52: never lowered)."""
    return max(scenario.nod(sea), state.nod)


def bases(state: GameState, scenario: Scenario, power: str, sea: str, avoid: Collection[str] = (),
          minor: str | None = None) -> list[str]:
    """§11.1, §18.3, §18.4.1, §21.2.1: the ports the power controls (not in revolt, in a
    theater of interest) from which a squadron may operate in `sea` — a coastal area on a
    sea within the NOD of `sea` (NOD 1: on that sea). `avoid`: ports that no longer count
    (being left, §14.2). `minor`: an allied minor's squadron, based only in its minor's
    theater (§20.2, RR-I250)."""
    reach = nod(state, scenario, sea)
    return [area for area, distance in _ports(state, scenario, power, sea, avoid, minor) if distance <= reach]


def _ports(state: GameState, scenario: Scenario, power: str, sea: str,
           avoid: Collection[str] = (), minor: str | None = None) -> list[tuple[str, int]]:
    """The power's usable ports and their distance to `sea`, in scenario order."""
    found = []
    for area in scenario.data.areas:
        if not state.exists(area.id) or not area.seas or not controls(state, power, area.id) or area.id in avoid:
            continue
        if minor is not None and not scenario.minor_may_base(minor, area.id):
            continue
        if not interested(state, scenario, power, area.id):
            continue
        distance = min((d for s in area.seas if (d := scenario.sea_distance(s, sea)) is not None), default=None)
        if distance is not None:
            found.append((area.id, distance))
    return found


def nearest_bases(state: GameState, scenario: Scenario, power: str, sea: str,
                  avoid: Collection[str] = (), minor: str | None = None) -> list[str]:
    """§11.1.1, §11.6: the nearest ports the power controls, all of them on a tie, in the
    scenario's order (a minor's squadron: in its minor's theater, §20.2)."""
    ports = _ports(state, scenario, power, sea, avoid, minor)
    best = min((distance for _, distance in ports), default=None)
    return [area for area, distance in ports if distance == best]


def check_not_pirated(squadron: Squadron, run: ImpulseRun) -> None:
    """§11.5.1: a squadron that pirated does nothing else, of any kind, this impulse
    (strategic moves included)."""
    if squadron.id in run.ledger.pirated:
        raise IllegalOrder(f"{squadron.id} has pirated this impulse and does nothing else (§11.5.1)")


def galley_check(scenario: Scenario, here: str, there: str) -> None:
    """§18.6.1: while the Mediterranean is closed no fleet enters or leaves it."""
    if scenario.data.naval.mediterranean_closed and scenario.seas[here].mediterranean != \
            scenario.seas[there].mediterranean:
        raise IllegalOrder(f"no fleet may enter or leave the Mediterranean ({here} to {there}) (§18.6.1)")


def sail_path(state: GameState, scenario: Scenario, squadron: Squadron, path: Sequence[str]) -> list[str]:
    """§10.1: an operational squadron crosses adjacent seas, each within NOD of a base
    (RR-I24), and ends at sea or in a controlled port adjacent to its last sea."""
    if squadron.repair:
        raise IllegalOrder(f"{squadron.id} is under repair (§9.3)")
    steps = list(path)
    here = squadron.sea
    if here is not None and steps and steps[0].startswith("@") and resolve_sea(scenario, steps[0]) == here:
        steps = steps[1:]
    route = [f"@{here}" if here else squadron.port]
    if here is None:  # from port: the first sea must touch the port
        first = resolve_sea(scenario, steps.pop(0)) if steps and steps[0].startswith("@") else None
        if first is None or first not in scenario.areas[squadron.port].seas:
            raise IllegalOrder(f"{squadron.id} is in port at {squadron.port}: its path starts with a sea on that "
                               f"coast ({', '.join('@' + s for s in scenario.areas[squadron.port].seas)})")
        here = first
        route.append(f"@{here}")
    port = None
    for word in steps:
        if port is not None:
            raise IllegalOrder("a port ends the path")
        if word.startswith("@"):
            sea = resolve_sea(scenario, word)
            if sea not in scenario.seas[here].adjacent:
                raise IllegalOrder(f"@{sea} is not adjacent to @{here}")
            galley_check(scenario, here, sea)
            here = sea
            route.append(f"@{sea}")
        else:
            port = resolve_area(scenario, word, state)
            if here not in scenario.areas[port].seas:
                raise IllegalOrder(f"{port} is not a port on @{here}")
            if not controls(state, squadron.power, port):
                raise IllegalOrder(f"{port} is not a port controlled by {squadron.power} (§11.1, §18.3)")
            route.append(port)
        check_minor_reach(state, scenario, [squadron], route[-1:])
        if not bases(state, scenario, squadron.power, here):
            raise IllegalOrder(f"@{here} is beyond the naval operation distance ({nod(state, scenario, here)}) of "
                               f"every {squadron.power} port (§11.1)")
    squadron.sea, squadron.port = (None, port) if port else (here, None)
    squadron.base = port or squadron.base
    return route


def check_minor_reach(state: GameState, scenario: Scenario, squadrons: Iterable[Squadron],
                      places: Sequence[str]) -> None:
    """§20.2, RR-I250: an allied minor's squadron goes into no port outside its minor's
    theater and no sea beyond the naval operation distance of its ally's ports in that
    theater (`places`: ports, or seas as `@sea`)."""
    for squadron in squadrons:
        if squadron.minor is None:
            continue
        theater = scenario.minors[squadron.minor].theater
        for place in places:
            if not place.startswith("@") and not scenario.minor_may_base(squadron.minor, place):
                raise IllegalOrder(f"{squadron.id} is {squadron.minor}'s: it uses no naval base outside "
                                   f"{theater} such as {place} (§20.2)")
            if place.startswith("@") and not bases(state, scenario, squadron.power, place[1:], minor=squadron.minor):
                raise IllegalOrder(f"{squadron.id} is {squadron.minor}'s: {place} is beyond the naval operation "
                                   f"distance of every {squadron.power} port in {theater}, its only bases (§20.2, "
                                   f"§11.1)")


def build_squadron(state: GameState, scenario: Scenario, power: str, order: BuildSquadron, run: ImpulseRun) -> str:
    """§9.2: an available squadron, under repair, in a coastal possession the power
    controls and free of enemies, not in revolt (§18.3)."""
    quality = str(order.quality)
    if state.powers[power].squadron_pool.get(quality, 0) < 1:
        have = ", ".join(f"Q{q}" for q, n in sorted(state.powers[power].squadron_pool.items()) if n) or "none"
        raise IllegalOrder(f"{power} has no Q{quality} squadron left to build (available: {have})")
    area = resolve_area(scenario, order.area, state)
    status = state.areas[area]
    if not scenario.coastal(area):
        raise IllegalOrder(f"{area} is not a coastal area (§9.2)")
    if status.possessor != power or status.controller != power:
        raise IllegalOrder(f"{area} is not a possession controlled by {power} (§9.2)")
    if status.rebellion:
        raise IllegalOrder(f"{area} is in revolt (§18.3)")
    if any(t.power != power for t in state.troops_in(area)):
        raise IllegalOrder(f"{area} is not free of enemies (§9.2)")
    squadron = state.new_squadron(power, order.quality, port=area, repair=True)
    return f"{power} builds squadron {squadron.id} (Q{squadron.quality}) under repair at {area}"


def repair(state: GameState, scenario: Scenario, power: str, order: Repair, run: ImpulseRun) -> str:
    """§9.3: a squadron under repair since the start of the impulse becomes operational;
    the action includes a strategic move of it (§10.1, §30.1)."""
    squadron = own_squadron(state, power, order.squadron)
    if squadron.id not in run.start.under_repair:
        raise IllegalOrder(f"{squadron.id} was not under repair at the start of this impulse (§9.3)")
    squadron.repair = False
    text = f"{power} repairs {squadron.id} at {squadron.port}"
    if order.path:
        text += " and moves it " + ">".join(sail_path(state, scenario, squadron, order.path))
    return text


def strategic_squadron(state: GameState, scenario: Scenario, power: str, order: StratSquadron,
                       run: ImpulseRun) -> str:
    """§10.1: one operational squadron (with its leader) along adjacent seas."""
    squadron = own_squadron(state, power, order.squadron)
    check_not_pirated(squadron, run)
    check_stays(state, [squadron])
    route = sail_path(state, scenario, squadron, order.path)
    squadron.fleet = None
    return f"{power} moves {squadron.id} strategically " + ">".join(route)


def sail(state: GameState, scenario: Scenario, power: str, order: Sail, run: ImpulseRun) -> str:
    """§11.6: at the start of the impulse an operational squadron in port sails to an
    adjacent sea at no cost."""
    squadron = own_squadron(state, power, order.squadron)
    if squadron.port is None:
        raise IllegalOrder(f"{squadron.id} is at sea, not in port (§11.6)")
    route = sail_path(state, scenario, squadron, [order.sea])
    return f"{power} sails {squadron.id} from {route[0]} to {route[-1]}"


def form_fleet(state: GameState, scenario: Scenario, power: str, order: FormFleet, run: ImpulseRun) -> str:
    """§11.2, §15.1.2: squadrons in one sea form a fleet under a leader riding one of
    them; its size is at most the stacking limit of a base (+1 with an Organizer).
    §21.2.3: with an ally's consent its squadrons join a combined fleet, which counts as
    the leader's power's (RR-I187)."""
    leader = state.leader(order.leader)
    if leader is None or leader.power != power:
        raise IllegalOrder(f"{power} has no leader {order.leader}")
    squadrons = [_fleet_squadron(state, power, s) for s in order.squadrons]
    seas = {s.sea for s in squadrons}
    if len(seas) != 1 or None in seas:
        raise IllegalOrder("a fleet's squadrons are all at sea in the same sea (§11.2)")
    if leader.unit not in [s.id for s in squadrons]:
        raise IllegalOrder(f"{leader.id} rides {leader.unit}, which is not one of the fleet's squadrons")
    sea = seas.pop()
    limit = max((scenario.areas[a].stacking for a in bases(state, scenario, power, sea)), default=1)
    limit += organizer(state, scenario, leader.id)
    if len(squadrons) > limit:
        raise IllegalOrder(f"a fleet based here holds at most {limit} squadrons (§15.1.2)")
    for ally in sorted({s.power for s in squadrons if s.power != power}, key=scenario.power_order.index):
        if not consent(state, run.judge, power, ally, f"a combined fleet under {leader.id}", "§21.2.3"):
            text = f"{ally} does not consent: no combined fleet under {leader.id} (§21.2.3)"
            run.judge.say(text, rule="§21.2.3")
            return text
    release(state, [s for s in state.squadrons if s.fleet == leader.id and s not in squadrons])
    for squadron in state.squadrons:
        if squadron.fleet == leader.id:
            squadron.fleet = None
    lent = [s.id for s in squadrons if s.power != power]
    for squadron in squadrons:
        if squadron.power != power:
            state.combined[squadron.id] = squadron.power
            squadron.power = power
        squadron.fleet = leader.id
    return (f"{power} forms fleet {leader.id} of {', '.join(s.id for s in squadrons)} at @{sea}"
            + (f", combined with its ally's {', '.join(lent)}: it counts as {power}'s (§21.2.3)" if lent else ""))


def organizer(state: GameState, scenario: Scenario, leader_id: str) -> int:
    """§17.3.2: an Organizer on its extraordinary side adds one to a stacking limit."""
    leader = state.leader(leader_id)
    return int(leader is not None and leader.extraordinary and scenario.leaders[leader.id].ability == "organizer")


def port_limit(state: GameState, scenario: Scenario, port: str, leader_id: str, size: int) -> None:
    """§11.2, §15.1.2: a fleet is no larger than the stacking limit of the area it uses as a
    naval base, so under v1.2.4 a fleet entering a port fits the port's limit (+1 with an
    Organizer, RR-I284); under v2.1 "fleets in port have no stacking limit"."""
    if state.options.variant == "v2.1":
        return
    limit = scenario.areas[port].stacking + organizer(state, scenario, leader_id)
    if size > limit:
        raise IllegalOrder(f"a fleet of {size} squadrons cannot enter {port}: a fleet based there holds at most "
                           f"{limit} (§11.2, §15.1.2)")


def _fleet_squadron(state: GameState, power: str, squadron_id: str) -> Squadron:
    """A squadron of the power's, or of an ally's for a combined fleet (§21.2.3)."""
    squadron = state.squadron(squadron_id)
    if squadron is not None and squadron.power != power and state.allied(power, squadron.power):
        return squadron
    return own_squadron(state, power, squadron_id)


def dissolve(state: GameState, scenario: Scenario, power: str, order: Dissolve, run: ImpulseRun) -> str:
    """§21.2.3: "A combined fleet may be dissolved by any of the major powers whose units form
    the fleet at any time" (RR-I187: in its own impulse, at no cost)."""
    members = [s for s in state.squadrons if (s.fleet or "").upper() == order.leader.upper()]
    lent = [s for s in members if s.id in state.combined]
    if not lent:
        raise IllegalOrder(f"{order.leader} leads no combined fleet (§21.2.3)")
    if power not in {members[0].power, *(state.combined[s.id] for s in lent)}:
        raise IllegalOrder(f"{power} has no squadron in fleet {order.leader} (§21.2.3)")
    released = release(state, lent)
    return (f"{power} dissolves the combined fleet {order.leader}: {', '.join(released)} return to their power "
            f"(§21.2.3)")


def release(state: GameState, squadrons: Iterable[Squadron]) -> list[str]:
    """§21.2.3: an ally's squadrons leave a combined fleet, their own power's again and in
    no fleet."""
    released = []
    for squadron in squadrons:
        owner = state.combined.pop(squadron.id, None)
        if owner is not None:
            squadron.power, squadron.fleet = owner, None
            released.append(squadron.id)
    return released


def dissolve_before_battle(state: GameState, judge: DecisionPort, squadrons: Sequence[Squadron],
                           enemy: str) -> list[Squadron]:
    """§21.2.3: "Combined fleet dissolution is compulsory when squadrons are present in a battle
    against a major power with which they are not at war": a combined fleet holding an ally's
    squadron not at war with `enemy` dissolves before the battle (RR-I187), and the allies'
    squadrons go back to their powers, out of it. Returns the squadrons that fight."""
    if not any(s.id in state.combined and not state.at_war(state.combined[s.id], enemy) for s in squadrons):
        return list(squadrons)
    lent = [s for s in squadrons if s.id in state.combined]
    released = release(state, lent)
    judge.say(f"The combined fleet dissolves before the battle with {enemy}: {', '.join(released)} return to their "
              f"powers, not all at war with {enemy} (§21.2.3)", rule="§21.2.3")
    return [s for s in squadrons if s not in lent]


def check_stays(state: GameState, squadrons: Iterable[Squadron]) -> None:
    """§21.2.3: "These fleets can take actions in the sea where they have been formed, but
    cannot move away from it"."""
    lent = [s.id for s in squadrons if s.id in state.combined]
    if lent:
        raise IllegalOrder(f"{', '.join(lent)} {'is' if len(lent) == 1 else 'are'} in a combined fleet, which acts "
                           f"only in the sea where it was formed (§21.2.3)")


def fleet_of(state: GameState, squadron: Squadron) -> list[Squadron]:
    """The squadrons that act with `squadron`: its fleet at the same sea, or itself."""
    if squadron.fleet is None:
        return [squadron]
    return [s for s in state.squadrons if s.fleet == squadron.fleet and s.sea == squadron.sea]


def send_to_base(state: GameState, scenario: Scenario, judge: DecisionPort, squadron: Squadron, *, damaged: bool,
                 avoid: Collection[str] = ()) -> str:
    """§11.3, §13.2.5 (§27.4): back to its home port while that is still a base for the
    sea it leaves; else §11.1.1, §11.6: to the nearest base, the owner choosing on a tie
    (`base`, RR-I51). Under repair if damaged; with no base left it is destroyed. The
    ports in `avoid` are not bases any more (a port being left, §14.2)."""
    sea = squadron.sea or scenario.areas[squadron.port].seas[0]
    squadron.fleet = None
    home = squadron.base
    if home is None or home not in bases(state, scenario, squadron.power, sea, avoid, squadron.minor):
        home = _choose_base(state, squadron, judge, sea,
                            nearest_bases(state, scenario, squadron.power, sea, avoid, squadron.minor))
    if home is None:
        state.squadrons.remove(squadron)
        if not squadron.minor:  # a minor's units are not maintained (§23.1.1)
            state.record_eliminated(squadron.power, "squadron")
        gone = remove_unit_leader(state, squadron.id)  # §17.1: the leader follows its unit
        return f"{squadron.id} has no base left and is destroyed (§11.1.1)" + (
            f", with its leader {', '.join(gone)}" if gone else "")
    squadron.sea, squadron.port, squadron.base = None, home, home
    squadron.repair = squadron.repair or damaged
    return f"{squadron.id} returns {'damaged ' if damaged else ''}to {home}"


def stranded(state: GameState, scenario: Scenario, power: str | None = None,
             avoid: Collection[str] = ()) -> list[Squadron]:
    """§11.1.1, §14.2: the squadrons (of `power`, or of every power) at sea without a base
    within the naval operation distance (the ports in `avoid` not counting), in squadron
    order."""
    return [s for s in state.squadrons if s.sea is not None and (power is None or s.power == power)
            and not bases(state, scenario, s.power, s.sea, avoid, s.minor)]


def rebase_stranded(state: GameState, scenario: Scenario, judge: DecisionPort, power: str | None = None,
                    avoid: Collection[str] = ()) -> list[str]:
    """§11.1.1 ("if for any reason a squadron is left without a base within this distance, it
    must move immediately … to the nearest base"), §14.2: each stranded squadron goes to its
    nearest base as if its port had been lost (§11.6), keeping its status; returns chronicle
    lines (also said)."""
    texts = []
    for squadron in stranded(state, scenario, power, avoid):
        texts.append(f"{squadron.id} is left without a base within the naval operation distance: "
                     + send_to_base(state, scenario, judge, squadron, damaged=False, avoid=avoid)
                     + " (§11.1.1, §14.2)")
        judge.say(texts[-1], rule="§11.1.1, §14.2")
    return texts


def _choose_base(state: GameState, squadron: Squadron, judge: DecisionPort, sea: str, ports: list[str]) -> str | None:
    """§11.1.1 "to be chosen by the player in case of a tie": `BASE <area>`; default the
    first in the scenario's order (RR-I25)."""
    player = state.powers[squadron.power].player
    if len(ports) < 2 or player is None:
        return ports[0] if ports else None
    answer = ask(judge, player, squadron.power, "base", options=[f"BASE {p}" for p in ports],
                 default=f"BASE {ports[0]}", context={"squadron": squadron.id, "sea": sea},
                 prompt=f"{squadron.id} must go to a base from @{sea}: the nearest are {', '.join(ports)}",
                 rule="§11.1.1")
    return answer.place



def group_name(squadron: Squadron) -> str:
    """How a naval force is named in orders and answers: a fleet by its leader, a lone
    squadron by its id (§11.2)."""
    return squadron.fleet or squadron.id


def groups_at(state: GameState, scenario: Scenario, power: str, seas: Sequence[str], *,
              ports: bool = False) -> dict[str, list[Squadron]]:
    """The power's operational fleets and lone squadrons at sea in one of `seas` (with
    `ports`, also those in port on a coast of one), by name, in squadron order."""
    groups: dict[str, list[Squadron]] = {}
    for squadron in state.squadrons:
        if squadron.power != power or squadron.repair:
            continue
        in_port = ports and squadron.port is not None and any(s in scenario.areas[squadron.port].seas for s in seas)
        if squadron.sea in seas or in_port:
            groups.setdefault(group_name(squadron), []).append(squadron)
    return groups


def own_group(state: GameState, power: str, name: str) -> list[Squadron]:
    """The squadrons an order names: a fleet by its leader, or a squadron (with the fleet
    it belongs to, §11.2)."""
    members = [s for s in state.squadrons if s.power == power and (s.fleet or "").upper() == name.upper()]
    if members:
        return [s for s in members if s.sea == members[0].sea]
    return fleet_of(state, own_squadron(state, power, name))


def commercial_port_on(state: GameState, scenario: Scenario, sea: str) -> bool:
    """§13.1.9: a commercial port, not razed, on the sea (RR-I46: whoever holds it)."""
    return any(scenario.areas[a].port and not state.areas[a].razed and state.exists(a)
               for a in scenario.port_areas(sea))
