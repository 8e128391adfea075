"""The half turn and one player's impulse (§8.2; examples §27.1–§27.2, §32.2).

A whole impulse is one decision (kind `impulse`) answered by a script of order lines.
The script is checked against the state by running it on a copy (`run_script`), the
same code that later carries it out (then on the step's own state), so a script accepted
at submission executes as written; an illegal line refuses the whole script and nothing
executes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import msgspec

from pbem.core.blocks import run_block
from pbem.core.decisions import BlockRead, DecisionKind, InBlock, LineKind, LineRead, LineVerdict, Refusal, Refused
from pbem.core.decisions import not_owed
from pbem.core.engine import Request
from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.core.probe import Probe
from pbem.rules.ratio_regis import automatic, deck, events
from pbem.rules.ratio_regis import leaders, negotiation, sieges, stacking
from pbem.rules.ratio_regis.action_table import ACTIONS
from pbem.rules.ratio_regis.actions import FREE_AT_START, FREE_ANY_TIME, ImpulseRun, ImpulseStart
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import (Action, Attach, Command, Done, Home, OrderSyntaxError, Play, Reaction, Regroup,
                                           Sortie, StartChoice, StratTroop, command_parser, parse_line)
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import CLOCKWISE, COUNTER_CLOCKWISE, IMPULSE, TURN_END, GameState, HalfTurn


# -- the half turn ------------------------------------------------------------
def start_chooser(state: GameState) -> str:
    """§8.2.1: the player with the fewest VP chooses; a tie goes to the lower player number."""
    return min(state.players, key=lambda p: (p.vp, p.game_order)).id


def start_half_turn(ctx: DecisionPort, state: GameState) -> None:
    """§8.2.1: the least-VP player chooses who starts and the direction.
    RR-I8: clockwise (CW) follows the seating order, CCW runs against it. The default is
    that the chooser starts, clockwise."""
    chooser = start_chooser(state)
    ids = [p.id for p in state.players]
    request = ctx.request(kind="start", player=chooser, purpose="start", rule="§8.2.1",
                          default={"player": chooser, "direction": CLOCKWISE},
                          options=[f"START {p} {d}" for p in ids for d in (CLOCKWISE, COUNTER_CLOCKWISE)],
                          prompt="Choose who plays the first impulse and the direction: START <player> CW|CCW",
                          context={"turn": state.turn})
    choice = ctx.decide(request)
    state.half = HalfTurn(chooser=chooser, first=choice["player"], direction=choice["direction"],
                          current=choice["player"], impulse=1)
    state.phase = IMPULSE
    names = {p.id: p.name for p in state.players}
    ctx.say(f"{names[chooser]} (fewest VP) has {names[choice['player']]} start, "
            f"{'clockwise' if choice['direction'] == CLOCKWISE else 'counter-clockwise'}", rule="§8.2.1")


def _advance(state: GameState) -> None:
    """§8.2, §8.3: the half turn ends after the impulse in which the last card left in
    any hand is played; until then impulses rotate in seating order, players without
    cards taking cardless impulses (§8.2.3)."""
    half = state.half
    if _half_turn_over(state):
        state.phase = TURN_END
        half.current = None
        return
    ids = [p.id for p in state.players]
    step = 1 if half.direction == CLOCKWISE else -1
    half.current = ids[(ids.index(half.current) + step) % len(ids)]
    half.impulse += 1


def _half_turn_over(state: GameState) -> bool:
    """§8.3: the last card left in any hand has been played; a turn without cards ends after
    each player's impulses (§33.1, RR-I270)."""
    if state.cardless is not None:
        return state.half.impulse >= state.cardless[0] * len(state.players)
    return not any([p.hand for p in state.players])


