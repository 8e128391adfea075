"""The case corpus (DESIGN §8): plain-text adjudication cases, in the spirit of
Diplomacy's DATC. Each case is a setup, forced dice, order sets and the expected outcome,
with the rules it checks; the runner plays it through the same service the mail uses,
on an in-memory store, then replays its log as `pbem verify` does. A set-up may state any
field of the game's state (`state_edits`), and expectations may read any. The format is
documented in `docs/cases.md`.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from pbem.core.campaign import Campaign
from pbem.core.datafile import load_data_file, merged
from pbem.core.dice import declared_purpose
from pbem.core.projection import CampaignProjection
from pbem.core.service import CampaignService, PlayerSpec, Receipt
from pbem.core.state_edits import PathError, StateEdit, StateEditError, apply_edits, lookup
from pbem.core.store import open_store

_EXPECT = re.compile(r"^(?P<path>[\w.\[\]-]+)\s*(?P<op>=|!=|contains|has|>=|<=)\s*(?P<value>.+)$")
_LEN = re.compile(r"^len\((?P<path>[\w.\[\]-]+)\)\s*=\s*(?P<value>\d+)$")
_SETUP = re.compile(r"^(?P<path>[\w.\[\]-]+)\s*(?P<op>\+=|-=|=)\s*(?P<value>.+)$")
_BARE_WORD = re.compile(r"^[\w-]+$")
_CAMPAIGN = "case"
_INCLUDE_DEPTH = 8  # an include deeper than this is taken for a loop


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
    scenario_patch: list[dict[str, Any]] = field(default_factory=list)  # `@scenario-patch` tables, in order
    # ("dice", purpose, values) | ("orders", player, text) | ("setup", line numbers, edits)
    # | ("deadline", None, None)
    actions: list[tuple[str, Any, Any]] = field(default_factory=list)
    expects: list[tuple[str, str]] = field(default_factory=list)  # (file:line, expectation)


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


def _setup_line(path: Path, number: int, line: str) -> StateEdit:
    """`dotted.path = JSON` (or `+=`, `-=`): one edit of a set-up block; a bare word is a string."""
    match = _SETUP.match(line)
    if not match:
        raise CaseFormatError(f"{path}:{number}: a set-up line is `path = JSON` (or +=, -=), not {line!r}")
    text = match["value"].strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        if not _BARE_WORD.match(text):
            raise CaseFormatError(f"{path}:{number}: {text!r} is not JSON (quote a string with spaces)") from None
        value = text
    return StateEdit(match["path"], match["op"], value)


def _lines(path: Path, depth: int = 0) -> list[tuple[Path, int, str]]:
    """The case's lines with the file and line number each comes from, `@include`s spliced in."""
    if depth > _INCLUDE_DEPTH:
        raise CaseFormatError(f"{path}: included more than {_INCLUDE_DEPTH} deep (an include loop?)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseFormatError(f"{path}: cannot read it ({error})") from None
    found: list[tuple[Path, int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        directive, _, rest = raw.strip().partition(" ")
        if directive == "@include":
            if not rest.strip():
                raise CaseFormatError(f"{path}:{number}: @include needs a file")
            included = _find(path, rest.strip())
            if not included.is_file():
                raise CaseFormatError(f"{path}:{number}: @include {rest.strip()}: no such file")
            found.extend(_lines(included, depth + 1))
        else:
            found.append((path, number, raw))
    return found


def _patch(path: Path, number: int, lines: list[str]) -> dict[str, Any]:
    """A `@scenario-patch` block: TOML, merged into the scenario (`datafile.merged`)."""
    try:
        return tomllib.loads("\n".join(lines))
    except tomllib.TOMLDecodeError as error:
        raise CaseFormatError(f"{path}:{number}: @scenario-patch is not TOML ({error})") from None


def parse_case(path: Path) -> Case:
    case = Case(path=path, name=path.stem)
    orders_of: str | None = None
    order_lines: list[str] = []
    setup: list[tuple[int, StateEdit]] | None = None
    patch: tuple[Path, int, list[str]] | None = None
    in_expect = False

    def flush() -> None:
        nonlocal orders_of, order_lines, setup, patch
        if orders_of is not None:
            case.actions.append(("orders", orders_of, "\n".join(order_lines)))
        if setup:
            case.actions.append(("setup", [n for n, _ in setup], [e for _, e in setup]))
        if patch is not None:
            case.scenario_patch.append(_patch(*patch))
        orders_of, order_lines, setup, patch = None, [], None, None

    for source, number, raw in _lines(path):
        line = raw.strip()
        if not line.startswith("@"):
            if orders_of is not None:
                order_lines.append(raw)
            elif patch is not None:
                patch[2].append(raw)
            elif not line or line.startswith("#"):
                continue
            elif setup is not None:
                setup.append((number, _setup_line(source, number, line)))
            elif in_expect:
                case.expects.append((f"{source}:{number}", line))
            else:
                raise CaseFormatError(f"{source}:{number}: a line outside any block: {line!r}")
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
            case.scenario = _find(source, rest)
        elif directive == "players":
            case.players = rest.split()
        elif directive == "option":
            key, sep, value = rest.partition("=")
            if not sep:
                raise CaseFormatError(f"{source}:{number}: @option needs name=value")
            case.options[key.strip()] = _value(value)
        elif directive == "dice":
            words = rest.split()
            if len(words) < 2 or not all(w.isdigit() for w in words[1:]):
                raise CaseFormatError(f"{source}:{number}: @dice needs a purpose and die results")
            case.actions.append(("dice", words[0], [int(w) for w in words[1:]]))
        elif directive == "orders":
            if not rest:
                raise CaseFormatError(f"{source}:{number}: @orders needs a player")
            orders_of = rest
        elif directive == "setup":
            setup = []
        elif directive == "start":
            if not _BARE_WORD.match(rest):
                raise CaseFormatError(f"{source}:{number}: @start needs the name of a phase")
            case.actions.append(("setup", [number], [StateEdit("phase", "=", rest)]))
        elif directive == "scenario-patch":
            if rest:
                raise CaseFormatError(f"{source}:{number}: @scenario-patch takes nothing after it")
            patch = (source, number, [])
        elif directive == "deadline":
            if rest:
                raise CaseFormatError(f"{source}:{number}: @deadline takes nothing after it")
            case.actions.append(("deadline", None, None))
        elif directive == "expect":
            in_expect = True
        else:
            raise CaseFormatError(f"{source}:{number}: unknown directive @{directive}")
    flush()
    missing = [d for d, v in (("@ruleset", case.ruleset), ("@scenario", case.scenario),
                              ("@players", case.players), ("@expect", case.expects)) if not v]
    if missing:
        raise CaseFormatError(f"{path}: missing {', '.join(missing)}")
    return case


class _CaseClock:
    """A case's time: it stands still, so nothing passes a deadline, until `@deadline`
    moves it on past every deadline and grace of the step waiting."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def pass_deadline(self) -> datetime:
        self.now += timedelta(days=365)
        return self.now


class _Play:
    """A case being played: the service, and the receipts of each player's order sets, in order."""

    def __init__(self, case: Case):
        self.case = case
        self.clock = _CaseClock()
        self.service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                                       clock=self.clock)
        self.receipts: dict[str, list[Receipt]] = {}

    def run(self) -> CampaignProjection:
        scenario = load_data_file(self.case.scenario)
        for patch in self.case.scenario_patch:
            scenario = merged(scenario, patch)
        players = [PlayerSpec(id=p, address=f"{p}@cases.invalid", token=p) for p in self.case.players]
        self.service.create(_CAMPAIGN, self.case.ruleset, scenario, players, options=self.case.options,
                            secret=bytes(32))
        for kind, who, what in self.case.actions:
            if kind == "dice":
                self.service.force_dice(_CAMPAIGN, who, what, f"case {self.case.name}")
            elif kind == "setup":
                self.set_up(who, what)
            elif kind == "deadline":
                self.service.tick(self.clock.pass_deadline())
            else:
                self.receipts.setdefault(who, []).append(self.service.submit(_CAMPAIGN, who, what).receipt)
        return self.service.projection(_CAMPAIGN)

    def set_up(self, numbers: list[int], edits: list[StateEdit]) -> None:
        """Record a set-up block as one fact; a line the state refuses is a format error naming it."""
        projection = self.service.live(_CAMPAIGN)
        state = projection.state()
        for number, edit in zip(numbers, edits, strict=True):
            try:
                state = apply_edits(projection.ruleset, state, [edit])
            except StateEditError as error:
                raise CaseFormatError(f"{self.case.path}:{number}: @setup {error}") from None
        self.service.set_state(_CAMPAIGN, edits, f"set-up of case {self.case.name}")

    def replayed(self, projection: CampaignProjection) -> str | None:
        """None if replaying the whole log (as `pbem verify` does) reaches the same state with
        dice of declared purposes only, else why not."""
        again = self.service.loader.load(_CAMPAIGN, use_snapshots=False)
        if again.divergences:
            first = again.divergences[0]
            return f"replaying the log diverges at step {first.step}: {first.reason}"
        undeclared = _undeclared_rolls(again)
        if undeclared:
            return ("the ruleset's dice_purposes do not declare these rolls (a GM could not force them): "
                    + ", ".join(undeclared))
        encode = projection.ruleset.encode_state
        if encode(again.current()[1]) != encode(projection.current()[1]):
            return "replaying the log gives another state than playing it"
        return None

    def check(self, projection: CampaignProjection, line: str) -> str | None:
        """None if the expectation holds, else what was found."""
        try:
            words = shlex.split(line)
        except ValueError as error:
            raise CaseFormatError(f"cannot read expectation {line!r}: {error}") from None
        head = words[0]
        if head == "pending" and len(words) == 3:
            kinds = [r.kind for r in projection.pending_for(words[1])]
            return None if words[2] in kinds else f"{words[1]} owes {kinds or 'nothing'}"
        if head == "not-pending" and len(words) == 2:
            kinds = [r.kind for r in projection.pending_for(words[1])]
            return None if not kinds else f"{words[1]} owes {kinds}"
        if head in ("rejected", "accepted") and len(words) in (2, 3):
            return self._receipt(words)
        if head == "verdict" and 4 <= len(words) <= 5:
            return self._verdict(words)
        if head == "queued" and len(words) == 3 and words[2].isdigit():
            waiting = [b.id for b in projection.data.queued if b.player == words[1]]
            return None if len(waiting) == int(words[2]) else f"{words[1]} has {waiting or 'nothing'} queued"
        if head == "queue" and 4 <= len(words) <= 5 and words[3] in ("used", "dropped"):
            return self._queue(words)
        if head in ("chronicle", "not-chronicle") and len(words) == 2:
            lines = [c.text for c in projection.chronicle("gm") if words[1].lower() in c.text.lower()]
            if head == "chronicle":
                return None if lines else "no chronicle line has it"
            return None if not lines else f"a chronicle line has it: {lines[0]!r}"
        namespace = dict(projection.view("gm"))
        namespace.update(step=projection.step, finished=projection.finished)
        if line.startswith(("state.", "len(state.")):
            namespace["state"] = json.loads(projection.ruleset.encode_state(projection.current()[1]))
        match = _LEN.match(line)
        if match:
            found = lookup(namespace, match["path"])
            if not isinstance(found, (list, dict, str)):
                return f"{match['path']} is {json.dumps(found)}, which has no length"
            return None if len(found) == int(match["value"]) else f"length is {len(found)}"
        match = _EXPECT.match(line)
        if not match:
            raise CaseFormatError(f"cannot read expectation {line!r}")
        found = lookup(namespace, match["path"])
        expected = _value(match["value"])
        try:
            holds = {
                "=": lambda: found == expected,
                "!=": lambda: found != expected,
                "contains": lambda: expected in found,
                "has": lambda: _has(found, expected),
                ">=": lambda: found >= expected,
                "<=": lambda: found <= expected,
            }[match["op"]]()
        except TypeError:
            return f"found {json.dumps(found)}, which cannot be compared with {match['op']} {json.dumps(expected)}"
        return None if holds else f"found {json.dumps(found)}"

    def _queue(self, words: list[str]) -> str | None:
        """`queue PLAYER ID used [ALTERNATIVE]` / `queue PLAYER ID dropped ["TEXT"]`: what became of a
        queued block (alternatives count from 1)."""
        player, queue_id, outcome = words[1], words[2].upper(), words[3]
        for fact in self.service.loader.campaign_events(_CAMPAIGN):
            if getattr(fact, "player", None) != player or getattr(fact, "queue_id", None) != queue_id:
                continue
            if isinstance(fact, Campaign.QueuedOrdersUsed):
                if outcome == "dropped":
                    return f"{queue_id} was used at {fact.step}"
                wanted = int(words[4]) if len(words) == 5 else fact.alternative + 1
                return None if fact.alternative + 1 == wanted else f"alternative {fact.alternative + 1} was used"
            if isinstance(fact, Campaign.QueuedOrdersDropped):
                if outcome == "used":
                    return f"{queue_id} was dropped at {fact.step}: {fact.reason}"
                wanted = words[4].lower() if len(words) == 5 else ""
                return None if wanted in fact.reason.lower() else f"dropped: {fact.reason}"
        return f"{queue_id} of {player} was neither used nor dropped"

    def _order_set(self, who: str) -> Receipt | str:
        """The receipt of `PLAYER` (their last order set) or `PLAYER#N` (their N-th, from 1);
        a text when there is none."""
        player, _, ordinal = who.partition("#")
        sent = self.receipts.get(player, [])
        if ordinal and not ordinal.isdigit():
            raise CaseFormatError(f"{who!r}: an order set is PLAYER or PLAYER#N (N counting from 1)")
        index = int(ordinal) - 1 if ordinal else len(sent) - 1
        if not sent:
            return f"{player} sent no orders"
        if not 0 <= index < len(sent):
            return f"{player} sent {len(sent)} order set(s), so there is no {who}"
        return sent[index]

    def _receipt(self, words: list[str]) -> str | None:
        """`accepted PLAYER[#N]` / `rejected PLAYER[#N] "TEXT"`: an order set as a whole."""
        receipt = self._order_set(words[1])
        if isinstance(receipt, str):
            return receipt
        reasons = [receipt.reason] + [v.reason for v in receipt.verdicts if not v.accepted]
        refused = not receipt.accepted or any(not v.accepted for v in receipt.verdicts)
        if words[0] == "accepted":
            return None if not refused else f"refused: {[r for r in reasons if r]}"
        wanted = words[2].lower() if len(words) == 3 else ""
        if refused and any(wanted in r.lower() for r in reasons if r):
            return None
        return f"accepted={receipt.accepted}, reasons {[r for r in reasons if r]}"

    def _verdict(self, words: list[str]) -> str | None:
        """`verdict PLAYER[#N] LINE accepted` / `verdict PLAYER[#N] LINE refused ["TEXT"]`: how
        one line of an order set was read; LINE is its number in the order set, or a text the
        line contains."""
        _, player, which, how, *wanted = words
        if how not in ("accepted", "refused") or (wanted and how == "accepted"):
            raise CaseFormatError(f"a verdict is `verdict PLAYER LINE accepted` or `... refused \"TEXT\"`, "
                                  f"not {' '.join(words)!r}")
        receipt = self._order_set(player)
        if isinstance(receipt, str):
            return receipt
        verdict = next((v for v in receipt.verdicts if (str(v.number) == which if which.isdigit()
                                                         else which.lower() in v.text.lower())), None)
        if verdict is None:
            lines = [f"{v.number}: {v.text}" for v in receipt.verdicts]
            return f"no verdict for line {which!r} (verdicts for {lines})"
        # The line's own verdict: in a script refused whole, the lines read well are still "accepted".
        if how == "accepted":
            return None if verdict.accepted else f"refused: {verdict.reason!r}"
        if verdict.accepted:
            return f"accepted as {verdict.understood!r}"
        if wanted and wanted[0].lower() not in verdict.reason.lower():
            return f"refused with {verdict.reason!r}"
        return None


def _undeclared_rolls(projection: CampaignProjection) -> list[str]:
    """The rolls of a played log whose purpose, or die, the ruleset does not declare."""
    purposes = projection.ruleset.dice_purposes
    current = projection.current()[0]
    rolls = [r for step in projection.resolved for r in step.result.rolls] + list(current.rolls if current else ())
    found: list[str] = []
    for roll in rolls:
        declared = declared_purpose(purposes, roll.purpose)
        if declared is None or declared.sides not in (None, roll.sides):
            text = f"{roll.purpose} (d{roll.sides})"
            if text not in found:
                found.append(text)
    return found


def _has(found: Any, wanted: Any) -> bool:
    """A subset match: a mapping has every key wanted with a value that has what is wanted of
    it, a list has each wanted entry matched by a distinct entry of its own (in order), and
    anything else is equal; so a field added later breaks no expectation."""
    if isinstance(wanted, dict):
        return isinstance(found, dict) and all(key in found and _has(found[key], value)
                                               for key, value in wanted.items())
    if isinstance(wanted, list):
        if not isinstance(found, list):
            return False
        entries = iter(found)
        return all(any(_has(entry, value) for entry in entries) for value in wanted)
    return found == wanted


def run_case(case: Case) -> CaseResult:
    play = _Play(case)
    try:
        projection = play.run()
    except CaseFormatError as error:
        return CaseResult(case, [str(error)])
    except Exception as error:  # a case must report, not crash the whole corpus
        return CaseResult(case, [f"the case could not be played: {type(error).__name__}: {error}"])
    failures = []
    for where, line in case.expects:
        try:
            problem = play.check(projection, line)
        except (PathError, CaseFormatError) as error:
            problem = str(error)
        if problem is not None:
            failures.append(f"{where}: expected {line} — {problem}")
    try:
        replayed = play.replayed(projection)
    except Exception as error:  # as above: a log that cannot be replayed is this case's failure
        replayed = f"the log could not be replayed: {type(error).__name__}: {error}"
    if replayed is not None:
        failures.append(f"{case.path}: {replayed}")
    return CaseResult(case, failures)


def case_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.case")) if path.is_dir() else [path])
    return found
