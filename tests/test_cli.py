"""The `pbem` command as a user meets it: a real process, a real home on disk."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "ratio-regis" / "demo"
SCENARIO = ROOT / "examples" / "ratio-regis" / "scenario.toml"


def pbem(*args: str, home: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pbem", *args]
    if home is not None:
        command += ["--home", str(home)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"pbem {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def assert_clear_error(result: subprocess.CompletedProcess, text: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    assert text in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory):
    """Two demo runs in different directories."""
    outs = [tmp_path_factory.mktemp(f"demo{i}") / "out" for i in (1, 2)]
    for out in outs:
        pbem("demo", "--out", str(out))
    return outs


def status_of(home: Path) -> dict:
    return json.loads(pbem("status", "ratio-demo", "--json", home=home).stdout)


def test_every_command_has_help():
    for command in (["--help"], ["new", "--help"], ["submit", "--help"], ["list", "--help"], ["status", "--help"],
                    ["replay", "--help"], ["verify", "--help"], ["case", "run", "--help"],
                    ["scenario", "check", "--help"], ["bench", "replay", "--help"], ["demo", "--help"],
                    ["report", "--help"], ["run", "--help"], ["examples", "list", "--help"],
                    ["examples", "copy", "--help"]):
        result = pbem(*command)
        assert "Usage" in result.stdout


def test_demo_writes_one_report_per_player_and_verifies(demo_runs):
    out = demo_runs[0]
    players = [line.split("=")[1].strip().strip('"') for line in (DEMO / "players.toml").read_text().splitlines()
               if line.strip().startswith("id")]
    for player in players:
        assert (out / "reports" / f"{player}.txt").stat().st_size > 0
        assert (out / "reports" / f"{player}.html").stat().st_size > 0
    assert "steps verified" in pbem("verify", "ratio-demo", home=out / "home").stdout


def test_two_demo_runs_give_identical_state_hashes(demo_runs):
    first, second = (status_of(out / "home") for out in demo_runs)
    assert first["state_hash"] and first["state_hash"] == second["state_hash"]
    assert first["steps_resolved"] == second["steps_resolved"]


def test_status_json_has_the_promised_keys(demo_runs):
    status = status_of(demo_runs[0] / "home")
    for key in ("campaign", "ruleset", "step", "state_hash", "powers", "pending"):
        assert key in status


def test_unknown_campaign_is_one_clear_line(demo_runs):
    assert_clear_error(pbem("status", "nowhere", home=demo_runs[0] / "home", check=False),
                       "no campaign named 'nowhere'")


@pytest.mark.parametrize("command", [["list"], ["list", "--json"], ["status", "ratio-demo"], ["verify", "ratio-demo"],
                                     ["report", "ratio-demo", "--gm"], ["gm", "pause", "ratio-demo", "--reason", "x"]])
def test_commands_run_where_there_is_no_home_say_so_and_create_none(tmp_path, command):
    result = subprocess.run([sys.executable, "-m", "pbem", *command], capture_output=True, text=True, cwd=tmp_path,
                            timeout=120, env={k: v for k, v in os.environ.items() if k != "PBEM_HOME"})
    assert_clear_error(result, "no pbem home at pbem-home (no campaigns.sqlite there; nothing was created)")
    assert list(tmp_path.iterdir()) == []


def test_malformed_scenario_is_refused_and_creates_nothing(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'broken'\n[[area]]\nid = 3\n")
    result = pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(bad), "--players",
                  str(DEMO / "players.toml"), home=tmp_path / "home", check=False)
    assert_clear_error(result, "error:")
    assert json.loads(pbem("list", "--json", home=tmp_path / "home").stdout) == []


def test_unreadable_toml_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    result = pbem("scenario", "check", str(bad), check=False)
    assert_clear_error(result, "bad.toml")


def test_garbage_orders_are_answered_and_only_the_refusal_is_recorded(tmp_path):
    home = tmp_path / "home"
    pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players",
         str(DEMO / "players.toml"), home=home)
    before = status_of_campaign(home, "c1")
    token = next(line.split("=")[1].strip().strip('"') for line in (DEMO / "players.toml").read_text().splitlines()
                 if line.strip().startswith("token"))
    player = next(line.split("=")[1].strip().strip('"') for line in (DEMO / "players.toml").read_text().splitlines()
                  if line.strip().startswith("id"))
    garbage = tmp_path / "garbage.txt"
    garbage.write_text(f"SIGNON {player} c1 {token}\nFLY TO THE MOON\n\x00\x01 §§§ BID -3\n")
    result = pbem("submit", "c1", str(garbage), home=home)
    assert "Traceback" not in result.stdout + result.stderr
    assert "FLY TO THE MOON" in result.stdout
    after = status_of_campaign(home, "c1")
    assert after["state_hash"] == before["state_hash"] and after["pending"] == before["pending"]
    assert after["log_version"] == before["log_version"] + 1  # the recorded refusal, nothing else


def status_of_campaign(home: Path, name: str) -> dict:
    return json.loads(pbem("status", name, "--json", home=home).stdout)


def test_bench_report_names_its_choices_when_given_another():
    assert_clear_error(pbem("bench", "report", "--reports", "daily", check=False), "when-owed or every-step")
    assert_clear_error(pbem("bench", "report", "--store", "disk", check=False), "sqlite or memory")


def test_the_players_file_settings_are_checked_when_the_campaign_is_created(tmp_path):
    players = tmp_path / "players.toml"
    players.write_text('[settings]\nreports = "hourly"\n\n[[player]]\nid = "p1"\nname = "Ann"\n'
                       'address = "ann@example.org"\n')
    result = pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players", str(players),
                  home=tmp_path, check=False)
    assert_clear_error(result, "reports: Input should be 'when-owed' or 'every-step'")


def test_scenario_check_draws_the_map_the_reports_draw(tmp_path):
    from pbem.core import ruleset as rulesets
    from pbem.core.datafile import load_data_file
    from pbem.reports.maps import draw_map

    out = tmp_path / "map.svg"
    result = pbem("scenario", "check", str(SCENARIO), "--draw", str(out))
    assert "map drawn to" in result.stdout
    game = rulesets.load("ratio-regis")
    assert out.read_text(encoding="utf-8") == draw_map(game.scenario_map(game.load_scenario(load_data_file(SCENARIO))))
    assert out.read_text(encoding="utf-8").startswith("<svg") and "Paris" in out.read_text(encoding="utf-8")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_a_long_replay_shows_its_progress_on_a_terminal_only(demo_runs, monkeypatch, terminal):
    from pbem import cli
    from pbem.app import build_service

    out, err = (_Terminal(), _Terminal()) if terminal else (io.StringIO(), io.StringIO())
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(cli, "LONG_REPLAY", 1)
    projection = cli._replayed(build_service(demo_runs[0] / "home"), "ratio-demo", use_snapshots=False)
    assert projection.divergences == [] and projection.data.steps_resolved > 0
    assert ("replaying ratio-demo" in err.getvalue()) is terminal
    assert out.getvalue() == ""


@pytest.mark.parametrize(("bench", "missing"), [("mail", "aiosmtpd"), ("reliability", "aiosmtpd"),
                                                ("scale", "psycopg")])
def test_a_bench_without_its_extra_names_the_extra(bench, missing):
    """pbem installed without the `bench` extra: the bench says what to install."""
    blocked = (f"import sys; sys.modules[{missing!r}] = None; sys.argv = ['pbem', 'bench', {bench!r}]; "
               "from pbem.cli import main; main()")
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert_clear_error(result, f"`pbem bench {bench}` needs {missing}, which pbem's bench extra installs: "
                               "pip install 'pbem[bench]'")


def test_the_bench_extra_brings_what_the_benches_import():
    import tomllib

    from pbem.cli import BENCH_EXTRA_MODULES

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = {requirement.split("[")[0].split(">")[0].replace("-", "_") for requirement in extra["bench"]}
    assert set(BENCH_EXTRA_MODULES) - {"psycopg_pool"} <= names and "psycopg[pool" in " ".join(extra["bench"])


def test_a_report_of_a_past_turn_is_headed_by_that_turn(demo_runs):
    """Ratio Regis's turn end already starts the next turn; `--turn 6` is still turn 6."""
    home = demo_runs[0] / "home"
    for turn in ("6", "7"):
        heading = pbem("report", "ratio-demo", "--player", "p1", "--turn", turn, home=home).stdout.splitlines()[1]
        assert heading.startswith(f"Turn {turn} (") and heading.endswith("at its end"), heading


