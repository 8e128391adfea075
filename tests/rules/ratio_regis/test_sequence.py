"""The sequence of play through the core service: auction, deck, half turn, impulses,
actions and turn end (§7.1.1, §8, §9, §10.2)."""

from __future__ import annotations

from dataclasses import fields

from conftest import CATHOLICS, Game, ordered_deal, three_player_game
from pbem.core.decisions import kinds_of
from pbem.core.engine import StepContext
from pbem.rules.ratio_regis.impulse import Ledger, run_script
from pbem.rules.ratio_regis.state import decode_state, encode_state


def play(game: Game, player: str, script: str):
    receipt = game.send(player, script)
    assert receipt.accepted, (receipt.reason, receipt.verdicts)
    return receipt


def refused(game: Game, player: str, script: str) -> str:
    receipt = game.send(player, script)
    assert not receipt.accepted
    return receipt.reason


# -- §7.1.1, §26.2 ----------------------------------------------------------------
def test_power_auction_of_26_2():
    game = Game(CATHOLICS)
    game.dice("auction-tiebreak", [5, 2])
    game.send("p1", "BID 6")
    game.send("p2", "BID 2")
    assert game.owed("p3") == ["bid"]
    assert game.view("p1")["players"]["p2"]["bid"] is None  # sealed until all are in
    game.send("p3", "BID 2")
    assert game.owed("p1") == ["group"]
    game.send("p1", "GROUP 1")
    assert game.owed("p2") == ["group"]
    assert not game.send("p2", "GROUP 1").accepted  # taken
    game.send("p2", "GROUP 2")
    game.send("p3", "GROUP 3")
    players = game.view()["players"]
    assert [players[p]["vp"] for p in ("p1", "p2", "p3")] == [2, 7, 4]
    assert [players[p]["game_order"] for p in ("p1", "p2", "p3")] == [1, 2, 3]
    assert game.view()["powers"]["FRA"]["player"] == "p2"


def test_tie_lost_on_the_dice_changes_the_game_order():
    game = Game(CATHOLICS)
    game.dice("auction-tiebreak", [1, 6])
    for player, bid in (("p1", 6), ("p2", 2), ("p3", 2)):
        game.send(player, f"BID {bid}")
    assert game.view()["players"]["p3"]["game_order"] == 2


# -- §8.1.4, §26.4 ----------------------------------------------------------------
def test_deck_of_26_4():
    game = Game(CATHOLICS)
    for player, bid in (("p1", 6), ("p2", 3), ("p3", 1)):
        game.send(player, f"BID {bid}")
    for player, group in (("p1", 1), ("p2", 2), ("p3", 3)):
        game.send(player, f"GROUP {group}")
    state = game.state()
    assert [len(p.hand) for p in state.players] == [13, 13, 13]
    dealt = sorted(n for p in state.players for n in p.hand)
    assert len(set(dealt)) == 39
    assert [n for n in dealt if n > 100] == list(range(101, 116))
    assert not set(dealt) & {11, 12, 13, 14, 15, 16, 17, 18, 26, 28}
    assert "the deck has 39 cards, 15 historical and 24 generic" in " ".join(game.chronicle())


def test_hands_are_hidden_from_other_players():
    game = three_player_game()
    titles = [s["title"] for s in game.view("p2")["sections"]]
    assert "Your hand" in titles and not any(t.startswith("Hand of") for t in titles)
    assert not any("hand" in s["title"].lower() for s in game.view("public")["sections"])
    assert sum(s["title"].startswith("Hand of") for s in game.view("gm")["sections"]) == 3
    assert game.view("public")["players"]["p1"]["cards_in_hand"] == 3
    assert all("Your hand" not in line for line in game.chronicle("public"))


# -- §8.2.1 -------------------------------------------------------------------------
def test_least_vp_chooses_the_start():
    game = three_player_game()
    assert game.owed("p1") == ["start"]
    play(game, "p1", "START p2 CCW")
    assert game.owed("p2") == ["impulse"]
    play(game, "p2", "PLAY 102 POINTS HUG=2\nDONE")
    assert game.owed("p1") == ["impulse"]  # counter-clockwise from p2


