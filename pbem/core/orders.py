"""The shared order envelope (DESIGN §6) and helpful name matching.

Every game's orders travel inside the same envelope:

    SIGNON <player> <campaign> <token>
    <order lines of the game>
    READY                                   (done for this step: process early)
    ABSENT <from> <to>                      (ISO dates: deadlines wait for you)
    EXPLAIN <step>                          (ask how a step was resolved)
    GM <verb> …                             (the GM's commands, from the GM only)
    POLICY [FOR <power>] <KIND> [WHEN <field><op><value> [AND …]] DO <answer>
    POLICY CLEAR <id|ALL>
    IF <KIND> [WHEN <field><op><value> [AND …]] THEN <answer>   (a conditional line: this step only)
    FOR <power>                             (the order lines after it serve that power's requests)
    PRESS TO <power|ALL>
    … free text …
    ENDPRESS
    SIGNOFF

Keywords are case-insensitive; blank lines and `#` comments are ignored. In a mail, only
the lines of a SIGNON…SIGNOFF block are orders: a greeting above SIGNON or a signature below
SIGNOFF is not read (the receipt says so once), and a mail may carry several blocks (a player
holding two seats, a co-player's orders pasted in), each read and answered on its own
(`signon_blocks`). Text with no SIGNON at all is an order set already authenticated (the GM's
tools, tests) and is read whole. The game's own grammar reads the order lines.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

ENVELOPE_KEYWORDS = ("SIGNON", "SIGNOFF", "READY", "ABSENT", "EXPLAIN", "GM", "POLICY", "PRESS", "ENDPRESS",
                     "QUEUE", "ENDQUEUE")
_CONDITION = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*(<=|>=|!=|==|=|<|>|\s(?i:HAS)\s)\s*(\S+)\s*$")


class EnvelopeError(Exception):
    """An envelope line that cannot be read (the message says why)."""


@dataclass(frozen=True)
class Signon:
    player: str
    campaign: str
    token: str


@dataclass(frozen=True)
class PolicyLine:
    number: int
    text: str
    kind: str = ""
    power: str | None = None
    conditions: tuple[tuple[str, str, str], ...] = ()
    answer_text: str = ""
    clear: str | None = None  # a policy id, or "ALL"
    error: str = ""


class Alternative(msgspec.Struct, frozen=True):
    """One alternative of a block: its conditions (all must hold; none: always) and lines."""

    conditions: list[tuple[str, str, str]] = []
    lines: list[tuple[int, str]] = []

    def describe(self) -> str:
        if not self.conditions:
            return "always"
        return " AND ".join(f"{name}{op if op != 'HAS' else ' HAS '}{value}" for name, op, value in self.conditions)



@dataclass
class QueueLine:
    """A `QUEUE … ENDQUEUE` block as read from a mail, before it is checked."""

    number: int
    text: str
    kind: str = ""
    power: str | None = None
    turn: int | None = None
    replace: str | None = None
    clear: str | None = None
    alternatives: list[Alternative] = field(default_factory=list)
    error: str = ""


def read_header(number: int, line: str) -> QueueLine:
    """`QUEUE [FOR <power>] <kind> [TURN <n>] [REPLACE <id>]` or `QUEUE CLEAR <id|ALL>`."""
    words = line.split()[1:]
    queued = QueueLine(number, line)
    if len(words) == 2 and words[0].upper() == "CLEAR":
        queued.clear = words[1].upper()
        return queued
    if len(words) >= 2 and words[0].upper() == "FOR":
        queued.power, words = words[1].upper(), words[2:]
    if not words:
        queued.error = "a queued block needs the kind of decision it answers: QUEUE FOR <power> <kind>"
        return queued
    queued.kind, words = words[0].lower(), words[1:]
    while words:
        if len(words) >= 2 and words[0].upper() == "TURN" and words[1].isdigit():
            queued.turn, words = int(words[1]), words[2:]
        elif len(words) >= 2 and words[0].upper() == "REPLACE":
            queued.replace, words = words[1].upper(), words[2:]
        else:
            queued.error = f"expected TURN <n> or REPLACE <id> after the kind, found {words[0]!r}"
            return queued
    return queued


@dataclass(frozen=True)
class Press:
    to: str
    text: str


@dataclass
class OrderText:
    """A mail body split into the envelope's parts."""

    signon: Signon | None = None
    signon_error: str = ""
    orders: list[tuple[int, str]] = field(default_factory=list)
    policies: list[PolicyLine] = field(default_factory=list)
    press: list[Press] = field(default_factory=list)
    ready: bool = False
    absences: list[tuple[int, str, str]] = field(default_factory=list)  # (line, from, to)
    explain: list[tuple[int, str]] = field(default_factory=list)
    gm: list[tuple[int, str]] = field(default_factory=list)
    queued: list[QueueLine] = field(default_factory=list)
    problems: list[tuple[int, str, str]] = field(default_factory=list)  # (line, text, reason)