def test_help_shows_its_text_literally_and_wraps_whole_paragraphs():
    from pbem.cli import app

    new_help = pbem("new", "--help").stdout
    assert "[[player]] id, address, token" in new_help
    listing = [line.strip(" │") for line in pbem("--help").stdout.splitlines()]
    for command in app.registered_commands:
        first_paragraph = (command.callback.__doc__ or "").split("\n\n")[0].splitlines()
        for continued in (line.strip() for line in first_paragraph[1:]):
            # a docstring's own line break, kept, would start a line of the listing
            assert not any(line.startswith(continued) for line in listing), (command.name, continued)


@pytest.mark.parametrize(("field", "value", "said"), [("address", "not-an-address", "is not a mail address"),
                                                      ("address", "anne@", "is not a mail address"),
                                                      ("timezone", "Mars/Olympus", "unknown time zone 'Mars/Olympus'")])
def test_a_players_file_with_a_bad_address_or_time_zone_is_refused_by_name(tmp_path, field, value, said):
    players = tmp_path / "players.toml"
    players.write_text(f'[[player]]\nid = "p1"\naddress = "anne@example.org"\n{field} = "{value}"\n'
                       if field == "timezone" else f'[[player]]\nid = "p1"\naddress = "{value}"\n')
    result = pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players", str(players),
                  home=tmp_path / "home", check=False)
    assert_clear_error(result, f"{field}: Value error, ")
    assert said in result.stderr