# -- one impulse --------------------------------------------------------------
@dataclass(slots=True)
class Ledger:
    """What the impulse has spent so far (§8.2.2, §8.2.3)."""

    held_cards: bool
    intrinsic: set[str] = field(default_factory=set)
    card_points: dict[str, list[int]] = field(default_factory=dict)  # power -> [card, points left]
    extra_used: int = 0  # extra actions X taken: one a cardless impulse, or the scenario's (§8.2.3, §33.1)
    at_war_moves: set[str] = field(default_factory=set)
    home_moves: set[str] = field(default_factory=set)
    leader_moves: set[str] = field(default_factory=set)  # v2.1: powers that moved a leader at the impulse's end
    stage: str = "start"  # start -> actions -> end
    played: list[int] = field(default_factory=list)
    done: bool = False
    acted: set[str] = field(default_factory=set)  # units that moved or fought this impulse (§12.3.1)
    pirated: set[str] = field(default_factory=set)  # squadrons that pirated this impulse (§11.5.1)
    tactical_leaders: set[str] = field(default_factory=set)  # leaders that made a tactical move (§17.3.2)
    closed: bool = False  # a war declared without a CB took the last action point (§21.3.3)

    def copy(self) -> Ledger:
        """A copy to restore if the next line turns out illegal (cheaper than deepcopy)."""
        return Ledger(held_cards=self.held_cards, intrinsic=set(self.intrinsic),
                      card_points={power: list(entry) for power, entry in self.card_points.items()},
                      extra_used=self.extra_used, at_war_moves=set(self.at_war_moves),
                      home_moves=set(self.home_moves), leader_moves=set(self.leader_moves), stage=self.stage, played=list(self.played), done=self.done,
                      acted=set(self.acted), pirated=set(self.pirated),
                      tactical_leaders=set(self.tactical_leaders), closed=self.closed)


@dataclass
class ScriptRun:
    state: GameState
    lines: list[LineVerdict]
    later: frozenset[int] = frozenset()  # lines checked when reached, after dice or a decision (RR-I18)
    problem: str = ""  # a fault of the whole script (no card played …)
    found: Callable[[], GameState] | None = None  # a fresh copy of the state as the script found it
    refused: bool = False  # a line is refused now, not left to be checked when reached

    @property
    def legal(self) -> bool:
        return not self.problem and not self.refused

    def first_fault(self) -> str:
        bad = next((line for line in self.lines if not line.accepted), None)
        return f"line {bad.number} ({bad.text}): {bad.reason}" if bad else self.problem

    def undo(self) -> None:
        """Put `state` back as the script found it (a live script refused whole)."""
        adopt(self.state, self.found())


_saver = msgspec.msgpack.Encoder()
_restorer = msgspec.msgpack.Decoder(GameState)


def _kept(state: GameState) -> Callable[[], GameState]:
    """The state kept to go back to: each call makes a fresh copy of it as it is now
    (kept binary, so cheaper than the canonical JSON)."""
    return partial(_restorer.decode, _saver.encode(state))


@dataclass
class _Checkpoint:
    """Where a line that turns out illegal goes back to: the state and the ledger after the
    last line that asked for dice or a decision (`saved` and `ledger` each make a fresh copy
    of theirs), and the lines carried out since, which asked for nothing and so are carried
    out again on a copy by a probe. The state is thus saved once a script, not once a line,
    while its lines ask for nothing — and not at all before the first such line of a live
    script, whose step keeps the state it began with."""

    saved: Callable[[], GameState]
    ledger: Callable[[], Ledger]
    since: list[Command] = field(default_factory=list)

    def restore(self, scenario: Scenario, player: str, start: ImpulseStart) -> tuple[GameState, Ledger]:
        work, ledger = self.saved(), self.ledger()
        redo = ImpulseRun(Probe(scenario), start, ledger, player)
        for command in self.since:
            _execute(work, scenario, player, command, redo)
        return work, ledger


_CHANGING = (Action, Play)  # the commands that change the state before they can fail


class _ScriptLines:
    """An impulse script's lines as the core's block runner reads them: a line is echoed
    as its canonical command, and once carried out as what it did."""

    name = "impulse"
    refusals = (IllegalOrder,)

    @staticmethod
    def read(text: str) -> Command:
        return parse_line(text)

    @staticmethod
    def echo(command: Command) -> str:
        return command.text()

    @staticmethod
    def understood(command: Command, result: str) -> str:
        return result


