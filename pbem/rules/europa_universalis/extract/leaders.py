"""The named leaders of the majors (XXVI): for each, the country, the list it is in (land,
naval, missionaries …: the category glyphs are lost in the conversion, the list names the
kind), its name, when it is in play (turns, or the event that brings it), its rank (A best,
IX.6) and its Manoeuvre.Fire.Shock values, with the siege modifier when printed (a missionary's
second figure is its bonus)."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed
from pbem.rules.europa_universalis.extract.text import plain

LEADER = re.compile(
    r"(?:^|(?<=[.!?)\]] ))(?P<name>[^:—]{2,120}?)\s*:\s*[^\[\]:—]{0,40}?"
    r"(?:\[(?:T(?P<first>\d+)[–-]T(?P<last>\d+)|Event (?P<event>[^\]]+))\]\s*)?"
    r"(?:(?P<rank>[A-ZВ])\s+)?(?P<m>\d)\.(?P<f>\d)\.(?P<s>\d)(?:\s+(?P<siege>[-+] ?\d)\b)?")
#: A rank letter the conversion read as its Cyrillic look-alike.
CYRILLIC = {"В": "B"}
LIST = re.compile(r"^XXVI\.\d+\.\d+(?:\.\d+)? List of all (.+)$")


def leader_name(text: str) -> str:
    """The name, without the end of the previous leader's description the match may start
    with ("… Died besieging Philippsburg. Bienville (…)"): a sentence ends at ". " after a word
    (not an initial, "G. Starhemberg") outside parentheses."""
    depth, start = 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and text[index + 1:index + 2] == " " and index >= 2 and text[index - 2].isalpha():
            start = index + 2
    return text[start:].strip()


def leaders(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XXVI\.1 ANGLIA")
    last = seed.find(r"^Part", first) - 1
    records, country, kind = [], None, None
    for number, raw in seed.numbered(first, last):
        text = plain(raw)
        heading = re.match(r"^XXVI\.\d+ ([A-Z]+)$", text)
        if heading:
            country, kind = heading.group(1), None
            continue
        listed = LIST.match(text)
        if listed:
            kind = listed.group(1)
            continue
        for found in LEADER.finditer(text):
            records.append({
                "country": country, "list": kind, "name": leader_name(found["name"]), "lines": [number, number],
                "turns": [int(found["first"]), int(found["last"])] if found["first"] else None,
                "event": found["event"],
                # Missionaries have no rank; a monarch leading in person has no turns of its own.
                "rank": CYRILLIC.get(found["rank"], found["rank"]),
                "manoeuvre": int(found["m"]), "fire": int(found["f"]), "shock": int(found["s"]),
                "siege": int(found["siege"].replace(" ", "")) if found["siege"] else 0,
            })
    return records
