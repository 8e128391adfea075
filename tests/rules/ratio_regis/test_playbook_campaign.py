"""The playbook's running example game (§26–§32) as an example campaign
(`examples/ratio-regis/playbook/`), played mail by mail on the synthetic war scenario, with
the GM forcing the dice the book names (`GM DICE`). Each test asserts the outcome of one
worked example the built rules reach.

Not followed (each mail says why): card events and the technology auction (§27.2–§27.3,
§28.2, §28.8, §30.2, §31.1), alliances, expeditionary corps and combined fleets (§28.1,
§28.16, §31.6), the mini-maps (§28.9–§28.14, §29.1: the cases `subjugation-28-12` and
`subjugation-29-1` hold those examples), minor powers (§29.2–§29.4), and from impulse 5
on (§30.4's battle is the case `naval-prelude-30-4`, §32.1 the case `siege-32-1`). The
campaign stops with p3 owing the fifth impulse."""

from __future__ import annotations

import pytest
from campaigns import play


@pytest.fixture(scope="module")
def played():
    return play("playbook")


@pytest.fixture(scope="module")
def lines(played) -> list[str]:
    projection = played.service.loader.load(played.name, use_snapshots=False)
    return [c.text for r in projection.resolved for c in r.result.chronicle]


@pytest.fixture(scope="module")
def view(played) -> dict:
    return played.projection().view("gm")


def test_every_mail_is_taken_and_replay_agrees(played):
    assert played.refused == []
    assert played.service.loader.load(played.name, use_snapshots=False).divergences == []
    assert played.projection().step == "t6/impulse-5"


def test_power_auction_26_2(lines, view):
    # p1 bids 6, p2 and p3 bid 2 and roll for the tie; the synthetic scenario gives its 3 VP bonus to
    # the Protestant group (the book's to France), so p2 and p3 swap the book's 7 and 4.
    assert "Tie broken by dice: Catherine of Paris rolls 5, William of Orange rolls 2" in lines
    assert "Starting VP: Philip of Madrid 2, Catherine of Paris 4, William of Orange 7" in lines
    assert view["players"]["p1"]["vp"] == 2


def test_deck_and_order_26_4(lines):
    # The synthetic deck has 15 cards (5 a hand); p1, with the fewest VP, orders p2-p3-p1.
    assert any("each player is dealt 5" in line for line in lines)
    assert "Philip of Madrid (fewest VP) has Catherine of Paris start, clockwise" in lines


def test_start_of_impulse_and_card_play_27_1_27_2(lines, view):
    # France finishes the Rouen squadron, completes the army of Tours, finishes the Paris fortress
    # and builds a leader on its East Atlantic squadron: determined, kept on its ordinary side.
    impulse = next(line for line in lines if line.startswith("Catherine of Paris's impulse: FRA repairs S4"))
    assert "FRA builds T24 (Q2) at Tours" in impulse and "FRA finishes the fortress F2 in Paris" in impulse
    assert "FRA builds leader L7 (Henri de Guise, determined) on S3, ordinary side" in lines
    assert view["units"]["F2"] == "Paris"


def test_piracy_27_4(lines, view):
    # First piracy: Barbary 2 BP against 1, won by one: the Genoese squadron is not damaged and
    # the Spanish merchant costs Spain 1 unrest (Barbary -1). Second: Spain wins by two and the
    # Barbary squadron goes back damaged to Tunis.
    assert "BAR 2 BP 0 C, SPA 1 BP 0 C: won by BAR" in lines
    assert "BAR pirates SPA at @WM with S5 against S1: the piracy succeeds" in lines
    assert "BAR 0 BP 0 C, SPA 2 BP 0 C: won by SPA" in lines
    assert view["units"]["S1"] == "Genoa (port)"
    assert "S6 returns damaged to Tunis" in lines
    assert view["powers"]["SPA"]["unrest"] == 6 and view["powers"]["BAR"]["unrest"] == 1


def test_war_28_2(lines):
    # By declarations standing in for the event and the alliance (not built).
    assert "HUG declares war on FRA with a casus belli" in lines
    assert "ENG declares war on FRA with a casus belli" in lines


def test_tactical_move_and_retreat_28_3_28_4(lines):
    assert "FRA evades from Tours: T7, T8, T9, T24 to Rouen (§12.4.2)" in lines
    assert "HUG moves T13, T14, T15, T25 from Clermont to Tours" in lines


def test_naval_combat_28_5_28_6(lines, view):
    # England 2 BP 1 C against France's 1 BP 1 C (its conscript, +1 unrest); the French squadron goes
    # back damaged to Rouen and France gives England a morale counter.
    assert "ENG S7 Q3 2->3, S8 Q2 4->4; FRA S3 Q3 4->4, CONSCRIPT Q1 3->2" in lines
    assert "ENG 2 BP 1 C, FRA 1 BP 1 C: won by ENG" in lines
    assert "FRA gives a morale counter to ENG (naval combat lost in EA); war status ENG +1" in lines
    war = next(w for w in view["wars"] if w["sides"] == ["ENG", "FRA"])
    assert war["morale"] == {"ENG": 1}


def test_subjugation_with_support_and_ambush_28_7_28_8(lines, view):
    # The Huguenots (Q3, moved: Q2) against the Paris army's opposition (Q2, English support: Q1):
    # 4 against 5->4, a draw, until AMBUSH puts France's die at 5; France makes a Q3 troop Q4.
    # §28.8: Rouen is supplied by sea (no French fleet at sea in the East Atlantic).
    assert "FRA evades from Rouen: T7, T8, T9, T24 to Paris (§12.4.2)" in lines
    assert "ENG supports HUG in Rouen with L9 (§11.4.2)" in lines
    assert "HUG FORCE Q2 4->4; FRA FORCE Q1 5->4" in lines
    assert "FRA plays Ambush" in lines
    assert "HUG 1 BP 1 C, FRA 2 BP 0 C: won by FRA" in lines
    assert view["units"]["T7"] == "Paris veteran"
    # Paris held five troops after the evasion: the excess disperses when the action ends (§15.1.1,
    # RR-I65), France's standing policy taking the default, the lowest quality and latest built first.
    assert "FRA is over the stacking limit in Paris: T24 dispersed (§15.1.1)" in lines
    assert view["units"]["T24"].startswith("dispersed")
    assert view["control"]["Rouen"] == "FRA"
    assert view["units"]["T13"] == "Rouen"  # no pay to take: "they decide to try it another time"


def test_squadron_repair_30_1_30_3(view):
    assert view["units"]["S6"] == "@WM" and view["units"]["S3"] == "@EA"
