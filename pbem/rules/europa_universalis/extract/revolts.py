"""The global revolt table (XVII.2.2, table XVII.3): for each 2d10 roll, the country a revolt
strikes in each period (with a minor's pseudo-stability in brackets) and the revolt's strength;
and the designers' note of how often each country is struck per period, a second reading of
the same table."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.events import PERIODS
from pbem.rules.europa_universalis.extract.seed import Seed
from pbem.rules.europa_universalis.extract.text import plain

TARGET = re.compile(r"^(?P<country>[A-Z]{3})(?: \[(?P<stability>[+-]?\d+)\])?$")
#: The half and full revolt glyphs as the conversion varies them.
GLYPHS = {"⊝": "⊖", "Θ": "⊖"}


def _strength(text: str) -> str:
    text = plain(text)
    for glyph, meant in GLYPHS.items():
        text = text.replace(glyph, meant)
    return re.sub(r"A ([⊕⊖])", r"A\1", text)


def global_revolts(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^\t+IV\tV\tVI\tVII\tStrength")
    last = seed.find(r"^XVII\.2\.2 Global revolt table", first) - 1
    records = []
    for number, line in seed.numbered(first + 1, last):
        cells = line.split("\t")
        if not cells[0].isdigit():
            continue
        targets = {}
        for period, cell in zip(PERIODS, cells[1:8]):
            found = TARGET.match(cell.strip())
            targets[period] = {"country": found["country"],
                               "pseudo_stability": int(found["stability"]) if found["stability"] else None}
        records.append({"roll": int(cells[0]), "targets": targets, "strength": _strength(cells[8]),
                        "lines": [number, number]})
    return records


def revolt_odds(seed: Seed) -> list[dict[str, Any]]:
    """The design note under table XVII.3: per period, the percentage of rolls striking each
    country; its rows for periods II and III lost their labels, so rows are taken in order."""
    first = seed.find(r"^Design note: Here's the percentages of each country")
    header = seed.line(first + 1).split()
    rows = []
    for number, line in seed.numbered(first + 2, first + 12):
        cells = line.split()
        numbers = [c for c in cells if c.isdigit()]
        if len(numbers) == len(header):
            rows.append((number, dict(zip(header, map(int, numbers)))))
    return [{"period": period, "percent": percent, "lines": [number, number]}
            for period, (number, percent) in zip(PERIODS, rows)]


GROUP = re.compile(r"^(?P<name>[A-Z][^\d:]*?[a-zA-Z)]) (?P<entries>1[.–-].*)$")
ENTRY = re.compile(r"(?P<low>\d+)(?:\s*[–-]\s*(?P<high>\d+))?\.\s*(?P<place>[^,(]+?)"
                   r"(?=\s*\(|,\s*\d+\s*[.–-]|[,.]?\s*$|\.\s)")


def revolt_groups(seed: Seed) -> list[dict[str, Any]]:
    """The groups of the per-country revolt location tables (XVII.2.3–10): a group names the
    provinces a 1d10 picks among ("Central England 1. Kent, 2–3. Lincolnshire, …"); a line that
    starts with a number goes on with the group before. Groups printed side by side are split by
    the patch list, which restores their line breaks within one numbered line."""
    first = seed.find(r"^XVII\.2\.3 Revolt table for ")
    last = seed.find(r"^Chapter", first) - 1
    records: list[dict[str, Any]] = []
    table = None
    pieces = [(number, piece) for number, raw in seed.numbered(first, last) for piece in raw.split("\n")]
    for number, raw in pieces:
        line = plain(raw)
        heading = re.match(r"^XVII\.2\.\d+ Revolt tables? for (.+)$", line)
        if heading:
            table = heading.group(1)
            continue
        group = GROUP.match(line)
        if group:
            records.append({"table": table, "group": group["name"], "text": group["entries"], "lines": [number, number]})
        elif records and re.match(r"^\d+\s*[.–-]", line) and records[-1]["lines"][1] >= number - 2:
            records[-1]["text"] += " " + line
            records[-1]["lines"][1] = number
    for record in records:
        text = record.pop("text")
        record["entries"] = [{"low": int(m["low"]), "high": int(m["high"] or m["low"]), "place": m["place"].strip()}
                             for m in ENTRY.finditer(text)]
    return records


ROMAN = {p: i for i, p in enumerate(PERIODS)}
#: Whose revolts a column serves: a major, or COL (the colonies); AUS* (the Habsburgs) as AUS.
COUNTRY = r"\b(ANG|FRA|HIS|POL|POR|RUS|TUR|VEN|HOL|SUE|PRU|AUS|COL)\b\*?"


def _periods(label: str) -> list[str]:
    """"III, IV" → [III, IV]; "SUE V–VII" → [V, VI, VII]; no numeral: every period."""
    found = re.findall(r"\b(VII|VI|V|IV|III|II|I)\b(?:\s*[–-]\s*\b(VII|VI|V|IV|III|II|I)\b)?", label)
    if not found:
        return list(PERIODS)
    return [p for low, high in found for p in PERIODS[ROMAN[low]:ROMAN[high or low] + 1]]


def revolt_locations(seed: Seed) -> list[dict[str, Any]]:
    """The grids of the per-country revolt location tables (XVII.2.3–10): for each result of
    1d10 + Stability (<0, 0 … 13) and each column — a country and the periods it serves — the
    group or province struck (the groups are in `revolt_groups`)."""
    first = seed.find(r"^XVII\.2\.3 Revolt table for ")
    last = seed.find(r"^Chapter", first) - 1
    records = []
    headings = [(n, re.match(r"^XVII\.2\.\d+ Revolt tables? for (.+)$", line)) for n, line in seed.numbered(first, last)]
    headings = [(n, found.group(1)) for n, found in headings if found]
    for (start, table), (stop, _) in zip(headings, headings[1:] + [(last + 1, "")]):
        header = seed.find(r"^Result\t", start, stop)
        labels = [c.strip() for c in seed.line(header).split("\t")[1:] if c.strip()]
        single = re.findall(COUNTRY, table)[0]
        columns = [{"label": label, "country": (re.match(COUNTRY, label) or [None, single])[1],
                    "periods": _periods(label)} for label in labels]
        for number, line in seed.numbered(header + 1, stop - 1):
            cells = line.split("\t")
            if not re.match(r"^(<0|\d+)$", cells[0]):
                continue
            records.append({"table": table, "result": cells[0], "lines": [number, number],
                            "places": [{**column, "place": plain(cell)} for column, cell in zip(columns, cells[1:])]})
    return records
