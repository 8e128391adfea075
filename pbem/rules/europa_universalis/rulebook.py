"""The rulebook's tables as data (`data/*.json`, written by `extract/` from the seed text),
each validated by its pydantic schema here. `load_rulebook()` reads them all once; every
record keeps the seed lines it was read from (`lines`: first and last, inclusive), so a
contested reading is checked against the text and mended in the patch list, not here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

DATA = Path(__file__).resolve().parent / "data"
#: The seven periods (II.4, L1051–1061) and the 62 turns of the Great Campaign.
PERIODS = ("I", "II", "III", "IV", "V", "VI", "VII")
TURNS = 62
#: The boxes of a diplomatic track (IV.3): royal marriage, subsidies, military access,
#: economic and military co-operation, vassal, annexation.
BOXES = ("RM", "SUB", "MA", "EC", "EW", "VA", "AN")
MAJOR_CODES = ("ANG", "FRA", "HIS", "POL", "POR", "RUS", "TUR", "VEN", "HOL", "SUE", "PRU", "AUS")


class RulebookError(Exception):
    """A data file that is missing or does not fit its schema; the message names the file."""


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(Record):
    lines: tuple[int, int]

    @field_validator("lines")
    @classmethod
    def _ordered(cls, lines: tuple[int, int]) -> tuple[int, int]:
        if not 1 <= lines[0] <= lines[1]:
            raise ValueError(f"lines {lines[0]}–{lines[1]} are not a range of the seed")
        return lines


class Clause(Sourced):
    clause: str = Field(pattern=r"^[A-Z](\.\d+)*$")
    text: str


class Monarch(Record):
    name: str
    adm: int = Field(ge=0, le=10)
    dip: int = Field(ge=0, le=10)
    mil: int = Field(ge=0, le=10)
    dies_turn: int = Field(ge=1, le=TURNS)
    next: str | None
    stability: int = Field(ge=-3, le=3)
    religion: str


class TrackEntry(Record):
    status: Literal[BOXES]
    minor: str
    special: bool = False


class Manufacture(Record):
    goods: str
    province: str


class TradeFleet(Record):
    zone: str = Field(pattern=r"^(CTZ|STZ) ")
    level: int = Field(ge=1, le=6)


class Force(Record):
    """Counters raised at the start (XXVII.1.1 §E), not yet placed (EU-I12)."""

    count: int = Field(ge=1)
    unit: Literal["A⊕", "A⊖", "LD", "ND", "NGD", "NTD", "NWD", "F⊕", "F⊖", "Pasha"]
    contents: str | None = None  # a fleet's detachments, "2NWD/1NTD"
    of: str | None = None  # whose or which kind, "LITUANIA", "Timarlar"


class MajorSetup(Sourced):
    country: str
    monarch: Monarch
    national: list[str] = Field(min_length=1)
    other: list[str]
    known_seas: list[str]
    diplomatic_track: list[TrackEntry]
    manufactures: list[Manufacture]
    fti: int = Field(ge=0)
    dti: int = Field(ge=0)
    treasury: int = Field(ge=0)
    trade_fleets: list[TradeFleet]
    land_tech: int = Field(ge=1)
    naval_tech: int = Field(ge=1)
    forces: list[Force] = Field(min_length=1)
    clauses: list[Clause]

    @property
    def provinces(self) -> list[str]:
        return self.national + self.other


class Transfer(Sourced):
    title: str
    country: str | None
    clauses: list[Clause] = Field(min_length=1)


class Income(Record):
    name: str
    income: int | None = Field(ge=0)  # None: lost in the seed (EU-I13)


class OtherIncome(Record):
    source: str
    income: int | None = Field(ge=0)


class Minor(Sourced):
    name: str = Field(pattern=r"^[A-ZÆ][A-ZÆ.' ]+$")
    title: str
    control: list[Literal[MAJOR_CODES]]
    boxes: dict[Literal[BOXES], int | None]
    fidelity: int | None = Field(ge=0)
    provinces: list[Income]
    other_income: list[OtherIncome]
    income: int | None = Field(ge=0)
    major: bool  # XXV.4: a minor that is, or becomes, a major power


class RotwMinor(Sourced):
    name: str = Field(pattern=r"^[A-ZÆ][A-ZÆ.' ]+$")
    title: str
    control: list[Literal[MAJOR_CODES]]
    fidelity: int | None = Field(ge=0)
    activation: str | None = Field(pattern=r"^\d+(/\d+)*$")  # per period or case, as printed
    other_income: list[OtherIncome]  # None: varies with exotic prices, or lost (EU-I13)
    income: int | None = Field(ge=0)
    variable: bool  # the total ends in "+?": the variable incomes come on top


class Leader(Sourced):
    country: str
    list: str
    name: str = Field(min_length=2)
    turns: tuple[int, int] | None  # in play from … to (turns), or
    event: str | None  # brought by this event; neither: a monarch leading in person
    rank: str | None = Field(pattern=r"^[A-Z]$")  # None: a missionary
    manoeuvre: int = Field(ge=0, le=9)
    fire: int = Field(ge=0, le=9)
    shock: int = Field(ge=0, le=9)
    siege: int

    @field_validator("turns")
    @classmethod
    def _within_the_game(cls, turns: tuple[int, int] | None) -> tuple[int, int] | None:
        if turns is not None and not 1 <= turns[0] <= turns[1] <= TURNS:
            raise ValueError(f"turns {turns[0]}–{turns[1]} are not turns of the game (1–{TURNS})")
        return turns


class EconomicEvent(Sourced):
    number: int = Field(ge=1, le=49)
    title: str
    times: int = Field(ge=1)
    tags: list[str]


class SubEvent(Record):
    letter: str = Field(pattern=r"^[α-μ]$")
    title: str
    line: int = Field(ge=1)


class NamedSubEvent(Record):
    letter: str
    title: str


class PoliticalEvent(Sourced):
    id: str = Field(pattern=r"^(I|II|III|IV|V|VI|VII)-(\d+|[A-Z])( \((\d+|FINAL)\))?$")
    period: Literal[PERIODS]
    title: str
    times: int | Literal["*"]  # boxes on its period's table; "*": as many as the table gives
    tags: list[str]
    written: bool  # False: tagged NotEvenWritten, no text
    subevents: list[SubEvent]
    names_subevents: list[NamedSubEvent]  # "subevent α (…)" in its text


class ContentsEntry(Sourced):
    event: str
    subevent: str | None
    title: str


class EventCell(Record):
    first: str = Field(pattern=r"^\d+(-\d+)?$")  # the first die's column, "1-4"
    second: int = Field(ge=1, le=9)  # the second die's row
    event: int = Field(ge=1)
    reroll: bool  # printed "R" before the number (III.6 §A)
    line: int


class EventTable(Sourced):
    """A period's table of political events (III.6); `ten_column` keeps the first die's 10
    column and the second die's row 10 as printed (another period's table, a fifth event)."""

    period: Literal[PERIODS]
    columns: list[str]
    cells: list[EventCell]
    ten_column: str


class Region(Sourced):
    name: str
    kind: Literal["land", "sea"]
    members: list[str]
    definition: str


class RevoltTarget(Record):
    country: str = Field(pattern=r"^[A-Z]{3}$")  # a major, or COL (the colonies)
    pseudo_stability: int | None  # a minor's or an entity's, printed in brackets


class GlobalRevolt(Sourced):
    """A row of table XVII.3: the 2d10 roll, the country struck in each period, the strength."""

    roll: int = Field(ge=2, le=20)
    targets: dict[Literal[PERIODS], RevoltTarget]
    strength: str


class RevoltOdds(Sourced):
    """The design note under table XVII.3: how often (in %) each country is struck in a period."""

    period: Literal[PERIODS]
    percent: dict[str, int]


class Objective(Sourced):
    """A period objective (XIV.4): its value as printed ("45 VPs", "10 per turn (max 30)");
    `main` is the (M) mark of the objectives whose failure costs their value."""

    country: str
    period: Literal[PERIODS]
    letter: Literal["A", "B", "C", "D", "E"]
    title: str = Field(min_length=2)
    main: bool
    value: str = Field(pattern=r"^[-\d/]+(\s*VPs?|\s+per\s)")
    condition: str


class NamedMonarch(Sourced):
    """A clause of a major's monarchs or ministers section (XV): the name and the ADM/DIP/MIL
    values when printed (None: rolled, III.2), with the clause as printed. A few clauses are
    rules about that country's monarchs rather than one monarch (their values are None)."""

    country: str
    section: str
    clause: str
    name: str
    values: tuple[int, int, int] | None
    text: str


