"""Alliances between major powers (§21.1–§21.2; examples §28.1, §28.2).

An alliance is declared at the start of a player's impulse (`<POWER> F ALLY <POWER>`),
where a power card or an event allows it (RR-I180), with the other power's consent and
never between powers at war. Allies are in forced peace with each other (§21.1). When a
war breaks out, each side's allies may enter it against the other side at once, at no
cost and without the war VP an event gives (§21.1, §28.2, §31.6): one `joinwar` decision
per ally. Allies trace strategic moves and supply through each other's areas (§21.2.1,
`movement.py`, `supply.py`), may cede troops (§21.2.2, `expeditions.py`) and combine
fleets (§21.2.3, `naval.py`), and every alliance ends at turn end (§23, `end_alliances`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import independents
from pbem.rules.ratio_regis.actions import ImpulseRun, check_other_power
from pbem.rules.ratio_regis.consent import consent
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.naval import release
from pbem.rules.ratio_regis.orders import Ally
from pbem.rules.ratio_regis.reactions import ask_all
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, War


def permitted(state: GameState, scenario: Scenario, power: str, other: str) -> bool:
    """§21.1 "as long as it is expressly permitted by any event card or scenario rule"
    (RR-I180): either power's card names the other, or an event allowed the pair."""
    return (other in scenario.powers[power].alliances or power in scenario.powers[other].alliances
            or any({power, other} == set(pair) for pair in state.alliance_permits))


def declare_alliance(state: GameState, scenario: Scenario, power: str, order: Ally, run: ImpulseRun) -> str:
    """§21.1: at the start of the impulse, with the other power's consent, if a card or an
    event permits it and the two are not at war. Once allied, each may at once enter the
    other's wars (§21.1: "it is when the alliance is announced that the major powers allied
    must announce if they will enter the war or not")."""
    other = order.power
    check_other_power(state, scenario, power, other, "ally with")
    if state.allied(power, other):
        raise IllegalOrder(f"{power} and {other} are already allied")
    if state.at_war(power, other):
        raise IllegalOrder(f"{power} and {other} are at war: powers at war cannot ally (§21.1)")
    if not permitted(state, scenario, power, other):
        raise IllegalOrder(f"no card or event allows {power} and {other} to ally: an alliance must be expressly "
                           f"permitted by an event card or the scenario (§21.1)")
    if not consent(state, run.judge, power, other, f"an alliance to {other}", "§21.1"):
        text = f"{other} refuses the alliance {power} proposes (§21.1)"
        run.judge.say(text, rule="§21.1")
        return text
    text = f"{power} and {other} are allied until the end of the turn, in forced peace with each other (§21.1)"
    run.judge.say(text, rule="§21.1")
    ally_powers(state, scenario, run.judge, power, other)
    return text


def ally_powers(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, other: str) -> list[str]:
    """§21.1: the two are allied; each may at once enter the other's wars. Returns the
    chronicle lines of those decisions."""
    state.alliances.append((power, other))
    offers = [(power, war.enemy(other), other) for war in state.wars if other in war.sides]
    offers += [(other, war.enemy(power), power) for war in state.wars if power in war.sides]
    return offer_wars(state, scenario, judge, offers)


def call_allies(state: GameState, scenario: Scenario, judge: DecisionPort, first: str, second: str) -> list[str]:
    """§21.1, §28.2: `first` and `second` have gone to war; the allies of each may enter the
    war against the other. Returns the chronicle lines."""
    offers = [(ally, second, first) for ally in state.allies(first)]
    offers += [(ally, first, second) for ally in state.allies(second)]
    return offer_wars(state, scenario, judge, offers)


def may_join(state: GameState, ally: str, enemy: str) -> bool:
    """An ally may enter a war against `enemy` unless it is at war with it already, or in
    forced peace (or allied) with it (§21.5.4); under v2.1 never against a power of its own
    player (v2.1 §21.3: "two powers run by the same player can never go to war")."""
    if ally == enemy or not state.powers[ally].active or state.powers[ally].player is None:
        return False
    if state.at_war(ally, enemy) or state.in_forced_peace(ally, enemy):
        return False
    return not (state.options.variant == "v2.1" and state.powers[ally].player == state.powers[enemy].player)


def offer_wars(state: GameState, scenario: Scenario, judge: DecisionPort,
               offers: Sequence[tuple[str, str, str]]) -> list[str]:
    """Each (ally, enemy, side) offer asks the ally whether it enters the war against
    `enemy` on `side`'s side (a `joinwar` decision, default STAYOUT, RR-I182); the offers of
    one outbreak are asked together and revealed together. A war an ally enters breaks out
    in turn, so the allies of its two powers are asked next; it gives no VP (§31.6)."""
    texts: list[str] = []
    wave = list(offers)
    while wave:
        asked: list[tuple[str, str, str]] = []
        for ally, enemy, side in wave:
            if may_join(state, ally, enemy) and all((ally, enemy) != (a, e) for a, e, _ in asked):
                asked.append((ally, enemy, side))
        specs = [(state.powers[ally].player, ally,
                  {"options": ["JOINWAR", "STAYOUT"], "default": "STAYOUT",
                   "context": {"ally": side, "enemy": enemy}}) for ally, enemy, side in asked]
        answers = ask_all(judge, specs, "joinwar", rule="§21.1",
                          prompt="your ally is at war: enter the war against its enemy? JOINWAR or STAYOUT")
        wave = []
        for (ally, enemy, side), answer in zip(asked, answers, strict=True):
            if answer.word != "JOINWAR":
                texts.append(f"{ally} stays out of the war of its ally {side} against {enemy} (§21.1)")
                judge.say(texts[-1], rule="§21.1")
                continue
            state.wars.append(War(sides=(ally, enemy), cause="ally"))
            state.casus_belli = [cb for cb in state.casus_belli if set(cb) != {ally, enemy}]
            texts.append(f"{ally} enters the war of its ally {side}: {ally} and {enemy} are at war, without the "
                         f"VP of a war begun by an event (§21.1, §28.2, §31.6)")
            judge.say(texts[-1], rule="§21.1")
            texts += independents.announce(judge, state, scenario, state.wars[-1])  # §20.5
            wave += [(other, enemy, ally) for other in state.allies(ally)]
            wave += [(other, ally, enemy) for other in state.allies(enemy)]
    return texts


def end_alliances(ctx: DecisionPort, state: GameState) -> None:
    """§23: every alliance ends at turn end (research §4.15), and with it every combined
    fleet (§21.2.3); the expeditionary corps went home just before
    (`expeditions.repatriate_all`, §21.2.2). A scenario's alliance "until war breaks out"
    (§33.4, `until_war`) lasts from turn to turn until a war between the two ends it (RR-I188)."""
    released = release(state, state.squadrons)
    if released:
        ctx.say(f"The combined fleets dissolve: {', '.join(released)} return to their powers (§21.2.3)",
                rule="§21.2.3")
    lasting = ctx.scenario.alliances_until_war()
    ending = [pair for pair in state.alliances if frozenset(pair) not in lasting]
    if ending:
        pairs = ", ".join(f"{first}–{second}" for first, second in ending)
        ctx.say(f"The alliances end with the turn: {pairs} (§21.1, §23)", rule="§23")
    state.alliances = [pair for pair in state.alliances if frozenset(pair) in lasting]
    state.combined = {}
