"""§8.1.2: a power whose card changes. "If the military forces on the map of that major
power do not coincide with those available, the same types of units can be substituted,
provided they are worse (for example, you can degrade I3 units to I2 units). If this is not
possible, the units are eliminated."
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refused, not_owed
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.leaders import remove_unit_leader
from pbem.rules.ratio_regis.scenario import COUNTER_TYPES, PowerCardChange, Scenario
from pbem.rules.ratio_regis.state import GameState, regular_quality

KIND = "substitute"
KEYWORD = "SUBSTITUTE"


def change_cards(ctx: DecisionPort, state: GameState) -> None:
    """The powers whose card changes this turn take its forces (§8.1.2), their owners
    choosing which units give up their counters."""
    scenario: Scenario = ctx.scenario
    for code in scenario.power_order:
        change = next((c for c in scenario.powers[code].cards if c.turn == state.turn), None)
        if change is not None:
            for text in take_card(state, code, change, _choose(ctx, state, code, change)):
                ctx.say(text, rule="§8.1.2")


def _choose(ctx: DecisionPort, state: GameState, power: str, card: PowerCardChange) -> tuple[str, ...]:
    """§8.1.2 "the same types of units can be substituted": the owner names the units of each
    kind the new card has no room for (RR-I207); asked only where there is a choice, and by
    default the newest go, so the oldest keep their counters."""
    units = _by_kind(state, power)
    room = {**{c: card.troops.get(c, 0) for c in COUNTER_TYPES}, **{f"Q{q}": card.squadrons.get(q, 0) for q in "23"}}
    surplus = {kind: len(ids) - room[kind] for kind, ids in units.items() if len(ids) > room[kind]}
    default = tuple(i for kind, n in surplus.items() for i in units[kind][len(units[kind]) - n:])
    player = state.powers[power].player
    if player is None or all(n == len(units[kind]) for kind, n in surplus.items()):
        return default
    context = {"power": power, "surplus": surplus, "units": {k: tuple(v) for k, v in units.items() if k in surplus}}
    request = ctx.request(kind=KIND, player=player, power=power, purpose=f"{KIND}-{power}", default=default,
                          context=context, rule="§8.1.2",
                          prompt=f"{power} takes a new power card with room for fewer units (§8.1.2): name those "
                                 f"that give up their counter, degraded where the card allows, else eliminated")
    return tuple(ctx.decide(request))


def _by_kind(state: GameState, power: str) -> dict[str, list[str]]:
    """The power's troops by counter and squadrons by quality (`Q2`, `Q3`), oldest first."""
    found: dict[str, list[str]] = {kind: [] for kind in (*COUNTER_TYPES, "Q2", "Q3")}
    for troop in sorted((t for t in state.troops if t.power == power), key=lambda t: int(t.id[1:])):
        found[troop.counter].append(troop.id)
    for squadron in sorted((s for s in state.squadrons if s.power == power), key=lambda s: int(s.id[1:])):
        found[f"Q{squadron.quality}"].append(squadron.id)
    return found


def check_substitution(named: Sequence[str], context: Mapping[str, Any]) -> str:
    """Why `named` is not the units the new card has no room for (the request's context), or ""."""
    kinds = {unit: kind for kind, ids in context["units"].items() for unit in ids}
    unknown = [unit for unit in named if unit not in kinds]
    if unknown:
        listed = "; ".join(f"{kind} {' '.join(ids)}" for kind, ids in context["units"].items())
        return (f"{', '.join(unknown)}: name units of {context['power']} of a kind the new card has too few of "
                f"({listed}) (§8.1.2)")
    for kind, count in context["surplus"].items():
        given = sum(1 for unit in named if kinds[unit] == kind)
        if given != count:
            return f"the new card has room for {count} fewer {kind}: name {count} of them, not {given} (§8.1.2)"
    return ""


def form(power: str, named: Sequence[str]) -> str:
    return f"{KEYWORD} {power} {' '.join(named)}"