class _Impulse:
    """The impulse a script is carried out on, for the core's block runner (`run_block`):
    the state, the card budget (`run.ledger`), and the checkpoint a refused line goes back
    to. The checkpoint is taken only after a line that asked for dice or a decision; the
    lines since are carried out again on a probe to go back (`_Checkpoint`)."""

    def __init__(self, state: GameState, scenario: Scenario, player: str, run: ImpulseRun, checkpoint: _Checkpoint):
        self.state, self.scenario, self.player, self.run = state, scenario, player, run
        self.port = run.judge
        self.checkpoint = checkpoint
        self.first = self.port.interrupts
        self.before = self.first
        self.command: Command | None = None

    def save(self) -> None:
        self.before = self.port.interrupts

    def execute(self, command: Command) -> str:
        self.command = command
        result = _execute(self.state, self.scenario, self.player, command, self.run)
        if self.port.interrupts != self.before:
            # the state and the ledger now, each copied again at need
            self.checkpoint = _Checkpoint(_kept(self.state), self.run.ledger.copy().copy)
        else:
            self.checkpoint.since.append(command)
        return result

    def restore(self, saved: None) -> None:
        # DONE checks everything before it changes anything; an action may fail only after
        # moving (stacking holds "at the end of the action", §15.1.1), a card only after its
        # event has begun (a rebellion's area, RR-I80).
        if isinstance(self.command, _CHANGING):
            self.state, self.run.ledger = self.checkpoint.restore(self.scenario, self.player, self.run.start)

    def dropped(self, number: int, text: str, error: Exception) -> bool:
        """RR-I18: a line found illegal once the impulse has asked for dice or a decision, and
        that asked for none itself, is skipped; before, it refuses the script."""
        skipped = self.port.interrupts > self.first and self.before == self.port.interrupts
        if skipped:
            self.port.say(f"line {number} ({text}) is skipped: {error}", rule="RR-I18")
        return skipped


def run_script(state: GameState, scenario: Scenario, player: str, lines: Sequence[tuple[int, str]],
               port: DecisionPort | None = None, as_found: Callable[[], GameState] | None = None) -> ScriptRun:
    """Carry out an impulse script line by line with the core's block runner. An illegal
    line leaves the state as it was before that line and the run goes on, so every fault is
    reported.

    Without a live `port` the run is a probe on a copy of `state`: it stops at the first
    line that needs dice or a decision, and the lines from there on are checked when the
    impulse reaches them (RR-I18). Live, the script is carried out on `state` itself (a
    step's state is the engine's own copy; `ScriptRun.undo` puts back a script refused
    whole), and a line found illegal after an interrupt is skipped and said so. To go
    back, the run saves `state` as it found it, unless the caller already has it
    (`as_found` makes a fresh copy of it: an impulse's state as its step began)."""
    judge = port or Probe(scenario)
    if port is not None:
        work, found = state, as_found or _kept(state)
    else:
        found = _kept(state)
        work = found()
    held_cards = bool(work.player(player).hand)
    start = ImpulseStart.when_asked(found if work is state else (lambda: state))  # a probe leaves `state` as it is
    run = ImpulseRun(judge, start, Ledger(held_cards=held_cards), player)
    impulse = _Impulse(work, scenario, player, run,
                       _Checkpoint(found, partial(Ledger, held_cards)))  # most scripts never go back: no ledger built
    block = run_block(_ScriptLines, lines, impulse, live=port is not None)
    work, ledger, later = impulse.state, run.ledger, block.later
    problem = ""
    if ledger.held_cards and not ledger.played \
            and not any(_is_play(line.text) for line in block.verdicts if line.number in later):  # a card played later
        hand = work.player(player).hand
        problem = (f"you hold {len(hand)} card(s): an impulse must play at least one (§8.2.2), e.g. "
                   f"PLAY {min(deck.playable(scenario, hand))}")
    if state.options.intrinsic_action == "turn":
        for power in ledger.intrinsic:
            work.powers[power].intrinsic_used = True
    if port is not None and work is not state:  # a refused line put a restored copy in its place
        adopt(state, work)
        work = state
    return ScriptRun(work, block.verdicts, frozenset(later), problem, found, bool(block.refused))