class GroupEntry(Record):
    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    place: str


class RevoltGroup(Sourced):
    """A group of a revolt location table (XVII.2.3–10): the places a 1d10 picks among."""

    table: str
    group: str
    entries: list[GroupEntry] = Field(min_length=1)


class TradeCentre(Sourced):
    """A trade centre attributed by TF levels (XIII.2 §E–G) and the zones counted for it."""

    centre: str
    zones: list[str]  # "STZ Mer Ionienne", "CTZ VENETIA" …
    all_other_zones: bool  # the CC Atlantic: every STZ and CTZ the others do not count


class RevoltPlace(Record):
    label: str  # the column as printed, "SUE III-IV"
    country: str  # whose revolts it serves (COL: the colonies)
    periods: list[Literal[PERIODS]]
    place: str  # a group of `revolt_groups`, a province, a CTZ …


class RevoltLocation(Sourced):
    """A row of a per-country revolt location table (XVII.2.3–10): 1d10 + Stability → where."""

    table: str
    result: str = Field(pattern=r"^(<0|\d+)$")
    places: list[RevoltPlace] = Field(min_length=1)


R = TypeVar("R", bound=Record)


class Source(Record):
    file: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Table(Record, Generic[R]):
    table: str
    source: Source
    records: list[R]


class Rulebook(Record):
    setup_1492_majors: list[MajorSetup]
    setup_1492_minors: list[Clause]
    transfers: list[Transfer]
    minors: list[Minor]
    rotw_minors: list[RotwMinor]
    independent_kingdoms: list[Minor]
    habsburg_vassals: list[Minor]
    leaders: list[Leader]
    economic_events: list[EconomicEvent]
    political_events: list[PoliticalEvent]
    event_contents: list[ContentsEntry]
    event_tables: list[EventTable]
    regions: list[Region]
    trade_centres: list[TradeCentre]
    global_revolts: list[GlobalRevolt]
    revolt_odds: list[RevoltOdds]
    revolt_groups: list[RevoltGroup]
    revolt_locations: list[RevoltLocation]
    objectives: list[Objective]
    monarchs: list[NamedMonarch]

    def minor(self, name: str) -> Minor | None:
        return next((m for m in self.minors if m.name == name), None)

    def major(self, country: str) -> MajorSetup | None:
        return next((m for m in self.setup_1492_majors if m.country == country), None)


def read_table(path: Path, record: type[R]) -> Table[R]:
    try:
        return Table[record].model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise RulebookError(f"{path}: no such file (run python -m pbem.rules.europa_universalis.extract)") from None
    except json.JSONDecodeError as error:
        raise RulebookError(f"{path}: line {error.lineno}: {error.msg}") from None
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()[:5])
        raise RulebookError(f"{path}: {problems}") from None


def read_rulebook(folder: Path = DATA) -> Rulebook:
    """Every table of `folder`, each checked by its schema and all from the same seed."""
    tables = {name: read_table(folder / f"{name}.json", _record_type(name))
              for name in Rulebook.model_fields}
    seeds = sorted({table.source.sha256 for table in tables.values()})
    if len(seeds) > 1:
        raise RulebookError(f"{folder}: the tables come from different seeds ({', '.join(s[:12] for s in seeds)}); "
                            f"extract them again")
    return Rulebook(**{name: table.records for name, table in tables.items()})


def _record_type(table: str) -> type[Record]:
    annotation = Rulebook.model_fields[table].annotation
    return annotation.__args__[0]  # list[X] → X


@cache
def load_rulebook() -> Rulebook:
    """The shipped tables, read once."""
    return read_rulebook()
