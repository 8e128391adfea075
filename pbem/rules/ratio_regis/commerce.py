"""Commerce (§19.2; §8.1.3, the §9 table; example §32.4).

A merchant is built by an action (`BUILD MERCHANT AT <trade center>`) into the dispersion
box, enters its trade center at the next turn start if its owner wants it there (the
`merchants` decision), giving the powers already present a casus belli against it, and at
turn end the trade centers over capacity hold a commercial competition (§19.2.4), in
v2.1's order under `variant=v2.1` (a `competition` decision when one player's powers tie).
`state.merchants` is the one record of the merchants in the trade centers: trade income
(§23.1.1) and monopolies (§19.2.5, `monopolies`) are read from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refusal, Refused, not_owed
from pbem.core.engine import Request
from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.minimaps import home_area, on_mini_map
from pbem.rules.ratio_regis.orders import BuildMerchant
from pbem.rules.ratio_regis.scenario import Scenario, TradeCenter
from pbem.rules.ratio_regis.state import GameState
from pbem.rules.ratio_regis.war import add_cb

#: §19.2.2: "At the most, each major power may have 2 merchants in each trade center".
MAX_MERCHANTS = 2
V2_1 = "v2.1"
ENTER_ALL, ENTER_NONE = "ENTER ALL", "ENTER NONE"


# -- trade centers and commercial ports ---------------------------------------------------
def center_areas(state: GameState, scenario: Scenario, center: TradeCenter) -> list[str]:
    """§19.2.1: a sea's trade center holds the areas on that sea's coast (an area on two
    seas is in both); a theater's (Africa, Asia, Eastern Europe) every area of the theater.
    Areas not in play are not (§18.2.1)."""
    if center.sea is not None:
        areas = scenario.port_areas(center.sea)
    else:
        areas = [a.id for a in scenario.data.areas if a.theater == center.theater]
    return [a for a in areas if state.exists(a)]


def commercial_port(state: GameState, scenario: Scenario, area: str) -> bool:
    """§19.2.4 "Commercial ports": the ports the map marks commercial (`port`), and every
    overseas home area (v1.2.4: a home area of any power on a mini-map, as the map prints
    it) — under v2.1 instead every finished fortress on a mini-map (RR-I121)."""
    if scenario.areas[area].port:
        return True
    if not on_mini_map(scenario, area):
        return False
    if state.options.variant == V2_1:
        fortress = state.fortress_in(area)
        return fortress is not None and fortress.built
    return home_area(scenario, area)


def find_center(scenario: Scenario, word: str) -> TradeCenter:
    """A trade center from its id or its sea (`@WM`), ignoring case."""
    key = word.upper()
    for center in scenario.data.trade_centers:
        if key == center.id.upper() or (center.sea is not None and key == f"@{center.sea}".upper()):
            return center
    raise IllegalOrder(unknown_name("trade center", word, [c.id for c in scenario.data.trade_centers]))


def monopolies(state: GameState, power: str) -> list[str]:
    """§19.2.5, §22: the trade centers where `power` holds 2 merchants, a commercial monopoly
    (1 VP at turn end), in id order."""
    return sorted(center for center, held in state.merchants.items() if held.get(power, 0) >= MAX_MERCHANTS)


# -- building a merchant (§19.2.2, §9 table) ---------------------------------------------
def build_merchant(state: GameState, scenario: Scenario, power: str, order: BuildMerchant, run: ImpulseRun) -> str:
    """§19.2.2: a control marker of 1 in the dispersion box of the trade center's theater,
    with no effect until it enters at the next turn start (§8.1.3). The power must possess
    a coastal area on the trade center's sea (in Eastern Europe, an area of the theater),
    have an interest there (§18.4.1: a theater of interest of some area of the center,
    bordering areas included, RR-I27), and hold at most 2 merchants in the center, those
    in its box counted (RR-I120)."""
    center = find_center(scenario, order.center)
    areas = center_areas(state, scenario, center)
    where = f"@{center.sea}" if center.sea else f"the theater {center.theater}"
    added = state.interests.get(power, [])
    if not any(scenario.interested(power, area, added) for area in areas):
        raise IllegalOrder(f"{power} has no interest in any theater of {center.id} ({where}): no merchant there "
                           f"(§18.4.1)")
    if not any(state.areas[area].possessor == power for area in areas):
        kind = "coastal area on" if center.sea else "area of"
        raise IllegalOrder(f"{power} possesses no {kind} {where}: it cannot build a merchant for {center.id} "
                           f"(§19.2.2)")
    present = state.merchants.get(center.id, {}).get(power, 0)
    built = state.merchants_built.get(center.id, {}).get(power, 0)
    if present + built >= MAX_MERCHANTS:
        raise IllegalOrder(f"{power} already has {present} merchant(s) in {center.id} and {built} built to enter "
                           f"it: at most {MAX_MERCHANTS} per power in a trade center (§19.2.2, RR-I120)")
    state.merchants_built.setdefault(center.id, {})[power] = built + 1
    return (f"{power} builds a merchant for {center.id} (in the dispersion box; it may enter at the next turn "
            f"start, §19.2.2)")


# -- turn start: trade adjustments (§8.1.3) ----------------------------------------------
def adjust_trade(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§8.1.3 (not on a scenario's first turn): the commercial ports razed last turn are
    operational again, and the merchants built last turn enter their trade centers — or are
    removed — as their owners choose (§19.2.2)."""
    restored = [a.id for a in scenario.data.areas if state.areas[a.id].razed]
    for area in restored:
        state.areas[area].razed = False
    if restored:
        ctx.say(f"Trade-interrupted markers removed: the commercial ports of {', '.join(restored)} work again",
                rule="§8.1.3")
    _enter_merchants(ctx, state, scenario)


