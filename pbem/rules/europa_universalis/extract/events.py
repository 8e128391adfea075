"""The events of Part II: the 49 economic events (XVI.2) and the political events of periods
I–VII (XVIII–XXIV), each with its heading's number, title, how many boxes it has on its table
(×n), the designers' source tags, its lines, and for a political event its sub-events (α, β …)
and the sub-events its text names."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed, SeedError
from pbem.rules.europa_universalis.extract.text import plain

PERIODS = ("I", "II", "III", "IV", "V", "VI", "VII")
#: The designers' source tags that end a heading ("RistoMod", "PB+JymNew", "PBNotEvenWritten" …).
TAG = r"(?:Risto|PB|Jym|JC|Orig)[A-Za-z]*"
TAGS = rf"(?P<tags>{TAG}(?:[/+ ]{TAG})*(?: \[BLP\])?)"
ECONOMIC = re.compile(rf"^E-(?P<number>\d+) (?P<title>[A-Z][A-Z' -]+?)(?: \(×(?P<times>\d+)\))?(?: {TAGS})?$")
POLITICAL = re.compile(r"^(?P<id>(?P<period>" + "|".join(PERIODS) + r")-(?:\d+|[A-Z])(?: \((?:\d+|FINAL)\))?) "
                       rf"(?P<title>.+?)(?: \(×(?P<times>[\d*]+)\))?(?: {TAGS})?$")
LETTERS = "αβγδεζηθικλμ"
SUBEVENT = re.compile(rf"^(?P<letter>[{LETTERS}]) (?P<title>[^\s-].*)$")
NAMED = re.compile(rf"subevents? (?P<letter>[{LETTERS}])\s*\((?P<title>[^)]+)\)")


def _tags(text: str | None) -> list[str]:
    return [tag for tag in re.split(r"[/+ ]", text or "") if tag]


def economic_events(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XVI\.2 Description of Economical Events")
    last = seed.find(r"^Chapter", first) - 1
    records = []
    for span in seed.blocks(first + 1, last, r"^E-\d+ "):
        found = ECONOMIC.match(plain(span.text.split("\n", 1)[0]))
        records.append({"number": int(found["number"]), "title": found["title"].strip(),
                        "times": int(found["times"] or 1), "tags": _tags(found["tags"]), "lines": span.lines})
    return records


def political_events(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^Political Events of Perio")
    last = seed.find(r"^Part III", first) - 1
    records = []
    for span in seed.blocks(first, last, POLITICAL.pattern):
        found = POLITICAL.match(plain(span.text.split("\n", 1)[0]))
        body = [(span.first + offset, plain(line)) for offset, line in enumerate(span.text.split("\n"))]
        subevents = [{"letter": m["letter"], "title": m["title"], "line": number}
                     for number, line in body[1:] if (m := SUBEVENT.match(line))]
        named = sorted({(m["letter"], m["title"]) for _, line in body for m in NAMED.finditer(line)})
        records.append({
            "id": found["id"], "period": found["period"], "title": found["title"].strip(),
            "times": found["times"] if found["times"] == "*" else int(found["times"] or 1),
            "tags": _tags(found["tags"]), "lines": span.lines,
            "written": "NotEvenWritten" not in span.text,
            "subevents": subevents,
            "names_subevents": [{"letter": letter, "title": title} for letter, title in named],
        })
    return records


def contents(seed: Seed) -> list[dict[str, Any]]:
    """The political events and sub-events as Part VI's contents list them (L31960–32320): a
    second reading of the same headings, against which the events are checked."""
    first = seed.find(r"^XVIII\s")
    last = seed.find(r"^III\s+Appendix", first) - 1
    entry = re.compile(r"^(?P<id>(?:" + "|".join(PERIODS) + r")-(?:\d+|[A-Za-z])(?: \((?:\d+|Final)\))?)"
                       rf"(?:\.(?P<letter>[{LETTERS}]))?\s*(?P<title>[^\t\[]*)")
    records = []
    for number, line in seed.numbered(first, last):
        found = entry.match(line)
        if found:
            # The contents set an event's letter and "(Final)" in the case of its title.
            period, _, rest = found["id"].partition("-")
            records.append({"event": f"{period}-{rest[0].upper()}{rest[1:].replace('(Final)', '(FINAL)')}",
                            "subevent": found["letter"],
                            "title": plain(found["title"]), "lines": [number, number]})
    return records


CELL = re.compile(r"^(?P<reroll>R)?(?P<number>\d+)$")


def event_tables(seed: Seed) -> list[dict[str, Any]]:
    """The periods' tables of political events (XVIII.1, XX.1, XXI.1, XXII.1, XXIV.1; II's is
    missing and VI's garbled, EU-I4): for each first die's column and second die's row 1–9,
    the event number, or "R" and a number (III.6 §A: "a 'R' followed by the number of an
    event"); the first die's 10 column and the second die's row 10, which send the roll to
    another period, are kept as printed."""
    records = []
    for header in [n for n, line in seed.numbered(1, len(seed)) if re.match(r"^\t?\$1\^\{(?:st|\\text\{st\})\} \\rightarrow\$\t", line)]:
        caption = seed.find(r"^Table [XVI]+\.1: Period [IV]+ events table", header)
        period = re.search(r"Period ([IV]+) events table", seed.line(caption)).group(1)
        columns = [c.strip() for c in seed.line(header).split("\t") if re.match(r"^\s*\d+(-\d+)?\s*$", c)]
        cells, tens = [], []
        for number, line in seed.numbered(header + 1, caption - 1):
            row = [c.strip() for c in line.split("\t")]
            row = row[1:] if row and not row[0] else row
            if not row or not row[0].isdigit():
                continue
            if row[0] == "10":
                tens.append(plain(" ".join(row[1:])))
                continue
            for column, cell in zip(columns[:-1], row[1:len(columns)]):
                found = CELL.match(cell)
                if found is None:
                    raise SeedError(f"L{number}: a cell of period {period}'s event table the extractor cannot read: {cell!r}")
                cells.append({"first": column, "second": int(row[0]), "event": int(found["number"]),
                              "reroll": bool(found["reroll"]), "line": number})
            tens.append(plain(" ".join(row[len(columns):])))
        # Period numerals read with l for I ("pll", "plV").
        ten = re.sub(r"\bp([lIV]+)\b", lambda m: "p" + m.group(1).replace("l", "I"), " ".join(t for t in tens if t))
        records.append({"period": period, "columns": columns, "cells": cells, "ten_column": ten,
                        "lines": [header, caption]})
    return records