@dataclass(frozen=True)
class SubstituteKind(DecisionKind):
    """`SUBSTITUTE <power> <unit> …` answers that power's choice on a new power card."""

    name: str = KIND
    description: str = ("the units a new power card has no room for (§8.1.2): SUBSTITUTE <power> <unit> <unit> …, "
                        "degraded where the card allows, else eliminated")

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        words = text.replace(",", " ").split()
        if not words or words[0].upper() != KEYWORD:
            return None
        if len(words) < 3:
            return Refused(f"write {KEYWORD} <power> <unit> <unit> …")
        mine = [r for r in owed if r.kind == KIND]
        request = next((r for r in mine if r.power == words[1].upper()), None)
        if request is None:
            return Refused(not_owed(KIND, owed) if not mine else
                           f"you owe no substitution for {words[1].upper()} (you owe: "
                           f"{', '.join(str(r.power) for r in mine)})")
        named = tuple(dict.fromkeys(unit.upper() for unit in words[2:]))
        problem = check_substitution(named, request.context)
        if problem:
            return Refused(problem, form(request.power, named))
        return Answered(request, named, f"{KIND}: {form(request.power, named)}")

    def answer_policy(self, text: str, request: Request) -> tuple[str, ...] | None:
        words = text.replace(",", " ").split()
        if words and words[0].upper() == KEYWORD:
            words = words[1:]
        if len(words) < 2 or words[0].upper() != request.power:
            return None
        named = tuple(dict.fromkeys(unit.upper() for unit in words[1:]))
        return None if check_substitution(named, request.context) else named

    def check_policy(self, text: str) -> str:
        return "a substitution is answered by a SUBSTITUTE line the turn a power's card changes, not by a policy"

    def order_form(self, request: Request) -> str:
        return form(str(request.power), request.default)


SUBSTITUTE_KIND = SubstituteKind()


def take_card(state: GameState, power: str, card: PowerCardChange, going: Sequence[str] = ()) -> list[str]:
    """RR-I207: the units that match a counter or quality of the new card keep it, but for
    those its owner named (`going`, by default the newest); the surplus 3-4 troops are
    degraded to 2-3 and Q3 squadrons to Q2 while the card has those left, in the order named,
    and the others are eliminated. Veterans stay veterans. The pools become what the new card
    has less what is on the map."""
    texts = [f"{power} takes a new power card: troops {card.troops}, squadrons {card.squadrons}"]
    left = {counter: card.troops.get(counter, 0) for counter in COUNTER_TYPES}
    for troop in _unmatched([t for t in state.troops if t.power == power], left, lambda t: t.counter, going):
        if troop.counter == COUNTER_TYPES[1] and left[COUNTER_TYPES[0]] > 0:
            left[COUNTER_TYPES[0]] -= 1
            veteran = troop.veteran
            troop.counter = COUNTER_TYPES[0]
            troop.quality = regular_quality(troop.counter) + veteran
            texts.append(f"{troop.id} degraded to {troop.counter}")
        else:
            state.troops.remove(troop)
            texts.append(f"{troop.id} eliminated: the new card has no counter for it"
                         + "".join(f" ({t})" for t in remove_unit_leader(state, troop.id)))
    fleet = {quality: card.squadrons.get(quality, 0) for quality in ("2", "3")}
    for squadron in _unmatched([s for s in state.squadrons if s.power == power], fleet, lambda s: str(s.quality),
                               going):
        if squadron.quality == 3 and fleet["2"] > 0:
            fleet["2"] -= 1
            squadron.quality = 2
            texts.append(f"{squadron.id} degraded to Q2")
        else:
            state.squadrons.remove(squadron)
            texts.append(f"{squadron.id} eliminated: the new card has no squadron for it"
                         + "".join(f" ({t})" for t in remove_unit_leader(state, squadron.id)))
    state.powers[power].pool = left
    state.powers[power].squadron_pool = fleet
    return texts


def _unmatched(units: list, left: dict[str, int], kind: Callable[[Any], str], going: Sequence[str] = ()) -> list:
    """The units for which `left` has no slot of their kind — those named in `going` first, in
    the order named, then the newest — the slots the others take counted off `left`."""
    named = [u for unit_id in going for u in units if u.id == unit_id]
    rest = []
    for unit in sorted((u for u in units if u.id not in going), key=lambda u: int(u.id[1:])):
        if left.get(kind(unit), 0) > 0:
            left[kind(unit)] -= 1
        else:
            rest.append(unit)
    return named + rest
