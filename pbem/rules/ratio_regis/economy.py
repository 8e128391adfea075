"""The economic phase at turn end (§23.1, §23.1.1; example §32.5): each power's income and
expenses, and its unrest moved by the difference.

Every active power with a player keeps an account, said in the chronicle line by line so
a player can check it: income first, then expenses, then the unrest it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import unrest
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState

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
    found = Account(power)
    found.income.append(("the power card", scenario.powers[power].income))
    for tc, merchants in state.merchants.items():
        count = min(merchants.get(power, 0), max(TRADE_INCOME))
        if count:
            found.income.append((f"{count} merchant(s) in {tc}", TRADE_INCOME[count]))
    home = set(scenario.powers[power].home_areas)
    keys = [a.id for a in scenario.data.areas if a.key and a.id not in home and state.exists(a.id)
            and state.areas[a.id].controller == power and not state.areas[a.id].rebellion]
    if keys:
        found.income.append((f"non-home key areas ({', '.join(keys)})", len(keys)))
    lost = [kind for turn, code, kind in state.eliminated if turn == state.turn and code == power]
    # §23.1.1: the minor powers' units are not maintained (their counters on the map are the ally's, RR-I140)
    troops = [t for t in state.troops if t.power == power and not t.minor]
    dispersed = sum(1 for t in troops if t.box is not None)
    if troops or "troop" in lost:
        found.expenses.append((f"troops ({len(troops) - dispersed} on the map, {dispersed} dispersed, "
                               f"{lost.count('troop')} eliminated)", len(troops) + lost.count("troop")))
    squadrons = [s for s in state.squadrons if s.power == power and not s.minor]
    if squadrons or "squadron" in lost:
        repair = sum(1 for s in squadrons if s.repair)
        count = len(squadrons) + lost.count("squadron")
        found.expenses.append((f"squadrons × 2 ({len(squadrons) - repair} operational, {repair} under repair, "
                               f"{lost.count('squadron')} eliminated)", 2 * count))
    leaders = sum(1 for lead in state.leaders if lead.power == power)
    if leaders:
        found.expenses.append(("leaders", leaders))
    forts = [f for f in state.fortresses if f.power == power and not f.minor]
    if forts:
        building = sum(1 for f in forts if not f.built)
        found.expenses.append((f"fortresses ({building} under construction)", len(forts)))
    found.revolts = revolts_in(state, scenario, power)
    if found.revolts:
        found.expenses.append((f"rebellions in its territory ({', '.join(found.revolts)})", len(found.revolts)))
    return found


def revolts_in(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """The areas the power possesses that are in revolt, in the scenario's order."""
    return [a.id for a in scenario.data.areas if state.areas[a.id].possessor == power and state.areas[a.id].rebellion]


def economic_phase(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.1.1: income (card, merchants, non-home key areas) against expenses (troops,
    leaders, fortresses 1, squadrons 2, each rebellion in own territory 1); the surplus is
    taken from unrest (never below 0), a deficit added to it. Units eliminated this turn are
    counted, then forgotten (`state.eliminated`)."""
    for power in played(state, scenario):
        books = account(state, scenario, power)
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