def _is_play(text: str) -> bool:
    try:
        return isinstance(parse_line(text), Play)
    except OrderSyntaxError:
        return False


def _execute(state: GameState, scenario: Scenario, player: str, command: Command, run: ImpulseRun) -> str:
    if run.ledger.done:
        raise IllegalOrder("nothing may follow DONE")
    carry_out = _SCRIPT_LINES.get(type(command))
    if carry_out is None:
        raise IllegalOrder(f"{command.text()} is not an impulse order (write PLAY, an action or DONE)")
    return carry_out(state, scenario, player, command, run)


def _done(state: GameState, scenario: Scenario, player: str, order: Done, run: ImpulseRun) -> str:
    run.ledger.done = True
    return "end of impulse"


def _reaction(state: GameState, scenario: Scenario, player: str, order: Reaction, run: ImpulseRun) -> str:
    if order.word == "ATTACH" and order.power and order.place:
        raise IllegalOrder(f"attaching a leader in your impulse is free at any time: {order.power} - "
                           f"ATTACH {order.unit} TO {order.place} (§17.1)")
    raise IllegalOrder(f"{order.text()} answers a decision of another player's impulse, not one of yours")


def _play(state: GameState, scenario: Scenario, player: str, order: Play, run: ImpulseRun) -> str:
    """§8.2.2 "Card play": priority cards first (combat cards exempt); the event is applied
    (RR-I52, RR-I69; what it asks of other players, such as a repatriation, is answered before
    the script's next line, §31.1) and the points go to the player's powers, each power taking
    points from at most one card per impulse."""
    ledger = run.ledger
    hand = state.player(player).hand
    if not ledger.held_cards:
        raise IllegalOrder("you hold no cards: this is a cardless impulse (§8.2.3), use X for the extra action")
    if ledger.stage == "end":
        raise IllegalOrder("cards are played before the end-of-impulse moves (E lines)")
    if ledger.closed:
        raise IllegalOrder("a war declared without a casus belli took the impulse's last action point: no card may "
                           "be played after it, for points or for its event (§21.3.3, RR-I89)")
    if order.card not in hand:
        raise IllegalOrder(f"card {order.card} is not in your hand (you hold {', '.join(map(str, hand)) or 'none'})")
    card = scenario.cards[order.card]
    if not deck.may_play(scenario, hand, card):
        first = ", ".join(f"{n} {scenario.cards[n].title}" for n in deck.priority_cards(scenario, hand))
        raise IllegalOrder(f"you must play your priority card(s) first ({first}), or a combat card for its point "
                           f"(§8.2.2)")
    allocation = order.points
    if not allocation and card.points:
        powers = state.powers_of(player, scenario)
        if len(powers) == 1:
            allocation = ((powers[0], card.points),)
        elif powers:
            raise IllegalOrder(f"say which powers take the {card.points} point(s), e.g. PLAY {card.number} POINTS "
                               f"{powers[0]}={card.points}")
    taken = sum([n for _, n in allocation])
    if taken > card.points:
        raise IllegalOrder(f"{card.title} gives {card.points} point(s), not {taken}")
    named = [power for power, _ in allocation]
    for power, points in allocation:
        if not state.runs(player, power):
            raise IllegalOrder(unknown_name("power of yours", power, state.powers_of(player, scenario)))
        if points < 1:
            raise IllegalOrder(f"{power} must take at least one point")
        if power in ledger.card_points or named.count(power) > 1:
            raise IllegalOrder(f"{power} already takes points from a card this impulse: a power takes points "
                               f"from one card per impulse (§8.2.2)")
    for power, points in allocation:
        ledger.card_points[power] = [card.number, points]
    hand.remove(card.number)
    state.discard.append(card.number)
    ledger.played.append(card.number)
    ledger.stage = "actions"
    split = ", ".join([f"{power} {points}" for power, points in allocation]) or "no power"
    event = events.apply_event(state, scenario, run.judge, card, player=player, chosen=order.areas)
    return "; ".join([f"plays {card.number} {card.title} for {card.points} point(s): {split}", *event,
                      *negotiation.forced_negotiations(state, scenario, run.judge)])


