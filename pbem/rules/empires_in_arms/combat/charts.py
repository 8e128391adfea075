"""The combat charts of the Game Card as data (research §4.1): none is printed in the rulebook
file, so each is a table a GM types in from the card, shaped like it, and the shipped
`charts/synthetic.toml` is a stand-in of the same shape (`synthetic = true`) that keeps every
number the text and its worked examples give (research §4.13).

Tables are indexed as the cards index them; a modified die beyond a table's rows reads the
nearest row (EIA-I54).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pbem.core.datafile import merged
from pbem.rules.empires_in_arms.combat.models import Morale

SYNTHETIC = Path(__file__).parent / "charts" / "synthetic.toml"
TABLE_NAME = r"^[1-5]-[1-5]$"


class ChartError(ValueError):
    """A chart file that cannot be used; the message names the place."""


class Chart(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)


class Operation(Chart):
    """One cell of the OPERATIONAL POSSIBILITIES CHART (§7.5.2.4, §7.5.2.7): the tables "C-M"
    for rounds 1–3 of a day, for the attacker (`a`) and the defender (`d`), their river
    variants (§7.5.2.7.1) and the "2nd" set once an outflank arrives (§7.5.2.7.2); the notes
    that change morale (§7.5.2.6.2) and strategic ratings (§7.5.2.5.2.2, §7.5.2.12.1.1)."""

    attacker: str
    defender: str
    a: tuple[str, str, str]
    d: tuple[str, str, str]
    river_a: tuple[str, str, str] | None = None
    river_d: tuple[str, str, str] | None = None
    second_a: tuple[str, str, str] | None = None
    second_d: tuple[str, str, str] | None = None
    attacker_morale: Morale = "0.0"
    defender_morale: Morale = "0.0"
    withdraw_sr: int = 0
    outflank_sr: int = 0

    @model_validator(mode="after")
    def _tables(self) -> Operation:
        for name in ("a", "d", "river_a", "river_d", "second_a", "second_d"):
            for table in getattr(self, name) or ():
                if not re.match(TABLE_NAME, table):
                    raise ValueError(f"{self.attacker}/{self.defender} {name}: {table!r} is no table \"C-M\" (1–5)")
        return self


class CombatTable(Chart):
    """One table of the COMBAT RESOLUTION CHART: per modified die from `first_die`, the
    percentage loss inflicted (of the roller's own factors) and the morale loss inflicted."""

    loss: tuple[int, ...]
    morale: tuple[Morale, ...]

    @model_validator(mode="after")
    def _same_length(self) -> CombatTable:
        if len(self.loss) != len(self.morale) or not self.loss:
            raise ValueError("loss and morale need one entry per die, as many of each")
        return self


class PursuitBand(Chart):
    """A line of the PURSUIT CLASS TABLE: the victor's total morale loss from `low` to
    `high` (inclusive), the class for 1, 2 and 3+ rounds (§7.5.2.10.2.1)."""

    low: Morale
    high: Morale
    classes: tuple[int, int, int]


class Pursuit(Chart):
    """The PURSUIT TABLE: a percentage per modified die (rows from `first_die`) and class."""

    first_die: int = 1
    classes: tuple[int, ...] = Field(min_length=1)
    rows: tuple[tuple[int, ...], ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _columns(self) -> Pursuit:
        if any(len(row) != len(self.classes) for row in self.rows):
            raise ValueError("each row has one percentage per class")
        return self


class Casualties(Chart):
    """The CASUALTY PERCENTAGE TABLE: per percentage, the losses for 1..20 factors."""

    percents: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]

    @model_validator(mode="after")
    def _shape(self) -> Casualties:
        if len(self.rows) != len(self.percents) or any(len(row) != 20 for row in self.rows):
            raise ValueError("one row of 20 columns (1..20 factors) per percentage")
        return self


class Commander(Chart):
    """The COMMANDER CHART: the attacker's tactical rating (row) against the defender's
    (column), giving [attacker, defender] die modifiers."""

    ratings: int = Field(7, ge=1)
    grid: tuple[tuple[tuple[int, int], ...], ...]

    @model_validator(mode="after")
    def _square(self) -> Commander:
        if len(self.grid) != self.ratings or any(len(row) != self.ratings for row in self.grid):
            raise ValueError(f"the grid has {self.ratings} rows of {self.ratings} cells "
                             f"(ratings 0..{self.ratings - 1})")
        return self


class Siege(Chart):
    """The SIEGE TABLE (§7.5.4.1): a result per modified die from `first_die`."""

    first_die: int
    results: tuple[Literal["sortie", "nr", "breach"], ...] = Field(min_length=1)


class Guard(Chart):
    """The GUARD COMMITMENT TABLE (option 12.3.4.4): guard factors lost per die 1–6."""

    plus_one: tuple[int, int, int, int, int, int]
    plus_two: tuple[int, int, int, int, int, int]


class NationalMorale(Chart):
    """The NATIONAL MORALE VALUES CHART as far as the text gives it (§7.5.2.6.1)."""

    basic: dict[str, Morale]
    guard: Morale = "5.0"
    militia: Morale = "2.0"
    irregular: Morale = "1.0"


class Charts(Chart):
    synthetic: bool
    attacker_chits: tuple[str, ...]
    defender_chits: tuple[str, ...]
    pursuit_class: tuple[PursuitBand, ...] = Field(min_length=1)
    opc: tuple[Operation, ...]
    crc_first_die: int
    crc: dict[str, CombatTable]
    casualties: Casualties
    pursuit: Pursuit
    commander: Commander
    siege: Siege
    guard: Guard
    morale: NationalMorale

    @model_validator(mode="after")
    def _complete(self) -> Charts:
        pairs = {(op.attacker, op.defender) for op in self.opc}
        missing = [f"{a}/{d}" for a in self.attacker_chits for d in self.defender_chits if (a, d) not in pairs]
        if missing:
            raise ValueError(f"the operational possibilities chart lacks {', '.join(missing)}")
        tables = [f"{c}-{m}" for c in range(1, 6) for m in range(1, 6)]
        absent = [t for t in tables if t not in self.crc]
        if absent:
            raise ValueError(f"the combat resolution chart lacks tables {', '.join(absent)}")
        if "outflank" not in self.attacker_chits or "withdraw" not in self.defender_chits:
            raise ValueError("the chit sets need the attacker's outflank and the defender's withdraw (§7.5.2.1)")
        strays = sorted({f"{op.attacker}/{op.defender}" for op in self.opc} - {f"{a}/{d}" for a, d in pairs
                                                                                if a in self.attacker_chits
                                                                                and d in self.defender_chits})
        if strays:
            raise ValueError(f"the operational possibilities chart names chits outside the sets: {', '.join(strays)}")
        percents = {p for table in self.crc.values() for p in table.loss}
        percents |= {p for row in self.pursuit.rows for p in row}
        unknown = sorted(p for p in percents - set(self.casualties.percents) if p)
        if unknown:
            raise ValueError(f"the casualty percentage table has no row for {', '.join(f'{p}%' for p in unknown)}")
        return self

    # -- look-ups ---------------------------------------------------------------------
    def operation(self, attacker: str, defender: str) -> Operation:
        return next(op for op in self.opc if op.attacker == attacker and op.defender == defender)

    def resolve(self, table: str, die: int) -> tuple[int, int]:
        """(percent loss, morale loss in tenths) of `table` for a modified `die` (EIA-I54)."""
        entry = self.crc[table]
        row = min(max(die - self.crc_first_die, 0), len(entry.loss) - 1)
        return entry.loss[row], entry.morale[row]

    def casualty(self, percent: int, factors: int) -> int:
        """Factors lost to `percent` of `factors` (§7.5.2.9.2): counts above 20 are taken in
        chunks of 20 and summed (§6.3.3.4, EIA-I55)."""
        if percent <= 0 or factors <= 0:
            return 0
        if percent not in self.casualties.percents:
            raise ChartError(f"the casualty percentage table has no {percent}% row")
        row = self.casualties.rows[self.casualties.percents.index(percent)]
        whole, rest = divmod(factors, 20)
        return whole * row[19] + (row[rest - 1] if rest else 0)

    def class_of_pursuit(self, victor_loss: int, rounds: int) -> int:
        column = min(max(rounds, 1), 3) - 1
        for band in self.pursuit_class:
            if band.low <= victor_loss <= band.high:
                return band.classes[column]
        return self.pursuit_class[-1].classes[column]

    def pursuit_percent(self, column: int, die: int) -> int:
        rows = self.pursuit.rows
        row = rows[min(max(die - self.pursuit.first_die, 0), len(rows) - 1)]
        return row[self.pursuit.classes.index(column)]

    def commander_modifiers(self, attacker_tr: int, defender_tr: int) -> tuple[int, int]:
        top = self.commander.ratings - 1
        return self.commander.grid[min(attacker_tr, top)][min(defender_tr, top)]

    def siege_result(self, die: int) -> str:
        results = self.siege.results
        return results[min(max(die - self.siege.first_die, 0), len(results) - 1)]


def load_charts(path: Path | str) -> Charts:
    """The charts in a TOML file, or a `ChartError` that says what is wrong where."""
    return charts_from(_chart_data(Path(path)), str(path))


def _chart_data(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ChartError(f"{path}: cannot read it ({error})") from None


def charts_over_shipped(data: dict, where: str = "combat_charts") -> Charts:
    """A scenario's charts laid over the shipped ones (`datafile.merged`): a table it names
    (a CRC table, the siege chart …) replaces or extends the shipped one key by key, a list
    (the OPC's rows) replaces it whole; what it leaves out stays the shipped chart's."""
    return charts_from(merged(_shipped_data(), data), where)


@cache
def _shipped_data() -> dict:
    return _chart_data(SYNTHETIC)


def charts_from(data: dict, where: str = "charts") -> Charts:
    try:
        return Charts.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        raise ChartError(f"{where}: {problems}") from None


@cache
def synthetic_charts() -> Charts:
    """The shipped stand-in charts (`synthetic = true`)."""
    return load_charts(SYNTHETIC)