@dataclass(frozen=True)
class Block:
    """One SIGNON…SIGNOFF block of a mail: its text and the mail line it starts on."""

    first_line: int
    text: str


def _keyword(line: str) -> str:
    words = line.split(maxsplit=1)
    return words[0].upper() if words else ""


def press_recipient(line: str) -> str | None:
    """The recipient when `line` opens a press message (`PRESS TO <power|ALL>`), else None.
    One rule for the reply stripper, the SIGNON blocks and the order reader, so none of them
    reads a letter's lines as orders, or orders as a letter, where another would not."""
    words = line.split()
    if len(words) >= 3 and words[0].upper() == "PRESS" and words[1].upper() == "TO":
        return " ".join(words[2:])
    return None


def press_closes(line: str) -> bool:
    """Whether `line` ends a press message: `ENDPRESS` alone on its line."""
    return line.strip().upper() == "ENDPRESS"


def _envelope_lines(text: str) -> list[tuple[int, str, str]]:
    """(number, line, keyword) for each line; inside PRESS…ENDPRESS the keyword is "" (free text),
    so a SIGNOFF or SIGNON written in a letter is part of the letter."""
    out: list[tuple[int, str, str]] = []
    in_press = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if in_press:
            in_press = not press_closes(raw)
            out.append((number, raw, "" if in_press else "ENDPRESS"))
            continue
        in_press = press_recipient(raw) is not None
        out.append((number, raw, _keyword(raw)))
    return out


def signon_blocks(text: str) -> list[Block]:
    """The SIGNON…SIGNOFF blocks of a mail body, in order (a block ends at SIGNOFF, at the
    next SIGNON or at the end). Text without any SIGNON is one block, read whole."""
    blocks: list[Block] = []
    current: list[str] | None = None
    start = 1
    for number, raw, keyword in _envelope_lines(text):
        if keyword == "SIGNON":
            if current is not None:
                blocks.append(Block(start, "\n".join(current)))
            current, start = [raw], number
        elif current is not None:
            current.append(raw)
            if keyword == "SIGNOFF":
                blocks.append(Block(start, "\n".join(current)))
                current = None
    if current is not None:
        blocks.append(Block(start, "\n".join(current)))
    return blocks or [Block(1, text)]