def _action(state: GameState, scenario: Scenario, player: str, order: Action, run: ImpulseRun) -> str:
    if not state.runs(player, order.power):
        raise IllegalOrder(unknown_name("power of yours", order.power, state.powers_of(player, scenario)))
    end_leader_move = order.budget == "E" and isinstance(order.verb, Attach)
    procedure = leaders.move_leader_at_impulse_end if end_leader_move else ACTIONS.get(type(order.verb))
    if procedure is None:
        raise IllegalOrder(f"{order.verb.text().split()[0]} is read but not adjudicated yet (see "
                           f"docs/rules/ratio-regis.md, \"Not adjudicated yet\")")
    _spend(state, order, run.ledger)
    text = procedure(state, scenario, order.power, order.verb, run)
    sieges.lift_ended_sieges(state, run.judge)  # besiegers gone: the siege ends (§13.4.5)
    return "; ".join([text, *stacking.disperse_excess(state, scenario, run.judge),
                      *negotiation.forced_negotiations(state, scenario, run.judge)])


def _spend(state: GameState, order: Action, ledger: Ledger) -> None:
    """Charge the action to its budget (§8.2.2, §8.2.3) in the impulse's order: the
    cardless free moves at its start, the moves home at its end."""
    power, budget, verb = order.power, order.budget, order.verb
    if budget == "E":
        if isinstance(verb, Attach) and state.options.variant == "v2.1":
            if power in ledger.leader_moves:
                raise IllegalOrder(f"{power} has already moved a leader at the end of this impulse (v2.1 §8.2.2)")
            ledger.leader_moves.add(power)
            ledger.stage = "end"
            return
        if not isinstance(verb, Home):
            raise IllegalOrder("the end of the impulse allows only a move home: E HOME <troop>"
                               + (", and one leader move: E ATTACH <leader> TO <unit> (v2.1 §8.2.2)"
                                  if state.options.variant == "v2.1" else ""))
        if power in ledger.home_moves:
            raise IllegalOrder(f"{power} has already moved a unit home this impulse (§8.2.2)")
        ledger.home_moves.add(power)
        ledger.stage = "end"
        return
    if isinstance(verb, Home):
        raise IllegalOrder(f"a move home is made at the end of the impulse: {power} E HOME {verb.troop}")
    if budget == "-":
        if not isinstance(verb, FREE_ANY_TIME):
            raise IllegalOrder("only FLEET, ATTACH and DISSOLVE are free at any time of the impulse (§11.2, §17.1, "
                               "§21.2.3)")
        return
    if isinstance(verb, FREE_ANY_TIME):
        raise IllegalOrder(f"{verb.text().split()[0]} costs no action: write {power} - {verb.text()}")
    if ledger.stage == "end":
        raise IllegalOrder("actions come before the end-of-impulse moves (E lines)")
    if ledger.closed:
        raise IllegalOrder("a war declared without a casus belli took the impulse's last action point (§21.3.3)")
    if budget == "F":
        if not isinstance(verb, FREE_AT_START):
            raise IllegalOrder("the free start of the impulse allows SAIL, SORTIE, SWAP, ALLY and PEACE (§8.2.2, "
                               "§11.6, §13.3.1, §21.1, §21.4.1)")
        if ledger.stage != "start":
            raise IllegalOrder("free start-of-impulse steps (F) come before any card or action (§8.2.2, §27.1)")
        return
    if isinstance(verb, FREE_AT_START) and not isinstance(verb, Sortie):
        raise IllegalOrder(f"{verb.text().split()[0]} is a free step at the start of the impulse: "
                           f"{power} F {verb.text()}")
    if budget == "W":
        _spend_at_war_move(state, order, ledger)
        return
    ledger.stage = "actions"
    if budget == "I":
        used = power in ledger.intrinsic or state.powers[power].intrinsic_used
        if used:
            per = "turn" if state.options.intrinsic_action == "turn" else "impulse"
            raise IllegalOrder(f"{power} has already used its intrinsic action this {per} (RR-I1)")
        ledger.intrinsic.add(power)
    elif budget == "X":
        if ledger.held_cards:
            raise IllegalOrder("the extra action X belongs to cardless impulses (§8.2.3)")
        allowed = state.cardless[1] if state.cardless is not None else 1
        if ledger.extra_used >= allowed:
            raise IllegalOrder("the extra action of a cardless impulse is used already (§8.2.3)" if allowed == 1 else
                               f"the impulse's {allowed} actions are used already (§33.1, RR-I270)")
        ledger.extra_used += 1
    else:
        card = order.card
        taken = ledger.card_points.get(power)
        if taken is None or taken[0] != card:
            raise IllegalOrder(f"{power} has no points from card {card}: play it first (PLAY {card} POINTS "
                               f"{power}=…)")
        if taken[1] < 1:
            raise IllegalOrder(f"{power} has spent its points from card {card}")
        taken[1] -= 1


