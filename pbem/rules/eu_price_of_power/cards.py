"""The cards of EU: The Price of Power as data: Action Cards (§6), Events (§16), Missions
(§17.2), Milestones (§17.3), Ideas (§8) and Trade Cards (§12.1), each shaped like its
"Anatomy" in the rulebook and doing what it does in the effect language (`effects.py`).

A card is either read from the rulebook — it carries its `source`, and whatever the
rulebook leaves out of it is None and named in `source.gaps` — or invented and marked
`synthetic`, and then complete. A GM who owns the game replaces the synthetic cards by
typing the real ones in the same shape.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from pbem.rules.eu_price_of_power.effects import Ability, Amount, BattleDie, Condition, Deck, Effect
from pbem.rules.eu_price_of_power.sources import Source, Strict

#: A card's type icons (§6.2): Reaction, Battle Action, Covert Action, Display Card.
Keyword = Literal["reaction", "battle", "covert", "display"]
#: What a Reaction answers (§5.2 Reactions, §6.2): a Covert Action being taken
#: (Counterespionage), an Army in the realm attacked (Appoint a General), the Ruler
#: discarded (Appoint a Ruler), a war declared on the realm or its NPR Ally (Call to Arms).
Trigger = Literal["covert_action", "attacked_in_realm", "ruler_discarded", "declaration_of_war"]
#: The secondary symbols of an Event, resolved left to right (§16.5).
SymbolKind = Literal["mortality", "unrest", "native_uprising", "lost_at_sea", "pirates", "cardinal_dies",
                     "attrition", "disloyal_vassals", "dnpr_expansion", "spread_religion", "spread_revolution",
                     "power_struggle"]
MilestoneCategory = Literal["expansion", "politics", "warfare", "economics"]  # §17.3


class _Card(Strict):
    #: What a card read from the rulebook may leave unknown (None) and a synthetic one gives.
    REQUIRED: ClassVar[tuple[str, ...]] = ()

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
    title: str
    source: Source | None = None
    synthetic: bool = False

    @model_validator(mode="after")
    def _sourced_or_synthetic(self) -> _Card:
        if (self.source is None) == (not self.synthetic):
            raise ValueError("a card is read from the rulebook (give its source) or invented (synthetic = true)")
        missing = [name for name in self.REQUIRED if getattr(self, name) in (None, [])]
        if self.synthetic and missing:
            raise ValueError(f"card {self.id}: a synthetic card gives its {', '.join(missing)}")
        if self.source is not None and missing and not self.source.gaps:
            raise ValueError(f"card {self.id}: its source names what the rulebook does not give ({', '.join(missing)})")
        return self


class Character(Strict):
    """The character in an Action Card's lower section, or an Event's historical Ruler (§7.2):
    a Leader (round portrait: a Ruler's skills, a General's dice and cost) or an Advisor
    (square portrait: a skill of one type, hired and kept for Ducats)."""

    name: str
    portrait: Literal["leader", "advisor"]
    adm: int | None = Field(None, ge=0)  # a Leader's skill as Ruler, each type (§7.1); None: not given
    dip: int | None = Field(None, ge=0)
    mil: int | None = Field(None, ge=0)
    dice: list[BattleDie] = []  # Battle Dice as General or Admiral (§7.2)
    general_cost: int | None = Field(None, ge=1, le=2)  # MIL to appoint as General or Admiral (§7.2: 1 or 2)
    advisor: Deck | None = None  # an Advisor's type and skill bonus (§7.2)
    bonus: int | None = Field(None, ge=0)
    cost: int | None = Field(None, ge=0)  # Ducats to appoint and each Round to keep an Advisor (§7.2, §4.4B)
    mortality: list[str] = []  # the icons beside the portrait that Events' symbols match (§16.5)
    ill_health: int = Field(0, ge=0, le=1)  # a historical Ruler may start with 1 (§7.2)

    @model_validator(mode="after")
    def _portrait(self) -> Character:
        if self.portrait == "leader" and (self.advisor is not None or self.bonus is not None):
            raise ValueError(f"leader {self.name}: a Leader has skills and dice, not an Advisor's type (§7.2)")
        if self.portrait == "advisor" and any(v is not None for v in (self.adm, self.dip, self.mil)):
            raise ValueError(f"advisor {self.name}: an Advisor has one type and bonus, not a Ruler's skills (§7.2)")
        return self

    @property
    def complete(self) -> bool:
        """Every number its portrait calls for is given."""
        if self.portrait == "advisor":
            return None not in (self.advisor, self.bonus, self.cost)
        return None not in (self.adm, self.dip, self.mil)


class DisplayAction(Strict):
    """An Action printed on a Display Card, available while the card is in play (§6.2)."""

    name: str
    cost: int | None = Field(None, ge=0)  # Monarch Power of the card's deck type
    ducats: int = Field(0, ge=0)
    uses: int = Field(1, ge=1)  # the cubes one use removes from the card
    keywords: list[Keyword] = []
    reacts_to: Trigger | None = None
    requires: list[Condition] = []
    effects: list[Effect] = []


class ActionCard(_Card):
    """§6: a card of the Administrative, Diplomatic or Military deck, played for its Action
    or for its character (Appoint)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("deck", "cost", "character")
    deck: Deck | None = None
    cost: int | None = Field(None, ge=0)  # Monarch Power of the deck's type (§6)
    ducats: int = Field(0, ge=0)
    keywords: list[Keyword] = []
    reacts_to: Trigger | None = None
    requires: list[Condition] = []
    effects: list[Effect] = []
    uses: int | None = Field(None, ge=1)  # a Display Card's squares, charged with cubes when played (§6.2)
    actions: list[DisplayAction] = []
    character: Character | None = None
    copies: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _display(self) -> ActionCard:
        display = "display" in self.keywords
        if display and self.synthetic and (not self.actions or self.uses is None):
            raise ValueError(f"card {self.id}: a Display Card has uses and the Actions it makes available (§6.2)")
        if not display and (self.actions or self.uses is not None):
            raise ValueError(f"card {self.id}: only a Display Card has uses and Actions on display (§6.2)")
        if self.synthetic and self.character is not None and not self.character.complete:
            raise ValueError(f"card {self.id}: a synthetic card's character gives every number of its portrait")
        return self


