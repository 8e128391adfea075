from pbem.core.datafile import load_data_file
from pbem.tools.examples import demo_dir
from pbem.tools.report_bench import run_example_bench, run_report_bench


def test_bench_plays_and_times_both_sides():
    result = run_report_bench(2)
    assert result["reports"] > 0 and result["steps"] > 0
    assert result["adjudication_s"] > 0 and result["render_s"] > 0


def test_example_bench_renders_what_the_campaign_mails():
    source = demo_dir("ratio-regis", "demo")
    players = load_data_file(source / "players.toml")["player"]
    every = run_example_bench("ratio-regis", "demo", "every-step")
    assert every["mails"] == len(list(source.glob("[0-9]*.txt")))
    assert every["finished"] and every["reports"] >= len(players)
    assert every["adjudication_s"] > 0 and every["render_s"] > 0
    owed = run_example_bench("ratio-regis", "demo")
    assert owed["reports_setting"] == "when-owed" and owed["finished"]
    # Everybody at the end, so at least one report each; fewer than everybody at every step.
    assert len(players) <= owed["reports"] < every["reports"]
