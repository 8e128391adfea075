"""The decisions a land combat asks (§7.5), declared to the core as kinds with their defaults
(the table of kinds, who is asked, when, and the defaults is in README.md).

A standing tactic is a policy: `POLICY chit WHEN side=defender DO CHIT counterattack`. Every
request's context holds `battle`, `area`, `side` and, in the field, `terrain`, `enemy` and
`day`, for policies to test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.rules.empires_in_arms.combat import named_losses


def _words(keyword: str, text: str) -> list[str] | None:
    words = text.replace(",", " ").split()
    if not words or words[0].upper() != keyword:
        return None
    return words[1:]


def _one_of(keyword: str, choices: tuple[str, ...]) -> Callable[[str], str | None]:
    def parse(text: str) -> str | None:
        words = _words(keyword, text)
        if words is None:
            return None
        if len(words) != 1 or words[0].lower() not in choices:
            raise Refusal(f"write {keyword} {'/'.join(c.upper() for c in choices)}")
        return words[0].lower()
    return parse


def _chit(text: str) -> str | None:
    words = _words("CHIT", text)
    if words is None:
        return None
    if len(words) != 1:
        raise Refusal("write CHIT <name>, e.g. CHIT assault")
    return words[0].lower().replace("_", "-")


def _in_options(request: Request, value: str) -> str:
    if value not in request.options:
        raise Refusal(f"{value} is not yours to choose here (choose from {', '.join(request.options)})")
    return value


def _ids(keyword: str, *, none_ok: bool) -> Callable[[str], tuple[str, ...] | None]:
    def parse(text: str) -> tuple[str, ...] | None:
        words = _words(keyword, text)
        if words is None:
            return None
        if not words:
            raise Refusal(f"write {keyword} <id> …")
        if len(words) == 1 and words[0].upper() in ("NONE", "ALL"):
            if words[0].upper() == "NONE" and not none_ok:
                raise Refusal(f"{keyword} needs at least one id")
            return (words[0].upper(),)
        return tuple(dict.fromkeys(words))
    return parse


def _flank(request: Request, ids: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [i for i in ids if i not in request.options]
    if ids == ("ALL",) or unknown:
        raise Refusal(f"the outflanking force is made of your non-artillery corps ({', '.join(request.options)})")
    if len(ids) == len(request.options):
        raise Refusal("at least one non-artillery corps must stay in the pinning force (§7.5.2.3.1)")
    return tuple(sorted(ids))


def _groups(request: Request, ids: tuple[str, ...]) -> tuple[str, ...]:
    if ids == ("NONE",):
        return ()
    if ids == ("ALL",):
        return tuple(request.options)
    unknown = [i for i in ids if i not in request.options]
    if unknown:
        raise Refusal(f"no force {', '.join(unknown)} may reinforce here (choose from {', '.join(request.options)})")
    return tuple(sorted(ids))


def _guard(text: str) -> int | None:
    words = _words("GUARD", text)
    if words is None:
        return None
    if len(words) != 1 or words[0] not in ("0", "1", "2"):
        raise Refusal("write GUARD 0, GUARD 1 or GUARD 2")
    return int(words[0])


def _guard_fits(request: Request, shift: int) -> int:
    most = request.context.get("max_shift", 0)
    if shift > most:
        raise Refusal(f"your guards can shift the morale level by {most} at most (option 12.3.4.3)")
    return shift


def _day_end(text: str) -> str | None:
    word = text.strip().upper()
    return word.lower() if word in ("FIGHT", "WITHDRAW") else None


NO_HONOURS_WHY = "Turkish and Spanish garrisons and their minor allies may not ask for the honours of war"


def _breach_fits(request: Request, answer: str) -> str:
    if answer == "honours" and not request.context.get("honours"):
        why = request.context.get("no_honours") or NO_HONOURS_WHY
        raise Refusal(f"{why} (§7.5.4.1.2.3.1)")
    return answer


def _yes(keyword: str, yes: str, no: str) -> Callable[[str], bool | None]:
    parse = _one_of(keyword, (yes, no))
    return lambda text: None if (value := parse(text)) is None else value == yes


def _form_ids(keyword: str) -> Callable[[Any], str]:
    return lambda ids: f"{keyword} {' '.join(ids) if ids else 'NONE'}"


def _casualties(text: str) -> str | None:
    words = text.split(None, 1)
    if not words or words[0].upper() != named_losses.KEYWORD:
        return None
    try:
        return named_losses.form(named_losses.parse(words[1] if len(words) == 2 else ""))
    except ValueError as error:
        raise Refusal(str(error)) from None


def _casualties_fit(request: Request, answer: str) -> str:
    problem = named_losses.check(named_losses.parse(answer), request.context)
    if problem:
        raise Refusal(problem)
    return answer


CHIT = LineKind("chit", "your secret combat chit (§7.5.2.1): CHIT <name>", parse=_chit,
                form=lambda chit: f"CHIT {chit}", check=_in_options, keywords=("CHIT",),
                asked="both sides of a field combat choose a chit at the start of each day (§7.5.2.1)")
FLANK = LineKind("flank", "the corps that go round the flank (§7.5.2.3): FLANK <corps> …",
                 parse=_ids("FLANK", none_ok=False), form=_form_ids("FLANK"), check=_flank, keywords=("FLANK",),
                 asked="a side that chose the outflank chit names its outflanking force (§7.5.2.3)")
GUARD = LineKind("guard", "commit the guard this round (option 12.3.4): GUARD 0/1/2", parse=_guard,
                 form=lambda shift: f"GUARD {shift}", check=_guard_fits, keywords=("GUARD",),
                 asked="a side is asked each round of a battle in which it has Austrian, French, Prussian or "
                       "Russian guard factors not yet committed that day; British and Spanish guards cannot "
                       "commit (12.3.4, 12.3.4.3)")
REINFORCE = LineKind("reinforce",
                     "forces that try to join the battle (§7.5.2.11): REINFORCE NONE/ALL/<group> …",
                     parse=_ids("REINFORCE", none_ok=True), form=_form_ids("REINFORCE"), check=_groups,
                     keywords=("REINFORCE",),
                     asked="a side with forces offered in the areas around is asked after rounds 1 and 2 "
                           "(§7.5.2.11)")
DAY_END = LineKind("day_end", "fight on or leave at the end of a day (§7.5.2.13): FIGHT/WITHDRAW", parse=_day_end,
                   form=lambda answer: answer.upper(), keywords=("FIGHT", "WITHDRAW"),
                   asked="both sides of a field combat that goes on, at the end of each day (§7.5.2.13)")
SORTIE = LineKind("sortie", "sortie against the besiegers (§7.5.4.1.2.1): SORTIE YES/NO",
                  parse=_yes("SORTIE", "yes", "no"),
                  form=lambda yes: f"SORTIE {'YES' if yes else 'NO'}", keywords=("SORTIE",),
                  asked="the besieged, when an assault attempt's result is \"Sortie?\" (§7.5.4.1.2.1)")
BREACH = LineKind("breach", "after a breach (§7.5.4.1.2.3): BREACH HONOURS/SURRENDER/FIGHT",
                  parse=_one_of("BREACH", ("honours", "surrender", "fight")), form=lambda a: f"BREACH {a.upper()}",
                  check=_breach_fits, keywords=("BREACH",),
                  asked="the besieged, when an assault attempt's result is \"Breach\" (§7.5.4.1.2.3)")
HONOURS = LineKind("honours", "grant the honours of war (§7.5.4.1.2.3.1): HONOURS GRANT/REFUSE",
                   parse=_yes("HONOURS", "grant", "refuse"), form=lambda yes: f"HONOURS {'GRANT' if yes else 'REFUSE'}",
                   keywords=("HONOURS",),
                   asked="the besieger, when the besieged ask for the honours of war (§7.5.4.1.2.3.1)")

CASUALTIES = LineKind(named_losses.KIND, "the factors your losses take, with option chosen_losses (§7.5.2.9.2): "
                                         "CASUALTIES <unit> <n> <kind>, …", parse=_casualties,
                      form=lambda answer: f"{named_losses.KEYWORD} {answer}", check=_casualties_fit,
                      keywords=(named_losses.KEYWORD,),
                      asked="with option chosen_losses, a side's owner each time it takes losses in a round, "
                            "a pursuit or a sortie (§7.5.2.9.2)")

#: The combat's kinds, for the ruleset's `decision_kinds`.
COMBAT_KINDS = (CHIT, FLANK, GUARD, REINFORCE, DAY_END, SORTIE, BREACH, HONOURS, CASUALTIES)
