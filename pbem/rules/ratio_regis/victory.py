"""Victory points at the end of the turn and the end of the game (§22, §23.1.3, §23.4, §33.1).

The end-of-turn count (research §2.5, E6) gives each player the VP of its powers: the
objectives of their cards, of the event cards played this turn and of their allied minor
powers (§22); one per main-map theater with presence (glossary, §32.7); the scenario's VP
for a province; one per trade monopoly (§19.2.5, `commerce.monopolies`); then the player's
own, the scenario's VP per turn (§7.1.1, §26.1). Each line is said in the chronicle and kept
in `state.vp_lines` for the VP table. After the last turn (E7) the most VP wins, ties going
by game order (§23, RR-I16).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import commerce, objectives
from pbem.rules.ratio_regis.minimaps import MAIN_MAP
from pbem.rules.ratio_regis.scenario import Objective, Scenario, Threshold
from pbem.rules.ratio_regis.state import FINISHED, TURN_START, GameState, PlayerState, VPLine

PRESENCE_AREAS = 3  # glossary: "at least three areas" in a theater of the main map


def count(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.1.3, §22: the end-of-turn VP of every player, in game order, line by line (RR-I227).
    The state keeps this turn's lines only, for the VP table: the chronicle keeps every turn's,
    so a campaign's state does not grow turn after turn."""
    state.vp_lines = []
    one_turn = _one_turn_objectives(state, scenario)
    possessed = main_map_possessions(state, scenario)
    for player in state.by_game_order():
        lines = [(VPLine(turn=state.turn, player=player.id, power=power, source=source, vp=vp), rule)
                 for power in state.powers_of(player.id, scenario)
                 for source, vp, rule in _power_lines(ctx, state, scenario, player, power, one_turn,
                                                      possessed.get(power, {}))]
        if player.vp_per_turn:
            lines.append((VPLine(turn=state.turn, player=player.id, power="", source="the scenario's VP per turn",
                                 vp=player.vp_per_turn),
                          "§7.1.1, §26.1"))
        for line, rule in lines:
            score(state, player, line)
            who = f"{line.power}, " if line.power else ""
            ctx.say(f"{player.name}: {who}{line.source}: {line.vp:+d} VP", rule=rule)
        ctx.say(f"{player.name} scores {sum(line.vp for line, _ in lines)} VP at the end of "
                f"{scenario.turn_label(state.turn)} and has {player.vp}", rule="§23.1.3")


def score(state: GameState, player: PlayerState, line: VPLine) -> None:
    """The player gains the line's VP, and the line is kept for the VP table."""
    player.vp += line.vp
    state.vp_lines.append(line)


def _power_lines(ctx: DecisionPort, state: GameState, scenario: Scenario, player: PlayerState, power: str,
                 one_turn: list[tuple[str, Objective]], possessed: dict[str, int]) -> list[tuple[str, int, str]]:
    """One power's VP as (what for, VP, rule): its card's objectives (those it misses are said
    too), the objectives of the event cards played this turn and of the turn's special rules
    (`one_turn`), those of its allied minors (§22),
    presence (from its main-map areas by theater, `possessed`), monopolies, and under v2.1
    on the last turn the scenario's final bonus less unrest (v2.1 §9.1, RR-I228)."""
    lines = []
    missed = []
    for objective in scenario.powers[power].objectives:
        if objectives.met(state, scenario, power, objective):
            lines.append((f"objective {objectives.describe(objective)}", objective.vp, "§22"))
        else:
            missed.append(objectives.describe(objective))
    if missed:
        ctx.say(f"{player.name}: {power} does not meet the objective(s) {'; '.join(missed)}", rule="§22")
    lines += [(f"objective of {source} ({objectives.describe(objective)})", objective.vp, "§22")
              for source, objective in one_turn
              if (not objective.powers or power in objective.powers)
              and objectives.met(state, scenario, power, objective)]
    lines += [(f"objective of its ally {minor} ({objectives.describe(objective)})", objective.vp, "§22")
              for minor, objective in _minor_objectives(state, scenario, power)
              if objectives.met(state, scenario, power, objective)]
    lines += [(f"presence in {theater} ({held} areas)", 1, "§22, §32.7")
              for theater, held in presence(state, scenario, power, possessed)]
    lines += [(f"most possessions in {rule.province}", rule.vp, "§33 (scenario)")
              for rule in scenario.data.victory.province_vp
              if rule.turns[0] <= state.turn <= rule.turns[1]
              and province_leader(state, scenario, rule.province) == power]
    lines += [(f"monopoly in {center}", 1, "§19.2.5, §22") for center in commerce.monopolies(state, power)]
    bonus = scenario.data.victory.final_bonus
    if bonus is not None and state.options.variant == "v2.1" and state.turn >= scenario.data.last_turn:
        unrest = state.powers[power].unrest
        lines.append((f"the scenario's final {bonus} VP less unrest {unrest}", bonus - unrest, "v2.1 §9.1"))
    return lines


