"""The playbook's running example game (§26–§32) as an example campaign
(`examples/ratio-regis/playbook/`), played mail by mail on the synthetic war scenario, with
the GM forcing the dice the book names (`GM DICE`). Each test asserts the outcome of one
worked example the built rules reach.

Impulse 4 plays the book's REBELLION IN SCOTLAND (§30.2) and impulse 5 its REBELLION IN
FLANDERS (§31.1–§31.2), whose events two generic cards of `war.toml` carry; England joining a
war stands in as a declaration (§28.2, §31.2). Not followed (each mail says why): the other
card events and the technology auction (§27.2–§27.3, §28.2, §28.8, §31.6's CASUS BELLI),
alliances, expeditionary corps and combined fleets (§28.1, §28.16, §31.6), the mini-maps
(§28.9–§28.14, §29.1: the cases `subjugation-28-12` and `subjugation-29-1` hold those
examples), minor powers (§29.2–§29.4; Scotland's army of §31.3 is an English one here), the
battle for Rouen of §30.3–§30.4 (the case `naval-prelude-30-4`) and so the regroup of §31.4,
and peace (§31.10–§31.11: France keeps two of its four morale counters, and negotiations are
not adjudicated). The campaign stops with p1 owing the sixth impulse; §32.1 is the case
`siege-32-1`."""

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


@pytest.fixture(scope="module")
def impulse_5(played) -> list:
    """The decisions answered in p3's impulse 5 (§31), in the order they were asked."""
    projection = played.service.loader.load(played.name, use_snapshots=False)
    step = next(r for r in projection.resolved if r.step == "t6/impulse-5")
    return [(used.request, used.answer.value) for used in step.result.used]


def asked(decisions: list, kind: str, area: str | None = None) -> list:
    return [(request, answer) for request, answer in decisions
            if request.kind == kind and (area is None or request.context.get("area") == area)]


def test_every_mail_is_taken_and_replay_agrees(played):
    assert played.refused == []
    assert played.service.loader.load(played.name, use_snapshots=False).divergences == []
    assert played.projection().step == "t6/impulse-6"


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
    # no pay to take ("they decide to try it another time"): the army is still in Rouen in §31.7
    assert "HUG moves T13, T14, T15, T25 from Rouen to Rennes" in lines


def test_squadron_repair_30_1_30_3(view):
    assert view["units"]["S6"] == "@WM" and view["units"]["S3"] == "@EA"


def test_rebellion_30_2(lines, view):
    # REBELLION IN SCOTLAND (card 8): the R3 goes to Glasgow, the Scottish minor's area that is not
    # independent, key, a commercial port nor held by military units (§18.3, RR-I80).
    assert ("Rebellion in Scotland: a rebellion R3 breaks out in Glasgow (SCO keeps possession but loses control) "
            "(§18.3)") in lines
    assert view["revolts"] == {"Glasgow": "R3"}


def test_apply_event_from_a_card_31_1(lines, view):
    # REBELLION IN FLANDERS (card 9), its event applied before the card's points: war between the
    # Netherlands and Spain by event, the Dutch marker in Brugge, a Spanish morale counter to the Dutch.
    impulse = next(line for line in lines if line.startswith("William of Orange's impulse: plays 9"))
    assert impulse.index("NED and SPA go to war") < impulse.index("ENG declares war on SPA")
    war = next(w for w in view["wars"] if w["sides"] == ["NED", "SPA"])
    assert war["cause"] == "event" and war["morale"] == {"NED": 1}
    assert "SPA gives a morale counter to NED (Rebellion in Flanders); war status NED +1" in lines
    assert view["control"]["Brugge"] == "NED"
    assert view["control"]["Luxembourg"] == "SPA"  # the book's Lorraine


def test_repatriation_of_troops_31_2(lines, view, impulse_5):
    # Spain's troops in Brugge go home one by one by strategic moves, the leader riding with one of them,
    # to Luxembourg (the Spanish area nearest the book's Lorraine); England joins the Dutch cause.
    answers = [answer for _, answer in asked(impulse_5, "repatriate")]
    assert answers == ["REPATRIATE T1 TO Luxembourg", "REPATRIATE T2 TO Luxembourg", "REPATRIATE T3 TO Luxembourg"]
    for troop in ("T1", "T2", "T3"):
        assert f"SPA repatriates {troop} strategically Brugge>Luxembourg (§14.1.1)" in lines
        assert view["units"][troop] == "Luxembourg"
    assert view["units"]["L3"] == "on T1"
    assert "ENG declares war on SPA with a casus belli" in lines
    assert any(w["sides"] == ["ENG", "SPA"] for w in view["wars"])


