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
    PRESS TO <power|ALL>
    … free text …
    ENDPRESS
    SIGNOFF

Keywords are case-insensitive; blank lines and `#` comments are ignored; nothing after
SIGNOFF is read. The game's own grammar reads the order lines.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_CONDITION = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*(<=|>=|!=|==|=|<|>)\s*(\S+)\s*$")


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
    problems: list[tuple[int, str, str]] = field(default_factory=list)  # (line, text, reason)


def split_orders(text: str) -> OrderText:
    """Split a body into signon, order lines, policies and press."""
    result = OrderText()
    press_to: str | None = None
    press_lines: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if press_to is not None:
            if line.upper() == "ENDPRESS":
                result.press.append(Press(press_to, "\n".join(press_lines).strip()))
                press_to, press_lines = None, []
            else:
                press_lines.append(raw.rstrip())
            continue
        if not line or line.startswith("#"):
            continue
        words = line.split()
        keyword = words[0].upper()
        if keyword == "SIGNOFF":
            break
        if keyword == "SIGNON":
            if len(words) != 4:
                result.signon_error = "SIGNON needs three words: SIGNON <player> <campaign> <token>"
            elif result.signon is None:
                result.signon = Signon(words[1], words[2], words[3])
            continue
        if keyword == "POLICY":
            result.policies.append(parse_policy(number, line))
            continue
        if keyword == "PRESS":
            if len(words) >= 3 and words[1].upper() == "TO":
                press_to = " ".join(words[2:])
            else:
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
    return result


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
        conditions.append((match.group(1).lower(), match.group(2), match.group(3)))
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