def outside_lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of a mail body outside every SIGNON…SIGNOFF block."""
    lines = _envelope_lines(text)
    if not any(keyword == "SIGNON" for _, _, keyword in lines):
        return []
    out: list[tuple[int, str]] = []
    inside = False
    for number, raw, keyword in lines:
        if keyword == "SIGNON":
            inside = True
        elif not inside and raw.strip():
            out.append((number, raw.strip()))
        elif keyword == "SIGNOFF":
            inside = False
    return out


def outside_problem(text: str) -> tuple[int, str, str] | None:
    """The one receipt line saying how many lines of the mail were not read as orders."""
    lines = outside_lines(text)
    if not lines:
        return None
    count = len(lines)
    return (lines[0][0], f"({count} line{'s' if count > 1 else ''} outside SIGNON…SIGNOFF)",
            "not read as orders: only the lines between SIGNON and SIGNOFF are orders")


def split_orders(text: str, *, first_line: int = 1) -> OrderText:
    """Split one block into signon, order lines, policies and press: its first SIGNON block
    when it has one (lines outside it only counted), else the whole text. Line numbers
    count from `first_line` (the block's place in the mail)."""
    result = OrderText()
    queue: QueueLine | None = None
    press_to: str | None = None
    press_lines: list[str] = []
    lines = _envelope_lines(text)
    before_signon = any(keyword == "SIGNON" for _, _, keyword in lines)
    outside = outside_problem(text)
    if outside:
        result.problems.append((outside[0] + first_line - 1, *outside[1:]))
    for number, raw, keyword in lines:
        number += first_line - 1
        line = raw.strip()
        if before_signon:
            before_signon = keyword != "SIGNON"
            if before_signon:
                continue
        if press_to is not None:
            if press_closes(line):
                result.press.append(Press(press_to, "\n".join(press_lines).strip()))
                press_to, press_lines = None, []
            else:
                press_lines.append(raw.rstrip())
            continue
        if queue is not None:
            if keyword == "ENDQUEUE":
                result.queued.append(queue)
                queue = None
            elif line and not line.startswith("#"):
                _queue_line(queue, number, line)
            continue
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if keyword == "QUEUE":
            header = read_header(number, line)
            if header.clear or header.error:
                result.queued.append(header)
            else:
                queue = header
                queue.alternatives.append(Alternative())
            continue
        if keyword == "ENDQUEUE":
            result.problems.append((number, line, "ENDQUEUE without QUEUE"))
            continue
        if keyword == "SIGNOFF" or (keyword == "SIGNON" and (result.signon or result.signon_error)):
            break  # the next block is read on its own (`signon_blocks`)
        if keyword == "SIGNON":
            if len(words) != 4:
                result.signon_error = "SIGNON needs three words: SIGNON <player> <campaign> <token>"
            else:
                result.signon = Signon(words[1], words[2], words[3])
            continue
        if keyword == "POLICY":
            result.policies.append(parse_policy(number, line))
            continue
        if keyword == "PRESS":
            press_to = press_recipient(line)
            if press_to is None:
                result.problems.append((number, line, "PRESS needs a recipient: PRESS TO <power|ALL>"))
            continue
        if keyword == "READY" and len(words) == 1:
            result.ready = True
            continue
        if keyword == "ABSENT":
            if len(words) == 3:
                result.absences.append((number, words[1], words[2]))
            else:
                result.problems.append((number, line, "ABSENT needs two dates: ABSENT 2027-07-01 2027-07-15"))
            continue
        if keyword == "EXPLAIN":
            if len(words) == 2:
                result.explain.append((number, words[1]))
            else:
                result.problems.append((number, line, "EXPLAIN needs the step, as the report names it"))
            continue
        if keyword == "GM":
            result.gm.append((number, line))
            continue
        if keyword == "ENDPRESS":
            result.problems.append((number, line, "ENDPRESS without PRESS"))
            continue
        result.orders.append((number, line))
    if press_to is not None:
        result.problems.append((0, f"PRESS TO {press_to}", "PRESS without ENDPRESS: the message was not sent"))
    if queue is not None:
        result.problems.append((queue.number, queue.text, "QUEUE without ENDQUEUE: the block was not queued"))
    return result


def _queue_line(queue: QueueLine, number: int, line: str) -> None:
    """One line inside `QUEUE … ENDQUEUE`: `ELSE [WHEN …]` starts an alternative, `WHEN …`
    guards the alternative it starts, anything else is an order line of it."""
    words = line.split(maxsplit=1)
    first = words[0].upper()
    if first == "ELSE":
        rest = words[1] if len(words) > 1 else ""
        queue.alternatives.append(Alternative())
        if not rest:
            return
        if not rest.upper().startswith("WHEN "):
            queue.error = queue.error or f"line {number}: write ELSE alone or ELSE WHEN <conditions>"
            return
        line, first = rest, "WHEN"
        words = line.split(maxsplit=1)
    current = queue.alternatives[-1]
    if first == "WHEN":
        conditions, error = parse_conditions(words[1] if len(words) > 1 else "")
        if error or not conditions or current.conditions or current.lines:
            queue.error = queue.error or (f"line {number}: " + (error or "WHEN comes once, first in its alternative, "
                                                                  "with at least one condition"))
            return
        queue.alternatives[-1] = msgspec.structs.replace(current, conditions=list(conditions))
        return
    queue.alternatives[-1] = msgspec.structs.replace(current, lines=[*current.lines, (number, line)])


def with_json_orders(json_text: str, mail_text: str) -> str:
    """The order text of a mail with a JSON attachment: the attachment's lines are the
    orders, and the mail's text gives only the SIGNON the attachment lacks (anything else
    it says, a signature, a quoted report, is not read as more orders)."""
    if any(keyword == "SIGNON" for _, _, keyword in _envelope_lines(json_text)):
        return json_text
    signon = next((raw.strip() for _, raw, keyword in _envelope_lines(mail_text) if keyword == "SIGNON"), None)
    return json_text if signon is None else f"{signon}\n{json_text}\nSIGNOFF"


def parse_policy(number: int, line: str) -> PolicyLine:
    """`POLICY [FOR <power>] <KIND> [WHEN c [AND c …]] DO <answer>` or `POLICY CLEAR <id|ALL>`."""
    words = line.split()
    if len(words) >= 3 and words[1].upper() == "CLEAR":
        return PolicyLine(number, line, clear=words[2].upper())
    head, sep, answer = _split_keyword(line, "DO")
    if not sep or not answer.strip():
        return PolicyLine(number, line, error="a policy needs DO <answer>, e.g. POLICY BID DO BID 0")
    head_words = head.split()[1:]
    power = None
    if len(head_words) >= 2 and head_words[0].upper() == "FOR":
        power = head_words[1].upper()
        head_words = head_words[2:]
    if not head_words:
        return PolicyLine(number, line, error="a policy needs the kind of decision it answers")
    kind = head_words[0].lower()
    rest = " ".join(head_words[1:])
    conditions: tuple[tuple[str, str, str], ...] = ()
    if rest:
        if not rest.upper().startswith("WHEN "):
            return PolicyLine(number, line, error=f"expected WHEN or DO after {head_words[0]}, found {rest.split()[0]!r}")
        conditions, error = parse_conditions(rest[5:])
        if error:
            return PolicyLine(number, line, error=error)
    return PolicyLine(number, line, kind=kind, power=power, conditions=conditions, answer_text=answer.strip())


def parse_conditions(text: str) -> tuple[tuple[tuple[str, str, str], ...], str]:
    """`<field><op><value> [AND …]` (what follows WHEN) as conditions, or why it cannot be read."""
    conditions: list[tuple[str, str, str]] = []
    for clause in re.split(r"\s+AND\s+", text, flags=re.IGNORECASE) if text.strip() else []:
        match = _CONDITION.match(clause)
        if not match:
            return (), f"cannot read condition {clause.strip()!r} (write e.g. area=Paris)"
        conditions.append((match.group(1).lower(), match.group(2).strip().upper(), match.group(3)))
    return tuple(conditions), ""


def _split_keyword(line: str, keyword: str) -> tuple[str, str, str]:
    match = re.search(rf"\s{keyword}\s", f"{line} ", flags=re.IGNORECASE)
    if not match:
        return line, "", ""
    return line[: match.start()], keyword, line[match.end():]


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest known name to a misspelt one ("Tolouse" -> "Toulouse"), if any is close."""
    pool = {c.lower(): c for c in candidates}
    match = difflib.get_close_matches(word.lower(), list(pool), n=1, cutoff=0.6)
    return pool[match[0]] if match else None


def unknown_name(kind: str, word: str, candidates: Iterable[str]) -> str:
    """A one-line message for an unknown name, with a suggestion when one is close."""
    hint = suggest(word, candidates)
    return f"unknown {kind} {word!r}" + (f"; did you mean {hint}?" if hint else "")


class JsonOrdersError(ValueError):
    """A JSON attachment that does not have the shape of an order set."""


def orders_from_json(data: object) -> str:
    """A JSON attachment as envelope text, for clients that generate orders:
    `["line", …]`, or `{"signon": "<player> <campaign> <token>" | {"player", "campaign",
    "token"}, "orders": ["line", …], "policies": ["POLICY …", …],
    "press": [{"to": "ALL", "text": "…"}]}`."""
    if isinstance(data, list):
        data = {"orders": data}
    if not isinstance(data, dict):
        raise JsonOrdersError("the JSON attachment must be a list of order lines or an object with \"orders\"")
    unknown = sorted(set(data) - {"signon", "orders", "policies", "press"})
    if unknown:
        raise JsonOrdersError(f"unknown key {unknown[0]!r} in the JSON attachment (known: signon, orders, policies, "
                              "press)")
    lines: list[str] = []
    signon = data.get("signon")
    if isinstance(signon, dict):
        signon = " ".join(str(signon.get(k, "")) for k in ("player", "campaign", "token"))
    if signon is not None:
        lines.append(f"SIGNON {signon}")
    for key in ("orders", "policies"):
        values = data.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise JsonOrdersError(f"\"{key}\" must be a list of lines (strings)")
        lines += [v.replace("\n", " ") for v in values]
    for press in data.get("press", []):
        if not isinstance(press, dict) or not isinstance(press.get("text"), str):
            raise JsonOrdersError("each press item is {\"to\": \"ALL\", \"text\": \"…\"}")
        lines += [f"PRESS TO {press.get('to', 'ALL')}", press["text"], "ENDPRESS"]
    return "\n".join(lines)
