"""Decision kinds (DESIGN §4): what a game declares about each kind of decision it asks,
and the core's routing of order lines, policies, conditional lines and order forms by kind.

A kind is declared by the rules module that asks the question (godip's one file per
order is the model) and says:

- its name and a one-line description (the help players read);
- how one order line is read into an answer to an owed request, or refused with a reason
  (`read`), or — for a kind answered by a whole block of lines, such as an impulse script
  that is refused whole when one line is illegal — how the block is read (`read_block`);
- how an answer is checked against its request (inside `read`: a line that reads but does
  not fit the request is refused with the reason);
- the ready-to-edit order-form line(s) that answer a request with its default (`order_form`);
- how a standing policy's or a conditional line's answer text answers a request
  (`answer_policy`), and why a policy text can never answer the kind (`check_policy`).

The default is the request's own `default`: the rules that ask know it.

`LineKind` is a kind answered by one line, built from a parser and a formatter; a game
whose answers are plain keyword lines declares its kinds with it and writes no reading of
its own. The core's `DecisionKinds` routes by kind: the game writes none of that routing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from pbem.core.engine import Policy, Request
from pbem.core.orders import parse_conditions, unknown_name


class LineVerdict(BaseModel):
    """How one order line was read: echoed as understood, or refused with a reason. The
    one shape of a line's verdict from the reading to the receipt and the report."""

    model_config = ConfigDict(frozen=True)

    number: int
    text: str
    accepted: bool
    understood: str = ""
    reason: str = ""

    def as_dict(self) -> dict:
        return self.model_dump()


@lru_cache(maxsize=4096)
def verdict(number: int, text: str, accepted: bool, understood: str = "", reason: str = "") -> LineVerdict:
    """A line's verdict. Verdicts are frozen, so one is shared by every reading that gives
    it (a replay reads the same impulse lines, read the same way, thousands of times)."""
    return LineVerdict(number=number, text=text, accepted=accepted, understood=understood, reason=reason)


@dataclass
class OrderReading:
    """What a set of order lines answers, and a verdict for every line.

    `conditional` holds conditional lines (`IF … THEN …`) as step-scoped policies.
    If `reject_all` is set the order set is refused whole (e.g. an impulse script
    with an illegal line): nothing is answered and the player is asked to resend.
    """

    answers: dict[str, Any] = field(default_factory=dict)
    verdicts: list[LineVerdict] = field(default_factory=list)
    conditional: list[Policy] = field(default_factory=list)
    reject_all: str = ""

    @property
    def accepted(self) -> bool:
        return not self.reject_all and bool(self.answers or self.conditional)


# -- what a kind's reading of one line gives ------------------------------------------
@dataclass(frozen=True)
class Answered:
    """The line answers `request` with `value`; `understood` is its canonical echo."""

    request: Request
    value: Any
    understood: str


@dataclass(frozen=True)
class Refused:
    """The line is of this kind but cannot be used, and why."""

    reason: str
    understood: str = ""


@dataclass(frozen=True)
class InBlock:
    """The line belongs to the block kind `kind` reads whole (`DecisionKind.read_block`)."""

    kind: str


LineRead = Answered | Refused | InBlock


@dataclass
class BlockRead:
    """A whole block of lines read as one answer: a verdict per line, and the answer, or
    why the block is refused whole (nothing of it is used then)."""

    verdicts: list[LineVerdict]
    answer: Any = None
    refused: str = ""


class Refusal(ValueError):
    """A line of a kind that cannot be used: the message says why."""


