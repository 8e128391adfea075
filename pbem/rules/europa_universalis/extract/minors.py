"""The minor countries of Europe and the minor/major countries (XXV.3–XXV.4): each minor's
name and title, its control preference list, the costs of its diplomatic boxes, fidelity,
and its provinces with their incomes (research §7)."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed
from pbem.rules.europa_universalis.extract.text import plain

MAJORS = ("ANG", "FRA", "HIS", "POL", "POR", "RUS", "TUR", "VEN", "HOL", "SUE", "PRU", "AUS")
HEADING = r"^[A-ZÆ][A-ZÆ.' ]+[A-ZÆ.]\t"
BOX = re.compile(r"\b(RM|SUB|MA|EC|EW|VA|AN): (\d+|[*⋆★+]|\\star)")
PROVINCE = re.compile(r"([^,•\[\]]+?) \[(\d+|\?)\]")


def _amount(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def provinces(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int | None]:
    """"Provinces: A [3], B [5] Other income: • X [7] Income: 15" → provinces, other incomes, total."""
    listed, _, total = text.removeprefix("Provinces:").rpartition("Income:")
    own, _, other = listed.partition("Other income:")
    found = re.match(r"\s*(\d+)", total)
    return ([{"name": name.strip(), "income": _amount(value)} for name, value in PROVINCE.findall(own)],
            [{"source": name.strip(), "income": _amount(value)} for name, value in PROVINCE.findall(other)],
            int(found.group(1)) if found else None)


def control_list(line: str) -> list[str]:
    """The majors of a "Control:" line in order of preference; a major printed twice (GENUA,
    REZANE) keeps its first place, and the major left out is not guessed (EU-I14)."""
    # A column break may tear a code in two ("HO\tL").
    line = re.sub(r"(?<=\b[A-Z]{2})\t(?=[A-Z]\b)|(?<=\b[A-Z])\t(?=[A-Z]{2}\b)", "", line)
    codes = [code for code in re.findall(r"\b[A-Z]{3}\b", plain(line).split(":", 1)[-1]) if code in MAJORS]
    return list(dict.fromkeys(codes))


def european_minors(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XXV\.3 Minor countries of Europe")
    return _minors(seed, first, seed.find(r"^XXV\.5 ", first) - 1, seed.find(r"^XXV\.4 ", first))


def independent_kingdoms(seed: Seed) -> list[dict[str, Any]]:
    """XXV.6, the potential independent kingdoms (its heading is lost: it starts with BELGICA).
    FINLANDIA's and NORVEGIA's blocks are lost in the repeats of their neighbours' lines."""
    first = seed.find(r"^BELGICA\t")
    last = seed.find(r"^XXV\.7 ", first) - 1
    return _minors(seed, first, last, last + 1)


def habsburg_vassals(seed: Seed) -> list[dict[str, Any]]:
    """XXV.7, the Habsburg vassal kingdoms a Habsburg power may create (no preference list)."""
    first = seed.find(r"^XXV\.7 Habsburg vassal kingdoms")
    last = seed.find(r"^XXV\.8 ", first) - 1
    return _minors(seed, first, last, last + 1)


def _minors(seed: Seed, first: int, last: int, minor_major: int) -> list[dict[str, Any]]:
    """The minors whose headings are in lines `first`…`last`; those from `minor_major` on are
    minor/major countries (XXV.4)."""
    records = []
    for span in seed.blocks(first, last, HEADING):
        head, *rest = span.text.split("\n")
        name, title = head.split("\t", 1)
        body = [plain(line) for line in rest if line.strip()]
        control = next((line for line in rest if line.lower().startswith("control:")), "")
        boxes = next((line for line in body if BOX.search(line)), "")
        fidelity = re.search(r"Fidelity: (\d+)", "\n".join(body))
        listed = next((i for i, line in enumerate(body) if line.startswith("Provinces:")), None)
        owned, other, income = ([], [], None) if listed is None else \
            provinces(" ".join(body[listed:listed + 2]) if "Income:" not in body[listed] else body[listed])
        records.append({
            "name": name.strip(), "title": title.strip(), "lines": span.lines,
            "control": control_list(control),
            "boxes": {box: _amount(value) for box, value in BOX.findall(boxes)},
            "fidelity": int(fidelity.group(1)) if fidelity else None,
            "provinces": owned, "other_income": other, "income": income,
            # XXV.4: a minor in 1492 that is, or becomes, a major power.
            "major": span.first > minor_major,
        })
    return records


def rotw_minors(seed: Seed) -> list[dict[str, Any]]:
    """The minor countries of the ROTW (XXV.5): name, title, control list, fidelity, activation
    level, and their incomes, each a source ("Provinces of ADEN", "TF lv. 2 in STZ …") with its
    value — `null` where it varies with exotic prices ("[variable]") or is lost — and the printed
    total, `variable` when it ends in "+?"."""
    first = seed.find(r"^XXV\.5 Minor countries of ROTW")
    last = seed.find(r"^Independent Kingdom of Belgium|\tIndependent Kingdom of Belgium", first) - 1
    records = []
    for span in seed.blocks(first, last, HEADING):
        head, *rest = span.text.split("\n")
        name, title = head.split("\t", 1)
        body = " ".join(plain(line) for line in rest)
        control = next((line for line in rest if line.lower().startswith("control:")), "")
        fidelity = re.search(r"Fidelity: (\d+)", body)
        activation = re.search(r"Activation level: ([\d/]+)", body)
        other = body.split("Other income:", 1)[1] if "Other income:" in body else ""
        listed, _, total = other.partition("Income:")
        items = [re.match(r"^(.*?)\s*\[(\d+|variable|\?)\]", item.strip()) for item in listed.split("•")]
        found = re.match(r"\s*(\d+)(\+\?)?", total)
        records.append({
            "name": name.strip(), "title": title.strip(), "lines": span.lines, "control": control_list(control),
            "fidelity": int(fidelity.group(1)) if fidelity else None,
            "activation": activation.group(1) if activation else None,
            "other_income": [{"source": item.group(1), "income": _amount(item.group(2))} for item in items if item],
            "income": int(found.group(1)) if found else None,
            "variable": bool(found and found.group(2)),
        })
    return records