def _enter_merchants(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§19.2.2: each power's owner says which of its merchants built last turn enter (the
    `merchants` decision, default all; a power without a player enters them all). The rest
    are removed. A power may hold 2 merchants in a center: those over it are removed. The
    powers present in a center before any merchant enters gain a casus belli against each
    power entering it (RR-I122)."""
    built = state.merchants_built
    order = [c.id for c in scenario.data.trade_centers if built.get(c.id)]
    if not order:  # none built last turn: nothing to ask or place
        state.merchants_built = {}
        return
    waiting = {code: [c for c in order if built[c].get(code)] for code in scenario.power_order}
    asks = [(code, _enter_request(ctx, state, code, {c: built[c][code] for c in centers}))
            for code, centers in waiting.items() if centers and state.powers[code].player is not None]
    answers = dict(zip([code for code, _ in asks], ctx.decide_all([r for _, r in asks]) if asks else [], strict=True))
    state.merchants_built = {}
    present = {center: [p for p in scenario.power_order if state.merchants.get(center, {}).get(p)] for center in order}
    for code, centers in waiting.items():
        entering = _entering(answers.get(code, ENTER_ALL), centers)
        for center in centers:
            count = built[center][code]
            if center not in entering:
                ctx.say(f"{code} does not place its {_merchants(count)} built for {center}: removed",
                        rule="§19.2.2")
                continue
            ctx.say(_enter(state, code, center, count, present[center]), rule="§19.2.2, §21.3.2")


def _enter(state: GameState, code: str, center: str, count: int, present: Sequence[str]) -> str:
    """`count` merchants of `code` enter `center`, up to 2 (the rest removed); the powers
    `present` before gain a casus belli against it. Returns the chronicle line."""
    held = state.merchants.setdefault(center, {})
    room = MAX_MERCHANTS - held.get(code, 0)
    placed = min(count, max(room, 0))
    text = f"{code}'s {_merchants(count)} enter{'s' if count == 1 else ''} {center}"
    if placed < count:
        text = (f"{code} places {placed} of its {_merchants(count)} built for {center} (at most {MAX_MERCHANTS} "
                f"per power in a trade center: {count - placed} removed)")
    if not placed:
        return text
    held[code] = held.get(code, 0) + placed
    holders = [p for p in present if p != code and add_cb(state, p, code)]
    if holders:
        text += f"; {', '.join(holders)} gain{'s' if len(holders) == 1 else ''} a casus belli against {code}"
    return text


def _merchants(count: int) -> str:
    return f"{count} merchant{'s' if count > 1 else ''}"


def _enter_request(ctx: DecisionPort, state: GameState, code: str, built: Mapping[str, int]) -> Request:
    centers = tuple(built)
    listed = ", ".join(f"{center} ({n})" for center, n in built.items())
    return ctx.request(kind="merchants", player=state.powers[code].player, power=code, purpose="merchants",
                       default=ENTER_ALL, options=[ENTER_ALL, f"ENTER <trade center>,… of {','.join(centers)}",
                                                   ENTER_NONE],
                       prompt=f"{code}'s merchants built last turn may enter their trade centers: {listed}. Those "
                              f"not entered are removed; the powers already there gain a casus belli against {code}",
                       rule="§8.1.3, §19.2.2", context={"power": code, "centers": centers, "built": dict(built)})


def _entering(answer: str, centers: Sequence[str]) -> list[str]:
    """The centers a canonical `merchants` answer enters."""
    named = answer.split()[1]
    if named == "ALL":
        return list(centers)
    return [] if named == "NONE" else named.split(",")


# -- turn end: commercial competition (§19.2.4) -----------------------------------------
@dataclass(frozen=True)
class Counter:
    """One power's merchant counter in a trade center, with what orders it (§19.2.4)."""

    power: str
    ports: tuple[str, ...]  # its uninterrupted commercial ports in the center
    vitality: int
    game_order: int  # its player's number (0: nobody plays it)

    @property
    def key(self) -> tuple[int, int, int]:
        """Fewest ports first, then the lower vitality, then the higher player number."""
        return len(self.ports), self.vitality, -self.game_order

    def reason(self) -> str:
        ports = f"{len(self.ports)}: {', '.join(self.ports)}" if self.ports else "0"
        player = f"player {self.game_order}" if self.game_order else "no player"
        return f"ports {ports}; vitality {self.vitality}; {player}"


