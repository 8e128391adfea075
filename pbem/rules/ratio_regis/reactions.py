"""Decisions owed in another player's impulse (research §2.7, §3.5; DESIGN §4).

Every interrupt the movement and combat rules raise is a request to the player who runs
the reacting power, with the legal answers as `options`, a documented default, and
`context` fields a standing policy may test (`POLICY FOR FRA react WHEN area=Tours DO
EVADE TO Paris`), with what the answer is checked against as typed data (`eligible`, the
units a `UNITS` subset may name, a tuple; `single`, the areas from which only one troop may
intercept, area -> its troops). The answer is a canonical reaction line; a policy is read
from the request alone, since a policy sees no state. `REACTION_KINDS` declares the
kinds to the core, which reads reaction lines, policies and order forms through them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refused
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.agitation import read_agitation
from pbem.rules.ratio_regis.disband import read_disband
from pbem.rules.ratio_regis.orders import OrderSyntaxError, Reaction, parse_line, reaction_keywords

REACTION_DECISION_KINDS: dict[str, str] = {
    "react": "an enemy army enters your area (§12.4): INTERCEPT FROM <area> [UNITS …] | EVADE TO <area> [UNITS …] | "
             "EVADE DISPERSE [UNITS …] | JOINFORT [UNITS …] | STAND; troops may divide: EVADE TO <area> UNITS … "
             "EVADE DISPERSE UNITS … JOINFORT UNITS …",
    "intercept": "an enemy crosses a sea where you have a fleet (§10.2.1, §11.4.1): INTERCEPT WITH <squadron> | PASS",
    "engage": "an enemy fleet attacks yours (§11.3): FIGHT | WITHDRAW",
    "support": "a combat in a coastal area next to your fleet (§11.4.2): SUPPORT WITH <squadron> [FOR <POWER>] | PASS",
    "oppose": "an enemy subjugates your area (§13.5.2): OPPOSE FROM <area> WITH TROOPS|FORTRESS | NOOPPOSE",
    "guard": "a pirate attacks your merchants (§11.4.3): GUARD WITH <squadron> | PASS",
    "retreat": "your army lost a field battle (§13.3.6): RETREAT TO <area> [UNITS …] | RETREAT INTO FORT [UNITS …]",
    "base": "your squadron must go to one of several equally near bases (§11.1.1): BASE <area>",
    "box": "your troop disperses in a border area (§18.5): BOX <dispersion box> | BOX AUTO",
    "repatriate": "a troop must leave where it stands (§14.1): REPATRIATE <troop> TO <area> (a strategic move) | "
                  "REPATRIATE <troop> MOVE TO <area> (a tactical move) | REPATRIATE <troop> DISPERSE | REPATRIATE AUTO",
    "reassign": "your leader's fortress is eliminated, or the allied troops it commanded leave (§14.3): "
                "ATTACH <leader> TO <unit> | ATTACH AUTO",
    "stacking": "your troops are over an area's stacking limit when an action ends (§15.1.1): "
                "DISPERSE <troop>,… | DISPERSE AUTO",
    "veterans": "half your veterans, rounded up, turn regular at turn end (§16.2, §23.1.2): FLIP <troop>,… | FLIP AUTO",
    "rebellion": "the area of a rebellion your card's event or your social agitation places (§18.3, §23.2): "
                 "PLACE <area> | PLACE AUTO",
    "disband": "units you do not want for the next turn, at turn end (§23.1.2): KEEP | ELIMINATE <unit>,… "
               "[DEGRADE <unit>,…] | DEGRADE <unit>,…",
    "consent": "an ally proposes an alliance or an expeditionary corps (§21.1, §21.2.2): ACCEPT | REFUSE",
    "joinwar": "your ally has gone to war (§21.1): JOINWAR (enter the war against its enemy) | STAYOUT",
    "agitation": "your power's unrest exceeds twice its vitality at turn end (§23.2): KEEP | DISPERSE <troop>,… | "
                 "DYNASTY",
}

#: Kinds whose request is about one unit (`context["subject"]`), named first in the answer
#: (`REPATRIATE T5 …`, `ATTACH L2 …`); `<WORD> AUTO` takes the request's default.
SUBJECT_WORDS = {"repatriate": "REPATRIATE", "reassign": "ATTACH"}

#: Kinds answered by choosing a given number of units or areas (`DISPERSE T5`, `FLIP T3,T9`,
#: `PLACE Glasgow`); `AUTO` takes the request's default. The request's context holds
#: `eligible` and `count` (and `noun`, what is chosen).
CHOICE_WORDS = {"stacking": "DISPERSE", "veterans": "FLIP", "rebellion": "PLACE"}

#: The answers of a `react` request that dispose of the troops in the area entered.
DISPOSITIONS = ("EVADE", "JOINFORT", "DIVIDE")


def ask(ctx: DecisionPort, player: str, power: str, kind: str, *, options: Sequence[str], default: str,
        context: Mapping[str, Any], prompt: str, rule: str, eligible: Sequence[str] = ()) -> Reaction:
    """Ask `player` (for `power`) a reaction; returns the answer as a `Reaction`.
    `eligible` lists the units a `UNITS` subset may name."""
    request = ctx.request(kind=kind, player=player, power=power, purpose=kind, default=default, options=options,
                          prompt=prompt, rule=rule,
                          context={**context, "power": power, "eligible": tuple(eligible)})
    return parse_line(ctx.decide(request))


def choice_request(ctx: DecisionPort, player: str, power: str, kind: str, *, eligible: Sequence[str], count: int,
                   default: Sequence[str], context: Mapping[str, Any], prompt: str, rule: str) -> Request:
    """A request to choose `count` of the `eligible` units (a kind of `CHOICE_WORDS`)."""
    word = CHOICE_WORDS[kind]
    return ctx.request(kind=kind, player=player, power=power, purpose=kind, default=f"{word} {','.join(default)}",
                       options=[f"{word} {count} of {','.join(eligible)}", f"{word} AUTO"], prompt=prompt, rule=rule,
                       context={**context, "power": power, "eligible": tuple(eligible), "count": count})


def chosen_units(answer: str) -> list[str]:
    """The units a canonical choice answer (`DISPERSE T5,T6`) names."""
    return [u for u in answer.split()[-1].split(",") if u]


def narrow(command: Reaction, requests: Sequence[Request],
           answered: Collection[str] = ()) -> tuple[list[Request], str]:
    """The owed requests a reaction may answer: for a kind about one unit (SUBJECT_WORDS),
    the request about the unit it names, so that a refusal speaks of that unit, or for
    `<WORD> AUTO` the first such request not `answered` yet by an earlier line; or why none
    is."""
    subjects = [r for r in requests if SUBJECT_WORDS.get(r.kind) == command.word]
    if not subjects or command.unit is None:
        return list(requests), ""
    if command.unit == "AUTO":
        return [r for r in subjects if r.key not in answered] or subjects, ""
    mine = [r for r in subjects if str(r.context.get("subject", "")).upper() == command.unit]
    if mine:
        return mine, ""
    named = ", ".join(str(r.context.get("subject")) for r in subjects)
    return [], f"{command.unit} is not asked about now (you are asked about {named})"


def read_reaction(command: Reaction, request: Request) -> tuple[str | None, str]:
    """The canonical answer a reaction gives to `request`, or why not."""
    eligible = tuple(request.context.get("eligible", ()))
    if request.kind in CHOICE_WORDS:
        return _read_choice(command, request, eligible)
    if request.kind in SUBJECT_WORDS:
        return _read_subject(command, request)
    if request.kind == "disband":  # the turn-end rules read their own answers
        return read_disband(command, request)
    if request.kind == "agitation":
        return read_agitation(command, request)
    if request.kind == "react" and command.word in DISPOSITIONS:
        return _read_dispositions(command, request)
    if request.kind == "box" and command.word == "BOX" and (command.place or "").upper() == "AUTO":
        return request.default, ""  # BOX AUTO: the area's own theater's box (§18.5, RR-I287)
    options = request.options
    bare = Reaction(command.word, None, command.place, command.unit, (), command.means)
    wanted = _canonical(bare.text())
    match = next((option for option in options if _canonical(option) == wanted), None)
    if match is None:
        return None, f"{bare.text()} is not possible here (possible: {'; '.join(options)})"
    alone = _single_troop(request, match)
    if alone is not None and (len(command.units) != 1 or command.units[0] not in alone):
        where = match.split()[-1]
        return None, (f"from {where} only a single troop may intercept (§12.4.1, RR-I87): name it, {match} UNITS "
                      f"<one of {', '.join(alone)}>")
    if command.units:
        allowed = list(eligible)
        wrong = [u for u in command.units if u not in allowed]
        if wrong:
            return None, f"{', '.join(wrong)} cannot take part (units that may: {', '.join(allowed) or 'none'})"
        return f"{match} UNITS {','.join(command.units)}", ""
    return match, ""


def _read_dispositions(command: Reaction, request: Request) -> tuple[str | None, str]:
    """What the troops in an area entered do (§12.4.2, §13.4.1): one disposition for all of
    them or for the `UNITS` named, or several (`DIVIDE`), each naming its troops — evading to
    several adjacent areas, part dispersing, part joining the fortress (RR-I88). Troops named
    nowhere stay and fight. The fortress takes at most `fort_room` troops (§15.1.1)."""
    parts = command.parts if command.word == "DIVIDE" else (command,)
    present = tuple(request.context.get("present", ()))
    area = request.context.get("area", "the area")
    answers: list[str] = []
    named: list[str] = []
    for part in parts:
        bare = Reaction(part.word, None, part.place).text()
        match = next((option for option in request.options if _canonical(option) == _canonical(bare)), None)
        if match is None:
            return None, f"{bare} is not possible here (possible: {'; '.join(request.options)})"
        if len(parts) > 1 and not part.units:
            return None, f"when the troops divide, each part names its troops: {match} UNITS <troop>,… (§12.4.2)"
        wrong = [u for u in part.units if u not in present]
        if wrong:
            return None, (f"{', '.join(wrong)} {'does' if len(wrong) == 1 else 'do'} not stand in {area} (troops "
                          f"there: {', '.join(present) or 'none'})")
        named += part.units
        answers.append(f"{match} UNITS {','.join(part.units)}" if part.units else match)
    twice = sorted({u for u in named if named.count(u) > 1})
    if twice:
        return None, f"{', '.join(twice)} named in two parts: each troop does one thing"
    joining = [u for part in parts if part.word == "JOINFORT" for u in (part.units or present)]
    room = int(request.context.get("fort_room", 0))
    if len(joining) > room:
        return None, (f"the fortress in {area} has room for {room} troop(s) (§13.4.1, §15.1.1): name those that "
                      f"join, JOINFORT UNITS <troop>,…; the others evade or fight")
    return " ".join(answers), ""


def _single_troop(request: Request, match: str) -> list[str] | None:
    """For `INTERCEPT FROM <area>` where only one of several troops may go (the react
    request's `single` context, RR-I87): the troops there; otherwise None."""
    words = match.split()
    if request.kind != "react" or words[:2] != ["INTERCEPT", "FROM"]:
        return None
    single: Mapping[str, Sequence[str]] = request.context.get("single") or {}
    return next((list(troops) for area, troops in single.items() if area.upper() == words[-1].upper()), None)


def _read_subject(command: Reaction, request: Request) -> tuple[str | None, str]:
    """An answer about the request's unit: one of its options, or `<WORD> AUTO` (the
    default). A refusal gives the request's own reason for the answer, when it has one
    (`context["why_not"]`: the answer's tail after the unit, `TO Lorraine`, or `*` for any
    other answer -> why)."""
    word = SUBJECT_WORDS[request.kind]
    if command.word != word:
        return None, f"{command.text()} does not answer this decision: write {word} … (see the options)"
    if command.unit == "AUTO":
        return request.default, ""
    if command.place is None and command.means is None:
        tails = {"REPATRIATE": "TO <area> (strategic), MOVE TO <area> (tactical) or DISPERSE", "ATTACH": "TO <unit>"}
        return None, f"say what {command.unit} does: {word} {command.unit} {tails[word]}, or {word} AUTO for the default"
    wanted = Reaction(command.word, None, command.place, command.unit, (), command.means).text()
    match = next((option for option in request.options if _canonical(option) == _canonical(wanted)), None)
    if match is not None:
        return match, ""
    reasons = {tail.lower(): why for tail, why in dict(request.context.get("why_not") or {}).items()}
    parts = wanted.split(maxsplit=2)
    why = reasons.get(parts[2].lower() if len(parts) > 2 else "") or reasons.get("*")
    return None, f"{wanted} is not possible here{': ' + why if why else ''} (possible: {'; '.join(request.options)})"


def _read_choice(command: Reaction, request: Request, eligible: Sequence[str]) -> tuple[str | None, str]:
    """`<WORD> AUTO` (the default) or `<WORD>` with exactly `count` distinct eligible units
    (names are matched ignoring case)."""
    word, count = CHOICE_WORDS[request.kind], request.context.get("count", 0)
    noun = request.context.get("noun", "troop")
    allowed = list(eligible)
    if command.word != word:
        return None, f"{command.text()} does not answer this decision: write {word} <{noun}>,… or {word} AUTO"
    named = tuple(u.upper() for u in command.units)
    if named == ("AUTO",):
        return request.default, ""
    wrong = [u for u, upper in zip(command.units, named, strict=True) if upper not in {a.upper() for a in allowed}]
    if wrong:
        return None, f"{', '.join(wrong)} cannot be chosen here (choose {count} of {', '.join(allowed)})"
    if len(set(named)) != count or len(named) != count:
        return None, f"choose exactly {count} different {noun}(s) of {', '.join(allowed)}, not {len(named)}"
    return f"{word} {','.join(u for u in allowed if u.upper() in named)}", ""


def _canonical(text: str) -> str:
    return " ".join(text.upper().split())


def ask_all(ctx: DecisionPort, asks: Sequence[tuple[str, str, Mapping[str, Any]]], kind: str, *, rule: str,
            prompt: str) -> list[Reaction]:
    """Ask several powers the same kind of reaction at once (no order among them, e.g.
    §11.4.1, §11.4.2); each `asks` entry is (player, power, {options, default, context});
    the answers are revealed together."""
    requests = [ctx.request(kind=kind, player=player, power=power, purpose=kind, default=spec["default"],
                            options=spec["options"], prompt=f"{power}: {prompt}", rule=rule,
                            context={**spec["context"], "power": power, "eligible": ()})
                for player, power, spec in asks]
    return [parse_line(answer) for answer in ctx.decide_all(requests)] if requests else []


def _reaction(text: str) -> Reaction | None:
    try:
        command = parse_line(text)
    except OrderSyntaxError:
        return None
    return command if isinstance(command, Reaction) else None


@dataclass(frozen=True)
class ReactionKind(DecisionKind):
    """A reaction decision as the core reads it (research §3.5). All reaction kinds share
    one grammar, so a reaction line is offered to every owed reaction request: the first it
    fits, or the one of the power it names."""

    name: str
    description: str
    keywords: tuple[str, ...] = ()  # the family's, declared by its first kind, which reads for all

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        command = _reaction(text)
        if command is None:
            return None
        candidates = [r for r in owed if r.kind in REACTION_DECISION_KINDS
                      and (command.power is None or r.power == command.power)]
        if not candidates:
            kinds = ", ".join(sorted({r.kind for r in owed})) or "nothing"
            return Refused(f"you owe no reaction now (you owe: {kinds})", command.text())
        candidates, reason = narrow(command, candidates, answered)
        for request in candidates:
            answer, reason = read_reaction(command, request)
            if answer is not None:
                return Answered(request, answer, f"{request.kind}: {answer}")
        return Refused(reason, command.text())

    def answer_policy(self, text: str, request: Request) -> str | None:
        command = _reaction(text)
        return None if command is None else read_reaction(command, request)[0]

    def check_policy(self, text: str) -> str:
        try:
            command = parse_line(text)
        except OrderSyntaxError as error:
            return f"the answer cannot be read: {error}"
        if not isinstance(command, Reaction):
            return f"a {self.name} policy answers with {self.description.split(': ', 1)[-1]}"
        return ""

    def order_form(self, request: Request) -> str:
        return str(request.default)


REACTION_KINDS = tuple(ReactionKind(name, description, reaction_keywords() if index == 0 else ())
                       for index, (name, description) in enumerate(REACTION_DECISION_KINDS.items()))
