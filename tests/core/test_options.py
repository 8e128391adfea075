"""The campaign options every game declares are checked by one core function."""

from pbem.core.options import check_options

TABLE = {
    "variant": (("v1", "v2"), "the edition played"),
    "army_orders": (("no", "yes"), "the step asks for orders"),
}


def test_chosen_options_are_read_as_words_and_toml_booleans_as_yes_or_no():
    values, problems = check_options(TABLE, {"variant": "V2", "army_orders": True})
    assert values == {"army_orders": "yes", "variant": "v2"}
    assert problems == []


def test_an_unknown_name_and_a_value_not_allowed_are_each_named_with_what_is_allowed():
    values, problems = check_options(TABLE, {"varient": "v2", "army_orders": "maybe"})
    assert problems == ["option army_orders must be one of no, yes, not 'maybe'",
                        "unknown option 'varient' (known: army_orders, variant)"]
    assert "varient" not in values