def compete(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§19.2.4 at turn end (research §2.5 E2), in every trade center holding more merchants
    than its capacity. Under v2.1 the merchants of powers with no coastal area in the
    center are removed first, then those of powers with one are cut to 1 (RR-I123); the
    counters left are ordered (`Counter.key`; one player's powers still tied: v1.2.4 the
    scenario's order, RR-I124; v2.1 that player chooses, the `competition` decision), and
    one merchant of each power in turn is removed until the center fits, walking the list
    again if need be."""
    v21 = state.options.variant == V2_1
    plans = []
    for center in scenario.data.trade_centers:
        if _total(state, center.id) <= state.capacity(center):
            continue
        if v21:
            _cut_by_coast(ctx, state, scenario, center)
        if _total(state, center.id) > state.capacity(center):
            plans.append((center, _ranking(state, scenario, center)))
    asks = [(center.id, group, request) for center, ranking in plans
            for group, request in _tie_requests(ctx, state, center, ranking, v21)]
    answers = ctx.decide_all([request for _, _, request in asks]) if asks else []
    chosen = {(center, group): answer.split()[-1].split(",")
              for (center, group, _), answer in zip(asks, answers, strict=True)}
    for center, ranking in plans:
        order = [power for group in ranking for power in chosen.get((center.id, group), group)]
        _walk(ctx, state, scenario, center, order)


def _total(state: GameState, center: str) -> int:
    return sum(state.merchants.get(center, {}).values())


def _coastal(state: GameState, scenario: Scenario, center: TradeCenter, power: str) -> list[str]:
    """v2.1: the power's coastal areas in the center — the areas of the center it controls
    (RR-I123)."""
    return [a for a in center_areas(state, scenario, center) if state.areas[a].controller == power]


def _cut_by_coast(ctx: DecisionPort, state: GameState, scenario: Scenario, center: TradeCenter) -> None:
    """v2.1 §19.2.4: "First the merchant counters of the powers without coastal areas in the
    center are removed. If there are still too many, the counters of powers with a single
    coastal area are reduced to their 1 side" — every such counter, not one at a time."""
    held = state.merchants[center.id]
    steps: list[tuple[Callable[[int], bool], int, str]] = [
        (lambda coast: coast == 0, 0, "it has no coastal area in the center"),
        (lambda coast: coast == 1, 1, "it has a single coastal area in the center: cut to 1"),
    ]
    for applies, keep, why in steps:
        if _total(state, center.id) <= state.capacity(center):
            return
        for power in sorted(held, key=scenario.power_order.index):
            if held[power] > keep and applies(len(_coastal(state, scenario, center, power))):
                lost = held[power] - keep
                held[power] = keep
                ctx.say(f"Commercial competition in {center.id}: {power} loses {_merchants(lost)} ({why}; v2.1)",
                        rule="§19.2.4")
        for power in [p for p, n in held.items() if not n]:
            del held[power]


def _ranking(state: GameState, scenario: Scenario, center: TradeCenter) -> list[tuple[str, ...]]:
    """The counters in the order they lose merchants, as groups of powers tied at every
    criterion (one player's powers, or powers nobody plays), each in the scenario's order."""
    counters = [_counter(state, scenario, center, power) for power in scenario.power_order
                if state.merchants[center.id].get(power)]
    ranking: list[tuple[str, ...]] = []
    keys: list[tuple[int, int, int]] = []
    for counter in sorted(counters, key=lambda c: c.key):
        if keys and keys[-1] == counter.key:
            ranking[-1] += (counter.power,)
        else:
            ranking.append((counter.power,))
            keys.append(counter.key)
    return ranking


def _counter(state: GameState, scenario: Scenario, center: TradeCenter, power: str) -> Counter:
    """The commercial ports counted are those the power controls, without a trade-interrupted
    marker (§19.2.4); an allied minor's areas are controlled by its ally (RR-I141), so its
    ports count for the ally, as §32.4 counts Genoa, allied to Spain, for Spain."""
    ports = tuple(a for a in center_areas(state, scenario, center)
                  if state.areas[a].controller == power and not state.areas[a].razed
                  and commercial_port(state, scenario, a))
    player = state.powers[power].player
    order = state.player(player).game_order if player is not None else 0
    return Counter(power, ports, scenario.powers[power].vitality, order)


def _tie_requests(ctx: DecisionPort, state: GameState, center: TradeCenter, ranking: Sequence[tuple[str, ...]],
                  v21: bool) -> list[tuple[tuple[str, ...], Request]]:
    """v2.1: "if the same player, he chooses" — a `competition` request for each group of one
    player's tied powers whose order changes which merchants are removed."""
    if not v21:
        return []
    asks = []
    counts = dict(state.merchants[center.id])
    for index, group in enumerate(ranking):
        player = state.powers[group[0]].player
        if len(group) < 2 or player is None:
            continue
        before = [p for g in ranking[:index] for p in g]
        after = [p for g in ranking[index + 1:] for p in g]
        outcomes = {tuple(sorted(_removals([*before, *order, *after], counts, state.capacity(center))))
                    for order in permutations(group)}
        if len(outcomes) < 2:
            continue
        powers = ",".join(group)
        asks.append((group, ctx.request(
            kind="competition", player=player, purpose="competition", default=f"ORDER {center.id} {powers}",
            options=[f"ORDER {center.id} <{powers} in the order they lose merchants>"],
            prompt=f"Commercial competition in {center.id}: your powers {powers} tie (ports, vitality, player); "
                   f"say which loses a merchant first (v2.1)",
            rule="§19.2.4", context={"center": center.id, "tied": group})))
    return asks


def _removals(order: Sequence[str], counts: Mapping[str, int], capacity: int) -> list[tuple[str, int]]:
    """§19.2.4: one merchant of each power in `order` in turn until the total fits the
    capacity, the list walked again while it does not: (power, pass) for each merchant
    removed."""
    left = dict(counts)
    removed = []
    walk = 0
    while sum(left.values()) > capacity:
        walk += 1
        for power in order:
            if sum(left.values()) > capacity and left.get(power):
                left[power] -= 1
                removed.append((power, walk))
    return removed


def _walk(ctx: DecisionPort, state: GameState, scenario: Scenario, center: TradeCenter, order: Sequence[str]) -> None:
    held = state.merchants[center.id]
    counters = {power: _counter(state, scenario, center, power) for power in order}
    listed = ", ".join(f"{p} {held[p]} ({counters[p].reason()})" for p in order)
    ctx.say(f"Commercial competition in {center.id} ({_total(state, center.id)} merchants, capacity "
            f"{state.capacity(center)}), by uninterrupted commercial ports, vitality, player: {listed}", rule="§19.2.4")
    for power, walk in _removals(order, held, state.capacity(center)):
        held[power] -= 1
        place = order.index(power) + 1
        ctx.say(f"Commercial competition in {center.id}: {power} loses a merchant ({held[power]} left; "
                f"{_ordinal(place)} in the order, pass {walk}: {counters[power].reason()})", rule="§19.2.4")
    for power in [p for p, n in held.items() if not n]:
        del held[power]
    left = ", ".join(f"{p} {n}" for p, n in held.items())
    ctx.say(f"Commercial competition in {center.id} ends: {left}", rule="§19.2.4")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# -- the decisions' kinds ------------------------------------------------------------------
def _answer_enter(request: Request, words: Sequence[str]) -> str:
    centers: tuple[str, ...] = tuple(request.context.get("centers", ()))
    named = [w.upper() for w in words]
    if named in (["ALL"], ["NONE"]):
        return f"ENTER {named[0]}"
    if not named or "ALL" in named or "NONE" in named:
        raise Refusal(f"write ENTER ALL, ENTER NONE or ENTER <trade center>,… of {', '.join(centers)}")
    wrong = [w for w in words if w.upper() not in {c.upper() for c in centers}]
    if wrong:
        raise Refusal(unknown_name(f"trade center where {request.power} has merchants built", wrong[0], centers))
    return "ENTER " + ",".join(c for c in centers if c.upper() in named)


def _answer_order(request: Request, words: Sequence[str]) -> str:
    center, tied = request.context.get("center", ""), tuple(request.context.get("tied", ()))
    if not words or words[0].upper() != center.upper():
        raise Refusal(f"this competition is in {center}: write ORDER {center} {','.join(tied)} (in your order)")
    powers = [w.upper() for w in words[1:]]
    if sorted(powers) != sorted(tied):
        raise Refusal(f"name each of {', '.join(tied)} once, the first to lose a merchant first")
    return f"ORDER {center} {','.join(powers)}"


@dataclass(frozen=True)
class CommerceKind(DecisionKind):
    """A commerce decision answered by one line `[<POWER>] <WORD> …`: the leading power code
    picks the request when the player owes several; otherwise the first that the line fits,
    those not yet answered by an earlier line first."""

    name: str
    description: str
    word: str
    answer: Callable[[Request, Sequence[str]], str]

    @property
    def keywords(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.word,)

    def _split(self, text: str) -> tuple[str | None, list[str]] | None:
        words = text.replace(",", " ").split()
        if words and words[0].upper() == self.word:
            return None, words[1:]
        if len(words) > 1 and words[1].upper() == self.word:
            return words[0].upper(), words[2:]
        return None

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        split = self._split(text)
        if split is None:
            return None
        power, words = split
        mine = [r for r in owed if r.kind == self.name]
        if not mine:
            return Refused(not_owed(self.name, owed), text.strip())
        candidates = [r for r in mine if power is None or (r.power or "").upper() == power]
        if not candidates:
            return Refused(f"{power} is not asked this now (asked: {', '.join(r.power or '-' for r in mine)})")
        candidates.sort(key=lambda r: r.key in answered)
        reasons = []
        for request in candidates:
            try:
                value = self.answer(request, words)
            except Refusal as error:
                reasons.append(str(error))
                continue
            return Answered(request, value, f"{self.name}: " + (f"{request.power} " if request.power else "") + value)
        return Refused(reasons[0], text.strip())

    def answer_policy(self, text: str, request: Request) -> Any | None:
        split = self._split(text)
        if split is None or (split[0] is not None and split[0] != (request.power or "").upper()):
            return None
        try:
            return self.answer(request, split[1])
        except Refusal:
            return None

    def check_policy(self, text: str) -> str:
        if self._split(text) is None:
            return f"a {self.name} policy answers with {self.description.split(': ')[-1]}"
        return ""

    def order_form(self, request: Request) -> str:
        return (f"{request.power} " if request.power else "") + str(request.default)


MERCHANTS_KIND = CommerceKind(
    "merchants", "your merchants built last turn enter their trade centers at turn start (§8.1.3, §19.2.2): "
                 "ENTER ALL | ENTER <trade center>,… | ENTER NONE", "ENTER", _answer_enter)
COMPETITION_KIND = CommerceKind(
    "competition", "your powers tie in a commercial competition (§19.2.4, v2.1): ORDER <trade center> <POWER>,… "
                   "(the first loses a merchant first)", "ORDER", _answer_order)
COMMERCE_KINDS = (MERCHANTS_KIND, COMPETITION_KIND)
