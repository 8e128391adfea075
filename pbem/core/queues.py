"""Queued orders: a player's order sets for their own later steps (issue 16).

A queued block names the decision it will answer — a kind, optionally the power and the
first turn — and holds one or more alternatives, each guarded by conditions on what the
player may see when that step opens (their view: `control.Paris=FRA`, `hand HAS 12`);
the first alternative whose conditions hold is used, read then by the decision kind as if
the player had just sent it. Blocks of one player are used in the order they were queued,
so "my next two impulses" is two blocks. A block is never used for the step that was in
progress when it was queued: that step is answered directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from pbem.core.campaign import PolicyRecord
from pbem.core.decisions import OrderReading
from pbem.core.engine import Request, condition_holds
from pbem.core.orders import Alternative, suggest


class QueuedBlock(msgspec.Struct, frozen=True):
    """A queued block as recorded: whose, what it answers, and its alternatives in order.
    `not_for` is the step in progress when it was queued."""

    id: str
    player: str
    kind: str
    power: str | None = None
    turn: int | None = None
    not_for: str | None = None
    alternatives: list[Alternative] = []

    def serves(self, request: Request, step: str, turn: int | None) -> bool:
        """Whether this block answers `request` of `step`, a step of `turn` (None: no turn)."""
        if request.player != self.player or request.kind != self.kind or step == self.not_for:
            return False
        # A decision of the player's as a whole (no power) is theirs whichever power they name.
        if self.power is not None and request.power is not None and request.power.upper() != self.power:
            return False
        return self.turn is None or (turn is not None and turn >= self.turn)

    def target(self) -> str:
        """The decision the block will answer, as the receipt and the report say it."""
        power = f" for {self.power}" if self.power else ""
        turn = f" from turn {self.turn} on" if self.turn is not None else ""
        return f"your next {self.kind} decision{power}{turn}"

    def choose(self, view: Mapping[str, Any]) -> int | None:
        """The index of the first alternative whose conditions hold in `view`, or None."""
        for index, alternative in enumerate(self.alternatives):
            if all(condition_holds(view_value(view, name), op, value) for name, op, value in alternative.conditions):
                return index
        return None


def path_problem(view: Mapping[str, Any], full_view: Mapping[str, Any], path: str) -> str:
    """Why a `WHEN` path names nothing in the player's `view` now ("" when it names
    something): a condition on it would only ever be silently false. A path the GM's
    `full_view` has is one the player may not see; any other is misspelt."""
    missing = _missing_part(view, path)
    if missing is None:
        return ""
    if _missing_part(full_view, path) is None:
        return f"{path} is not yours to see"
    where, part, known = missing
    hint = suggest(part, known)
    return (f"{path}: your view has no {part!r}" + (f" in {where}" if where else "")
            + (f"; did you mean {hint}?" if hint else ""))


def _missing_part(view: Mapping[str, Any], path: str) -> tuple[str, str, list[str]] | None:
    """Where `path` leaves `view` — the part reached, the missing name and the names there
    are — or None when it names something (whose value may be empty)."""
    node: Any = view
    parts = path.split(".")
    for at, part in enumerate(parts):
        where = ".".join(parts[:at])
        if isinstance(node, Mapping):
            key = part if part in node else next((k for k in node if str(k).lower() == part.lower()), None)
            if key is None:
                return where, part, [str(k) for k in node]
            node = node[key]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return where, part, []
    return None


def view_value(view: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of a player's view (`control.Paris`, `powers.FRA.unrest`);
    keys match without regard to case, and a missing one gives None (the condition fails)."""
    node: Any = view
    for part in path.split("."):
        if isinstance(node, Mapping):
            if part in node:
                node = node[part]
                continue
            key = next((k for k in node if str(k).lower() == part.lower()), None)
            if key is None:
                return None
            node = node[key]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def conditional_records(reading: OrderReading) -> list[PolicyRecord]:
    """An order set's conditional lines as the campaign records them."""
    return [PolicyRecord(p.id, p.player, p.kind, p.answer_text, p.answer_text, p.power, list(p.conditions), p.step)
            for p in reading.conditional]
