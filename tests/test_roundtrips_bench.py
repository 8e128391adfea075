"""`pbem bench roundtrips` counts every time a campaign stopped until a mail came (issue 35):
a step opening, a decision asked inside a step (a reaction, a retreat), a GM's pause; per game
turn as the ruleset names it, with the mails it took, beside the same game sent step by step
and with every decision asked by mail."""

from __future__ import annotations

import json
import subprocess
import sys

from pbem.core.gm import GameMaster
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.tools.examples import deliver_example, demo_dir
from pbem.tools.roundtrips_bench import count_stops, play_example, run_roundtrips_bench


def test_a_reaction_asked_by_mail_is_counted_as_a_wait():
    # war-demo's mail 008 is France's first impulse: its march on Clermont asks the Huguenots,
    # inside that impulse, whether they stand or evade (§12.4) — a mail awaited like any step
    play = play_example(demo_dir("ratio-regis", "war-demo"), upto=8)
    stops = count_stops(play.ruleset, play.facts)
    assert stops.waits["turn 6"] == 3  # the half turn's start, impulse 1, and the reaction asked in it
    assert stops.asked["turn 6"] == 1
    assert dict(stops.causes) == {"step opened": 6, "asked inside a step": 1}  # 4 set-up steps too


def test_a_pause_only_the_gms_mail_ends_is_counted_as_a_wait():
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    name = list(deliver_example(service, demo_dir("ratio-regis", "war-demo"), upto=7))[-1].campaign
    GameMaster(service).pause(name, "map dispute")
    stops = count_stops(service.projection(name).ruleset, service.loader.campaign_events(name))
    assert stops.causes["paused by the GM"] == 1
    assert stops.waits["turn 6"] == 3  # the half turn's start, impulse 1, the pause


def test_the_war_demo_waits_21_and_16_times_a_turn_and_queued_not_once_in_three_mails():
    figures = run_roundtrips_bench("ratio-regis", "war-queued")
    plain = figures["sent_step_by_step"]
    assert plain["example"] == "war-demo" and plain["finished"]
    assert [plain["waits_per_turn"][t] for t in ("turn 6", "turn 7")] == [21, 16]
    assert [plain["asked_inside_a_step_per_turn"][t] for t in ("turn 6", "turn 7")] == [5, 0]
    assert [plain["mails_per_turn"][t] for t in ("turn 6", "turn 7")] == [21, 16]
    assert figures["finished"] and figures["mails"] == 3
    assert figures["mails_per_turn"] == {"set-up": 3, "turn 6": 0, "turn 7": 0}
    assert [figures["waits_per_turn"][t] for t in ("turn 6", "turn 7")] == [0, 0]  # the issue asks at most 5
    assert figures["state_hash"] == plain["state_hash"]
    by_mail = figures["every_decision_by_mail"]
    assert by_mail["played"] == "every decision asked by mail" and by_mail["finished"]
    assert by_mail["state_hash"] == plain["state_hash"]
    # the battles' decisions the war-demo's standing policies answer are stops when mailed
    assert by_mail["waits_per_turn"]["turn 6"] > plain["waits_per_turn"]["turn 6"]


def test_another_ruleset_is_counted_per_turn_as_it_names_its_turn():
    # the EiA demo fights some battles with chits from standing tactics: by mail they are stops too
    figures = run_roundtrips_bench("empires-in-arms", "demo")
    assert figures["turn_name"] == "month"
    assert list(figures["waits_per_turn"]) == ["month 1", "month 2", "month 3", "month 4"]
    by_mail = figures["every_decision_by_mail"]
    assert by_mail["state_hash"] == figures["state_hash"]
    assert by_mail["waits"] > figures["waits"]


def test_a_play_nothing_but_mails_answered_is_not_played_again_by_mail():
    play = play_example(demo_dir("ratio-regis", "war-demo"), upto=8)  # before any policy answered
    assert not play.answered_without_mail


def _pbem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, timeout=300)


def test_the_cli_prints_the_plays_side_by_side_and_json():
    table = _pbem("bench", "roundtrips", "--example", "war-queued")
    assert table.returncode == 0, table.stderr
    header, columns, *rows = table.stdout.splitlines()
    assert header == "ratio-regis: stops that waited for a mail (mails taken), per turn"
    assert columns.split() == ["war-queued", "war-demo", "all", "by", "mail"]
    assert rows[1].split()[:6] == ["turn", "6", "0", "(0)", "21", "(21)"]
    data = json.loads(_pbem("bench", "roundtrips", "--example", "war-demo", "--json").stdout)
    assert data["waits_per_turn"] == {"set-up": 4, "turn 6": 21, "turn 7": 16}
    missing = _pbem("bench", "roundtrips", "--example", "nowhere")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr
    assert "no example campaign 'nowhere'" in missing.stderr