def test_a_copied_demo_home_points_at_its_own_files_only(demo_runs, tmp_path):
    import shutil

    from pbem.mail.settings import load_settings

    original = demo_runs[0]
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    assert str(original) not in (copy / "home" / "pbem.toml").read_text()
    settings = load_settings(copy / "home", {})
    for path in (settings.maildir, settings.outbox_maildir):
        assert path.resolve().is_relative_to(copy), path


def test_examples_are_listed_and_copied_into_a_new_folder_only(tmp_path):
    listing = pbem("examples", "list").stdout
    assert "ratio-regis  (pbem examples copy ratio-regis)" in listing
    assert "  campaign  demo/       26 mails on scenario.toml" in listing
    assert "  scenario  scenarios/33-6-grand-campaign.toml" in listing
    pbem("examples", "copy", "empires-in-arms", str(tmp_path / "eia"))
    assert (tmp_path / "eia" / "demo" / "campaign.toml").read_text() == \
        (ROOT / "examples" / "empires-in-arms" / "demo" / "campaign.toml").read_text()
    assert not (tmp_path / "eia" / "__init__.py").exists()
    assert_clear_error(pbem("examples", "copy", "empires-in-arms", str(tmp_path / "eia"), check=False),
                       "is not an empty folder")
    assert_clear_error(pbem("examples", "copy", "monopoly", str(tmp_path / "m"), check=False),
                       "no examples for ruleset 'monopoly' (there are: empires-in-arms, ")


def test_a_campaign_with_nothing_resolved_says_so_in_replay_and_verify(tmp_path):
    home = tmp_path / "home"
    pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players", str(DEMO / "players.toml"),
         home=home)
    for command in (["replay", "c1"], ["replay", "c1", "--explain"]):
        assert pbem(*command, home=home).stdout == "no step of c1 is resolved yet: it waits at setup/bids " \
                                                   "(see `pbem status`)\n"
    verified = pbem("verify", "c1", home=home).stdout
    assert verified.startswith("c1: 0 steps verified (none is resolved yet, so there is no state hash to check)")
    assert "hash \n" not in verified
    assert_clear_error(pbem("report", "c1", "--power", "FRA", home=home, check=False),
                       "no player holds power 'FRA' in c1 at this point (powers are held once chosen; "
                       "--player ID gives a player's report)")
    assert "Report for Anne of Paris (p1)" in pbem("report", "c1", "--player", "p1", home=home).stdout


def test_demo_dice_make_the_example_mails_fit_and_are_flagged(tmp_path, demo_runs):
    home = tmp_path / "home"
    created = pbem("new", "ratio-demo", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players",
                   str(DEMO / "players.toml"), "--option", "intrinsic_action=impulse", "--demo-dice", home=home).stdout
    assert "anyone can foresee every roll" in created
    for path in sorted(DEMO.glob("00[1-8]-*.txt")):
        answer = pbem("submit", "ratio-demo", str(path), home=home).stdout
        assert "refused" not in answer.lower(), answer
    # the same deal and dice as `pbem demo`: France's first impulse leaves the same state
    ours = pbem("replay", "ratio-demo", "--to", "t6/impulse-1", home=home).stdout.splitlines()[-1]
    demo = pbem("replay", "ratio-demo", "--to", "t6/impulse-1", home=demo_runs[0] / "home").stdout.splitlines()[-1]
    assert ours.split("(")[0] == demo.split("(")[0] and ours.startswith("t6/impulse-1  state ")
