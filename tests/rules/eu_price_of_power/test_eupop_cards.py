"""The cards as data: the effect language's kinds each cite their rule; the cards the
rulebook gives say what the rulebook says of them, with their lines and their gaps; a
synthetic card is complete."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from pbem import resources
from pbem.core.datafile import load_data_file
from pbem.rules.eu_price_of_power.cards import ActionCard, EventCard, MissionCard
from pbem.rules.eu_price_of_power.effects import ABILITIES, CONDITION_KINDS, EFFECT_KINDS, Effect, references
from pbem.rules.eu_price_of_power.scenario import load_scenario

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "eu-price-of-power.md"
EDITION = resources.examples_dir() / "eu-price-of-power" / "scenario.toml"
effects = TypeAdapter(list[Effect])


def scenario():
    return load_scenario(load_data_file(EDITION))


def card(cards, card_id):
    return next(c for c in cards if c.id == card_id)


def test_every_effect_condition_and_ability_cites_a_rule_and_is_in_the_docs():
    doc = DOC.read_text(encoding="utf-8")
    for kind, rule in [*EFFECT_KINDS.items(), *CONDITION_KINDS.items(), *ABILITIES.items()]:
        assert re.search(r"§\d", rule), kind
        assert f"`{kind}`" in doc, kind


def test_an_unknown_effect_kind_is_refused_by_name():
    with pytest.raises(ValidationError) as error:
        effects.validate_python([{"kind": "conquer_world"}])
    assert "conquer_world" in str(error.value) and "'gain'" in str(error.value)


def test_a_choices_options_and_conditions_are_read_and_walked():
    parsed = effects.validate_python([{"kind": "choice", "options": {
        "A": [{"kind": "alliance", "with_realm": "SCO", "when": [{"kind": "idea", "idea": "s-navigation"}]}],
        "B": [{"kind": "claim", "where": {"areas": ["LOWEN"]}}, {"kind": "town", "provinces": ["Lowen"]}]}}])
    assert sorted(references(parsed)) == [("area", "LOWEN"), ("idea", "s-navigation"), ("province", "Lowen"),
                                          ("realm", "SCO")]


def test_counterespionage_and_new_alliance_are_section_6_2s_example():
    cards = scenario().data.action_cards
    counter = card(cards, "counterespionage")
    # "Castile plays the Counterespionage card …, paying its cost of 2 🐦."
    assert (counter.deck, counter.cost, counter.reacts_to) == ("dip", 2, "covert_action")
    assert [e.kind for e in counter.effects] == ["cancel_covert"] and "covert" in counter.keywords
    alliance = card(cards, "new-alliance")
    # ">France finds this very tempting, and pays the 4 🐦 and 2 🕒 to play the card."
    assert (alliance.cost, alliance.ducats, alliance.keywords) == (4, 2, ["covert"])
    assert [(e.kind, getattr(e, "count", None)) for e in alliance.effects] == [("remove_influence", None),
                                                                               ("influence", 2)]


def test_central_authoritys_war_taxes_is_section_6_2s_example():
    central = card(scenario().data.action_cards, "central-authority")
    # "pays the cost of 2 … and 2 … to place it on display. They fill up the 3 uses"
    assert (central.cost, central.ducats, central.uses) == (2, 2, 3)
    taxes = central.actions[0]
    # "exhaust 2 uses … and pay 1 … to perform the War Taxes Action and gain 8 [Ducats]" with 8 Regulars Deployed.
    assert (taxes.name, taxes.cost, taxes.uses) == ("War Taxes", 1, 2)
    gain = taxes.effects[0]
    assert (gain.resource, gain.amount * 8, gain.per) == ("ducats", 8, "deployed_regular_units")
    assert taxes.effects[1].kind == "unrest"  # EUPOP-I56


def test_developments_advisor_is_section_7_2s_example():
    maximilien = card(scenario().data.action_cards, "development").character
    # "the +2 Administrative Advisor, Maximilien … paying 2 🕒"
    assert (maximilien.portrait, maximilien.advisor, maximilien.bonus, maximilien.cost) == ("advisor", "adm", 2, 2)


def test_la_reconquista_and_the_fur_card_are_the_rulebooks():
    data = scenario().data
    mission = card(data.missions, "la-reconquista")
    # §4.7: "the La Reconquista Mission … for (2) … cannot Research "Tercios/Janissaries"".
    assert mission.prestige == 2 and mission.effects[0].idea == "tercios-janissaries"
    fur = card(data.trade_cards, "109-1")
    # §12.1's anatomy: "Trade Income columns (6+, 11, 14) … (3-5, 8, 10) … (1-2, 5, 6)", continent 1.
    assert [(r.power_from, r.power_to, r.regular, r.expanded) for r in fur.rows] == [(6, None, 11, 14),
                                                                                      (3, 5, 8, 10), (1, 2, 5, 6)]
    assert fur.continents == [1] and [n.secondary for n in fur.nodes] == [None, "Baltic Sea", "Astrakhan"]


def test_every_card_is_read_from_the_rulebook_or_synthetic():
    data = scenario().data
    cards = [*data.action_cards, *data.events, *data.missions, *data.milestones, *data.ideas, *data.trade_cards]
    sourced = [c for c in cards if not c.synthetic]
    assert all(c.source is not None and c.source.quote for c in sourced)
    assert {c.id for c in sourced} >= {"counterespionage", "new-alliance", "central-authority", "military-reforms",
                                        "development", "subjugate", "spy-network", "wars-of-the-roses",
                                        "comet-sighted", "la-reconquista", "cannons", "T02-3", "109-1"}


def test_a_sourced_card_names_what_the_rulebook_leaves_out():
    with pytest.raises(ValidationError) as error:
        ActionCard.model_validate({"id": "x", "title": "X", "source": {"lines": [[1, 2]]}})
    assert "its source names what the rulebook does not give (deck, cost, character)" in str(error.value)
    ActionCard.model_validate({"id": "x", "title": "X", "source": {"lines": [[1, 2]], "gaps": ["all of it"]}})


def test_a_synthetic_card_is_complete():
    with pytest.raises(ValidationError) as error:
        ActionCard.model_validate({"id": "x", "title": "X", "deck": "adm", "synthetic": True,
                                   "character": {"name": "Y", "portrait": "leader", "adm": 1}})
    assert "a synthetic card gives its cost" in str(error.value)
    with pytest.raises(ValidationError) as error:
        ActionCard.model_validate({"id": "x", "title": "X", "deck": "adm", "cost": 1, "synthetic": True,
                                   "character": {"name": "Y", "portrait": "leader", "adm": 1}})
    assert "gives every number of its portrait" in str(error.value)
    with pytest.raises(ValidationError) as error:
        MissionCard.model_validate({"id": "m", "title": "M", "realm": "WES", "synthetic": True})
    assert "a synthetic card gives its prestige, requirements" in str(error.value)


def test_display_cards_and_realm_events_are_shaped_as_their_anatomy():
    with pytest.raises(ValidationError) as error:
        ActionCard.model_validate({"id": "x", "title": "X", "deck": "adm", "cost": 1, "uses": 2, "synthetic": True,
                                   "character": {"name": "Y", "portrait": "advisor", "advisor": "adm", "bonus": 1,
                                                 "cost": 1}})
    assert "only a Display Card has uses and Actions on display (§6.2)" in str(error.value)
    with pytest.raises(ValidationError) as error:
        EventCard.model_validate({"id": "e", "title": "E", "age": 1, "kind": "realm", "half": "1", "synthetic": True})
    assert "a Realm-specific Event, and only it, names its realm (§16.1)" in str(error.value)


def _walk(items):
    for item in items:
        yield item
        for option in getattr(item, "options", {}).values():
            yield from _walk(option)


def test_the_synthetic_decks_use_every_keyword_effect_condition_and_ability():
    data = scenario().data
    dealt = [card(data.action_cards, i) for i in data.decks.action]
    assert {d.deck for d in dealt} == {"adm", "dip", "mil"} and len(dealt) == 36
    assert {k for d in dealt for k in d.keywords} == {"reaction", "battle", "covert", "display"}
    synthetic = [c for c in [*data.action_cards, *data.events, *data.missions, *data.ideas, *data.milestones]
                 if c.synthetic]
    used = list(_walk(e for c in synthetic for e in [*getattr(c, "effects", []), *getattr(c, "immediate", []),
                                                      *(x for a in getattr(c, "actions", []) for x in a.effects)]))
    assert {e.kind for e in used} == set(EFFECT_KINDS)
    conditions = {x.kind for c in synthetic for x in [*getattr(c, "requires", []), *getattr(c, "requirements", [])]}
    assert conditions | {w.kind for e in used for w in e.when} == set(CONDITION_KINDS)
    assert {a for i in data.ideas if i.synthetic for a in i.abilities} == set(ABILITIES)


def test_an_effects_place_is_listed_areas_or_a_scope_not_neither():
    with pytest.raises(ValidationError) as error:
        effects.validate_python([{"kind": "claim", "where": {}}])
    assert "list the areas, or name a scope instead" in str(error.value)
    with pytest.raises(ValidationError):
        effects.validate_python([{"kind": "claim", "where": {"scope": "hre", "areas": ["LOWEN"]}}])


def test_an_effect_on_a_named_realm_names_it():
    with pytest.raises(ValidationError) as error:
        effects.validate_python([{"kind": "gain", "resource": "ducats", "amount": 2, "who": "realm"}])
    assert 'an effect on who = "realm", and only one, names its realm' in str(error.value)
    with pytest.raises(ValidationError):
        effects.validate_python([{"kind": "gain", "resource": "ducats", "amount": 2, "realm": "WES"}])
