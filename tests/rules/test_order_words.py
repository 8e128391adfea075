"""Every ruleset's order words (DESIGN §6): loading a ruleset's kinds fails on two kinds
claiming one first word where neither defers it, and each keyword list and help line says
what the grammar reads — no more, no fewer words."""

from __future__ import annotations

import re

import pytest

from pbem.core import ruleset as rulesets
from pbem.core.decisions import DecisionKinds, KeywordCollision, LineKind, kinds_of
from pbem.rules.empires_in_arms.army import ARMY_KIND
from pbem.rules.empires_in_arms.orders import LAND_FORMS, land_keywords
from pbem.rules.empires_in_arms.sequence import LAND_KIND
from pbem.rules.ratio_regis.orders import line_keywords, parse_line, reaction_keywords, verbs
from pbem.rules.ratio_regis.reactions import REACTION_DECISION_KINDS

RULESETS = rulesets.available()


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_loads_with_no_undeclared_keyword_collision(name):
    kinds = kinds_of(rulesets.load(name))
    claimed = [word for kind in kinds.kinds.values() for word in kind.keywords if word not in kind.defers]
    assert len(claimed) == len(set(claimed))


@pytest.mark.parametrize("name", RULESETS)
def test_adding_a_kind_that_claims_a_word_of_the_ruleset_is_refused(name):
    kinds = list(rulesets.load(name).decision_kinds)
    word = next(w for k in kinds for w in k.keywords if w not in k.defers)
    intruder = LineKind("intruder", f"x: {word}", parse=lambda text: None, form=str, keywords=(word,))
    with pytest.raises(KeywordCollision, match=word):
        DecisionKinds([*kinds, intruder])


@pytest.mark.parametrize("name", RULESETS)
def test_every_kind_names_its_keywords_in_its_help(name):
    for kind in rulesets.load(name).decision_kinds:
        if kind.name in REACTION_DECISION_KINDS and name == "ratio-regis":
            continue  # one kind declares the words of the family, each kind's help some: below
        form = kind.description.split(": ", 1)[-1].upper()
        missing = [w for w in kind.keywords if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", form)]
        assert not missing, (kind.name, missing)


def _first_words(forms: str) -> set[str]:
    """The first word of each order form a help text lists (`MOVE <corps> …, FORAGE <corps> or
    STAND`; `A | B`), forms split only outside brackets."""
    parts, depth, current = [], 0, ""
    for char in forms:
        depth += char in "([" and 1 or char in ")]" and -1 or 0
        current += char
        if depth == 0 and re.search(r"(,\s|\sor\s|\s\|\s)$", current):
            parts.append(current)
            current = ""
    words = set()
    for form in [*parts, current]:
        first = re.sub(r"^(,|or|\|)\s", "", form.strip()).split(" ")[0].rstrip(";")
        if re.fullmatch(r"[A-Z][A-Z-]+", first):
            words.add(first)
    return words


def test_the_land_orders_help_lists_exactly_the_grammars_orders():
    assert _first_words(LAND_FORMS.split(" are ", 1)[1]) == set(land_keywords()) - {"DONE"}  # DONE: STAND's twin
    assert LAND_KIND.keywords == land_keywords()


def test_the_army_orders_help_is_the_grammar():
    assert ARMY_KIND.description == ("a power's orders in the Army Reinforcement Step, one per line: "
                                     "TRANSFER <count> <kind> FROM <source|GARRISON> TO <target|GARRISON>; "
                                     "DEMOBILIZE <corps> | DEMOBILIZE <count> <kind> IN <area>; STAND | DONE")


def test_ratio_regis_reaction_help_names_only_the_grammars_answers():
    named = set()
    for description in REACTION_DECISION_KINDS.values():
        named |= _first_words(description.split("): ", 1)[-1])
    assert named == set(reaction_keywords())


def test_ratio_regis_suggestions_come_from_the_grammar():
    assert {"PEACE", "LOWER", "SUBSIDISE"} <= set(verbs())
    assert {"BID", "GROUP", "START", "PLAY", "DONE", "DYNASTY"} <= set(line_keywords())
    for action in verbs():
        misspelt = action[:-1]
        with pytest.raises(ValueError, match=rf"did you mean {action}\?"):
            parse_line(f"FRA I {misspelt} X")
