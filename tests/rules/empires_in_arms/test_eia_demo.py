"""`pbem demo --ruleset empires-in-arms` plays the example campaign through the mail path:
a report for every power, each hiding the other power's corps strengths (§2.4.2), the
whole log verified, and the same hash on every run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.tools.demo import run_demo

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("eia-demo") / "out"
    return out, run_demo("empires-in-arms", out)


def test_the_demo_plays_every_month_to_the_end(demo):
    _, summary = demo
    assert "now finished" in summary
    assert "16 steps resolved" in summary  # four months: reinforcement, two land sequences, time record


def test_the_demo_log_verifies(demo):
    out, _ = demo
    result = subprocess.run([sys.executable, "-m", "pbem", "verify", "eia-demo", "--home", str(out / "home")],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "16 steps verified" in result.stdout


def test_each_report_shows_its_own_corps_strengths_and_hides_the_others(demo):
    out, _ = demo
    france = (out / "reports" / "p1.txt").read_text(encoding="utf-8")
    austria = (out / "reports" / "p2.txt").read_text(encoding="utf-8")
    assert "6 GRD" in france and "6 GRD" not in austria  # the Guard, FR-Gd
    assert "14 INF" in austria and "14 INF" not in france  # AU-I
    row = next(line for line in austria.splitlines() if line.startswith("FR-Gd"))
    assert row.rstrip().endswith("?")


def test_the_demo_report_draws_the_scenario_map(demo):
    out, _ = demo
    html = (out / "reports" / "p1.html").read_text(encoding="utf-8")
    assert "Vienna" in html and "<svg" in html
