"""The one block runner (DESIGN §6): every block of orders — a power's land or army
orders, an impulse script, an action queue — is checked and carried out by running the
same order code.

The dry run, when the block arrives, runs each line's `Order.execute` on a copy of the
state through the core's probe: a line refused is rolled back to the checkpoint before it,
with its reason, and the rest goes on, so every fault is reported at once; the first line
that needs a die or another player's decision stops the check (`NeedsInput`): it and the
lines after it are checked when the step reaches them. The live run executes the same
code on the step's state: a line that has become illegal by then (a reaction changed the
map) is rolled back and dropped with a chronicle line, and the rest goes on.

The game supplies the `game` object its orders are carried out on (`BlockGame`: its state,
scenario, the power the block serves and the port; `save()` and `restore(saved)` for
checkpoints, `execute(order)`, and what a line refused live does: `dropped`) and its orders
(`Orders`: an `OrderTable`, or a game's own reading). `PowerBlock` and `BlockKind` serve a
block of one power's orders from an `OrderTable`; Ratio Regis's impulse brings its own game
(a card budget, checkpoints taken only after a line that asked for dice or a decision).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.core.decisions import (BlockRead, DecisionKind, InBlock, LineRead, LineVerdict, Refusal, Refused, not_owed,
                                 verdict)
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.core.probe import NeedsInput, Probe
from pbem.core.toolkit import Order, OrderSyntaxError, OrderTable


class BlockGame(Protocol):
    """What the runner needs of the object a game's orders are carried out on."""

    port: DecisionPort

    def save(self) -> Any:
        """A checkpoint to go back to if the next line is refused."""

    def restore(self, saved: Any) -> None:
        """Go back to a checkpoint `save` gave."""

    def execute(self, order: Any) -> str:
        """Carry `order` out (raising a refusal when the rules do not allow it) and say what
        happened."""

    def dropped(self, number: int, text: str, error: Exception) -> bool:
        """Live, a line the rules refuse by the time it is reached: True when it is dropped
        and the rest goes on (whoever should know is told), False when it refuses the block."""


class Orders(Protocol):
    """What the runner needs of a game's orders: an `OrderTable`, or a game's own reading."""

    name: str
    refusals: tuple[type[Exception], ...]

    def read(self, text: str) -> Any:
        """One line as an order, or a `Refusal` saying why it cannot be read."""

    def echo(self, order: Any) -> str:
        """A line as understood, before it is carried out."""

    def understood(self, order: Any, result: str) -> str:
        """A line as understood once carried out (`result`: what its execution said)."""


@dataclass
class BlockRun:
    """How each line of a block went: its verdict, the orders carried out, and the lines
    left to be checked when the step reaches them (after a die or a decision) or dropped
    when reached."""

    verdicts: list[LineVerdict] = field(default_factory=list)
    orders: list[Any] = field(default_factory=list)
    later: set[int] = field(default_factory=set)

    @property
    def refused(self) -> list[LineVerdict]:
        """The lines refused now (not those dropped when reached)."""
        return [v for v in self.verdicts if not v.accepted and v.number not in self.later]

    def first_fault(self) -> str:
        bad = next(iter(self.refused), None)
        return "" if bad is None else f"line {bad.number} ({bad.text}): {bad.reason}"


def run_block(table: Orders, lines: Sequence[tuple[int, str]], game: BlockGame, *, live: bool) -> BlockRun:
    """Run `lines` (numbered order lines) on `game`: a dry run (`live=False`, the game on a
    copy of the state and the core's probe) or the live run (see the module's docstring)."""
    run = BlockRun()
    deferred = False
    for number, text in lines:
        try:
            order = table.read(text)
        except Refusal as error:
            run.verdicts.append(verdict(number, text, False, reason=str(error)))
            continue
        if deferred:
            run.later.add(number)
            run.verdicts.append(verdict(number, text, True, table.echo(order)))
            continue
        saved = game.save()
        try:
            result = game.execute(order)
        except NeedsInput:
            if live:
                raise
            game.restore(saved)
            deferred = True
            run.later.add(number)
            run.verdicts.append(verdict(number, text, True, table.echo(order)))
            continue
        except (Refusal, *table.refusals) as error:
            game.restore(saved)
            run.verdicts.append(verdict(number, text, False, table.echo(order), str(error)))
            if live and game.dropped(number, text, error):
                run.later.add(number)
            continue
        run.orders.append(order)
        run.verdicts.append(verdict(number, text, True, table.understood(order, result)))
    return run