def test_tie_on_vp_goes_to_the_lower_player_number():
    game = Game()
    for player, bid in (("p1", 1), ("p2", 1), ("p3", 0)):
        game.dice("auction-tiebreak", [2, 6]) if player == "p1" else None
        game.send(player, f"BID {bid}")
    for player in ("p2", "p1", "p3"):
        game.send(player, f"GROUP {({'p2': 1, 'p1': 3, 'p3': 2})[player]}")
    players = game.view()["players"]
    assert players["p2"]["game_order"] == 1 and players["p2"]["vp"] == 0
    assert players["p1"]["vp"] == 1 and players["p3"]["vp"] == 3
    game2 = Game(name="g2")
    for player, bid in (("p1", 1), ("p2", 0), ("p3", 0)):
        game2.dice("auction-tiebreak", [3, 4]) if player == "p1" else None
        game2.send(player, f"BID {bid}")
    for player, group in (("p1", 2), ("p3", 1), ("p2", 3)):
        game2.send(player, f"GROUP {group}")
    # p3 (order 2): 1-0+0 = 1 VP; p2 (order 3): 1-0+1 = 2; p1: 0+2 = 2
    assert game2.owed("p3") == ["start"]


# -- §8.2.2 card play -------------------------------------------------------------------
def test_priority_card_before_others_but_combat_cards_may_delay_it():
    game = three_player_game()
    play(game, "p1", "START p2 CW")
    reason = refused(game, "p2", "PLAY 5 POINTS HUG=2")
    assert "priority" in reason and "102" in reason
    play(game, "p2", "PLAY 2 POINTS HUG=1\nHUG C2 BUILD TROOP Q2 AT Poitiers")
    assert game.state().player("p2").hand == [5, 102]


def test_a_power_takes_points_from_one_card_per_impulse():
    game = Game(players=("p1", "p2"))
    ordered_deal(game, 39, 8)
    game.send("p1", "BID 2"), game.send("p2", "BID 0")
    game.send("p1", "GROUP 1"), game.send("p2", "GROUP 2")
    play(game, "p1", "START p2 CW")
    # p2 (HUG, ENG) holds 1, 3, 5, 102
    reason = refused(game, "p2", "PLAY 102 POINTS HUG=2\nPLAY 1 POINTS HUG=1")
    assert "one card per impulse" in reason
    play(game, "p2", "PLAY 102 POINTS HUG=2\nPLAY 1 POINTS ENG=1\nHUG C102 BUILD TROOP Q2 AT Poitiers")


def test_cardless_impulse_has_one_extra_action():
    game = Game(players=("p1", "p2"))
    ordered_deal(game, 39, 8)
    game.send("p1", "BID 2"), game.send("p2", "BID 0")
    game.send("p1", "GROUP 1"), game.send("p2", "GROUP 2")
    play(game, "p1", "START p2 CW")
    play(game, "p2", "PLAY 102 POINTS HUG=2\nPLAY 1 POINTS ENG=1")
    play(game, "p1", "PLAY 101 POINTS FRA=3")
    play(game, "p2", "PLAY 3 POINTS ENG=1\nPLAY 5 POINTS HUG=2")
    play(game, "p1", "PLAY 103 POINTS FRA=2")
    assert game.view()["players"]["p2"]["cards_in_hand"] == 0
    assert game.owed("p2") == ["impulse"]
    assert "must" not in game.projection.pending_for("p2")[0].prompt
    reason = refused(game, "p2", "HUG X BUILD TROOP Q2 AT Poitiers\nENG X BUILD TROOP Q2 AT London")
    assert "extra action" in reason
    assert "not at war" in refused(game, "p2", "ENG W REGROUP T12 AT London")
    play(game, "p2", "HUG I BUILD TROOP Q2 AT Poitiers\nHUG X BUILD TROOP Q2 AT Toulouse\n"
                     "ENG I REGROUP T12 AT York\nDONE")
    forces = {row[0]: row[3] for s in game.view()["sections"] if s["title"] == "Forces" for row in s["rows"]}
    assert forces["T12"] == "York" and forces["T13"] == "Poitiers" and forces["T14"] == "Toulouse"


# -- §9.1, §9.5, §10.2 ----------------------------------------------------------------------
def started(player="p2"):
    game = three_player_game()
    play(game, "p1", f"START {player} CW")
    return game


def test_build_troop_rules():
    game = started()
    assert "no 3-4 troop counter" in refused(game, "p2", "PLAY 102 POINTS HUG=2\nHUG I BUILD TROOP Q3 AT Poitiers\n"
                                                          "HUG C102 BUILD TROOP Q3 AT Bordeaux")
    assert "did you mean Bordeaux" in refused(game, "p2", "PLAY 102 POINTS HUG=2\nHUG I BUILD TROOP Q2 AT Bordaux")
    assert "not a possession controlled by HUG" in refused(game, "p2", "PLAY 102 POINTS HUG=2\n"
                                                                        "HUG I BUILD TROOP Q2 AT Paris")
    assert "stacking limit" in refused(game, "p2", "PLAY 102 POINTS HUG=2\nHUG I BUILD TROOP Q2 AT Clermont\n"
                                                   "HUG C102 BUILD TROOP Q2 AT Clermont")
    play(game, "p2", "PLAY 102 POINTS HUG=2\nHUG I BUILD TROOP Q3 AT Poitiers\nHUG C102 BUILD TROOP Q2 AT Clermont")
    assert game.view()["powers"]["HUG"]["available"] == {"2-3": 1, "3-4": 0}


