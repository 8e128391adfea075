"""Social agitation carried out, collapse and dynastic change at turn end (§23.2–§23.4;
examples §32.8, §32.9).

E5 (research §2.5): a power whose unrest reaches 20 collapses; the other agitated powers
answer the `agitation` decision (`agitation.py`) — revolts, troops dispersed against them,
or a voluntary dynastic change; a power with every possession in revolt collapses. E7: on
the last turn every power still agitated must change its dynasty (§23.4).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import agitation, battles, minors, rebellions, sieges, unrest
from pbem.rules.ratio_regis.economy import played
from pbem.rules.ratio_regis.scenario import Rebellion, Scenario
from pbem.rules.ratio_regis.state import GameState

#: §23.2: unrest at which a power collapses into a dynastic change.
COLLAPSE_UNREST = 20


def social_agitation(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.2: collapse at unrest 20 or more (the revolts it would place go with the dynastic
    change, so none is asked, RR-I106); the agitated powers answer at once; then a power with
    every possession in revolt collapses (not one that changed its dynasty in this phase: its
    R3 revolts are the change's own). On the last turn an agitated power is not asked: it
    must change its dynasty after the VP (§23.4, `last_turn`)."""
    final = state.turn >= scenario.data.last_turn
    powers = played(state, scenario)
    changed = [code for code in powers if state.powers[code].unrest >= COLLAPSE_UNREST]
    for code in changed:
        change(ctx, state, scenario, code, collapse=True, redeploys=not final,
               why=f"its unrest {state.powers[code].unrest} reaches {COLLAPSE_UNREST}")
    asked = [] if final else [code for code in powers if agitation.excess(state, scenario, code) > 0]
    answers = ctx.decide_all([agitation.request(ctx, state, scenario, code) for code in asked]) if asked else []
    for code, answer in zip(asked, answers, strict=True):
        if answer == agitation.DYNASTY:
            changed.append(code)
            change(ctx, state, scenario, code, collapse=False, why="a voluntary dynastic change")
        else:
            _revolts(ctx, state, scenario, code, answer)
    for code in powers:
        if code not in changed and in_revolt_everywhere(state, scenario, code):
            change(ctx, state, scenario, code, collapse=True, redeploys=not final,
                   why="every area it possesses is in revolt")


def _revolts(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, answer: str) -> None:
    """§23.2, §32.8: the troops named disperse (each cancels as many revolts as its quality;
    unrest stays), and the owner places the R2 revolts left in its possessions within
    §18.3's limits, or anywhere without revolt when no possession meets them (RR-I104)."""
    over, level = agitation.excess(state, scenario, code), state.powers[code].unrest
    troops = answer.split()[-1].split(",") if answer.startswith("DISPERSE") else []
    cancelled = 0
    for troop in troops:
        cancelled += state.troop(troop).quality
        battles.disperse(state, scenario, ctx, troop)
    if troops:
        sieges.lift_ended_sieges(state, ctx)
    left = max(0, over - cancelled)
    dispersed = f"; it disperses {', '.join(troops)}, cancelling {min(cancelled, over)}" if troops else ""
    ctx.say(f"{code}'s unrest {level} exceeds twice its vitality ({2 * scenario.powers[code].vitality}) by {over}"
            f"{dispersed}: {left} R2 revolt(s) to place; unrest stays {level}", rule="§23.2")
    if not left:
        return
    rebellion = Rebellion(level="R2", count=left, powers=[code])
    player = state.powers[code].player
    for text in rebellions.place(state, scenario, ctx, player, f"{code}'s social agitation", {"agitation": code},
                                 rebellion, [], power=code):
        ctx.say(f"{code}'s social agitation: {text}", rule="§23.2")


def possessions(state: GameState, scenario: Scenario, code: str) -> list[str]:
    """The areas in play the power possesses, in the scenario's order."""
    return [a.id for a in scenario.data.areas if state.areas[a.id].possessor == code and state.exists(a.id)]


