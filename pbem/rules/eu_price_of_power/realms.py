"""The realms of EU: The Price of Power as data: the Player Mat every PR keeps (§3, §7),
each Player Realm's start (its Setup Card, §3 step 3) and the Non-Player Realms (§13).

The Player Mat's printed track values are not in the rulebook. What it says of them — 20
Small and 8 Large Towns one to a slot, 1 Vassal token on the first spot and 2 on each other
(§3), values growing as pieces leave the track (§7.5) — is what `check_mat` holds a mat to;
the synthetic mat's values follow EUPOP-I58 (a Small Town 1 Tax Income, a Large Town 2,
Manpower half of each track's income).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from pbem.rules.eu_price_of_power.cards import Character
from pbem.rules.eu_price_of_power.effects import Religion
from pbem.rules.eu_price_of_power.sources import Source, Strict

_TAG = r"^[A-Z]{3}$"


class Spot(Strict):
    """A spot of a track: the pieces it holds at the start, and the Tax Income and Manpower
    it shows once they have all been placed on the map (§7.5: "the highest uncovered
    numbers")."""

    holds: int = Field(1, ge=1)
    income: int = Field(ge=0)
    manpower: int = Field(ge=0)


class Track(Strict):
    spots: list[Spot] = Field(min_length=1)
    synthetic: bool = False  # the printed values are not in the rulebook (EUPOP-I58)

    @property
    def pieces(self) -> int:
        return sum(spot.holds for spot in self.spots)

    def shown(self, placed: int) -> tuple[int, int]:
        """Tax Income and Manpower shown with `placed` pieces taken off the track, lowest
        spots first (§3, §7.5)."""
        income = manpower = 0
        for spot in self.spots:
            if placed < spot.holds:
                break
            placed -= spot.holds
            income, manpower = spot.income, spot.manpower
        return income, manpower


class StabilityLevel(Strict):
    """What a Stability level does each Round, as its track shows (§7.3): Tax Income in
    Phase 4B, Unrest in Phase 3H, Monarch Power in Phase 4D."""

    level: int = Field(ge=-3, le=3)
    income: int = 0
    unrest: Literal["may_remove", "must_add"] | None = None
    monarch_power: int = 0


class Mat(Strict):
    small_towns: Track
    large_towns: Track
    vassals: Track
    stability: list[StabilityLevel]
    source: Source  # the Stability track's effects (§7.3)


#: The pieces a track holds at the start (§3: "20 Small and 8 Large … (1 in each slot)",
#: "1 … on the first spot of their Vassal Track, and 2 … in every other spot").
TRACK_PIECES = {"small_towns": 20, "large_towns": 8, "vassals": 19}


def check_mat(mat: Mat) -> list[str]:
    """Holes in the mat's tables: pieces the rulebook does not give, Town slots holding more
    than one, a first Vassal spot that is not 1 token and the others 2, values that fall as more pieces are placed, and
    Stability levels missing or given twice."""
    problems = []
    for name, pieces in TRACK_PIECES.items():
        track: Track = getattr(mat, name)
        if track.pieces != pieces:
            problems.append(f"mat {name}: its spots hold {track.pieces} pieces, not {pieces} (§3)")
        for before, after in zip(track.spots, track.spots[1:]):
            if after.income < before.income or after.manpower < before.manpower:
                problems.append(f"mat {name}: a later spot shows less than an earlier one (§7.5: income grows as "
                                "pieces are placed)")
                break
    problems += [f"mat {name}: one Town to a slot (§3)" for name in ("small_towns", "large_towns")
                 if any(spot.holds != 1 for spot in getattr(mat, name).spots)]
    holds = [spot.holds for spot in mat.vassals.spots]
    if holds[:1] != [1] or any(h != 2 for h in holds[1:]):
        problems.append("mat vassals: 1 token on the first spot and 2 on each other (§3)")
    levels = sorted(level.level for level in mat.stability)
    if levels != list(range(-3, 4)):
        problems.append(f"mat stability: give each level from -3 to +3 once (§7.3), not {levels}")
    return problems


class Army(Strict):
    area: str
    infantry: int = Field(0, ge=0)
    cavalry: int = Field(0, ge=0)
    artillery: int = Field(0, ge=0)
    mercenaries: int = Field(0, ge=0)  # Mercenary Infantry from the General Supply (§3 step 3)


class Fleet(Strict):
    """Ships in a Sea Zone or a Port (a Province), or on Trade Protection slots (§3 step 3)."""

    at: str
    light: int = Field(0, ge=0)
    heavy: int = Field(0, ge=0)
    galleys: int = Field(0, ge=0)
    protecting: int = Field(0, ge=0)  # of the Light Ships, those on the zone's Trade Protection slots


class PlayerRealm(Strict):
    """A PR at the start: its Setup Card (Provinces with Towns, Ruler, units, §3 step 3) and
    what the scenario changes of the standard start (§3 step 2: 3 of each Monarch Power, 15
    Ducats, Stability 0; §12.4: 2 Merchants)."""

    tag: str = Field(pattern=_TAG)
    name: str
    capital: str  # a Province
    religion: Religion
    towns: list[str] = Field(min_length=1)  # Provinces with its Towns (Large on a Large Province)
    vassals: list[str] = []  # Provinces with its Vassal tokens
    ruler: Character
    armies: list[Army] = Field([], max_length=3)  # §9: 3 Army miniatures
    fleet: Fleet | None = None  # §9: 1 Fleet
    merchants: list[str] = Field([], max_length=3)  # the nodes of its Merchants (§12.4)
    influence: dict[str, int] = {}  # Influence by Area
    claims: list[str] = []  # Areas with its Claims
    cores: list[str] = []  # Areas with its Core tokens
    ducats: int = Field(15, ge=0)
    adm: int = Field(3, ge=0, le=10)
    dip: int = Field(3, ge=0, le=10)
    mil: int = Field(3, ge=0, le=10)
    stability: int = Field(0, ge=-3, le=3)
    prestige: int = 0
    missions: list[str] = []  # its Mission deck (§17.2)
    synthetic: bool = False

    @model_validator(mode="after")
    def _capital_held(self) -> PlayerRealm:
        if self.capital not in self.towns:
            raise ValueError(f"realm {self.tag}: its capital {self.capital} carries one of its Towns")
        return self


class NonPlayerRealm(Strict):
    """An NPR (§13): its Provinces, religion, overlord if it is another NPR's Vassal (§13.2),
    its DNPR colour (§13.3), its +1 Manpower tokens (§13.4) and the PR it is allied to."""

    tag: str = Field(pattern=_TAG)
    name: str
    capital: str
    provinces: list[str] = Field(min_length=1)
    religion: Religion | None = None  # None: not given (the Realm Player Aid is missing, §15.2)
    overlord: str | None = None
    dnpr: str | None = None
    manpower: list[str] = []  # Provinces with a +1 Manpower token
    ally: str | None = None  # the PR whose Alliance token is on its Capital
    synthetic: bool = False

    @model_validator(mode="after")
    def _capital_held(self) -> NonPlayerRealm:
        if self.capital not in self.provinces:
            raise ValueError(f"realm {self.tag}: its capital {self.capital} is one of its provinces")
        return self
