import hashlib
import hmac

import pytest
from hypothesis import given, settings, strategies as st

from pbem.core.dice import KeyedStreams, commitment, draw_below, recompute
from pbem.core.engine import StepContext
from pbem.core.orders import parse_policy, split_orders, suggest, unknown_name


def context(secret=bytes(32), forced=None, step="s1"):
    return StepContext(campaign="c", step=step, secret=secret, answers={}, policies=[], answer_policy=lambda p, r: None,
                       forced=forced or {}, scenario=None, seats={})


def test_commitment_is_sha256_of_the_secret():
    assert commitment(b"x" * 32) == hashlib.sha256(b"x" * 32).hexdigest()


@given(st.binary(max_size=150), st.binary(max_size=200))
def test_keyed_streams_are_hmac_sha256_of_the_secret(secret, message):
    """The streams hash the padded key once (RFC 2104) instead of per draw: the digests,
    hence every die ever logged, are the standard library's HMAC-SHA256 for any secret."""
    assert KeyedStreams(secret).digest(message) == hmac.digest(secret, message, "sha256")


def test_every_face_is_equally_likely_over_a_fixed_sample():
    # Fixed keys, so the counts are the same on every run: a regression test of the
    # sampling, with a chi-square bound a fair d6 meets with room to spare.
    counts = [0] * 6
    for i in range(6000):
        counts[draw_below(b"k" * 32, f"sample|{i}", 6)] += 1
    expected = 1000
    chi_square = sum((c - expected) ** 2 / expected for c in counts)
    assert chi_square < 20.5  # p = 0.001 for 5 degrees of freedom


def test_rejection_sampling_never_returns_out_of_range():
    for bound in (1, 2, 3, 5, 6, 7, 39, 40, 2**63 + 1):
        for i in range(50):
            assert 0 <= draw_below(b"s" * 32, f"k{i}", bound) < bound


def test_rolls_recompute_from_the_revealed_secret():
    ctx = context(secret=b"r" * 32)
    values = [ctx.roll("combat", rule="§13.1.6") for _ in range(10)]
    rolls = ctx.result(True).rolls
    assert [recompute(b"r" * 32, r.as_dict()) for r in rolls] == values


def test_streams_are_independent_by_purpose():
    a, b = context(), context()
    a.roll("deck")
    a_combat = [a.roll("combat") for _ in range(5)]
    b_combat = [b.roll("combat") for _ in range(5)]
    assert a_combat == b_combat


def test_forced_dice_are_used_in_order_and_marked():
    ctx = context(forced={"combat": [6, 1]})
    assert [ctx.roll("combat"), ctx.roll("combat")] == [6, 1]
    assert all(r.forced for r in ctx.result(True).rolls)


def test_shuffle_is_a_permutation():
    deck = list(range(39))
    assert sorted(context().shuffle("deck", deck)) == deck


def test_envelope_split():
    parts = split_orders("SIGNON ann g1 tok\n# comment\nBID 3\nPRESS TO ALL\nhello all\nENDPRESS\n"
                         "POLICY FOR FRA keep WHEN value>=4 AND area=Paris DO KEEP\nSIGNOFF\nBID 9")
    assert (parts.signon.player, parts.signon.campaign, parts.signon.token) == ("ann", "g1", "tok")
    assert parts.orders == [(3, "BID 3")]
    assert parts.press[0].to == "ALL" and parts.press[0].text == "hello all"
    policy = parts.policies[0]
    assert (policy.kind, policy.power, policy.answer_text) == ("keep", "FRA", "KEEP")
    assert policy.conditions == (("value", ">=", "4"), ("area", "=", "Paris"))


@pytest.mark.parametrize("line, error", [
    ("POLICY keep KEEP", "DO"),
    ("POLICY keep IF value>3 DO KEEP", "WHEN"),
    ("POLICY keep WHEN value DO KEEP", "condition"),
])
def test_bad_policies_say_why(line, error):
    assert error in parse_policy(1, line).error


def test_suggestions_for_misspelt_names():
    assert suggest("Tolouse", ["Toulouse", "Tours", "Paris"]) == "Toulouse"
    assert "did you mean Toulouse" in unknown_name("area", "Tolouse", ["Toulouse", "Tours"])
    assert suggest("Xyz", ["Toulouse"]) is None


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_splits_without_an_exception(text):
    split_orders(text)


def test_a_dice_purpose_form_matches_the_purposes_rolled_under_it():
    from pbem.core.dice import DicePurpose, forced_dice_problem

    battle = DicePurpose("<battle>/day<n>/round<n>/attacker|defender", 6, "§7.5.2.9")
    assert battle.matches("Ulm-garrison-attack/day2/round10/defender")
    assert not battle.matches("Ulm/day1/round1/attackr") and not battle.matches("Ulm/dayone/round1/attacker")
    assert not battle.matches("Ulm/x/day1/round1/attacker")  # a word never spans a `/`
    assert forced_dice_problem([battle], "Ulm/day1/round1/attacker", [6, 1]) == ""
    assert "not 7" in forced_dice_problem([battle], "Ulm/day1/round1/attacker", [7])
    assert "rolls no dice for 'combat'" in forced_dice_problem([battle], "combat", [3])
    assert forced_dice_problem([battle], "Ulm/day1/round1/attacker", []) == "give at least one die result"


def test_a_default_face_is_checked_against_the_games_largest_die():
    """A case's `@dice * N` shows N on every die not forced, as near as its faces allow: it is
    no purpose the game rolls for, yet a face off every die the game has is still refused."""
    from pbem.core.dice import DEFAULT_FACE, DicePurpose, forced_dice_problem

    purposes = [DicePurpose("combat", 6, "§13.1.6"), DicePurpose("leader", None, "§17.2")]
    assert forced_dice_problem(purposes, DEFAULT_FACE, [3]) == ""
    assert forced_dice_problem(purposes, DEFAULT_FACE, [7]) == "a default face is 1 to 6, not 7"
    assert forced_dice_problem(purposes, DEFAULT_FACE, [0]) == "a default face is 1 to 6, not 0"
