"""The Great Campaign's placement in 1492 (XXVII.1.1) and the transfers to new majors
(XXVII.1.2): one record per major, its clauses kept as the rulebook words them and the
values the rules read taken out of them."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed, SeedError, Span
from pbem.rules.europa_universalis.extract.text import names, plain

#: A clause's label and text; a leader's values broken onto a line of their own ("A 4.5.5 -1
#: [T20–T27]) …") start no clause.
CLAUSE = re.compile(r"^(?:- )?([A-Z](?:\.\d+)*)\s+(?!\d\.\d\.\d)(.*)$")
STATUSES = ("RM", "SUB", "MA", "EC", "EW", "VA", "AN")
UNIT = re.compile(r"^(\d+)\s*(A⊕|A⊖|LD|ND|NGD|NTD|NWD|F⊕|F⊖|Pashas?)\s*(?:\(([^)]*)\))?\s*"
                  r"(?:(?:for|of)\s+(.+))?$")


def clauses(seed: Seed, span: Span) -> list[dict[str, Any]]:
    """The lettered clauses of a section (`B.1 …`), each with its lines; a line that starts no
    clause continues the one before."""
    found: list[dict[str, Any]] = []
    for number, raw in seed.numbered(span.first + 1, span.last):
        text = plain(raw)
        if not text:
            continue
        match = CLAUSE.match(text)
        if match:
            found.append({"clause": match.group(1), "text": match.group(2), "lines": [number, number]})
        elif found:
            found[-1]["text"] += "\n" + text
            found[-1]["lines"][1] = number
    return found


def _clause(found: list[dict[str, Any]], label: str) -> dict[str, Any] | None:
    return next((c for c in found if c["clause"] == label), None)


def _after(text: str, marker: str) -> list[str]:
    return names(text.split(marker, 1)[1].split("\n", 1)[0]) if marker in text else []


def monarch(text: str) -> dict[str, Any]:
    match = re.search(r"The (?:ruling )?monarch is (.+?) \((\d+)/(\d+)/(\d+)\), (?:he|they) (?:is|are) "
                      r"scheduled to die at the beginning of turn (\d+)", text)
    if not match:
        raise SeedError(f"no monarch in {text!r}")
    following = re.search(r"The next monarch will be (.+?)\.(?: The| $)", text)
    stability = re.search(r"The Stability is ([+-]\d+)", text)
    religion = re.search(r"is ([A-Z][a-z]+)\.?$", text.strip())
    return {"name": match.group(1), "adm": int(match.group(2)), "dip": int(match.group(3)),
            "mil": int(match.group(4)), "dies_turn": int(match.group(5)),
            "next": following.group(1) if following else None,
            "stability": int(stability.group(1)) if stability else None,
            "religion": religion.group(1) if religion else None}


def diplomatic_track(lines: list[str]) -> list[dict[str, str]]:
    """"SUB GENUA RM SANCTA SEDES and SICILIÆ" → the minors and their boxes (IV.3)."""
    entries = []
    pattern = re.compile(r"\b(" + "|".join(STATUSES) + r")\b\s+(.+?)(?=\s+\b(?:" + "|".join(STATUSES) + r")\b\s|$)")
    for line in lines:
        for status, minors in pattern.findall(line):
            for name in names(minors):
                special = name.endswith("(special)")
                entries.append({"status": status, "minor": name.removesuffix("(special)").strip(),
                                **({"special": True} if special else {})})
    return entries


def economy(text: str) -> dict[str, Any]:
    manufactures = [{"goods": g, "province": p} for g, p in
                    re.findall(r"MNU of (\w+) on side\s*[⊕⊖]? in ([^,.]+?)(?:,|\.| and)", text)]
    both = re.search(r"FTI and DTI (?:is|are) (\d+)", text)
    fti = re.search(r"FTI is (\d+)", text)
    dti = re.search(r"DTI is (\d+)", text)
    return {"manufactures": manufactures,
            "fti": int(both.group(1)) if both else int(fti.group(1)),
            "dti": int(both.group(1)) if both else int(dti.group(1))}


def trade_fleets(text: str) -> list[dict[str, Any]]:
    return [{"zone": f"{kind} {zone.strip()}", "level": int(level)}
            for level, kind, zone in re.findall(r"(?:level|lv\.) (\d+) in (CTZ|STZ) ([^,.]+?)(?=,| and |\.|$)", text)]


def forces(text: str) -> list[dict[str, Any]]:
    """"1A⊕, 1F⊖ (4NGD/1NTD), 3ND are raised." → the counters raised (not yet placed, EU-I12)."""
    raised = re.sub(r"(?<=[\dA-Z⊕⊖]) (?=[A-Z⊕⊖/](?![a-zç]))", "", text.split(" are raised")[0])
    raised = raised.split(". ", 1)[1] if ". " in raised else raised
    units = []
    for item in names(raised):
        match = UNIT.match(item)
        if not match:
            raise SeedError(f"a force the extractor cannot read: {item!r} in {text!r}")
        count, unit, contents, of = match.groups()
        units.append({"count": int(count), "unit": unit.rstrip("s") if unit.startswith("Pasha") else unit,
                      **({"contents": contents} if contents else {}), **({"of": of} if of else {})})
    return units


def majors_1492(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XXVII\.1\.1\.3 ")
    last = seed.find(r"^XXVII\.1\.1\.11 ", first) - 1
    records = []
    for span in seed.blocks(first, last, r"^XXVII\.1\.1\.\d+ [A-Z]+$"):
        country = span.text.split("\n", 1)[0].split()[1]
        found = clauses(seed, span)
        a, e = _clause(found, "A"), _clause(found, "E")
        d1, d2, d3 = (_clause(found, f"D.{n}") for n in (1, 2, 3))
        track = _clause(found, "C")
        owned = [c for c in found if c["clause"].startswith("B.")]
        records.append({
            "country": country, "lines": span.lines,
            "monarch": monarch(a["text"]),
            "national": [p for c in owned if "National territory" in c["text"]
                         for p in _after(c["text"], ":")],
            # "Other provinces (These provinces belong to UKRAINA): …" — the list after the colon.
            "other": [p for c in owned if c["text"].startswith("Other provinces") for p in _after(c["text"], ":")],
            "known_seas": [p for c in owned if c["text"].startswith("Known sea zones") for p in _after(c["text"], ":")],
            "diplomatic_track": diplomatic_track(track["text"].split("\n")[1:]),
            **economy(d1["text"]),
            "treasury": int(re.search(r"treasury is (\d+)", d2["text"]).group(1)),
            "trade_fleets": trade_fleets(d3["text"]),
            "land_tech": int(re.search(r"Land technology (?:and Naval technology )?is (\d+)", e["text"]).group(1)),
            "naval_tech": int(re.search(r"Naval technology is (\d+)", e["text"]).group(1)),
            "forces": forces(e["text"]),
            "clauses": found,
        })
    return records


def minors_1492(seed: Seed) -> list[dict[str, Any]]:
    """XXVII.1.1.11: the minors' deviations from their lists, their trade fleets, their ROTW
    establishments — kept as clauses."""
    first = seed.find(r"^XXVII\.1\.1\.11 ")
    last = seed.find(r"^XXVII\.1\.2 ", first) - 1
    return clauses(seed, Span(first, last, ""))


def transfers(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XXVII\.1\.2\.1 ")
    last = seed.find(r"^XXVII\.1\.3 ", first) - 1
    records = []
    for span in seed.blocks(first, last, r"^XXVII\.1\.2\.\d+ "):
        title = plain(span.text.split("\n", 1)[0]).split(" ", 1)[1]
        becoming = re.match(r"Becoming (\w+)$", title)
        records.append({"title": title, "country": becoming.group(1) if becoming else None,
                        "lines": span.lines, "clauses": clauses(seed, span)})
    return records
