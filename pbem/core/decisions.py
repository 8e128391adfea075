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
from pbem.core.orders import Alternative, QueueLine, parse_conditions, suggest, unknown_name


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
    `later` holds the lines addressed (`FOR <power>`) to a power that owes nothing now, as
    blocks to queue for that power's next decision of their kind (they get their verdicts
    when they are queued). If `reject_all` is set the order set is refused whole (e.g. an
    impulse script with an illegal line): nothing is answered and the player is asked to
    resend.
    """

    answers: dict[str, Any] = field(default_factory=dict)
    verdicts: list[LineVerdict] = field(default_factory=list)
    conditional: list[Policy] = field(default_factory=list)
    later: list[QueueLine] = field(default_factory=list)
    reject_all: str = ""

    @property
    def accepted(self) -> bool:
        return not self.reject_all and bool(self.answers or self.conditional or self.later)


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
    what their kind needs; the defaults suit a kind nobody answers by line.

    `keywords` are the first words of the lines the kind reads; no two kinds of a game may
    claim one (checked when the game's kinds are loaded) unless one of them lists it in
    `defers` too: that kind is offered such a line only while a request of its own is owed.
    A block kind that takes every line while it is owed declares none."""

    name: str
    description: str
    keywords: tuple[str, ...] = ()
    defers: tuple[str, ...] = ()

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        """Read one order line against every request the player owes (`answered`: what
        earlier lines of the set answered). None when the line is not of this kind."""
        return None

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: Any, scenario: Any,
                   player: str) -> BlockRead:
        """Read the lines this kind claimed (`InBlock`) as one answer to `request`."""
        raise NotImplementedError(f"{self.name} reads no block of lines")

    def power_of(self, text: str, state: Any, scenario: Any) -> str | None:
        """The power a block line is for, told by what it names (a corps of that power), when
        the player owes blocks of this kind for several powers; None: not told."""
        return None

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
    keywords: tuple[str, ...] = ()
    defers: tuple[str, ...] = ()

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


@dataclass(frozen=True)
class OptionKind(DecisionKind):
    """A kind whose answer is one of the request's options (`request.options`, each a whole
    answer line, e.g. `COMEBACK FR-I Paris`): a line answers when it is one of them, written
    in any case; the answer is the option as the rules wrote it. `keywords`: the first
    words of its options."""

    name: str
    description: str
    keywords: tuple[str, ...] = ()
    defers: tuple[str, ...] = ()

    def _mine(self, text: str) -> bool:
        words = text.split()
        return bool(words) and words[0].upper() in self.keywords

    def _option(self, text: str, request: Request) -> str | None:
        wanted = " ".join(text.split()).upper()
        return next((o for o in request.options if " ".join(o.split()).upper() == wanted), None)

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        if not self._mine(text):
            return None
        mine = [r for r in owed if r.kind == self.name]
        if not mine:
            return Refused(not_owed(self.name, owed))
        for request in mine:
            option = self._option(text, request)
            if option is not None:
                return Answered(request, option, f"{self.name}: {option}")
        options = [o for r in mine for o in r.options]
        hint = suggest(text, options)
        return Refused(f"not one of the answers you may give: {', '.join(options)}"
                       + (f"; did you mean {hint}?" if hint else ""))

    def answer_policy(self, text: str, request: Request) -> Any | None:
        return self._option(text, request)

    def check_policy(self, text: str) -> str:
        return "" if self._mine(text) else f"a {self.name} policy answers with {' or '.join(self.keywords)} …"

    def order_form(self, request: Request) -> str:
        return str(request.default)


class KeywordCollision(ValueError):
    """Two kinds of a game claim the same first word and neither defers (a ruleset error)."""


#: First words the core reads itself in an order set: no kind may claim them.
CORE_WORDS = ("IF", "FOR")


def check_keywords(kinds: Iterable[DecisionKind]) -> None:
    """No two kinds claim one first word unless one of them defers it, and none claims a
    word the core reads itself (`KeywordCollision` says which)."""
    claimed: dict[str, list[DecisionKind]] = {}
    for kind in kinds:
        for word in dict.fromkeys(w.upper() for w in kind.keywords):
            claimed.setdefault(word, []).append(kind)
    for word, claimants in claimed.items():
        if word in CORE_WORDS:
            raise KeywordCollision(f"{claimants[0].name} claims {word}, a word the core reads itself")
        firm = [k.name for k in claimants if word not in {w.upper() for w in k.defers}]
        if len(firm) > 1:
            raise KeywordCollision(f"kinds {' and '.join(firm)} both read lines starting with {word}: one of them "
                                   "must declare it defers")


# -- the routing ------------------------------------------------------------------------
_FOR = re.compile(r"^FOR\s+(\S+)\s*$", re.IGNORECASE)


def _addressed(text: str) -> str | None:
    """The power a `FOR <power>` line addresses the lines after it to, else None."""
    match = _FOR.match(text.strip())
    return None if match is None else match.group(1).upper()


def _for_power(power: str, requests: Sequence[Request]) -> tuple[Sequence[Request], str, str]:
    """The requests lines addressed to `power` may answer (its own, and those of the player
    as a whole), the line's echo, and why none is owed ("" when one is)."""
    powers = sorted({r.power.upper() for r in requests if r.power})
    if power not in powers:
        return [], "", f"you owe nothing for {power} now"
    mine = [r for r in requests if r.power is None or r.power.upper() == power]
    return mine, f"the lines after this serve {power}", ""