def in_revolt_everywhere(state: GameState, scenario: Scenario, code: str) -> bool:
    """§23.2: "(or that have rebellions in all its territory)" — a power with no possession
    left is not in revolt everywhere (RR-I106)."""
    owned = possessions(state, scenario, code)
    return bool(owned) and all(state.areas[a].rebellion for a in owned)


def change(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, *, collapse: bool, why: str,
           redeploys: bool = True) -> None:
    """§23.3, §32.9: the player loses the power's vitality in VP (twice after a collapse); its
    allied minors turn neutral (their units off the map, §20.4.1); the power's units (troops, squadrons, fortresses, leaders), merchants and the revolts in
    its possessions are removed; its unrest is set to its vitality. Unless the game ends
    (`redeploys`), it owes a redeployment at the next turn start with the card's income as
    points (recorded in `redeployment`) and places now one R3 revolt per two points of
    vitality in its possessions (RR-I107)."""
    card, power = scenario.powers[code], state.powers[code]
    player = state.player(power.player)
    loss = card.vitality * (2 if collapse else 1)
    player.vp -= loss
    kind = "collapses into a dynastic change" if collapse else "makes a dynastic change"
    ctx.say(f"{code} {kind} ({why}): {player.name} loses {loss} VP and has {player.vp}", rule="§23.3")
    minors.abandon(ctx, state, scenario, code, f"{code}'s dynastic change")  # §23.3: its minors turn neutral
    gone = _remove_units(ctx, state, code)
    trade = sorted(tc for tc, merchants in state.merchants.items() if merchants.pop(code, 0))
    calmed = [a for a in possessions(state, scenario, code) if state.areas[a].rebellion]
    for area in calmed:
        state.areas[area].rebellion = None
    level = unrest.adjust(state, code, card.vitality - power.unrest)
    ctx.say(f"{code}: its units are eliminated ({', '.join(gone) or 'none'}), its merchants removed "
            f"({', '.join(trade) or 'none'}), the revolts in its territory end ({', '.join(calmed) or 'none'}); "
            f"{level}", rule="§23.3")
    if not redeploys:
        return
    power.redeployment = card.income
    ctx.say(f"{code} redeploys at the start of the next turn as if entering the game, with {card.income} points "
            f"(its card's income) (§23.3, §24)", rule="§23.3")
    count = card.vitality // 2
    if count:
        rebellion = Rebellion(level="R3", count=count, powers=[code])
        for text in rebellions.place(state, scenario, ctx, player.id, f"{code}'s dynastic change", {"dynasty": code},
                                     rebellion, [], power=code):
            ctx.say(f"{code}'s dynastic change: {text}", rule="§23.3")


def _remove_units(ctx: DecisionPort, state: GameState, code: str) -> list[str]:
    """Every military unit of the power eliminated (counters back to its pools, leaders to
    the leader pool), sieges it kept or suffered ended (§13.4.5)."""
    leaders = [lead for lead in state.leaders if lead.power == code]
    for leader in leaders:
        state.leaders.remove(leader)
        state.leader_pool.append(leader.id)
    units = [t.id for t in state.troops if t.power == code] + [s.id for s in state.squadrons if s.power == code]
    units += [f.id for f in state.fortresses if f.power == code]
    for unit in units:
        battles.eliminate(state, unit)
    sieges.lift_ended_sieges(state, ctx)
    return units + [lead.id for lead in leaders]


def last_turn(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.4: after the last turn's end, every power with social agitation (unrest above
    twice its vitality) must make a dynastic change; the game ends, so nothing is redeployed."""
    for code in played(state, scenario):
        over = agitation.excess(state, scenario, code)
        if over:
            change(ctx, state, scenario, code, collapse=False, redeploys=False,
                   why=f"its unrest exceeds twice its vitality by {over} on the last turn (§23.4)")
