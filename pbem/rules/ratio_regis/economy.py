"""The economic phase at turn end (§23.1, §23.1.1; example §32.5): each power's income and
expenses, and its unrest moved by the difference.

Every active power with a player keeps an account, said in the chronicle line by line so
a player can check it: income first, then expenses, then the unrest it leaves.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import unrest
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import Fortress, GameState, Leader, Squadron, Troop

#: §23.1.1: a trade center pays 2 with one of the power's merchants, 3 with two.
TRADE_INCOME = {1: 2, 2: 3}


@dataclass
class Account:
    """One power's account: each entry a chronicle phrase and its amount; `revolts`, the
    areas it possesses in revolt (each an expense)."""

    power: str
    income: list[tuple[str, int]] = field(default_factory=list)
    expenses: list[tuple[str, int]] = field(default_factory=list)
    revolts: list[str] = field(default_factory=list)

    @property
    def balance(self) -> int:
        """Income less expenses: what unrest falls by (or rises by, when negative)."""
        return sum(n for _, n in self.income) - sum(n for _, n in self.expenses)


def played(state: GameState, scenario: Scenario) -> list[str]:
    """§23.1: "the major powers controlled by the players", in the scenario's order."""
    return [code for code in scenario.power_order if state.powers[code].active and state.powers[code].player]


def account(state: GameState, scenario: Scenario, power: str) -> Account:
    """§23.1.1: the power's income and expenses (RR-I102, RR-I103)."""
    return accounts(state, scenario, [power])[0]


def accounts(state: GameState, scenario: Scenario, powers: list[str]) -> list[Account]:
    """§23.1.1: each power's income and expenses (RR-I102, RR-I103), in one pass over the
    map and one over each kind of unit for all of them."""
    books = {power: Account(power) for power in powers}
    for power, found in books.items():
        found.income.append(("the power card", scenario.powers[power].income))
        for tc, merchants in state.merchants.items():
            count = min(merchants.get(power, 0), max(TRADE_INCOME))
            if count:
                found.income.append((f"{count} merchant(s) in {tc}", TRADE_INCOME[count]))
    # non-home key areas controlled, not in revolt, not a minor's: "Key areas of allied minor power are
    # not counted" (§23.1.1, RR-I102)
    keys: dict[str, list[str]] = {power: [] for power in powers}
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if status.rebellion:
            if status.possessor in books:
                books[status.possessor].revolts.append(area.id)
        elif area.key and status.controller in keys and state.exists(area.id) \
                and area.id not in scenario.powers[status.controller].home_areas \
                and not (area.minor and status.possessor is None):
            keys[status.controller].append(area.id)
    upkeep = _upkeep(state, books)
    for power, found in books.items():
        if keys[power]:
            found.income.append((f"non-home key areas ({', '.join(keys[power])})", len(keys[power])))
        lost = [kind for turn, code, kind in state.eliminated if turn == state.turn and code == power]
        units = upkeep[power]
        troops, squadrons, leaders, forts = units.troops, units.squadrons, units.leaders, units.fortresses
        dispersed = sum(1 for t in troops if t.box is not None)
        if troops or "troop" in lost:
            found.expenses.append((f"troops ({len(troops) - dispersed} on the map, {dispersed} dispersed, "
                                   f"{lost.count('troop')} eliminated)", len(troops) + lost.count("troop")))
        if squadrons or "squadron" in lost:
            repair = sum(1 for s in squadrons if s.repair)
            count = len(squadrons) + lost.count("squadron")
            found.expenses.append((f"squadrons × 2 ({len(squadrons) - repair} operational, {repair} under repair, "
                                   f"{lost.count('squadron')} eliminated)", 2 * count))
        if leaders:
            found.expenses.append(("leaders", len(leaders)))
        if forts:
            building = sum(1 for f in forts if not f.built)
            found.expenses.append((f"fortresses ({building} under construction)", len(forts)))
        if found.revolts:
            found.expenses.append((f"rebellions in its territory ({', '.join(found.revolts)})", len(found.revolts)))
    return list(books.values())


@dataclass
class Upkeep:
    """The units a power maintains (§23.1.1), each kind in engine order."""

    troops: list[Troop] = field(default_factory=list)
    squadrons: list[Squadron] = field(default_factory=list)
    leaders: list[Leader] = field(default_factory=list)
    fortresses: list[Fortress] = field(default_factory=list)


def _upkeep(state: GameState, powers: Collection[str]) -> dict[str, Upkeep]:
    """Each power's units in one pass over each kind; the minor powers' counters are their
    ally's on the map but not maintained (§23.1.1, RR-I140)."""
    found = {power: Upkeep() for power in powers}
    for troop in state.troops:
        if troop.power in found and not troop.minor:
            found[troop.power].troops.append(troop)
    for squadron in state.squadrons:
        if squadron.power in found and not squadron.minor:
            found[squadron.power].squadrons.append(squadron)
    for leader in state.leaders:
        if leader.power in found:
            found[leader.power].leaders.append(leader)
    for fortress in state.fortresses:
        if fortress.power in found and not fortress.minor:
            found[fortress.power].fortresses.append(fortress)
    return found


def economic_phase(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.1.1: income (card, merchants, non-home key areas) against expenses (troops,
    leaders, fortresses 1, squadrons 2, each rebellion in own territory 1); the surplus is
    taken from unrest (never below 0), a deficit added to it. Units eliminated this turn are
    counted, then forgotten (`state.eliminated`)."""
    for books in accounts(state, scenario, played(state, scenario)):
        power = books.power
        state.powers[power].revolt_maintenance = len(books.revolts)
        for title, entries in (("income", books.income), ("expenses", books.expenses)):
            total = sum(n for _, n in entries)
            lines = "; ".join(f"{text} {n}" for text, n in entries) or "none"
            ctx.say(f"{power} {title} {total}: {lines}", rule="§23.1.1")
        balance = books.balance
        if balance > 0:
            why = f"income exceeds expenses by {balance}"
        elif balance < 0:
            why = f"expenses exceed income by {-balance}"
        else:
            why = "income equals expenses"
        unrest.change(ctx, state, power, -balance, why, "§23.1.1")
    state.eliminated = []