_CONDITIONAL = re.compile(r"^IF\s+(\S+)(?:\s+WHEN\s+(.*?))?\s+THEN\s+(\S.*)$", re.IGNORECASE)


class DecisionKinds:
    """A game's kinds, in the order it declares them: the core's routing of order lines,
    policies, conditional lines and order forms by kind."""

    def __init__(self, kinds: Iterable[DecisionKind]):
        self.kinds: dict[str, DecisionKind] = {kind.name: kind for kind in kinds}
        check_keywords(self.kinds.values())
        self._deferring = {word.upper(): {k.name for k in self.kinds.values() if word in k.defers}
                           for kind in self.kinds.values() for word in kind.defers}

    # -- order lines ------------------------------------------------------------------
    def read_orders(self, lines: Sequence[tuple[int, str]], requests: Sequence[Request], state: Any, scenario: Any,
                    player: str, step: str | None = None) -> OrderReading:
        """Read a player's order lines against the requests that player owes: each line by
        the first kind (in declared order) that reads it; a conditional line
        (`IF <kind> [WHEN <field><op><value> [AND …]] THEN <answer>`) as a policy of this
        step; the lines a block kind claims, together, after the others, a block for each
        request they serve. A line `FOR <power>` addresses the lines after it (up to the next
        `FOR`) to that power's requests, so a player holding several powers answers each; to a
        power that owes nothing now, they wait for its next decision of their kind (`later`).
        A block line with no `FOR` goes to the power its kind tells from what it names
        (`DecisionKind.power_of`), else to the first request of its kind."""
        reading = OrderReading()
        answered_by: dict[str, int] = {}  # request key -> index of the verdict that answered it
        blocks: dict[str, list[tuple[int, str]]] = {}
        owed = requests
        waiting: list[tuple[int, str]] | None = None  # the lines of a power that owes nothing now
        later: list[tuple[QueueLine, list[tuple[int, str]]]] = []
        for number, text in lines:
            power = _addressed(text)
            if power is not None:
                owed, understood, reason = _for_power(power, requests)
                waiting = None
                if reason:
                    waiting = []
                    later.append((QueueLine(number, text, power=power), waiting))
                else:
                    reading.verdicts.append(verdict(number, text, True, understood))
                continue
            if waiting is not None:
                waiting.append((number, text))
                continue
            conditional = _CONDITIONAL.match(text)
            if conditional is not None:
                self._read_conditional(reading, number, text, conditional, player, step)
                continue
            read = self._read_line(text, owed, reading.answers)
            if isinstance(read, InBlock) and not any(r.kind == read.kind for r in owed):
                read = Refused(not_owed(read.kind, owed))
            if isinstance(read, InBlock):
                request = self._block_request(read.kind, text, owed, state, scenario)
                blocks.setdefault(request.key, []).append((number, text))
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
        reading.later = [self._waiting(queued, waited) for queued, waited in later]
        by_key = {r.key: r for r in requests}
        for key, block in blocks.items():
            request = by_key[key]
            result = self.kinds[request.kind].read_block(block, request, state, scenario, player)
            reading.verdicts.extend(result.verdicts)
            if result.refused:
                reading.reject_all = result.refused
            else:
                reading.answers[request.key] = result.answer
        return reading

    def _waiting(self, queued: QueueLine, lines: list[tuple[int, str]]) -> QueueLine:
        """Lines waiting for a power's next decision as a block to queue, of the kind that
        reads their first word (or why none does)."""
        queued.alternatives = [Alternative(lines=lines)]
        if not lines:
            queued.error = f"no order lines follow {queued.text}"
            return queued
        first = lines[0][1].split()[0].upper()
        claimants = [k for k in self.kinds.values() if first in k.keywords]
        firm = [k for k in claimants if first not in k.defers]
        if not claimants:
            queued.error = (f"{queued.power} owes nothing now, and {first} opens no order of this game, so the "
                            "lines after this one up to the next FOR cannot wait for its next decision")
            return queued
        queued.kind = (firm or claimants)[0].name
        return queued

    def _block_request(self, kind: str, text: str, owed: Sequence[Request], state: Any, scenario: Any) -> Request:
        """The owed request of block kind `kind` a line serves."""
        mine = [r for r in owed if r.kind == kind]
        if len(mine) > 1:
            power = self.kinds[kind].power_of(text, state, scenario)
            return next((r for r in mine if power is not None and (r.power or "").upper() == power.upper()), mine[0])
        return mine[0]

    def _read_line(self, text: str, requests: Sequence[Request], answered: Mapping[str, Any]) -> LineRead:
        first = text.split(maxsplit=1)[0].upper() if text.strip() else ""
        deferring = self._deferring.get(first, ())
        owed = {r.kind for r in requests}
        # A kind that defers a word reads it first while its own request is owed, else never.
        kinds = [*(k for k in self.kinds.values() if k.name in deferring and k.name in owed),
                 *(k for k in self.kinds.values() if k.name not in deferring)]
        for kind in kinds:
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
