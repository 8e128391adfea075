"""The effect language of EU: The Price of Power's cards: what an Action Card, a Display
Action, an Event, a Mission, a Milestone or an Idea does, as typed data.

The rulebook prints no card text, but it names every kind of thing a card may do — most of
them in the Event Guidelines (§16.3, "Standard Event effects"), the rest where an Action
Card or an Idea is described (§6.2, §7.6, §11.2, §11.4, §12.5, §19.1). Each kind below is
one of those, with the parameters its rule needs and the rule it cites (`RULE`), so the
rules code interprets a card from its data and one place per kind carries it out.

Conditions (`Condition`) are the other half: a card's "only if" (§16.3: "Ignore any
effects whose conditions are not met"), a Mission's completion requirements (§17.2) and a
Milestone's (§17.3). Passive bonuses of Ideas are named abilities (`Ability`): the rules
code asks whether a realm has one where the rule it cites applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, ClassVar, Literal, Union

from pydantic import BaseModel, Field, model_validator

from pbem.rules.eu_price_of_power.sources import Strict

#: What a realm holds and an effect gains or loses (§7.1 Monarch Power, §7.4 Ducats and
#: Interest, §7.3 Stability, §17.1 Prestige, §9.3 a +1 Manpower token, §4.5A5 Colonists,
#: §12.4 Merchants, §18.1 Imperial Authority). `mp` is Monarch Power of a type its
#: receiver chooses (§4.4D: "2 more, of any types chosen by the player").
Resource = Literal["ducats", "adm", "dip", "mil", "mp", "stability", "prestige", "manpower",
                   "interest", "colonist", "merchant", "imperial_authority"]
#: Counts an amount may be multiplied by ("gain 8 Ducats" for 8 Deployed Regular Units, §6.2).
Per = Literal["deployed_regular_units", "towns_with_unrest", "catholic_prs", "tax_value"]
#: Who an effect falls on (§16.3: "you" is the Active Player or the player making the A/B
#: choice; "The PR that gains/loses makes the choice"; effects on several players go
#: clockwise from the Active Player). `realm` is the realm the card names (`realm` field).
Who = Literal["you", "realm", "each_player", "opponents", "target"]
#: Where an effect's pieces go: the areas listed, or the areas a relation picks.
Scope = Literal["listed", "adjacent_to_realm", "target_realm", "capital_area", "own_areas", "hre", "distant"]
Religion = Literal["catholic", "protestant", "counter_reformed", "orthodox", "muslim", "diverse", "revolutionary"]
UnitType = Literal["infantry", "cavalry", "artillery", "light_ship", "heavy_ship", "galley"]
BattleDie = Literal["infantry", "cavalry", "artillery", "any"]  # "any": the "?" die (§6.2)
Deck = Literal["adm", "dip", "mil"]
#: The Actions a card may give (§16.3 "Gain Action": the Action in bold italics), by the
#: names of §4.2's summary of Basic Actions.
ActionName = Literal["event", "diplomacy", "research", "change_religion", "national_focus", "explore",
                     "increase_stability", "convert_area", "colonize", "influence", "forge_alliance",
                     "fabricate_claims", "trade", "declare_war", "activate_units", "recruit", "suppress_unrest"]


class Amount(Strict):
    """So much of a resource: a cost, a reward."""

    resource: Resource
    amount: int = Field(ge=0)


class Where(Strict):
    areas: list[str] = []
    scope: Scope = "listed"

    @model_validator(mode="after")
    def _listed(self) -> Where:
        if (self.scope == "listed") != bool(self.areas):
            raise ValueError("list the areas, or name a scope instead (adjacent_to_realm, target_realm …)")
        return self


class _Condition(Strict):
    RULE: ClassVar[str]


class AtWar(_Condition):
    RULE: ClassVar[str] = "§9.1; §10"
    kind: Literal["at_war"]
    at_war: bool = True


class StateReligion(_Condition):
    RULE: ClassVar[str] = "§15.2 State Religion"
    kind: Literal["religion"]
    religion: Religion


class HasIdea(_Condition):
    RULE: ClassVar[str] = "§8 Ideas"
    kind: Literal["idea"]
    idea: str


class Owns(_Condition):
    """The realm Owns every Province listed (§2.2 Own)."""

    RULE: ClassVar[str] = "§2.2 Own"
    kind: Literal["owns"]
    provinces: list[str] = Field(min_length=1)


class AtLeast(_Condition):
    """The realm has at least so many of a thing: Towns on the map, Vassal tokens,
    Alliances, Marriages, Ideas, Merchants, Claims, Cores, or a resource."""

    RULE: ClassVar[str] = "§17.2 Completing a Mission; §17.3"
    kind: Literal["at_least"]
    what: Resource | Literal["towns", "large_towns", "vassals", "alliances", "marriages", "ideas", "claims", "cores",
                             "tax_income", "ships", "land_units"]
    count: int = Field(ge=0)


CONDITION_MODELS = (AtWar, StateReligion, HasIdea, Owns, AtLeast)
Condition = Annotated[Union[CONDITION_MODELS], Field(discriminator="kind")]


class _Effect(Strict):
    RULE: ClassVar[str]
    who: Who = "you"
    realm: str | None = None  # the realm `who = "realm"` names
    when: list[Condition] = []  # the effect applies only if all hold (§16.3)

    @model_validator(mode="after")
    def _named(self) -> _Effect:
        if (self.who == "realm") != (self.realm is not None):
            raise ValueError('an effect on who = "realm", and only one, names its realm')
        return self


class Gain(_Effect):
    RULE: ClassVar[str] = "§16.3 Gain; §7.1, §7.3, §7.4, §17.1"
    kind: Literal["gain"]
    resource: Resource
    amount: int = Field(ge=0)
    per: Per | None = None  # the amount is given once per one of these


class Lose(_Effect):
    RULE: ClassVar[str] = "§16.3; §7.3 (beyond −3), §7.4 (a mandatory cost, Bankruptcy)"
    kind: Literal["lose"]
    resource: Resource
    amount: int = Field(ge=0)
    per: Per | None = None


class Influence(_Effect):
    """Place Influence; where the 5-per-Area limit is reached, Opponents' Influence may be
    discarded to make room (§16.3 "Gain/place Influence")."""

    RULE: ClassVar[str] = "§16.3 Gain/place Influence; §11.1"
    kind: Literal["influence"]
    count: int = Field(ge=1)
    where: Where = Where(scope="adjacent_to_realm")
    per_area: int | None = Field(None, ge=1)


class RemoveInfluence(_Effect):
    """Remove Influence: `count` of it (every piece if None), the realm's own or its
    Opponents' (§5.5 step 5, §6.2 New Alliance, §11.3 Cut Ties)."""

    RULE: ClassVar[str] = "§11.1; §5.5 (step 5); §11.3"
    kind: Literal["remove_influence"]
    count: int | None = Field(None, ge=1)
    whose: Literal["own", "opponents"] = "own"
    where: Where = Where(scope="target_realm")


