"""The replay bench runs end to end and reports every promised figure (its numbers are
measured by `pbem bench replay`, never asserted here)."""

from pbem.tools.replay_bench import run_replay_bench


def test_replay_bench_reports_every_figure():
    figures = run_replay_bench("ratio-regis", 400)
    for key in ("events", "events_per_s", "replay_to_read_ratio", "append_ms", "append_growth", "peak_mb"):
        assert key in figures
    assert figures["events"] >= 400 and figures["steps"] > 0
