from pbem.core.datafile import load_data_file
from pbem.demo import demo_dir
from pbem.reports.bench import run_example_bench, run_report_bench


def test_bench_plays_and_times_both_sides():
    result = run_report_bench(2)
    assert result["reports"] > 0 and result["steps"] > 0
    assert result["adjudication_s"] > 0 and result["render_s"] > 0


def test_example_bench_plays_every_mail_and_reports_to_every_player():
    source = demo_dir("ratio-regis", "demo")
    result = run_example_bench("ratio-regis", "demo")
    players = load_data_file(source / "players.toml")["player"]
    assert result["mails"] == len(list(source.glob("[0-9]*.txt")))
    assert result["finished"] and result["reports"] % len(players) == 0 and result["reports"] > 0
    assert result["adjudication_s"] > 0 and result["render_s"] > 0