def _one_turn_objectives(state: GameState, scenario: Scenario) -> list[tuple[str, Objective]]:
    """§22 "objectives in event cards … normally a duration of one turn": those of the cards
    played this turn, in the order played (RR-I225); then those of this turn's special rules
    (§8.1.1, RR-I273)."""
    return ([(f"the event {scenario.cards[n].title}", o) for n in state.discard for o in scenario.cards[n].objectives]
            + [("the turn's special rule", o) for o in scenario.turn_objectives(state.turn)])


def _minor_objectives(state: GameState, scenario: Scenario, power: str) -> list[tuple[str, Objective]]:
    """§22 "minor power objectives … achieved by the allied major powers that fulfill them"."""
    return [(minor, o) for minor, found in scenario.data.victory.minor_objectives.items()
            if objectives.ally_of(state, minor) == power for o in found]


def main_map_possessions(state: GameState, scenario: Scenario) -> dict[str, dict[str, int]]:
    """Each power's areas in play on the main map, counted by theater (glossary, §32.7), in
    one pass over the map for every power."""
    held: dict[str, dict[str, int]] = {}
    for area_id, status in state.areas.items():
        if status.possessor is not None and state.exists(area_id):
            area = scenario.areas[area_id]
            if area.map == MAIN_MAP:
                theaters = held.setdefault(status.possessor, {})
                theaters[area.theater] = theaters.get(area.theater, 0) + 1
    return held


def presence(state: GameState, scenario: Scenario, power: str, possessed: dict[str, int]) -> list[tuple[str, int]]:
    """Glossary, §32.7: the theaters of the main map where the power possesses at least three
    areas (in play; `possessed`, by theater), with how many; under v2.1 the areas of its
    allied minor powers count too (v2.1 §22.2, RR-I224). In the scenario's theater order."""
    held = {theater: possessed.get(theater, 0) for theater in scenario.theaters}
    if state.options.variant == "v2.1":
        for area in objectives.allied_minor_areas(state, scenario, power):
            if scenario.areas[area].map == MAIN_MAP:
                held[scenario.areas[area].theater] += 1
    return [(theater, n) for theater, n in held.items() if n >= PRESENCE_AREAS]


def province_leader(state: GameState, scenario: Scenario, province: str) -> str | None:
    """The power with most possessions (in play) in the province; nobody on a tie (the
    scenario's VP for a province, v2.1 turn 9)."""
    held: dict[str, int] = {}
    for area in scenario.province_areas(province):
        possessor = state.areas[area].possessor
        if possessor is not None and state.exists(area):
            held[possessor] = held.get(possessor, 0) + 1
    ranked = sorted(held.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] == ranked[1]):
        return None
    return next(power for power, n in held.items() if n == ranked[0])


def end_or_next_turn(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23: after the scenario's last turn the game ends — the most VP wins, ties going by
    game order (§23, RR-I16), or a one-player scenario's result is read from its table
    (§33.1); otherwise the turn marker moves on."""
    if state.turn < scenario.data.last_turn:
        state.turn += 1
        state.phase = TURN_START
        return
    state.phase = FINISHED
    ranking = standings(state)
    ctx.say("Final standing: " + "; ".join(f"{n}. {p.name} {p.vp} VP" for n, p in enumerate(ranking, start=1)),
            rule="§23")
    thresholds = scenario.data.victory.thresholds
    if thresholds:
        results = {p.id: _result(thresholds, p.vp) for p in ranking}
        for player in ranking:
            ctx.say(f"{player.name} ends with {player.vp} VP: {results[player.id].result}", rule="§33.1")
        state.winners = [p.id for p in ranking if results[p.id].win]
        return
    winner = ranking[0]
    state.winners = [winner.id]
    tied = [p for p in ranking[1:] if p.vp == winner.vp]
    tie = (f"; tied with {', '.join(p.name for p in tied)}, ahead by game order (player {winner.game_order})"
           if tied else "")
    ctx.say(f"The game ends after {scenario.turn_label(state.turn)}: {winner.name} wins with {winner.vp} VP{tie}",
            rule="§23, §23.4")


def _result(thresholds: list[Threshold], vp: int) -> Threshold:
    """The line of §33.1's table for `vp`: the highest threshold reached (the first, below 0)."""
    return max((t for t in thresholds if t.vp <= vp), key=lambda t: t.vp, default=thresholds[0])


def standings(state: GameState) -> list[PlayerState]:
    """The players by VP, ties by game order (§7.1.1: the game order breaks ties)."""
    return sorted(state.players, key=lambda p: (-p.vp, p.game_order, p.seat))
