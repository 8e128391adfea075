"""The land and sea regions of Europe (I.4.4): each region's name and the provinces or sea
zones it lists ("namely: …", "contains the sea zones …"). A region defined only by a rule
("all the initial provinces of DANIA that are …") keeps its definition and lists what the
rulebook names."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed
from pbem.rules.europa_universalis.extract.text import names, plain

REGION = re.compile(r"(?:^|\n)(?:- )?(?P<name>[A-Z][A-Z ]+[A-Z](?: \([A-Z ]+\))?) (?P<text>(?:contains|is) .+?)(?=\n(?:- )?[A-Z][A-Z ]+[A-Z](?: \([A-Z ]+\))? (?:contains|is) |\Z)", re.S)


def members(text: str) -> list[str]:
    for marker in (r"seas \(", r"namely:?\s", r"the sea zones "):
        if re.search(marker, text):
            listed = re.split(marker, text, maxsplit=1)[1]
            listed = re.split(r"\)|\.(?:\s|$)", listed, maxsplit=1)[0]
            return names(listed)
    return []


def europe(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^I\.4\.4 Land and Sea regions in Europe")
    last = seed.find(r"^The powers: at home and abroad", first) - 1
    numbered = [(n, plain(line)) for n, line in seed.numbered(first + 1, last) if plain(line)]
    text = "\n".join(line for _, line in numbered)
    records = []
    for found in REGION.finditer(text):
        start = text[:found.start("name")].count("\n")
        end = start + found.group(0).strip("\n").count("\n")
        definition = re.sub(r"\s+", " ", found["text"]).strip()
        records.append({"name": found["name"], "kind": "sea" if "sea zones" in definition else "land",
                        "members": members(definition), "definition": definition,
                        "lines": [numbered[start][0], numbered[end][0]]})
    return records