@dataclass
class PowerBlock:
    """The `game` of a block of one power's orders from an `OrderTable` on a game whose
    state is a struct: checkpoints are copies of the state (`copy`), and going back puts a
    copy's fields into the very state object the step holds. What each order did, and each
    line dropped live, is told to `to` (the players who may see it; all when None), citing
    the order's rule or the block's (`rule`); the core's probe tells nobody anything."""

    state: Any
    scenario: Any
    power: str
    port: DecisionPort
    copy: Callable[[Any], Any]
    rule: str = ""
    to: tuple[str, ...] | None = None

    def save(self) -> Any:
        return self.copy(self.state)

    def restore(self, saved: Any) -> None:
        for name in self.state.__struct_fields__:
            setattr(self.state, name, getattr(saved, name))

    def execute(self, order: Order) -> str:
        result = order.execute(self)
        if result:
            self.port.say(result, rule=order.rule or self.rule, **self._to())
        return result

    def dropped(self, number: int, text: str, error: Exception) -> bool:
        self.port.say(f"{self.power}: {text} is not carried out: {error}", rule=self.rule, **self._to())
        return True

    def _to(self) -> dict[str, tuple[str, ...]]:
        return {} if self.to is None else {"to": self.to}


@dataclass(frozen=True)
class BlockKind(DecisionKind):
    """A decision answered by a block of one power's orders from an `OrderTable`: a power's
    land or army orders, an action queue. The game declares it and writes none of its
    reading: lines go to the block while one is owed, a line for a power the player owes a
    block for is bound to that power's block (`FOR <power>`, or the power of what the line
    names: `power_of`), the dry run checks the block when it arrives, and `carry_out` runs
    it live.

    `whole`: a block refused whole when a line is refused now (orders carried out at once);
    otherwise an action queue, each line taken if it is legal when its turn comes: the dry
    run says which lines the rules refuse now and keeps them. `copy` copies the game's state
    (the dry run works on a copy); `game` builds what the orders are carried out on
    (`PowerBlock` by default); `named_power` tells the power an order is for from what it
    names."""

    name: str
    summary: str
    table: OrderTable
    copy: Callable[[Any], Any]
    whole: bool = True
    game: Callable[..., BlockGame] = PowerBlock
    named_power: Callable[[Order, Any, Any], str | None] = lambda order, state, scenario: None
    defers: tuple[str, ...] = ()

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"{self.summary}, one per line: " + "; ".join(order.help() for order in self.table.orders)

    @property
    def keywords(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.table.keywords

    @property
    def _nothing(self) -> tuple[str, ...]:
        """The words of a line that gives no orders (STAND), and DEFAULT."""
        return (*(o.keyword() for o in self.table.orders if not o.kept), "DEFAULT")

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        if any(r.kind == self.name for r in owed):
            return InBlock(self.name)  # a line that cannot be read is reported with the block's others
        try:
            order = self.table.read(text)
        except OrderSyntaxError:
            return None
        return Refused(not_owed(self.name, owed)) if order.kept else None

    def power_of(self, text: str, state: Any, scenario: Any) -> str | None:
        try:
            return self.named_power(self.table.read(text), state, scenario)
        except OrderSyntaxError:
            return None

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: Any, scenario: Any,
                   player: str) -> BlockRead:
        trial = self.game(self.copy(state), scenario, request.power or "", Probe(scenario), self.copy)
        run = run_block(self.table, lines, trial, live=False)
        if self.whole and run.refused:
            return BlockRead(run.verdicts, refused=f"your {self.name} orders were refused and nothing was carried "
                                                   f"out: {run.first_fault()}; correct them and send them all again")
        verdicts = [v if v.accepted or not v.understood else
                    v.model_copy(update={"accepted": True, "reason": "",
                                         "understood": f"{v.understood} (not possible now: {v.reason}; tried "
                                                       "again when its turn comes)"})
                    for v in run.verdicts]
        return BlockRead(verdicts, answer=[order.text() for v in verdicts if v.accepted
                                           if (order := self.table.read(v.text)).kept])

    def carry_out(self, port: DecisionPort, state: Any, scenario: Any, power: str, lines: Sequence[str], *,
                  rule: str = "", to: Sequence[str] | None = None) -> BlockRun:
        """The live run of a power's block on the step's state (see `run_block`)."""
        game = self.game(state, scenario, power, port, self.copy, rule, None if to is None else tuple(to))
        return run_block(self.table, list(enumerate(lines, start=1)), game, live=True)

    def answer_policy(self, text: str, request: Request) -> list[str] | None:
        word = text.strip().upper()
        return list(request.default) if word == "DEFAULT" else [] if word in self._nothing else None

    def check_policy(self, text: str) -> str:
        if text.strip().upper() not in self._nothing:
            return (f"{self.name} orders are checked against the state of their own step, so a standing policy can "
                    f"only say DO {' or DO '.join(self._nothing)}")
        return ""

    def order_form(self, request: Request) -> str:
        return "\n".join(request.default) or self._nothing[0]
