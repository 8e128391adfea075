"""Reading and setting a game's state by dotted path, for any game (DESIGN §8).

A case's set-up states what the rules track — a siege in progress, unrest apart from
vitality, a unit placed anywhere — as `path = JSON` lines, and its expectations read
any field back. Both work on the state as the ruleset encodes it (its canonical JSON),
so the core never learns a game's shape: an edit is encoded → set at the path →
decoded by the ruleset, whose own schema validates it; what the decoded state does not
keep (a field it does not have, a value it changes) is refused with the place and why.

Paths are dotted: a table by key (`powers.FRA.unrest`), a list by index (`wars.0`) or
by the `id` field of its entries (`troops.T3.area`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pbem.core.ruleset import Ruleset

#: `=` sets a value, `+=` appends to a list, `-=` removes from a list the entries equal
#: to the value (or, for a string, the entry with that `id`).
OPERATORS = ("=", "+=", "-=")
_PART = re.compile(r"[^.\[\]]+")
_SHOWN = 12  # known fields or ids named in a message; more are counted
_TOP = "the top"


class PathError(Exception):
    """A path the data does not have; the message says where it stops and what is there."""


class StateEditError(Exception):
    """An edit the state does not accept; the message names the edit and why."""


@dataclass(frozen=True)
class StateEdit:
    path: str
    op: str
    value: Any

    def as_dict(self) -> dict:
        return {"path": self.path, "op": self.op, "value": self.value}

    @classmethod
    def from_dict(cls, data: dict) -> StateEdit:
        return cls(data["path"], data["op"], data["value"])

    def __str__(self) -> str:
        return f"{self.path} {self.op} {json.dumps(self.value)}"


def parts(dotted: str) -> list[str]:
    return _PART.findall(dotted)


def _named(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" … ({len(names)} in all)" if len(names) > _SHOWN else "")


def _index(items: list, part: str, where: str) -> int:
    """The position of `part` in a list: a number, or the `id` of an entry."""
    if part.lstrip("-").isdigit():
        number = int(part)
        if -len(items) <= number < len(items):
            return number % len(items)
        raise PathError(f"no entry {part} at {where}: it has {len(items)} entries")
    ids = [item.get("id") for item in items if isinstance(item, dict)]
    if part in ids:
        return ids.index(part)
    known = [str(i) for i in ids if i is not None]
    raise PathError(f"no entry {part!r} at {where}: " + (f"known ids {_named(known)}" if known
                                                         else f"entries are numbered 0–{len(items) - 1}"
                                                         if items else "it is empty"))


def _step(current: Any, part: str, where: str) -> Any:
    if isinstance(current, dict):
        if part in current:
            return current[part]
        raise PathError(f"no field {part!r} at {where}: known fields {_named(sorted(current))}"
                        if current else f"no field {part!r} at {where}: it is empty")
    if isinstance(current, list):
        return current[_index(current, part, where)]
    raise PathError(f"{where} is {json.dumps(current)}, which has no field {part!r}")


def _join(where: str, part: object) -> str:
    return str(part) if where == _TOP else f"{where}.{part}"


def lookup(data: Any, dotted: str) -> Any:
    """The value at `dotted` in plain JSON-like data; `PathError` says where it stops."""
    current, where = data, _TOP
    for part in parts(dotted):
        current = _step(current, part, where)
        where = _join(where, part)
    return current


def _edited(data: Any, edit: StateEdit) -> None:
    """Apply one edit to plain data in place (`PathError`/`StateEditError` if it cannot)."""
    path = parts(edit.path)
    if not path:
        raise StateEditError("an empty path")
    parent = lookup(data, ".".join(path[:-1]))
    where = ".".join(path[:-1]) or _TOP
    last = path[-1]
    if edit.op == "=":
        if isinstance(parent, dict):
            parent[last] = edit.value
        elif isinstance(parent, list):
            parent[_index(parent, last, where)] = edit.value
        else:
            raise PathError(f"{where} is {json.dumps(parent)}, which has no field {last!r}")
        return
    target = _step(parent, last, where)
    if not isinstance(target, list):
        raise StateEditError(f"{edit.op} needs a list, and {edit.path} is {json.dumps(target)}")
    if edit.op == "+=":
        target.append(edit.value)
        return
    kept = [item for item in target if item != edit.value
            and not (isinstance(item, dict) and isinstance(edit.value, str) and item.get("id") == edit.value)]
    if len(kept) == len(target):
        raise StateEditError(f"{edit.path} has no entry {json.dumps(edit.value)} to remove")
    target[:] = kept


def _difference(wanted: Any, kept: Any, where: str) -> str | None:
    """Where the state as decoded differs from what was asked, in words (None: nowhere)."""
    if isinstance(wanted, dict) and isinstance(kept, dict):
        for key in wanted:
            if key not in kept:
                return f"the state has no field {key!r} at {where} (known fields {_named(sorted(kept))})"
            found = _difference(wanted[key], kept[key], _join(where, key))
            if found:
                return found
        return None
    if isinstance(wanted, list) and isinstance(kept, list) and len(wanted) == len(kept):
        for number, (one, other) in enumerate(zip(wanted, kept, strict=True)):
            found = _difference(one, other, _join(where, number))
            if found:
                return found
        return None
    if wanted == kept:
        return None
    return f"the state keeps {json.dumps(kept)} at {where}, not {json.dumps(wanted)}"


def apply_edits(ruleset: Ruleset, state: Any, edits: list[StateEdit]) -> Any:
    """The state with `edits` applied in order, each through the ruleset's encoding;
    `StateEditError` names the first edit the state does not accept, and why."""
    for edit in edits:
        data = json.loads(ruleset.encode_state(state))
        try:
            if edit.op not in OPERATORS:
                raise StateEditError(f"unknown operator {edit.op!r} (use {', '.join(OPERATORS)})")
            _edited(data, edit)
            # The ruleset's decoder is its schema; whatever it raises on a bad value is the reason.
            state = ruleset.decode_state(json.dumps(data).encode())
        except (PathError, StateEditError, ValueError, TypeError, KeyError) as error:
            raise StateEditError(f"{edit}: {error}") from None
        problem = _difference(data, json.loads(ruleset.encode_state(state)), _TOP)
        if problem:
            raise StateEditError(f"{edit}: {problem}")
    return state