class Symbol(Strict):
    kind: SymbolKind
    mark: str | None = None  # a mortality symbol's icon (§16.5 Character Mortality)
    colour: str | None = None  # a DNPR Expansion symbol's colour (§16.5)

    @model_validator(mode="after")
    def _marked(self) -> Symbol:
        if (self.kind == "mortality") != (self.mark is not None):
            raise ValueError("a mortality symbol, and only it, names its icon (mark)")
        if (self.kind == "dnpr_expansion") != (self.colour is not None):
            raise ValueError("a DNPR Expansion symbol, and only it, names its colour")
        return self


class EventCard(_Card):
    """§16: an Event of an Age: an A-Event, a B-Event, or a Realm-specific Event with the
    realm's flag (§16.1; the printed id's first digit is the Age, an A or a B its type)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("half",)
    age: int = Field(ge=1, le=4)
    kind: Literal["A", "B", "realm"]
    half: Literal["1", "2", "X"] | None = None  # the sort order indicator (§16, Optional Rule 6)
    realm: str | None = None
    effects: list[Effect] = []
    symbols: list[Symbol] = []
    ruler: Character | None = None  # the historical Ruler (§7.2, §16.1)

    @model_validator(mode="after")
    def _realm(self) -> EventCard:
        if (self.kind == "realm") != (self.realm is not None):
            raise ValueError(f"event {self.id}: a Realm-specific Event, and only it, names its realm (§16.1)")
        if self.ruler is not None and self.ruler.portrait != "leader":
            raise ValueError(f"event {self.id}: a historical Ruler is a Leader (§7.2)")
        return self


class MissionCard(_Card):
    """§17.2: a Mission of one realm's deck (or of a generic deck)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("prestige", "requirements")
    realm: str  # a realm's tag, or "generic"
    prestige: int | None = Field(None, ge=0)
    starting: bool = False  # green frame: a Starting Mission
    prerequisites: list[str] = []  # one of them completed before it may be picked
    unlocks: list[str] = []
    requirements: list[Condition] = []
    effects: list[Effect] = []


class MilestoneCard(_Card):
    """§17.3: a public goal; 5, 3 and 1 Prestige to its first three completers."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("reward", "requirements")
    age: int = Field(ge=1, le=4)
    category: MilestoneCategory
    prestige: tuple[int, int, int] = (5, 3, 1)
    reward: list[Amount] = []
    requirements: list[Condition] = []


class IdeaCard(_Card):
    """§8: an Idea, researched for Monarch Power of its type."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("type", "cost")
    type: Deck | None = None
    cost: int | None = Field(None, ge=0)
    age: int = Field(1, ge=1, le=4)  # the Age when first eligible
    prestige: int = Field(2, ge=0)  # §8: "Upon Researching an Idea, a player scores (2)"
    basic: bool = False
    government_form: bool = False
    prerequisites: list[str] = []
    immediate: list[Effect] = []  # the bonus gained upon Researching it
    abilities: list[Ability] = []  # the bonus of having it, applied where its rule says


class KeyProvince(Strict):
    province: str
    plus: int = Field(0, ge=0)  # each "+" one more Trade Power (§12.5)


class TradeOption(Strict):
    """One Trade Node a Trade Card names, its Key Provinces, its secondary node in
    parentheses and its additional requirement (§12.1, §12.5)."""

    node: str
    key_provinces: list[KeyProvince] = Field([], max_length=4)  # §12.1: "up to 4 Key Provinces"
    secondary: str | None = None
    requirement: Literal["town_on_key_province", "own_key_province"] | None = None


class IncomeRow(Strict):
    """A row of a Trade Card's income table: the Trade Power it asks for (`power_to` None:
    and more), its Ducats at a regular (green) and an Expanded (red) node (§12.5)."""

    power_from: int = Field(ge=1)
    power_to: int | None = None
    regular: int = Field(ge=0)
    expanded: int = Field(ge=0)


class TradeCard(_Card):
    good: str
    gold: bool = False  # §12.1 Gold and Inflation
    slaves: bool = False  # §12.1 Slaves
    marker: Literal["*", "†"] | None = None  # a card that enters with a Distant Continent (§12.6)
    continents: list[int] = []  # the Distant Continents it is linked to (§12.6)
    nodes: list[TradeOption] = Field(min_length=1, max_length=3)  # §12.1: "2 or 3 Trade Nodes"
    rows: list[IncomeRow] = []  # top row first
    REQUIRED: ClassVar[tuple[str, ...]] = ("rows",)

    @model_validator(mode="after")
    def _nodes(self) -> TradeCard:
        if self.synthetic and len(self.nodes) < 2:
            raise ValueError(f"trade card {self.id}: a synthetic Trade Card names 2 or 3 nodes (§12.1)")
        return self
