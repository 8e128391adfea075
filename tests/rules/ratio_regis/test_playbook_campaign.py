"""The playbook's running example game (§26–§32) as an example campaign
(`examples/ratio-regis/playbook/`), played mail by mail on the synthetic war scenario, with
the GM forcing the dice the book names (`GM DICE`), to the end of the book's turn. Each test
asserts the outcome of one worked example the campaign reaches.

Impulse 4 plays the book's REBELLION IN SCOTLAND (§30.2) and impulse 5 its REBELLION IN
FLANDERS (§31.1–§31.2), whose events two generic cards of `war.toml` carry; England joining a
war stands in as a declaration (§28.2, §31.2). Not followed (each mail says why): the other
card events and the technology auction (§27.2–§27.3, §28.2, §28.8, §31.6's CASUS BELLI),
alliances, expeditionary corps and combined fleets (§28.1, §28.16, §31.6: the `alliances-*`
cases), the mini-maps (§28.9–§28.14, §29.1: the cases `subjugation-28-12` and
`subjugation-29-1`), minor powers (§29.2–§29.4, the `minors-*` cases; Scotland's army of
§31.3 is an English one here), the battle for Rouen of §30.3–§30.4 (the case
`naval-prelude-30-4`) and so the regroup of §31.4. France therefore keeps two of its four
morale counters after §31.9 and opens the §31.10 negotiations with the Huguenots voluntarily
(§21.4.1) rather than forced: 3–0 where the book has 4–0 (the case `peace-31-10-31-11` is the
book's count). §32.1's siege of Zeeland (`siege-32-1`) and §32.10's collapse of Hungary
(`peace-32-10-collapse`) have no place in this position; §32.8's Spain is not agitated here
(`agitation-disperse-32-8`), France is, and changes its dynasty as in §32.9. The campaign ends
with France redeployed at turn 7's start, p2 owing turn 7's choice of the first impulse."""

from __future__ import annotations

import pytest
from campaigns import EXAMPLES, play

from pbem.mail.envelope import parse_mail
from pbem.tools.demo import as_mail


@pytest.fixture(scope="module")
def played():
    return play("playbook")


@pytest.fixture(scope="module")
def lines(played) -> list[str]:
    projection = played.service.loader.load(played.name, use_snapshots=False)
    return [c.text for r in projection.resolved for c in r.result.chronicle]


@pytest.fixture(scope="module")
def view() -> dict:
    """The position after §31.9 (mail 039), where the §26–§31.9 examples are asserted."""
    return play("playbook", upto=39).projection().view("gm")


@pytest.fixture(scope="module")
def end_view(played) -> dict:
    """The position at the end of the book's turn (turn 6), turn 7 dealt."""
    return played.projection().view("gm")


@pytest.fixture(scope="module")
def turn_end(played) -> list[str]:
    """The chronicle of turn 6's end (§8.3, §23), in order."""
    projection = played.service.loader.load(played.name, use_snapshots=False)
    step = next(r for r in projection.resolved if r.step == "t6/end")
    return [c.text for c in step.result.chronicle]


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
    assert played.projection().step == "t7/half-turn"


@pytest.mark.parametrize("mail", sorted((EXAMPLES / "playbook").glob("[0-9]*.txt")), ids=lambda p: p.name)
def test_the_mail_gateway_reads_each_mail_as_written(mail):
    # `pbem demo --example playbook` sends the files as mail: a comment line of 60 to 78 characters
    # looks hard-wrapped to the gateway, which would join the next order line to it.
    text = mail.read_text(encoding="utf-8")
    raw = as_mail(text, sender="someone@example.org", to="gm@example.org", number=1, name="playbook")
    assert parse_mail(raw).text.splitlines() == text.splitlines()


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


def test_end_of_war_31_10(lines, view):
    # The book's France has given all four of its counters and must negotiate; here it has given two (to
    # England in §28.6, to the Huguenots in §31.9), half its morale, so it may ask for peace at the start
    # of its own impulse (§21.4.1) and, as in the book, it chooses the Huguenots.
    assert view["powers"]["FRA"]["morale"] == 2
    assert "Peace negotiations between HUG and FRA (requested by FRA): war status HUG 1–0 FRA" in lines


