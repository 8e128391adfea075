"""Reactions answered by one word and an area or a fixed choice — `EVADE <area> | EVADE ANY |
EVADE NONE` (§10.1.2.2.3), `INSURRECTION <area> | INSURRECTION HERE | INSURRECTION NONE`
(§10.1.4.1) —, the area one of those the request offers."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request


def area_answer_kind(name: str, description: str, word: str, choices: Sequence[str], usage: str,
                     outside: str) -> LineKind:
    """The kind `name`, answered `<word> <area>` or `<word> <choice>`: `usage` answers a line
    of another shape, `outside` (with `{areas}` for the areas offered) an area not offered."""

    def parse(text: str) -> str | None:
        words = text.split()
        if not words or words[0].upper() != word:
            return None
        if len(words) != 2:
            raise Refusal(usage)
        where = words[1].upper() if words[1].upper() in choices else words[1]
        return f"{word} {where}"

    def check(request: Request, value: str) -> str:
        where = value.split()[1]
        if where in choices:
            return value
        found = next((a for a in request.options if a.lower() == where.lower()), None)
        if found is None:
            raise Refusal(outside.format(areas=", ".join(request.options) or "no area"))
        return f"{word} {found}"

    return LineKind(name, description, parse=parse, form=lambda answer: answer, check=check, keywords=(word,))