class DecisionKind:
    """One kind of decision a game asks (see the module's docstring). Subclasses override
    what their kind needs; the defaults suit a kind nobody answers by line."""

    name: str
    description: str

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        """Read one order line against every request the player owes (`answered`: what
        earlier lines of the set answered). None when the line is not of this kind."""
        return None

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: Any, scenario: Any,
                   player: str) -> BlockRead:
        """Read the lines this kind claimed (`InBlock`) as one answer to `request`."""
        raise NotImplementedError(f"{self.name} reads no block of lines")

    def ends_block(self, text: str) -> bool:
        """Whether this line of the kind's block is its last (an impulse's DONE): what
        follows it in the order set, a name or a closing, is not read as the block's."""
        return False

    def answer_policy(self, text: str, request: Request) -> Any | None:
        """The answer a policy's (or a conditional line's) answer text gives to
        `request`, or None when it does not fit it."""
        return None

    def check_policy(self, text: str) -> str:
        """Why a policy answering with `text` can never answer this kind ("" when it can)."""
        return ""

    def order_form(self, request: Request) -> str:
        """The ready-to-edit line(s) that answer `request` with its default."""
        return str(request.default)


def not_owed(kind: str, owed: Sequence[Request]) -> str:
    """Why a line of `kind` was not used when no request of that kind is owed."""
    kinds = sorted({r.kind for r in owed})
    if not kinds:
        return f"you owe no decision now, so this {kind} line was not used"
    return f"you owe no {kind} decision now (you owe: {', '.join(kinds)})"


@dataclass(frozen=True)
class LineKind(DecisionKind):
    """A kind answered by one line: `parse` reads the line into a value (None when the line
    is not of this kind; `Refusal` when it is but cannot be read), `check` fits the value
    to a request (`Refusal` when it does not), and `form` writes a value back as a line
    (the line is echoed as its parsed value written back)."""

    name: str
    description: str
    parse: Callable[[str], Any]
    form: Callable[[Any], str]
    check: Callable[[Request, Any], Any] = lambda request, value: value
    #: When the rules ask this kind, with the rule: told to whoever sends one unasked.
    asked: str = ""

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        try:
            value = self.parse(text)
        except Refusal as error:
            return Refused(str(error)) if any(r.kind == self.name for r in owed) else None
        if value is None:
            return None
        request = next((r for r in owed if r.kind == self.name), None)
        if request is None:
            why = not_owed(self.name, owed)
            return Refused(f"{why}: {self.asked}" if self.asked else why, self.form(value))
        try:
            checked = self.check(request, value)
        except Refusal as error:
            return Refused(str(error), self.form(value))
        return Answered(request, checked, f"{self.name}: {self.form(value)}")

    def answer_policy(self, text: str, request: Request) -> Any | None:
        try:
            value = self.parse(text)
            return None if value is None else self.check(request, value)
        except Refusal:
            return None

    def check_policy(self, text: str) -> str:
        try:
            value = self.parse(text)
        except Refusal as error:
            return f"the answer cannot be read: {error}"
        if value is None:
            return f"a {self.name} policy answers with {self.description.split(': ')[-1]}"
        return ""

    def order_form(self, request: Request) -> str:
        return self.form(request.default)


# -- the routing ------------------------------------------------------------------------
_CONDITIONAL = re.compile(r"^IF\s+(\S+)(?:\s+WHEN\s+(.*?))?\s+THEN\s+(\S.*)$", re.IGNORECASE)


