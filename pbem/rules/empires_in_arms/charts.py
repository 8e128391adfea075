"""The charts land movement and supply read (research §4.1, §4.3), as scenario data.

The printed Terrain Effects Chart is not in the rules text, but every number these charts
hold is given by the text itself (§7.3.1, §7.4.1.2, §7.4.2.1), so the defaults are the
rulebook's and a scenario (or a case) may bring its own table of the same shape.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

#: Factor types (research §3): regular infantry, militia, regular cavalry, guard, artillery.
FACTOR_TYPES = ("INF", "MIL", "CAV", "GRD", "ART")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MovementChart(Strict):
    """§7.3.1: allowances by kind of corps, entry cost by terrain, and the extras."""

    allowance: dict[str, int] = Field(default_factory=lambda: {"infantry": 3, "french-infantry": 4, "cavalry": 5})
    terrain_cost: dict[str, int] = Field(
        default_factory=lambda: {"clear": 1, "forest": 1, "desert": 1, "marsh": 2, "mountain": 2})
    river_into_enemy: int = 1  # §7.3.1.3.2: only into an area with unbesieged enemy corps
    force_march: int = 1  # §7.3.1.2
    synthetic: bool = False


class ForageChart(Strict):
    """§7.4.1.2: the forage die's modifiers, and the order forage losses are taken in."""

    per_other_corps: int = 1  # §7.4.1.2.1
    other_corps_max: int = 2
    per_unused_mp: int = -1  # §7.4.1.2.2
    force_marched: int = 1  # §7.4.1.2.3
    winter: int = 2  # §7.4.1.2.4
    own_territory: int = -1  # §7.4.1.2.5
    # §7.4.1.3 leaves the choice to the owner; EIA-I6: the cheapest factors go first.
    loss_order: list[str] = Field(default_factory=lambda: ["MIL", "INF", "CAV", "ART", "GRD"])
    synthetic: bool = False


class SupplyChart(Strict):
    """§7.2 and §7.4.2.1: depot costs, in half money points so no fraction is ever stored."""

    depot_price: int = 1  # §7.2: one money point per depot placed
    chain_gap: int = 2  # §7.2.3.2: depots no more than two areas apart
    in_depot_area_halves: int = 1  # §7.4.2.1.1: half a money point
    per_area_halves: int = 2  # one money point per area away
    furthest: int = 3  # §7.4.1: four or more areas away must forage
    winter_multiplier: int = 2  # §7.4.2.1.3
    depot_limit: int = 10  # the counter mix (synthetic)
    corps_per_depot: int = 4  # option 12.3.1: the corps one depot may supply
    synthetic: bool = False


class Charts(Strict):
    movement: MovementChart = MovementChart()
    forage: ForageChart = ForageChart()
    supply: SupplyChart = SupplyChart()