class Alliance(_Effect):
    RULE: ClassVar[str] = "§16.3 Gain Alliance or Royal Marriage; §11.3"
    kind: Literal["alliance"]
    with_realm: str | None = None  # None: the action's target


class EndAlliance(_Effect):
    RULE: ClassVar[str] = "§16.3 Terminate/Remove Alliance; §11.3"
    kind: Literal["end_alliance"]
    with_realm: str | None = None


class Marriage(_Effect):
    RULE: ClassVar[str] = "§16.3 Gain Alliance or Royal Marriage; §11.2"
    kind: Literal["marriage"]
    with_realm: str | None = None


class Claim(_Effect):
    RULE: ClassVar[str] = "§16.3 Gain Claim; §9.1 (Conquest CB); §5.4 Fabricate Claims"
    kind: Literal["claim"]
    count: int = Field(1, ge=1)
    where: Where = Where(scope="adjacent_to_realm")


class Core(_Effect):
    """A Core token in an Area whose Provinces the realm all Owns (§7.6: Integrate Area)."""

    RULE: ClassVar[str] = "§7.6 Core tokens"
    kind: Literal["core"]
    where: Where = Where(scope="own_areas")


class CasusBelli(_Effect):
    RULE: ClassVar[str] = "§9.1 Casus Belli"
    kind: Literal["casus_belli"]
    against: str | None = None  # None: the action's target


class Town(_Effect):
    """A Town or a Vassal token on a Province no Opponent Owns, Vassalizes or Occupies
    (§16.3 "Gain/place Town or Vassal")."""

    RULE: ClassVar[str] = "§16.3 Gain/place Town or Vassal; §7.5, §11.4"
    kind: Literal["town", "vassal"]
    provinces: list[str] = []  # the Provinces named; empty: one the receiver picks
    count: int = Field(1, ge=1)


