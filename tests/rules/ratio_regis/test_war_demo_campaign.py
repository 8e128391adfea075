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
    return played.replayed_chronicle()


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
        # turn 6's end: every war ends in peace negotiations (§23, §21.5)
        "Area adjustment: FRA lost 0 non-key area(s); HUG lost 2 non-key area(s): HUG gives one of its counters",
        "FRA wins the war against HUG by 2: unrest FRA +0, HUG +2",
        "Areas returned: Clermont, Poitiers (§21.5.3)",
        "FRA repatriates T7 strategically Poitiers>Nantes (§14.1.1)",
        "NED wins the war against SPA by 1",
        "Areas returned: Brugge (§21.5.3)",
        "HUG turns T14 back to regular (half its veterans, rounded up)",  # §16.2 at turn 6's end (RR-I66)
        # §19.2.4: the Mediterranean's 4 merchants for 2 places; France has the fewest commercial ports
        "Commercial competition in TC-WM: FRA loses a merchant (0 left; 1st in the order, pass 1: ports 1: Marseille",
        "Commercial competition in TC-WM ends: BAR 1, SPA 1",
        # §23.2 at turn 6's end: the Huguenots, agitated, disperse T27 and two revolts break out
        "HUG's unrest 10 exceeds twice its vitality (6) by 4; it disperses T27, cancelling 2",
        "HUG's social agitation: a rebellion R2 breaks out in Poitiers",
        "FRA declares war on HUG without a casus belli",  # turn 7
        "subjugation of Poitiers: rebels beats FRA",  # the revolt holds Poitiers against France (§18.3)
        # turn 7's end: the war of a card first (§21.5.5), its winner gaining the card's VP (§21.3.1)
        "NED wins the war against SPA by 1: unrest NED +0, SPA +1; the war's card VP",
        "HUG wins the war against FRA by 1: unrest HUG +0, FRA +1",
        # §23.4: after the last turn, the powers still agitated must change their dynasty
        "SPA makes a dynastic change (its unrest exceeds twice its vitality by 4 on the last turn (§23.4))",
    ]
    for text in expected:
        assert any(text in line for line in lines), text


def test_the_final_map(played):
    view = played.projection().view("gm")
    assert view["control"]["Clermont"] == "HUG" and view["control"]["Poitiers"] == "HUG"
    assert view["control"]["Zeeland"] == "NED"
    # REBELLION IN FLANDERS gave Brugge to the Dutch in each turn; each turn's peace gave it back (§21.5.3).
    assert view["control"]["Brugge"] == "SPA"
    assert view["units"]["F3"] == "Zeeland"
    # Spain's forced dynastic change after the last turn (§23.4) removes its units, the army of Flanders too.
    assert "T1" not in view["units"]