def test_peace_negotiations_31_11(lines, end_view):
    # Nantes and Tours, two non-key French areas, cost France one point; asking for peace, one more: 3–0
    # (the book's 4–0 counted §30.4's two counters, one of them lost with Rouen). The Huguenots' unrest
    # does not rise, France's by 3 (the book's 4). The war was declared, not begun by an event: no card VP.
    assert ("Area adjustment: HUG lost 0 non-key area(s); FRA lost 2 non-key area(s): FRA gives one of its counters; "
            "HUG 2–0 FRA") in lines
    assert "FRA asked for peace: FRA gives one of its counters; HUG 3–0 FRA" in lines
    assert "HUG wins the war against FRA by 3: unrest HUG +0, FRA +3" in lines
    # Three conditions; no "military victory" target in the synthetic scenario, so a VP costs two (§21.5.3):
    # 1 VP and one more point of French unrest. The key areas count as home and cannot be demanded.
    assert "Peace terms: William of Orange gains 1 VP for HUG and has 8" in lines
    assert "Peace terms: HUG's unrest −1, FRA's +1" in lines
    # The captured areas go back, the army of Tours is repatriated: one troop to Toulouse, the rest to
    # Clermont; forced peace until the end of the turn, France still at war with England.
    assert "Areas returned: Nantes, Tours (§21.5.3)" in lines
    # Each troop makes a tactical move (§14.1), Clermont reached in one step (RR-I70).
    assert "HUG repatriates T14 by a tactical move Tours>Clermont>Toulouse (§14.1)" in lines
    for troop in ("T13", "T25"):
        assert f"HUG repatriates {troop} by a tactical move Tours>Clermont (§14.1)" in lines
    assert end_view["units"]["L2"] == "on T13" and end_view["units"]["T13"] == "Clermont"
    assert end_view["control"]["Tours"] == "FRA" and end_view["control"]["Nantes"] == "FRA"
    peace = lines.index("HUG and FRA are at peace, in forced peace until the end of the turn (§21.5.4); each recovers "
                        "its morale counters (§21.3.4): HUG has 3, FRA 3")
    assert lines.index("Peace negotiations between ENG and FRA (at turn end): war status ENG 1–0 FRA") > peace


def test_final_half_turn_32_2(lines, played):
    # p2, cardless, makes the intrinsic actions, France's free regroup (at war with England) and the extra
    # action; p3 has played its last card and is cardless too (the book's p3 plays it now); p1, with two
    # cards left, plays one for its points and, in the battle of Brugge, the other, a combat card: the
    # half turn ends with that impulse.
    assert ("Catherine of Paris's impulse: FRA regroups T8 at Paris; FRA regroups T9 at Troyes; "
            "FRA regroups T24 at Orleans") in lines
    assert "William of Orange's impulse: HUG regroups T15 at Bordeaux" in lines
    impulse = next(line for line in lines if line.startswith("Philip of Madrid's impulse: plays 10"))
    assert "field battle in Brugge: SPA beats NED" in impulse
    assert "SPA plays Flanking Attack" in lines
    projection = played.service.loader.load(played.name, use_snapshots=False)
    assert [r.step for r in projection.resolved if r.step.startswith("t6/")][-2:] == ["t6/impulse-12", "t6/end"]


def test_end_of_war_at_end_of_turn_32_3(turn_end):
    # Every war ends at turn end without the requester's point (§21.5). The book's Spain wins 2–1 against
    # the Netherlands; here each took one counter (the event's, the battle of Brugge's) and no area: a draw,
    # each side's unrest +1, no card VP. England beat France at sea (§28.6) and wins by one.
    assert "The war between NED and SPA ends in a draw (NED 1–1 SPA): unrest NED +1, SPA +1" in turn_end
    assert "ENG wins the war against FRA by 1: unrest ENG +0, FRA +1" in turn_end
    assert "The war between ENG and SPA ends in a draw (ENG 0–0 SPA): unrest ENG +0, SPA +0" in turn_end


def test_commercial_competition_32_4(turn_end, end_view):
    # The book's WM: 2 Barbary merchants, 1 Spanish, 1 French for a capacity of 2. Its Barcelona was razed
    # (a triple tie at one port); here Barcelona works and Tunis counts, so France (one port) loses first,
    # then the Barbary Coast (two ports, vitality 2 before Spain's 5): 1 Barbary and 1 Spanish merchant
    # are left, as in the book.
    assert ("Commercial competition in TC-WM (4 merchants, capacity 2), by uninterrupted commercial ports, vitality, "
            "player: FRA 1 (ports 1: Marseille; vitality 4; player 2), BAR 2 (ports 2: Algiers, Tunis; vitality 2; "
            "player 2), SPA 1 (ports 2: Barcelona, Genoa; vitality 5; player 1)") in turn_end
    assert "Commercial competition in TC-WM ends: BAR 1, SPA 1" in turn_end
    assert end_view["merchants"]["TC-WM"] == {"BAR": 1, "SPA": 1}