def _spend_at_war_move(state: GameState, order: Action, ledger: Ledger) -> None:
    """§8.2.3: a cardless player's powers at war each get a free regroup or one-troop
    strategic move at the start of the impulse."""
    if ledger.held_cards:
        raise IllegalOrder("the free move W belongs to cardless impulses (§8.2.3)")
    if not state.at_war(order.power):
        raise IllegalOrder(f"{order.power} is not at war: no free move (§8.2.3)")
    if not isinstance(order.verb, Regroup | StratTroop):
        raise IllegalOrder("the free move W is a REGROUP or a STRAT TROOP (§8.2.3)")
    if ledger.stage != "start":
        raise IllegalOrder("the free move W is made at the start of the impulse, before other actions (§8.2.3)")
    if order.power in ledger.at_war_moves:
        raise IllegalOrder(f"{order.power} has already made its free move (§8.2.3)")
    ledger.at_war_moves.add(order.power)


#: What each line of an impulse script does (§8.2.2): the one table of its lines.
_SCRIPT_LINES: dict[type, Callable[[GameState, Scenario, str, Any, ImpulseRun], str]] = {
    Action: _action, Play: _play, Done: _done, Reaction: _reaction}


# -- the decision and the step ------------------------------------------------
def default_script(state: GameState, scenario: Scenario, player: str, playable: Sequence[int]) -> list[str]:
    """RR-I4: when the deadline passes, the lowest-numbered card that may be played
    (`playable`: `deck.playable` of the player's hand) goes for points to the player's
    first power, and no action is taken."""
    if not playable:
        return ["DONE"]
    card = scenario.cards[min(playable)]
    powers = state.powers_of(player, scenario)
    if card.points and powers:
        return [f"PLAY {card.number} POINTS {powers[0]}={card.points}", "DONE"]
    return [f"PLAY {card.number}", "DONE"]


def impulse_request(ctx: DecisionPort, state: GameState, player: str) -> Request:
    scenario: Scenario = ctx.scenario
    hand = state.player(player).hand
    first = deck.priority_cards(scenario, hand)
    playable = deck.playable(scenario, hand, first)
    turn, number = state.turn, state.half.impulse
    if hand:
        doing = "play at least one card (PLAY <n> POINTS <POWER>=<n>), then your actions"
    elif state.cardless is None:
        doing = "a cardless impulse: intrinsic actions, one extra action X (§8.2.3)"
    else:
        doing = f"a cardless impulse: intrinsic actions, {state.cardless[1]} actions X (§33.1)"
    return ctx.request(kind="impulse", player=player, purpose="impulse",
                       default=default_script(state, scenario, player, playable),
                       options=[f"PLAY {n}" for n in playable], rule="§8.2.2",
                       prompt=f"Your impulse ({scenario.turn_label(turn)}, impulse {number}): {doing}",
                       context={"turn": turn, "impulse": number, "cards": len(hand), "cardless": not hand,
                                "priority": bool(first)})