class DecisionKinds:
    """A game's kinds, in the order it declares them: the core's routing of order lines,
    policies, conditional lines and order forms by kind."""

    def __init__(self, kinds: Iterable[DecisionKind]):
        self.kinds: dict[str, DecisionKind] = {kind.name: kind for kind in kinds}

    # -- order lines ------------------------------------------------------------------
    def read_orders(self, lines: Sequence[tuple[int, str]], requests: Sequence[Request], state: Any, scenario: Any,
                    player: str, step: str | None = None) -> OrderReading:
        """Read a player's order lines against the requests that player owes: each line by
        the first kind (in declared order) that reads it; a conditional line
        (`IF <kind> [WHEN <field><op><value> [AND …]] THEN <answer>`) as a policy of this
        step; the lines a block kind claims, together, after the others."""
        reading = OrderReading()
        answered_by: dict[str, int] = {}  # request key -> index of the verdict that answered it
        blocks: dict[str, list[tuple[int, str]]] = {}
        ended: tuple[int, str] | None = None  # the line that ended a block
        after_end: list[int] = []  # the lines after it that answer nothing
        for number, text in lines:
            conditional = _CONDITIONAL.match(text)
            if conditional is not None:
                self._read_conditional(reading, number, text, conditional, player, step)
                continue
            read = self._read_line(text, requests, reading.answers)
            if isinstance(read, InBlock) and not any(r.kind == read.kind for r in requests):
                read = Refused(not_owed(read.kind, requests))
            if ended is not None and isinstance(read, (InBlock, Refused)):
                after_end.append(number)
                continue
            if isinstance(read, InBlock):
                blocks.setdefault(read.kind, []).append((number, text))
                if self.kinds[read.kind].ends_block(text):
                    ended = (number, text)
            elif isinstance(read, Answered):
                key = read.request.key
                if key in answered_by:
                    earlier = reading.verdicts[answered_by[key]]
                    reading.verdicts[answered_by[key]] = earlier.model_copy(
                        update={"accepted": False, "reason": f"replaced by line {number}"})
                reading.answers[key] = read.value
                answered_by[key] = len(reading.verdicts)
                reading.verdicts.append(verdict(number, text, True, read.understood))
            else:
                reading.verdicts.append(verdict(number, text, False, read.understood, read.reason))
        if ended is not None and after_end:
            count = len(after_end)
            reading.verdicts.append(verdict(after_end[0], f"({count} line{'s' if count > 1 else ''} after "
                                                          f"{ended[1].strip()})", False,
                                            reason=f"not read as orders: line {ended[0]} ends the block"))
        for name, block in blocks.items():
            request = next(r for r in requests if r.kind == name)
            result = self.kinds[name].read_block(block, request, state, scenario, player)
            reading.verdicts.extend(result.verdicts)
            if result.refused:
                reading.reject_all = result.refused
            else:
                reading.answers[request.key] = result.answer
        return reading

    def _read_line(self, text: str, requests: Sequence[Request], answered: Mapping[str, Any]) -> LineRead:
        for kind in self.kinds.values():
            read = kind.read(text, requests, answered)
            if read is not None:
                return read
        return Refused("not an answer to anything you owe")

    def _read_conditional(self, reading: OrderReading, number: int, text: str, match: re.Match, player: str,
                          step: str | None) -> None:
        name, when, answer = match.group(1).lower(), match.group(2), match.group(3).strip()
        if name not in self.kinds:
            reading.verdicts.append(verdict(number, text, False, reason=unknown_name("decision kind", name,
                                                                                       self.kinds)))
            return
        conditions, problem = parse_conditions(when or "")
        problem = problem or self.kinds[name].check_policy(answer)
        if problem:
            reading.verdicts.append(verdict(number, text, False, reason=problem))
            return
        policy = Policy(f"L{number}", player, name, answer, conditions=conditions, step=step)
        reading.conditional.append(policy)
        reading.verdicts.append(verdict(number, text, True, f"conditional line L{number} for {name}: {answer}"))

    # -- policies and forms -----------------------------------------------------------
    def answer_policy(self, policy: Policy, request: Request) -> Any | None:
        """The answer a standing policy or a conditional line gives to `request`, or None."""
        kind = self.kinds.get(request.kind)
        return None if kind is None else kind.answer_policy(policy.answer_text, request)

    def check_policy(self, policy: Policy) -> str:
        """Why a standing policy can never answer its kind ("" when it can)."""
        kind = self.kinds.get(policy.kind)
        if kind is None:
            return unknown_name("decision kind", policy.kind, self.kinds)
        return kind.check_policy(policy.answer_text)

    def order_form(self, request: Request) -> str:
        """The ready-to-edit line(s) that answer `request` with its default."""
        kind = self.kinds.get(request.kind)
        return str(request.default) if kind is None else kind.order_form(request)


class DeclaresKinds(Protocol):
    """A ruleset, as far as its decisions go."""

    decision_kinds: Sequence[DecisionKind]


@cache
def kinds_of(ruleset: DeclaresKinds) -> DecisionKinds:
    """The routing of a ruleset's declared kinds (rulesets hold no state, so one serves)."""
    return DecisionKinds(ruleset.decision_kinds)