def test_strategic_movement_of_an_army_by_sea_31_3(lines, view, impulse_5):
    # England's leader goes onto another London troop and the army sails to Chester; Spain (and France)
    # may intercept in the East Atlantic and decline.
    assert "ENG builds leader L5 (Turgut Reis, admiral) on T19, ordinary side" in lines
    impulse = next(line for line in lines if line.startswith("William of Orange's impulse: plays 9"))
    assert "ENG moves army L5 strategically London>@NS>@EA>Chester" in impulse
    interceptions = asked(impulse_5, "intercept")
    assert [(r.power, r.context["sea"], answer) for r, answer in interceptions] == [("SPA", "EA", "PASS"),
                                                                                    ("FRA", "EA", "PASS")]
    assert view["units"]["T17"] == "Chester" and view["units"]["T18"] == "Chester"
    assert view["units"]["L5"] == "on T17" and view["units"]["T19"] == "London"
    assert view["units"]["S2"] == "@EA"


def test_fortress_construction_31_5(lines, view):
    # The Dutch army moves strategically into Flanders (Brugge here) and starts a fortress there, which
    # stays under construction until the next Dutch impulse.
    impulse = next(line for line in lines if line.startswith("William of Orange's impulse: plays 9"))
    assert "NED moves army L11 strategically Breda>Zeeland>Brugge" in impulse
    assert "NED starts building fortress F6 in Brugge" in impulse
    assert view["units"]["F6"] == "Brugge (under construction)"
    assert view["units"]["T22"] == "Brugge" and view["units"]["T23"] == "Brugge"


def test_interception_with_a_troop_declined_31_7(lines, impulse_5):
    # Rennes and Nantes are two areas from the French army in Paris: France could only intercept with a
    # single troop of it (§12.4.1, RR-I87), and declines twice.
    for area in ("Rennes", "Nantes"):
        [(request, answer)] = asked(impulse_5, "react", area)
        assert request.options == ("STAND", "INTERCEPT FROM Paris")
        assert request.context["single"] == {"Paris": ("T7", "T8", "T9", "T10")}
        assert answer == "STAND"
    assert "HUG moves T13, T14, T15, T25 from Rouen to Rennes" in lines
    assert "HUG moves T13, T14, T15, T25 from Rennes to Nantes" in lines


def test_subjugation_advantages_and_disadvantages_31_8(lines, view):
    # All the Huguenot troops moved (Q3-1 = Q2); Paris opposes from two areas away (Q2-1 = Q1): 3 against
    # 3->2, and the Huguenots take Nantes, its commercial port razed.
    assert "HUG FORCE Q2 3->3; FRA FORCE Q1 3->2" in lines
    assert "subjugation of Nantes: HUG beats FRA" in lines
    assert "HUG takes control of Nantes (subjugation won); its commercial port is razed (§19.2.4)" in lines
    assert view["control"]["Nantes"] == "HUG"


def test_interception_with_an_army_and_the_battle_31_9(lines, view, impulse_5):
    # France intercepts the march on Tours with all the army of Paris; the Troyes troops could come only
    # as a single troop, from another area, and stay out. The Huguenots win, take a French morale counter
    # and Tours.
    [(request, answer)] = asked(impulse_5, "react", "Tours")
    assert "INTERCEPT FROM Troyes" in request.options and request.context["single"] == {"Troyes": ("T11", "T26")}
    assert answer == "INTERCEPT FROM Paris"
    assert "FRA intercepts from Paris into Tours with T7, T8, T9, T10 (§12.4.1)" in lines
    assert "HUG 6 BP 1 C, FRA 5 BP 1 C: won by HUG" in lines
    assert "field battle in Tours: HUG beats FRA" in lines
    assert "FRA retreats T7, T10 from Tours to Paris (§13.3.6)" in lines
    assert "FRA gives a morale counter to HUG (field combat lost in Tours); war status HUG +1" in lines
    assert view["control"]["Tours"] == "HUG"
    assert {view["units"][t] for t in ("T13", "T14", "T25")} == {"Tours"}
    assert view["units"]["T11"] == "Troyes" and view["units"]["T26"] == "Troyes"
    war = next(w for w in view["wars"] if w["sides"] == ["HUG", "FRA"])
    assert war["morale"] == {"HUG": 1}


def test_no_end_of_war_yet_31_10(view):
    # The book's France has given all four of its counters; here it has given two (to England in §28.6,
    # to the Huguenots in §31.9), so it is not forced to negotiate (and peace is not adjudicated yet).
    assert view["powers"]["FRA"]["morale"] == 2
    assert {tuple(w["sides"]) for w in view["wars"]} >= {("HUG", "FRA"), ("ENG", "FRA")}
