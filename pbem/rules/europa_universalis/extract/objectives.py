"""The period objectives of each country (XIV.4.2–13): per country and period, the objectives
A–E a player chooses 3 of (XIV.3.3 §B), each with its title, whether it is marked (M), its
value as printed ("45 VPs", "10 per turn (max 30)") and its condition."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.events import PERIODS
from pbem.rules.europa_universalis.extract.seed import Seed, SeedError, Span
from pbem.rules.europa_universalis.extract.setup import clauses

COUNTRY = re.compile(r"^XIV\.4\.\d+ Objectives of ([A-Z]+)$")
PERIOD = re.compile(r"^XIV\.4\.\d+\.\d+ Period (" + "|".join(PERIODS) + r")$")
#: "Title(M): value — condition", the value a number of VPs or so many per something, with its
#: maximum or half-success in brackets ("10 per turn (max 30)", "45 VPs (½: 20 VPs)").
OBJECTIVE = re.compile(r"^(?P<title>[^:]+?)\s*(?P<main>\(M\))?\s*:\s*"
                       r"(?P<value>[-\d/]+(?:\s*VPs?|\s+per\s+[^()—]+)(?:\s*\((?:[^()]|\([^()]*\))*\))?)"
                       r"\s*(?:[—-]\s+)?(?P<condition>.*)$")
#: The next objective run into the one before it by the layout ("… later. E Conquest of …: 35 VPs").
FUSED = re.compile(r"\s(?=[A-E] [^:—]{2,60}?\s?(?:\(M\))?\s?:\s*[-\d/]+(?:\s*VPs?|\s+per\b))")


def objectives(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XIV\.4\.2 Objectives of ")
    last = seed.find(r"^XIV\.5 End of game VPs", first) - 1
    records = []
    for span in seed.blocks(first, last, PERIOD.pattern):
        country = next(COUNTRY.match(seed.line(n)).group(1) for n in range(span.first, first - 1, -1)
                       if COUNTRY.match(seed.line(n)))
        period = PERIOD.match(seed.line(span.first)).group(1)
        for clause in clauses(seed, Span(span.first, span.last, "")):
            if "." in clause["clause"]:
                continue
            head, *fused = FUSED.split(clause["text"].replace("\n", " "))
            parts = [(clause["clause"], head)] + [(text[0], text[2:]) for text in fused]
            records += [_objective(country, period, letter, text, clause["lines"]) for letter, text in parts]
    return records


def _objective(country: str, period: str, letter: str, text: str, lines: list[int]) -> dict[str, Any]:
    found = OBJECTIVE.match(text)
    if found is None:
        raise SeedError(f"L{lines[0]}: an objective the extractor cannot read: {text!r}")
    return {"country": country, "period": period, "letter": letter,
            "title": found["title"].strip(), "main": bool(found["main"]),
            "value": found["value"].strip().replace("1/2:", "½:"), "condition": found["condition"].strip(),
            "lines": lines}
