from pbem.reports.bench import run_report_bench



def test_bench_plays_and_times_both_sides():
    result = run_report_bench(2)
    assert result["reports"] > 0 and result["steps"] > 0
    assert result["adjudication_s"] > 0 and result["render_s"] > 0