class DevelopTown(_Effect):
    RULE: ClassVar[str] = "§16.3 Develop a Small Town into a Large Town"
    kind: Literal["develop_town"]
    count: int = Field(1, ge=1)


class Unrest(_Effect):
    RULE: ClassVar[str] = "§14.1 Unrest; §4.3H"
    kind: Literal["unrest"]
    change: Literal["add", "remove"] = "add"
    count: int = Field(1, ge=1)
    where: Where = Where(scope="own_areas")


class RebelDice(_Effect):
    RULE: ClassVar[str] = "§14.2 Rebel Dice"
    kind: Literal["rebel_dice"]
    most: int | None = Field(None, ge=1)  # at most so many dice in all (§16.5 Unrest)


class Units(_Effect):
    """Military Units placed where no Battle is triggered; Regulars from Available
    Manpower (§16.3 "Gain Military Unit")."""

    RULE: ClassVar[str] = "§16.3 Gain Military Unit; §9"
    kind: Literal["units"]
    unit: UnitType
    count: int = Field(ge=1)
    source: Literal["regular", "mercenary", "allied"] = "regular"
    where: Where = Where(scope="own_areas")


class Casualties(_Effect):
    RULE: ClassVar[str] = "§9.7 Assign Casualties; §16.5 Attrition"
    kind: Literal["casualties"]
    count: int = Field(1, ge=1)
    per: int | None = Field(None, ge=1)  # one per so many Deployed Land Units


class BattleDice(_Effect):
    """Battle Dice added to the pool for the whole Battle; `any` is the "?" die (§6.2)."""

    RULE: ClassVar[str] = "§6.2 Battle Actions; §9.7"
    kind: Literal["battle_dice"]
    die: BattleDie
    count: int = Field(ge=1)


class GainAction(_Effect):
    """An Action taken at once or declined (§16.3 "Gain Action"); `free` waives its Monarch
    Power cost, `extra` is what a card's Action adds to it (Forced March's longer move …)."""

    RULE: ClassVar[str] = "§16.3 Gain Action"
    kind: Literal["action"]
    action: ActionName
    free: bool = False
    extra: str = ""


class Research(_Effect):
    RULE: ClassVar[str] = "§16.3 Research Idea; §8"
    kind: Literal["research"]
    idea: str


class DeclareWar(_Effect):
    """A war an Event declares: only steps 3–7 of the Declare War sequence (§16.3)."""

    RULE: ClassVar[str] = "§16.3 Wars triggered by Events; §5.5 Declare War steps 3–7"
    kind: Literal["declare_war"]
    aggressor: str | None = None  # None: "you"; an NPR is read as "you" (§16.3)
    targets: list[str] = []  # empty: an eligible target the aggressor picks


class Dnpr(_Effect):
    RULE: ClassVar[str] = "§16.3 Placing DNPR tokens; §13.3"
    kind: Literal["dnpr"]
    colour: str
    provinces: list[str] = Field(min_length=1)
    capital: str | None = None  # the Capital Province, underlined on the card


class Convert(_Effect):
    """An Area converted to a religion; its Religion tokens removed, except that a
    Revolutionary token is placed on top (§15.3)."""

    RULE: ClassVar[str] = "§15.3 Converting Areas"
    kind: Literal["convert"]
    to: Religion | Literal["state"] = "state"
    where: Where = Where(scope="adjacent_to_realm")


class ReligionToken(_Effect):
    RULE: ClassVar[str] = "§15; §16.5 Spread of Religious Ideas"
    kind: Literal["religion_token"]
    token: Religion
    where: Where


class RejectRuler(_Effect):
    RULE: ClassVar[str] = "§16.3 Reject Ruler; §7.2"
    kind: Literal["reject_ruler"]


class CancelCovert(_Effect):
    """The Covert Action being taken is cancelled: its card discarded, its cost still paid,
    its Display uses still spent (§6.2 Counterespionage)."""

    RULE: ClassVar[str] = "§6.2 Covert Actions; §5.4"
    kind: Literal["cancel_covert"]


class ExpandNode(_Effect):
    RULE: ClassVar[str] = "§12.5 Regular and Expanded Nodes"
    kind: Literal["expand_node"]
    node: str | None = None  # None: a node the receiver picks


class Cardinal(_Effect):
    RULE: ClassVar[str] = "§19.1 Cardinals"
    kind: Literal["cardinal"]
    count: int = Field(1, ge=1)


