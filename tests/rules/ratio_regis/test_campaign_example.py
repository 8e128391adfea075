"""The three-player example campaign (`examples/ratio-regis/campaign/`, `pbem demo --example
campaign`): the synthetic two-turn scenario campaign-scenario.toml played by mail from the power
auction to the game's end — an alliance the power cards allow, a minor's alliance won at auction,
a war ended by a negotiated peace with terms, merchants and the economic phase of each turn."""

from __future__ import annotations

import pytest
from campaigns import play

from pbem.reports.renderer import render_report


@pytest.fixture(scope="module")
def played():
    return play("campaign")


@pytest.fixture(scope="module")
def chronicle(played) -> list[str]:
    return played.replayed_chronicle()


def assert_in_order(lines: list[str], expected: list[str]) -> None:
    """Each expected text is in some chronicle line after the one the previous text was in."""
    at = 0
    for text in expected:
        found = next((i for i in range(at, len(lines)) if text in lines[i]), None)
        assert found is not None, f"{text!r} not found after line {at}"
        at = found + 1


def test_every_mail_is_taken_and_the_game_ends(played):
    assert played.refused == []
    assert played.projection().finished



def test_replay_without_snapshots_has_no_divergence(played):
    assert played.service.loader.load(played.name, use_snapshots=False).divergences == []


def test_the_auction_and_the_alliance(chronicle):
    assert_in_order(chronicle, [
        "Bids revealed: Felipe of Castile 3, Catherine of Valois 2, William of Orange 1",  # §7.1.1
        "Starting VP: Felipe of Castile 0, Catherine of Valois 1, William of Orange 2",
        # §21.1: France's card allows England; England's player consents
        "FRA and ENG are allied until the end of the turn, in forced peace with each other (§21.1)",
        "The alliances end with the turn: FRA–ENG (§21.1, §23)",
    ])


def test_scotland_won_at_auction(played, chronicle):
    assert_in_order(chronicle, [
        # §20.3.1: sealed standing bids, the winner paying one more than the next bid
        "Scotland: standing bids William of Orange ENG up to 2, Felipe of Castile SPA up to 1, "
        "Catherine of Valois pass",
        "ENG wins the alliance of Scotland for 1: its unrest rises by 1 to 5 (§20.3.1)",
        "Scotland's card fortresses are rebuilt for ENG: F2 in Edinburgh (§20.3.2)",
        "ENG places Scotland's troops as reinforcements: T10 (2-3) at Edinburgh, T11 (2-3) at York (§20.3.2)",
        # §23.1.1 "Key areas of allied minor power are not counted": Edinburgh is Scotland's
        "ENG income 10: the power card 8; 1 merchant(s) in TC-EA 2",
    ])
    assert not any("non-home key areas (Edinburgh)" in line for line in chronicle)
    assert played.projection().view("gm")["minors"] == {"SCO": "ENG"}


def test_the_corsairs_war_ends_in_a_negotiated_peace_with_terms(chronicle):
    assert_in_order(chronicle, [
        "BAR declares war on SPA without a casus belli",  # §21.3.3
        "BAR gives a morale counter to SPA (war declared without a casus belli); war status SPA +1",
        # §21.4.1: half its morale lost, Barbary asks for peace at the start of its next impulse
        "Peace negotiations between BAR and SPA (requested by BAR): war status BAR 0–1 SPA",
        "BAR asked for peace: BAR gives one of its counters; BAR 0–2 SPA",
        "SPA wins the war against BAR by 2: unrest SPA +0, BAR +2",
        # §21.5.3: the two conditions Spain's player chose
        "Peace terms: SPA loots the commercial port of Algiers (trade interrupted)",
        "Peace terms: SPA's unrest −1, BAR's +1",
        "BAR and SPA are at peace, in forced peace until the end of the turn (§21.5.4)",
        # §19.2.5: the looted port works again at the next turn's start
        "Trade-interrupted markers removed: the commercial ports of Algiers work again",
    ])


def test_merchants_and_the_economic_phases(chronicle):
    assert_in_order(chronicle, [
        "ENG builds a merchant for TC-NS",  # §19.2.2, by action
        "SPA builds a merchant for TC-EA",
        # turn 6's economic phase (§23.1): income, expenses and unrest, power by power
        "SPA income 12: the power card 10; 1 merchant(s) in TC-WM 2",
        "SPA expenses 3: troops (3 on the map, 0 dispersed, 0 eliminated) 3",
        "SPA: income exceeds expenses by 9: unrest 3 → 0",
        "BAR: income exceeds expenses by 5: unrest 5 → 0",
        # turn 7's start: the merchants built enter, giving the powers already there a casus belli
        "SPA's 1 merchant enters TC-EA; FRA, ENG gain a casus belli against SPA",
        "ENG's 1 merchant enters TC-NS; NED gains a casus belli against ENG",
        # turn 7's end: three merchants for the Atlantic's two places (§19.2.4)
        "Commercial competition in TC-EA: ENG loses a merchant",
        "Commercial competition in TC-EA ends: FRA 1, SPA 1",
        "SPA income 14: the power card 10; 1 merchant(s) in TC-EA 2; 1 merchant(s) in TC-WM 2",
        "SPA expenses 6: troops (4 on the map, 0 dispersed, 0 eliminated) 4; squadrons × 2",
        "ENG income 10: the power card 8; 1 merchant(s) in TC-NS 2",
        "The game ends after Turn 7 (1580–1594)",
    ])


def test_the_final_state(played):
    view = played.projection().view("gm")
    assert view["wars"] == [] and view["alliances"] == []
    assert view["merchants"] == {"TC-EA": {"FRA": 1, "SPA": 1}, "TC-NS": {"ENG": 1, "NED": 1},
                                 "TC-WM": {"BAR": 1, "SPA": 1}}
    assert view["units"]["T10"] == "Edinburgh (SCO)" and view["units"]["T11"] == "York (SCO)"
    assert {area: view["control"][area] for area in ("Algiers", "Edinburgh", "Madrid")} == {
        "Algiers": "BAR", "Edinburgh": "ENG", "Madrid": "SPA"}


def test_the_last_turn_end_counts_vp_and_the_gm_report_ends_with_the_vp_table(played, chronicle):
    assert not any(line.startswith("Not adjudicated yet") for line in chronicle)
    projection = played.service.loader.load(played.name, use_snapshots=False)
    last_turn_end = [c for r in projection.resolved for c in r.result.chronicle if c.step == "t7/end"]
    assert any(c.rule.startswith("§22") for c in last_turn_end)
    report = render_report(played.projection(), "gm")
    assert "Not adjudicated yet" not in report
    # the GM's report closes with the VP table (§22, §23.4): every player, and the winner in its title
    table = report.rsplit("Victory points", 1)[1]
    assert "the game is over" in table.splitlines()[0]
    assert all(name in table for name in ("Felipe of Castile", "Catherine of Valois", "William of Orange"))
    assert "Audit" not in table and "What happened" not in table
