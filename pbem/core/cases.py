"""The case corpus (DESIGN §8): plain-text adjudication cases, in the spirit of
Diplomacy's DATC. Each case is a setup, forced dice, order sets and the expected outcome,
with the rules it checks; the runner plays it through the same service the mail uses,
on an in-memory store. The format is documented in `docs/cases.md`.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core.datafile import load_data_file
from pbem.core.projection import CampaignProjection
from pbem.core.service import CampaignService, PlayerSpec, Receipt
from pbem.core.store import open_store

_EXPECT = re.compile(r"^(?P<path>[\w.\[\]-]+)\s*(?P<op>=|!=|contains|>=|<=)\s*(?P<value>.+)$")
_LEN = re.compile(r"^len\((?P<path>[\w.\[\]-]+)\)\s*=\s*(?P<value>\d+)$")


class CaseFormatError(Exception):
    """A case file that cannot be read; the message gives the file and line."""


@dataclass
class Case:
    path: Path
    name: str = ""
    rules: list[str] = field(default_factory=list)
    ruleset: str = ""
    scenario: Path | None = None
    players: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[str, Any, Any]] = field(default_factory=list)  # ("dice", purpose, values) | ("orders", player, text)
    expects: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class CaseResult:
    case: Case
    failures: list[str]

    @property
    def passed(self) -> bool:
        return not self.failures


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()


def _find(path: Path, relative: str) -> Path:
    for base in [path.parent, *path.parents]:
        candidate = base / relative
        if candidate.exists():
            return candidate
    return path.parent / relative


def parse_case(path: Path) -> Case:
    case = Case(path=path, name=path.stem)
    orders_of: str | None = None
    order_lines: list[str] = []
    in_expect = False

    def flush() -> None:
        nonlocal orders_of, order_lines
        if orders_of is not None:
            case.actions.append(("orders", orders_of, "\n".join(order_lines)))
        orders_of, order_lines = None, []

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line.startswith("@"):
            if orders_of is not None:
                order_lines.append(raw)
            elif in_expect and line and not line.startswith("#"):
                case.expects.append((number, line))
            elif line and not line.startswith("#"):
                raise CaseFormatError(f"{path}:{number}: a line outside any block: {line!r}")
            continue
        flush()
        in_expect = False
        directive, _, rest = line[1:].partition(" ")
        rest = rest.strip()
        if directive == "case":
            case.name = rest
        elif directive == "rule":
            case.rules = rest.split()
        elif directive == "ruleset":
            case.ruleset = rest
        elif directive == "scenario":
            case.scenario = _find(path, rest)
        elif directive == "players":
            case.players = rest.split()
        elif directive == "option":
            key, sep, value = rest.partition("=")
            if not sep:
                raise CaseFormatError(f"{path}:{number}: @option needs name=value")
            case.options[key.strip()] = _value(value)
        elif directive == "dice":
            words = rest.split()
            if len(words) < 2 or not all(w.isdigit() for w in words[1:]):
                raise CaseFormatError(f"{path}:{number}: @dice needs a purpose and die results")
            case.actions.append(("dice", words[0], [int(w) for w in words[1:]]))
        elif directive == "orders":
            if not rest:
                raise CaseFormatError(f"{path}:{number}: @orders needs a player")
            orders_of = rest
        elif directive == "expect":
            in_expect = True
        else:
            raise CaseFormatError(f"{path}:{number}: unknown directive @{directive}")
    flush()
    missing = [d for d, v in (("@ruleset", case.ruleset), ("@scenario", case.scenario),
                              ("@players", case.players), ("@expect", case.expects)) if not v]
    if missing:
        raise CaseFormatError(f"{path}: missing {', '.join(missing)}")
    return case


def _lookup(data: Any, dotted: str) -> Any:
    current = data
    for part in re.findall(r"[^.\[\]]+", dotted):
        if isinstance(current, list) and part.lstrip("-").isdigit():
            current = current[int(part)]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        else:
            raise KeyError(dotted)
    return current


class _Play:
    """A case being played: the service, and the last receipt of each player."""

    def __init__(self, case: Case):
        self.case = case
        self.service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
        self.receipts: dict[str, Receipt] = {}

    def run(self) -> CampaignProjection:
        scenario = load_data_file(self.case.scenario)
        players = [PlayerSpec(id=p, address=f"{p}@cases.invalid", token=p) for p in self.case.players]
        self.service.create("case", self.case.ruleset, scenario, players, options=self.case.options,
                            secret=bytes(32))
        for kind, who, what in self.case.actions:
            if kind == "dice":
                self.service.force_dice("case", who, what, f"case {self.case.name}")
            else:
                self.receipts[who] = self.service.submit("case", who, what).receipt
        return self.service.projection("case")

    def check(self, projection: CampaignProjection, line: str) -> str | None:
        """None if the expectation holds, else what was found."""
        words = shlex.split(line)
        head = words[0]
        if head == "pending" and len(words) == 3:
            kinds = [r.kind for r in projection.pending_for(words[1])]
            return None if words[2] in kinds else f"{words[1]} owes {kinds or 'nothing'}"
        if head == "not-pending" and len(words) == 2:
            kinds = [r.kind for r in projection.pending_for(words[1])]
            return None if not kinds else f"{words[1]} owes {kinds}"
        if head in ("rejected", "accepted") and len(words) in (2, 3):
            receipt = self.receipts.get(words[1])
            if receipt is None:
                return f"{words[1]} sent no orders"
            reasons = [receipt.reason] + [v.reason for v in receipt.verdicts if not v.accepted]
            refused = not receipt.accepted or any(not v.accepted for v in receipt.verdicts)
            if head == "accepted":
                return None if not refused else f"refused: {[r for r in reasons if r]}"
            wanted = words[2].lower() if len(words) == 3 else ""
            if refused and any(wanted in r.lower() for r in reasons if r):
                return None
            return f"accepted={receipt.accepted}, reasons {[r for r in reasons if r]}"
        if head == "chronicle" and len(words) == 2:
            texts = [c.text for c in projection.chronicle("gm")]
            return None if any(words[1].lower() in t.lower() for t in texts) else "no chronicle line has it"
        namespace = dict(projection.view("gm"))
        namespace.update(step=projection.step, finished=projection.finished)
        match = _LEN.match(line)
        if match:
            found = len(_lookup(namespace, match["path"]))
            return None if found == int(match["value"]) else f"length is {found}"
        match = _EXPECT.match(line)
        if not match:
            raise CaseFormatError(f"cannot read expectation {line!r}")
        found = _lookup(namespace, match["path"])
        expected = _value(match["value"])
        holds = {
            "=": lambda: found == expected,
            "!=": lambda: found != expected,
            "contains": lambda: expected in found,
            ">=": lambda: found >= expected,
            "<=": lambda: found <= expected,
        }[match["op"]]()
        return None if holds else f"found {json.dumps(found)}"


def run_case(case: Case) -> CaseResult:
    play = _Play(case)
    try:
        projection = play.run()
    except Exception as error:  # a case must report, not crash the whole corpus
        return CaseResult(case, [f"the case could not be played: {type(error).__name__}: {error}"])
    failures = []
    for number, line in case.expects:
        try:
            problem = play.check(projection, line)
        except KeyError as error:
            problem = f"no such value {error}"
        except CaseFormatError as error:
            problem = str(error)
        if problem is not None:
            failures.append(f"{case.path}:{number}: expected {line} — {problem}")
    return CaseResult(case, failures)


def case_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.case")) if path.is_dir() else [path])
    return found
