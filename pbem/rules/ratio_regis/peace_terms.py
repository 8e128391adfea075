"""Peace conditions (§21.5.3): the table the winner of a war spends its conditions on, the
`terms` decision that asks for them, and what the chosen terms do.

The answer is one line, `TERMS VP 2, UNREST 1, DOMAIN Lyon, LOOT Marseille, ELIMINATE WM,
REPLACE EA, BREAK NAV, ALLY SAV` or `TERMS NONE`. What each term costs and what it may name is
computed by the rules when they ask (`offer`) and carried in the request's context, so a line is
checked, and refused with its reason, when it is read (RR-I164, RR-I261).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import french_wars, minors
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState

#: Conditions a term costs (§21.5.3); VP costs 2, or 1 with a "military victory" objective.
COSTS = {"UNREST": 1, "LOOT": 1, "ELIMINATE": 2, "REPLACE": 3}
#: Terms naming a place (an area, a trade center or a minor power), each place once.
PLACED = ("DOMAIN", "LOOT", "ELIMINATE", "REPLACE", "BREAK", "ALLY")
#: Terms with a count.
COUNTED = ("VP", "UNREST")
#: The terms about a minor's alliance (§21.5.3, RR-I261): one minor is named in one of them only.
MINOR_TERMS = ("BREAK", "ALLY")
#: Terms that exclude each other on one place: a merchant eliminated or replaced, a minor broken away or allied.
EXCLUSIVE = (("ELIMINATE", "REPLACE"), MINOR_TERMS)
AUTO = "AUTO"
TERM_WORDS = ("VP <n>, UNREST <n>, DOMAIN <area>, LOOT <area>, ELIMINATE <trade center>, REPLACE <trade center>, "
              "BREAK <minor>, ALLY <minor>")


@dataclass(frozen=True)
class Term:
    word: str
    value: str  # a count for VP/UNREST, else the place

    def text(self) -> str:
        return f"{self.word} {self.value}"


def parse_terms(text: str) -> tuple[Term, ...] | None:
    """A `TERMS …` line as its terms (empty for `TERMS NONE`, `AUTO` for `TERMS AUTO`, the
    request's default); None for another line."""
    words = text.split(None, 1)
    if not words or words[0].upper() != "TERMS":
        return None
    body = words[1].strip() if len(words) > 1 else ""
    if not body:
        raise Refusal(f"write TERMS <term>, <term> … or TERMS NONE (terms: {TERM_WORDS})")
    if body.upper() == "NONE":
        return ()
    if body.upper() == "AUTO":
        return AUTO
    terms = []
    for item in body.split(","):
        parts = item.split()
        word = parts[0].upper() if parts else ""
        if len(parts) != 2 or word not in COUNTED + PLACED:
            raise Refusal(f"cannot read the term {item.strip()!r}: {TERM_WORDS}")
        if word in COUNTED and not (parts[1].isdigit() and int(parts[1]) > 0):
            raise Refusal(f"{word} takes a number of at least 1, not {parts[1]!r}")
        terms.append(Term(word, parts[1]))
    return tuple(terms)


def form_terms(terms: Sequence[Term] | str) -> str:
    if terms == AUTO:
        return "TERMS AUTO"
    if isinstance(terms, str):
        return terms
    return "TERMS " + (", ".join(term.text() for term in terms) or "NONE")


def cost(term: Term, context: Mapping[str, Any]) -> int:
    if term.word == "VP":
        return int(term.value) * int(context["vp_cost"])
    if term.word == "UNREST":
        return int(term.value)
    if term.word == "DOMAIN":
        return int(context["domains"][term.value])
    if term.word in MINOR_TERMS:
        return int(context["minors"][term.value]) + (term.word == "ALLY")
    return COSTS[term.word]


def check_terms(request: Request, terms: Sequence[Term] | str) -> str:
    """The terms fitted to what the request offers: each place checked, each named once, and
    the total within the winner's conditions (§21.5.3); the canonical answer."""
    if terms == AUTO:
        return request.default
    if isinstance(terms, str):
        terms = parse_terms(terms) or ()
    context = request.context
    fitted, named = [], set()
    for term in terms:
        if term.word in PLACED:
            place = _place(term, context)
            rivals = next((pair for pair in EXCLUSIVE if term.word in pair), (term.word,))
            if any((word, place) in named for word in rivals):
                raise Refusal(f"{term.text()} is named twice")
            named.add((term.word, place))
            term = Term(term.word, place)
        fitted.append(term)
    total = sum(cost(term, context) for term in fitted)
    if total > context["conditions"]:
        spent = ", ".join(f"{term.text()} {cost(term, context)}" for term in fitted)
        raise Refusal(f"these terms cost {total} conditions ({spent}); {context['winner']} has "
                      f"{context['conditions']} (§21.5.3)")
    return form_terms(fitted)


def _place(term: Term, context: Mapping[str, Any]) -> str:
    """The place a term names, as the game spells it, or why it cannot be named."""
    loser, winner = context["loser"], context["winner"]
    minor_allies = context.get("minors", {})
    allowed: Mapping[str, Any] | Sequence[str] = {
        "DOMAIN": context["domains"], "LOOT": context["ports"], "ELIMINATE": context["eliminate"],
        "REPLACE": context["replace"], "BREAK": minor_allies, "ALLY": minor_allies}[term.word]
    match = next((name for name in allowed if name.upper() == term.value.upper()), None)
    if match is not None:
        return match
    if term.word == "DOMAIN":
        if term.value.upper() in (area.upper() for area in context["home"]):
            raise Refusal(f"{term.value} is a home area of {loser}: home areas are never ceded (§21.5.3, glossary)")
        why = (f"a domain of {loser}'s that {winner} controls (1 condition), or one it does not that borders "
               f"another theater (2 conditions)")
    elif term.word == "LOOT":
        why = f"a commercial port of {loser}'s, not razed (§21.5.3)"
    elif term.word in MINOR_TERMS:
        why = (f"a minor power allied to {loser} in a theater of {winner}'s interest, not a mercenary one "
               f"(§21.5.3, §20.6)")
    else:
        why = f"a trade center with a merchant of {loser}'s and one of {winner}'s (§21.5.3)"
    listed = ", ".join(allowed) or "none"
    raise Refusal(f"{term.value} cannot be named in {term.word}: it takes {why}; possible: {listed}")


TERMS_KIND = LineKind("terms", "the conditions of peace you take as the winner (§21.5.3): TERMS VP <n>, "
                               "UNREST <n>, DOMAIN <area>, LOOT <area>, ELIMINATE <tc>, REPLACE <tc>, BREAK <minor>, "
                               "ALLY <minor> | TERMS NONE | TERMS AUTO",
                      parse=parse_terms, form=form_terms, check=check_terms, keywords=("TERMS",))


# -- what may be asked -----------------------------------------------------------------
def offer(state: GameState, scenario: Scenario, winner: str, loser: str, conditions: int) -> dict[str, Any]:
    """What `winner` may take from `loser` (§21.5.3), as the request's context."""
    home = scenario.powers[loser].home_areas
    domains: dict[str, int] = {}
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if status.possessor != loser or area.id in home or area.minor is not None or not state.exists(area.id):
            continue
        if status.controller == winner:
            domains[area.id] = 1  # a conquered domain (v2.1: "a domain the winner controls")
        elif _border(scenario, area.id):
            # "a non conquered domain that started the war as a border area", whoever holds it now:
            # the rule goes on to send home the third powers holding areas so ceded (RR-I164)
            domains[area.id] = 2
    ports = [a.id for a in scenario.data.areas if a.port and state.areas[a.id].possessor == loser
             and not state.areas[a.id].razed]
    shared = [tc for tc, held in state.merchants.items() if held.get(loser, 0) > 0 and held.get(winner, 0) > 0]
    return {"winner": winner, "loser": loser, "conditions": conditions,
            "vp_cost": 1 if loser in scenario.powers[winner].military_victory
            or french_wars.between(state, scenario, winner, loser) else 2,  # §33.4 (RR-I275)
            "domains": domains, "home": tuple(home), "ports": tuple(ports), "eliminate": tuple(shared),
            "replace": tuple(shared), "minors": _minors(state, scenario, winner, loser)}


def _minors(state: GameState, scenario: Scenario, winner: str, loser: str) -> dict[str, int]:
    """RR-I261: the minors allied to the loser in a theater of the winner's interest (§21.5.3), a
    mercenary one excepted (§20.6: "they can only be lost in an auction"), with the conditions
    breaking the alliance costs: 1, and under v2.1 one more for an independent minor (v2.1
    §21.5.3); allying it to the winner costs one more than breaking it."""
    extra = state.options.variant == "v2.1"
    return {minor.code: 1 + (extra and minor.independent) for minor in scenario.data.minors
            if state.minors[minor.code].ally == loser and not minor.mercenary
            and scenario.interested_in_theater(winner, minor.theater, state.interests.get(winner, []))}


def _border(scenario: Scenario, area: str) -> bool:
    """§18.5: an area connected to an area of another theater."""
    theater = scenario.areas[area].theater
    return any(scenario.areas[n].theater != theater for n in scenario.areas[area].adjacent if n in scenario.areas)


def default_terms(context: Mapping[str, Any]) -> str:
    """As many VP as the conditions buy, the rest on unrest (§21.5.3; RR-I164)."""
    vp = context["conditions"] // context["vp_cost"]
    rest = context["conditions"] - vp * context["vp_cost"]
    return form_terms([Term(word, str(n)) for word, n in (("VP", vp), ("UNREST", rest)) if n])


def ask_terms(state: GameState, scenario: Scenario, judge: DecisionPort, winner: str, loser: str,
              conditions: int) -> str:
    """The winner's terms: asked of its player, the default for a power nobody plays."""
    context = offer(state, scenario, winner, loser, conditions)
    default = default_terms(context)
    player = state.powers[winner].player
    if player is None or conditions < 1:
        return default
    request = judge.request(kind="terms", player=player, power=winner, purpose="terms", default=default,
                            options=[default], rule="§21.5.3", context=context,
                            prompt=f"{winner} wins the war against {loser} with {conditions} condition(s) of peace "
                                   f"(§21.5.3): VP cost {context['vp_cost']} each; domains "
                                   f"{_listed(context['domains'])}; ports to loot {_listed(context['ports'])}; "
                                   f"merchants {_listed(context['eliminate'])}; minors to break away (ALLY: one "
                                   f"more) {_listed(context['minors'])}; default {default}")
    return judge.decide(request)


def _listed(items: Any) -> str:
    if isinstance(items, Mapping):
        return ", ".join(f"{k} ({v})" for k, v in items.items()) or "none"
    return ", ".join(items) or "none"


# -- what the terms do -------------------------------------------------------------------
def apply_terms(state: GameState, scenario: Scenario, judge: DecisionPort, winner: str, loser: str,
                answer: str) -> list[str]:
    """The terms carried out (§21.5.3); returns the areas ceded to the winner. VP the winner
    gains are not taken from the loser."""
    ceded = []
    for term in parse_terms(answer) or ():
        if term.word == "VP":
            text = gain_vp(state, winner, int(term.value))
        elif term.word == "UNREST":
            n = int(term.value)
            state.powers[winner].unrest = max(0, state.powers[winner].unrest - n)
            state.powers[loser].unrest += n
            text = f"{winner}'s unrest −{n}, {loser}'s +{n}"
        elif term.word == "DOMAIN":
            status = state.areas[term.value]
            status.possessor = status.controller = winner
            ceded.append(term.value)
            text = f"{loser} cedes {term.value} to {winner}"
        elif term.word == "LOOT":
            state.areas[term.value].razed = True
            text = f"{winner} loots the commercial port of {term.value} (trade interrupted)"
        elif term.word in MINOR_TERMS:
            text = _minor_term(state, scenario, judge, winner, loser, term)
        else:
            held = state.merchants[term.value]
            held[loser] -= 1
            if term.word == "REPLACE":
                held[winner] = held.get(winner, 0) + 1
            text = (f"{loser}'s merchant in {term.value} is " +
                    ("replaced by one of " + winner + "'s" if term.word == "REPLACE" else "eliminated"))
        judge.say(f"Peace terms: {text}", rule="§21.5.3")
    return ceded


def _minor_term(state: GameState, scenario: Scenario, judge: DecisionPort, winner: str, loser: str,
                term: Term) -> str:
    """RR-I261: `BREAK` turns the minor neutral (§20.4.1); `ALLY` allies it to the winner as an
    alliance by card would (§20.3.4: reinforcements, card fortresses, the repatriations of
    §20.4.2)."""
    name = scenario.minors[term.value].name
    why = f"peace between {winner} and {loser}"
    if term.word == "BREAK":
        minors.neutral(judge, state, scenario, term.value, why)
        return f"{loser}'s alliance with {name} is broken: {name} is neutral"
    minors.ally(judge, state, scenario, term.value, winner, why)
    return f"{name} leaves {loser}'s alliance for {winner}'s"


def gain_vp(state: GameState, power: str, vp: int) -> str:
    """The VP go to the player who runs `power` (§22); the chronicle's words."""
    seat = state.give_vp(power, vp)
    if seat is None:
        return f"{power} is played by nobody: its {vp} VP go to no one"
    return f"{seat.name} gains {vp} VP for {power} and has {seat.vp}"
