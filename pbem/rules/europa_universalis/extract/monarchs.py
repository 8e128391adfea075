"""The named monarchs and ministers of each major (XV.1–XV.12, the "… in play" and monarchs
sections): per clause, the country, the section, the name and the ADM/DIP/MIL values when the
rulebook prints them (others are rolled, III.2), with the clause as printed."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed, Span
from pbem.rules.europa_universalis.extract.setup import clauses
from pbem.rules.europa_universalis.extract.text import plain

COUNTRY = re.compile(r"^XV\.(\d+) ([A-Z]+)\b")
SECTION = re.compile(r"^XV\.\d+(?:\.\d+)+ (.*(?:Monarchs|monarchs|Kings|Sultans|Doge|Dutch Leaders|Ministers).*)$")
NAME = re.compile(r"^(?P<name>(?:[IVX]+\. )?.+?)(?=\.|,| is | are | reigns| may | arrives| has | becomes | \()")
VALUES = re.compile(r"values (\d+)/(\d+)/(\d+)")


def monarchs(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XV\.1 ANGLIA")
    last = seed.find(r"^XV\.13 ", first) - 1
    country, records = None, []
    sections = [n for n, line in seed.numbered(first, last) if COUNTRY.match(line) or re.match(r"^XV\.\d+(\.\d+)+ ", line)]
    for start, stop in zip(sections, sections[1:] + [last + 1]):
        heading = plain(seed.line(start))
        if COUNTRY.match(heading):
            country = COUNTRY.match(heading).group(2)
            continue
        section = SECTION.match(heading)
        if not section:
            continue
        for clause in clauses(seed, Span(start, stop - 1, "")):
            text = clause["text"].replace("\n", " ")
            values = VALUES.search(text)
            name = NAME.match(text)
            if "." in clause["clause"] or not name:
                continue
            records.append({"country": country, "section": section.group(1), "clause": clause["clause"],
                            "name": name["name"].strip(),
                            "values": [int(v) for v in values.groups()] if values else None,
                            "text": text, "lines": clause["lines"]})
    return records
