"""Ratio Regis v1.2.4 as a pbem ruleset: the `Ruleset` protocol wired to the modules
named after the game's concepts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.engine import Policy, Request
from pbem.core.orders import unknown_name
from pbem.core.ruleset import LineVerdict, OrderReading, ScenarioError, Seat, Step
from pbem.rules.ratio_regis import bench, rulings, scenario as scenarios
from pbem.rules.ratio_regis import state as states
from pbem.rules.ratio_regis import turn, views
from pbem.rules.ratio_regis.impulse import run_script
from pbem.rules.ratio_regis.options import OptionError, read_options
from pbem.rules.ratio_regis.combat import answers as combat_answers
from pbem.rules.ratio_regis.combat.answers import COMBAT_DECISION_KINDS, AnswerError
from pbem.rules.ratio_regis.orders import (Bid, Command, GroupChoice, OrderSyntaxError, Reaction, StartChoice,
                                           parse_line)
from pbem.rules.ratio_regis.reactions import REACTION_KINDS, narrow, policy_answer, read_reaction

DECISION_KINDS = {
    "bid": "your secret VP bid for the game order (§7.1.1): BID <n>",
    "group": "your choice of power group, in game order (§7.1.1): GROUP <n>",
    "start": "who plays the first impulse and the direction (§8.2.1): START <player> CW|CCW",
    "impulse": "your whole impulse as a script of PLAY, action and DONE lines (§8.2.2)",
    **REACTION_KINDS,
    **COMBAT_DECISION_KINDS,
}


def _kind_of(command: Command) -> str:
    if isinstance(command, Bid):
        return "bid"
    if isinstance(command, GroupChoice):
        return "group"
    if isinstance(command, StartChoice):
        return "start"
    if isinstance(command, Reaction):
        return "reaction"
    return "impulse"


def _combat_answer(text: str, owed: Sequence[Request]) -> tuple[Request | None, Any, str]:
    """A combat answer line (`LOSSES ELIM T2`) for the first owed combat decision whose
    keyword it starts with: (request, value, "") or (request, None, why not)."""
    for request in owed:
        if request.kind not in COMBAT_DECISION_KINDS:
            continue
        try:
            value = combat_answers.parse_answer(request.kind, text)
        except AnswerError as error:
            keyword = combat_answers.format_answer(request.kind, request.default).split()[0]
            if text.split()[0].upper() == keyword:
                return request, None, str(error)
            continue
        try:
            return request, combat_answers.check_answer(request, value), ""
        except AnswerError as error:
            return request, None, str(error)
    return None, None, ""


class RatioRegis:
    name = "ratio-regis"
    title = "Ratio Regis"
    version = "1.2.4"
    decision_kinds = DECISION_KINDS

    # -- scenario and state -------------------------------------------------
    def load_scenario(self, data: Mapping[str, Any]) -> scenarios.Scenario:
        return scenarios.load_scenario(data)

    def check_scenario(self, scenario: scenarios.Scenario) -> list[str]:
        return scenarios.check_scenario(scenario)

    def check_options(self, options: Mapping[str, Any]) -> list[str]:
        try:
            read_options(options)
        except OptionError as error:
            return [str(error)]
        return []

    def initial_state(self, scenario: scenarios.Scenario, options: Mapping[str, Any],
                      seats: Sequence[Seat]) -> states.GameState:
        try:
            chosen = read_options(options)
        except OptionError as error:
            raise ScenarioError([str(error)]) from None
        if scenario.setup_for(len(seats)) is None:
            counts = ", ".join(str(s.players) for s in scenario.data.player_setups)
            raise ScenarioError([f"scenario {scenario.data.id} has no power groups for {len(seats)} players "
                                 f"(it is for {counts})"])
        return states.initial_state(scenario, chosen, seats)

    def encode_state(self, state: states.GameState) -> bytes:
        return states.encode_state(state)

    def decode_state(self, data: bytes) -> states.GameState:
        return states.decode_state(data)

    def next_step(self, state: states.GameState, scenario: scenarios.Scenario) -> Step | None:
        return turn.next_step(state, scenario)

    def view(self, state: states.GameState, scenario: scenarios.Scenario, viewer: str) -> dict:
        return views.view(state, scenario, viewer)

    # -- the GM's rulings and the turn of a step (issue 6) ---------------------------
    rulings = rulings.RULINGS

    def apply_ruling(self, state: states.GameState, scenario: scenarios.Scenario, kind: str,
                     args: Mapping[str, Any]) -> None:
        rulings.apply_ruling(state, scenario, kind, args)

    def turn_of(self, step: str) -> int | None:
        return rulings.turn_of(step)

    def scenario_map(self, scenario: scenarios.Scenario) -> dict:
        return views.scenario_map(scenario)

    # -- bench hooks (pbem bench replay) ------------------------------------------
    def bench_scenario(self) -> dict:
        return bench.bench_scenario()

    def bench_policies(self) -> list[tuple[str, str]]:
        return bench.bench_policies()

    def bench_orders(self, request: Request, state: states.GameState, scenario: scenarios.Scenario,
                     n: int) -> list[str]:
        return bench.bench_orders(self, request, state, scenario, n)

    # -- orders ---------------------------------------------------------------
    def read_orders(self, lines: Sequence[tuple[int, str]], requests: Sequence[Request], state: states.GameState,
                    scenario: scenarios.Scenario, player: str) -> OrderReading:
        reading = OrderReading()
        owed = {r.kind: r for r in requests}
        script: list[tuple[int, str]] = []
        for number, text in lines:
            combat_request, value, reason = _combat_answer(text, requests) if text.split() else (None, None, "")
            if combat_request is not None:
                self._record(reading, number, text, combat_request,
                             None if reason else value, reason,
                             combat_answers.format_answer(combat_request.kind, value) if not reason else "")
                continue
            try:
                command = parse_line(text)
            except OrderSyntaxError as error:
                if "impulse" in owed:
                    script.append((number, text))  # the script check reports it with the others
                else:
                    reading.verdicts.append(LineVerdict(number, text, False, reason=str(error)))
                continue
            kind = _kind_of(command)
            if kind == "reaction":
                self._read_reaction(reading, number, text, command, requests)
                continue
            request = owed.get(kind)
            if request is None:
                reading.verdicts.append(LineVerdict(number, text, False, reason=_not_owed(kind, owed)))
            elif kind == "impulse":
                script.append((number, text))
            else:
                self._read_single(reading, number, text, command, request, state)
        if script:
            self._read_script(reading, script, owed["impulse"], state, scenario, player)
        return reading

    def _read_reaction(self, reading: OrderReading, number: int, text: str, command: Reaction,
                       requests: Sequence[Request]) -> None:
        """An answer to a reaction request (research §3.5): the first owed one it fits, or
        the one of the power it names."""
        candidates = [r for r in requests if r.kind in REACTION_KINDS
                      and (command.power is None or r.power == command.power)]
        if not candidates:
            owed = ", ".join(sorted({r.kind for r in requests})) or "nothing"
            reading.verdicts.append(LineVerdict(number, text, False, command.text(),
                                                f"you owe no reaction now (you owe: {owed})"))
            return
        candidates, reason = narrow(command, candidates, reading.answers)
        for request in candidates:
            answer, reason = read_reaction(command, request)
            if answer is not None:
                self._record(reading, number, text, request, answer, "", answer)
                return
        reading.verdicts.append(LineVerdict(number, text, False, command.text(), reason))

    def _record(self, reading: OrderReading, number: int, text: str, request: Request, value: Any, reason: str,
                understood: str) -> None:
        if reason:
            reading.verdicts.append(LineVerdict(number, text, False, understood, reason))
            return
        if request.key in reading.answers:
            earlier = next(v for v in reversed(reading.verdicts) if v.accepted
                           and v.understood.startswith(request.kind))
            reading.verdicts[reading.verdicts.index(earlier)] = LineVerdict(
                earlier.number, earlier.text, False, earlier.understood, f"replaced by line {number}")
        reading.answers[request.key] = value
        reading.verdicts.append(LineVerdict(number, text, True, f"{request.kind}: {understood}"))

    def _read_single(self, reading: OrderReading, number: int, text: str, command: Command, request: Request,
                     state: states.GameState) -> None:
        value, reason = _answer(command, request, [p.id for p in state.players])
        if reason:
            reading.verdicts.append(LineVerdict(number, text, False, command.text(), reason))
            return
        if request.key in reading.answers:
            earlier = next(v for v in reading.verdicts if v.accepted and v.understood.startswith(request.kind))
            reading.verdicts[reading.verdicts.index(earlier)] = LineVerdict(
                earlier.number, earlier.text, False, earlier.understood, f"replaced by line {number}")
        reading.answers[request.key] = value
        reading.verdicts.append(LineVerdict(number, text, True, f"{request.kind}: {command.text()}"))

    def _read_script(self, reading: OrderReading, script: list[tuple[int, str]], request: Request,
                     state: states.GameState, scenario: scenarios.Scenario, player: str) -> None:
        run = run_script(state, scenario, player, script)
        for line in run.lines:
            reading.verdicts.append(LineVerdict(line.number, line.text, line.accepted, line.understood, line.reason))
        if not run.legal:
            reading.reject_all = ("your impulse script was refused and nothing was carried out: "
                                  f"{run.first_fault()}; correct it and send the whole script again")
            return
        reading.answers[request.key] = [parse_line(text).text() for _, text in script]

    # -- policies and forms -----------------------------------------------------
    def read_policy(self, policy: Policy, request: Request) -> Any | None:
        if request.kind == "impulse":
            return list(request.default) if policy.answer_text.strip().upper() == "DEFAULT" else None
        if request.kind in REACTION_KINDS:
            return policy_answer(policy.answer_text, request)
        if request.kind in COMBAT_DECISION_KINDS:
            try:
                return combat_answers.check_answer(request, combat_answers.parse_answer(request.kind,
                                                                                        policy.answer_text))
            except AnswerError:
                return None
        try:
            command = parse_line(policy.answer_text)
        except OrderSyntaxError:
            return None
        if _kind_of(command) != request.kind:
            return None
        players = sorted({option.split()[1] for option in request.options}) if request.kind == "start" else []
        value, reason = _answer(command, request, players)
        return None if reason else value

    def check_policy(self, policy: Policy) -> str:
        if policy.kind == "impulse":
            if policy.answer_text.strip().upper() != "DEFAULT":
                return ("an impulse script is checked against the state of its own impulse, so a standing policy "
                        "can only say DO DEFAULT")
            return ""
        if policy.kind not in DECISION_KINDS:
            return unknown_name("decision kind", policy.kind, DECISION_KINDS)
        if policy.kind in COMBAT_DECISION_KINDS:
            try:
                combat_answers.parse_answer(policy.kind, policy.answer_text)
            except AnswerError as error:
                return f"the answer cannot be read: {error}"
            return ""
        if policy.kind in REACTION_KINDS:
            try:
                command = parse_line(policy.answer_text)
            except OrderSyntaxError as error:
                return f"the answer cannot be read: {error}"
            if not isinstance(command, Reaction):
                return f"a {policy.kind} policy answers with {REACTION_KINDS[policy.kind].split(': ', 1)[-1]}"
            return ""
        try:
            command = parse_line(policy.answer_text)
        except OrderSyntaxError as error:
            return f"the answer cannot be read: {error}"
        if _kind_of(command) != policy.kind:
            return f"a {policy.kind} policy answers with {DECISION_KINDS[policy.kind].split(': ')[-1]}"
        return ""

    def order_form(self, request: Request) -> str:
        default = request.default
        if request.kind == "bid":
            return f"BID {default}"
        if request.kind == "group":
            return f"GROUP {default}"
        if request.kind == "start":
            return f"START {default['player']} {default['direction']}"
        if request.kind in COMBAT_DECISION_KINDS:
            return combat_answers.order_form(request)
        if request.kind in REACTION_KINDS:
            return str(default)
        return "\n".join(default)


def _answer(command: Command, request: Request, players: Sequence[str]) -> tuple[Any, str]:
    """The answer value a bid, group or start line gives to its request, or why not."""
    if isinstance(command, Bid):
        return command.amount, ""
    if isinstance(command, GroupChoice):
        if command.text() not in request.options:
            free = ", ".join(option.split()[1] for option in request.options)
            return None, f"group {command.number} is not free (free: {free})"
        return command.number, ""
    if isinstance(command, StartChoice):
        match = next((p for p in players if p.lower() == command.player.lower()), None)
        if match is None:
            return None, unknown_name("player", command.player, players)
        return {"player": match, "direction": command.direction}, ""
    return None, "not a single-line decision"


def _not_owed(kind: str, owed: Mapping[str, Request]) -> str:
    if not owed:
        return f"you owe no decision now, so this {kind} line was not used"
    return f"you owe no {kind} decision now (you owe: {', '.join(sorted(owed))})"
