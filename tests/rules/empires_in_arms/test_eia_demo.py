"""`pbem demo --ruleset empires-in-arms` plays the example campaign through the mail path:
a report for every power, each hiding the other power's corps strengths (§2.4.2), battles
fought with chits by mail, the whole log verified, and the same hash on every run."""

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
    assert "11 mails read" in summary  # the Ulm chits of both sides and France's at Munich among them


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
    assert "10 INF 4 MIL" in austria and "10 INF 4 MIL" not in france  # AU-II
    row = next(line for line in austria.splitlines() if line.startswith("FR-Gd"))
    assert row.rstrip().endswith("?")


def test_the_demo_report_draws_the_scenario_map(demo):
    out, _ = demo
    html = (out / "reports" / "p1.html").read_text(encoding="utf-8")
    assert "Vienna" in html and "<svg" in html


def test_both_reports_show_the_battle_of_the_last_month_and_not_its_strengths(demo):
    out, _ = demo
    for player in ("p1", "p2"):
        report = (out / "reports" / f"{player}.txt").read_text(encoding="utf-8")
        assert "Combats this month" in report
        assert "Munich: FR (FR-I, FR-Cav) against AU-Cav: FR wins" in report


def test_the_chits_at_ulm_are_answered_by_mail_and_sealed(demo):
    out, _ = demo
    mails = [path.read_text(encoding="utf-8") for path in (out / "mail" / "new").iterdir()]
    to_france = [m for m in mails if "To: berthier@example.org" in m]
    to_austria = [m for m in mails if "To: mack@example.org" in m]
    assert any("chit: CHIT assault" in m for m in to_france)
    assert any("chit: CHIT cordon" in m for m in to_austria)
    assert not any("chit: CHIT assault" in m for m in to_austria)