def impulse(ctx: DecisionPort, state: GameState) -> None:
    """§8.2.2: the active player's impulse — start, actions and card play, end — carried
    out from the player's script; then the next impulse or the end of the half turn."""
    scenario: Scenario = ctx.scenario
    player = state.half.current
    name = state.player(player).name
    request = impulse_request(ctx, state, player)
    script = list(enumerate(ctx.decide(request), start=1))
    # Nothing has changed the state since the step began: the engine's copy of it serves to go back.
    run = run_script(state, scenario, player, script, ctx, ctx.step_start)
    if not run.legal:
        ctx.say(f"{name}'s impulse script cannot be carried out ({run.first_fault()}); the default is used",
                rule="§8.2.2")
        run.undo()
        run = run_script(state, scenario, player, list(enumerate(request.default, start=1)), ctx, ctx.step_start)
    done = [line.understood for line in run.lines if line.accepted and line.understood != "end of impulse"]
    ctx.say(f"{name}'s impulse: " + ("; ".join(done) if done else "no card, no action"), rule="§8.2.2")
    automatic.after_impulse(ctx, state, player,
                            lambda: ImpulseRun(ctx, ImpulseStart(state), Ledger(held_cards=False), player))
    _advance(state)


def adopt(state: GameState, other: GameState) -> None:
    """Make `state` (the engine's object) equal to `other`."""
    for name in state.__struct_fields__:
        setattr(state, name, getattr(other, name))


# -- the kinds: who starts, and the impulse script -------------------------------------
def _known_player(request: Request, choice: dict) -> dict:
    """§8.2.1: any player may be chosen to start (a name is matched ignoring case)."""
    players = sorted({option.split()[1] for option in request.options})
    match = next((p for p in players if p.lower() == choice["player"].lower()), None)
    if match is None:
        raise Refusal(unknown_name("player", choice["player"], players))
    return {**choice, "player": match}


START_KIND = LineKind("start", "who plays the first impulse and the direction (§8.2.1): START <player> CW|CCW",
                 parse=command_parser(StartChoice, lambda line: {"player": line.player, "direction": line.direction}),
                 form=lambda choice: f"START {choice['player']} {choice['direction']}", check=_known_player,
                 keywords=("START",))


class ImpulseKind(DecisionKind):
    """The whole impulse, answered by a script of lines read together (§8.2.2): checked by
    running it on a copy of the state, refused whole when one line is illegal."""

    name = "impulse"
    description = "your whole impulse as a script of PLAY, action and DONE lines (§8.2.2)"
    keywords = ("PLAY", "DONE")  # and every power's action, `<POWER> <budget> <action> …`

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        if any(r.kind == self.name for r in owed):
            return InBlock(self.name)  # a line that cannot be read is reported with the script's others
        try:
            parse_line(text)
        except OrderSyntaxError as error:
            return Refused(str(error))
        return Refused(not_owed(self.name, owed))

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: GameState, scenario: Scenario,
                   player: str) -> BlockRead:
        run = run_script(state, scenario, player, lines)
        if not run.legal:
            return BlockRead(run.lines, refused="your impulse script was refused and nothing was carried out: "
                                                f"{run.first_fault()}; correct it and send the whole script again")
        return BlockRead(run.lines, answer=[parse_line(text).text() for _, text in lines])

    def answer_policy(self, text: str, request: Request) -> list[str] | None:
        return list(request.default) if text.strip().upper() == "DEFAULT" else None

    def check_policy(self, text: str) -> str:
        if text.strip().upper() != "DEFAULT":
            return ("an impulse script is checked against the state of its own impulse, so a standing policy "
                    "can only say DO DEFAULT")
        return ""

    def order_form(self, request: Request) -> str:
        return "\n".join(request.default)


IMPULSE_KIND = ImpulseKind()