class Move(_Effect):
    """A move of one Army or Fleet outside Activate Units (§9.5: "by playing certain
    Military Cards"); `spaces` beyond the normal allowance."""

    RULE: ClassVar[str] = "§9.5 Movement"
    kind: Literal["move"]
    force: Literal["army", "fleet"]
    spaces: int = Field(ge=1)
    artillery_bound: bool = False  # §9.3: not an Army with more Artillery than Cavalry Units
    battles: bool = True  # the move may trigger Battles


class Subjugate(_Effect):
    RULE: ClassVar[str] = "§11.4 Subjugate – Vassalize and Annex"
    kind: Literal["vassalize", "annex"]


class DrawCards(_Effect):
    RULE: ClassVar[str] = "§4.1B; §5.1 Player-to-Player Diplomacy"
    kind: Literal["draw_cards"]
    count: int = Field(ge=1)
    deck: Deck | None = None  # None: any deck the receiver picks


class ReplaceMilestones(_Effect):
    RULE: ClassVar[str] = "§17.3 (Comet Sighted)"
    kind: Literal["replace_milestones"]


class Choice(_Effect):
    """An A) / B) choice: one option resolved; one that cannot be met or paid forces the
    other; if neither can, either (§16.3)."""

    RULE: ClassVar[str] = "§16.3 A/B choice; §5.1 Event step 3"
    kind: Literal["choice"]
    options: dict[str, list[Effect]] = Field(min_length=2)


EFFECT_MODELS = (Gain, Lose, Influence, RemoveInfluence, Alliance, EndAlliance, Marriage, Claim, Core, CasusBelli, Town,
                 DevelopTown, Unrest, RebelDice, Units, Casualties, BattleDice, GainAction, Research, DeclareWar, Dnpr,
                 Convert, ReligionToken, RejectRuler, CancelCovert, ExpandNode, Cardinal, Move, Subjugate, DrawCards,
                 ReplaceMilestones, Choice)
Effect = Annotated[Union[EFFECT_MODELS], Field(discriminator="kind")]

#: The passive bonuses Ideas give (§8): each the rule where it applies.
ABILITIES: dict[str, str] = {
    "explore_with_ships": "§5.1 Explore (\"QftNW\")",
    "recruit_artillery": "§5.5 Recruit (\"Cannons\")",
    "outlined_infantry_hits": "§9.7 Roll Battle Dice (\"Tercios/Janissaries\", \"Line Infantry\")",
    "battle_start_die_removal": "§9.7 Battle Preparations (\"Military Drill\")",
    "pre_battle_cavalry_dice": "§9.7 Battle Preparations (\"Noble Knights\")",
    "siege_defence": "§9.8 step 4 (\"Defensive Mentality\")",
    "holy_war_cb": "§9.1 Casus Belli (\"Deus Vult\")",
    "extra_alliance_and_marriage": "§11.2, §11.3 (\"Cabinet\")",
    "third_merchant": "§16.3 Gain Merchant (\"Free Trade\")",
    "idea_income": "§4.4B Income for Ideas (\"Bureaucracy\")",
    "absolutism_prestige": "§4.4E (\"Absolute Monarchy\")",
    "government_monarch_power": "§4.4D (Government Form Ideas)",
}
Ability = Literal[tuple(ABILITIES)]  # type: ignore[valid-type]

EFFECT_KINDS: dict[str, str] = {
    kind: model.RULE for model in EFFECT_MODELS for kind in model.model_fields["kind"].annotation.__args__
}
CONDITION_KINDS: dict[str, str] = {
    kind: model.RULE for model in CONDITION_MODELS for kind in model.model_fields["kind"].annotation.__args__
}

Choice.model_rebuild()


#: The fields of effects and conditions that name something of the scenario, and what.
_NAMES = {"idea": "idea", "with_realm": "realm", "against": "realm", "aggressor": "realm", "realm": "realm",
          "targets": "realm", "provinces": "province", "capital": "province", "node": "node", "areas": "area"}


def references(items: Iterable[BaseModel]) -> Iterator[tuple[str, str]]:
    """(what, id) for every realm, Province, Area, node and Idea that effects or conditions
    name, nested choices and conditions included, so a scenario check can look each up."""
    for item in items:
        for name in type(item).model_fields:
            value = getattr(item, name)
            values = value if isinstance(value, list) else [value]
            if name in _NAMES:
                yield from ((_NAMES[name], v) for v in values if isinstance(v, str))
            elif isinstance(value, dict):
                yield from references(v for option in value.values() for v in option)
            else:
                yield from references(v for v in values if isinstance(v, BaseModel))
