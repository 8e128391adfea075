"""The trade centres attributed by trade (XIII.2 §E–G): the STZ and CTZ whose TF levels decide
each (the country with most levels in them, §D). The CC Grand Orient, which stays in ÆGYPTUS
(§B), is attributed by no zones and is not a record."""

from __future__ import annotations

import re
from typing import Any

from pbem.rules.europa_universalis.extract.seed import Seed, Span
from pbem.rules.europa_universalis.extract.setup import clauses

ZONE = re.compile(r"\b(STZ|CTZ) ([^,]+?)(?=,| and |\.$|$)")


def trade_centres(seed: Seed) -> list[dict[str, Any]]:
    first = seed.find(r"^XIII\.2 Trade centres")
    last = seed.find(r"^XIII\.3 ", first) - 1
    records = []
    for clause in clauses(seed, Span(first, last, "")):
        found = re.match(r"^(?:(?P<name>[A-Z][a-z]+) )?The (?P<centre>CC [A-Z][a-zé]+) is attributed to the country with "
                         r"the largest number of TF levels in (?P<zones>.+)$", clause["text"])
        if not found:
            continue
        others = found["zones"].startswith("all other")
        zones = [] if others else [f"{kind} {name.strip()}" for kind, name in
                                   ZONE.findall(found["zones"].replace("STZ ", ", STZ ").replace("CTZ ", ", CTZ "))]
        records.append({"centre": found["centre"], "zones": zones, "all_other_zones": others, "lines": clause["lines"]})
    return records
