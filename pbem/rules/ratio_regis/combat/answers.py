"""The combat decisions: their kinds, the answer lines that read them, the ready-to-edit
default line of each request, and the check of an answer against its request.

One answer line per decision, keywords case-insensitive, unit ids as listed in the
request (matched without regard to case), several ids separated by commas or spaces:

    BF 3 | BF MIN | BF MAX | BF KEEP         battlefield
    COMMIT T1,T2,FORT [CONSCRIPT]            commit
    ADV T1,T2                                advantages (one die per listed modifier)
    CREATIVE T2 | CREATIVE NONE              creative
    PLUS1 T2 | PLUS1 NONE                    leader-plus
    CARD 17 | PASS                           combat-card
    LOSSES ELIM T2 DISP T3                   losses (DAMAGE is a synonym of DISP)
    VET T5 | VET NONE                        veteran
    CAPITULATE | HOLD                        capitulate
    PAYTAKE T4,T6 | PAYTAKE NO               pay-to-take
    SUPPORTER ENG                            supporter
    DROPMERCHANT YES | DROPMERCHANT NO       drop-merchant

Every kind also reads `<KEYWORD> AUTO`, which asks for the documented default (useful
as a standing policy: `POLICY losses DO LOSSES AUTO`).

`parse_answer(kind, line)` turns a line into a JSON-able value or raises
`AnswerError`; `check_answer(request, value)` checks a value against what the
request allows and returns it with ids spelled as the request spells them, or raises
`AnswerError` (an answer of nothing, PASS or NONE, is checked as `NONE`, since a
standing policy cannot answer None). `COMBAT_KINDS` declares the kinds to the core, which
reads answer lines, policies and order forms through them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refused
from pbem.core.engine import Request

AUTO = "auto"
NONE_WORDS = ("NONE", "NO", "PASS")
NONE = "none"  # a checked answer of "nothing" (PASS, NONE): never None, which a standing policy cannot give


class AnswerError(ValueError):
    """An answer line that cannot be read, or that its request does not allow."""


COMBAT_DECISION_KINDS: dict[str, str] = {
    "battlefield": "change the battlefield size where the rules let you (§13.1.3, §13.1.4): BF <n>|MIN|MAX|KEEP",
    "commit": "the units that fight, at most the battlefield, and a Q1 conscript if allowed (§13.1.5, §13.1.9): "
              "COMMIT T1,T2 [CONSCRIPT]",
    "advantages": "which die each advantage or disadvantage changes (§13.1.2): ADV <die>,<die>…",
    "creative": "the die your Creative leader raises by one category (§17.3.2): CREATIVE <die>|NONE",
    "leader-plus": "the die your Tactical, Admiral or Determined leader raises by 1 after the roll (§17.3.2): "
                   "PLUS1 <die>|NONE",
    "combat-card": "play a combat card now (§13.1.4, §8.2.2): CARD <number>|PASS",
    "losses": "which of your units are eliminated and which dispersed or damaged (§13.1.7): "
              "LOSSES ELIM <ids> DISP <ids>",
    "veteran": "the troop that becomes veteran (§13.3.8, §16.1): VET <troop>|NONE",
    "capitulate": "capitulate before the dice of a siege assault (§13.4.5): CAPITULATE|HOLD",
    "pay-to-take": "disperse 1 troop (draw) or 2 (loss) to take the area anyway (§13.5.4): PAYTAKE <ids>|NO",
    "supporter": "which of the fleets supporting your side fights the naval battle (§11.4.2): SUPPORTER <power>",
    "drop-merchant": "remove one of your merchants after losing to a pirate (§11.5.2): DROPMERCHANT YES|NO",
}


def _words(line: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", line.strip()) if w]


def _expect(words: list[str], keyword: str, kind: str) -> list[str]:
    if not words or words[0].upper() != keyword:
        raise AnswerError(f"a {kind} answer starts with {keyword}, e.g. {_EXAMPLES[kind]}")
    return words[1:]


def _one_id_or_none(kind: str, keyword: str) -> Callable[[list[str]], Any]:
    def parse(words: list[str]) -> str | None:
        rest = _expect(words, keyword, kind)
        if len(rest) != 1:
            raise AnswerError(f"{keyword} takes one die or unit id, or NONE, e.g. {_EXAMPLES[kind]}")
        return None if rest[0].upper() in NONE_WORDS else rest[0]
    return parse


def _yes_no(kind: str, keyword: str) -> Callable[[list[str]], Any]:
    def parse(words: list[str]) -> bool:
        rest = _expect(words, keyword, kind)
        if len(rest) != 1 or rest[0].upper() not in ("YES", "NO"):
            raise AnswerError(f"{keyword} takes YES or NO, e.g. {_EXAMPLES[kind]}")
        return rest[0].upper() == "YES"
    return parse


def _parse_battlefield(words: list[str]) -> int | str:
    rest = _expect(words, "BF", "battlefield")
    if len(rest) != 1:
        raise AnswerError("BF takes one size or MIN, MAX or KEEP, e.g. BF 3")
    word = rest[0].upper()
    if word in ("MIN", "MAX", "KEEP"):
        return word.lower()
    if not word.isdigit():
        raise AnswerError(f"BF takes a number of dice or MIN, MAX or KEEP, not {rest[0]!r}")
    return int(word)


def _parse_commit(words: list[str]) -> dict:
    rest = _expect(words, "COMMIT", "commit")
    conscript = any(w.upper() == "CONSCRIPT" for w in rest)
    units = [w for w in rest if w.upper() != "CONSCRIPT"]
    if not units and not conscript:
        raise AnswerError("COMMIT names the units that fight, e.g. COMMIT T1,T2 CONSCRIPT")
    return {"units": units, "conscript": conscript}


def _parse_advantages(words: list[str]) -> list[str]:
    rest = _expect(words, "ADV", "advantages")
    if not rest:
        raise AnswerError("ADV names one die for each advantage or disadvantage, in the order listed, e.g. ADV T1,T2")
    return rest


def _parse_card(words: list[str]) -> int | None:
    if len(words) == 1 and words[0].upper() == "PASS":
        return None
    rest = _expect(words, "CARD", "combat-card")
    if len(rest) != 1 or not rest[0].isdigit():
        raise AnswerError("CARD takes the card's number, e.g. CARD 17, or answer PASS")
    return int(rest[0])


def _parse_losses(words: list[str]) -> dict:
    rest = _expect(words, "LOSSES", "losses")
    lists: dict[str, list[str]] = {"eliminate": [], "disperse": []}
    current = None
    for word in rest:
        upper = word.upper()
        if upper in ("ELIM", "ELIMINATE"):
            current = "eliminate"
        elif upper in ("DISP", "DISPERSE", "DAMAGE"):
            current = "disperse"
        elif current is None:
            raise AnswerError(f"in LOSSES, put ELIM or DISP before the unit ids ({word!r} comes first)")
        else:
            lists[current].append(word)
    return lists


def _parse_capitulate(words: list[str]) -> bool:
    if len(words) == 1 and words[0].upper() in ("CAPITULATE", "HOLD"):
        return words[0].upper() == "CAPITULATE"
    raise AnswerError("answer CAPITULATE or HOLD")


def _parse_pay_to_take(words: list[str]) -> list[str]:
    rest = _expect(words, "PAYTAKE", "pay-to-take")
    if not rest:
        raise AnswerError("PAYTAKE names the troops to disperse, or NO")
    if len(rest) == 1 and rest[0].upper() in NONE_WORDS:
        return []
    return rest


def _parse_supporter(words: list[str]) -> str:
    rest = _expect(words, "SUPPORTER", "supporter")
    if len(rest) != 1:
        raise AnswerError("SUPPORTER takes one power, e.g. SUPPORTER ENG")
    return rest[0]


@dataclass(frozen=True)
class _Grammar:
    keyword: str
    parse: Callable[[list[str]], Any]
    form: Callable[[Any], str]


def _ids(ids: Sequence[str]) -> str:
    return ",".join(ids)


def _commit_form(value: dict) -> str:
    return " ".join(["COMMIT", _ids(value["units"])] + (["CONSCRIPT"] if value["conscript"] else []))


def _losses_form(value: dict) -> str:
    parts = ["LOSSES"]
    if value["eliminate"]:
        parts += ["ELIM", _ids(value["eliminate"])]
    if value["disperse"]:
        parts += ["DISP", _ids(value["disperse"])]
    return " ".join(parts)


def _id_form(keyword: str) -> Callable[[Any], str]:
    return lambda value: f"{keyword} {value if value not in (None, NONE) else 'NONE'}"


def _yes_no_form(keyword: str) -> Callable[[Any], str]:
    return lambda value: f"{keyword} {'YES' if value else 'NO'}"


_GRAMMARS: dict[str, _Grammar] = {
    "battlefield": _Grammar("BF", _parse_battlefield, lambda v: f"BF {str(v).upper()}"),
    "commit": _Grammar("COMMIT", _parse_commit, _commit_form),
    "advantages": _Grammar("ADV", _parse_advantages, lambda v: f"ADV {_ids([d or 'NONE' for d in v])}"),
    "creative": _Grammar("CREATIVE", _one_id_or_none("creative", "CREATIVE"), _id_form("CREATIVE")),
    "leader-plus": _Grammar("PLUS1", _one_id_or_none("leader-plus", "PLUS1"), _id_form("PLUS1")),
    "combat-card": _Grammar("CARD", _parse_card, lambda v: "PASS" if v in (None, NONE) else f"CARD {v}"),
    "losses": _Grammar("LOSSES", _parse_losses, _losses_form),
    "veteran": _Grammar("VET", _one_id_or_none("veteran", "VET"), _id_form("VET")),
    "capitulate": _Grammar("CAPITULATE", _parse_capitulate, lambda v: "CAPITULATE" if v else "HOLD"),
    "pay-to-take": _Grammar("PAYTAKE", _parse_pay_to_take, lambda v: f"PAYTAKE {_ids(v) if v else 'NO'}"),
    "supporter": _Grammar("SUPPORTER", _parse_supporter, lambda v: f"SUPPORTER {v}"),
    "drop-merchant": _Grammar("DROPMERCHANT", _yes_no("drop-merchant", "DROPMERCHANT"), _yes_no_form("DROPMERCHANT")),
}

#: Answers written as one word other than the kind's keyword (the forms above write them so).
_BARE_WORDS = {"combat-card": ("PASS",), "capitulate": ("HOLD",)}

_EXAMPLES = {
    "battlefield": "BF 3", "commit": "COMMIT T1,T2 CONSCRIPT", "advantages": "ADV T1,T2", "creative": "CREATIVE T2",
    "leader-plus": "PLUS1 T2", "combat-card": "CARD 17", "losses": "LOSSES ELIM T2 DISP T3", "veteran": "VET T5",
    "capitulate": "CAPITULATE", "pay-to-take": "PAYTAKE T4", "supporter": "SUPPORTER ENG",
    "drop-merchant": "DROPMERCHANT NO",
}


def parse_answer(kind: str, line: str) -> Any:
    """The JSON-able answer a line gives to a decision of `kind`."""
    grammar = _GRAMMARS.get(kind)
    if grammar is None:
        raise AnswerError(f"unknown combat decision {kind!r} (known: {', '.join(COMBAT_DECISION_KINDS)})")
    words = _words(line)
    if len(words) == 2 and words[0].upper() == grammar.keyword and words[1].upper() == "AUTO":
        return AUTO
    return grammar.parse(words)


def format_answer(kind: str, value: Any) -> str:
    return _GRAMMARS[kind].form(value)


# -- checks against the request ------------------------------------------------------
def _match(name: str, allowed: Sequence[str], what: str) -> str:
    for candidate in allowed:
        if candidate.lower() == str(name).lower():
            return candidate
    raise AnswerError(f"{name} is not {what} (choose from {', '.join(allowed) or 'nothing'})")


def _distinct(ids: Sequence[str], what: str) -> None:
    if len({i.lower() for i in ids}) != len(ids):
        raise AnswerError(f"a unit is named twice among the {what}")


def _check_battlefield(ctx: dict, value: Any) -> int:
    sizes = ctx["sizes"]
    resolved = {"min": min(sizes), "max": max(sizes), "keep": ctx["current"]}.get(value, value)
    if resolved not in sizes:
        raise AnswerError(f"the battlefield may be {', '.join(map(str, sizes))} dice here, not {value}")
    return resolved


def _check_commit(ctx: dict, value: Any) -> dict:
    units = [_match(u, ctx["units"], "a unit of yours that may fight") for u in value["units"]]
    _distinct(units, "committed units")
    if value["conscript"] and not ctx["conscript"]:
        raise AnswerError("you may not raise a conscript here (§13.1.9)")
    if len(units) + int(value["conscript"]) > ctx["max"]:
        raise AnswerError(f"the battlefield is {ctx['max']}: at most {ctx['max']} dice, the conscript included")
    if not units:
        raise AnswerError("commit at least one unit (a conscript only joins other units)")
    return {"units": units, "conscript": bool(value["conscript"])}


def _check_advantages(ctx: dict, value: Any) -> list[str]:
    modifiers, categories = ctx["modifiers"], dict(ctx["dice"])
    if len(value) != len(modifiers):
        raise AnswerError(f"name {len(modifiers)} dice, one for each of: {'; '.join(modifiers)}")
    chosen: list[str | None] = []
    for name, text in zip(value, modifiers, strict=True):
        step = 1 if text.startswith("+") else -1
        if not any(1 <= c + step <= 4 for c in categories.values()):
            chosen.append(None)  # no die can take it: ignored (§13.1.2)
            continue
        if str(name).upper() in NONE_WORDS:
            raise AnswerError(f"{text} must be applied to a die (§13.1.2)")
        die = _match(name, list(categories), "one of your dice")
        if not 1 <= categories[die] + step <= 4:
            raise AnswerError(f"{die} is already Q{categories[die]}: {text} must go on another die")
        categories[die] += step
        chosen.append(die)
    return chosen


def _check_die_below(limit: int, what: str) -> Callable[[dict, Any], Any]:
    def check(ctx: dict, value: Any) -> str | None:
        if value is None:
            return None
        allowed = [d for d, v in ctx["dice"].items() if v < limit]
        return _match(value, allowed, what)
    return check


def _check_card(ctx: dict, value: Any) -> int | None:
    if value is not None and value not in ctx["cards"]:
        raise AnswerError(f"card {value} cannot be played here (playable: {', '.join(map(str, ctx['cards']))})")
    return value


def _check_losses(ctx: dict, value: Any) -> dict:
    eliminate = [_match(u, ctx["may_eliminate"], "a unit that may be eliminated") for u in value["eliminate"]]
    disperse = [_match(u, ctx["may_disperse"], "a unit that may be dispersed") for u in value["disperse"]]
    _distinct(eliminate + disperse, "losses")
    if len(eliminate) != ctx["eliminate"] or len(disperse) != ctx["disperse"]:
        raise AnswerError(f"name exactly {ctx['eliminate']} to eliminate and {ctx['disperse']} to disperse")
    fortresses = [u for u in eliminate if u in ctx["fortresses"]]
    troops_left = [u for u in ctx["may_eliminate"] if u not in ctx["fortresses"] and u not in eliminate]
    if fortresses and troops_left:
        raise AnswerError("a fortress is eliminated only when no troops that fought are left (§13.1.7)")
    return {"eliminate": eliminate, "disperse": disperse}


def _check_ids_from(key: str, what: str) -> Callable[[dict, Any], Any]:
    def check(ctx: dict, value: Any) -> str | None:
        return None if value is None else _match(value, ctx[key], what)
    return check


def _check_pay(ctx: dict, value: Any) -> list[str]:
    troops = [_match(u, ctx["troops"], "a troop of yours in the area") for u in value]
    _distinct(troops, "troops paid")
    if troops and len(troops) != ctx["price"]:
        raise AnswerError(f"taking the area costs exactly {ctx['price']} troops, or answer PAYTAKE NO")
    return troops


_CHECKS: dict[str, Callable[[dict, Any], Any]] = {
    "battlefield": _check_battlefield,
    "commit": _check_commit,
    "advantages": _check_advantages,
    "creative": _check_die_below(4, "one of your dice below Q4"),
    "leader-plus": _check_die_below(6, "one of your dice below 6"),
    "combat-card": _check_card,
    "losses": _check_losses,
    "veteran": _check_ids_from("troops", "a troop of yours that fought and may become veteran"),
    "capitulate": lambda ctx, value: bool(value),
    "pay-to-take": _check_pay,
    "supporter": _check_ids_from("powers", "a power supporting your side"),
    "drop-merchant": lambda ctx, value: bool(value),
}


def check_answer(request: Request, value: Any) -> Any:
    """`value` as the request allows it (ids spelled as listed, MIN/MAX/KEEP and AUTO
    resolved), or `AnswerError` saying why not."""
    if value == AUTO:
        return NONE if request.default is None else request.default
    try:
        checked = _CHECKS[request.kind](dict(request.context), None if value == NONE else value)
    except (KeyError, TypeError) as error:
        raise AnswerError(f"this answer does not fit a {request.kind} decision ({error})") from None
    return NONE if checked is None else checked


@dataclass(frozen=True)
class CombatKind(DecisionKind):
    """A combat decision as the core reads it: one answer line of its keyword, checked
    against the request; `<KEYWORD> AUTO` takes the default."""

    name: str
    description: str

    @property
    def keywords(self) -> tuple[str, ...]:  # type: ignore[override]
        """Its keyword, and the bare words some answers are (PASS, HOLD)."""
        return (_GRAMMARS[self.name].keyword, *_BARE_WORDS.get(self.name, ()))

    @property
    def defers(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.keywords  # a combat answer is read only while its request is owed

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        request = next((r for r in owed if r.kind == self.name), None)
        if request is None:
            return None
        try:
            value = parse_answer(self.name, text)
        except AnswerError as error:
            keyword = format_answer(self.name, request.default).split()[0]
            return Refused(str(error)) if text.split()[0].upper() == keyword else None
        try:
            checked = check_answer(request, value)
        except AnswerError as error:
            return Refused(str(error))
        return Answered(request, checked, f"{self.name}: {format_answer(self.name, checked)}")

    def answer_policy(self, text: str, request: Request) -> Any | None:
        try:
            return check_answer(request, parse_answer(self.name, text))
        except AnswerError:
            return None

    def check_policy(self, text: str) -> str:
        try:
            parse_answer(self.name, text)
        except AnswerError as error:
            return f"the answer cannot be read: {error}"
        return ""

    def order_form(self, request: Request) -> str:
        return format_answer(self.name, request.default)


COMBAT_KINDS = tuple(CombatKind(name, description) for name, description in COMBAT_DECISION_KINDS.items())
