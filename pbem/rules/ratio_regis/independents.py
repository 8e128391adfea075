"""Independent minor powers (§20.5; example §29.4): a major may declare war on one as on a
major power, which drags its ally into the war; and whenever its ally enters a war — or allies
with it while at war — the ally announces whether the minor enters that war too. A minor kept
out is first treated as if it turned neutral (§20.4.1) and then as neutral until that war ends
(RR-I149, RR-I254…RR-I256).

The minors' counters lifted from the map back to their cards live here too, shared with
`minors.py` (alliances, neutrality), so that the rules of war can ask this module without the
minors' auction and repatriation rules (which themselves fight and so reach the rules of war).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.fortresses import destroy_in_minor, in_minor
from pbem.rules.ratio_regis.leaders import remove_unit_leader
from pbem.rules.ratio_regis.reassignment import leaders_left
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, War


def announce(ctx: DecisionPort, state: GameState, scenario: Scenario, war: War,
             dragged: str | None = None) -> list[str]:
    """§20.5: "When a major power that controls one of these minor powers enters a war, it must
    immediately announce which allied independent minor powers enter the war with it" — each
    side's independent minors, in the scenario's order, a `minorwar` question each (default YES;
    `dragged`, the minor whose war it is, enters without one, RR-I254). A minor already kept out
    of another war is neutral until that war ends, so it stays out of this one too (RR-I255).
    Returns the chronicle lines."""
    texts = []
    for power in war.sides:
        enemy = war.enemy(power)
        for minor in scenario.data.minors:
            status = state.minors[minor.code]
            if not minor.independent or status.ally != power or minor.code == dragged:
                continue
            if status.neutral_in:
                status.neutral_in.append(enemy)
                texts.append(f"{minor.code}, neutral until the end of {power}'s war with "
                             f"{status.neutral_in[0]}, stays out of its war with {enemy} too (§20.5)")
                ctx.say(texts[-1], rule="§20.5")
            else:
                texts += join(ctx, state, scenario, minor.code, [enemy])
    return texts


def join(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, enemies: Sequence[str]) -> list[str]:
    """§20.5, §29.4: the minor's ally says whether the minor enters its war with `enemies` (one
    question for them all: `MINORWAR FRA,SPA YES|NO`); YES, it is in them like any minor; NO,
    it stays out (`stay_out`). A power nobody runs says YES. Returns the chronicle lines."""
    status = state.minors[code]
    power = status.ally
    player = state.powers[power].player
    named = ",".join(enemies)
    default = f"MINORWAR {named} YES"
    answer = default if player is None else ctx.decide(ctx.request(
        kind="minorwar", player=player, power=power, purpose=f"minorwar-{code}-{named}", default=default,
        options=[default, f"MINORWAR {named} NO"], rule="§20.5",
        prompt=f"Does your independent minor {code} enter your war with {named}?",
        context={"minor": code, "enemy": named}))
    if answer.split()[-1] == "YES":
        texts = [f"{code} enters {power}'s war with {enemy} (§20.5)" for enemy in enemies]
        for text in texts:
            ctx.say(text, rule="§20.5, §29.4")
        return texts
    return stay_out(ctx, state, scenario, code, enemies)


def stay_out(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, enemies: Sequence[str]) -> list[str]:
    """§20.5: "If the major power decides not to drag the minor power into the war, then first
    proceed as if the minor power becomes neutral (see 20.4.1), and then treat it as if it is
    neutral until the end of the war": its troops, squadrons and card fortresses go back on its
    card (the eliminated ones too), rebellions in its areas are removed, its ally loses the
    control of its areas and its own fortresses there (RR-I252). It stays allied (`neutral_in`
    names the enemies): its troops wait on its card for a later alliance (RR-I149); the majors'
    units in its areas stay where they are (RR-I255)."""
    status = state.minors[code]
    power = status.ally
    status.neutral_in += [enemy for enemy in enemies if enemy not in status.neutral_in]
    notes = release(ctx, state, scenario, code, power, f"{code} stays out of {power}'s war")
    text = (f"{code} stays out of {power}'s war with {', '.join(enemies)}, neutral in it: its units go back on its "
            f"card" + "".join(f"; {n}" for n in notes) + " (§20.5)")
    ctx.say(text, rule="§20.5, §29.4")
    return [text]


def release(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, former: str | None,
            why: str) -> list[str]:
    """§20.4.1 as a minor turning neutral, or kept out of a war as if it did (§20.5): its units
    back on its card, rebellions in its areas removed (`clear`), and its `former` ally's control
    of its areas and own fortresses there gone (§20.2, RR-I252). Returns the notes of what went."""
    areas = scenario.minor_areas(code)
    going = [f.id for f in in_minor(state, former, areas)] if former is not None else []
    notes = clear(ctx, state, scenario, code, why, going)
    if former is None:
        return notes
    for area in areas:
        if state.areas[area].controller == former:
            state.areas[area].controller = None
    return notes + destroy_in_minor(ctx, state, former, areas)


def clear(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, why: str,
          going: Sequence[str] = ()) -> list[str]:
    """§20.4.1: "the minor power's troops are removed from the board (including those
    eliminated) and placed as available for future alliances. Rebellions in the minor power's
    areas are eliminated." `going`: the former ally's fortresses destroyed with the alliance
    (§20.2), where no leader may go. Returns the rebellions removed, as notes."""
    status = state.minors[code]
    lift_units(ctx, state, code, why, going)
    rebuild(status.eliminated, status.pool, status.squadron_pool)
    notes = []
    for area in scenario.minor_areas(code):
        if state.areas[area].rebellion:
            notes.append(f"the rebellion in {area} is removed")
            state.areas[area].rebellion = None
    return notes


def lift_units(ctx: DecisionPort, state: GameState, code: str, why: str, going: Sequence[str] = ()) -> None:
    """The minor's troops and squadrons on the map (besieged too, §20.3.2) back to its card, and
    its card fortresses off the map until rebuilt. A major's leader on one of its troops leaves
    it as §14.3 says of armies of allies — for a troop of its own power beside it, else another
    unit, never one of the minor's nor of `going` (RR-I286); leaders on its squadrons and
    fortresses go back to the pool."""
    status = state.minors[code]
    units = [u.id for u in [*state.troops, *state.squadrons, *state.fortresses] if u.minor == code]
    leaders_left(state, ctx, [t.id for t in state.troops if t.minor == code], why, going=[*units, *going])
    for troop in [t for t in state.troops if t.minor == code]:
        remove_unit_leader(state, troop.id)
        state.troops.remove(troop)
        status.pool[troop.counter] = status.pool.get(troop.counter, 0) + 1
    for squadron in [s for s in state.squadrons if s.minor == code]:
        remove_unit_leader(state, squadron.id)
        state.squadrons.remove(squadron)
        status.squadron_pool[str(squadron.quality)] = status.squadron_pool.get(str(squadron.quality), 0) + 1
    for fortress in [f for f in state.fortresses if f.minor == code]:
        remove_unit_leader(state, fortress.id)
        state.fortresses.remove(fortress)


def rebuild(eliminated: dict[str, int], pool: dict[str, int], squadron_pool: dict[str, int]) -> None:
    """The eliminated box emptied into the minor's card (troop counters; squadrons as "Q2")."""
    for kind, count in sorted(eliminated.items()):
        target, key = (squadron_pool, kind[1:]) if kind.startswith("Q") else (pool, kind)
        target[key] = target.get(key, 0) + count
    eliminated.clear()


def war_over(ctx: DecisionPort, state: GameState, scenario: Scenario, war: War) -> list[str]:
    """§20.5: a minor kept out of a war is neutral "until the end of the war". At that peace
    the enemy leaves its `neutral_in`; out of every such war, it is its ally's again like any
    minor: the ally controls its areas nobody holds (§20.2, RR-I141), its units waiting on its
    card for the next alliance (§20.4.1 "available for future alliances", RR-I149, RR-I255)."""
    texts = []
    for minor in scenario.data.minors:
        status = state.minors[minor.code]
        if status.ally not in war.sides or war.enemy(status.ally) not in status.neutral_in:
            continue
        status.neutral_in.remove(war.enemy(status.ally))
        if status.neutral_in:
            continue
        for area in scenario.minor_areas(minor.code):
            if state.areas[area].controller is None:
                state.areas[area].controller = status.ally
        texts.append(f"the war is over: {minor.code} is no longer neutral and its areas are {status.ally}'s again; "
                     f"its units wait on its card for the next alliance (§20.5)")
        ctx.say(texts[-1], rule="§20.5")
    return texts
