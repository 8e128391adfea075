"""The synthetic war-demo campaign (`examples/ratio-regis/war-demo/`): two full turns with
wars, field battles, a siege with two assaults, retreats, evasion, interception and
subjugations, played mail by mail; every mail is taken and the replay has no divergence."""

from __future__ import annotations

import pytest
from campaigns import play


@pytest.fixture(scope="module")
def played():
    return play("war-demo")


def test_every_mail_is_taken_and_the_game_ends(played):
    assert played.refused == []
    assert played.projection().finished


def test_replay_without_snapshots_has_no_divergence(played):
    assert played.service.loader.load(played.name, use_snapshots=False).divergences == []


def chronicle(played) -> list[str]:
    projection = played.service.loader.load(played.name, use_snapshots=False)
    return [c.text for r in projection.resolved for c in r.result.chronicle]


def test_the_war_as_it_was_played(played):
    lines = chronicle(played)
    expected = [
        "field battle in Clermont: FRA beats HUG",  # turn 6: France's offensive (§13.3)
        "HUG retreats T14 from Clermont to Toulouse (§13.3.6)",  # the retreat decision (RR-I60)
        "NED's T20, T21, T24 in Zeeland withdraw into the fortress (§13.4.1)",
        "SPA besieges the fortress F3 in Zeeland, held by T20, T21, T24 (§13.4.1)",
        "assault on Zeeland: NED beats SPA; siege casualties 0",  # two assaults beaten off (§13.4)
        "the siege of Zeeland is lifted (§13.4.5)",
        "HUG evades from Poitiers: T16 to Bordeaux (§12.4.2)",
        "subjugation of Poitiers: FRA beats HUG",
        # the book's turn-6 events on cards 8 and 9 of war.toml (§30.2, §31.1)
        "Rebellion in Scotland: a rebellion R3 breaks out in Glasgow",
        "NED controls Brugge (Rebellion in Flanders)",
        "SPA has no unit to repatriate from Brugge (§14)",
        "The war FRA–HUG ends in a truce at turn end",  # RR-I30
        "FRA declares war on HUG without a casus belli",  # turn 7
        "FRA intercepts from Poitiers into Clermont with T7, T8 (§12.4.1)",
        "field battle in Clermont: HUG beats FRA",
        "subjugation of Poitiers: HUG beats FRA",
        "HUG turns T30 back to regular (half its veterans, rounded up)",  # §16.2 at turn 7's end (RR-I66)
        "HUG's unrest 8 exceeds twice its vitality (6) by 2; it disperses T27, cancelling 2",  # §23.2 at turn 6's end
        # §23.4: after the last turn, the powers still agitated must change their dynasty
        "NED makes a dynastic change (its unrest exceeds twice its vitality by 1 on the last turn (§23.4))",
    ]
    for text in expected:
        assert any(text in line for line in lines), text


def test_the_final_map(played):
    view = played.projection().view("gm")
    assert view["control"]["Clermont"] == "HUG" and view["control"]["Poitiers"] == "HUG"
    assert view["control"]["Zeeland"] == "NED"
    # Spain's army of Flanders regroups in Luxembourg: REBELLION IN FLANDERS gave Brugge to the Dutch.
    assert view["control"]["Brugge"] == "NED"
    assert view["units"]["T1"] == "Luxembourg"
    # The fortress F3 held Zeeland to the end; NED's forced dynastic change (§23.4) then removes its units.
    assert not {"F3", "T20", "T21", "T24"} & set(view["units"])
