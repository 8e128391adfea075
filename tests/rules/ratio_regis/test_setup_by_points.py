"""The scenarios of §33–§34 as data on the synthetic edition: each checks clean and plays its
set-up by points to the first half turn with every power's default deployment (RR-I202);
`pbem scenario check` names what an edition lacks; a new power card degrades (§8.1.2)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.alliances import end_alliances
from pbem.rules.ratio_regis.deployment import check_purchases, default_deployment, parse_purchases
from pbem.rules.ratio_regis.options import read_options
from pbem.rules.ratio_regis.power_cards import take_card
from pbem.rules.ratio_regis.scenario import PowerCardChange
from pbem.rules.ratio_regis.state import initial_state
from tests.support.judge import Judge

RULES = RatioRegis()
SCENARIOS = sorted((ROOT / "examples/ratio-regis/scenarios").glob("*.toml"))
CATHOLICS = ROOT / "examples/ratio-regis/scenarios/33-4-catholics-and-protestants.toml"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_each_scenario_checks_clean_and_deploys_by_default(path):
    data = load_data_file(path)
    scenario = RULES.load_scenario(data)
    assert RULES.check_scenario(scenario) == []
    players = [f"p{n}" for n in range(1, scenario.data.player_setups[0].players + 1)]
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    service.create("game", "ratio-regis", data, [PlayerSpec(id=p, name=p, address=f"{p}@example.org") for p in players],
                   options={}, secret=b"fixed secret for tests")
    for number, player in enumerate(players):
        service.submit("game", player, f"BID {len(players) - number}")
    for number, player in enumerate(players, start=1):
        service.submit("game", player, f"GROUP {number}")
    for player in players:
        forms = [str(r.default) for r in service.projection("game").pending_for(player) if r.kind == "deployment"]
        if forms:
            receipt = service.submit("game", player, "\n".join(forms)).receipt
            assert receipt.accepted, receipt.verdicts
    assert service.projection("game").status()["step"] == f"t{scenario.data.first_turn}/half-turn"


def test_the_default_deployment_fills_home_areas_then_lowers_unrest():
    context = {"power": "XXX", "points": 7, "areas": ("A", "B"), "ports": (), "seas": (), "troops": {"2-3": 3, "3-4": 1},
               "squadrons": {}, "room": {"A": 2, "B": 4}, "fortified": (), "merchant_room": {}, "units_at": (),
               "no_elite": {}}
    line = default_deployment("XXX", context)
    assert line == "DEPLOY XXX 2 TROOP 2-3 A; TROOP 2-3 B; TROOP 3-4 B; 3 UNREST"
    assert check_purchases(parse_purchases(line.split(None, 2)[2]), context) == ""


def test_the_default_deployment_raises_no_3_4_troop_where_an_action_could_not():
    """§24 "as explained in the actions chapter", §9.1: B is outside the home theater."""
    context = {"power": "XXX", "points": 7, "areas": ("A", "B"), "ports": (), "seas": (), "troops": {"2-3": 3, "3-4": 1},
               "squadrons": {}, "room": {"A": 2, "B": 4}, "fortified": (), "merchant_room": {}, "units_at": (),
               "no_elite": {"B": "XXX builds 3-4 troops only in WE (§9.1)"}}
    line = default_deployment("XXX", context)
    assert line == "DEPLOY XXX 2 TROOP 2-3 A; TROOP 2-3 B; 4 UNREST"
    assert check_purchases(parse_purchases("TROOP 3-4 B"), context) == "TROOP 3-4 B: XXX builds 3-4 troops only in WE (§9.1)"


def test_scenario_check_names_what_the_edition_lacks():
    data = load_data_file(CATHOLICS)
    data["cards"] = [c for c in data["cards"] if c["title"] != "Calvin"]
    data["trade_centers"] = [t for t in data["trade_centers"] if t["id"] != "IO"]
    problems = RULES.check_scenario(RULES.load_scenario(data))
    assert "edition rr-synthetic lacks card 'Calvin' (named by the active events)" in problems
    assert "edition rr-synthetic lacks trade center 'IO' (named by turn 6 special rule)" in problems


def test_a_new_power_card_degrades_what_it_lacks_and_eliminates_the_rest():
    scenario = RULES.load_scenario(load_data_file(CATHOLICS))
    state = initial_state(scenario, read_options({}), [Seat("p1", "P1"), Seat("p2", "P2")])
    old = [state.new_troop("FRA", "3-4", 4, area="Paris"), state.new_troop("FRA", "3-4", 3, area="Tours"),
           state.new_troop("FRA", "2-3", 2, area="Lyon")]
    squadron = state.new_squadron("FRA", 3, port="Rouen")
    texts = take_card(state, "FRA", PowerCardChange(turn=7, troops={"2-3": 2}, squadrons={"2": 1}))
    assert [(t.id, t.counter, t.quality) for t in state.troops] == [(old[0].id, "2-3", 3), (old[2].id, "2-3", 2)]
    assert state.squadrons == [squadron] and squadron.quality == 2
    assert f"{old[1].id} eliminated: the new card has no counter for it" in texts
    assert state.powers["FRA"].pool == {"2-3": 0, "3-4": 0} and state.powers["FRA"].squadron_pool == {"2": 0, "3": 0}


def test_a_scenarios_alliance_until_war_is_in_force_from_the_start_and_outlasts_the_turn_end():
    """§33.4 "until war breaks out, the Netherlands and Spain are allied" (RR-I188): allied from the
    start; at turn end the alliances of the turn end (§23) but this one stays."""
    rules = RatioRegis()
    scenario = rules.load_scenario(load_data_file(CATHOLICS))
    state = initial_state(scenario, read_options({}), [Seat(p, p) for p in ("p1", "p2", "p3")])
    assert state.alliances == [("NED", "SPA")]
    state.alliances.append(("ENG", "FRA"))  # one of the turn's own (§21.1)
    judge = Judge(scenario)
    end_alliances(judge, state)
    assert state.alliances == [("NED", "SPA")]
    assert judge.said == ["The alliances end with the turn: ENG–FRA (§21.1, §23)"]


def test_scenario_check_refuses_an_automatic_power_a_player_runs_or_on_unknown_places():
    """RR-I290: the Emirates of §33.1 answer another power's impulses, on a sea and port of the
    map, and no player runs them."""
    data = load_data_file(ROOT / "examples/ratio-regis/scenarios/33-1-rise-of-portugal.toml")
    emirates = next(p for p in data["powers"] if p["code"] == "EMI")
    emirates["automatic"] = {**emirates["automatic"], "after": "EMI", "sea": "Nowhere", "capital": "Atlantis"}
    data["player_setups"][0]["groups"][0]["powers"].append("EMI")
    problems = RULES.check_scenario(RULES.load_scenario(data))
    assert "power EMI: automatic: after names 'EMI', not another power" in problems
    assert "power EMI: automatic: unknown sea 'Nowhere'" in problems
    assert "power EMI: automatic: unknown area 'Atlantis'" in problems
    assert "power EMI: automatic: 1 players, group Portugal runs it: an automatic power has no player" in problems