def test_elite_troops_go_to_the_home_theater_or_by_option_any_home_area():
    game = started("p1")
    assert "theater with most of its home areas" in refused(game, "p1", "PLAY 101 POINTS FRA=3\n"
                                                                        "FRA I BUILD TROOP Q3 AT Marseille")
    game = three_player_game(elite_build="home-areas")
    play(game, "p1", "START p1 CW")
    play(game, "p1", "PLAY 101 POINTS FRA=3\nFRA I BUILD TROOP Q3 AT Marseille")


def test_regroup_and_strategic_move():
    game = started("p1")
    assert "not in the area of dispersion box" in refused(game, "p1", "PLAY 101 POINTS FRA=3\n"
                                                                      "FRA I REGROUP T5 AT Marseille")
    assert "controlled by HUG" in refused(game, "p1", "PLAY 101 POINTS FRA=3\n"
                                                      "FRA I STRAT TROOP T1 PATH Tours>Poitiers>Bordeaux")
    play(game, "p1", "PLAY 101 POINTS FRA=3\nFRA I REGROUP T5 AT Rouen PATH Rouen>Paris\n"
                     "FRA C101 STRAT TROOP T1 PATH Tours>Orleans>Troyes>Lyon\nFRA E HOME T4\nDONE")
    forces = {row[0]: row[3] for s in game.view()["sections"] if s["title"] == "Forces" for row in s["rows"]}
    assert forces["T5"] == "Paris" and forces["T1"] == "Lyon" and forces["T4"] == "dispersed (WE-C)"


def test_intrinsic_action_once_per_impulse():
    game = started("p1")
    assert "intrinsic action" in refused(game, "p1", "PLAY 1 POINTS FRA=1\nFRA I BUILD TROOP Q2 AT Paris\n"
                                                     "FRA I BUILD TROOP Q2 AT Rouen")


def test_a_troop_regrouped_home_cannot_regroup_in_the_same_impulse():
    game = started("p1")
    assert "at the end of the impulse" in refused(game, "p1", "PLAY 1\nFRA I HOME T4")
    assert "before the end-of-impulse" in refused(game, "p1", "PLAY 1\nFRA E HOME T4\nFRA I REGROUP T4 AT Paris")


# -- §8.2, §8.3, §23 ---------------------------------------------------------------------
def test_half_turn_ends_with_the_last_card_and_the_turn_advances():
    game = started("p1")
    scripts = {"p1": ["PLAY 101 POINTS FRA=3", "PLAY 1", "PLAY 4"],
               "p2": ["PLAY 102", "PLAY 2", "PLAY 5"],
               "p3": ["PLAY 6", "PLAY 3", "PLAY 103"]}
    for round_ in range(3):
        for player in ("p1", "p2", "p3"):
            play(game, player, scripts[player][round_])
    assert game.step() == "t6/end"  # §23.1.2: each power may give up units; the default keeps them all
    assert game.owed("p1") == ["disband"]
    for player in ("p1", "p2", "p3"):
        play(game, player, "KEEP")
    assert game.step() == "t7/half-turn"
    view = game.view()
    # The Huguenots' 3 VP, +1 for La Rochelle, +1 for presence in WE and +1 VP per turn (§22, §26.1)
    assert view["turn"] == 7 and view["players"]["p2"]["vp"] == 6
    assert all(p["cards_in_hand"] == 3 for p in view["players"].values())


def test_default_answer_plays_the_lowest_legal_card():
    game = started("p1")
    request = game.projection.pending_for("p1")[0]
    assert request.default == ["PLAY 1 POINTS FRA=1", "DONE"]
    assert kinds_of(game.projection.ruleset).order_form(request) == "PLAY 1 POINTS FRA=1\nDONE"


def test_game_ends_after_the_last_turn():
    game = started("p1")
    for _turn in (6, 7):
        while game.step() and game.step().endswith("half-turn"):
            play(game, "p1", "START p1 CW")
        for _ in range(9):
            player = game.view()["impulse"]["current"]
            play(game, player, kinds_of(game.projection.ruleset).order_form(game.projection.pending_for(player)[0]))
        for player in ("p1", "p2", "p3"):  # §23.1.2 at turn end: the default form keeps every unit
            for request in game.projection.pending_for(player):
                play(game, player, kinds_of(game.projection.ruleset).order_form(request))
        if game.step() and game.step().endswith("half-turn"):
            play(game, "p1", "START p1 CW")
    assert game.projection.finished
    assert game.view()["winners"]