def test_income_and_expenses_32_5(turn_end):
    # The book's Spain: 22 against 23, unrest 10 -> 11. Here its card and one merchant give 12 against 13
    # (no colonies, non-native key areas or rebellions in the synthetic scenario): the same one point.
    assert "SPA income 12: the power card 10; 1 merchant(s) in TC-WM 2" in turn_end
    assert ("SPA expenses 13: troops (5 on the map, 1 dispersed, 0 eliminated) 6; squadrons × 2 (2 operational, "
            "0 under repair, 0 eliminated) 4; leaders 2; fortresses (0 under construction) 1") in turn_end
    assert "SPA: expenses exceed income by 1: unrest 8 → 9" in turn_end


def test_degradation_and_elimination_32_6(turn_end, end_view):
    # Spain has no veteran here (the book's four come from §32.1's siege); France turns its one veteran back.
    # "Spain decides to eliminate one of its leaders now."
    assert "FRA turns T7 back to regular (half its veterans, rounded up)" in turn_end
    assert "SPA eliminates L10 (back to its pool) (§23.1.2)" in turn_end
    assert "L10" not in end_view["units"] and end_view["units"]["L3"] == "on T1"


def test_counting_victory_points_32_7(turn_end, end_view):
    # §32.7: the book's Spain scores 8 VP from objectives (Milan, areas in CM and America), presence in
    # three theaters and a Caribbean monopoly, none of which the synthetic scenario has; here Spain is
    # present in the Western Mediterranean only (it possesses two Western Europe areas, Brugge and
    # Luxembourg, under the three that presence needs): 1 VP. The war VP were counted when the wars ended
    # (p3's peace VP of §31.11). Every power is counted after the dynastic change, France too.
    assert not any(line.startswith("Not adjudicated yet") for line in turn_end)
    assert "Philip of Madrid: SPA, presence in WM (7 areas): +1 VP" in turn_end
    assert "Philip of Madrid scores 1 VP at the end of Turn 6 (1565–1579) and has 3" in turn_end
    assert "Catherine of Paris scores 1 VP at the end of Turn 6 (1565–1579) and has 1" in turn_end
    assert "William of Orange: NED, monopoly in TC-NS: +1 VP" in turn_end
    assert "William of Orange scores 4 VP at the end of Turn 6 (1565–1579) and has 12" in turn_end
    assert {player: row["vp"] for player, row in end_view["players"].items()} == {"p1": 3, "p2": 1, "p3": 12}


def test_social_agitation_and_dynastic_change_32_8_32_9(turn_end, end_view):
    # France ends the economic phase at 13, five over twice its vitality (the book's Spain of §32.8 is at
    # 13 too); like the book's France of §32.9, p2 changes the dynasty: 4 VP lost, every French unit,
    # merchant and revolt removed, unrest back to 4, a redeployment with the card's 10 points next turn
    # and two R3 rebellions now.
    assert "FRA: expenses exceed income by 2: unrest 11 → 13" in turn_end
    assert ("FRA makes a dynastic change (a voluntary dynastic change): Catherine of Paris loses 4 VP and has 0"
            in turn_end)
    assert ("FRA: its units are eliminated (T7, T8, T9, T10, T11, T24, T26, S3, S4, F2, L1, L7), its merchants "
            "removed (TC-EA), the revolts in its territory end (none); unrest 13 → 4") in turn_end
    assert ("FRA redeploys at the start of the next turn as if entering the game, with 10 points (its card's income) "
            "(§23.3, §24)") in turn_end
    assert end_view["revolts"] == {"Calais": "R3", "StQuentin": "R3", "Glasgow": "R3"}
    assert {"T7", "S3", "F2", "L7"}.isdisjoint(end_view["units"])
    # Spain (unrest 9, under twice its vitality 10) is not agitated.
    assert end_view["powers"]["SPA"]["unrest"] == 9


def test_redeployment_after_the_dynastic_change_32_9(lines, end_view):
    # "At the beginning of the next turn, p2 will proceed with France as if entering into play for the
    # first time … he would place unrest at 4, but as initial points he would have only the 10 that appear
    # in the card as income" (§24): the book does not say how they are spent; p2 lowers unrest to 1.
    assert ("France deploys: T27, T28, T29, T30 (2-3) at Paris; T31, T32 (2-3) at Lyon; unrest lowered by 3; "
            "unrest 1") in lines
    assert end_view["powers"]["FRA"]["unrest"] == 1
    assert end_view["revolts"]["Calais"] == "R3" and end_view["revolts"]["StQuentin"] == "R3"


def test_the_books_turn_ends(end_view):
    # Every war is over, the forced peaces end with the turn, and turn 7 is dealt.
    assert end_view["turn"] == 7 and end_view["wars"] == []
