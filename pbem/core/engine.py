"""The decision engine (DESIGN §4): durable procedures.

A step of a game is plain straight-line code that calls `ctx.decide(...)` and
`ctx.roll(...)` in the rulebook's order. The engine runs it against the answers already
in the log. When a decision has no answer yet the run stops (`Suspended`) and the
request is what the players see; a new answer re-runs the step from its start state,
which is plain data, so re-running is idempotent. Every decision and every roll has a
stable key (step, purpose, counter), so answers and dice line up with the code that
asks for them.

Answers come, in order, from: an explicit answer in the log (orders or a recorded
fact), a standing policy, a conditional line of the current step, and — only through
a recorded fact after the deadline — the documented default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from pbem.core.dice import DEFAULT_FACE, Roll, keyed_streams

ALL = "*"


class Request(msgspec.Struct, frozen=True):
    """A decision owed by one player.

    `options` lists legal answers in order-line form where the set is small; `default`
    is the answer the deadline gives; `context` holds the facts a standing policy may
    test (`WHEN area=Paris`). A sealed request's answer is hidden from the other
    players until its batch is revealed. (A struct: a replay builds one for every
    decision of every step, and a frozen dataclass is slow to build.)
    """

    key: str
    kind: str
    player: str
    prompt: str
    default: Any
    power: str | None = None
    options: tuple[str, ...] = ()
    context: Mapping[str, Any] = {}
    sealed: bool = False
    rule: str = ""

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "kind": self.kind,
            "player": self.player,
            "power": self.power,
            "prompt": self.prompt,
            "default": self.default,
            "options": list(self.options),
            "context": dict(self.context),
            "sealed": self.sealed,
            "rule": self.rule,
        }


class Seat(msgspec.Struct, frozen=True):
    """A player as the rules see one: no address, no token (a struct: every step run
    builds the seats)."""

    id: str
    name: str


class Answer(msgspec.Struct, frozen=True):
    """An answer and where it came from (structs, like the other records a replay makes
    for every step: a frozen dataclass is slow to build)."""

    value: Any
    source: str


@dataclass(frozen=True)
class Policy:
    """A standing order (or, with `step` set, a conditional line of one step).

    It answers requests of `kind` owed by `player` (for `power`, if given) whose
    context matches every condition.
    """

    id: str
    player: str
    kind: str
    answer_text: str
    power: str | None = None
    conditions: tuple[tuple[str, str, str], ...] = ()
    step: str | None = None

    def matches(self, request: Request) -> bool:
        if request.kind != self.kind or request.player != self.player:
            return False
        if self.power is not None and request.power != self.power:
            return False
        return all(condition_holds(request.context.get(name), op, value) for name, op, value in self.conditions)

    def describe(self) -> str:
        scope = "conditional line" if self.step else "policy"
        return f"{scope} {self.id} of {self.player}"


def condition_holds(actual: Any, op: str, expected: str) -> bool:
    """One condition of a policy, a conditional line or a queued block: `=`/`!=` compare
    words without regard to case, `<`… compare whole numbers, `HAS` looks in a list."""
    if actual is None:
        return False
    if op == "HAS":
        items = actual if isinstance(actual, (list, tuple)) else [actual]
        return any(str(item).lower() == expected.lower() for item in items)
    if op in ("=", "=="):
        return str(actual).lower() == expected.lower()
    if op == "!=":
        return str(actual).lower() != expected.lower()
    try:
        left, right = int(actual), int(expected)
    except (TypeError, ValueError):
        return False
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]


class Suspended(Exception):
    """Raised inside a step when it needs answers nobody has given yet.

    `requests` are the missing answers; `batch` is the whole simultaneous batch, whose
    answered members may still be replaced until the batch is revealed."""

    def __init__(self, requests: Sequence[Request], batch: Sequence[Request] = ()):
        super().__init__(", ".join(r.key for r in requests))
        self.requests = tuple(requests)
        self.batch = tuple(batch) or self.requests


class StepError(Exception):
    """A rules procedure met input it cannot use (a bug or a corrupt log)."""


class MapMark(msgspec.Struct, frozen=True):
    """Where on the map a chronicle line happened, for the reports' map: a `kind` of event
    (`battle`, `siege` …) in an area, and its result in a few words."""

    area: str
    kind: str
    result: str = ""


class ChronicleEntry(msgspec.Struct, frozen=True):
    """One line of what happened, with who may see it (`ALL` or player ids), and where on
    the map when the rules say so (a battle, a siege: drawn on the reader's map)."""

    step: str
    text: str
    visible_to: tuple[str, ...] = (ALL,)
    rule: str = ""
    rolls: tuple[dict, ...] = ()
    mark: MapMark | None = None

    def visible(self, viewer: str) -> bool:
        return viewer == "gm" or ALL in self.visible_to or viewer in self.visible_to

    def as_dict(self) -> dict:
        return {
            "step": self.step,
            "text": self.text,
            "visible_to": list(self.visible_to),
            "rule": self.rule,
            "rolls": list(self.rolls),
        }


class UsedAnswer(msgspec.Struct, frozen=True):
    """A decision answered during a run, and from where."""

    request: Request
    answer: Answer
    recorded: bool  # True when the answer was already a fact in the log


class StepResult(msgspec.Struct):
    """What one run of a step came to (a struct, like the records it holds)."""

    step: str
    completed: bool
    pending: tuple[Request, ...]
    answerable: tuple[Request, ...]
    used: tuple[UsedAnswer, ...]
    rolls: tuple[Roll, ...]
    chronicle: tuple[ChronicleEntry, ...]
    forced_left: dict[str, list[int]]

    @property
    def auto_answers(self) -> list[UsedAnswer]:
        """Answers from policies and conditional lines not yet recorded as facts."""
        return [u for u in self.used if not u.recorded]


class KeyedRequests:
    """Requests built with stable keys (`<step>/<purpose>#<n>`), the same for the live step
    (`StepContext`) and the dry run (`probe.Probe`): both set `step` and `_counters`."""

    step: str
    _counters: dict[str, int]

    def _next_key(self, namespace: str, purpose: str) -> str:
        return f"{self.step}/{purpose}#{self._take(namespace, purpose, 1) + 1}"

    def _take(self, namespace: str, purpose: str, count: int) -> int:
        """Count `count` more keys of `purpose`; how many there were before (the new
        keys are numbered on from it)."""
        counter_key = f"{namespace}:{purpose}"
        last = self._counters.get(counter_key, 0)
        self._counters[counter_key] = last + count
        return last

    def request(self, *, kind: str, player: str, prompt: str, default: Any, purpose: str | None = None,
                power: str | None = None, options: Iterable[str] = (), context: Mapping[str, Any] | None = None,
                sealed: bool = False, rule: str = "") -> Request:
        """Build a request with the next stable key for its purpose (not yet asked)."""
        key = self._next_key("decide", purpose or kind)
        return Request(key=key, kind=kind, player=player, prompt=prompt, default=default, power=power,
                       options=tuple(options), context=dict(context or {}), sealed=sealed, rule=rule)


class StepContext(KeyedRequests):
    """What a rules procedure may use while it runs one step: the live `DecisionPort`.

    `step_start`, when the engine gives it, makes a fresh copy of the state as the step
    began (the engine keeps it encoded): a rule that may have to go back to it need not
    save it again."""

    def __init__(
        self,
        *,
        campaign: str,
        step: str,
        secret: bytes,
        answers: Mapping[str, Answer],
        policies: Sequence[Policy],
        answer_policy: Callable[[Policy, Request], Any | None],
        forced: Mapping[str, Sequence[int]],
        by_default: Mapping[str, str] | None = None,
        scenario: Any,
        seats: Mapping[str, Seat],
        step_start: Callable[[], Any] | None = None,
    ):
        self.campaign = campaign
        self.step = step
        self.scenario = scenario
        self.seats = seats
        self.step_start = step_start
        self.interrupts = 0  # decisions and dice asked for so far
        self._streams = keyed_streams(secret)
        self._answers = answers
        self._policies = policies
        self._answer_policy = answer_policy
        self._by_default = by_default or {}
        self._forced = {purpose: list(values) for purpose, values in forced.items()}
        self._counters: dict[str, int] = {}
        self._used: list[UsedAnswer] = []
        self._rolls: list[Roll] = []
        self._chronicle: list[ChronicleEntry] = []
        self._pending_rolls: list[Roll] = []

    # -- decisions --------------------------------------------------------
    def decide(self, request: Request) -> Any:
        """The answer to one request; suspends the step if there is none yet."""
        return self.decide_all([request])[0]

    def decide_all(self, requests: Sequence[Request]) -> list[Any]:
        """Answers to a simultaneous batch, revealed together: if any is missing the
        step suspends on all the missing ones and none of the batch is used."""
        self.interrupts += 1
        found = [self._lookup(r) for r in requests]
        if None in found:
            raise Suspended([r for r, u in zip(requests, found, strict=True) if u is None], requests)
        self._used.extend(found)
        return [u.answer.value for u in found]

    def _lookup(self, request: Request) -> UsedAnswer | None:
        recorded = self._answers.get(request.key)
        if recorded is not None:
            return UsedAnswer(request, recorded, recorded=True)
        standing = [p for p in self._policies if p.step is None and p.matches(request)]
        conditional = [p for p in self._policies if p.step == self.step and p.matches(request)]
        for policy in standing + conditional:
            value = self._answer_policy(policy, request)
            if value is not None:
                return UsedAnswer(request, Answer(value, policy.describe()), recorded=False)
        why = self._by_default.get(request.player)
        if why is not None:  # the missed-orders policy runs this player's powers by their defaults
            return UsedAnswer(request, Answer(request.default, f"default ({request.player} {why})"), recorded=False)
        return None

    # -- dice -------------------------------------------------------------
    def roll(self, purpose: str, *, sides: int = 6, rule: str = "") -> int:
        """One die of `sides` faces for `purpose`, logged with the rule it serves."""
        self.interrupts += 1
        return self._draw(purpose, sides, rule, die=True)

    def draw_index(self, purpose: str, bound: int, *, rule: str = "") -> int:
        """An unbiased index in [0, bound), logged like a die of `bound` faces."""
        self.interrupts += 1
        return self._draw(purpose, bound, rule) - 1

    def shuffle(self, purpose: str, items: Sequence[Any], *, rule: str = "") -> list[Any]:
        """Fisher–Yates shuffle driven by the keyed stream of `purpose`: each swap is an
        index drawn as `draw_index` draws it, the keys counted in one go (a deal is dozens)."""
        deck = list(items)
        swaps = max(len(deck) - 1, 0)
        last = self._take("roll", purpose, swaps)
        self.interrupts += swaps
        stream = f"{self.campaign}|{self.step}/{purpose}#"
        for n, i in enumerate(range(len(deck) - 1, 0, -1), start=last + 1):
            j = self._roll(stream + str(n), purpose, i + 1, rule) - 1
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def _draw(self, purpose: str, sides: int, rule: str, *, die: bool = False) -> int:
        return self._roll(f"{self.campaign}|" + self._next_key("roll", purpose), purpose, sides, rule, die=die)

    def _roll(self, key: str, purpose: str, sides: int, rule: str, *, die: bool = False) -> int:
        queue = self._forced.get(purpose)
        default = self._forced.get(DEFAULT_FACE) if die else None
        if queue:
            value = queue.pop(0)
            if not 1 <= value <= sides:
                raise StepError(f"forced die {value} for {purpose} is not between 1 and {sides}")
            roll = Roll(key, purpose, rule, sides, value, forced=True)
        elif default:
            # A die no forced value was given for shows the default face (a case's `@dice * N`),
            # as near as its faces allow; draws and shuffles keep their keyed streams.
            roll = Roll(key, purpose, rule, sides, max(1, min(default[-1], sides)), forced=True)
        else:
            roll = Roll(key, purpose, rule, sides, self._streams.draw_below(key, sides) + 1)
        self._rolls.append(roll)
        self._pending_rolls.append(roll)
        return roll.value

    # -- chronicle --------------------------------------------------------
    def say(self, text: str, *, to: Iterable[str] = (ALL,), rule: str = "", with_rolls: bool = True,
            mark: MapMark | None = None) -> None:
        """Add a chronicle line; by default it carries the rolls made since the last line."""
        rolls: tuple[dict, ...] = ()
        if with_rolls and self._pending_rolls:
            rolls = tuple(map(Roll.as_dict, self._pending_rolls))
            self._pending_rolls = []
        self._chronicle.append(ChronicleEntry(self.step, text, tuple(to), rule, rolls, mark))

    def result(self, completed: bool, pending: Sequence[Request] = (), batch: Sequence[Request] = ()) -> StepResult:
        return StepResult(
            step=self.step,
            completed=completed,
            pending=tuple(pending),
            answerable=tuple(batch),
            used=tuple(self._used),
            rolls=tuple(self._rolls),
            chronicle=tuple(self._chronicle),
            forced_left={k: v for k, v in self._forced.items() if v},
        )


def run_step(procedure: Callable[[StepContext, Any], None], state: Any, ctx: StepContext) -> StepResult:
    """Run one step's procedure on `state` (a fresh copy, mutated in place)."""
    try:
        procedure(ctx, state)
    except Suspended as suspended:
        return ctx.result(False, suspended.requests, suspended.batch)
    return ctx.result(True)
