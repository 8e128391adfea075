"""The rulebook's data extracted from the seed text (research §7), reproducibly:
`python -m pbem.rules.europa_universalis.extract [SEED]` reads the seed, applies the patch
list (patches.toml) and writes one JSON file per table into `../data/`, each record with the
seed lines it was read from. Running it again on the same seed writes the same bytes
(tests/rules/europa_universalis/test_extract.py checks this when the seed is at hand).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.rules.europa_universalis.extract import (
    events, leaders, minors, monarchs, objectives, regions, revolts, setup, trade,
)
from pbem.rules.europa_universalis.extract.seed import Seed, read_patches

DATA = Path(__file__).resolve().parent.parent / "data"
SEED_NAME = "004_99cca21b4b336e4a.txt"
#: Where the seed is looked for when none is named: beside the project, as the team keeps it.
SEED_PLACES = (Path(__file__).resolve().parents[4].parent / "shared" / "seeds", Path("/work/shared/seeds"))

#: Each table's file name and the extractor that reads it from the seed.
TABLES: dict[str, Callable[[Seed], list[dict[str, Any]]]] = {
    "setup_1492_majors": setup.majors_1492,
    "setup_1492_minors": setup.minors_1492,
    "transfers": setup.transfers,
    "minors": minors.european_minors,
    "rotw_minors": minors.rotw_minors,
    "independent_kingdoms": minors.independent_kingdoms,
    "habsburg_vassals": minors.habsburg_vassals,
    "leaders": leaders.leaders,
    "economic_events": events.economic_events,
    "political_events": events.political_events,
    "event_contents": events.contents,
    "event_tables": events.event_tables,
    "regions": regions.europe,
    "trade_centres": trade.trade_centres,
    "global_revolts": revolts.global_revolts,
    "revolt_odds": revolts.revolt_odds,
    "revolt_groups": revolts.revolt_groups,
    "revolt_locations": revolts.revolt_locations,
    "objectives": objectives.objectives,
    "monarchs": monarchs.monarchs,
}


def find_seed() -> Path | None:
    return next((place / SEED_NAME for place in SEED_PLACES if (place / SEED_NAME).is_file()), None)


def render(seed: Seed, table: str, records: list[dict[str, Any]]) -> str:
    document = {"table": table, "source": {"file": seed.name, "sha256": seed.sha256}, "records": records}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def extract(seed_path: Path) -> dict[str, str]:
    """Every table's file name and the text it holds, read from `seed_path`."""
    seed = Seed(seed_path, read_patches())
    return {f"{table}.json": render(seed, table, read(seed)) for table, read in TABLES.items()}