def test_options_intrinsic_per_turn_and_move_home_of_dispersed_troops_only():
    game = three_player_game(intrinsic_action="turn", home_move="dispersed-only")
    play(game, "p1", "START p1 CW")
    assert "only a dispersed troop" in refused(game, "p1", "PLAY 1\nFRA E HOME T4")
    play(game, "p1", "PLAY 1\nFRA I BUILD TROOP Q2 AT Paris")
    play(game, "p2", "PLAY 102")
    play(game, "p3", "PLAY 6")
    assert "intrinsic action this turn" in refused(game, "p1", "PLAY 4\nFRA I BUILD TROOP Q2 AT Rouen")


def test_malformed_lines_always_get_an_answer():
    game = started("p1")
    for junk in ("", "PLAY -1", "FRA C BUILD", "@@@", "PLAY 999", "FRA I STRAT TROOP T99 PATH Paris",
                 "FRA I STRAT TROOP T1 PATH Tours>@EA>Rouen", "ZZZ I BUILD TROOP Q2 AT Paris", "START p9 CW"):
        receipt = game.send("p1", junk)
        assert junk == "" or not receipt.accepted
        assert all(v.reason for v in receipt.verdicts if not v.accepted)
    assert "not on the coast of @EA" in refused(game, "p1", "PLAY 1\nFRA I STRAT TROOP T1 PATH Tours>@EA>Rouen")


def test_an_illegal_line_leaves_the_probed_copy_as_the_lines_before_it_made_it():
    """The probe copies the state once a script: a line refused after it changed the copy
    (a troop built, then over Clermont's stacking limit at the end of the action, §15.1.1)
    is undone by carrying the lines before it out again, so the next line still finds the
    troop counter in the pool."""
    game = started()
    state, scenario = game.projection.current()[1], game.projection.scenario
    build = ["PLAY 102 POINTS HUG=2", "HUG I BUILD TROOP Q2 AT Clermont"]
    last = "HUG C102 BUILD TROOP Q2 AT Bordeaux"
    with_fault = run_script(state, scenario, "p2", list(enumerate([*build, "HUG C102 BUILD TROOP Q2 AT Clermont",
                                                                   last], start=1)))
    without = run_script(state, scenario, "p2", list(enumerate([*build, last], start=1)))
    assert [line.accepted for line in with_fault.lines] == [True, True, False, True]
    assert "stacking limit" in with_fault.lines[2].reason
    assert encode_state(with_fault.state) == encode_state(without.state)


def test_a_live_script_refused_whole_goes_back_to_the_state_its_step_began_with():
    """Live, the script is carried out on the step's own state and does not save it first:
    refused whole (a line over Clermont's stacking limit, §15.1.1), `undo` puts back the
    copy of the step's start the engine gives (`step_start`)."""
    game = started()
    state, scenario = game.projection.current()[1], game.projection.scenario
    start = encode_state(state)
    ctx = StepContext(campaign="c", step="s", secret=bytes(32), answers={}, policies=[],
                      answer_policy=lambda policy, request: None, forced={}, scenario=scenario, seats={},
                      step_start=lambda: decode_state(start))
    lines = ["PLAY 102 POINTS HUG=2", "HUG I BUILD TROOP Q2 AT Clermont", "HUG C102 BUILD TROOP Q2 AT Clermont"]
    run = run_script(state, scenario, "p2", list(enumerate(lines, start=1)), ctx, ctx.step_start)
    assert not run.legal and run.state is state and 102 not in state.player("p2").hand
    run.undo()
    assert encode_state(state) == start


def test_a_ledger_copy_keeps_every_field_and_shares_nothing_mutable():
    """`Ledger.copy` names its fields one by one (cheaper than `dataclasses.replace`): a
    field added to the ledger and forgotten there would silently fall back to its default
    when a refused line is undone."""
    ledger = Ledger(held_cards=True, intrinsic={"FRA"}, card_points={"FRA": [3, 2]}, extra_used=True,
                    at_war_moves={"T1"}, home_moves={"T2"}, leader_moves={"FRA"}, stage="end", played=[3], done=True, acted={"T3"},
                    pirated={"S1"}, tactical_leaders={"L1"}, closed=True)
    defaults = Ledger(held_cards=False)
    assert all(getattr(ledger, f.name) != getattr(defaults, f.name) for f in fields(Ledger))
    copy = ledger.copy()
    assert copy == ledger
    for f in fields(Ledger):
        value = getattr(ledger, f.name)
        if isinstance(value, set | list | dict):
            assert getattr(copy, f.name) is not value, f.name
    copy.card_points["FRA"][1] = 0
    assert ledger.card_points["FRA"] == [3, 2]
